package daemon_test

import (
	"bytes"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// TestResultsMailCarriesThePicture: every results mail of a standard game
// (players, observer, GM copy) carries the picture of the position after
// the phase; STATUS carries the board now; MAP S1901M the position after
// S1901M, MAP the board now, and MAP of a phase not played one sentence.
func TestResultsMailCarriesThePicture(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("pic1", "standard", "")
	tb.Send("watcher@example.test", "", "OBSERVE pic1")
	watcher := daemontest.One(t, tb.Outbox(), "watcher@example.test", "")
	players := tb.SignUp("pic1", standardPowers)

	tb.As(players["france"], "A Par-Bur")
	tb.Outbox()
	tb.Wait(49 * time.Hour)
	ms := tb.Outbox()
	rec := tb.Phase("pic1", 0)
	want := daemontest.Drawn(t, "standard", rec.StateAfter, rec.Data, "")
	var readers []string
	for _, p := range standardPowers {
		readers = append(readers, p+"@example.test")
	}
	for _, addr := range append(readers, "watcher@example.test", daemontest.GM) {
		m := daemontest.One(t, ms, addr, "results")
		if got := daemontest.OnePicture(t, m, "pic1-S1901M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's results picture is not the position after S1901M", addr)
		}
		daemontest.Contains(t, m.Text, "Spring 1901")
	}
	if watcher.Token == "" {
		t.Fatal("the observer got no reply token")
	}

	// STATUS: the board the players order from now.
	tb.As(players["england"], "STATUS")
	status := daemontest.One(t, tb.Outbox(), "england@example.test", "Re:")
	now := daemontest.OnePicture(t, status, "pic1-F1901M.png")
	state := tb.Phase("pic1", 0).StateAfter
	if !bytes.Equal(now, daemontest.Drawn(t, "standard", state, nil, "")) {
		t.Error("STATUS's picture is not the board now")
	}

	tb.As(players["france"], "A Bur-Mun")
	tb.Outbox()
	tb.Wait(73 * time.Hour) // Fall orders are due on Friday (the weekly calendar, calendar.go)
	tb.Outbox()

	tb.As(players["england"], "MAP S1901M")
	old := daemontest.One(t, tb.Outbox(), "england@example.test", "Re:")
	daemontest.Contains(t, old.Text, "Map of pic1 after Spring 1901", "pic1-S1901M.png")
	if !bytes.Equal(daemontest.OnePicture(t, old, "pic1-S1901M.png"), want) {
		t.Error("MAP S1901M is not the position after S1901M")
	}
	tb.Send("watcher@example.test", watcher.Token, "MAP")
	cur := daemontest.One(t, tb.Outbox(), "watcher@example.test", "Re:")
	rec1 := tb.Phase("pic1", 1)
	got := tb.Game("pic1")
	if g := daemontest.OnePicture(t, cur, "pic1-"+got.PhaseID+".png"); !bytes.Equal(g, daemontest.Drawn(t, "standard", rec1.StateAfter, nil, "")) || bytes.Equal(g, want) {
		t.Error("MAP is not the board now")
	}

	tb.As(players["england"], "MAP S1905M")
	none := daemontest.One(t, tb.Outbox(), "england@example.test", "Re:")
	daemontest.Contains(t, none.Text, "MAP S1905M: pic1 has no such phase in its history; send HISTORY for the list of phases, or MAP for the board now.")
	if len(none.Pictures()) != 0 || none.Type != "text/plain" {
		t.Errorf("MAP of no phase carries a picture (%s)", none.Type)
	}
}
