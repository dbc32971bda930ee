package diplomacy

import (
	"math/rand/v2"
)

// This file draws random legal orders: the random-game tests use it, and so
// do the scripted players of `pbemd demo`. The random source is always the
// caller's; nothing here keeps state between calls.

// RandomOptions tune RandomOrders.
type RandomOptions struct {
	// SilentOdds makes a power send no movement orders at all in one
	// phase out of SilentOdds (0: never), so its units hold in civil
	// disorder.
	SilentOdds int
	// Gaps leaves some retreats, builds and disbands unordered, so the
	// civil disorder rules decide them. Without Gaps every dislodged unit
	// gets a retreat or a disband, every owed build a build or a waive,
	// and every owed disband a disband.
	Gaps bool
	// Aggressive makes most moves go for foreign units and for supply
	// centres the mover does not own, and most supports back such an
	// attack, so that units are dislodged and centres change hands more
	// often than in aimless play.
	Aggressive bool
}

// Position decodes a stored engine state of this engine's map (a copy: the
// caller may change it).
func (e *Engine) Position(state []byte) (*Position, error) {
	g, err := decodeState(state, e.m)
	if err != nil {
		return nil, err
	}
	return g.pos, nil
}

// RandomOrders draws a random set of legal orders for every power of pos:
// moves (with coasts), supports of the drawn moves and holds (own and
// foreign units), convoys of armies next to a fleet at sea (sometimes
// "via convoy"), holds; retreats and disbands; builds of either unit type,
// waives and disbands. Orders of different powers fit together (a convoyed
// army and its fleets, a move and its support), so a caller playing one
// power takes its share with OrdersOf. The same pos, options and random
// stream give the same orders.
func RandomOrders(pos *Position, r *rand.Rand, opt RandomOptions) []PowerOrder {
	switch pos.Phase.Type {
	case Movement:
		return randomMovement(pos, r, opt)
	case Retreats:
		return randomRetreats(pos, r, opt)
	case Adjustments:
		return randomAdjustments(pos, r, opt)
	}
	return nil
}

// OrdersOf returns the orders of one power, in order.
func OrdersOf(ords []PowerOrder, power string) []Order {
	var out []Order
	for _, po := range ords {
		if po.Power == power {
			out = append(out, po.Order)
		}
	}
	return out
}

// newMoveCheck prepares the legality check of movement orders for pos.
func newMoveCheck(pos *Position) *moveCheck {
	m := pos.Map
	c := &moveCheck{m: m, unitAt: make([]int, len(m.Provinces)), units: pos.Units}
	for i := range c.unitAt {
		c.unitAt[i] = -1
	}
	for i, u := range pos.Units {
		pi := m.provIdx[u.Loc.Province]
		c.unitAt[pi] = i
		if u.Type == Fleet && m.convoyable(pi) {
			c.fleets.set(pi)
		}
	}
	return c
}

func randomMovement(pos *Position, r *rand.Rand, opt RandomOptions) []PowerOrder {
	m := pos.Map
	chk := newMoveCheck(pos)
	n := len(pos.Units)
	ords := make([]Order, n)
	special := make([]bool, n)
	for i, u := range pos.Units {
		ords[i] = Order{Kind: Hold, Unit: u.Type, Loc: u.Loc}
	}
	// Convoys first: a fleet at sea carries a neighbouring army.
	for f, u := range pos.Units {
		pi := m.provIdx[u.Loc.Province]
		if u.Type != Fleet || !m.convoyable(pi) || r.IntN(3) != 0 {
			continue
		}
		for a, v := range pos.Units {
			api := m.provIdx[v.Loc.Province]
			if v.Type != Army || special[a] || !m.seaNear[pi].has(api) {
				continue
			}
			var dests []int
			for p := range m.Provinces {
				k := m.Provinces[p].Kind
				if p != api && m.seaNear[pi].has(p) && (k == Coast || k == Archipelago) {
					dests = append(dests, p)
				}
			}
			if len(dests) == 0 {
				continue
			}
			to := m.Provinces[dests[r.IntN(len(dests))]].ID
			ords[a] = Order{Kind: Move, Unit: v.Type, Loc: v.Loc, Target: Location{Province: to}, ViaConvoy: r.IntN(2) == 0}
			ords[f] = Order{Kind: Convoy, Unit: u.Type, Loc: u.Loc, AuxUnit: Army, Aux: v.Loc, Target: Location{Province: to}}
			special[a], special[f] = true, true
			break
		}
	}
	// Moves and holds.
	support := make([]bool, n)
	for i, u := range pos.Units {
		if special[i] {
			continue
		}
		switch x := r.IntN(10); {
		case x < 2:
			continue // hold
		case x < 4:
			support[i] = true
			continue
		}
		var moves []Order
		for p := range m.Provinces {
			o := Order{Kind: Move, Unit: u.Type, Loc: u.Loc, Target: Location{Province: m.Provinces[p].ID}}
			if u.Type == Fleet && len(m.Provinces[p].Coasts) > 0 {
				o.Target.Coast = m.Provinces[p].Coasts[r.IntN(len(m.Provinces[p].Coasts))]
			}
			if _, why := chk.legal(pos, PowerOrder{u.Power, o}); why == "" && (m.army[m.provIdx[u.Loc.Province]].has(p) || u.Type == Fleet) {
				moves = append(moves, o)
			}
		}
		if opt.Aggressive && r.IntN(4) > 0 {
			if goals := goalMoves(pos, u, moves); len(goals) > 0 {
				moves = goals
			}
		}
		if len(moves) > 0 {
			ords[i] = moves[r.IntN(len(moves))]
		}
	}
	// Supports of a neighbouring unit's order.
	for i, u := range pos.Units {
		if !support[i] {
			continue
		}
		var cands, attacks []Order
		for j, v := range pos.Units {
			if j == i {
				continue
			}
			o := ords[j]
			var s Order
			if o.Kind == Move {
				s = Order{Kind: SupportMove, Unit: u.Type, Loc: u.Loc, AuxUnit: v.Type, Aux: v.Loc, Target: Location{Province: o.Target.Province}}
			} else {
				s = Order{Kind: SupportHold, Unit: u.Type, Loc: u.Loc, AuxUnit: v.Type, Aux: v.Loc}
			}
			if _, why := chk.legal(pos, PowerOrder{u.Power, s}); why == "" {
				cands = append(cands, s)
				if v.Power == u.Power && o.Kind == Move && (!opt.Aggressive || isGoal(pos, u.Power, o.Target.Province)) {
					attacks = append(attacks, s)
				}
			}
		}
		if len(attacks) > 0 && r.IntN(4) > 0 {
			ords[i] = attacks[r.IntN(len(attacks))]
		} else if len(cands) > 0 {
			ords[i] = cands[r.IntN(len(cands))]
		}
	}
	silent := map[string]bool{}
	if opt.SilentOdds > 0 {
		for _, p := range m.Powers {
			silent[p.ID] = r.IntN(opt.SilentOdds) == 0
		}
	}
	var out []PowerOrder
	for i, u := range pos.Units {
		if _, why := chk.legal(pos, PowerOrder{u.Power, ords[i]}); why != "" || silent[u.Power] {
			continue
		}
		out = append(out, PowerOrder{u.Power, ords[i]})
	}
	return out
}

