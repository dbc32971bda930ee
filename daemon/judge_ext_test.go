package daemon_test

import (
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
