package diplomacy

import (
	"slices"
	"strings"

	"pbemd/adjudicator"
)

// The autopilot: the orders of an absent power, played the way a steady,
// careful player would and no cleverer (issue 34). It never attacks. In a
// movement phase a unit on one of the power's own supply centres that a
// foreign unit could enter is supported to hold by a neighbouring unit of
// the power; an own centre left empty that a foreign unit could enter is
// filled from next door; every other unit holds. A dislodged unit retreats
// to one of the power's own centres if it can, else to any centre, else to
// the first place it may; with no place it disbands. Builds stand on the
// home centres in the map's order (an army, or a fleet on a coast when the
// power has more armies than fleets); disbands take the units farthest from
// home first. Deterministic: the seed is not used.

var _ adjudicator.Autopilot = (*Engine)(nil)

// AutopilotPlay implements adjudicator.Autopilot.
func (e *Engine) AutopilotPlay() string {
	return "holds with every unit or supports its own units, defends its centres, builds at home and disbands its farthest units first; it never attacks"
}

// AutopilotOrders implements adjudicator.Autopilot.
func (e *Engine) AutopilotOrders(state []byte, power string, _ int64) (string, error) {
	g, err := viewState(state, e.m)
	if err != nil || g.over {
		return "", err
	}
	return e.steady(g.pos, power), nil
}

// steady is the autopilot's orders for power in pos, as text.
func (e *Engine) steady(pos *Position, power string) string {
	var ords []Order
	switch pos.Phase.Type {
	case Movement:
		ords = steadyMovement(pos, power)
	case Retreats:
		ords = steadyRetreats(pos, power)
	case Adjustments:
		ords = steadyAdjustments(pos, power)
	}
	lines := make([]string, len(ords))
	for i, o := range ords {
		lines[i] = e.m.FormatOrder(o)
	}
	return strings.Join(lines, "\n")
}

// steadyMovement: supports for threatened own units on own centres, an
// empty threatened own centre filled, holds.
func steadyMovement(pos *Position, power string) []Order {
	chk := newMoveCheck(pos)
	var mine []int
	for i, u := range pos.Units {
		if u.Power == power {
			mine = append(mine, i)
		}
	}
	ords := map[int]Order{}
	for _, i := range mine {
		u := pos.Units[i]
		ords[i] = Order{Kind: Hold, Unit: u.Type, Loc: u.Loc}
	}
	busy := map[int]bool{}
	// Units standing on their own centres under threat, each supported by
	// one free neighbour.
	for _, i := range mine {
		u := pos.Units[i]
		if !ownCentre(pos, power, u.Loc.Province) || !threatened(pos, chk, power, u.Loc.Province) {
			continue
		}
		busy[i] = true
		for _, j := range mine {
			if busy[j] {
				continue
			}
			v := pos.Units[j]
			s := Order{Kind: SupportHold, Unit: v.Type, Loc: v.Loc, AuxUnit: u.Type, Aux: u.Loc}
			if _, why := chk.legal(pos, PowerOrder{power, s}); why == "" {
				ords[j], busy[j] = s, true
				break
			}
		}
	}
	// Own centres left empty under threat, filled by a free neighbour.
	for _, c := range pos.Map.SupplyCentres() {
		if pos.Owners[c] != power || !threatened(pos, chk, power, c) {
			continue
		}
		if _, _, _, ok := pos.UnitAt(c); ok {
			continue
		}
		for _, j := range mine {
			if busy[j] {
				continue
			}
			v := pos.Units[j]
			mv, ok := moveTo(pos, chk, power, v, c)
			if ok {
				ords[j], busy[j] = mv, true
				break
			}
		}
	}
	out := make([]Order, 0, len(mine))
	for _, i := range mine {
		out = append(out, ords[i])
	}
	return out
}

func ownCentre(pos *Position, power, prov string) bool {
	p, ok := pos.Map.Province(prov)
	return ok && p.SupplyCenter && pos.Owners[prov] == power
}

