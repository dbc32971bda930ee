package supplychain

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

// The tests in this file each quote the line of the seed
// (shared/seeds/supply-chain.txt) they enforce, on the shipped deck.

// mail plays one mail of power through the engine as the daemon does:
// Check, then Resolve with the stored lines; it fails the test on any
// refused line and returns the next state.
func mail(t *testing.T, e *Engine, st []byte, power, text string) []byte {
	t.Helper()
	ck, err := e.Check(st, power, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ck.Lines {
		for _, d := range l.Diags {
			if d.Severity == 2 {
				t.Fatalf("%s: %q refused: %s", power, text, d.Message)
			}
		}
	}
	out, err := e.Resolve(st, map[string][]string{power: ck.Canonical}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return out.Next
}

// Seed, Swap: "May not swap a hand card that was purchased from the Stale
// Sale pile." The mark stays on the card while it is placed, so placing it
// and closing it back into the hand does not launder it.
func TestSeedStaleMarkSurvivesPlaceAndClose(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	g.stalePile(t, "LM2")
	g.giveHand(t, 0, "KLG1")
	st := g.encode()
	st = mail(t, e, st, "red", "BUY LM2 FROM STALE\nPLACE LM2 AT 1,0\nPLACE KLG1 AT 2,0")
	st = mail(t, e, st, "blue", "PASS")
	st = mail(t, e, st, "green", "PASS")
	ck, err := e.Check(st, "red", "CLOSE LM2, KLG1\nSWAP LM2 FOR WF1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.Canonical) != 0 || !strings.Contains(fmt.Sprint(ck.Lines[1].Diags), "bought from the Stale Sale pile: it may not be swapped") {
		t.Errorf("a stale card placed and closed was swapped: canonical %q, diagnostics %v", ck.Canonical, ck.Lines[1].Diags)
	}
	// closing alone keeps the mark in the stored state
	st = mail(t, e, st, "red", "CLOSE LM2, KLG1")
	g2, err := decodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	if i := g2.handIndex(0, g2.idx(t, "LM2")); i < 0 || !g2.players[0].hand[i].stale {
		t.Errorf("LM2 back in the hand without its stale mark: %+v", g2.players[0].hand)
	}
}

// Seed, 1-player solo game: "And there are enough cards in the Short
// Deck for 2 people to each play a solitaire game at the same time." The
// variant supplychain-solo2 deals two solitaire games from one Short Deck
// and plays them side by side to the end.
func TestSeedTwoSolitaireGamesFromOneShortDeck(t *testing.T) {
	a, ok := adjudicator.Lookup("supplychain-solo2")
	if !ok {
		t.Fatal("supplychain-solo2 is not registered")
	}
	if info := a.Info(); strings.Join(info.Powers, ",") != "red,blue" || info.Game != "supplychain" {
		t.Errorf("info %+v", info)
	}
	e := engine(t, "supplychain-solo2")
	st, err := e.New(nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.Status(st)
	if strings.Join(s.Waiting, ",") != "red,blue" {
		t.Errorf("waiting %v: both solitaire games are open at once", s.Waiting)
	}
	g, _ := decodeState(st)
	// "Using the Short Deck (with no Starter Businesses and only 1 Ad
	// Agency), deal yourself 15 random property cards. Then deal yourself
	// 1 random Starter Business, 1 Business Plan, and give yourself a 1
	// link/3VP token."
	dealt := map[int]bool{}
	for p := range g.players {
		props := 0
		for _, h := range g.players[p].hand {
			c := g.card(h.card)
			if dealt[h.card] {
				t.Errorf("%s dealt twice", c.Code)
			}
			dealt[h.card] = true
			switch c.Kind {
			case KindProperty:
				props++
				if strings.ContainsAny(c.Code[len(c.Code)-1:], "234") {
					t.Errorf("%s is not in the Short Deck", c.Code)
				}
			case KindStarter:
			default:
				t.Errorf("%s dealt %s", g.players[p].power, c.Code)
			}
		}
		if props != 15 || g.players[p].starter < 0 || g.teams[p].plan < 0 || g.teams[p].token != nil {
			t.Errorf("%s: %d properties, starter %d, plan %d", g.players[p].power, props, g.players[p].starter, g.teams[p].plan)
		}
	}
	if err := invariants(g); err != nil {
		t.Fatal(err)
	}
	// One player's mail does not touch the other's game, and his FINISH
	// leaves the other's game open.
	ck, _ := e.Check(st, "red", "FINISH")
	if len(ck.Canonical) != 0 {
		t.Errorf("FINISH with the Starter in hand accepted")
	}
	// A bot game to the end through Check and Resolve, the invariants after
	// every phase.
	var last adjudicator.Outcome
	var reports []string
	phases := 0
	engineGame(t, e, 5, func(before []byte, out adjudicator.Outcome, ords map[string][]string) {
		phases++
		g, err := decodeState(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if err := invariants(g); err != nil {
			t.Fatalf("phase %d: %v", phases, err)
		}
		for p, pl := range g.players {
			if pl.done && len(ords[pl.power]) > 0 {
				if gb, _ := decodeState(before); gb.players[p].done {
					t.Errorf("%s's finished game took orders", pl.power)
				}
			}
		}
		last = out
		reports = append(reports, out.Report.Public)
	})
	fin, err := e.Status(last.Next)
	if err != nil {
		t.Fatal(err)
	}
	if !fin.Over || len(fin.Winners()) == 0 || fin.Result.Kind != "points" || !strings.Contains(fin.Result.Text, "victory points") {
		t.Fatalf("no end: %+v", fin)
	}
	all := strings.Join(reports, "\n")
	for _, want := range []string{"Red's solitaire game ends", "Blue's solitaire game ends", "Final scores", "== Red (finished)", "== Blue (finished)"} {
		if !strings.Contains(all, want) {
			t.Errorf("the reports never say %q", want)
		}
	}
	t.Logf("%d phases; %s", phases, fin.Result.Text)
}
