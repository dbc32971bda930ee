package supplychain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzCheck: Check never fails on player input; the canonical lines it
// keeps read back strictly, and checking them again keeps them unchanged.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"BUY LM1 FROM LISTING\nREVENUE",
		"buy lumber mill from the listing\nplace lumber mill east of main office",
		"SELL SO3 TO blue FOR $1,200",
		"TRADE WITH blue GIVE LM1, $100 GET FF2",
		"TRADE SO3 AND WF2 FOR FF2 WITH Blue",
		"PLACE FF1 AT 1,0 TURN 1\nPLACE LM1 AT (2,0)\nMOVE MO2 TO -1,0 TURN 270",
		"TOKEN AT 0,0 E\nTOKEN OFF\nSPIN MO2 3\nDISCARD WF1, CF1",
		"ASK blue OFFICES\nHAND\nPASS\nBLIND",
		"CLOSE LM1 and FF1\nREMOVE KLG1\nREVENUE FROM MO2",
		"PLACE DR1 AT blue 1,1\nSWAP SO3 FOR LM1\nACCEPT\nDECLINE\nPICK KLG1\nFINISH",
		"Hi,\n\"Lumber Mil\"\n$$$\nBUY -\nPLACE AT 9999,9999\n-- \nsig",
	} {
		f.Add(s)
	}
	e, _ := NewEngine("supplychain-3")
	g := actionGame(f)
	g.giveHand(f, 0, "SO3", "WF2", "FF2", "LM2", "KLG1", "DR1")
	st := g.encode()
	f.Fuzz(func(t *testing.T, text string) {
		for _, power := range []string{"red", "blue"} {
			c, err := e.Check(st, power, text)
			if err != nil {
				t.Fatalf("Check(%q): %v", text, err)
			}
			if len(c.Canonical) == 0 {
				continue
			}
			again, err := e.Check(st, power, strings.Join(c.Canonical, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(again.Canonical, "\n") != strings.Join(c.Canonical, "\n") {
				t.Fatalf("%q: canonical %q checks as %q", text, c.Canonical, again.Canonical)
			}
			os, errs := g.parseCanonical(c.Canonical)
			if len(errs) > 0 {
				t.Fatalf("%q: canonical %q does not read strictly: %v", text, c.Canonical, errs)
			}
			for i, o := range os {
				if o.format(g.d) != c.Canonical[i] {
					t.Fatalf("canonical %q formats as %q", c.Canonical[i], o.format(g.d))
				}
			}
		}
	})
}

// TestRandomOrders: random order sets — any verb, any card, any cell —
// carried out in positions taken from bot games never panic and leave the
// invariants intact.
func TestRandomOrders(t *testing.T) {
	d := defaultDeck(t)
	rng := rand.New(rand.NewPCG(99, 1))
	verbs := []Verb{VerbBuy, VerbBlind, VerbTrade, VerbSwap, VerbPlace, VerbAttach, VerbMove, VerbRemove, VerbToken,
		VerbRevenue, VerbClose, VerbDiscard, VerbSpin, VerbPass, VerbAccept, VerbPick, VerbFinish}
	randCard := func(g *game) cardRef {
		if rng.IntN(3) == 0 {
			return cardRef{card: -1, name: rng.IntN(len(d.nameCards)), text: "name"}
		}
		// Mostly cards the player could mean: hand, placed, listing.
		pl := &g.players[g.seat]
		switch rng.IntN(4) {
		case 0:
			if len(pl.hand) > 0 {
				return codeRef(pl.hand[rng.IntN(len(pl.hand))].card)
			}
		case 1:
			t := g.teamOf(g.seat)
			return codeRef(t.placed[rng.IntN(len(t.placed))].card)
		case 2:
			if s := g.listing[rng.IntN(len(g.listing))]; s.card >= 0 {
				return codeRef(s.card)
			}
		}
		return codeRef(rng.IntN(len(d.Cards)))
	}
	turns := 0
	for seed := int64(1); seed <= 6; seed++ {
		opt := Options{Players: 2 + int(seed)%5, Deck: "default", Default: "revenue", Laissez: seed == 4, Coop: seed == 5}
		if opt.Coop {
			opt.Players = 4
		}
		opt.Short = opt.Players < 3
		g, err := newGame(d, opt, allPowers, seed)
		if err != nil {
			t.Fatal(err)
		}
		brng := rand.New(rand.NewPCG(uint64(seed), 3))
		for g.phase != phaseOver && turns < 400*int(seed) {
			turns++
			if g.phase == phaseOffer {
				g.answerOffer(rng.IntN(2) == 0, true)
				continue
			}
			var os []Order
			if rng.IntN(2) == 0 {
				os = g.botOrders(g.seat, brng)
			}
			for k := rng.IntN(4); k >= 0; k-- {
				o := Order{Verb: verbs[rng.IntN(len(verbs))], Card: randCard(g), Area: Area(rng.IntN(6)),
					Power: allPowers[rng.IntN(len(g.players))], Rot: rng.IntN(4), HasRot: rng.IntN(2) == 0, N: rng.IntN(4)}
				o.At = spot{set: true, x: rng.IntN(7) - 3, y: rng.IntN(7) - 3}
				if rng.IntN(4) == 0 {
					o.At = spot{set: true, rel: true, dir: rng.IntN(4), of: randCard(g)}
				}
				o.Edge = edgeOf(rng.IntN(5)-2, rng.IntN(5)-2, rng.IntN(4))
				o.Off = rng.IntN(5) == 0
				for j := rng.IntN(3); j > 0; j-- {
					o.Give = append(o.Give, randCard(g))
				}
				for j := rng.IntN(3); j > 0; j-- {
					o.Get = append(o.Get, randCard(g))
				}
				if rng.IntN(2) == 0 {
					o.GiveM = 50 * rng.IntN(10)
				} else {
					o.GetM = 50 * rng.IntN(10)
				}
				if o.Verb == VerbSwap && len(o.Give) == 0 {
					o.Give = []cardRef{randCard(g)}
				}
				os = append(os, o)
			}
			g.rep = &report{}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("seed %d round %d: panic %v with orders %s", seed, g.round, r, describeOrders(d, os))
					}
				}()
				g.runTurn(g.seat, os, false)
			}()
			if err := invariants(g); err != nil {
				t.Fatalf("seed %d round %d after %s: %v", seed, g.round, describeOrders(d, os), err)
			}
			if g.phase == phaseTurn {
				g.finishTurn()
			}
		}
	}
	if turns < 500 {
		t.Errorf("only %d turns", turns)
	}
}

func describeOrders(d *Deck, os []Order) string {
	var s []string
	for _, o := range os {
		s = append(s, fmt.Sprintf("%d:%s", o.Verb, o.format(d)))
	}
	return strings.Join(s, "; ")
}
