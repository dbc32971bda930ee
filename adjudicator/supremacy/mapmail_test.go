package supremacy_test

import (
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/daemon/daemontest"
)

// TestSupremacyMapInText: MAP lets a Supremacy player learn the board in
// text (area ids, names, borders and controllers, as the engine writes
// it), with the picture.
func TestSupremacyMapInText(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sup1", "supremacy-3", "")
	players := tb.SignUp("sup1", []string{"usa", "russia", "china"})
	tb.Outbox()
	tb.As(players["usa"], "MAP")
	m := daemontest.One(t, tb.Outbox(), "usa@example.test", "Re:")
	state := tb.State("sup1")
	e, _ := adjudicator.Lookup("supremacy-3")
	text, err := e.(adjudicator.TextMapper).TextMap(state, "usa")
	if err != nil {
		t.Fatal(err)
	}
	if len(text) < 500 {
		t.Fatalf("the text map is %d bytes", len(text))
	}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n")[:20] {
		daemontest.Contains(t, m.Text, line)
	}
	daemontest.OnePicture(t, m, "sup1-"+tb.Game("sup1").PhaseID+".png")
}
