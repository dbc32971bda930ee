package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/internal/proccpu"
	"pbemd/server"
	"pbemd/store"
)

// BenchmarkDeadlineBurst: games whose deadlines fall in the same minute
// (standard Diplomacy, Spring 1901, every power's orders in), one Tick:
// each game adjudicated, and every report (7 players + the GM copy each)
// queued in the durable outbox with the picture of its game's position
// (drawn once per game: Diplomacy hides nothing) — ns/op is until the last
// report has its picture. adjudicating-s is until the last batch of
// results is committed (its mails held for their pictures) and
// first-report-s until the first reports have their pictures; cpu-s the
// process's processor time (the machine is shared: it inflates less than
// the wall clock); peak-heap-MB the heap in use and peak-anon-MB the
// anonymous resident memory (heap, stacks), each the largest sampled
// during the Tick (the store's file pages are the page cache's).
//
// The pictures of one batch are drawn while the next is adjudicated, on
// the same cores, so adjudicating-s there is mostly the drawing beside it.
// adjudication-only/games=N measures the adjudication alone: the same
// burst with Options.DeferPictures, so that the Tick resolves every game,
// composes its mails and commits them held for their pictures, and draws
// none; ns/op (and adjudicating-s, the same) is until the Tick returns,
// cpu-s and the memory figures are the Tick's. Then, off the clock, a daemon
// without the option Ticks and draws them, and the benchmark checks that
// every sampled mail has its picture, as in the full burst.
//
// Targets for 10,000 games: ≤ 30 s with the pictures and a heap ≤ 300
// MB (issue 13), adjudicating ≤ 5 s (issue 17: adjudication-only).
// games=1000 is the figure that repeats on a busy machine.
func BenchmarkDeadlineBurst(b *testing.B) {
	for _, games := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchmarkDeadlineBurst(b, games, false) })
	}
	for _, games := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("adjudication-only/games=%d", games), func(b *testing.B) { benchmarkDeadlineBurst(b, games, true) })
	}
	// gc=serve: the same with the garbage collector set as `pbemd serve`
	// sets it (server.TuneGC), whose memory limit the memory figures test.
	for _, only := range []bool{false, true} {
		name := "gc=serve/games=10000"
		if only {
			name = "gc=serve/adjudication-only/games=10000"
		}
		b.Run(name, func(b *testing.B) {
			defer server.TuneGC()()
			benchmarkDeadlineBurst(b, 10000, only)
		})
	}
}

func benchmarkDeadlineBurst(b *testing.B, games int, deferPictures bool) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		db, err := store.Open(filepath.Join(dir, "pbemd.db"))
		if err != nil {
			b.Fatal(err)
		}
		deadline := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
		daemontest.Populate(b, db, games, deadline)
		now := deadline.Add(30 * time.Second)
		// The adjudication's share of the wall clock: each batch of games
		// is committed (a kick with no new picture), and its pictures
		// are drawn and stored (kicks with new pictures) while the next
		// batch is adjudicated; adjudicating-s is until the last batch's
		// commit, first-report-s until the first pictures are stored:
		// the first reports may leave. Kicks come from the goroutine
		// that adjudicates and the one that stores pictures.
		var d *daemon.Daemon
		var start, first, lastCommit time.Time
		var drawn int64
		var mu sync.Mutex
		kick := func() {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			if n := d.Metrics().PicturesDrawn.Load(); n == drawn {
				lastCommit = now
			} else if drawn = n; first.IsZero() {
				first = now
			}
		}
		// The daemon's clock runs from 30 s after the deadline, as a real
		// one does: the Message-IDs it makes begin with the time, so the
		// outbox's indexes grow at their ends (a clock that stood still
		// would put them in random places of the burst's own keys).
		began := time.Now()
		clock := func() time.Time { return now.Add(time.Since(began)) }
		opt := daemon.Options{Address: "gm@bench.test", Now: clock, Kick: kick, DeferPictures: deferPictures}
		d, err = daemon.New(db, opt)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		cpu := proccpu.Used()
		mem := sampleMemory()
		b.StartTimer()
		start = time.Now()
		if err := d.Tick(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		mem.end(b)
		if deferPictures {
			lastCommit = time.Now()
		} else {
			b.ReportMetric(first.Sub(start).Seconds(), "first-report-s")
		}
		b.ReportMetric(lastCommit.Sub(start).Seconds(), "adjudicating-s")
		b.ReportMetric((proccpu.Used() - cpu).Seconds(), "cpu-s")
		if deferPictures { // off the clock: the held mails get their pictures
			if drawn := d.Metrics().PicturesDrawn.Load(); drawn != 0 {
				b.Fatalf("%d pictures drawn with DeferPictures", drawn)
			}
			opt.DeferPictures, opt.Kick = false, nil
			later, err := daemon.New(db, opt)
			if err != nil {
				b.Fatal(err)
			}
			if err := later.Tick(context.Background()); err != nil {
				b.Fatal(err)
			}
			if drawn := later.Metrics().PicturesDrawn.Load(); drawn != int64(games) {
				b.Fatalf("the next Tick drew %d pictures; want %d", drawn, games)
			}
		}
		var queued, processed int
		db.View(func(tx *store.Tx) error {
			queued = tx.OutboxLen()
			for _, name := range tx.Games() {
				if g, _ := tx.Game(name); g.Phase == 1 {
					processed++
				}
			}
			return nil
		})
		if processed != games || queued != games*8 {
			b.Fatalf("processed %d games and queued %d mails; want %d and %d", processed, queued, games, games*8)
		}
		b.ReportMetric(float64(queued), "mails")
		checkBurstPictures(b, db, queued)
		db.Close()
	}
}
