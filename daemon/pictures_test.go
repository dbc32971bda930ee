package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
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
	drawn := tb.D.Metrics().PicturesDrawn.Load()
	tb.Wait(49 * time.Hour)
	ms := tb.Outbox()
	if n := tb.D.Metrics().PicturesDrawn.Load() - drawn; n != 1 {
		t.Errorf("%d pictures drawn for the results, want one for all their mails (Diplomacy hides nothing)", n)
	}
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

// TestResultsWaitForTheirPicture: the results of a phase are committed
// with their mails held for the picture, which is drawn after the
// commit. When the daemon dies before the picture is stored (here: every
// write after the results' fails, as on a full disk, and the daemon is
// given up), not one results mail leaves without it; the next daemon over
// the store draws it at its first tick, and then every reader gets the
// results with the picture of the position after the phase.
func TestResultsWaitForTheirPicture(t *testing.T) {
	var offset time.Duration
	var committed atomic.Bool // the results are in the store
	tb := daemontest.NewWith(t, func(o *daemon.Options) {
		now := o.Now
		o.Now = func() time.Time { return now().Add(offset) }
		o.Kick = func() { committed.Store(true) }
	})
	tb.Create("held", "standard", "")
	players := tb.SignUp("held", standardPowers)
	tb.As(players["france"], "A Par-Bur")
	tb.Outbox()

	disk := errors.New("no space left on device")
	committed.Store(false)
	tb.DB.SetWriteFault(func(store.Commit) error {
		if committed.Load() {
			return disk
		}
		return nil
	})
	offset = 49 * time.Hour
	if err := tb.D.Tick(context.Background()); !errors.Is(err, disk) {
		t.Fatalf("tick with the pictures' writes failing: %v, want the disk's error", err)
	}
	tb.DB.SetWriteFault(nil)
	if g := tb.Game("held"); g.Phase != 1 {
		t.Fatalf("the results were not committed: the game is at phase %d", g.Phase)
	}
	if ms := tb.Outbox(); len(ms) != 0 {
		t.Fatalf("%d mails left before their picture was drawn, the first to %s: %q", len(ms), ms[0].To, ms[0].Subject)
	}
	var held int
	tb.DB.View(func(tx *store.Tx) error { held = tx.OutboxLen(); return nil })
	if held != len(standardPowers)+1 {
		t.Fatalf("%d mails in the outbox, want the %d results mails held", held, len(standardPowers)+1)
	}

	// The next daemon over the store (the first one is given up).
	d, err := daemon.New(tb.DB, daemon.Options{Address: daemontest.Address, GM: []string{daemontest.GM}, Now: func() time.Time { return tb.Now().Add(offset) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms := tb.Outbox()
	rec := tb.Phase("held", 0)
	want := daemontest.Drawn(t, "standard", rec.StateAfter, rec.Data, "")
	for _, p := range standardPowers {
		m := daemontest.One(t, ms, p+"@example.test", "results")
		if got := daemontest.OnePicture(t, m, "held-S1901M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's results picture is not the position after S1901M", p)
		}
	}
	daemontest.OnePicture(t, daemontest.One(t, ms, daemontest.GM, "results"), "held-S1901M.png")
	if len(ms) != len(standardPowers)+1 {
		t.Errorf("%d mails after the restart, want the %d results mails", len(ms), len(standardPowers)+1)
	}
}
