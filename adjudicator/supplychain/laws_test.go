package supplychain

import (
	"strings"
	"testing"
)

// Seed, Anti-trust and Anti-monopoly Laws A–F (A: revenue and sale caps in
// TestRevenueAction and TestTradeOffer; D: TestPlacementRule; E: TestCheck).
func TestLawB(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "OF1") // red owns 2 offices, blue and green 1
	g.refuse(t, "BUY OF2 FROM OFFICES", "law B")
	g = actionGame(t)
	g.mustPlay(t, "BUY OF2 FROM OFFICES") // one more than the others is allowed
	// Placed offices count as well as offices in hand.
	g = actionGame(t)
	g.lay(t, 0, "OF1", 1, 0, 1)
	g.refuse(t, "BUY OF2 FROM OFFICES", "law B")
	// A swap that brings an office in counts too (Fire Sale listings).
	g = actionGame(t)
	g.giveHand(t, 0, "OF1", "FF2")
	g.list(t, 5, "SO4", 0)
	g.refuse(t, "SWAP FF2 FOR SO4", "")
}

func TestLawC(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "KLG1")
	g.refuse(t, "BUY KLG2 FROM CONTRACTS", "law C")
	g.mustPlay(t, "BUY KLU1 FROM CONTRACTS") // another kind
	g = actionGame(t)
	g.giveHand(t, 0, "VS1")
	g.refuse(t, "BUY VS2 FROM VEHICLES", "law C")
	// Closing a placed contract into a hand that holds one of its kind.
	g = actionGame(t)
	g.lay(t, 0, "LM2", 1, 0, 0)
	g.lay(t, 0, "KLG1", 2, 0, 0)
	g.giveHand(t, 0, "KLG2")
	g.refuse(t, "CLOSE LM2, KLG1", "law C")
}

func TestLawF(t *testing.T) {
	g := actionGame(t)
	g.list(t, 5, "DR1", 0)
	g.stalePile(t, "DR2")
	g.mustPlay(t, "BUY DR1 FROM LISTING")
	if g.players[0].derelicts != 1 {
		t.Fatalf("derelicts %d", g.players[0].derelicts)
	}
	g.refuse(t, "BUY DR2 FROM STALE", "law F")
	// Even after the first one is gone.
	g = actionGame(t)
	g.players[0].derelicts = 1
	g.stalePile(t, "DR2")
	g.refuse(t, "BUY DR2 FROM STALE", "law F")
	// A blind purchase of a second derelict goes to the Stale Sale pile.
	g = actionGame(t)
	g.players[0].derelicts = 1
	dr := g.idx(t, "DR3")
	g.pull(dr)
	g.draw = append([]int{dr}, g.draw...)
	g.mustPlay(t, "BLIND")
	if g.stale[len(g.stale)-1] != dr || g.players[0].money != 1500 {
		t.Errorf("stale %v, money %d", g.stale, g.players[0].money)
	}
}

