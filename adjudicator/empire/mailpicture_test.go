package empire_test

import (
	"bytes"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// TestEmpireResultsPictureKeepsFog: under fog of war each Empire player's
// results mail carries that player's own view, never another's or more:
// the picture read from red's mail is the engine's picture for red, and
// differs from blue's, which shows what red may not see; observers and the
// GM get the public view.
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
			t.Errorf("%s's picture is not the public view", addr)
		}
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
