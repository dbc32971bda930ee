package daemon_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// BenchmarkDeadlineBurst: 10,000 games whose deadlines fall in the same
// minute, adjudicated and every report (7 players + the GM copy each)
// queued in the durable outbox, each with the picture of its game's
// position (drawn once per game: Diplomacy hides nothing). Target (issue
// 13): ≤ 30 s for the burst with its pictures, peak RSS ≤ 300 MB.
func BenchmarkDeadlineBurst(b *testing.B) {
	const games = 10000
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
		d, err := daemon.New(db, daemon.Options{Address: "gm@bench.test", Now: func() time.Time { return now }})
		if err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime()
		b.StartTimer()
		if err := d.Tick(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
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
