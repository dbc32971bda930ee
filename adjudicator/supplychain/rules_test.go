package supplychain

import (
	"strings"
	"testing"
)

// actionGame: three players, empty hands, a known listing.
func actionGame(t testing.TB) *game {
	t.Helper()
	g := newTestGame(t, Options{Players: 3})
	g.clearHands()
	for i, code := range []string{"LM1", "FF1", "WF1", "IH1", "HB1", "CF1"} {
		g.list(t, i, code, 0)
	}
	return g
}

func (g *game) stalePile(t *testing.T, codes ...string) {
	for _, code := range codes {
		c := g.idx(t, code)
		g.pull(c)
		g.stale = append(g.stale, c)
	}
}

func (g *game) inHandCode(p int, code string) bool {
	c, _ := g.d.CardByCode(code)
	return g.handIndex(p, c) >= 0
}

// Seed, Actions: Purchase from the five areas; prices rounded up to $50;
// the Stale Sale pile at half price; a listed card leaving is replaced by
// the top card of the Deck.
func TestPurchase(t *testing.T) {
	for _, tc := range []struct {
		name, order string
		card        string
		cost        int
	}{
		{"listing", "BUY LM1 FROM LISTING", "LM1", 350},
		{"listing by name", "buy wheat farm", "WF1", 200},
		{"contract", "BUY KLG1 FROM CONTRACTS", "KLG1", 150},
		{"contract by name", "buy Logs Contract", "KLG1", 150},
		{"vehicle", "BUY Small Truck FROM VEHICLES", "VS1", 100},
		{"office", "BUY OF1 FROM OFFICES", "OF1", 400},
		// Fish Cannery $500: half is $250; Lumber Mill $350: $175 → $200.
		{"stale pile, half price", "BUY FC1 FROM STALE", "FC1", 250},
		{"stale pile, rounded up to $50", "BUY LM2 FROM STALE", "LM2", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := actionGame(t)
			g.stalePile(t, "FC1", "LM2")
			top := g.draw[0]
			g.mustPlay(t, tc.order)
			if !g.inHandCode(0, tc.card) || g.players[0].money != 1500-tc.cost {
				t.Errorf("hand %s, money %d; want %s and %d", g.handCodes(0), g.players[0].money, tc.card, 1500-tc.cost)
			}
			if tc.card == "LM1" && g.listing[0].card != top {
				t.Errorf("the listing slot was not refilled from the Deck")
			}
			if strings.Contains(tc.name, "stale") && !g.players[0].hand[0].stale {
				t.Errorf("a card bought stale is not marked")
			}
		})
	}
	t.Run("two areas are two different actions", func(t *testing.T) {
		g := actionGame(t)
		g.mustPlay(t, "BUY LM1 FROM LISTING\nBUY KLG1 FROM CONTRACTS")
		if !g.inHandCode(0, "LM1") || !g.inHandCode(0, "KLG1") {
			t.Errorf("hand %s", g.handCodes(0))
		}
	})
	t.Run("one area twice is the same action", func(t *testing.T) {
		g := actionGame(t)
		g.mustPlay(t, "BUY LM1 FROM LISTING")
		g.refuse(t, "BUY FF1 FROM LISTING", "differ")
	})
	t.Run("cannot pay", func(t *testing.T) {
		g := actionGame(t)
		g.players[0].money = 300
		g.refuse(t, "BUY LM1 FROM LISTING", "costs $350")
	})
	t.Run("a name in two areas needs the area", func(t *testing.T) {
		g := actionGame(t)
		g.stalePile(t, "LM3")
		g.refuse(t, "BUY Lumber Mill", "FROM LISTING or FROM STALE")
	})
	t.Run("discount of a placed special office", func(t *testing.T) {
		g := actionGame(t)
		g.lay(t, 0, "SO18", 1, 0, 0) // Contract Buyer: contracts $50 less
		g.mustPlay(t, "BUY KLU1 FROM CONTRACTS")
		if g.players[0].money != 1500-200 {
			t.Errorf("money %d, want %d", g.players[0].money, 1300)
		}
	})
}