// threatened reports whether a unit of another power could move to prov
// this phase (over land or water, not by convoy).
func threatened(pos *Position, chk *moveCheck, power, prov string) bool {
	for _, u := range pos.Units {
		if u.Power == power {
			continue
		}
		if _, ok := moveTo(pos, chk, u.Power, u, prov); ok {
			return true
		}
	}
	return false
}

// moveTo is u's legal move to prov (on any of its coasts for a fleet).
func moveTo(pos *Position, chk *moveCheck, power string, u Unit, prov string) (Order, bool) {
	if u.Loc.Province == prov {
		return Order{}, false
	}
	coasts := []string{""}
	if p, ok := pos.Map.Province(prov); ok && u.Type == Fleet && len(p.Coasts) > 0 {
		coasts = p.Coasts
	}
	for _, c := range coasts {
		o := Order{Kind: Move, Unit: u.Type, Loc: u.Loc, Target: Location{Province: prov, Coast: c}}
		if _, why := chk.legal(pos, PowerOrder{power, o}); why == "" {
			return o, true
		}
	}
	return Order{}, false
}

func steadyRetreats(pos *Position, power string) []Order {
	var out []Order
	for _, d := range pos.Dislodged {
		if d.Power != power {
			continue
		}
		best := ""
		for _, rank := range []func(string) bool{
			func(o string) bool { return ownCentre(pos, power, provOf(o)) },
			func(o string) bool { p, _ := pos.Map.Province(provOf(o)); return p.SupplyCenter },
			func(string) bool { return true },
		} {
			if i := slices.IndexFunc(d.Options, rank); i >= 0 {
				best = d.Options[i]
				break
			}
		}
		if best == "" {
			out = append(out, Order{Kind: Disband, Unit: d.Type, Loc: d.Loc})
			continue
		}
		p, c := splitLoc(best)
		out = append(out, Order{Kind: Retreat, Unit: d.Type, Loc: d.Loc, Target: Location{Province: p, Coast: c}})
	}
	return out
}

func steadyAdjustments(pos *Position, power string) []Order {
	m := pos.Map
	n := Owed(pos)[power]
	var out []Order
	if n > 0 {
		armies, fleets := 0, 0
		for _, u := range pos.Units {
			if u.Power == power {
				if u.Type == Fleet {
					fleets++
				} else {
					armies++
				}
			}
		}
		for _, h := range freeHomes(pos, power)[:n] {
			pr, _ := m.Province(h)
			o := Order{Kind: Build, Unit: Army, Loc: Location{Province: pr.ID}}
			if pr.Kind == Coast && len(pr.Coasts) == 0 && armies > fleets {
				o.Unit = Fleet
			}
			if o.Unit == Fleet {
				fleets++
			} else {
				armies++
			}
			out = append(out, o)
		}
		return out
	}
	if n == 0 {
		return nil
	}
	dist := homeDistance(pos, power)
	var mine []Unit
	for _, u := range pos.Units {
		if u.Power == power {
			mine = append(mine, u)
		}
	}
	slices.SortStableFunc(mine, func(a, b Unit) int {
		return dist[m.provIdx[b.Loc.Province]] - dist[m.provIdx[a.Loc.Province]]
	})
	for _, u := range mine[:min(-n, len(mine))] {
		out = append(out, Order{Kind: Disband, Unit: u.Type, Loc: u.Loc})
	}
	return out
}

// homeDistance is each province's number of steps (by any border) from
// the nearest home centre of power; provinces cut off count as far.
func homeDistance(pos *Position, power string) []int {
	m := pos.Map
	far := len(m.Provinces) + 1
	dist := make([]int, len(m.Provinces))
	for i := range dist {
		dist[i] = far
	}
	var queue []int
	for _, h := range m.HomeCentres(power) {
		i := m.provIdx[h]
		dist[i] = 0
		queue = append(queue, i)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for q := range m.Provinces {
			if dist[q] == far && (m.army[p].has(q) || m.seaNear[p].has(q)) {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	return dist
}
