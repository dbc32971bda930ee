package diplomacy

import (
	"fmt"
	"sync"
)

// A resolver is a position read into small integers once per Adjudicate: the
// province and power of every unit, the unit in every province, the owner
// of every centre. Reading the position is validating it (one pass, one
// string lookup per name), and everything after works on indices. Resolvers
// come from a pool with their slices, so a phase allocates little more
// than its Result and the next Position; nothing of a resolver is handed out.
type resolver struct {
	m    *Map
	pos  *Position
	ords []PowerOrder // a movement phase's orders, while it is resolved

	unitProv []int // pos.Units[i]: province
	unitPow  []int // pos.Units[i]: power
	unitAt   []int // province: index in pos.Units, -1
	disPow   []int // pos.Dislodged[i]: power
	disAt    []int // province: index in pos.Dislodged, -1
	owner    []int // province: owning power, -1

	// The next position's units as the phase adds them, then as placed
	// (parallel to next.Units); its owners once advance has updated them.
	pend      []placed
	slot      []int // province: index in pend, -1
	order     []int // pend in province order
	nextProv  []int
	nextPow   []int
	nextOwner []int

	// Scratch of the phase adjudicators.
	mv        mover
	chk       moveCheck
	moveTo    []int  // province: first unit moving there
	dislodger []int  // unit: the unit that dislodged it, -1
	keys      []int  // sort keys, queues
	dist      []int  // province: distance (civil disorder)
	conflict  []bool // unit: given differing orders
	occupied  []bool // province: occupied after the phase
	used      []bool // province: a unit was built there
	removed   []bool // province: its unit is removed
	alive     []bool // power: alive before, after
	counts    []int  // per-power counts
	cand      []int  // units to choose from
	spans     []span // order: where its text and reason are in text
	text      []byte // the orders' texts and reasons
}

// span locates an order's text and reason in a resolver's text buffer (-1:
// no reason there).
type span struct{ text0, text1, why0, why1 int }

var resolvers = sync.Pool{New: func() any { return new(resolver) }}

func getResolver() *resolver { return resolvers.Get().(*resolver) }

func (b *resolver) release() {
	b.pos, b.m, b.ords = nil, nil, nil
	b.mv.m, b.chk.m, b.chk.units = nil, nil, nil
	resolvers.Put(b)
}

// fill returns s resized to n, every element set to v.
func fill(s []int, n, v int) []int {
	s = resize(s, n)
	switch {
	case v == 0:
		clear(s)
	case v == -1 && n <= len(minusOnes):
		copy(s, minusOnes[:n])
	default:
		for i := range s {
			s[i] = v
		}
	}
	return s
}

// minusOnes fills the per-province tables with -1 by one copy.
var minusOnes = func() (a [maxLocs]int) {
	for i := range a {
		a[i] = -1
	}
	return a
}()

