package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	_ "pbemd/adjudicator/diplomacy"
	"pbemd/store"
)

// openingOrders are the 22 usual Spring 1901 moves of the standard map.
var openingOrders = map[string][]string{
	"austria": {"A Vie - Gal", "A Bud - Ser", "F Tri - Alb"},
	"england": {"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"},
	"france":  {"F Bre - Mao", "A Par - Bur", "A Mar S A Par - Bur"},
	"germany": {"F Kie - Den", "A Ber - Kie", "A Mun - Ruh"},
	"italy":   {"F Nap - Ion", "A Rom - Apu", "A Ven H"},
	"russia":  {"F StP/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"},
	"turkey":  {"F Ank - Bla", "A Con - Bul", "A Smy - Arm"},
}

// populate writes n active standard games, each with seven players and
// the opening orders stored, all due at deadline. It bypasses mail (and
// bcrypt) so that setting up 10,000 games takes seconds.
func populate(tb testing.TB, db *store.DB, n int, deadline time.Time) {
	tb.Helper()
	e, _ := adjudicator.Lookup("standard")
	state, err := e.New(nil, 1)
	if err != nil {
		tb.Fatal(err)
	}
	st, _ := e.Status(state)
	for start := 0; start < n; start += 500 {
		err := db.Update(func(tx *store.Tx) error {
			for i := start; i < min(start+500, n); i++ {
				g := &store.Game{
					Name: fmt.Sprintf("g%05d", i), Variant: "standard", Created: deadline.Add(-48 * time.Hour),
					Status: store.Active, Options: defaultOptions(), Seed: int64(i), GMToken: newToken(),
					OpenPhase: store.OpenPhase{PhaseID: st.ID, PhaseTitle: st.Title, PhaseKind: string(st.Kind),
						PhaseStarted: deadline.Add(-48 * time.Hour), Deadline: deadline,
						Waiting: st.Waiting, Alive: st.Alive},
					GM: []string{"gm@bench.test"},
				}
				for k, p := range e.Info().Powers {
					pl := store.Player{Address: fmt.Sprintf("p%d-%d@bench.test", i, k), Power: p, Token: newToken(), Joined: g.Created}
					g.Players = append(g.Players, pl)
					if err := tx.PutToken(pl.Token, store.TokenRef{Game: g.Name, Address: pl.Address}); err != nil {
						return err
					}
					if err := tx.AddOrderSet(g.Name, 0, store.OrderSet{Power: p, Address: pl.Address, MsgID: g.Name + p, Received: g.Created, Lines: openingOrders[p]}); err != nil {
						return err
					}
				}
				if err := tx.PutState(g.Name, state); err != nil {
					return err
				}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkDeadlineBurst: 10,000 games whose deadlines fall in the same
// minute, adjudicated and every report (7 players + the GM copy each)
// queued in the durable outbox. Target: ≤ 10 s for the burst.
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
		populate(b, db, games, deadline)
		now := deadline.Add(30 * time.Second)
		d, err := New(db, Options{Address: "gm@bench.test", Now: func() time.Time { return now }})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := d.Tick(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
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
		db.Close()
	}
}

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
		populate(b, db, 10000, future)
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
