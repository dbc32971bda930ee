package daemon_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
	"pbemd/store/storetest"
)

// Options.DeferPictures (the adjudication-only benchmark's) commits the
// results with their mails held and draws nothing: no report leaves
// without its picture. The next Tick of a daemon without it draws them,
// and every report then goes with its own game's picture.
func TestDeferPicturesHoldsTheReports(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	const games = 3
	daemontest.Populate(t, db, games, deadline)
	opt := daemon.Options{Address: "gm@bench.test", Now: func() time.Time { return deadline.Add(30 * time.Second) }, DeferPictures: true}
	d, err := daemon.New(db, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	var queued int
	db.View(func(tx *store.Tx) error {
		queued = tx.OutboxLen()
		return nil
	})
	if queued != 8*games || d.Metrics().PicturesDrawn.Load() != 0 {
		t.Fatalf("%d mails queued and %d pictures drawn; want %d queued, none drawn", queued, d.Metrics().PicturesDrawn.Load(), 8*games)
	}
	if sent := storetest.Outbox(t, db, "gm@bench.test"); len(sent) != 0 {
		t.Fatalf("%d reports left without their pictures (to %s first)", len(sent), sent[0].To)
	}

	opt.DeferPictures = false
	later, err := daemon.New(db, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := later.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := storetest.Outbox(t, db, "gm@bench.test")
	if len(sent) != 8*games {
		t.Fatalf("%d reports went after the next Tick; want %d", len(sent), 8*games)
	}
	checkOwnPictures(t, sent)
}

// A game's results mails keep the public results once in the outbox (a
// part every mail of the game names, another game's its own) and read
// back whole: each with the results and its own picture.
func TestResultsTextKeptOnce(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	const games = 2
	daemontest.Populate(t, db, games, deadline)
	d, err := daemon.New(db, daemon.Options{Address: "gm@bench.test", Now: func() time.Time { return deadline.Add(30 * time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	db.View(func(tx *store.Tx) error {
		for id := uint64(1); id <= 8*games; id++ {
			m, err := tx.OutboxMail(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Parts) != 2 || !strings.HasPrefix(m.Parts[0].Key, "text/") {
				t.Fatalf("mail %d to %v has parts %+v: its results text is not kept apart", id, m.To, m.Parts)
			}
			keys[m.Parts[0].Key]++
		}
		return nil
	})
	if len(keys) != games {
		t.Errorf("%d results texts kept for %d games: %v", len(keys), games, keys)
	}
	sent := storetest.Outbox(t, db, "gm@bench.test")
	if len(sent) != 8*games {
		t.Fatalf("%d reports; want %d", len(sent), 8*games)
	}
	checkOwnPictures(t, sent)
	for _, m := range sent {
		if !strings.Contains(m.Text, "--- the position now ---") || !strings.Contains(m.Text, "Spring 1901 Movement — results") || !strings.Contains(m.Text, "Send VERIFY") {
			t.Fatalf("report to %s reads:\n%s", m.To, m.Text)
		}
	}
}
