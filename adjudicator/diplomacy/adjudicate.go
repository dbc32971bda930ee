package diplomacy

import (
	"fmt"
	"sort"
	"strings"

	"pbemd/orders"
)

// Adjudicate resolves the current phase of pos with the given orders and
// returns what happened and the next position. Orders that cannot apply are
// reported illegal with a reason; units without a (legal) order hold in a
// movement phase, disband in a retreat phase, and powers that owe
// adjustments fall into civil disorder (DATC 4.D.8, 6.J, 2023 rules).
//
// pos is not modified. An error means pos itself is broken (see
// Position.Validate), never that an order was bad.
func Adjudicate(pos *Position, ords []PowerOrder) (*Result, error) {
	if err := pos.Validate(); err != nil {
		return nil, err
	}
	var res *Result
	switch pos.Phase.Type {
	case Movement:
		res = adjudicateMovement(pos, ords)
	case Retreats:
		res = adjudicateRetreats(pos, ords)
	case Adjustments:
		res = adjudicateAdjustments(pos, ords)
	}
	advance(pos, res)
	return res, nil
}

func adjudicateMovement(pos *Position, ords []PowerOrder) *Result {
	m := pos.Map
	n := len(pos.Units)
	res := &Result{Phase: pos.Phase, Orders: make([]OrderResult, len(ords))}
	r := &mover{m: m, u: make([]mvUnit, n), unitAt: make([]int, len(m.Provinces)), moveTo: make([]int, len(m.Provinces))}
	for i := range r.unitAt {
		r.unitAt[i] = -1
		r.moveTo[i] = -1
	}
	chk := &moveCheck{m: m, unitAt: r.unitAt, units: pos.Units}
	for i, u := range pos.Units {
		pi := m.provIdx[u.Loc.Province]
		l, _ := m.locOf(pi, u.Loc.Coast)
		r.u[i] = mvUnit{power: m.powerIdx[u.Power], typ: u.Type, prov: pi, loc: l, kind: orders.Hold, aux: -1, order: -1,
			nextTo: -1, firstSup: -1, nextSup: -1, firstCon: -1, nextCon: -1}
		r.unitAt[pi] = i
		if u.Type == orders.Fleet && m.convoyable(pi) {
			chk.fleets.set(pi)
		}
	}
	r.fleets = chk.fleets

	// Legality (DATC 4.E.1): an illegal order is ignored and the unit holds.
	conflict := make([]bool, n)
	for k, po := range ords {
		or := &res.Orders[k]
		*or = OrderResult{Power: po.Power, Order: po.Order, Text: m.FormatOrder(po.Order)}
		i, why := chk.legal(pos, po)
		if why != "" {
			or.Outcome, or.Reason = Illegal, why
			continue
		}
		u := &r.u[i]
		if u.order >= 0 {
			if ords[u.order].Order.Kind != po.Order.Kind || !sameOrder(r, chk, ords[u.order].Order, po.Order) {
				conflict[i] = true // DATC 4.D.3: differing orders; the unit holds
			}
			or.Outcome = "dup"
			continue
		}
		u.order = k
		chk.apply(r, i, po.Order)
	}
	for i := range r.u {
		if conflict[i] {
			u := &r.u[i]
			res.Orders[u.order].Outcome = "dup"
			u.order, u.kind = -1, orders.Hold
		}
	}
	// Convoy intent for moves to adjacent provinces (DATC 4.A.3, 2023
	// rules): by convoy when ordered "via convoy" or when a fleet of the
	// same power is (legally) ordered to convoy it.
	for f := range r.u {
		fu := &r.u[f]
		if fu.kind != orders.Convoy {
			continue
		}
		a := &r.u[fu.aux]
		if a.kind == orders.Move && a.dst == fu.dst && a.power == fu.power {
			a.convoy = true
		}
	}
	// Matching (validity) and the linked lists.
	for i := range r.u {
		u := &r.u[i]
		switch u.kind {
		case orders.Move:
			u.nextTo = r.moveTo[u.dst]
			r.moveTo[u.dst] = i
		case orders.SupportHold:
			u.valid = r.u[u.aux].kind != orders.Move
		case orders.SupportMove:
			a := &r.u[u.aux]
			u.valid = a.kind == orders.Move && a.dst == u.dst && (u.coast == "" || m.locs[a.dstLoc].coast == u.coast)
		case orders.Convoy:
			a := &r.u[u.aux]
			u.valid = a.kind == orders.Move && a.dst == u.dst && a.convoy
		}
	}
	// Reverse the move lists so they run in unit order (stable reasons).
	for p := range r.moveTo {
		prev := -1
		for k := r.moveTo[p]; k >= 0; {
			next := r.u[k].nextTo
			r.u[k].nextTo = prev
			prev, k = k, next
		}
		r.moveTo[p] = prev
	}
	for i := n - 1; i >= 0; i-- {
		u := &r.u[i]
		if !u.valid {
			continue
		}
		switch u.kind {
		case orders.SupportHold, orders.SupportMove:
			u.nextSup = r.u[u.aux].firstSup
			r.u[u.aux].firstSup = i
		case orders.Convoy:
			u.nextCon = r.u[u.aux].firstCon
			r.u[u.aux].firstCon = i
		}
	}
	r.deps = make([]int, 0, 8)
	for i := range r.u {
		switch r.u[i].kind {
		case orders.Move:
			r.resolve(i)
		case orders.SupportHold, orders.SupportMove, orders.Convoy:
			if r.u[i].valid {
				r.resolve(i)
			}
		}
	}

	// Dislodgements.
	dislodger := make([]int, n)
	for i := range r.u {
		dislodger[i] = -1
		u := &r.u[i]
		if u.kind == orders.Move && u.res {
			continue
		}
		for k := r.moveTo[u.prov]; k >= 0; k = r.u[k].nextTo {
			if r.u[k].res {
				dislodger[i] = k
			}
		}
	}
	// Standoffs: vacant provinces a move failed to enter with some force.
	occupied := make([]bool, len(m.Provinces))
	for i := range r.u {
		u := &r.u[i]
		switch {
		case u.kind == orders.Move && u.res:
			occupied[u.dst] = true
		case dislodger[i] < 0:
			occupied[u.prov] = true
		}
	}
	for p := range m.Provinces {
		if occupied[p] || r.moveTo[p] < 0 {
			continue
		}
		for k := r.moveTo[p]; k >= 0; k = r.u[k].nextTo {
			if !r.u[k].res && r.prevent(k) > 0 {
				res.Standoffs = append(res.Standoffs, m.Provinces[p].ID)
				break
			}
		}
	}
	sort.Strings(res.Standoffs)

	// Outcomes and reasons of the orders that were carried out.
	for i := range r.u {
		u := &r.u[i]
		if u.order < 0 {
			continue
		}
		or := &res.Orders[u.order]
		or.Outcome, or.Reason = r.explain(pos, i, dislodger[i])
	}
	for k := range res.Orders {
		if res.Orders[k].Outcome == "dup" {
			res.Orders[k].Outcome = Illegal
			res.Orders[k].Reason = "the unit was given more than one order: it holds"
			if i, _ := chk.legal(pos, ords[k]); i >= 0 && r.u[i].order >= 0 {
				// Identical repeated orders: the repeat shares the outcome.
				res.Orders[k].Outcome, res.Orders[k].Reason = res.Orders[r.u[i].order].Outcome, res.Orders[r.u[i].order].Reason
			}
		}
	}

	// Next position: moved units, dislodged units with retreat options.
	next := pos.Clone()
	next.Units = next.Units[:0]
	next.Dislodged, next.Standoffs = nil, res.Standoffs
	for i, un := range pos.Units {
		u := &r.u[i]
		switch {
		case u.kind == orders.Move && u.res:
			un.Loc = m.locOrder(u.dstLoc)
			next.Units = append(next.Units, un)
		case dislodger[i] >= 0:
			a := &r.u[dislodger[i]]
			d := Dislodged{Unit: un, AttackerFrom: m.Provinces[a.prov].ID, ByConvoy: a.convoy}
			d.Options = retreatOptions(m, d, occupied, res.Standoffs)
			next.Dislodged = append(next.Dislodged, d)
		default:
			next.Units = append(next.Units, un)
		}
	}
	res.Dislodged = next.Dislodged
	res.Next = next
	return res
}

