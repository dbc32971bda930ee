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
	"pbemd/store"
)

// BenchmarkDeadlineBurst: games whose deadlines fall in the same minute
// (standard Diplomacy, Spring 1901, every power's orders in), one Tick:
// each game adjudicated, and every report (7 players + the GM copy each)
// queued in the durable outbox with the picture of its game's position
// (drawn once per game: Diplomacy hides nothing) — ns/op is until the last
// report has its picture. adjudicating-s is the share spent adjudicating
// (resolving, composing the mails, committing them held for their
// pictures) rather than drawing, first-report-s the time until the first
// reports have their pictures; cpu-s the process's processor time (the
// machine is shared: it inflates less than the wall clock); peak-RSS-MB
// the process's peak resident set (VmHWM, reset before the Tick), and
// peak-anon-MB and peak-file-MB its two parts sampled (the heap and
// stacks; the store's pages that bbolt maps).
// Targets for 10,000 games: ≤ 30 s with the pictures and ≤ 300 MB (issue
// 13), adjudicating ≤ 5 s (issue 17). games=1000 is the figure that
// repeats on a busy machine.
func BenchmarkDeadlineBurst(b *testing.B) {
	for _, games := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchmarkDeadlineBurst(b, games) })
	}
}

func benchmarkDeadlineBurst(b *testing.B, games int) {
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
		d, err = daemon.New(db, daemon.Options{Address: "gm@bench.test", Now: func() time.Time { return now }, Kick: kick})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		resetPeakRSS() // the burst's own peak, not Populate's
		cpu := cpuTime()
		rss := sampleRSS()
		b.StartTimer()
		start = time.Now()
		if err := d.Tick(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		rss.end(b)
		b.ReportMetric(lastCommit.Sub(start).Seconds(), "adjudicating-s")
		b.ReportMetric(first.Sub(start).Seconds(), "first-report-s")
		b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s")
		if kb := peakRSSKB(); kb > 0 { // the burst's peak: before anything reads the outbox
			b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
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
