package supplychain

import (
	"strings"
	"testing"
)

// tableTest lays cards into red's tableau (the main office MO stays at
// 0,0) and checks the placement rule.
type layCard struct {
	code      string
	x, y, rot int
}

func tableauGame(t *testing.T, cards []layCard) *game {
	t.Helper()
	g := newTestGame(t, Options{Players: 3})
	g.clearHands()
	for _, c := range cards {
		g.lay(t, 0, c.code, c.x, c.y, c.rot)
	}
	return g
}

// Seed, "Card placement": cards link through chain links on both facing
// edges, the link must be relevant (producer–requirement, or an office),
// a block may reach a supplier through another supplier, a property that
// supplies no block comes off an office, the token is a wildcard link.
func TestPlacementRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cards []layCard
		token *edgeRef
		want  string // "" legal, else part of the problem
	}{
		{"producer linked to the office", []layCard{{"WF1", 1, 0, 2}}, nil, ""},
		// Wheat Farm links N and E: unturned it has no west link.
		{"no chain link on the facing edge", []layCard{{"WF1", 1, 0, 0}}, nil, "not linked"},
		{"the token is a wildcard link", []layCard{{"WF1", 1, 0, 0}}, &edgeRef{x: 0, y: 0, dir: East}, ""},
		{"a token elsewhere does not help", []layCard{{"WF1", 1, 0, 0}}, &edgeRef{x: 0, y: 0, dir: South}, "not linked"},
		{"block: business with its suppliers", []layCard{{"FF1", 1, 0, 0}, {"LM1", 2, 0, 0}, {"KLG1", 3, 0, 0}, {"KTL1", 1, 1, 0}}, nil, ""},
		// Tools reach the Furniture Factory through the Lumber Mill and
		// the Logs contract: "through another required supplier".
		{"supplier reached through other suppliers", []layCard{{"FF1", 1, 0, 0}, {"LM1", 2, 0, 0}, {"KLG1", 3, 0, 0}, {"KTL1", 3, 1, 0}}, nil, ""},
		// A Wheat Farm between the factory and its Tools is no supplier
		// of the block: the link is incidental.
		{"supplier reached only through an unrelated card", []layCard{{"FF1", 1, 0, 0}, {"LM1", 2, 0, 0}, {"KLG1", 3, 0, 0}, {"WF1", 1, 1, 3}, {"KTL1", 1, 2, 0}}, nil, "lacks Tools"},
		{"requirement missing", []layCard{{"FF1", 1, 0, 0}, {"LM1", 2, 0, 0}, {"KLG1", 3, 0, 0}}, nil, "lacks Tools"},
		{"vehicle required", []layCard{{"HB1", 1, 0, 0}}, nil, "lacks Boat"},
		{"vehicle supplied", []layCard{{"HB1", 1, 0, 0}, {"VB1", 2, 0, 1}}, nil, ""},
		// Law D: a contract must be part of a block.
		{"contract alone", []layCard{{"KLG1", 1, 0, 0}}, nil, "law D"},
		{"vehicle alone", []layCard{{"VS1", 1, 0, 0}}, nil, "law D"},
		// A supplier that supplies nothing must come off an office.
		{"supplier off the office", []layCard{{"LM1", 1, 0, 0}, {"KLG1", 2, 0, 0}}, nil, ""},
		{"supplier not off an office", []layCard{{"KLG1", 1, 0, 0}, {"LM1", 2, 0, 0}}, nil, "must come off an office"},
		// The seed's example: Foundry → Metal Supply Co → a business
		// needing Tools; a Sheet Metal Co added to the Foundry makes Cans
		// nobody in the block needs.
		{"seed example without the Sheet Metal Co", seedExample(false), nil, ""},
		{"seed example with the Sheet Metal Co", seedExample(true), nil, "Sheet Metal Co (SM1) supplies nothing in a block"},
		{"two cards on one cell", []layCard{{"WF1", 1, 0, 2}, {"CF1", 1, 0, 0}}, nil, "both lie at 1,0"},
		{"card not connected at all", []layCard{{"IH1", 5, 5, 0}}, nil, "not linked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tableauGame(t, tc.cards)
			g.teams[0].token = tc.token
			got := g.tabProblem(0)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("problem = %q, want %q\n%s", got, tc.want, g.grid(&g.teams[0]))
			}
		})
	}
}

