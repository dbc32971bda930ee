package daemon_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// pastDeadline moves the table's clock past game's deadline.
func pastDeadline(tb *daemontest.Table, game string) {
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
}

// Issue 34 item 1: with autopilot=on, every power that sent no orders by
// the deadline is ordered by the engine's steady play; every reader's
// results say which powers it ordered for, and show its orders; the
// reliability record counts those phases as missed.
func TestAutopilotOrdersForPowersWithoutOrders(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("a1", "standard", "autopilot=on")
	pl := tb.SignUp("a1", standardPowers)
	tb.As(pl["england"], "F Lon H\nF Edi H\nA Lvp H")
	tb.Outbox()
	pastDeadline(tb, "a1")
	ms := tb.Outbox()
	for _, p := range standardPowers {
		res := daemontest.One(t, ms, pl[p].Addr, "Spring 1901 Movement — results")
		daemontest.Contains(t, res.Text,
			"Autopilot: Austria, France, Germany, Italy, Russia", "Turkey sent no orders by the deadline; the autopilot gave their orders",
			"A Bud S F Tri")
		daemontest.Lacks(t, res.Text, "civil disorder")
	}
	var rec store.Record
	var eng store.Record
	if err := tb.DB.View(func(tx *store.Tx) error {
		rec, eng = tx.RecordOf(pl["austria"].Addr), tx.RecordOf(pl["england"].Addr)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if rec.Missed != 1 || rec.OnTime != 0 || eng.OnTime != 1 {
		t.Errorf("records: austria %+v england %+v; want the autopilot's phase missed", rec, eng)
	}
	tb.As(pl["austria"], "RULES")
	daemontest.Contains(t, strings.Join(strings.Fields(tb.Outbox()[0].Text), " "), "Autopilot: a power that sends no orders by a deadline is ordered by the autopilot: it holds with every unit or supports its own units, defends its centres, builds at home and disbands its farthest units first; it never attacks.")
}

// The GM's AUTOPILOT <power> ON in a game without the option: the power's
// player is told; at the deadline only that power is ordered by the
// autopilot, the others hold in civil disorder; its player's next mail of
// orders takes back control; AUTOPILOT OFF and a bad word are answered.
func TestAutopilotByTheGM(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("a2", "standard", "")
	pl := tb.SignUp("a2", standardPowers)
	tb.Send(daemontest.GM, gm, "AUTOPILOT Russia ON")
	ms := tb.Outbox()
	daemontest.Contains(t, reply(t, ms, daemontest.GM).Text, "AUTOPILOT Russia ON: when Russia sends no orders by a deadline, the autopilot gives them")
	daemontest.Contains(t, daemontest.One(t, ms, pl["russia"].Addr, "The autopilot plays for you").Text, "the autopilot orders for you: it holds with every unit or supports its own units", "Send orders, as any mail of orders takes back control")
	pastDeadline(tb, "a2")
	res := daemontest.One(t, tb.Outbox(), pl["turkey"].Addr, "Spring 1901 Movement — results")
	daemontest.Contains(t, res.Text, "Autopilot: Russia sent no orders by the deadline; the autopilot gave its orders", "Late: no orders from Austria, England, France, Germany, Italy, Turkey at the deadline", "civil disorder")
	if g := tb.Game("a2"); !g.Autopilot["russia"] {
		t.Fatalf("autopilot after a phase: %v", g.Autopilot)
	}
	// Fall 1901 (or the retreats): Russia's player orders again.
	tb.As(pl["russia"], "A Mos H")
	daemontest.Contains(t, reply(t, tb.Outbox(), pl["russia"].Addr).Text, "You have taken back control of Russia: the autopilot the GM put on for it is off.")
	if g := tb.Game("a2"); g.Autopilot["russia"] {
		t.Errorf("autopilot after Russia's orders: %v", g.Autopilot)
	}
	tb.Send(daemontest.GM, gm, "AUTOPILOT Turkey OFF")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "AUTOPILOT Turkey OFF: when Turkey sends no orders by a deadline, the game's rule for a power without orders applies (civil disorder)")
	tb.Send(daemontest.GM, gm, "AUTOPILOT Turkey MAYBE")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, `"MAYBE" is not understood: write AUTOPILOT <power> ON or AUTOPILOT <power> OFF`)
	if g := tb.Game("a2"); !slices.Equal([]bool{g.Autopilot["turkey"]}, []bool{false}) {
		t.Errorf("autopilot: %v", g.Autopilot)
	}
}