// Seed, Actions: up to two actions a turn, never the same one twice.
func TestTwoDifferentActions(t *testing.T) {
	g := actionGame(t)
	if err := g.play(t, "REVENUE\nBUY LM1 FROM LISTING\nBUY KLG1 FROM CONTRACTS"); err == nil || !strings.Contains(err.Error(), "third") {
		t.Errorf("a third action: %v", err)
	}
	if g.inHandCode(0, "KLG1") || !g.inHandCode(0, "LM1") {
		t.Errorf("hand %s: the first two actions count, the third does not", g.handCodes(0))
	}
	g = actionGame(t)
	if err := g.play(t, "REVENUE\nREVENUE"); err == nil || !strings.Contains(err.Error(), "differ") {
		t.Errorf("revenue twice: %v", err)
	}
	g = actionGame(t)
	g.mustPlay(t, "REVENUE\nBUY KLG1 FROM CONTRACTS")
	g.refuse(t, "BUY VS1 FROM VEHICLES", "third")
	// Free orders are no actions.
	g = actionGame(t)
	g.giveHand(t, 0, "IH2")
	g.mustPlay(t, "DISCARD IH2\nREVENUE\nBUY KLG1 FROM CONTRACTS")
}

// Seed, Blind Purchase: the top card for $50 off; unpaid, it waits and
// the player takes Revenue every turn until it can be paid.
func TestBlindPurchase(t *testing.T) {
	g := actionGame(t)
	ff := g.idx(t, "FF2")
	g.pull(ff)
	g.draw = append([]int{ff}, g.draw...)
	g.mustPlay(t, "BLIND")
	if !g.inHandCode(0, "FF2") || g.players[0].money != 1500-500 {
		t.Fatalf("hand %s, money %d", g.handCodes(0), g.players[0].money)
	}
	// Cannot pay: set aside.
	g = actionGame(t)
	g.pull(ff)
	g.draw = append([]int{ff}, g.draw...)
	g.players[0].money = 300
	g.mustPlay(t, "BLIND")
	if g.players[0].blind != ff || g.players[0].money != 300 {
		t.Fatalf("blind %d, money %d", g.players[0].blind, g.players[0].money)
	}
	g.refuse(t, "BUY KLG1 FROM CONTRACTS", "Blind Purchase is waiting")
	// The next turn starts with Revenue ($100 from the main office), and
	// purchases are refused until the card is paid for.
	g.finishTurn()
	g.finishTurn()
	g.finishTurn() // red again, round 2
	if g.seat != 0 || g.round != 2 {
		t.Fatalf("seat %d round %d", g.seat, g.round)
	}
	g.mustPlay(t, "PASS")
	if g.players[0].money != 400 || !contains(g.acted, "revenue") {
		t.Fatalf("forced revenue: money %d, acted %v", g.players[0].money, g.acted)
	}
	g.players[0].money = 500
	g.settleBlind(0)
	if g.players[0].blind != -1 || !g.inHandCode(0, "FF2") || g.players[0].money != 0 {
		t.Fatalf("paid: blind %d, hand %s, money %d", g.players[0].blind, g.handCodes(0), g.players[0].money)
	}
}

// Seed, Swap: a hand card for a listed card of lesser price, not a card
// bought from the Stale Sale pile; special offices for any listed card.
func TestSwap(t *testing.T) {
	t.Run("for a cheaper listed card", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "FF2")
		g.mustPlay(t, "SWAP FF2 FOR LM1")
		if !g.inHandCode(0, "LM1") || g.listing[0].card != g.idx(t, "FF2") || g.listing[0].age != 0 {
			t.Errorf("hand %s, slot %+v", g.handCodes(0), g.listing[0])
		}
	})
	t.Run("not for a dearer one", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2")
		g.refuse(t, "SWAP WF2 FOR LM1", "lesser price")
	})
	t.Run("special office for any listed property", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "SO1") // $450
		g.mustPlay(t, "SWAP SO1 FOR FF1")
		if !g.inHandCode(0, "FF1") {
			t.Errorf("hand %s", g.handCodes(0))
		}
	})
	t.Run("not a card bought stale", func(t *testing.T) {
		g := actionGame(t)
		g.stalePile(t, "FF2")
		g.mustPlay(t, "BUY FF2 FROM STALE")
		g.refuse(t, "SWAP FF2 FOR LM1", "Stale Sale")
	})
	t.Run("not the Starter", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "ST1")
		g.players[0].starter = g.idx(t, "ST1")
		g.refuse(t, "SWAP ST1 FOR WF1", "Starter")
	})
}