// Seed, Derelict property: attached by a link to another player's
// property (not a contract or vehicle) with a Place action; it stays for
// the game, goes with its property, and that property can no longer be
// sold, closed or abandoned.
func TestDerelict(t *testing.T) {
	setup := func(t *testing.T) *game {
		g := actionGame(t)
		g.giveHand(t, 0, "DR3") // Vacant Lot: links on all sides
		g.players[0].derelicts = 1
		g.lay(t, 1, "WF1", 1, 0, 2)  // blue's Wheat Farm, links S and W
		g.lay(t, 1, "LM2", 0, 1, 0)  // blue's Lumber Mill under its office…
		g.lay(t, 1, "KLG1", 0, 2, 0) // …with a Logs contract
		return g
	}
	t.Run("attach", func(t *testing.T) {
		g := setup(t)
		before := g.vp(1, false)
		g.mustPlay(t, "PLACE DR3 AT blue 1,1")
		th := g.teams[1].thorns
		if len(th) != 1 || th[0].target != g.idx(t, "WF1") || th[0].from != "red" {
			t.Fatalf("thorns %+v", th)
		}
		if g.vp(1, false) != before-2 {
			t.Errorf("blue's VP %d, want %d", g.vp(1, false), before-2)
		}
		if !contains(g.acted, "place") {
			t.Errorf("attaching is a Place action")
		}
	})
	t.Run("by a link on both edges", func(t *testing.T) {
		g := setup(t)
		// East of the Wheat Farm: its east edge has no link (turned).
		g.refuse(t, "PLACE DR3 AT blue 2,0", "link to no property")
	})
	t.Run("not on a contract", func(t *testing.T) {
		g := setup(t)
		g.refuse(t, "PLACE DR3 AT blue 1,2", "link to no property")
	})
	t.Run("not on one's own cards", func(t *testing.T) {
		g := setup(t)
		g.lay(t, 0, "CF1", 0, 1, 0)
		g.refuse(t, "PLACE DR3 AT red 0,2", "another player")
	})
	t.Run("not on a taken cell", func(t *testing.T) {
		g := setup(t)
		g.refuse(t, "PLACE DR3 AT blue 0,1", "taken")
	})
	t.Run("the property stays", func(t *testing.T) {
		g := setup(t)
		g.mustPlay(t, "PLACE DR3 AT blue 1,1")
		g.finishTurn() // blue's turn
		g.refuse(t, "CLOSE WF1", "derelict attached")
		g.refuse(t, "DISCARD WF1", "derelict attached")
		g.refuse(t, "REMOVE WF1", "derelict attached")
		g.refuse(t, "SELL WF1 TO red FOR $100", "derelict attached")
	})
	t.Run("it goes with its property", func(t *testing.T) {
		g := setup(t)
		g.mustPlay(t, "PLACE DR3 AT blue 1,1")
		g.finishTurn()
		// Blue turns the farm to the west of its office: the lot follows.
		g.mustPlay(t, "MOVE WF1 TO -1,0 TURN 0")
		th := g.teams[1].thorns[0]
		if th.x != -1 || th.y != -1 {
			t.Errorf("the derelict is at %d,%d, want -1,-1 (north of the farm turned back)", th.x, th.y)
		}
		if p := g.tabProblem(1); p != "" {
			t.Error(p)
		}
	})
}

// Seed, Special and misc cards: Starter businesses and the main office.
func TestStarterAndMainOffice(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "ST3", "KLU1") // Family Woodshop needs Lumber
	g.players[0].starter = g.idx(t, "ST3")
	g.mustPlay(t, "PLACE ST3 AT 1,0\nPLACE KLU1 AT 2,0")
	g.finishTurn()
	g.finishTurn()
	g.finishTurn()
	g.mustPlay(t, "CLOSE ST3, KLU1") // closing is allowed: it goes back to the hand
	g = actionGame(t)
	g.refuse(t, "SWAP MO2 FOR WF1", "")
	for _, order := range []string{"DISCARD MO2", "CLOSE MO2", "REMOVE MO2"} {
		g.refuse(t, order, "Main Office")
	}
}

// Special offices work while placed: hand limit (TestHandLimit), route
// bonus (TestRevenueRoute), discount (TestPurchase), VP per property on
// a street.
func TestStreetVP(t *testing.T) {
	g := actionGame(t)
	before := g.vp(0, false)
	g.lay(t, 0, "SO15", 1, 0, 0) // Farm Lane Association: +1 VP per Farm Lane property
	g.lay(t, 0, "WF1", 2, 0, 2)  // Wheat Farm, Farm Lane
	g.lay(t, 0, "CF1", 1, 1, 0)  // Cotton Farm, Farm Lane
	if p := g.tabProblem(0); p != "" {
		t.Fatal(p)
	}
	want := before + 1 + 1 + 1 + 2
	if got := g.vp(0, false); got != want {
		t.Errorf("VP %d, want %d", got, want)
	}
}

func TestLaissezFaire(t *testing.T) {
	cards := []layCard{{"FF1", 1, 0, 0}, {"LM1", -1, 0, 0}, {"KLG1", -2, 0, 0}, {"KTL1", 0, 1, 0}}
	g := tableauGame(t, cards)
	if p := g.tabProblem(0); !strings.Contains(p, "lacks") {
		t.Fatalf("linked supply: %q, want the factory unsupplied", p)
	}
	g.opt.Laissez = true
	if p := g.tabProblem(0); p != "" {
		t.Errorf("laissez-faire: %s", p)
	}
	// Cards must still link together.
	g.lay(t, 0, "IH1", 7, 7, 0)
	if p := g.tabProblem(0); !strings.Contains(p, "not linked") {
		t.Errorf("laissez-faire, a loose card: %q", p)
	}
}