// retreatOptions lists where a dislodged unit may retreat: a neighbour it
// could move to, not occupied after the movement, not left vacant by a
// standoff, and not the attacker's province unless the attacker came by
// convoy (DATC 4.A.5, 2023 rules).
func retreatOptions(m *Map, d Dislodged, occupied []bool, standoffs []string) []string {
	pi := m.provIdx[d.Loc.Province]
	var out []string
	ok := func(p int) bool {
		id := m.Provinces[p].ID
		if occupied[p] || (id == d.AttackerFrom && !d.ByConvoy) {
			return false
		}
		for _, s := range standoffs {
			if s == id {
				return false
			}
		}
		return true
	}
	if d.Type == orders.Army {
		for p := range m.Provinces {
			if m.army[pi].has(p) && ok(p) {
				out = append(out, m.Provinces[p].ID)
			}
		}
		return out
	}
	l, _ := m.locOf(pi, d.Loc.Coast)
	for t := range m.locs {
		if m.fleet[l].has(t) && ok(m.locs[t].prov) {
			out = append(out, m.locName(t))
		}
	}
	sort.Strings(out)
	return out
}

// legal checks that an order may be given in a movement phase and returns
// the index of the ordered unit.
func (c *moveCheck) legal(pos *Position, po PowerOrder) (int, string) {
	m := c.m
	o := po.Order
	switch o.Kind {
	case orders.Hold, orders.Move, orders.SupportHold, orders.SupportMove, orders.Convoy:
	case orders.Retreat:
		return -1, "retreats are ordered in a retreat phase"
	case orders.Disband:
		return -1, "disbands are ordered in a retreat or adjustment phase"
	case orders.Build, orders.Waive:
		return -1, "builds are ordered in an adjustment phase"
	default:
		return -1, "not an order"
	}
	pi, ok := m.provIdx[o.Loc.Province]
	if !ok {
		return -1, fmt.Sprintf("unknown province %q", o.Loc.Province)
	}
	i := c.unitAt[pi]
	if i < 0 {
		return -1, fmt.Sprintf("there is no unit in %s", m.Provinces[pi].Abbrev)
	}
	u := c.units[i]
	if u.Power != po.Power {
		return -1, fmt.Sprintf("%s belongs to %s", m.UnitName(u), m.PowerName(u.Power))
	}
	// DATC 4.B.5, 4.C.2: a wrong coast or unit type of the ordered unit is ignored.
	loc, _ := m.locOf(pi, u.Loc.Coast)
	switch o.Kind {
	case orders.Hold:
		return i, ""
	case orders.Move:
		to, ok := m.provIdx[o.Target.Province]
		if !ok {
			return -1, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == pi {
			return -1, "a unit cannot move to its own province"
		}
		if u.Type == orders.Fleet {
			if o.ViaConvoy || len(o.Path) > 0 {
				return -1, "only armies can be convoyed"
			}
			if _, why := c.fleetTarget(loc, to, o.Target.Coast); why != "" {
				return -1, why
			}
			return i, ""
		}
		k := m.Provinces[to].Kind
		if k == Sea {
			return -1, "an army cannot move to sea"
		}
		if (o.ViaConvoy || len(o.Path) > 0 || !m.army[pi].has(to)) && !c.convoyPossible(pi, to, -1) {
			if m.army[pi].has(to) {
				return -1, fmt.Sprintf("no fleet can convoy %s to %s", m.UnitName(u), m.Provinces[to].Abbrev)
			}
			return -1, fmt.Sprintf("%s cannot reach %s", m.UnitName(u), m.Provinces[to].Abbrev)
		}
		return i, ""
	case orders.SupportHold, orders.SupportMove:
		ai, ok := m.provIdx[o.Aux.Province]
		if !ok {
			return -1, fmt.Sprintf("unknown province %q", o.Aux.Province)
		}
		a := c.unitAt[ai]
		if a < 0 {
			return -1, fmt.Sprintf("there is no unit in %s to support", m.Provinces[ai].Abbrev)
		}
		if a == i {
			return -1, "a unit cannot support itself"
		}
		if o.Kind == orders.SupportHold {
			if !c.canSupportInto(i, ai) {
				return -1, fmt.Sprintf("%s cannot reach %s, so it cannot support there", m.UnitName(u), m.Provinces[ai].Abbrev)
			}
			return i, ""
		}
		to, ok := m.provIdx[o.Target.Province]
		if !ok {
			return -1, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == pi {
			return -1, "a unit cannot support a move into its own province" // DATC 6.D.34
		}
		if to == ai {
			return -1, "a unit cannot move to its own province"
		}
		if !c.canSupportInto(i, to) {
			return -1, fmt.Sprintf("%s cannot reach %s, so it cannot support there", m.UnitName(u), m.Provinces[to].Abbrev)
		}
		au := c.units[a]
		if au.Type == orders.Fleet {
			al, _ := m.locOf(ai, au.Loc.Coast)
			if !m.fleetTo[al].has(to) {
				return -1, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.Provinces[to].Abbrev)
			}
			if o.Target.Coast != "" {
				if tl, ok := m.locOf(to, o.Target.Coast); !ok || !m.fleet[al].has(tl) {
					return -1, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.LocName(o.Target))
				}
			}
		} else if !m.army[ai].has(to) && !c.convoyPossible(ai, to, pi) {
			// DATC 6.D.31: the supporter cannot be part of the convoy.
			return -1, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.Provinces[to].Abbrev)
		}
		return i, ""
	case orders.Convoy:
		if u.Type != orders.Fleet || !m.convoyable(pi) {
			return -1, "only a fleet at sea can convoy" // DATC 6.F.1
		}
		ai, ok := m.provIdx[o.Aux.Province]
		if !ok {
			return -1, fmt.Sprintf("unknown province %q", o.Aux.Province)
		}
		a := c.unitAt[ai]
		if a < 0 {
			return -1, fmt.Sprintf("there is no unit in %s to convoy", m.Provinces[ai].Abbrev)
		}
		if c.units[a].Type != orders.Army {
			return -1, "only armies can be convoyed" // DATC 6.A.7
		}
		to, ok := m.provIdx[o.Target.Province]
		if !ok {
			return -1, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == ai {
			return -1, "an army cannot be convoyed to its own province" // DATC 6.A.5
		}
		if !c.onMinimalRoute(ai, to, pi) {
			// DATC 4.E.1, 6.G.19: a fleet not needed for any route.
			return -1, fmt.Sprintf("%s is on no convoy route from %s to %s", m.UnitName(u), m.Provinces[ai].Abbrev, m.Provinces[to].Abbrev)
		}
		return i, ""
	}
	return -1, "not an order"
}

