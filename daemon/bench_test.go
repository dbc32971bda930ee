package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
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
// report has its picture. adjudicated-s is the share until the last
// game's results are committed, their mails held for their pictures;
// cpu-s the process's processor time (the machine is shared: it inflates
// less than the wall clock); peak-RSS-MB the process's peak resident set
// (VmHWM, reset before the Tick), and peak-anon-MB and peak-file-MB its
// two parts sampled (the heap; the store's pages that bbolt maps).
// Targets for 10,000 games: ≤ 30 s with the pictures and ≤ 300 MB (issue
// 13), adjudicated ≤ 5 s (issue 17). games=1000 is the figure that
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
		// The adjudication's share: until the last due game's results
		// are committed, their mails held for their pictures (the first
		// commit after which every game is processed says so).
		var d *daemon.Daemon
		var start, adjudicated time.Time
		kick := func() {
			if adjudicated.IsZero() && d.Metrics().PhasesProcessed.Load() == int64(games) {
				adjudicated = time.Now()
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
		b.ReportMetric(adjudicated.Sub(start).Seconds(), "adjudicated-s")
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