// seedExample: Hardware Store (needs Tools and Lumber) off the office, a
// Lumber contract under it, Metal Supply Co east of it, the Foundry east
// of that with its Ore and Coal contracts, and the Sheet Metal Co under
// the Foundry.
func seedExample(sheetMetal bool) []layCard {
	cards := []layCard{{"HW1", 1, 0, 0}, {"KLU1", 1, 1, 0}, {"MS1", 2, 0, 1}, {"FD1", 3, 0, 0}, {"KOR1", 3, -1, 0}, {"KCO1", 4, 0, 0},
		{"VL1", 0, 1, 0}}
	cards = cards[:6]
	if sheetMetal {
		cards = append(cards, layCard{"SM1", 3, 1, 0})
	}
	return cards
}

// Seed, Card placement: spinning a card turns its links.
func TestRotation(t *testing.T) {
	for _, tc := range []struct {
		links uint8
		rot   int
		want  uint8
	}{
		{North, 1, East}, {North, 2, South}, {North, 3, West}, {West, 1, North},
		{North | East, 2, South | West}, {15, 3, 15}, {0, 1, 0},
	} {
		if got := rotLinks(tc.links, tc.rot); got != tc.want {
			t.Errorf("rotLinks(%s, %d) = %s, want %s", linkLetters(tc.links), tc.rot, linkLetters(got), linkLetters(tc.want))
		}
	}
}

// Seed, Revenue: a route starts at an office, collects that office's
// money and every business on it, never crosses a card twice, ends at a
// dead end or another office; +$50 per required producer on the business's
// street.
func TestRevenueRoute(t *testing.T) {
	furniture := []layCard{{"FF1", 1, 0, 0}, {"LM1", 2, 0, 0}, {"KLG1", 3, 0, 0}, {"KTL1", 1, 1, 0}}
	for _, tc := range []struct {
		name  string
		cards []layCard
		from  string
		want  int
	}{
		{"the office alone", nil, "", 100},
		// MO $100 + Furniture $250 + $50 (Lumber Mill on Mill Road).
		{"business with a same-street supplier", furniture, "", 400},
		// Bakery $150 (Market Street): Flour Mill on Mill Road, Milk
		// contract: no bonus.
		{"no bonus off the street", []layCard{{"BK1", 1, 0, 1}, {"FM1", 2, 0, 0}, {"KWH1", 3, 0, 0}, {"KMK1", 1, 1, 0}}, "", 250},
		// Two businesses on two branches: a route takes one.
		{"one branch only", append(append([]layCard{}, furniture...), layCard{"CS1", -1, 0, 1}, layCard{"KCL1", -1, 1, 0}), "", 400},
		// A route ends at another office: the Branch Office's $50 is not
		// collected from the main office's route, and the business beyond
		// it is not reached.
		{"another office ends the route", []layCard{{"OF1", 1, 0, 1}, {"ST3", 2, 0, 0}, {"KLU1", 2, 1, 0}}, "MO", 100},
		{"route from the other office", []layCard{{"OF1", 1, 0, 1}, {"ST3", 2, 0, 0}, {"KLU1", 2, 1, 0}}, "OF1", 200},
		// Sales Bureau: $50 and +$50 per business on its route.
		{"route bonus of a special office", []layCard{{"SO7", 1, 0, 1}, {"ST3", 2, 0, 0}, {"KLU1", 2, 1, 0}}, "SO7", 50 + 150 + 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tableauGame(t, tc.cards)
			if p := g.tabProblem(0); p != "" {
				t.Fatalf("illegal tableau: %s\n%s", p, g.grid(&g.teams[0]))
			}
			a := analyze(g.d, &g.teams[0], false)
			from := -1
			if tc.from == "MO" {
				from = placedIndex(&g.teams[0], g.teams[0].main)
			} else if tc.from != "" {
				from = placedIndex(&g.teams[0], g.idx(t, tc.from))
			}
			if got := a.bestRoute(from).value; got != tc.want {
				t.Errorf("best route = %d, want %d\n%s", got, tc.want, g.grid(&g.teams[0]))
			}
		})
	}
}