// onMinimalRoute reports whether the fleet in province f lies on a convoy
// route from a to t through fleets on the board from which no fleet can be
// left out (a chordless chain).
func (c *moveCheck) onMinimalRoute(a, t, f int) bool {
	m := c.m
	k := m.Provinces[t].Kind
	if k != Coast && k != Archipelago {
		return false
	}
	path := make([]int, 0, 8)
	budget := 20000
	var dfs func(n int) bool
	dfs = func(n int) bool {
		if budget--; budget < 0 {
			return false
		}
		// n must not touch the origin (except as first) nor earlier fleets
		// (except its predecessor): otherwise the chain has a shortcut.
		if len(path) > 0 && m.seaNear[a].has(n) {
			return false
		}
		for j := 0; j+1 < len(path); j++ {
			if m.seaNear[path[j]].has(n) {
				return false
			}
		}
		for _, p := range path {
			if m.seaNear[p].has(t) {
				return false
			}
		}
		path = append(path, n)
		defer func() { path = path[:len(path)-1] }()
		if m.seaNear[n].has(t) {
			for _, p := range path {
				if p == f {
					return true
				}
			}
			return false
		}
		for x := range m.Provinces {
			if c.fleets.has(x) && m.seaNear[n].has(x) && !inPath(path, x) && dfs(x) {
				return true
			}
		}
		return false
	}
	for x := range m.Provinces {
		if c.fleets.has(x) && m.seaNear[a].has(x) && dfs(x) {
			return true
		}
	}
	return false
}