// resize returns s with length n, its contents undefined.
func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func fillBool(s []bool, n int) []bool {
	if cap(s) < n {
		s = make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// load reads and validates pos (see Position.Validate).
func (b *resolver) load(p *Position) error {
	m := p.Map
	if m == nil {
		return fmt.Errorf("position without a map")
	}
	if p.Phase.Season < Spring || p.Phase.Season > Winter || p.Phase.Type < Movement || p.Phase.Type > Adjustments {
		return fmt.Errorf("bad phase %+v", p.Phase)
	}
	if (p.Phase.Season == Winter) != (p.Phase.Type == Adjustments) {
		return fmt.Errorf("phase %s: adjustments happen in winter only", p.Phase.ID())
	}
	b.m, b.pos = m, p
	np := len(m.Provinces)
	b.unitAt = fill(b.unitAt, np, -1)
	b.disAt = fill(b.disAt, np, -1)
	b.owner = fill(b.owner, np, -1)
	b.unitProv = resize(b.unitProv, len(p.Units))
	b.unitPow = resize(b.unitPow, len(p.Units))
	b.disPow = resize(b.disPow, len(p.Dislodged))
	for i := range p.Units {
		u := &p.Units[i]
		pw, pi, err := checkUnit(m, u, "unit")
		if err != nil {
			return err
		}
		if b.unitAt[pi] >= 0 {
			return fmt.Errorf("two units in %s", u.Loc.Province)
		}
		b.unitAt[pi], b.unitProv[i], b.unitPow[i] = i, pi, pw
	}
	for i := range p.Dislodged {
		d := &p.Dislodged[i]
		pw, pi, err := checkUnit(m, &d.Unit, "dislodged unit")
		if err != nil {
			return err
		}
		if b.disAt[pi] >= 0 {
			return fmt.Errorf("two dislodged units in %s", d.Loc.Province)
		}
		b.disAt[pi], b.disPow[i] = i, pw
		if d.AttackerFrom != "" {
			if _, ok := m.prov(d.AttackerFrom); !ok {
				return fmt.Errorf("dislodged unit in %s: unknown attacker province %q", d.Loc.Province, d.AttackerFrom)
			}
		}
	}
	if len(p.Dislodged) > 0 && p.Phase.Type != Retreats {
		return fmt.Errorf("dislodged units outside a retreat phase")
	}
	for _, s := range p.Standoffs {
		if _, ok := m.prov(s); !ok {
			return fmt.Errorf("unknown standoff province %q", s)
		}
	}
	// Owners: looked up centre by centre (cheaper than walking the map,
	// BenchmarkValidate); a key left over is no centre.
	found := 0
	for _, pi := range m.scs {
		sc := m.Provinces[pi].ID
		pw, ok := p.Owners[sc]
		if !ok {
			continue
		}
		found++
		pwi, ok := m.power(pw)
		if !ok {
			return fmt.Errorf("centre %s owned by unknown power %q", sc, pw)
		}
		b.owner[pi] = pwi
	}
	if found != len(p.Owners) {
		for sc := range p.Owners {
			if pi, ok := m.prov(sc); !ok || !m.Provinces[pi].SupplyCenter {
				return fmt.Errorf("%q is not a supply centre", sc)
			}
		}
	}
	return nil
}

// checkUnit checks that u may stand where it stands and returns its power
// and province.
func checkUnit(m *Map, u *Unit, what string) (int, int, error) {
	pw, ok := m.power(u.Power)
	if !ok {
		return 0, 0, fmt.Errorf("%s of unknown power %q", what, u.Power)
	}
	pi, ok := m.prov(u.Loc.Province)
	if !ok {
		return 0, 0, fmt.Errorf("%s in unknown province %q", what, u.Loc.Province)
	}
	pr := &m.Provinces[pi]
	switch u.Type {
	case Army:
		if pr.Kind == Sea {
			return 0, 0, fmt.Errorf("%s: an army cannot stand in %s", what, pr.ID)
		}
		if u.Loc.Coast != "" {
			return 0, 0, fmt.Errorf("%s: an army has no coast", what)
		}
	case Fleet:
		if pr.Kind == Land {
			return 0, 0, fmt.Errorf("%s: a fleet cannot stand in %s", what, pr.ID)
		}
		if len(pr.Coasts) > 0 {
			if _, ok := m.locOf(pi, u.Loc.Coast); !ok || u.Loc.Coast == "" {
				return 0, 0, fmt.Errorf("%s: a fleet in %s needs one of the coasts %v", what, pr.ID, pr.Coasts)
			}
		} else if u.Loc.Coast != "" {
			return 0, 0, fmt.Errorf("%s: %s has no coast %q", what, pr.ID, u.Loc.Coast)
		}
	default:
		return 0, 0, fmt.Errorf("%s: unit type missing", what)
	}
	return pw, pi, nil
}

// outcome is a phase's Result and its next Position, allocated as one.
type outcome struct {
	res  Result
	next Position
}

// newResult starts the Result of a phase with n orders; its Next is set up
// by nextFrom.
func (b *resolver) newResult(n int) *Result {
	o := &outcome{}
	o.res = Result{Phase: b.pos.Phase, Orders: make([]OrderResult, n), Next: &o.next}
	return &o.res
}

// nextFrom starts res.Next: pos's fields, its owners map shared (advance
// gives the next position a map of its own when a centre changes hands).
// The phase then adds the units with addUnit, in any order, and places
// them with placeUnits.
func (b *resolver) nextFrom(res *Result) *Position {
	next := res.Next
	*next = *b.pos
	next.Units, next.Dislodged, next.Standoffs = nil, nil, nil
	if b.pos.Owners == nil {
		next.Owners = map[string]string{}
	}
	b.pend = b.pend[:0]
	return next
}

// placed is a unit of the next position: which unit it is (an index into
// pos.Units, then pos.Dislodged, then the Result's Built), the location it
// goes to (-1: where it stands), its province and its power. Holding no
// strings, the list costs no write barriers to build.
type placed struct{ src, loc, prov, pow int }

// addUnit adds a unit of the next position.
func (b *resolver) addUnit(src, loc, prov, pow int) {
	b.pend = append(b.pend, placed{src, loc, prov, pow})
}

// placeUnits sets the next position's units, in province order as
// Position.SortUnits leaves them, and nextProv and nextPow beside them.
// Units stand in different provinces, so each goes to its province's slot;
// should two share one (retreat options given with a position are taken
// as they are), a stable sort orders them.
func (b *resolver) placeUnits(next *Position, res *Result) {
	m, pos := b.m, b.pos
	n, np := len(b.pend), len(m.Provinces)
	b.slot = resize(b.slot, np) // read only where in says
	order, shared := b.order[:0], false
	var in bitset // provinces with a unit
	for k := range b.pend {
		p := b.pend[k].prov
		if in.has(p) {
			shared = true
			break
		}
		in.set(p)
		b.slot[p] = k
	}
	if !shared {
		for w, x := range in {
			for ; x != 0; x &= x - 1 {
				order = append(order, b.slot[w<<6|trailing(x)])
			}
		}
	} else {
		for k := range b.pend {
			order = append(order, k)
		}
		for i := 1; i < n; i++ {
			for j := i; j > 0 && b.pend[order[j]].prov < b.pend[order[j-1]].prov; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
	}
	b.order = order
	next.Units = make([]Unit, n)
	b.nextProv, b.nextPow = resize(b.nextProv, n), resize(b.nextPow, n)
	nu, nd := len(pos.Units), len(pos.Dislodged)
	for i, k := range order {
		pl := &b.pend[k]
		var u *Unit
		switch {
		case pl.src < nu:
			u = &pos.Units[pl.src]
		case pl.src < nu+nd:
			u = &pos.Dislodged[pl.src-nu].Unit
		default:
			u = &res.Built[pl.src-nu-nd]
		}
		if pl.loc < 0 {
			next.Units[i] = *u
		} else {
			next.Units[i] = Unit{Power: u.Power, Type: u.Type, Loc: m.locOrder(pl.loc)}
		}
		b.nextProv[i], b.nextPow[i] = pl.prov, pl.pow
	}
}

// appendUnitName appends unit i of the position as "A Mun" or "F StP/sc".
func (b *resolver) appendUnitName(t []byte, i int) []byte {
	u := &b.pos.Units[i]
	if u.Type == Fleet {
		t = append(t, "F "...)
	} else {
		t = append(t, "A "...)
	}
	t = append(t, b.m.Provinces[b.unitProv[i]].Abbrev...)
	if u.Loc.Coast != "" {
		t = append(t, '/')
		t = append(t, u.Loc.Coast...)
	}
	return t
}

// setTexts turns the text buffer into one string and gives every order its
// text and buffered reason.
func (b *resolver) setTexts(res *Result) {
	s := string(b.text)
	for k := range res.Orders {
		sp := b.spans[k]
		res.Orders[k].Text = s[sp.text0:sp.text1]
		if sp.why0 >= 0 {
			res.Orders[k].Reason = s[sp.why0:sp.why1]
		}
	}
}

// formatOrders writes the canonical text of every order into the text
// buffer.
func (b *resolver) formatOrders(ords []PowerOrder) {
	b.beginTexts(len(ords))
	for k := range ords {
		b.formatOrder(k, &ords[k].Order, notChecked)
	}
}

// beginTexts empties the text buffer for n orders.
func (b *resolver) beginTexts(n int) {
	if cap(b.spans) < n {
		b.spans = make([]span, n)
	}
	b.spans = b.spans[:n]
	b.text = b.text[:0]
}

// formatOrder writes the canonical text of order k into the text buffer.
// A legal movement order (ck from check) is printed from the provinces
// check found; any other through the map's index.
func (b *resolver) formatOrder(k int, o *Order, ck checked) {
	t0 := len(b.text)
	if ck.unit >= 0 && len(o.Path) == 0 {
		b.text = b.appendChecked(b.text, o, ck)
	} else {
		b.text = AppendFormatAbbrev(b.text, *o, (*abbreviations)(b.m))
	}
	b.spans[k] = span{t0, len(b.text), -1, -1}
}

// appendChecked appends the text Format gives a legal movement
// order without a path (TestCheckedOrderText), from the provinces check
// found: no name is looked up again.
func (b *resolver) appendChecked(t []byte, o *Order, ck checked) []byte {
	p := b.m.Provinces
	unit := func(t []byte, u UnitType, prov int, coast string) []byte {
		switch u {
		case Army:
			t = append(t, "A "...)
		case Fleet:
			t = append(t, "F "...)
		}
		t = append(t, p[prov].Abbrev...)
		return appendCoast(t, coast)
	}
	t = unit(t, o.Unit, b.unitProv[ck.unit], o.Loc.Coast)
	switch o.Kind {
	case Hold:
		return append(t, " H"...)
	case Move:
		t = append(t, " - "...)
		t = appendCoast(append(t, p[ck.to].Abbrev...), o.Target.Coast)
		if o.ViaConvoy {
			t = append(t, " via convoy"...)
		}
		return t
	case SupportHold:
		return unit(append(t, " S "...), o.AuxUnit, ck.aux, o.Aux.Coast)
	case SupportMove:
		t = unit(append(t, " S "...), o.AuxUnit, ck.aux, o.Aux.Coast)
	case Convoy:
		t = unit(append(t, " C "...), o.AuxUnit, ck.aux, o.Aux.Coast)
	}
	t = append(t, " - "...)
	return appendCoast(append(t, p[ck.to].Abbrev...), o.Target.Coast)
}

func appendCoast(t []byte, coast string) []byte {
	if coast == "" {
		return t
	}
	return append(append(t, '/'), coast...)
}

// powerOf returns the index of a power id, -1 when unknown.
func (b *resolver) powerOf(id string) int {
	if i, ok := b.m.power(id); ok {
		return i
	}
	return -1
}
