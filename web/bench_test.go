package web_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/internal/proccpu"
	"pbemd/store"
	"pbemd/web"
)

// longGame makes a standard game of phases processed phases, each with
// the engine's bot orders for every power, written to the store as the
// daemon writes its history (no mail: the setup of a benchmark), with a
// broadcast in each phase.
func longGame(t testing.TB, tb *daemontest.Table, name string, phases int) {
	t.Helper()
	tb.Create(name, "standard", "")
	tb.SignUp(name, adjudicatorPowers(t, "standard"))
	tb.Outbox()
	e, _ := adjudicator.Lookup("standard")
	bot := e.(adjudicator.Bot)
	now := tb.Now()
	err := tb.DB.Update(func(tx *store.Tx) error {
		for range phases {
			g, err := tx.Game(name)
			if err != nil {
				return err
			}
			state, err := tx.State(name)
			if err != nil {
				return err
			}
			st, _ := e.Status(state)
			if st.Over {
				t.Fatalf("%s is over after %d phases", name, g.Phase)
			}
			orders := map[string][]string{}
			for _, p := range st.Waiting {
				text, err := bot.BotOrders(state, p, int64(g.Phase))
				if err != nil {
					return err
				}
				c, err := e.Check(state, p, text)
				if err != nil {
					return err
				}
				orders[p] = c.Canonical
			}
			out, err := e.Resolve(state, orders, int64(g.Phase))
			if err != nil {
				return err
			}
			now = now.Add(48 * time.Hour)
			if err := tx.AddPress(name, store.Press{Time: now.Add(-time.Hour), PhaseID: g.PhaseID, Kind: store.PressBroadcast, From: "france", Body: strings.Repeat("France speaks to the world. ", 20)}); err != nil {
				return err
			}
			rec := store.PhaseRecord{Phase: g.Phase, PhaseID: g.PhaseID, Title: g.PhaseTitle, Deadline: now, Processed: now,
				StateBefore: state, StateAfter: out.Next, Orders: orders, Public: out.Report.Public, Private: out.Report.Private, Data: out.Report.Data}
			if err := tx.PutPhase(name, rec); err != nil {
				return err
			}
			if err := tx.PutState(name, out.Next); err != nil {
				return err
			}
			next, _ := e.Status(out.Next)
			g.Phase++
			g.PhaseID, g.PhaseTitle, g.PhaseKind, g.Waiting, g.Alive = next.ID, next.Title, string(next.Kind), next.Waiting, next.Alive
			g.Deadline = now.Add(48 * time.Hour)
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every page of a 71-phase game, from nothing (the budget: a second).
// cpu-s/op is the process's CPU time (every core's) per build: on a
// machine busy with other work it tells more than the time it took.
func BenchmarkPagesOf71PhaseGame(b *testing.B) {
	tb := newTable(b, store.WebPublic)
	longGame(b, tb, "long", 71)
	dir := b.TempDir()
	cpu := proccpu.Used()
	defer func() { b.ReportMetric((proccpu.Used()-cpu).Seconds()/float64(b.N), "cpu-s/op") }()
	for b.Loop() {
		os.RemoveAll(dir)
		wb, err := web.New(tb.DB, web.Options{Dir: dir, Default: store.WebPublic, Results: daemon.PublicResults})
		if err != nil {
			b.Fatal(err)
		}
		if err := wb.Game("long"); err != nil {
			b.Fatal(err)
		}
	}
}

// One more phase of a 71-phase game: what the builder does after each
// phase (the new page and its board, the one before it, the front page
// and the chart).
func BenchmarkPagesAfterOnePhase(b *testing.B) {
	tb := newTable(b, store.WebPublic)
	longGame(b, tb, "long", 71)
	wb := newBuilder(b, tb, store.WebPublic)
	if err := wb.Game("long"); err != nil {
		b.Fatal(err)
	}
	manifest := filepath.Join(wb.Dir(), "games", "long", ".pages.json")
	raw, err := os.ReadFile(manifest)
	if err != nil {
		b.Fatal(err)
	}
	short := strings.TrimSuffix(string(raw[:strings.LastIndex(string(raw), `,{"rec":70`)]), ",") + "]"
	for b.Loop() {
		// the manifest as it stood before the last phase
		if err := os.WriteFile(manifest, []byte(short), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := wb.Game("long"); err != nil {
			b.Fatal(err)
		}
	}
}

// A phase's page stays under 100 KB without its board, in a 71-phase
// game with a broadcast in every phase.
func TestPhasePagesUnder100KB(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	longGame(t, tb, "long", 71)
	wb := newBuilder(t, tb, store.WebPublic)
	start := time.Now()
	if err := wb.Game("long"); err != nil {
		t.Fatal(err)
	}
	t.Logf("71 phases' pages in %s", time.Since(start))
	files := readAll(t, wb.Dir())
	largest, pages := 0, 0
	for name, text := range files {
		if strings.HasSuffix(name, ".html") {
			pages++
			largest = max(largest, len(text))
			if len(text) > 100<<10 {
				t.Errorf("%s is %d bytes", name, len(text))
			}
		}
	}
	if pages != 73 { // the start, 71 phases and the front page
		t.Errorf("%d pages", pages)
	}
	t.Logf("the largest page: %d bytes", largest)
}

// A deadline burst of 10,000 games with the page builder at work beside
// the daemon: the tick's time (results committed, mails queued, pictures
// drawn) is reported as tick-s, and the pages that follow as pages-s.
// Compare tick-s with BenchmarkBurstWithoutPages's.
func BenchmarkBurstWithPages(b *testing.B)    { burst(b, true) }
func BenchmarkBurstWithoutPages(b *testing.B) { burst(b, false) }

// burstGames is the burst's size (-burst: a smaller one on a loaded
// machine).
var burstGames = flag.Int("burst", 10000, "games due at once in BenchmarkBurst*")

func burst(b *testing.B, pages bool) {
	n := *burstGames
	for range b.N {
		b.StopTimer()
		var q *web.Queue
		var mu sync.Mutex
		changed := map[string]bool{}
		tb := daemontest.NewWith(b, func(o *daemon.Options) {
			o.RateLimit = 1 << 30
			o.Web = daemon.Web{Default: store.WebPublic, Changed: func(games []string) {
				mu.Lock()
				for _, g := range games {
					changed[g] = true
				}
				mu.Unlock()
				if q != nil {
					q.Changed(games)
				}
			}}
		})
		daemontest.Populate(b, tb.DB, n, tb.Now().Add(time.Minute))
		tb.Advance(2 * time.Minute)
		var built sync.WaitGroup
		ctx, cancel := context.WithCancel(context.Background())
		if pages {
			wb, err := web.New(tb.DB, web.Options{Dir: b.TempDir(), Default: store.WebPublic, Results: daemon.PublicResults})
			if err != nil {
				b.Fatal(err)
			}
			q = web.NewQueue(wb)
			q.Busy = func() bool { _, ticking := tb.D.TickRunning(); return ticking }
			left := n
			built.Add(1)
			q.Built = func(games []string) {
				if left > 0 {
					if left -= len(games); left <= 0 {
						built.Done()
					}
				}
			}
			go q.Run(ctx)
		}
		b.StartTimer()
		start := time.Now()
		tb.Tick()
		b.ReportMetric(time.Since(start).Seconds(), "tick-s")
		built.Wait()
		b.ReportMetric(time.Since(start).Seconds(), "pages-s")
		cancel()
		if len(changed) != n {
			b.Fatalf("the builder was told of %d games", len(changed))
		}
	}
}
