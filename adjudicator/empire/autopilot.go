package empire

import (
	"sort"
	"strings"

	"pbemd/adjudicator"
)

// The autopilot (issue 34): the orders of an absent power, played the way
// a steady, careful player would and no cleverer. It keeps what the power
// has and never attacks: no unit of it ever moves into a hex it cannot see
// or one that holds an enemy.
//
//   - Bids: the largest bid (max_bid). A defensive power never breaks the
//     ceasefire; it produces for as long as the others let it.
//   - Production: in each territory with a factory it buys the cheapest
//     combat capable infantry type (regular infantry divisions in the
//     shipped data: they fight, and they need nothing but the factory's
//     supply), as many as the territory's points pay for, spread over its
//     factories' hexes in factory order to guard them; what is left is
//     SAVEd in the territory's first factory. Pooled units come back where
//     they left (no PLACE orders): the default a player gets.
//   - Deployment: every mobile unit stays on the board (KEEP; nothing goes
//     to a pool). A unit still on the move settles in the hex where the
//     strategic supply check loses fewest of the power's units (the hex it
//     fully occupies on a tie). An army group headquarters becomes a
//     factory (TRANSFORM) only when the power has no factory left, as
//     without one it can never produce again. Where two or more units of a
//     territory would be lost (perish or be disabled) for want of
//     strategic supply and one of them would perish, the cheapest of those
//     about to perish is SACRIFICEd to supply the rest: it was lost anyway.
//   - Tactical turns: every unit that can move HOLDs its position, except
//     that a factory or base of the power that a visible enemy unit could
//     reach next turn, and that no combat capable unit of the power guards,
//     is guarded by one free neighbour (a combat capable unit that is not a
//     headquarters and guards no other such hex): it moves to cover the
//     hex while keeping the one it holds. A supply group without a supply
//     generator, with two or more units that need tactical supply, SACRIFICEs
//     its cheapest unit that would perish anyway. It always agrees to a
//     CEASEFIRE.
//
// Deterministic: the same state gives the same orders; the seed is not
// used. Every line is canonical (Check accepts it unchanged).

var _ adjudicator.Autopilot = (*Engine)(nil)

// AutopilotPlay implements adjudicator.Autopilot.
func (e *Engine) AutopilotPlay() string {
	return "bids the most strategic turns, buys infantry to guard its factories and saves the rest, keeps its units on the board, " +
		"holds every unit in the tactical turns except to guard a threatened factory or base, sacrifices a unit only to save others " +
		"from lack of supply, and always agrees to a ceasefire; it never attacks"
}

// AutopilotOrders implements adjudicator.Autopilot.
func (e *Engine) AutopilotOrders(state []byte, power string, _ int64) (string, error) {
	g, err := e.decode(state)
	if err != nil {
		return "", err
	}
	if g.Over || !g.alive(power) {
		return "", nil
	}
	var ords []Order
	switch g.Step {
	case stepBid:
		ords = []Order{{Kind: OrderBid, N: g.Opts.MaxBid, Pos: Pos{-1, -1}}}
	case stepBuild:
		ords = g.steadyBuild(power)
	case stepDeploy:
		ords = g.steadyDeploy(power)
	case stepTactical:
		ords = g.steadyTactical(power)
	}
	lines := make([]string, len(ords))
	for i, o := range ords {
		lines[i] = formatOrder(g.World, o)
	}
	return strings.Join(lines, "\n"), nil
}

// defenderType is what the autopilot buys: the cheapest mobile, combat
// capable type that controls its hex and is no headquarters (infantry),
// else the cheapest mobile combat capable type that is no headquarters;
// nil when the unit set has none.
func (g *Game) defenderType() *UnitType {
	var best, fallback *UnitType
	for _, t := range g.Types {
		if !t.Mobile() || t.Weak || t.Tactical.Produces != "" {
			continue
		}
		if fallback == nil || t.Cost < fallback.Cost {
			fallback = t
		}
		if t.Controls && (best == nil || t.Cost < best.Cost) {
			best = t
		}
	}
	if best == nil {
		return fallback
	}
	return best
}