// Seed, Place: one card, or one block; a block replacing a contract sends
// it back to the Contract deck.
func TestPlace(t *testing.T) {
	t.Run("one card with no requirements", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2")
		g.mustPlay(t, "PLACE WF2 AT 1,0 TURN 2")
	})
	t.Run("the engine turns a card whose TURN is left out", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2")
		g.mustPlay(t, "PLACE Wheat Farm EAST OF MO2")
		if r := g.teams[0].placed[1].rot; r != 2 {
			t.Errorf("turned to %d, want 2", r)
		}
	})
	t.Run("a block in one action", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "FF2", "LM2", "KLG1", "KTL1")
		g.mustPlay(t, "PLACE FF2 AT 1,0\nPLACE LM2 AT 2,0\nPLACE KLG1 AT 3,0\nPLACE KTL1 AT 1,1")
		if len(g.teams[0].placed) != 5 {
			t.Errorf("%d placed", len(g.teams[0].placed))
		}
	})
	t.Run("two unrelated cards are two actions", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2", "CF2")
		g.refuse(t, "PLACE WF2 AT 1,0 TURN 2\nPLACE CF2 AT 0,1", "one block")
	})
	t.Run("an office alongside", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2", "OF3")
		g.mustPlay(t, "PLACE WF2 AT 1,0 TURN 2\nPLACE OF3 AT 0,1")
	})
	t.Run("replacing a contract", func(t *testing.T) {
		g := actionGame(t)
		g.lay(t, 0, "LM2", 1, 0, 0)
		g.lay(t, 0, "KLG1", 2, 0, 0)
		g.giveHand(t, 0, "LC1", "VS1")
		g.mustPlay(t, "PLACE LC1 AT 2,0 TURN 3\nPLACE VS1 AT 3,0")
		if placedIndex(&g.teams[0], g.idx(t, "KLG1")) >= 0 || !containsCard(g.contracts, g.idx(t, "KLG1")) {
			t.Errorf("the Logs contract did not go back to the Contract deck")
		}
	})
	t.Run("an illegal block is refused whole", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "FF2", "LM2", "KLG1")
		g.refuse(t, "PLACE FF2 AT 1,0\nPLACE LM2 AT 2,0\nPLACE KLG1 AT 3,0", "lacks Tools")
	})
	t.Run("occupied cell", func(t *testing.T) {
		g := actionGame(t)
		g.lay(t, 0, "WF1", 1, 0, 2)
		g.giveHand(t, 0, "CF2")
		g.refuse(t, "PLACE CF2 AT 1,0", "taken")
	})
	t.Run("token as a link costs its 3 VP", func(t *testing.T) {
		g := actionGame(t)
		g.giveHand(t, 0, "WF2")
		before := g.vp(0, false)
		g.mustPlay(t, "PLACE WF2 AT 1,0 TURN 0\nTOKEN AT 0,0 E")
		if g.teams[0].token == nil || g.vp(0, false) != before+1-3 {
			t.Errorf("token %v, VP %d (before %d)", g.teams[0].token, g.vp(0, false), before)
		}
	})
}

// Seed, Reorganize and the dual action Place + Reorganize.
func TestReorganize(t *testing.T) {
	base := func(t *testing.T) *game {
		g := actionGame(t)
		g.lay(t, 0, "LM2", 1, 0, 0)
		g.lay(t, 0, "KLG1", 2, 0, 0)
		return g
	}
	t.Run("move keeping the chain", func(t *testing.T) {
		g := base(t)
		g.mustPlay(t, "MOVE LM2 TO 0,1\nMOVE KLG1 TO 0,2")
	})
	t.Run("a move that ruins the block is refused", func(t *testing.T) {
		g := base(t)
		g.refuse(t, "MOVE KLG1 TO 5,5", "")
	})
	t.Run("removed property to the stale pile, contract to its deck", func(t *testing.T) {
		g := base(t)
		g.mustPlay(t, "REMOVE LM2\nREMOVE KLG1")
		if !containsCard(g.stale, g.idx(t, "LM2")) || !containsCard(g.contracts, g.idx(t, "KLG1")) {
			t.Errorf("stale %v", g.stale)
		}
	})
	t.Run("dual action: place and reorganize together, two actions", func(t *testing.T) {
		g := base(t)
		g.giveHand(t, 0, "FF2", "KTL1")
		// The factory goes between the office and the mill.
		g.mustPlay(t, "MOVE LM2 TO 2,0\nMOVE KLG1 TO 3,0\nPLACE FF2 AT 1,0\nPLACE KTL1 AT 1,1")
		if len(g.acted) != 2 {
			t.Errorf("acted %v, want place and reorganize", g.acted)
		}
		g.refuse(t, "REVENUE", "third")
	})
}

