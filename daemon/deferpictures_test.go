package daemon_test

import (
	"context"
	"path/filepath"
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
