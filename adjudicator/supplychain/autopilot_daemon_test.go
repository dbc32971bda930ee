package supplychain_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator/supplychain"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

var threePowers = []string{"red", "blue", "green"}

// pastDeadline moves the table's clock past game's deadline.
func pastDeadline(tb *daemontest.Table, game string) {
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
}

// flat is text with its line breaks and runs of spaces as single spaces.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// Issue 34 item 1 for Supply Chain: a game created with autopilot=on; red
// sends nothing by the deadline of his turn. Every player's results mail
// names red as ordered by the autopilot and shows what it did (a Place of
// a special office from red's hand beside his main office, then Revenue),
// not the default Revenue of a missed turn; green, silent on blue's offer,
// declines it by the autopilot; red's next mail of orders is his turn
// again, with no autopilot; RULES says what the autopilot does.
func TestAutopilotOrdersForAMissedTurn(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ap1", "supplychain-3", "autopilot=on")
	pl := tb.SignUp("ap1", threePowers)
	if g := tb.Game("ap1"); g.PhaseID != "R001-1" {
		t.Fatalf("phase %s", g.PhaseID)
	}
	pastDeadline(tb, "ap1")
	ms := tb.Outbox()
	for _, p := range threePowers {
		res := flat(daemontest.One(t, ms, pl[p].Addr, "results").Text)
		daemontest.Contains(t, res,
			"Autopilot: Red sent no orders by the deadline; the autopilot gave its orders (a steady, defensive play). Any mail of orders takes back control.",
			"Red places ", " at 0,-1.", "Red collects revenue")
		daemontest.Lacks(t, res, "Red sent no orders: Revenue")
	}
	if g := tb.Game("ap1"); g.PhaseID != "R001-2" {
		t.Fatalf("after red's turn: %s", g.PhaseID)
	}
	var rec store.Record
	if err := tb.DB.View(func(tx *store.Tx) error { rec = tx.RecordOf(pl["red"].Addr); return nil }); err != nil {
		t.Fatal(err)
	}
	if rec.Missed != 1 || rec.OnTime != 0 {
		t.Errorf("red's record %+v: want the autopilot's turn missed", rec)
	}

	// Blue offers green a trade of special offices; green does not
	// answer: the autopilot declines for him, and every player reads so.
	offices := func(p string) []string {
		tb.As(pl[p], "HAND")
		var codes []string
		for _, m := range specialRE.FindAllStringSubmatch(daemontest.One(t, tb.Outbox(), pl[p].Addr, "Re:").Text, -1) {
			codes = append(codes, m[1])
		}
		if len(codes) == 0 {
			t.Fatalf("%s has no special office in hand", p)
		}
		return codes
	}
	blueSO, greenSO := offices("blue")[0], offices("green")[0]
	tb.As(pl["blue"], "TRADE "+blueSO+" FOR "+greenSO+" WITH Green")
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game("ap1"); g.PhaseID != "R001-2-offer" {
		t.Fatalf("the offer: %s", g.PhaseID)
	}
	pastDeadline(tb, "ap1")
	ms = tb.Outbox()
	for _, p := range threePowers {
		res := flat(daemontest.One(t, ms, pl[p].Addr, "results").Text)
		daemontest.Contains(t, res, "Green declines the offer: Blue's Buy-Sell-Trade fails.", "Autopilot: Green sent no orders by the deadline; the autopilot gave its orders")
		daemontest.Lacks(t, res, "did not answer")
	}

	// Green plays; red's own orders are his turn again.
	tb.As(pl["green"], "REVENUE")
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game("ap1"); g.PhaseID != "R002-1" {
		t.Fatalf("red's second turn: %s", g.PhaseID)
	}
	tb.As(pl["red"], "REVENUE")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["red"].Addr, "Re:").Text, "Orders received")
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	for _, p := range threePowers {
		res := flat(daemontest.One(t, ms, pl[p].Addr, "results").Text)
		daemontest.Contains(t, res, "Red collects revenue")
		daemontest.Lacks(t, res, "Autopilot:", "Red places ")
	}

	e, _ := supplychain.NewEngine("supplychain-3")
	tb.As(pl["red"], "RULES")
	daemontest.Contains(t, flat(daemontest.One(t, tb.Outbox(), pl["red"].Addr, "").Text),
		"Autopilot: a power that sends no orders by a deadline is ordered by the autopilot: it "+e.AutopilotPlay()+".")
}

// The GM's AUTOPILOT <power> ON in a Supply Chain game without the
// option: blue is told what the autopilot will do; at the deadline of his
// turn the autopilot plays it and every player reads so; blue's next mail
// of orders takes back control.
func TestAutopilotByTheGMInSupplyChain(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ap2", "supplychain-3", "")
	pl := tb.SignUp("ap2", threePowers)
	e, _ := supplychain.NewEngine("supplychain-3")
	tb.Send(daemontest.GM, gm, "AUTOPILOT Blue ON")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "AUTOPILOT Blue ON: when Blue sends no orders by a deadline, the autopilot gives them")
	daemontest.Contains(t, flat(daemontest.One(t, ms, pl["blue"].Addr, "The autopilot plays for you").Text),
		"the autopilot orders for you: it "+e.AutopilotPlay()+".", "any mail of orders takes back control")

	// Red misses his turn too: without the autopilot it is the default Revenue.
	pastDeadline(tb, "ap2")
	res := flat(daemontest.One(t, tb.Outbox(), pl["green"].Addr, "results").Text)
	daemontest.Contains(t, res, "Red sent no orders: Revenue")
	daemontest.Lacks(t, res, "Autopilot:")

	pastDeadline(tb, "ap2")
	ms = tb.Outbox()
	for _, p := range threePowers {
		res := flat(daemontest.One(t, ms, pl[p].Addr, "results").Text)
		daemontest.Contains(t, res, "Autopilot: Blue sent no orders by the deadline; the autopilot gave its orders", "Blue places ", " at 0,-1.", "Blue collects revenue")
		daemontest.Lacks(t, res, "Blue sent no orders: Revenue")
	}
	if g := tb.Game("ap2"); g.PhaseID != "R001-3" || !g.Autopilot["blue"] {
		t.Fatalf("after blue's turn: %s, autopilot %v", g.PhaseID, g.Autopilot)
	}

	// Green and red play; blue's own orders take back control.
	for _, p := range []string{"green", "red"} {
		tb.As(pl[p], "REVENUE")
		tb.Wait(time.Minute)
		tb.Outbox()
	}
	tb.As(pl["blue"], "REVENUE")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["blue"].Addr, "Re:").Text, "You have taken back control of Blue: the autopilot the GM put on for it is off.")
	if g := tb.Game("ap2"); g.Autopilot["blue"] {
		t.Errorf("autopilot after blue's orders: %v", g.Autopilot)
	}
}
