package supplychain

import (
	"math/rand/v2"
	"strings"

	"pbemd/adjudicator"
)

// A simple seeded player, for tests, benchmarks and the demo: it tries a
// handful of sensible actions on copies of the game and sends the first
// two different ones that work.

var _ adjudicator.Bot = (*Engine)(nil)

// BotOrders implements adjudicator.Bot: BotLines as the text of a mail.
func (e *Engine) BotOrders(state []byte, power string, seed int64) (string, error) {
	lines, err := e.BotLines(state, power, seed)
	return strings.Join(lines, "\n"), err
}

// BotLines returns the canonical order lines a simple seeded player would
// send for power in the current phase (nil when it has nothing to do).
func (e *Engine) BotLines(state []byte, power string, seed int64) ([]string, error) {
	g, p, err := e.decodeFor(state, power)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0xb07))
	var out []string
	for _, o := range g.botOrders(p, rng) {
		out = append(out, o.format(g.d))
	}
	return out, nil
}

// botOrders chooses orders for player p (code-resolved).
func (g *game) botOrders(p int, rng *rand.Rand) []Order {
	switch {
	case g.phase == phaseOffer && g.offer.to == p:
		if rng.IntN(2) == 0 {
			return []Order{{Verb: VerbAccept}}
		}
		return []Order{{Verb: VerbDecline}}
	case g.phase == phaseSolo:
		if g.players[p].done {
			return nil
		}
		return g.botSolo(p, rng)
	case g.phase != phaseTurn || g.seat != p:
		return nil
	}
	sim := g.clone()
	sim.rep = nil
	sim.sim = true // a bot sees what a player sees
	var chosen []Order
	tryOrders := func(os []Order) bool {
		c := sim.clone()
		rs := c.runTurn(p, os, true)
		for _, r := range rs {
			if r.err != nil {
				return false
			}
		}
		if c.phase != phaseTurn {
			return false
		}
		sim = c
		chosen = append(chosen, os...)
		return true
	}
	// Free: now and then abandon a useless card.
	if rng.IntN(10) == 0 {
		pl := &sim.players[p]
		if len(pl.hand) > 0 {
			h := pl.hand[rng.IntN(len(pl.hand))].card
			if h != pl.starter {
				tryOrders([]Order{{Verb: VerbDiscard, Card: codeRef(h)}})
			}
		}
	}
	for attempt := 0; attempt < 12 && len(sim.acted) < 2; attempt++ {
		var os []Order
		switch r := rng.IntN(20); {
		case r < 7:
			os = sim.botPlace(p, rng)
		case r < 10:
			os = sim.botBuyNeed(p, rng)
		case r < 13:
			os = sim.botBuyListed(p, rng)
		case r < 16:
			os = []Order{{Verb: VerbRevenue}}
		case r == 16:
			os = []Order{{Verb: VerbBlind}}
		case r == 17:
			os = sim.botSwap(p, rng)
		case r == 18:
			os = sim.botTrade(p, rng)
		case r == 19:
			os = sim.botAttach(p, rng)
		}
		// A Buy-Sell-Trade ends what the bot writes: its answer comes later.
		if len(os) > 0 && tryOrders(os) && os[0].Verb == VerbTrade {
			break
		}
	}
	if len(sim.acted) == 0 && !tryOrders([]Order{{Verb: VerbRevenue}}) {
		chosen = append(chosen, Order{Verb: VerbPass})
	}
	return chosen
}