// maxBuyLine is the most units one BUY line may buy (collect's limit);
// maxSaveLine the most points a SAVE line may name (the grammar's four
// digits).
const (
	maxBuyLine  = 99
	maxSaveLine = 9999
)

func (g *Game) steadyBuild(p string) []Order {
	ty := g.defenderType()
	var out []Order
	for _, t := range g.territories(p) {
		if len(t.factories) == 0 {
			continue
		}
		left := t.budget(g.Turns)
		if ty != nil && ty.Cost > 0 {
			n := left / ty.Cost
			left -= n * ty.Cost
			// The units, spread over the factories' hexes in factory order.
			per := map[int]int{}
			var hexes []int
			for i, f := range t.factories {
				k := n / len(t.factories)
				if i < n%len(t.factories) {
					k++
				}
				if k == 0 {
					continue
				}
				if per[f.At] == 0 {
					hexes = append(hexes, f.At)
				}
				per[f.At] += k
			}
			for _, h := range hexes {
				for k := per[h]; k > 0; k -= maxBuyLine {
					out = append(out, Order{Kind: OrderBuy, Type: ty.Code, N: min(k, maxBuyLine), Pos: Pos{h, -1}})
				}
			}
		}
		if left > 0 && left <= maxSaveLine {
			out = append(out, Order{Kind: OrderSave, Unit: t.factories[0].Name(), N: left, Pos: Pos{-1, -1}})
		}
	}
	return out
}

func (g *Game) steadyDeploy(p string) []Order {
	mine := g.unitsOf(p)
	keep := map[*Unit]int{} // units on the move: the hex they settle in
	for _, u := range mine {
		if u.moving() {
			keep[u] = u.At
		}
	}
	// losses settles p's moving units as keep says on a copy of the game
	// and runs the strategic supply check there: the units of p it removes
	// or disables by name, and p's territories before the check.
	losses := func() (map[string]string, []*group) {
		c := g.clone()
		for i, u := range g.Units {
			if h, ok := keep[u]; ok {
				c.Units[i].At, c.Units[i].To = h, -1
			}
		}
		gs := c.groups(p)
		lost := map[string]string{}
		for _, ev := range c.strategicSupply(nil) {
			if ev.Power == p && (ev.What == "perished" || ev.What == "disabled") {
				lost[ev.Unit] = ev.What
			}
		}
		return lost, gs
	}
	for _, u := range mine {
		if !u.moving() {
			continue
		}
		atLost, _ := losses()
		keep[u] = u.To
		toLost, _ := losses()
		if len(toLost) >= len(atLost) {
			keep[u] = u.At
		}
	}
	transform := map[*Unit]bool{}
	if !g.hasFactory(p) {
		for _, u := range mine {
			if g.becomesFactory(u.Type) && g.deployAllows(u, Order{Kind: OrderTransform}) == nil {
				transform[u] = true
				if u.moving() {
					keep[u] = u.At // it settles where TRANSFORM leaves it
				}
				break
			}
		}
	}
	var out []Order
	for _, u := range mine {
		switch {
		case transform[u]:
			out = append(out, Order{Kind: OrderTransform, Unit: u.Name(), Pos: Pos{-1, -1}})
		case u.moving():
			out = append(out, Order{Kind: OrderKeep, Unit: u.Name(), Pos: Pos{keep[u], -1}})
		case u.Type.Mobile():
			out = append(out, Order{Kind: OrderKeep, Unit: u.Name(), Pos: Pos{-1, -1}})
		}
	}
	lost, gs := losses()
	for _, gr := range gs {
		var doomed []*Unit
		affected := 0
		for _, u := range gr.Units {
			switch lost[u.Name()] {
			case "perished":
				doomed = append(doomed, u)
				affected++
			case "disabled":
				affected++
			}
		}
		if v := cheapest(doomed); v != nil && affected >= 2 {
			out = append(out, Order{Kind: OrderSacrifice, Unit: v.Name(), Pos: Pos{-1, -1}})
		}
	}
	return out
}

