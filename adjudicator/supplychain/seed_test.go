package supplychain

import (
	"fmt"
	"strings"
	"testing"
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