// frontier lists the empty cells next to a team's placed cards.
func frontier(t *team) [][2]int {
	var out [][2]int
	seen := map[[2]int]bool{}
	for _, p := range t.placed {
		seen[[2]int{p.x, p.y}] = true
	}
	for _, th := range t.thorns {
		seen[[2]int{th.x, th.y}] = true
	}
	for _, p := range t.placed {
		for k := 0; k < 4; k++ {
			c := [2]int{p.x + dirDX[k], p.y + dirDY[k]}
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// botPlace tries to lay one hand card, with the contracts and vehicles in
// hand that supply it, next to the tableau.
func (g *game) botPlace(p int, rng *rand.Rand) []Order {
	pl := &g.players[p]
	if len(pl.hand) == 0 {
		return nil
	}
	t := g.teamOf(p)
	x := pl.hand[rng.IntN(len(pl.hand))].card
	card := g.card(x)
	if card.Kind == KindDerelict || card.Kind == KindContract || card.Kind == KindVehicle {
		return nil
	}
	var supply []int
	var have uint64
	for _, pc := range t.placed {
		have |= g.card(pc.card).Makes
	}
	for _, h := range pl.hand {
		hc := g.card(h.card)
		if (hc.Kind == KindContract || hc.Kind == KindVehicle) && hc.Makes&card.Needs&^have != 0 && len(supply) < 3 {
			supply = append(supply, h.card)
			have |= hc.Makes
		}
	}
	fr := frontier(t)
	if len(fr) == 0 {
		return nil
	}
	for try := 0; try < 3; try++ {
		cell := fr[rng.IntN(len(fr))]
		os := []Order{{Verb: VerbPlace, Card: codeRef(x), At: spot{set: true, x: cell[0], y: cell[1]}}}
		used := map[[2]int]bool{cell: true}
		ok := true
		for _, s := range supply {
			placedOne := false
			for _, k := range rng.Perm(4) {
				c2 := [2]int{cell[0] + dirDX[k], cell[1] + dirDY[k]}
				if used[c2] {
					continue
				}
				if _, occ := occupiedBy(t, c2[0], c2[1]); occ {
					continue
				}
				used[c2] = true
				os = append(os, Order{Verb: VerbPlace, Card: codeRef(s), At: spot{set: true, x: c2[0], y: c2[1]}})
				placedOne = true
				break
			}
			ok = ok && placedOne
		}
		if !ok {
			continue
		}
		c := g.clone()
		c.rep = nil
		var ptrs []*Order
		for i := range os {
			ptrs = append(ptrs, &os[i])
		}
		if c.placeGroup(p, ptrs, false) == nil {
			for i := range os {
				os[i].Rot, os[i].HasRot = c.teams[c.players[p].team].placed[placedIndex(&c.teams[c.players[p].team], os[i].Card.card)].rot, true
			}
			return os
		}
	}
	return nil
}

// botBuyNeed buys a contract or vehicle a hand card needs.
func (g *game) botBuyNeed(p int, rng *rand.Rand) []Order {
	pl := &g.players[p]
	var need uint64
	for _, h := range pl.hand {
		need |= g.card(h.card).Needs
	}
	for _, h := range pl.hand {
		need &^= g.card(h.card).Makes
	}
	if need == 0 {
		return nil
	}
	for _, pool := range [][]int{g.contracts, g.vehicles} {
		for _, c := range pool {
			if g.card(c).Makes&need != 0 && g.price(p, c, AreaContracts) <= pl.money {
				area := AreaContracts
				if g.card(c).Kind == KindVehicle {
					area = AreaVehicles
				}
				return []Order{{Verb: VerbBuy, Card: codeRef(c), Area: area}}
			}
		}
	}
	return nil
}

func (g *game) botBuyListed(p int, rng *rand.Rand) []Order {
	var cands []int
	for _, s := range g.listing {
		if s.card >= 0 && g.card(s.card).Price <= g.players[p].money {
			cands = append(cands, s.card)
		}
	}
	if rng.IntN(4) == 0 && len(g.stale) > 0 {
		c := g.stale[rng.IntN(len(g.stale))]
		return []Order{{Verb: VerbBuy, Card: codeRef(c), Area: AreaStale}}
	}
	if rng.IntN(8) == 0 && len(g.offices) > 0 {
		c := g.offices[rng.IntN(len(g.offices))]
		return []Order{{Verb: VerbBuy, Card: codeRef(c), Area: AreaOffices}}
	}
	if len(cands) == 0 {
		return nil
	}
	return []Order{{Verb: VerbBuy, Card: codeRef(cands[rng.IntN(len(cands))]), Area: AreaListing}}
}

func (g *game) botSwap(p int, rng *rand.Rand) []Order {
	pl := &g.players[p]
	if len(pl.hand) == 0 {
		return nil
	}
	h := pl.hand[rng.IntN(len(pl.hand))].card
	for _, s := range g.listing {
		if s.card >= 0 {
			return []Order{{Verb: VerbSwap, Card: codeRef(h), Give: []cardRef{codeRef(s.card)}}}
		}
	}
	return nil
}

func (g *game) botTrade(p int, rng *rand.Rand) []Order {
	if len(g.players) < 2 {
		return nil
	}
	q := rng.IntN(len(g.players))
	if q == p {
		return nil
	}
	mine, theirs := g.players[p].hand, g.players[q].hand
	switch {
	case len(mine) > 0 && rng.IntN(2) == 0:
		c := mine[rng.IntN(len(mine))].card
		return []Order{{Verb: VerbTrade, Power: g.players[q].power, Give: []cardRef{codeRef(c)}, GetM: g.d.ceilStep(g.card(c).Price)}}
	case len(theirs) > 0:
		c := theirs[rng.IntN(len(theirs))].card
		return []Order{{Verb: VerbTrade, Power: g.players[q].power, Get: []cardRef{codeRef(c)}, GiveM: g.d.ceilStep(g.card(c).Price)}}
	}
	return nil
}

func (g *game) botAttach(p int, rng *rand.Rand) []Order {
	d := -1
	for _, h := range g.players[p].hand {
		if g.card(h.card).Kind == KindDerelict {
			d = h.card
		}
	}
	if d < 0 || len(g.players) < 2 {
		return nil
	}
	q := rng.IntN(len(g.players))
	if g.players[q].team == g.players[p].team {
		return nil
	}
	fr := frontier(g.teamOf(q))
	if len(fr) == 0 {
		return nil
	}
	cell := fr[rng.IntN(len(fr))]
	o := Order{Verb: VerbAttach, Card: codeRef(d), Power: g.players[q].power, At: spot{set: true, x: cell[0], y: cell[1]}}
	c := g.clone()
	c.rep = nil
	if c.attach(p, &o) != nil {
		return nil
	}
	return []Order{o}
}

// botSolo places what it can, then finishes (after a dozen mails it sends
// nothing, which ends the game at the deadline).
func (g *game) botSolo(p int, rng *rand.Rand) []Order {
	if g.step > 12 {
		return nil
	}
	sim := g.clone()
	sim.rep = nil
	var out []Order
	for attempt := 0; attempt < 40; attempt++ {
		var os []Order
		pl := &sim.players[p]
		if len(pl.hand) == 0 {
			break
		}
		x := pl.hand[rng.IntN(len(pl.hand))].card
		var need uint64 = sim.card(x).Needs
		for _, pc := range sim.teamOf(p).placed {
			need &^= sim.card(pc.card).Makes
		}
		if need != 0 && rng.IntN(2) == 0 {
			for _, pool := range [][]int{sim.contracts, sim.vehicles} {
				for _, c := range pool {
					if sim.card(c).Makes&need != 0 {
						os = []Order{{Verb: VerbPick, Card: codeRef(c)}}
						break
					}
				}
				if os != nil {
					break
				}
			}
		} else {
			os = sim.botPlace(p, rng)
		}
		if len(os) == 0 {
			continue
		}
		c := sim.clone()
		ok := true
		for _, r := range c.runSolo(p, os, true) {
			ok = ok && r.err == nil
		}
		if ok {
			sim = c
			out = append(out, os...)
		}
	}
	if sim.handIndex(p, sim.players[p].starter) < 0 && rng.IntN(3) == 0 {
		out = append(out, Order{Verb: VerbFinish})
	}
	return out
}
