package empire_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator/empire"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// TestPlayByMail plays the first phases of a two-player game through the
// real daemon: sign-up, secret bids, production, a tactical turn, misorders,
// HELP and RULES.
func TestPlayByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE emp1 empire2")
	daemontest.One(t, tb.Outbox(), "gm-boss@example.test", "")
	tb.Send("alice@example.test", "", "JOIN emp1 prefer red")
	tb.Send("bob@example.test", "", "JOIN emp1 prefer blue")
	ms := tb.Outbox()
	red := daemontest.One(t, ms, "alice@example.test", "You are Red")
	blue := daemontest.One(t, ms, "bob@example.test", "You are Blue")
	start := daemontest.One(t, ms, "alice@example.test", "has started")
	daemontest.Contains(t, start.Text, "Round 1 strategic phase: bids", "Red: FAC1 D3", "Blue: FAC1 M9", " A   B   C")

	// Secret bids.
	tb.Send("alice@example.test", red.Token, "Hi,\nBID 2\nthanks")
	ack := daemontest.One(t, tb.Outbox(), "alice@example.test", "Re:")
	daemontest.Contains(t, ack.Text, "BID 2", "Your bid: 2 strategic turns.")
	tb.Send("bob@example.test", blue.Token, "BID 4")
	tb.Outbox()
	tb.Wait(25 * time.Hour)
	ms = tb.Outbox()
	r := daemontest.One(t, ms, "alice@example.test", "results")
	b := daemontest.One(t, ms, "bob@example.test", "results")
	gm := daemontest.One(t, ms, "gm-boss@example.test", "results")
	for _, m := range []daemontest.Mail{r, b, gm} {
		daemontest.Contains(t, m.Text, "Strategic turns of production: 2. The ceasefire was broken by Red.")
	}
	daemontest.Contains(t, r.Text, "Your bid was 2.", "to spend now: 4")
	daemontest.Lacks(t, r.Text, "bid was 4")
	daemontest.Contains(t, b.Text, "Your bid was 4.")
	daemontest.Lacks(t, b.Text, "bid was 2")
	daemontest.Lacks(t, gm.Text, "bid was")

	// Production: two infantry divisions at home; a misorder is reported.
	tb.Send("alice@example.test", red.Token, "BUY 2 RID D3\nBUY AGHQ D3\nBUY RAD D3")
	ack = daemontest.One(t, tb.Outbox(), "alice@example.test", "Re:")
	daemontest.Contains(t, ack.Text, "BUY 2 RID D3", "BUY AGHQ D3", "1 RAD cost 8 points; the territory of D3 has 4 left", "this order is not kept")
	tb.Wait(25 * time.Hour)
	ms = tb.Outbox()
	r = daemontest.One(t, ms, "alice@example.test", "results")
	daemontest.Contains(t, r.Text, "Red built in D3: RID7, RID8, AGHQ9", "Round 1 tactical turn 1 — your position (Red)", "RID7 (Regular Infantry Division) in D3")
	daemontest.Lacks(t, daemontest.One(t, ms, "bob@example.test", "results").Text, "your position (Red)")

	// A tactical turn.
	tb.Send("alice@example.test", red.Token, "RID7 D3-E3\nRID8 Z9\nRAD5 C3-B3")
	ack = daemontest.One(t, tb.Outbox(), "alice@example.test", "Re:")
	daemontest.Contains(t, ack.Text, "RID7 D3-E3", "RAD5 C3-B3", "Z9 is not on the board", "RID2 has no order: it keeps its position")
	tb.Send("bob@example.test", blue.Token, "CEASEFIRE")
	tb.Outbox()
	tb.Wait(49 * time.Hour)
	ms = tb.Outbox()
	r = daemontest.One(t, ms, "alice@example.test", "results")
	daemontest.Contains(t, r.Text, "Red moves: RAD5 C3 → C3-B3; RID7 D3 → D3-E3", "No ceasefire (Red fights on, Blue ceasefire)", "Round 1 tactical turn 2")

	// HELP and RULES come from the engine.
	tb.Send("alice@example.test", red.Token, "HELP")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "alice@example.test", "Re:").Text, "RAD2 C4-D4", "BID 3")
	tb.Send("alice@example.test", red.Token, "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "alice@example.test", "Re:").Text, "Empire Boardgame by mail", "House choice")
}