func inPath(p []int, x int) bool {
	for _, v := range p {
		if v == x {
			return true
		}
	}
	return false
}

// apply records a legal order on unit i.
func (c *moveCheck) apply(r *mover, i int, o orders.Order) {
	m := c.m
	u := &r.u[i]
	u.kind = o.Kind
	switch o.Kind {
	case orders.Move:
		u.dst = m.provIdx[o.Target.Province]
		if u.typ == orders.Fleet {
			u.dstLoc, _ = c.fleetTarget(u.loc, u.dst, o.Target.Coast)
		} else {
			u.dstLoc = u.dst
			u.convoy = o.ViaConvoy || len(o.Path) > 0 || !m.army[u.prov].has(u.dst)
		}
	case orders.SupportHold:
		u.aux = c.unitAt[m.provIdx[o.Aux.Province]]
	case orders.SupportMove:
		u.aux = c.unitAt[m.provIdx[o.Aux.Province]]
		u.dst = m.provIdx[o.Target.Province]
		if len(m.Provinces[u.dst].Coasts) > 0 {
			u.coast = o.Target.Coast
		}
	case orders.Convoy:
		u.aux = c.unitAt[m.provIdx[o.Aux.Province]]
		u.dst = m.provIdx[o.Target.Province]
	}
}

