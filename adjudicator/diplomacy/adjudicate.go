package diplomacy

import (
	"fmt"
	"sort"
	"strconv"
)

// Adjudicate resolves the current phase of pos with the given orders and
// returns what happened and the next position. Orders that cannot apply are
// reported illegal with a reason; units without a (legal) order hold in a
// movement phase, disband in a retreat phase, and powers that owe
// adjustments fall into civil disorder (DATC 4.D.8, 6.J, 2023 rules).
//
// pos is not modified. The next position shares with pos what the phase
// left as it was (the owners map, when no centre changed hands): treat
// positions as values, and Clone one before changing it. Each result's
// Order points at its order in ords: leave ords as they are while the
// Result is in use. An error means pos itself is broken (see
// Position.Validate), never that an order was bad.
func Adjudicate(pos *Position, ords []PowerOrder) (*Result, error) {
	b := getResolver()
	defer b.release()
	if err := b.load(pos); err != nil {
		return nil, err
	}
	var res *Result
	switch pos.Phase.Type {
	case Movement:
		res = b.movement(ords)
	case Retreats:
		res = b.retreats(ords)
	case Adjustments:
		res = b.adjustments(ords)
	}
	b.advance(res)
	return res, nil
}

func (b *resolver) movement(ords []PowerOrder) *Result {
	m, pos := b.m, b.pos
	n := len(pos.Units)
	np := len(m.Provinces)
	res := b.newResult(len(ords))
	r := &b.mv
	if cap(r.u) < n {
		r.u = make([]mvUnit, n)
	}
	r.m, r.u, r.unitAt, r.deps = m, r.u[:n], b.unitAt, r.deps[:0]
	b.ords = ords
	b.moveTo = fill(b.moveTo, np, -1)
	r.moveTo = b.moveTo
	chk := &b.chk
	*chk = moveCheck{m: m, unitAt: r.unitAt, units: pos.Units}
	for i := range pos.Units {
		u := &pos.Units[i]
		pi := b.unitProv[i]
		l, _ := m.locOf(pi, u.Loc.Coast)
		r.u[i] = mvUnit{power: b.unitPow[i], typ: u.Type, prov: pi, loc: l, kind: Hold, aux: -1, order: -1,
			nextTo: -1, firstSup: -1, nextSup: -1, firstCon: -1, nextCon: -1}
		if u.Type == Fleet && m.convoyable(pi) {
			chk.fleets.set(pi)
		}
	}
	r.fleets = chk.fleets

	// Legality (DATC 4.E.1): an illegal order is ignored and the unit holds.
	b.beginTexts(len(ords))
	b.conflict = fillBool(b.conflict, n)
	conflict := b.conflict
	dups := false // an order for a unit that already has one
	for k := range ords {
		po := &ords[k]
		or := &res.Orders[k]
		or.Power, or.Order = po.Power, &po.Order
		ck, why := chk.check(po)
		b.formatOrder(k, &po.Order, ck)
		if why != "" {
			or.Outcome, or.Reason = Illegal, why
			continue
		}
		i := ck.unit
		u := &r.u[i]
		if u.order >= 0 {
			if ords[u.order].Order.Kind != po.Order.Kind || !sameOrder(ords[u.order].Order, po.Order) {
				conflict[i] = true // DATC 4.D.3: differing orders; the unit holds
			}
			or.Outcome, dups = dup, true
			continue
		}
		u.order = k
		chk.apply(r, i, &po.Order, ck)
	}
	for i := range r.u {
		if conflict[i] {
			u := &r.u[i]
			res.Orders[u.order].Outcome = dup
			u.order, u.kind = -1, Hold
		}
	}
	// Convoy intent for moves to adjacent provinces (DATC 4.A.3, 2023
	// rules): by convoy when ordered "via convoy" or when a fleet of the
	// same power is (legally) ordered to convoy it.
	for f := range r.u {
		fu := &r.u[f]
		if fu.kind != Convoy {
			continue
		}
		a := &r.u[fu.aux]
		if a.kind == Move && a.dst == fu.dst && a.power == fu.power {
			a.convoy = true
		}
	}
	// Matching (validity) and the move lists, built backwards so that they
	// run in unit order (stable reasons).
	for i := n - 1; i >= 0; i-- {
		u := &r.u[i]
		switch u.kind {
		case Move:
			u.nextTo = r.moveTo[u.dst]
			r.moveTo[u.dst] = i
		case SupportHold:
			u.valid = r.u[u.aux].kind != Move
		case SupportMove:
			a := &r.u[u.aux]
			u.valid = a.kind == Move && a.dst == u.dst && (!u.coast || m.locs[a.dstLoc].coast == ords[u.order].Order.Target.Coast)
		case Convoy:
			a := &r.u[u.aux]
			u.valid = a.kind == Move && a.dst == u.dst && a.convoy
		}
	}
	for i := n - 1; i >= 0; i-- {
		u := &r.u[i]
		if !u.valid {
			continue
		}
		switch u.kind {
		case SupportHold, SupportMove:
			u.nextSup = r.u[u.aux].firstSup
			r.u[u.aux].firstSup = i
		case Convoy:
			u.nextCon = r.u[u.aux].firstCon
			r.u[u.aux].firstCon = i
		}
	}
	for i := range r.u {
		switch r.u[i].kind {
		case Move:
			r.resolve(i)
		case SupportHold, SupportMove, Convoy:
			if r.u[i].valid {
				r.resolve(i)
			}
		}
	}

	// Dislodgements.
	b.dislodger = fill(b.dislodger, n, -1)
	dislodger := b.dislodger
	for i := range r.u {
		u := &r.u[i]
		if u.kind == Move && u.res {
			continue
		}
		for k := r.moveTo[u.prov]; k >= 0; k = r.u[k].nextTo {
			if r.u[k].res {
				dislodger[i] = k
			}
		}
	}
	// Standoffs: vacant provinces a move failed to enter with some force.
	b.occupied = fillBool(b.occupied, np)
	occupied := b.occupied
	for i := range r.u {
		u := &r.u[i]
		switch {
		case u.kind == Move && u.res:
			occupied[u.dst] = true
		case dislodger[i] < 0:
			occupied[u.prov] = true
		}
	}
	// (Gathered as a set first, so that the list is one allocation.)
	var stood bitset
	for i := range r.u {
		u := &r.u[i]
		if u.kind != Move || occupied[u.dst] || r.moveTo[u.dst] != i {
			continue // not the first move to a province left vacant
		}
		for k := i; k >= 0; k = r.u[k].nextTo {
			if !r.u[k].res && r.prevent(k) > 0 {
				stood.set(u.dst)
				break
			}
		}
	}
	if ns := stood.count(); ns > 0 {
		res.Standoffs = make([]string, 0, ns)
		for w, x := range stood {
			for ; x != 0; x &= x - 1 {
				res.Standoffs = append(res.Standoffs, m.Provinces[w<<6|trailing(x)].ID)
			}
		}
	}
	if len(res.Standoffs) > 1 {
		sort.Strings(res.Standoffs)
	}

	// Outcomes and reasons of the orders that were carried out.
	for i := range r.u {
		u := &r.u[i]
		if u.order < 0 {
			continue
		}
		w0 := len(b.text)
		b.text, res.Orders[u.order].Outcome = b.explain(b.text, i, dislodger[i])
		if len(b.text) > w0 {
			b.spans[u.order].why0, b.spans[u.order].why1 = w0, len(b.text)
		}
	}
	b.setTexts(res)
	for k := range res.Orders {
		if dups && res.Orders[k].Outcome == dup {
			res.Orders[k].Outcome = Illegal
			res.Orders[k].Reason = "the unit was given more than one order: it holds"
			if ck, why := chk.check(&ords[k]); why == "" && r.u[ck.unit].order >= 0 {
				// Identical repeated orders: the repeat shares the outcome.
				first := &res.Orders[r.u[ck.unit].order]
				res.Orders[k].Outcome, res.Orders[k].Reason = first.Outcome, first.Reason
			}
		}
	}

	// Next position: moved units, dislodged units with retreat options.
	next := b.nextFrom(res)
	next.Standoffs = res.Standoffs
	b.keys = b.keys[:0]
	nd := 0
	for _, d := range dislodger {
		if d >= 0 {
			nd++
		}
	}
	if nd > 0 {
		next.Dislodged = make([]Dislodged, 0, nd)
	}
	for i := range pos.Units {
		u := &r.u[i]
		switch {
		case u.kind == Move && u.res:
			b.addUnit(i, u.dstLoc, u.dst, u.power)
		case dislodger[i] >= 0:
			a := &r.u[dislodger[i]]
			d := Dislodged{Unit: pos.Units[i], AttackerFrom: m.Provinces[a.prov].ID, ByConvoy: a.convoy}
			d.Options = retreatOptions(m, d, occupied, res.Standoffs)
			next.Dislodged = append(next.Dislodged, d)
			b.keys = append(b.keys, u.prov)
		default:
			b.addUnit(i, -1, u.prov, u.power)
		}
	}
	b.placeUnits(next, res)
	// Dislodged units in province order too (few: insertion sort).
	ds, keys := next.Dislodged, b.keys
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
			keys[j], keys[j-1] = keys[j-1], keys[j]
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
	// The options as a set first (provinces for an army, locations for a
	// fleet), so that the list is one allocation.
	var set bitset
	if d.Type == Army {
		for w, x := range m.army[pi] {
			for ; x != 0; x &= x - 1 {
				if p := w<<6 | trailing(x); ok(p) {
					set.set(p)
				}
			}
		}
		if n := set.count(); n > 0 {
			out = make([]string, 0, n)
		}
		for w, x := range set {
			for ; x != 0; x &= x - 1 {
				out = append(out, m.Provinces[w<<6|trailing(x)].ID)
			}
		}
		return out
	}
	l, _ := m.locOf(pi, d.Loc.Coast)
	for w, x := range m.fleet[l] {
		for ; x != 0; x &= x - 1 {
			if t := w<<6 | trailing(x); ok(m.locs[t].prov) {
				set.set(t)
			}
		}
	}
	if n := set.count(); n > 0 {
		out = make([]string, 0, n)
	}
	for w, x := range set {
		for ; x != 0; x &= x - 1 {
			out = append(out, m.locName(w<<6|trailing(x)))
		}
	}
	sort.Strings(out)
	return out
}