// TestWholeGameByMail plays a two-player game through the daemon to its
// end: two scripted players order from the state the daemon keeps (with
// the engine's random player), now and then one stays silent, and the GM
// once sets a power's orders. Every private part goes to its own player
// only.
func TestWholeGameByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE war empire2")
	gmToken := daemontest.One(t, tb.Outbox(), "gm-boss@example.test", "").Token
	tb.Send("alice@example.test", "", "JOIN war prefer red")
	tb.Send("bob@example.test", "", "JOIN war prefer blue")
	ms := tb.Outbox()
	players := map[string]daemontest.Mail{
		"red":  daemontest.One(t, ms, "alice@example.test", "You are Red"),
		"blue": daemontest.One(t, ms, "bob@example.test", "You are Blue"),
	}
	e, _ := empire.NewEngine("empire2")
	r := rand.New(rand.NewPCG(5, 6))
	phases, battles := 0, 0
	for ; phases < 400; phases++ {
		var g *store.Game
		var state []byte
		if err := tb.DB.View(func(tx *store.Tx) (err error) {
			if g, err = tx.Game("war"); err != nil {
				return err
			}
			state, err = tx.State("war")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if g.Status == store.Finished {
			break
		}
		for _, p := range g.Waiting {
			if r.IntN(10) == 0 {
				continue // silent this phase
			}
			lines, err := e.RandomOrders(state, p, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				continue
			}
			if phases == 3 && p == "blue" {
				tb.Send("gm-boss@example.test", gmToken, "SET ORDERS blue\n"+strings.Join(lines, "\n")+"\nENDORDERS")
				daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "gm-boss@example.test", "Re:").Text, "set by the GM")
				continue
			}
			tb.Send(players[p].To, players[p].Token, strings.Join(lines, "\n"))
			ack := daemontest.One(t, tb.Outbox(), players[p].To, "Re:")
			if strings.Contains(ack.Text, "not kept") {
				t.Fatalf("%s %s: the random player's orders were refused:\n%s", g.PhaseID, p, ack.Text)
			}
		}
		tb.Wait(49 * time.Hour)
		ms := tb.Outbox()
		for _, m := range ms {
			if !strings.Contains(m.Subject, "results") {
				continue
			}
			battles += strings.Count(m.Text, "Battle ")
			for _, p := range []string{"Red", "Blue"} {
				own := strings.Contains(m.To, map[string]string{"Red": "alice", "Blue": "bob"}[p])
				if strings.Contains(m.Text, "your position ("+p+")") && !own {
					t.Fatalf("%s got %s's private view:\n%s", m.To, p, m.Text)
				}
			}
			if strings.Contains(m.Text, "Your bid was") && strings.Contains(m.To, "gm-boss") {
				t.Fatalf("the GM copy shows a bid:\n%s", m.Text)
			}
		}
	}
	var g *store.Game
	tb.DB.View(func(tx *store.Tx) (err error) { g, err = tx.Game("war"); return err })
	// The game's seed is drawn by the daemon, so the course of the game
	// differs from run to run: only its end is certain (the round limit).
	if g.Status != store.Finished || len(g.Winners) == 0 && g.EndedAs != "draw" {
		t.Fatalf("after %d phases the game is %s (%s), winners %v", phases, g.Status, g.EndedAs, g.Winners)
	}
	t.Logf("%d phases, %d battle reports, %s: %v", phases, battles, g.EndedAs, g.Winners)
}

// Seed, The Strategical Phase: units that require strategic supply and do
// not get it are removed from play. The acknowledgement of a deployment
// says which units the orders leave to perish: Red's armor, on the move
// out of its territory, is kept in the hex away from it.
func TestDeploymentAcknowledgementTellsWhoWillStarve(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("dep", "empire2", "")
	ps := tb.SignUp("dep", []string{"red", "blue"})
	tb.As(ps["red"], "BID 1")
	tb.As(ps["blue"], "BID 1")
	tb.Outbox()
	tb.Wait(25 * time.Hour) // bids
	tb.Wait(25 * time.Hour) // production: nothing bought
	tb.Outbox()
	if g := tb.Game("dep"); !strings.Contains(g.PhaseTitle, "tactical turn 1") {
		t.Fatalf("phase %s", g.PhaseTitle)
	}
	tb.As(ps["red"], "RAD5 C3-B3\nCEASEFIRE")
	tb.As(ps["blue"], "CEASEFIRE")
	tb.Outbox()
	tb.Wait(49 * time.Hour)
	tb.Outbox()
	if g := tb.Game("dep"); !strings.Contains(g.PhaseTitle, "deployment") {
		t.Fatalf("phase %s, want the round 2 deployment", g.PhaseTitle)
	}
	tb.As(ps["red"], "KEEP RAD5 B3")
	ack := daemontest.One(t, tb.Outbox(), ps["red"].Addr, "Re:")
	daemontest.Contains(t, ack.Text, "KEEP RAD5 B3", "Strategic supply, if these deployment orders stand", "will perish: RAD5 (B3)")
	tb.As(ps["red"], "KEEP RAD5 C3")
	ack = daemontest.One(t, tb.Outbox(), ps["red"].Addr, "Re:")
	daemontest.Contains(t, ack.Text, "KEEP RAD5 C3", "every unit of yours keeps its supply")
	daemontest.Lacks(t, ack.Text, "will perish")
}

