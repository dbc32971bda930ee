package server

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// BenchmarkResidentMemory10kGames measures the daemon's resident memory
// (VmRSS of this process, after a GC) serving a store of 10,000 games:
// the store opened, the embedded mail server up, a tick run. Target:
// ≤ 200 MB. Reported as the custom metric MB-rss.
func BenchmarkResidentMemory10kGames(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/self/status")
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		cfg := DefaultConfig()
		cfg.DataDir = dir
		cfg.HTTP = ""
		cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr, cfg.Mailserver.StateFile = "127.0.0.1:0", "127.0.0.1:0", ""
		db, err := store.Open(cfg.DBPath())
		if err != nil {
			b.Fatal(err)
		}
		// Deadlines spread over the next weeks: a normal day, nothing due.
		future := time.Now().Add(14 * 24 * time.Hour)
		daemontest.Populate(b, db, 10000, future)
		db.Close()
		runtime.GC()
		debug.FreeOSMemory()
		base := rssMB(b)
		b.StartTimer()
		srv, err := Open(cfg, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := srv.Daemon.Tick(context.Background()); err != nil {
			b.Fatal(err)
		}
		var n int
		srv.DB.View(func(tx *store.Tx) error { n = len(tx.Games()); return nil })
		runtime.GC()
		b.StopTimer()
		rss := rssMB(b)
		b.ReportMetric(rss, "MB-rss")
		b.ReportMetric(rss-base, "MB-rss-added")
		if n != 10000 {
			b.Fatalf("%d games in the store", n)
		}
		srv.Close()
	}
}

func rssMB(tb testing.TB) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	tb.Fatal("no VmRSS")
	return 0
}