// Seed, Close: placed cards back into the hand, never ruining a block.
func TestClose(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "LM2", 1, 0, 0)
	g.lay(t, 0, "KLG1", 2, 0, 0)
	g.refuse(t, "CLOSE KLG1", "ruin")
	g.refuse(t, "CLOSE MO2", "Main Office")
	g.mustPlay(t, "CLOSE LM2, KLG1")
	if !g.inHandCode(0, "LM2") || !g.inHandCode(0, "KLG1") || len(g.teams[0].placed) != 1 {
		t.Errorf("hand %s", g.handCodes(0))
	}
}

// Seed, Revenue; law A caps money at $2,000.
func TestRevenueAction(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "FF2", 1, 0, 0)
	g.lay(t, 0, "LM2", 2, 0, 0)
	g.lay(t, 0, "KLG1", 3, 0, 0)
	g.lay(t, 0, "KTL1", 1, 1, 0)
	g.mustPlay(t, "REVENUE")
	if g.players[0].money != 1900 {
		t.Errorf("money %d, want 1500 + 400", g.players[0].money)
	}
	g = actionGame(t)
	g.lay(t, 0, "FF2", 1, 0, 0)
	g.lay(t, 0, "LM2", 2, 0, 0)
	g.lay(t, 0, "KLG1", 3, 0, 0)
	g.lay(t, 0, "KTL1", 1, 1, 0)
	g.players[0].money = 1800
	g.mustPlay(t, "REVENUE")
	if g.players[0].money != 2000 || !strings.Contains(strings.Join(g.rep.pub, " "), "law A") {
		t.Errorf("money %d, want the $2,000 cap; %v", g.players[0].money, g.rep.pub)
	}
}

// Seed, Extras: Discard is free; abandoned properties go to the Stale Sale
// pile, contracts and vehicles to their decks; a placed card only if no
// block is ruined; never the Starter.
func TestDiscard(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "WF2", "KLG1", "VS1", "ST1")
	g.players[0].starter = g.idx(t, "ST1")
	g.lay(t, 0, "LM2", 1, 0, 0)
	g.lay(t, 0, "KLG2", 2, 0, 0)
	g.mustPlay(t, "DISCARD WF2\nDISCARD KLG1\nDISCARD VS1")
	if !containsCard(g.stale, g.idx(t, "WF2")) || !containsCard(g.contracts, g.idx(t, "KLG1")) || !containsCard(g.vehicles, g.idx(t, "VS1")) {
		t.Error("discarded cards went to the wrong place")
	}
	if len(g.acted) != 0 {
		t.Errorf("discards used actions: %v", g.acted)
	}
	g.refuse(t, "DISCARD ST1", "Starter")
	g.refuse(t, "DISCARD KLG2", "ruin")
	g.refuse(t, "DISCARD MO2", "Main Office")
	g.mustPlay(t, "DISCARD KLG2\nDISCARD LM2")
}

// Seed, Card placement: spinning a card is free and may be done at any
// time, as long as the tableau stays legal.
func TestSpin(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "LM2", 1, 0, 0)
	g.lay(t, 0, "KLG1", 2, 0, 0)
	g.mustPlay(t, "SPIN KLG1 2")
	if g.teams[0].placed[2].rot != 2 || len(g.acted) != 0 {
		t.Errorf("rot %d, acted %v", g.teams[0].placed[2].rot, g.acted)
	}
	g.lay(t, 0, "WF1", 0, 1, 3) // wheat farm N E turned: W N… links up to the office
	if p := g.tabProblem(0); p != "" {
		t.Fatalf("%s", p)
	}
	g.refuse(t, "SPIN WF1 2", "spinning")
}

// Seed, hand limit: seven cards at the end of a turn; a placed special
// office can raise it.
func TestHandLimit(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "WF2", "CF2", "IH2", "LM2", "FF2", "FC1", "GS1", "ST1")
	g.players[0].starter = g.idx(t, "ST1")
	g.mustPlay(t, "PASS")
	g.finishTurn()
	if n := len(g.players[0].hand); n != 7 {
		t.Fatalf("%d cards after the turn", n)
	}
	cheap := 0
	for _, c := range []string{"WF2", "CF2", "IH2"} {
		if g.inHandCode(0, c) {
			cheap++
		}
	}
	if cheap != 2 {
		t.Errorf("not a cheapest card was discarded: %s", g.handCodes(0))
	}
	if !g.inHandCode(0, "ST1") {
		t.Errorf("the Starter was discarded")
	}
	g = actionGame(t)
	g.lay(t, 0, "SO1", 1, 0, 0) // Personnel Office: hand limit +1
	g.giveHand(t, 0, "WF2", "CF2", "IH2", "LM2", "FF2", "FC1", "GS1", "DN1")
	g.finishTurn()
	if n := len(g.players[0].hand); n != 8 {
		t.Errorf("%d cards, want 8 with the Personnel Office", n)
	}
}