// sameOrder reports whether two legal orders for one unit mean the same.
func sameOrder(r *mover, c *moveCheck, a, b orders.Order) bool {
	norm := func(o orders.Order) string {
		o.Unit, o.AuxUnit = orders.NoUnit, orders.NoUnit
		o.Loc.Coast, o.Aux.Coast = "", ""
		return fmt.Sprintf("%d|%s|%s|%s|%v|%v", o.Kind, o.Loc.Province, o.Aux.Province, o.Target, o.ViaConvoy || len(o.Path) > 0, o.Target.Coast)
	}
	return norm(a) == norm(b)
}

// explain gives the outcome and reason of unit i's order.
func (r *mover) explain(pos *Position, i, dislodger int) (Outcome, string) {
	m := r.m
	u := &r.u[i]
	name := func(j int) string { return m.UnitName(pos.Units[j]) }
	dis := ""
	if dislodger >= 0 {
		dis = "dislodged by " + name(dislodger)
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		if b == "" {
			return a
		}
		return a + "; " + b
	}
	switch u.kind {
	case orders.Hold:
		if dislodger >= 0 {
			return Failed, dis
		}
		return Succeeded, ""
	case orders.Move:
		if u.res {
			return Succeeded, ""
		}
		return Failed, join(r.whyMoveFailed(pos, i), dis)
	case orders.SupportHold, orders.SupportMove:
		if !u.valid {
			a := &r.u[u.aux]
			if u.kind == orders.SupportHold {
				return Invalid, join(fmt.Sprintf("%s did not hold: it was ordered to move", name(u.aux)), dis)
			}
			if a.kind == orders.Move {
				return Invalid, join(fmt.Sprintf("%s did not move to %s", name(u.aux), m.Provinces[u.dst].Abbrev+coastSuffix(u.coast)), dis)
			}
			return Invalid, join(fmt.Sprintf("%s did not move to %s", name(u.aux), m.Provinces[u.dst].Abbrev), dis)
		}
		if u.res {
			return Succeeded, ""
		}
		if dislodger >= 0 {
			return Failed, dis
		}
		for k := r.moveTo[u.prov]; k >= 0; k = r.u[k].nextTo {
			v := &r.u[k]
			if v.power != u.power && !(u.kind == orders.SupportMove && v.prov == u.dst) && r.path(k) {
				return Failed, "support cut by " + name(k)
			}
		}
		return Failed, "support cut"
	case orders.Convoy:
		if !u.valid {
			return Invalid, join(fmt.Sprintf("%s was not ordered to %s by convoy", name(u.aux), m.Provinces[u.dst].Abbrev), dis)
		}
		if u.szykman {
			return Failed, join("convoy paradox: the convoy fails and the fleet holds (Szykman rule)", dis)
		}
		if dislodger >= 0 {
			return Failed, dis
		}
		return Succeeded, ""
	}
	return Succeeded, ""
}

func coastSuffix(c string) string {
	if c == "" {
		return ""
	}
	return "/" + c
}

func (r *mover) whyMoveFailed(pos *Position, i int) string {
	m := r.m
	u := &r.u[i]
	name := func(j int) string { return m.UnitName(pos.Units[j]) }
	if u.convoy && !r.path(i) {
		if u.firstCon < 0 {
			return "no convoy route"
		}
		var all bitset
		for f := u.firstCon; f >= 0; f = r.u[f].nextCon {
			all.set(r.u[f].prov)
		}
		if !m.convoyRoute(u.prov, u.dst, all) {
			return "no convoy route"
		}
		return "convoy disrupted: no convoy route"
	}
	att := r.attack(i)
	j := r.unitAt[u.dst]
	if h := r.headToHead(i); h >= 0 {
		if att == 0 {
			return "cannot dislodge its own " + name(h)
		}
		if att <= r.defend(h) {
			return "bounced with " + name(h)
		}
	} else if j >= 0 && att <= r.hold(u.dst) {
		if att == 0 && r.u[j].power == u.power {
			return "cannot dislodge its own " + name(j)
		}
		return "bounced with " + name(j)
	}
	var by []string
	for k := r.moveTo[u.dst]; k >= 0; k = r.u[k].nextTo {
		if k != i && att <= r.prevent(k) {
			by = append(by, name(k))
		}
	}
	if len(by) > 0 {
		return "bounced with " + strings.Join(by, " and ")
	}
	if j >= 0 && r.u[j].power == u.power {
		return "cannot dislodge its own " + name(j)
	}
	return "bounced"
}
