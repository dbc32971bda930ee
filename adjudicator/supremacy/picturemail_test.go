package supremacy_test

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// Each player's results mail carries its own picture of the phase (its own
// events larger and listed under the legend, issue 31 item 10), the GM and
// an observer the public one; the players read the attack in their mail.
func TestResultsPictureIsEachPlayers(t *testing.T) {
	registerTestEngines(t)
	tb := daemontest.New(t)
	who := start(tb, "sup3", "supremacy-test")
	tb.Send("watcher@example.test", "", "OBSERVE sup3")
	tb.Outbox()
	as := func(p, text string) { tb.Send(who[p][0], who[p][1], text) }
	as("usa", "PLACE 6 ARMIES IN Texas, 3 NAVIES IN Caribbean")
	as("russia", "PLACE 5 ARMIES IN Moscow, 4 ARMIES IN Siberia")
	as("china", "PLACE 9 ARMIES IN Beijing")
	tb.Outbox()
	tb.Wait(time.Minute)
	tb.Outbox()
	tb.Wait(8 * 24 * time.Hour) // salaries: the defaults
	tb.Outbox()
	as("china", "BUY 1 GRAIN\nBUY 1 OIL\nBUY 1 MINERALS")
	tb.Outbox()
	tb.Wait(8 * 24 * time.Hour) // trade: the others' defaults
	tb.Outbox()
	if g := tb.Game("sup3"); g.PhaseID != "T01-3" {
		t.Fatalf("not in the attack phase: %s", g.PhaseID)
	}
	// China attacks Mongolia; the others pass.
	as("china", "ATTACK Mongolia FROM Beijing BLITZ 2")
	as("usa", "PASS")
	as("russia", "PASS")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms := tb.Outbox()
	var rec = tb.Phase("sup3", 3)
	if rec.PhaseID != "T01-3" {
		t.Fatalf("history record 3 is %s", rec.PhaseID)
	}
	file := "sup3-T01-3.png"
	height := func(p []byte) int {
		img, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dy()
	}
	public := daemontest.Drawn(t, "supremacy-test", rec.StateAfter, rec.Data, "")
	for _, addr := range []string{daemontest.GM, "watcher@example.test"} {
		if got := daemontest.OnePicture(t, daemontest.One(t, ms, addr, "results"), file); !bytes.Equal(got, public) {
			t.Errorf("%s's picture is not the public one", addr)
		}
	}
	for _, p := range []string{"usa", "russia", "china"} {
		m := daemontest.One(t, ms, who[p][0], "results")
		daemontest.Contains(t, m.Text, "China attacks: Mongolia from Beijing")
		got := daemontest.OnePicture(t, m, file)
		if !bytes.Equal(got, daemontest.Drawn(t, "supremacy-test", rec.StateAfter, rec.Data, p)) {
			t.Errorf("%s's picture is not its own picture of the phase", p)
		}
		if height(got) <= height(public) {
			t.Errorf("%s's picture is %d px high, the public one %d: no list of its own events", p, height(got), height(public))
		}
	}
	china := daemontest.OnePicture(t, daemontest.One(t, ms, who["china"][0], "results"), file)
	usa := daemontest.OnePicture(t, daemontest.One(t, ms, who["usa"][0], "results"), file)
	if bytes.Equal(china, usa) {
		t.Error("China's picture (its attack numbered and listed) is the United States' (nothing happened to it)")
	}
	daemontest.Lacks(t, daemontest.One(t, ms, who["china"][0], "results").Text, "Not made")
}