// hasFactory reports whether p has a unit that produces units.
func (g *Game) hasFactory(p string) bool {
	for _, u := range g.Units {
		if u.Owner == p && u.Type.ProducesUnits {
			return true
		}
	}
	return false
}

// cheapest is the unit of us of the lowest cost, the first on a tie.
func cheapest(us []*Unit) *Unit {
	var best *Unit
	for _, u := range us {
		if best == nil || u.Type.Cost < best.Type.Cost {
			best = u
		}
	}
	return best
}

func (g *Game) steadyTactical(p string) []Order {
	vis := g.sight(p)
	enemyIn := map[int]bool{} // hexes holding an enemy unit p sees
	reach := map[int]bool{}   // hexes a visible enemy unit could cover next turn
	for _, u := range g.Units {
		if u.Owner == p || !seesUnit(vis, p, u) {
			continue
		}
		for _, h := range u.hexes() {
			enemyIn[h] = true
		}
		for _, q := range g.options(u) {
			reach[q.At] = true
			if q.To >= 0 {
				reach[q.To] = true
			}
		}
	}
	mine := g.unitsOf(p)
	plan := map[*Unit]Pos{}
	for _, u := range mine {
		if u.Type.Mobile() && !u.Disabled && !u.Pooled {
			plan[u] = u.pos()
		}
	}
	covers := func(q Pos, h int) bool { return q.At == h || q.To == h }
	// The hexes of p's factories and bases, ascending.
	var assets []int
	isAsset := map[int]bool{}
	for _, u := range mine {
		if !u.Type.Mobile() && !u.Pooled && !isAsset[u.At] {
			isAsset[u.At] = true
			assets = append(assets, u.At)
		}
	}
	sort.Ints(assets)
	guard := func(u *Unit) bool {
		return u.Type.Mobile() && !u.weak() && !u.Pooled && u.Type.Tactical.Produces == ""
	}
	busy := map[*Unit]bool{}
	for _, u := range mine {
		if q, ok := plan[u]; ok && guard(u) && (isAsset[q.At] || q.To >= 0 && isAsset[q.To]) {
			busy[u] = true // already guards a factory or base
		}
	}
	for _, h := range assets {
		if !reach[h] {
			continue
		}
		guarded := false
		for _, u := range mine {
			if q, ok := plan[u]; ok && guard(u) && covers(q, h) {
				guarded = true
			}
		}
		if guarded {
			continue
		}
	pick:
		for _, u := range mine {
			if !guard(u) || busy[u] || u.Disabled {
				continue
			}
			for _, q := range g.options(u) {
				// The new position covers h and, besides, only hexes the
				// unit holds now: it guards without advancing.
				if !covers(q, h) || enemyIn[q.At] || q.To >= 0 && enemyIn[q.To] {
					continue
				}
				other := q.At
				if other == h {
					other = q.To
				}
				if other >= 0 && !u.in(other) {
					continue
				}
				plan[u], busy[u] = q, true
				break pick
			}
		}
	}
	var out []Order
	for _, u := range mine {
		q, ok := plan[u]
		switch {
		case !ok:
		case q == u.pos():
			out = append(out, Order{Kind: OrderHold, Unit: u.Name(), Pos: Pos{-1, -1}})
		default:
			out = append(out, Order{Kind: OrderMove, Unit: u.Name(), Pos: q})
		}
	}
	// Cut-off groups: the cheapest unit that would perish anyway supplies
	// the rest.
	for _, gr := range g.groups(p) {
		generator, needy := false, 0
		var doomed []*Unit
		for _, u := range gr.Units {
			generator = generator || u.Type.Tactical.Produces == "full" && !u.Disabled
			if u.Type.Tactical.Needs() {
				needy++
			}
			if u.Type.Tactical.Unsupplied == "perish" {
				doomed = append(doomed, u)
			}
		}
		if v := cheapest(doomed); !generator && needy >= 2 && v != nil {
			out = append(out, Order{Kind: OrderSacrifice, Unit: v.Name(), Pos: Pos{-1, -1}})
		}
	}
	return append(out, Order{Kind: OrderCeasefire, Pos: Pos{-1, -1}})
}
