package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
	"pbemd/store/storetest"
)

// A deadline burst of more games than one transaction takes (256): each
// batch's pictures are drawn while the next batch is adjudicated. A daemon
// that can write nothing more from some point on (as a daemon killed
// there: after the first batch's commit, or after the next write, which
// may be the first batch's pictures or the second batch) leaves every
// report it committed held until its picture is stored: none leaves
// without it. The next daemon over the store draws what is missing and
// processes the rest: every report once, each with the picture of its own
// game.
//
// Under the race detector it is skipped (its 260 games and 500 pictures
// take minutes there); the pipeline runs in every Tick of the other
// tests, and TestResultsWaitForTheirPicture fails its writes.
func TestBurstPicturesHeldAcrossBatches(t *testing.T) {
	if raceDetector {
		t.Skip("260 games and 500 pictures take minutes under the race detector; run without -race")
	}
	const games = 260
	for _, dieAfter := range []int32{1, 2} {
		t.Run(fmt.Sprintf("writes refused after %d commits", dieAfter), func(t *testing.T) {
			db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			deadline := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
			daemontest.Populate(t, db, games, deadline)
			now := func() time.Time { return deadline.Add(30 * time.Second) }

			var kicks atomic.Int32 // commits that let mail go: a batch's, or pictures'
			d, err := daemon.New(db, daemon.Options{Address: "gm@bench.test", Now: now, Kick: func() { kicks.Add(1) }})
			if err != nil {
				t.Fatal(err)
			}
			disk := errors.New("no space left on device")
			db.SetWriteFault(func(store.Commit) error {
				if kicks.Load() >= dieAfter {
					return disk
				}
				return nil
			})
			if err := d.Tick(context.Background()); !errors.Is(err, disk) {
				t.Fatalf("tick with writes refused: %v, want the disk's error", err)
			}
			db.SetWriteFault(nil)
			var processed, held int
			db.View(func(tx *store.Tx) error {
				held = tx.OutboxLen()
				for _, name := range tx.Games() {
					if g, _ := tx.Game(name); g.Phase == 1 {
						processed++
					}
				}
				return nil
			})
			if processed < 256 || held != 8*processed {
				t.Fatalf("%d games processed and %d mails queued before the writes stopped; want the first batch of 256 at least, 8 mails each", processed, held)
			}
			first := storetest.Outbox(t, db, "gm@bench.test")
			checkOwnPictures(t, first)

			// The next daemon over the store.
			d2, err := daemon.New(db, daemon.Options{Address: "gm@bench.test", Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if err := d2.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			rest := storetest.Outbox(t, db, "gm@bench.test")
			checkOwnPictures(t, rest)
			if got := len(first) + len(rest); got != 8*games {
				t.Fatalf("%d reports sent in all (%d before the restart), want %d: 8 for each of %d games", got, len(first), 8*games, games)
			}
			seen := map[string]bool{}
			for _, m := range append(first, rest...) {
				k := m.To + " " + m.Subject
				if seen[k] {
					t.Fatalf("a second report to %s: %q", m.To, m.Subject)
				}
				seen[k] = true
			}
			// A sample of the pictures is the position drawn from the
			// history.
			tb := &daemontest.Table{T: t, DB: db}
			for _, m := range append(first, rest...)[:3] {
				game := gameOf(t, m)
				rec := tb.Phase(game, 0)
				if want := daemontest.Drawn(t, "standard", rec.StateAfter, rec.Data, ""); !bytes.Equal(m.Parts[1].Data, want) {
					t.Errorf("the picture of %s's report to %s is not its position after S1901M", game, m.To)
				}
			}
		})
	}
}

// checkOwnPictures fails the test for a report without its game's
// picture.
func checkOwnPictures(t *testing.T, ms []daemontest.Mail) {
	t.Helper()
	for _, m := range ms {
		if m.Type != "multipart/mixed" || len(m.Parts) != 2 || m.Parts[1].Type != "image/png" || !bytes.HasPrefix(m.Parts[1].Data, []byte("\x89PNG")) {
			t.Fatalf("report to %s %q went without its picture", m.To, m.Subject)
		}
		if want := gameOf(t, m) + "-S1901M.png"; m.Parts[1].Filename != want {
			t.Fatalf("report to %s %q carries %s, want %s", m.To, m.Subject, m.Parts[1].Filename, want)
		}
	}
}

// gameOf is the game a report of Populate's games is about (g00000 on).
func gameOf(t *testing.T, m daemontest.Mail) string {
	t.Helper()
	for _, f := range strings.Fields(m.Subject) {
		if f = strings.Trim(f, "[]():,"); len(f) == 6 && f[0] == 'g' {
			return f
		}
	}
	t.Fatalf("report to %s %q names no game", m.To, m.Subject)
	return ""
}
