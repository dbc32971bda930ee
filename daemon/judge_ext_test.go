package daemon_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// waitDeadline lets the open phase of game reach its deadline.
func waitDeadline(tb *daemontest.Table, game string) {
	tb.T.Helper()
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
}

// TestStandardPowerWithNoAdjustmentIsToldSo: in the standard game's
// Winter 1901 only Austria (which took Serbia) has an adjustment; the
// engine's Status says so, and England's mail is told it owes none.
func TestStandardPowerWithNoAdjustmentIsToldSo(t *testing.T) {
	tb, _, pl := standardTable(t, "w1901")
	tb.As(pl["austria"], "A Bud-Ser")
	waitDeadline(tb, "w1901") // Spring 1901
	waitDeadline(tb, "w1901") // Fall 1901: Austria holds Serbia
	tb.Outbox()
	if g := tb.Game("w1901"); g.PhaseKind != "build" {
		t.Fatalf("want the Winter 1901 adjustments, got %s (%s) waiting for %v", g.PhaseTitle, g.PhaseKind, g.Waiting)
	}
	tb.As(pl["england"], "Build F Lon")
	m := daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "England owes no orders in Winter 1901", "no builds or disbands to make, so nothing was stored")
	daemontest.Lacks(t, m.Text, "Orders received")
	tb.As(pl["austria"], "Build A Vie")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["austria"].Addr, "Re:").Text, "Orders received for Austria")
}

// TestWhatIfShowsOwnOrdersAgainstHoldsOnly: Austria's A Vie - Gal would
// bounce against Russia's stored A War - Gal; WHATIF resolves Austria's
// standing orders alone, so it succeeds there, and nothing of Russia's
// orders shows. Nothing is stored: the real phase still bounces.
func TestWhatIfShowsOwnOrdersAgainstHoldsOnly(t *testing.T) {
	tb, _, pl := standardTable(t, "wi")
	tb.As(pl["russia"], "A War-Gal\nF Sev-Bla")
	tb.As(pl["austria"], "A Vie-Gal")
	tb.Outbox()
	tb.As(pl["austria"], "WHATIF")
	m := daemontest.One(t, tb.Outbox(), pl["austria"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "WHATIF for Austria, Spring 1901 Movement", "if every other unit held",
		"A Vie - Gal", "succeeded", "F Tri H")
	daemontest.Lacks(t, m.Text, "Russia", "War", "Bla", "bounce", "England")

	// A bare PREVIEW from a player is the same; orders in the same mail
	// are stored first and previewed.
	tb.As(pl["austria"], "A Bud-Ser\nPREVIEW")
	m = daemontest.One(t, tb.Outbox(), pl["austria"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "Orders received for Austria", "WHATIF for Austria", "A Bud - Ser")
	daemontest.Lacks(t, m.Text, "could not understand", "Russia")

	waitDeadline(tb, "wi")
	var res string
	for _, r := range tb.Outbox() {
		if r.To == pl["austria"].Addr && strings.Contains(r.Subject, "results") {
			res = r.Text
		}
	}
	daemontest.Contains(t, res, "A Vie - Gal", "A War - Gal")
	daemontest.Lacks(t, res, "WHATIF")
}

// TestEveryResultsMailShowsThePosition: not only after Fall: the Spring
// results end their public part with the units and centres of every
// power, as the engine's summary of the new position gives them (then
// come the reader's own part and the next deadline); HISTORY shows it too.
func TestEveryResultsMailShowsThePosition(t *testing.T) {
	tb, _, pl := standardTable(t, "pos")
	tb.Send("watcher@example.test", "", "OBSERVE pos")
	tb.As(pl["austria"], "A Bud-Ser")
	tb.Outbox()
	waitDeadline(tb, "pos")
	ms := tb.Outbox()
	for _, addr := range []string{pl["austria"].Addr, pl["england"].Addr, "watcher@example.test"} {
		m := daemontest.One(t, ms, addr, "Spring 1901 Movement — results")
		results, pos, ok := strings.Cut(m.Text, "--- the position now ---\n")
		if !ok {
			t.Fatalf("results to %s without the position:\n%s", addr, m.Text)
		}
		daemontest.Contains(t, results, "A Bud - Ser", "Next phase: Fall 1901 Movement")
		daemontest.Contains(t, pos, "Fall 1901 Movement\n", "Austria: 3 centres (Bud Tri Vie); units: A Ser, F Tri, A Vie",
			"Russia: 4 centres", "Unowned centres:")
	}
	tb.As(pl["england"], "HISTORY S1901M")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text,
		"--- the position now ---", "Austria: 3 centres (Bud Tri Vie); units: A Ser, F Tri, A Vie")
}