// goalMoves keeps the moves of u that attack a foreign unit or a supply
// centre u's power does not own.
func goalMoves(pos *Position, u Unit, moves []Order) []Order {
	var out []Order
	for _, o := range moves {
		if isGoal(pos, u.Power, o.Target.Province) {
			out = append(out, o)
		}
	}
	return out
}

func isGoal(pos *Position, power, province string) bool {
	if _, owner, _, ok := pos.UnitAt(province); ok {
		return owner != power
	}
	p, _ := pos.Map.Province(province)
	return p.SupplyCenter && pos.Owners[province] != power
}

func randomRetreats(pos *Position, r *rand.Rand, opt RandomOptions) []PowerOrder {
	var out []PowerOrder
	for _, d := range pos.Dislodged {
		if len(d.Options) > 0 && r.IntN(5) > 0 {
			p, c := splitLoc(d.Options[r.IntN(len(d.Options))])
			out = append(out, PowerOrder{d.Power, Order{Kind: Retreat, Unit: d.Type, Loc: d.Loc, Target: Location{Province: p, Coast: c}}})
		} else if !opt.Gaps || r.IntN(2) == 0 {
			out = append(out, PowerOrder{d.Power, Order{Kind: Disband, Unit: d.Type, Loc: d.Loc}})
		}
	}
	return out
}

func randomAdjustments(pos *Position, r *rand.Rand, opt RandomOptions) []PowerOrder {
	m := pos.Map
	var out []PowerOrder
	owed := Owed(pos)
	for _, p := range m.Powers {
		n := owed[p.ID]
		if n == 0 || opt.Gaps && r.IntN(5) == 0 {
			continue
		}
		if n > 0 {
			homes := freeHomes(pos, p.ID)
			r.Shuffle(len(homes), func(i, j int) { homes[i], homes[j] = homes[j], homes[i] })
			for k := 0; k < n && k < len(homes); k++ {
				pr, _ := m.Province(homes[k])
				o := Order{Kind: Build, Unit: Army, Loc: Location{Province: pr.ID}}
				if pr.Kind == Coast && r.IntN(2) == 0 {
					o.Unit = Fleet
					if len(pr.Coasts) > 0 {
						o.Loc.Coast = pr.Coasts[r.IntN(len(pr.Coasts))]
					}
				}
				if r.IntN(8) == 0 {
					o = Order{Kind: Waive}
				}
				out = append(out, PowerOrder{p.ID, o})
			}
			continue
		}
		var mine []Unit
		for _, u := range pos.Units {
			if u.Power == p.ID {
				mine = append(mine, u)
			}
		}
		r.Shuffle(len(mine), func(i, j int) { mine[i], mine[j] = mine[j], mine[i] })
		// With Gaps a coin tossed at every step may stop the disbands one
		// short of what is owed; civil disorder then picks the last one.
		for k := 0; ; k++ {
			limit := -n
			if opt.Gaps {
				limit -= r.IntN(2)
			}
			if k >= limit || k >= len(mine) {
				break
			}
			out = append(out, PowerOrder{p.ID, Order{Kind: Disband, Unit: mine[k].Type, Loc: mine[k].Loc}})
		}
	}
	return out
}
