package supplychain

import (
	"slices"
	"strings"

	"pbemd/adjudicator"
)

// The autopilot: the orders of an absent player, played the way a steady,
// careful player would and no cleverer (issue 34). It keeps what the
// player has: it buys, sells, swaps, trades, closes and discards nothing,
// so no money or card leaves without the player's word, and it attaches
// no derelict (the game's one attack).
//
//   - Its turn: one Place action, then Revenue. The Place lays the hand
//     card worth the most victory points (ties: the hand's order) that fits
//     beside the tableau, with the cards of the hand that supply what it
//     needs, as one block: properties that need nothing more first, then
//     contracts and vehicles. The cells nearest 0,0 (where the main office
//     starts) are tried first, then north before south, west before east;
//     each card is turned as the engine finds its links work. A card on the
//     table scores and earns; one in the hand does neither. Revenue comes
//     second so that the new card already earns; it also pays a Blind
//     Purchase that waits. With nothing that fits, the turn is Revenue
//     alone.
//   - An offer to answer: DECLINE. A deal is the player's to weigh, and a
//     decline keeps the hand and the money as they are.
//   - The solitaire game: every hand card that fits is placed the same way,
//     one after the other, in one mail; then FINISH when the Starter is
//     placed. With nothing to place and the Starter in the hand it sends
//     nothing, which ends the solitaire game at the deadline, as the rules
//     say.
//
// The hand limit needs no choice of its own: the autopilot buys nothing,
// and the engine's rule (the cheapest cards go) meets it after a Blind
// Purchase is paid. Deterministic: the seed is not used.

var _ adjudicator.Autopilot = (*Engine)(nil)

// AutopilotPlay implements adjudicator.Autopilot.
func (e *Engine) AutopilotPlay() string {
	return "places the hand card worth the most victory points that fits beside its tableau (with the cards of its hand that supply it), then collects revenue; it buys, sells, swaps, trades and discards nothing, declines every offer and attaches no derelict; in the solitaire game it places what fits, then finishes"
}

// AutopilotOrders implements adjudicator.Autopilot.
func (e *Engine) AutopilotOrders(state []byte, power string, _ int64) (string, error) {
	g, p, err := e.decodeFor(state, power)
	if err != nil {
		return "", err
	}
	var os []Order
	switch {
	case g.phase == phaseOffer && g.offer.to == p:
		os = []Order{{Verb: VerbDecline}}
	case g.phase == phaseTurn && g.seat == p:
		os = g.steadyTurn(p)
	case g.phase == phaseSolo && !g.players[p].done:
		os = g.steadySolo(p)
	}
	lines := make([]string, len(os))
	for i := range os {
		lines[i] = os[i].format(g.d)
	}
	return strings.Join(lines, "\n"), nil
}

// steadyTurn is a Place of the best card that fits, then Revenue; Revenue
// alone when nothing fits or the turn would not be taken as written.
func (g *game) steadyTurn(p int) []Order {
	revenue := []Order{{Verb: VerbRevenue}}
	place, _ := g.steadyPlace(p, false)
	if place == nil {
		return revenue
	}
	os := append(place, revenue...)
	for _, r := range g.trial().runTurn(p, slices.Clone(os), true) {
		if r.err != nil {
			return revenue
		}
	}
	return os
}

// steadySolo places every hand card that fits, one after the other, then
// finishes when the Starter is placed.
func (g *game) steadySolo(p int) []Order {
	sim := g.trial()
	var os []Order
	for {
		place, after := sim.steadyPlace(p, true)
		if place == nil {
			break
		}
		sim = after
		os = append(os, place...)
	}
	starterPlaced := sim.handIndex(p, sim.players[p].starter) < 0
	if starterPlaced {
		os = append(os, Order{Verb: VerbFinish})
	}
	for _, r := range g.trial().runSolo(p, slices.Clone(os), true) {
		if r.err != nil {
			// Not taken as written: send nothing, which ends the game.
			return nil
		}
	}
	return os
}

// trial is a copy of the game to try orders on, seeing what a player sees.
func (g *game) trial() *game {
	c := g.clone()
	c.rep = nil
	c.sim = true
	return c
}

// steadyPlace is the PLACE lines of one card of p's hand, with the cards
// of the hand that supply it, at the first cell
// where the engine takes them (nil when no card fits), and the game after
// them. The orders carry the turns the engine chose.
func (g *game) steadyPlace(p int, solo bool) ([]Order, *game) {
	pl := &g.players[p]
	t := g.teamOf(p)
	var cards []int
	for _, h := range pl.hand {
		switch g.card(h.card).Kind {
		case KindDerelict, KindContract, KindVehicle, KindPlan:
		default:
			cards = append(cards, h.card)
		}
	}
	slices.SortStableFunc(cards, func(a, b int) int { return g.card(b).VP - g.card(a).VP })
	var have uint64
	for _, pc := range t.placed {
		have |= g.card(pc.card).Makes
	}
	cells := frontier(t)
	slices.SortStableFunc(cells, func(a, b [2]int) int {
		if d := abs(a[0]) + abs(a[1]) - abs(b[0]) - abs(b[1]); d != 0 {
			return d
		}
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	for _, x := range cards {
		need := g.card(x).Needs &^ have
		var supply []int
		// Properties that need nothing more first (they score), then
		// contracts and vehicles.
		for _, contract := range []bool{false, true} {
			for _, h := range pl.hand {
				hc := g.card(h.card)
				ok := hc.Kind == KindContract || hc.Kind == KindVehicle
				if !contract {
					ok = hc.isProperty() && hc.Needs&^have == 0
				}
				if ok && h.card != x && hc.Makes&need != 0 && len(supply) < 3 {
					supply = append(supply, h.card)
					need &^= hc.Makes
				}
			}
		}
		for _, cell := range cells {
			if os, after := g.tryPlace(p, x, supply, cell, solo); os != nil {
				return os, after
			}
		}
	}
	return nil, nil
}

// tryPlace lays card x at cell and its suppliers on the free cells around
// it (north, east, south, west), on a copy; it returns the orders and the
// copy when the engine takes them.
func (g *game) tryPlace(p, x int, supply []int, cell [2]int, solo bool) ([]Order, *game) {
	t := g.teamOf(p)
	os := []Order{{Verb: VerbPlace, Card: codeRef(x), At: spot{set: true, x: cell[0], y: cell[1]}}}
	k := 0
	for _, s := range supply {
		for ; k < 4; k++ {
			c := [2]int{cell[0] + dirDX[k], cell[1] + dirDY[k]}
			if _, taken := occupiedBy(t, c[0], c[1]); !taken {
				os = append(os, Order{Verb: VerbPlace, Card: codeRef(s), At: spot{set: true, x: c[0], y: c[1]}})
				k++
				break
			}
		}
	}
	if len(os) != 1+len(supply) {
		return nil, nil
	}
	ptrs := make([]*Order, len(os))
	for i := range os {
		ptrs[i] = &os[i]
	}
	c := g.trial()
	if c.placeGroup(p, ptrs, solo) != nil {
		return nil, nil
	}
	return os, c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