// Seed, Listing Agent: before Player 1's turn (not the first) the listed
// cards are tapped; at the fourth tap a card goes to the Stale Sale pile
// and is replaced from the Deck.
func TestListingTaps(t *testing.T) {
	g := actionGame(t)
	g.listing[1].age = 3
	for i := 0; i < 3; i++ { // red, blue, green: round 1 ends
		if g.listing[0].age != 0 {
			t.Fatalf("tapped during round 1")
		}
		g.finishTurn()
	}
	if g.round != 2 || g.seat != 0 {
		t.Fatalf("round %d seat %d", g.round, g.seat)
	}
	if g.listing[0].age != 1 {
		t.Errorf("slot 0 age %d after the tap", g.listing[0].age)
	}
	ff := g.idx(t, "FF1")
	if g.listing[1].card == ff || g.listing[1].age != 0 || g.stale[len(g.stale)-1] != ff {
		t.Errorf("the card at its fourth tap did not go stale: %+v", g.listing[1])
	}
	// Four rounds in all: a card listed at the start goes stale when
	// round 5 begins.
	for r := 2; r < 5; r++ {
		for i := 0; i < 3; i++ {
			g.finishTurn()
		}
	}
	if !containsCard(g.stale, g.idx(t, "LM1")) || g.round != 5 {
		t.Errorf("LM1 still listed in round %d", g.round)
	}
}

// Seed, End Game: the game ends at the end of the round in which no listed
// card remains; most VP wins, business plans count, a tie goes to the
// best revenue route.
func TestEndGame(t *testing.T) {
	g := actionGame(t)
	g.draw = nil
	for i := range g.listing {
		if c := g.listing[i].card; c >= 0 {
			g.out = insertSorted(g.out, c)
		}
		g.listing[i] = slot{card: -1}
	}
	g.finishTurn() // red
	if g.phase == phaseOver {
		t.Fatal("over before the end of the round")
	}
	// Blue lays a Furniture Factory block: more VP.
	g.lay(t, 1, "FF2", 1, 0, 0)
	g.lay(t, 1, "LM2", 2, 0, 0)
	g.lay(t, 1, "KLG1", 3, 0, 0)
	g.lay(t, 1, "KTL1", 1, 1, 0)
	g.finishTurn() // blue
	g.finishTurn() // green: the round ends
	if g.phase != phaseOver || len(g.winners) != 1 || g.winners[0] != "blue" {
		t.Fatalf("phase %d, winners %v", g.phase, g.winners)
	}
	// Business plan: +1 VP per property on its two streets.
	blue := &g.teams[1]
	plan := g.card(blue.plan)
	onStreets := 0
	for _, pl := range blue.placed {
		if c := g.card(pl.card); c.isProperty() && (c.Street == plan.Plan[0] || c.Street == plan.Plan[1]) {
			onStreets++
		}
	}
	if g.vp(1, true)-g.vp(1, false) != onStreets {
		t.Errorf("plan bonus %d, want %d", g.vp(1, true)-g.vp(1, false), onStreets)
	}
}

func TestEndGameTieBreak(t *testing.T) {
	g := actionGame(t)
	// Same VP for everyone; red's route collects more.
	for ti := range g.teams {
		g.teams[ti].plan = -1
	}
	g.lay(t, 0, "SO22", 1, 0, 1) // Counting House: $150, 1 VP
	g.lay(t, 1, "SO25", 1, 0, 1) // Grand HQ: 3 VP, no money…
	g.lay(t, 2, "SO26", 1, 0, 1)
	g.lay(t, 0, "OF1", -1, 0, 3) // …red gets 2 more VP with two offices
	g.lay(t, 0, "OF2", 0, 1, 0)
	g.endGame()
	if v0, v1 := g.vp(0, true), g.vp(1, true); v0 != v1 {
		t.Fatalf("VP %d and %d: the test wants a tie", v0, v1)
	}
	if len(g.winners) != 1 || g.winners[0] != "red" {
		t.Errorf("winners %v, want red on the revenue tie-break", g.winners)
	}
}