// Six powers sign up for empire6 through the daemon; each gets its own
// power and the start mail shows the generated world with all six.
func TestSixPowersThroughTheDaemon(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("e6", "empire6", "")
	powers := []string{"red", "blue", "green", "yellow", "white", "black"}
	for _, p := range powers {
		tb.Send(p+"@example.test", "", "JOIN e6 prefer "+p)
	}
	ms := tb.Outbox()
	for _, p := range powers {
		daemontest.One(t, ms, p+"@example.test", "You are "+strings.ToUpper(p[:1])+p[1:])
	}
	start := daemontest.One(t, ms, "white@example.test", "has started")
	daemontest.Contains(t, start.Text, "Generated world, 20×16 hexes", "W white", "K black", "White: FAC1", "Black: FAC1")
	if g := tb.Game("e6"); g.Status != store.Active || len(g.Waiting) != 6 {
		t.Fatalf("game %s waiting %v", g.Status, g.Waiting)
	}
}

// Issue 14: the acknowledgement says how a new mail combines with the
// standing orders as the engine merges them — per unit in the bid and
// deployment steps (not "a new set replaces the whole standing set"),
// whole in production.
func TestAcknowledgementSaysHowOrdersCombine(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("emp3", "empire2", "")
	ps := tb.SignUp("emp3", []string{"red", "blue"})
	red := ps["red"]
	ack := func(text string) string {
		t.Helper()
		tb.As(red, text)
		return daemontest.One(t, tb.Outbox(), red.Addr, "Re:").Text
	}
	bid := ack("BID 2")
	daemontest.Contains(t, bid, "You may send new orders until the deadline: a new BID replaces your earlier bid, a new CEASEFIRE line your earlier one; other orders stand.")
	daemontest.Lacks(t, bid, "replaces the whole standing set")
	tb.Wait(25 * time.Hour)
	tb.Outbox()
	daemontest.Contains(t, ack("BUY 1 RID D3"), "in the production step a new set replaces the whole standing set")

	// Play on (nobody orders) to the next deployment step.
	for i := 0; !strings.Contains(tb.Game("emp3").PhaseTitle, "deployment"); i++ {
		if i > 40 || tb.Game("emp3").Status != store.Active {
			t.Fatalf("no deployment step: %s (%s)", tb.Game("emp3").PhaseTitle, tb.Game("emp3").Status)
		}
		tb.Wait(72 * time.Hour)
		tb.Outbox()
	}
	unit := regexp.MustCompile(`\b(RID\d+)\b`).FindString(daemontest.One(t, statusOf(tb, red), red.Addr, "Re:").Text)
	deploy := ack("KEEP " + unit)
	daemontest.Contains(t, deploy, "KEEP "+unit, "You may send new orders until the deadline: a new order for a unit (KEEP, POOL, TRANSFORM, SACRIFICE) replaces its earlier one; your other orders stand.")
	daemontest.Lacks(t, deploy, "replaces the whole standing set")
}

func statusOf(tb *daemontest.Table, p daemontest.Player) []daemontest.Mail {
	tb.As(p, "STATUS")
	return tb.Outbox()
}

// Seats from options: empire takes players= (it refused it before); the
// old names stay as aliases.
func TestSeatsFromOptions(t *testing.T) {
	tb := daemontest.New(t)
	reply := func(text string) string {
		tb.Send(daemontest.GM, "", "SIGNON GM - "+daemontest.GMPassword+"\n"+text)
		return daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text
	}
	daemontest.Contains(t, reply("CREATE e3 empire players=3"), "Game e3 (empire3) created", "(3 powers: ")
	daemontest.Contains(t, reply("CREATE e5 empire2 players=5 max_rounds=3"), "Game e5 (empire5) created", "(5 powers: ")
	daemontest.Contains(t, reply("CREATE e4 empire3 players=4 world=generated"), "Game e4 (empire-random) created")
	daemontest.Contains(t, reply("CREATE e2 empire2"), "Game e2 (empire2) created")
	daemontest.Contains(t, reply("CREATE e9 empire players=9"), "no variant for 9 players", "Nothing was created")
	// The options are checked at CREATE, without building the world.
	daemontest.Contains(t, reply("CREATE ex empire players=3 fog=banana"), "Nothing was created")
	// The seat count is fixed at CREATE.
	gm := tb.Game("e3").GMToken
	tb.Send(daemontest.GM, gm, "SET players=5")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text, "SET refused: the number of players is chosen at CREATE")
	tb.Send(daemontest.GM, gm, "START")
	tb.Outbox()
	if g := tb.Game("e3"); g.Variant != "empire3" {
		t.Errorf("variant %s", g.Variant)
	}
}
