package empire_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator/empire"
	"pbemd/daemon/daemontest"
)

// pastDeadline moves the table's clock past the game's deadline.
func pastDeadline(tb *daemontest.Table, game string) {
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
}

// flat joins a mail's words with single spaces (the daemon wraps lines).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// Issue 34 item 1 for the Empire Boardgame: a game created with
// autopilot=on (refused before this engine had an autopilot); Blue sends
// nothing, and the results every player reads name Blue and show what the
// autopilot ordered: the largest bid (in Blue's own mail only: bids are
// secret), then infantry on its factory. Blue's next mail of orders is
// what counts; RULES says what the autopilot does.
func TestAutopilotByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ap1", "empire2", "autopilot=on")
	pl := tb.SignUp("ap1", []string{"red", "blue"})
	readers := []string{pl["red"].Addr, pl["blue"].Addr, daemontest.GM}

	tb.As(pl["red"], "BID 2")
	tb.Outbox()
	pastDeadline(tb, "ap1")
	ms := tb.Outbox()
	for _, addr := range readers {
		res := daemontest.One(t, ms, addr, "bids — results")
		daemontest.Contains(t, flat(res.Text), "Autopilot: Blue sent no orders by the deadline; the autopilot gave its orders",
			"Strategic turns of production: 2. The ceasefire was broken by Red.")
	}
	daemontest.Contains(t, daemontest.One(t, ms, pl["blue"].Addr, "bids — results").Text, "Your bid was 6.")
	daemontest.Lacks(t, daemontest.One(t, ms, pl["red"].Addr, "bids — results").Text, "bid was 6")

	// Production: Blue is silent again; the autopilot buys regular
	// infantry divisions on its factory (M9) with its points.
	tb.As(pl["red"], "BUY 2 RID D3")
	tb.Outbox()
	pastDeadline(tb, "ap1")
	ms = tb.Outbox()
	for _, addr := range readers {
		res := daemontest.One(t, ms, addr, "production — results")
		daemontest.Contains(t, flat(res.Text), "Autopilot: Blue sent no orders by the deadline; the autopilot gave its orders",
			"Red built in D3: RID7, RID8 Blue built in M9: RID7, RID8, RID9, RID10, RID11, RID12, RID13")
	}

	// The first tactical turn: Blue's player orders again, and those
	// orders are the ones carried out; the autopilot orders for nobody.
	tb.As(pl["blue"], "RAD5 L9-K9")
	tb.As(pl["red"], "CEASEFIRE")
	tb.Outbox()
	pastDeadline(tb, "ap1")
	ms = tb.Outbox()
	for _, addr := range readers {
		res := daemontest.One(t, ms, addr, "tactical turn 1 — results")
		daemontest.Contains(t, res.Text, "Blue moves: RAD5")
		daemontest.Lacks(t, res.Text, "Autopilot:")
	}

	tb.As(pl["red"], "RULES")
	e, _ := empire.NewEngine("empire2")
	daemontest.Contains(t, flat(daemontest.One(t, tb.Outbox(), pl["red"].Addr, "Re:").Text),
		"Autopilot: a power that sends no orders by a deadline is ordered by the autopilot: it "+e.AutopilotPlay()+".")
}

// The GM's AUTOPILOT <power> ON in an Empire game without the option:
// Blue's player is told what the autopilot does; at the deadline only
// Blue is ordered by it (Red, silent too, is late); Blue's next mail of
// orders takes back control.
func TestAutopilotByTheGMByMail(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ap2", "empire2", "")
	pl := tb.SignUp("ap2", []string{"red", "blue"})
	tb.Send(daemontest.GM, gm, "AUTOPILOT Blue ON")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "AUTOPILOT Blue ON")
	e, _ := empire.NewEngine("empire2")
	daemontest.Contains(t, flat(daemontest.One(t, ms, pl["blue"].Addr, "The autopilot plays for you").Text),
		"the autopilot orders for you: it "+e.AutopilotPlay()+".")
	pastDeadline(tb, "ap2")
	ms = tb.Outbox()
	for _, addr := range []string{pl["red"].Addr, pl["blue"].Addr, daemontest.GM} {
		res := flat(daemontest.One(t, ms, addr, "bids — results").Text)
		daemontest.Contains(t, res, "Autopilot: Blue sent no orders by the deadline; the autopilot gave its orders", "Late: no orders from Red")
	}
	daemontest.Contains(t, daemontest.One(t, ms, pl["blue"].Addr, "bids — results").Text, "Your bid was 6.")
	if g := tb.Game("ap2"); !g.Autopilot["blue"] {
		t.Fatalf("autopilot after a phase: %v", g.Autopilot)
	}
	tb.As(pl["blue"], "BUY RID M9")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["blue"].Addr, "Re:").Text, "You have taken back control of Blue: the autopilot the GM put on for it is off.")
	if g := tb.Game("ap2"); g.Autopilot["blue"] {
		t.Errorf("autopilot after Blue's orders: %v", g.Autopilot)
	}
}