// Seed, Co-op: partners play one shared tableau with their own hands and
// money; a card is never sold for less than its price; partners win
// together.
func TestCoop(t *testing.T) {
	g := newTestGame(t, Options{Players: 4, Coop: true})
	g.clearHands()
	g.giveHand(t, 0, "WF2")
	g.giveHand(t, 2, "CF2")
	g.mustPlay(t, "PLACE WF2 AT 1,0 TURN 2")
	g.finishTurn()
	g.finishTurn() // green, red's partner
	g.mustPlay(t, "PLACE CF2 AT 0,1")
	if len(g.teams[0].placed) != 3 || g.players[0].money != g.players[2].money {
		t.Fatalf("shared tableau %d cards", len(g.teams[0].placed))
	}
	g.giveHand(t, 2, "FF2")
	if err := g.play(t, "SELL FF2 TO red FOR $300"); err == nil || !strings.Contains(err.Error(), "co-op") {
		t.Errorf("selling below price: %v", err)
	}
	g.mustPlay(t, "SELL FF2 TO red FOR $550")
	g.answerOffer(false, true)
	g.finishTurn()
	g.endGame()
	if len(g.winners) == 2 {
		a, b := g.playerIndex(g.winners[0]), g.playerIndex(g.winners[1])
		if g.players[a].team != g.players[b].team {
			t.Errorf("winners %v are not partners", g.winners)
		}
	} else if len(g.winners) != 4 {
		t.Errorf("winners %v", g.winners)
	}
}

// Fire Sale: special offices are bought as listed cards.
func TestFireSaleBuy(t *testing.T) {
	g := newTestGame(t, Options{Players: 3, FireSale: true})
	g.list(t, 0, "SO22", 0)
	g.mustPlay(t, "BUY SO22 FROM LISTING")
	if !g.inHandCode(0, "SO22") {
		t.Errorf("hand %s", g.handCodes(0))
	}
}

// Seed, 1-player game: contracts and vehicles taken as needed, one of
// each; the Starter must be placed; VP and contracts used.
func TestSolo(t *testing.T) {
	g := newTestGame(t, Options{Players: 1, Short: true})
	g.clearHands()
	g.giveHand(t, 0, "ST3", "LM1")
	g.players[0].starter = g.idx(t, "ST3")
	run := func(text string) []result {
		g.rep = &report{}
		return g.runSolo(0, g.orders(t, text), false)
	}
	if rs := run("FINISH"); rs[0].err == nil || !strings.Contains(rs[0].err.Error(), "Starter") {
		t.Fatalf("finish without the Starter: %v", rs[0].err)
	}
	// A mail is one batch: the second Lumber contract refuses it whole.
	rs := run("PICK Lumber Contract\nPICK KLU2")
	if rs[0].err == nil || rs[1].err == nil || !strings.Contains(rs[1].err.Error(), "one of each") || g.inHandCode(0, "KLU1") {
		t.Fatalf("pick: %v / %v", rs[0].err, rs[1].err)
	}
	if rs := run("PICK Lumber Contract"); rs[0].err != nil || !g.inHandCode(0, "KLU1") {
		t.Fatalf("pick: %v", rs[0].err)
	}
	// The Lumber Mill lacks Logs: the whole batch is refused.
	rs = run("PLACE ST3 AT 1,0\nPLACE KLU1 AT 2,0\nPLACE LM1 AT 0,1")
	if rs[0].err == nil || len(g.teams[0].placed) != 1 {
		t.Fatalf("an illegal batch was placed")
	}
	rs = run("PLACE ST3 AT 1,0\nPLACE KLU1 AT 2,0")
	for _, r := range rs {
		if r.err != nil {
			t.Fatalf("place: %v", r.err)
		}
	}
	rs = run("RETURN LM1")
	if rs[0].err == nil {
		t.Error("a property was put back")
	}
	rs = run("FINISH")
	if rs[0].err != nil || g.phase != phaseOver || g.winners[0] != "red" {
		t.Fatalf("finish: %v, phase %d", rs[0].err, g.phase)
	}
	if g.contractsPlaced(0) != 1 || !strings.Contains(g.finalText(), "1 contract used") {
		t.Errorf("%s", g.finalText())
	}
}
