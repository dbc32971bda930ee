package empire_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/daemon/daemontest"
)

// drawnSVG is the SVG of the picture the engine of variant draws.
func drawnSVG(t *testing.T, variant string, state, results []byte, viewer string) string {
	t.Helper()
	e, ok := adjudicator.Lookup(variant)
	if !ok {
		t.Fatalf("no engine %s", variant)
	}
	p, err := e.(adjudicator.Drawer).Draw(state, results, viewer)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var unitTokenRE = regexp.MustCompile(`>([A-Z])([0-9]+)</text>`)

// unitTokens adds up the units a picture's tokens show, by power letter.
func unitTokens(t *testing.T, svg string) map[string]int {
	t.Helper()
	i := strings.Index(svg, `<g id="units">`)
	if i < 0 {
		t.Fatal("no units in the picture")
	}
	body := svg[i:]
	body = body[:strings.Index(body, "</g>")]
	got := map[string]int{}
	for _, m := range unitTokenRE.FindAllStringSubmatch(body, -1) {
		n, _ := strconv.Atoi(m[2])
		got[m[1]] += n
	}
	return got
}

// TestEmpireResultsPictureKeepsFog: under fog of war each Empire player's
// results mail carries that player's own view, never another's or more:
// the picture read from red's mail is the engine's picture for red, and
// differs from blue's, which shows what red may not see; observers and the
// GM get the GM's view, which shows every unit of every power.
func TestEmpireResultsPictureKeepsFog(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("fog1", "empire2", "fog=2")
	tb.Send("watcher@example.test", "", "OBSERVE fog1")
	players := tb.SignUp("fog1", []string{"red", "blue"})
	tb.Outbox()
	tb.As(players["red"], "BID 2")
	tb.As(players["blue"], "BID 4")
	tb.Outbox()
	tb.Wait(25 * time.Hour)
	ms := tb.Outbox()
	rec := tb.Phase("fog1", 0)
	file := "fog1-" + rec.PhaseID + ".png"
	red := daemontest.OnePicture(t, daemontest.One(t, ms, "red@example.test", "results"), file)
	blue := daemontest.OnePicture(t, daemontest.One(t, ms, "blue@example.test", "results"), file)
	public := daemontest.Drawn(t, "empire2", rec.StateAfter, rec.Data, "")
	if !bytes.Equal(red, daemontest.Drawn(t, "empire2", rec.StateAfter, rec.Data, "red")) {
		t.Error("red's results picture is not red's own view")
	}
	if !bytes.Equal(blue, daemontest.Drawn(t, "empire2", rec.StateAfter, rec.Data, "blue")) {
		t.Error("blue's results picture is not blue's own view")
	}
	if bytes.Equal(red, blue) || bytes.Equal(red, public) {
		t.Error("red's picture is blue's or the public one: fog of war is not kept per player")
	}
	for _, addr := range []string{"watcher@example.test", daemontest.GM} {
		if !bytes.Equal(daemontest.OnePicture(t, daemontest.One(t, ms, addr, "results"), file), public) {
			t.Errorf("%s's picture is not the GM's and observers' view", addr)
		}
	}
	// That view shows every unit: as many of red's as red's own picture
	// shows, and of blue's as blue's.
	counts := func(viewer string) map[string]int {
		return unitTokens(t, drawnSVG(t, "empire2", rec.StateAfter, rec.Data, viewer))
	}
	all, reds, blues := counts(""), counts("red"), counts("blue")
	if all["R"] == 0 || all["R"] != reds["R"] || all["B"] != blues["B"] {
		t.Errorf("the GM's picture shows units %v; red's own shows %d of red's, blue's %d of blue's", all, reds["R"], blues["B"])
	}
	// STATUS and MAP show red its own view too.
	tb.As(players["red"], "STATUS\nMAP "+rec.PhaseID)
	reply := daemontest.One(t, tb.Outbox(), "red@example.test", "Re:")
	ps := reply.Pictures()
	if len(ps) != 2 || !bytes.Equal(ps[1].Data, red) {
		t.Fatalf("red's STATUS and MAP reply has %d pictures, or its MAP is not red's view", len(ps))
	}
	state := tb.Phase("fog1", 0).StateAfter
	if !bytes.Equal(ps[0].Data, daemontest.Drawn(t, "empire2", state, nil, "red")) {
		t.Error("red's STATUS picture is not red's view of the board now")
	}
}