// legal checks that an order may be given in a movement phase and returns
// the index of the ordered unit.
func (c *moveCheck) legal(pos *Position, po PowerOrder) (int, string) {
	ck, why := c.check(&po)
	return ck.unit, why
}

// checked is what check found of a legal movement order: the ordered unit,
// the provinces the order names (-1: none) and, for a move, the location
// it goes to.
type checked struct{ unit, to, aux, dstLoc int }

var notChecked = checked{-1, -1, -1, -1}

// check is legal, with the indices the order names.
func (c *moveCheck) check(po *PowerOrder) (checked, string) {
	m := c.m
	o := &po.Order
	switch o.Kind {
	case Hold, Move, SupportHold, SupportMove, Convoy:
	case Retreat:
		return notChecked, "retreats are ordered in a retreat phase"
	case Disband:
		return notChecked, "disbands are ordered in a retreat or adjustment phase"
	case Build, Waive:
		return notChecked, "builds are ordered in an adjustment phase"
	default:
		return notChecked, "not an order"
	}
	pi, ok := m.prov(o.Loc.Province)
	if !ok {
		return notChecked, fmt.Sprintf("unknown province %q", o.Loc.Province)
	}
	i := c.unitAt[pi]
	if i < 0 {
		return notChecked, fmt.Sprintf("there is no unit in %s", m.Provinces[pi].Abbrev)
	}
	u := &c.units[i]
	if u.Power != po.Power {
		return notChecked, fmt.Sprintf("%s belongs to %s", m.UnitName(*u), m.PowerName(u.Power))
	}
	// DATC 4.B.5, 4.C.2: a wrong coast or unit type of the ordered unit is ignored.
	loc, _ := m.locOf(pi, u.Loc.Coast)
	switch o.Kind {
	case Hold:
		return checked{i, -1, -1, -1}, ""
	case Move:
		to, ok := m.prov(o.Target.Province)
		if !ok {
			return notChecked, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == pi {
			return notChecked, "a unit cannot move to its own province"
		}
		if u.Type == Fleet {
			if o.ViaConvoy || len(o.Path) > 0 {
				return notChecked, "only armies can be convoyed"
			}
			l, why := c.fleetTarget(loc, to, o.Target.Coast)
			if why != "" {
				return notChecked, why
			}
			return checked{i, to, -1, l}, ""
		}
		k := m.Provinces[to].Kind
		if k == Sea {
			return notChecked, "an army cannot move to sea"
		}
		if (o.ViaConvoy || len(o.Path) > 0 || !m.army[pi].has(to)) && !c.convoyPossible(pi, to, -1) {
			if m.army[pi].has(to) {
				return notChecked, fmt.Sprintf("no fleet can convoy %s to %s", m.UnitName(*u), m.Provinces[to].Abbrev)
			}
			return notChecked, fmt.Sprintf("%s cannot reach %s", m.UnitName(*u), m.Provinces[to].Abbrev) + m.reachHint(Army, pi, loc) // hint.go
		}
		return checked{i, to, -1, to}, ""
	case SupportHold, SupportMove:
		ai, ok := m.prov(o.Aux.Province)
		if !ok {
			return notChecked, fmt.Sprintf("unknown province %q", o.Aux.Province)
		}
		a := c.unitAt[ai]
		if a < 0 {
			return notChecked, fmt.Sprintf("there is no unit in %s to support", m.Provinces[ai].Abbrev)
		}
		if a == i {
			return notChecked, "a unit cannot support itself"
		}
		if o.Kind == SupportHold {
			if !c.canSupportInto(i, pi, loc, ai) {
				return notChecked, fmt.Sprintf("%s cannot reach %s, so it cannot support there", m.UnitName(*u), m.Provinces[ai].Abbrev)
			}
			return checked{i, -1, ai, -1}, ""
		}
		to, ok := m.prov(o.Target.Province)
		if !ok {
			return notChecked, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == pi {
			return notChecked, "a unit cannot support a move into its own province" // DATC 6.D.34
		}
		if to == ai {
			return notChecked, "a unit cannot move to its own province"
		}
		if !c.canSupportInto(i, pi, loc, to) {
			return notChecked, fmt.Sprintf("%s cannot reach %s, so it cannot support there", m.UnitName(*u), m.Provinces[to].Abbrev)
		}
		au := c.units[a]
		if au.Type == Fleet {
			al, _ := m.locOf(ai, au.Loc.Coast)
			if !m.fleetTo[al].has(to) {
				return notChecked, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.Provinces[to].Abbrev)
			}
			if o.Target.Coast != "" {
				if tl, ok := m.locOf(to, o.Target.Coast); !ok || !m.fleet[al].has(tl) {
					return notChecked, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.LocName(o.Target))
				}
			}
		} else if !m.army[ai].has(to) && !c.convoyPossible(ai, to, pi) {
			// DATC 6.D.31: the supporter cannot be part of the convoy.
			return notChecked, fmt.Sprintf("%s cannot move to %s", m.UnitName(au), m.Provinces[to].Abbrev)
		}
		return checked{i, to, ai, -1}, ""
	case Convoy:
		if u.Type != Fleet || !m.convoyable(pi) {
			return notChecked, "only a fleet at sea can convoy" // DATC 6.F.1
		}
		ai, ok := m.prov(o.Aux.Province)
		if !ok {
			return notChecked, fmt.Sprintf("unknown province %q", o.Aux.Province)
		}
		a := c.unitAt[ai]
		if a < 0 {
			return notChecked, fmt.Sprintf("there is no unit in %s to convoy", m.Provinces[ai].Abbrev)
		}
		if c.units[a].Type != Army {
			return notChecked, "only armies can be convoyed" // DATC 6.A.7
		}
		to, ok := m.prov(o.Target.Province)
		if !ok {
			return notChecked, fmt.Sprintf("unknown province %q", o.Target.Province)
		}
		if to == ai {
			return notChecked, "an army cannot be convoyed to its own province" // DATC 6.A.5
		}
		if !c.onMinimalRoute(ai, to, pi) {
			// DATC 4.E.1, 6.G.19: a fleet not needed for any route.
			return notChecked, fmt.Sprintf("%s is on no convoy route from %s to %s", m.UnitName(*u), m.Provinces[ai].Abbrev, m.Provinces[to].Abbrev)
		}
		return checked{i, to, ai, -1}, ""
	}
	return notChecked, "not an order"
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

// apply records a legal order on unit i, with what check found of it.
func (c *moveCheck) apply(r *mover, i int, o *Order, ck checked) {
	m := c.m
	u := &r.u[i]
	u.kind = o.Kind
	switch o.Kind {
	case Move:
		u.dst, u.dstLoc = ck.to, ck.dstLoc
		if u.typ != Fleet {
			u.convoy = o.ViaConvoy || len(o.Path) > 0 || !m.army[u.prov].has(u.dst)
		}
	case SupportHold:
		u.aux = c.unitAt[ck.aux]
	case SupportMove:
		u.aux = c.unitAt[ck.aux]
		u.dst = ck.to
		u.coast = len(m.Provinces[u.dst].Coasts) > 0 && o.Target.Coast != ""
	case Convoy:
		u.aux = c.unitAt[ck.aux]
		u.dst = ck.to
	}
}

// sameOrder reports whether two legal orders for one unit mean the same.
func sameOrder(a, b Order) bool {
	norm := func(o Order) string {
		o.Unit, o.AuxUnit = NoUnit, NoUnit
		o.Loc.Coast, o.Aux.Coast = "", ""
		return fmt.Sprintf("%d|%s|%s|%s|%v|%v", o.Kind, o.Loc.Province, o.Aux.Province, o.Target, o.ViaConvoy || len(o.Path) > 0, o.Target.Coast)
	}
	return norm(a) == norm(b)
}

// explain appends the reason of unit i's order to t (nothing when it
// succeeded) and returns its outcome.
func (b *resolver) explain(t []byte, i, dislodger int) ([]byte, Outcome) {
	r, m := &b.mv, b.m
	u := &r.u[i]
	// dis appends "dislodged by …" when the unit was dislodged, after "; "
	// when a reason precedes it.
	dis := func(t []byte, after bool) []byte {
		if dislodger < 0 {
			return t
		}
		if after {
			t = append(t, "; "...)
		}
		t = append(t, "dislodged by "...)
		return b.appendUnitName(t, dislodger)
	}
	switch u.kind {
	case Hold:
		if dislodger >= 0 {
			return dis(t, false), Failed
		}
		return t, Succeeded
	case Move:
		if u.res {
			return t, Succeeded
		}
		return dis(b.whyMoveFailed(t, i), true), Failed
	case SupportHold, SupportMove:
		if !u.valid {
			t = b.appendUnitName(t, u.aux)
			if u.kind == SupportHold {
				t = append(t, " did not hold: it was ordered to move"...)
			} else {
				t = append(t, " did not move to "...)
				t = append(t, m.Provinces[u.dst].Abbrev...)
				if r.u[u.aux].kind == Move {
					t = appendCoast(t, b.ords[u.order].Order.Target.Coast)
				}
			}
			return dis(t, true), Invalid
		}
		if u.res {
			return t, Succeeded
		}
		if dislodger >= 0 {
			return dis(t, false), Failed
		}
		for k := r.moveTo[u.prov]; k >= 0; k = r.u[k].nextTo {
			v := &r.u[k]
			if v.power != u.power && !(u.kind == SupportMove && v.prov == u.dst) && r.path(k) {
				return b.appendUnitName(append(t, "support cut by "...), k), Failed
			}
		}
		return append(t, "support cut"...), Failed
	case Convoy:
		if !u.valid {
			t = b.appendUnitName(t, u.aux)
			t = append(t, " was not ordered to "...)
			t = append(t, m.Provinces[u.dst].Abbrev...)
			t = append(t, " by convoy"...)
			return dis(t, true), Invalid
		}
		if u.szykman {
			t = append(t, "convoy paradox: the convoy fails and the fleet holds (Szykman rule)"...)
			return dis(t, true), Failed
		}
		if dislodger >= 0 {
			return dis(t, false), Failed
		}
		return t, Succeeded
	}
	return t, Succeeded
}

// appendBeaten appends how a move of strength att failed against unit k
// of strength against: a standoff when the two are equal (neither moves
// in), beaten when k was stronger; with the strengths, so a player can
// tell a bounce 1 against 1 from a move beaten 2 to 1.
func (b *resolver) appendBeaten(t []byte, k, att, against int) []byte {
	if att == against {
		t = append(t, "standoff with "...)
	} else {
		t = append(t, "beaten by "...)
	}
	return appendStrengths(b.appendUnitName(t, k), att, against)
}

// appendStrengths appends " (1 against 2)": the failed move's strength
// against what stopped it.
func appendStrengths(t []byte, att, against int) []byte {
	t = append(t, " ("...)
	t = strconv.AppendInt(t, int64(att), 10)
	t = append(t, " against "...)
	t = strconv.AppendInt(t, int64(against), 10)
	return append(t, ')')
}

// otherMoveStops reports whether another move to unit i's destination
// is at least as strong as i's attack att.
func (b *resolver) otherMoveStops(i, att int) bool {
	r := &b.mv
	for k := r.moveTo[r.u[i].dst]; k >= 0; k = r.u[k].nextTo {
		if k != i && att <= r.prevent(k) {
			return true
		}
	}
	return false
}

// whyMoveFailed appends why the move of unit i failed.
func (b *resolver) whyMoveFailed(t []byte, i int) []byte {
	r, m := &b.mv, b.m
	u := &r.u[i]
	if u.convoy && !r.path(i) {
		if u.firstCon < 0 {
			return append(t, "no convoy route"...)
		}
		var all bitset
		for f := u.firstCon; f >= 0; f = r.u[f].nextCon {
			all.set(r.u[f].prov)
		}
		if !m.convoyRoute(u.prov, u.dst, all) {
			return append(t, "no convoy route"...)
		}
		return append(t, "convoy disrupted: no convoy route"...)
	}
	att := r.attack(i)
	j := r.unitAt[u.dst]
	if h := r.headToHead(i); h >= 0 {
		if att == 0 {
			return b.appendUnitName(append(t, "cannot dislodge its own "...), h)
		}
		if def := r.defend(h); att <= def {
			return b.appendBeaten(t, h, att, def)
		}
	} else if j >= 0 && att <= r.hold(u.dst) {
		if att == 0 && r.u[j].power == u.power {
			return b.appendUnitName(append(t, "cannot dislodge its own "...), j)
		}
		if !b.otherMoveStops(i, att) { // else say the move that did, not the unit it dislodged
			t = b.appendUnitName(append(t, "could not dislodge "...), j)
			return appendStrengths(t, att, r.hold(u.dst))
		}
	}
	by := 0
	for k := r.moveTo[u.dst]; k >= 0; k = r.u[k].nextTo {
		if k != i {
			if p := r.prevent(k); att <= p {
				if by > 0 {
					t = append(t, " and "...)
				}
				t = b.appendBeaten(t, k, att, p)
				by++
			}
		}
	}
	if by > 0 {
		return t
	}
	if j >= 0 && r.u[j].power == u.power {
		return b.appendUnitName(append(t, "cannot dislodge its own "...), j)
	}
	return append(t, "bounced"...)
}
