package diplomacy

import (
	"fmt"
	"maps"
	"sync"

	"pbemd/orders"
)

// A board is a position read into small integers once per Adjudicate: the
// province and power of every unit, the unit in every province, the owner
// of every centre. Reading the position is validating it (one pass, one
// string lookup per name), and everything after works on indices. Boards
// come from a pool with their slices, so a phase allocates little more
// than its Result and the next Position; nothing of a board is handed out.
type board struct {
	m   *Map
	pos *Position

	unitProv []int // pos.Units[i]: province
	unitPow  []int // pos.Units[i]: power
	unitAt   []int // province: index in pos.Units, -1
	disPow   []int // pos.Dislodged[i]: power
	disAt    []int // province: index in pos.Dislodged, -1
	owner    []int // province: owning power, -1

	// The next position's units as the phase adds them, then as placed
	// (parallel to next.Units); its owners once advance has updated them.
	pend      []Unit
	pendProv  []int
	pendPow   []int
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

// span locates an order's text and reason in a board's text buffer (-1:
// no reason there).
type span struct{ text0, text1, why0, why1 int }

var boards = sync.Pool{New: func() any { return new(board) }}

func getBoard() *board { return boards.Get().(*board) }

func (b *board) release() {
	b.pos, b.m = nil, nil
	b.mv.m, b.chk.m, b.chk.units = nil, nil, nil
	boards.Put(b)
}

// ints returns s resized to n, every element set to v.
func fill(s []int, n, v int) []int {
	if cap(s) < n {
		s = make([]int, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = v
	}
	return s
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
func (b *board) load(p *Position) error {
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
	b.unitProv = fill(b.unitProv, len(p.Units), 0)
	b.unitPow = fill(b.unitPow, len(p.Units), 0)
	b.disPow = fill(b.disPow, len(p.Dislodged), 0)
	for i, u := range p.Units {
		pw, pi, err := checkUnit(m, u, "unit")
		if err != nil {
			return err
		}
		if b.unitAt[pi] >= 0 {
			return fmt.Errorf("two units in %s", u.Loc.Province)
		}
		b.unitAt[pi], b.unitProv[i], b.unitPow[i] = i, pi, pw
	}
	for i, d := range p.Dislodged {
		pw, pi, err := checkUnit(m, d.Unit, "dislodged unit")
		if err != nil {
			return err
		}
		if b.disAt[pi] >= 0 {
			return fmt.Errorf("two dislodged units in %s", d.Loc.Province)
		}
		b.disAt[pi], b.disPow[i] = i, pw
		if d.AttackerFrom != "" {
			if _, ok := m.provIdx[d.AttackerFrom]; !ok {
				return fmt.Errorf("dislodged unit in %s: unknown attacker province %q", d.Loc.Province, d.AttackerFrom)
			}
		}
	}
	if len(p.Dislodged) > 0 && p.Phase.Type != Retreats {
		return fmt.Errorf("dislodged units outside a retreat phase")
	}
	for _, s := range p.Standoffs {
		if _, ok := m.provIdx[s]; !ok {
			return fmt.Errorf("unknown standoff province %q", s)
		}
	}
	for sc, pw := range p.Owners {
		pi, ok := m.provIdx[sc]
		if !ok || !m.Provinces[pi].SupplyCenter {
			return fmt.Errorf("%q is not a supply centre", sc)
		}
		pwi, ok := m.powerIdx[pw]
		if !ok {
			return fmt.Errorf("centre %s owned by unknown power %q", sc, pw)
		}
		b.owner[pi] = pwi
	}
	return nil
}

// checkUnit checks that u may stand where it stands and returns its power
// and province.
func checkUnit(m *Map, u Unit, what string) (int, int, error) {
	pw, ok := m.powerIdx[u.Power]
	if !ok {
		return 0, 0, fmt.Errorf("%s of unknown power %q", what, u.Power)
	}
	pi, ok := m.provIdx[u.Loc.Province]
	if !ok {
		return 0, 0, fmt.Errorf("%s in unknown province %q", what, u.Loc.Province)
	}
	pr := &m.Provinces[pi]
	switch u.Type {
	case orders.Army:
		if pr.Kind == Sea {
			return 0, 0, fmt.Errorf("%s: an army cannot stand in %s", what, pr.ID)
		}
		if u.Loc.Coast != "" {
			return 0, 0, fmt.Errorf("%s: an army has no coast", what)
		}
	case orders.Fleet:
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

// nextFrom starts the next position: pos's fields and its own owners map.
// The phase then adds the units with addUnit, in any order, and finishes
// them with placeUnits.
func (b *board) nextFrom() *Position {
	next := *b.pos
	next.Units, next.Dislodged, next.Standoffs = nil, nil, nil
	if b.pos.Owners == nil {
		next.Owners = map[string]string{}
	} else {
		next.Owners = maps.Clone(b.pos.Owners)
	}
	b.pend, b.pendProv, b.pendPow = b.pend[:0], b.pendProv[:0], b.pendPow[:0]
	return &next
}

// addUnit adds a unit of the next position, in province prov, of power pow.
func (b *board) addUnit(u Unit, prov, pow int) {
	b.pend = append(b.pend, u)
	b.pendProv = append(b.pendProv, prov)
	b.pendPow = append(b.pendPow, pow)
}

// placeUnits sets the next position's units, in province order as
// Position.SortUnits leaves them, and nextProv and nextPow beside them.
// Units stand in different provinces, so each goes to its province's slot;
// should two share one (retreat options given with a position are taken
// as they are), a stable sort orders them.
func (b *board) placeUnits(next *Position) {
	n, np := len(b.pend), len(b.m.Provinces)
	b.slot = fill(b.slot, np, -1)
	order, shared := b.order[:0], false
	for k, p := range b.pendProv {
		if b.slot[p] >= 0 {
			shared = true
			break
		}
		b.slot[p] = k
	}
	if !shared {
		for _, k := range b.slot {
			if k >= 0 {
				order = append(order, k)
			}
		}
	} else {
		for k := range b.pend {
			order = append(order, k)
		}
		pr := b.pendProv
		for i := 1; i < n; i++ {
			for j := i; j > 0 && pr[order[j]] < pr[order[j-1]]; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
	}
	b.order = order
	next.Units = make([]Unit, n)
	b.nextProv, b.nextPow = fill(b.nextProv, n, 0), fill(b.nextPow, n, 0)
	for i, k := range order {
		next.Units[i] = b.pend[k]
		b.nextProv[i], b.nextPow[i] = b.pendProv[k], b.pendPow[k]
	}
	clear(b.pend) // the pool keeps no strings alive
}

// appendUnitName appends unit i of the position as "A Mun" or "F StP/sc".
func (b *board) appendUnitName(t []byte, i int) []byte {
	u := &b.pos.Units[i]
	if u.Type == orders.Fleet {
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
func (b *board) setTexts(res *Result) {
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
func (b *board) formatOrders(ords []PowerOrder) {
	if cap(b.spans) < len(ords) {
		b.spans = make([]span, len(ords))
	}
	b.spans = b.spans[:len(ords)]
	b.text = b.text[:0]
	for k := range ords {
		t0 := len(b.text)
		b.text = orders.AppendFormat(b.text, ords[k].Order, b.m.lex)
		b.spans[k] = span{t0, len(b.text), -1, -1}
	}
}

// powerOf returns the index of a power id, -1 when unknown.
func (b *board) powerOf(id string) int {
	if i, ok := b.m.powerIdx[id]; ok {
		return i
	}
	return -1
}
