package diplomacy

import (
	"fmt"
	"math/bits"
)

// The movement resolver follows DATC v3.0 chapter 5: every order is a
// decision (a move succeeds, a support is given, a convoying fleet stays),
// adjudicated recursively; a dependency cycle is adjudicated with both
// guesses, and when the guesses disagree the backup rule decides: the
// Szykman rule when convoys are in the cycle (DATC 4.A.2), otherwise
// circular movement succeeds (DATC 5.B.9). Convoy decisions call the
// adjudication of their attackers directly, which keeps every cycle a
// single clean cycle (DATC 5.D).
//
// Provinces, locations and units are small integers; per-unit data lives in
// slices, lists are linked through per-unit "next" slices, and adjacency is a
// fixed-size bit set, so a phase allocates a handful of slices.

type decision uint8

const (
	undecided decision = iota
	guessing
	decided
)

type mvUnit struct {
	power  int
	typ    UnitType
	prov   int
	loc    int
	kind   OrderKind // effective order: Hold, Move, SupportHold, SupportMove, Convoy
	dst    int       // Move, SupportMove, Convoy: target province
	dstLoc int       // Move: target location
	aux    int       // SupportHold, SupportMove, Convoy: unit index of the other unit
	coast  bool      // SupportMove: names a coast (the order's Target.Coast; else any)
	convoy bool      // Move: goes by convoy
	valid  bool      // support/convoy matches the other unit's order
	order  int       // index of the order in the input (-1: no order, holds)

	state    decision
	res      bool
	szykman  bool // convoy failed by the Szykman rule
	nextTo   int  // next unit moving to the same province (-1 ends)
	firstSup int  // first unit supporting this one
	nextSup  int  // next unit supporting the same unit
	firstCon int  // first fleet convoying this army
	nextCon  int  // next fleet convoying the same army
}

type mover struct {
	m      *Map
	u      []mvUnit
	unitAt []int // province -> unit index, -1 when empty
	moveTo []int // province -> first unit moving there, -1 when none
	fleets bitset
	deps   []int
}

func (r *mover) resolve(i int) bool {
	u := &r.u[i]
	switch u.state {
	case decided:
		return u.res
	case guessing:
		for _, d := range r.deps {
			if d == i {
				return u.res
			}
		}
		r.deps = append(r.deps, i)
		return u.res
	}
	old := len(r.deps)
	u.res, u.state = false, guessing
	first := r.adjudicate(i)
	if len(r.deps) == old {
		if u.state != decided {
			u.res, u.state = first, decided
		}
		return first
	}
	if r.deps[old] != i {
		r.deps = append(r.deps, i)
		u.res = first
		return first
	}
	// A cycle starting at i: try the other guess.
	for _, d := range r.deps[old:] {
		r.u[d].state = undecided
	}
	u.res, u.state = true, guessing
	second := r.adjudicate(i)
	if first == second {
		for _, d := range r.deps[old:] {
			r.u[d].state = undecided
		}
		r.deps = r.deps[:old]
		u.res, u.state = first, decided
		return first
	}
	r.backup(old)
	return r.resolve(i)
}

// backup applies the backup rule to the cycle in deps[old:].
func (r *mover) backup(old int) {
	cycle := r.deps[old:]
	hasConvoy := false
	for _, d := range cycle {
		if r.u[d].kind == Convoy {
			hasConvoy = true
		}
	}
	for _, d := range cycle {
		u := &r.u[d]
		switch {
		case hasConvoy && u.kind == Convoy:
			// Szykman rule (DATC 4.A.2): the convoying fleets of a
			// paradox hold; their convoy fails.
			u.res, u.state, u.szykman = false, decided, true
		case !hasConvoy && u.kind == Move:
			// Circular movement (DATC 6.C.1): every move succeeds.
			u.res, u.state = true, decided
		default:
			u.state = undecided
		}
	}
	r.deps = r.deps[:old]
}

func (r *mover) adjudicate(i int) bool {
	switch r.u[i].kind {
	case Move:
		return r.adjMove(i)
	case SupportHold, SupportMove:
		return r.adjSupport(i)
	case Convoy:
		return r.adjConvoy(i)
	}
	return true
}

// headToHead returns the unit that i is fighting head-to-head, or -1. A move
// by convoy is never part of a head-to-head battle (DATC 4.A.7).
func (r *mover) headToHead(i int) int {
	u := &r.u[i]
	if u.kind != Move || u.convoy {
		return -1
	}
	j := r.unitAt[u.dst]
	if j < 0 {
		return -1
	}
	v := &r.u[j]
	if v.kind == Move && !v.convoy && v.dst == u.prov {
		return j
	}
	return -1
}

// path reports whether a move has a route: always for a land or sea move,
// and for a move by convoy when a chain of its successful convoying fleets
// links origin and destination.
func (r *mover) path(i int) bool {
	u := &r.u[i]
	if !u.convoy {
		return true
	}
	var avail bitset
	for f := u.firstCon; f >= 0; f = r.u[f].nextCon {
		if r.resolve(f) {
			avail.set(r.u[f].prov)
		}
	}
	return r.m.convoyRoute(u.prov, u.dst, avail)
}

// convoyRoute reports whether a chain of provinces in avail links an army in
// origin with dst.
func (m *Map) convoyRoute(origin, dst int, avail bitset) bool {
	var seen bitset
	front := m.seaNear[origin].and(avail)
	for n := front.first(); n >= 0; n = front.first() {
		front[n>>6] &^= 1 << (uint(n) & 63)
		seen.set(n)
		if m.seaNear[n].has(dst) {
			return true
		}
		front = front.or(m.seaNear[n].and(avail).minus(seen))
	}
	return false
}

func (r *mover) supports(i, notPower int) int {
	n := 0
	for s := r.u[i].firstSup; s >= 0; s = r.u[s].nextSup {
		if r.u[s].power != notPower && r.resolve(s) {
			n++
		}
	}
	return n
}

func (r *mover) attack(i int) int {
	u := &r.u[i]
	if !r.path(i) {
		return 0
	}
	j := r.unitAt[u.dst]
	if j < 0 || (r.headToHead(i) < 0 && r.u[j].kind == Move && r.resolve(j)) {
		return 1 + r.supports(i, -1)
	}
	if r.u[j].power == u.power {
		return 0
	}
	return 1 + r.supports(i, r.u[j].power)
}

func (r *mover) hold(p int) int {
	j := r.unitAt[p]
	if j < 0 {
		return 0
	}
	if r.u[j].kind == Move {
		if r.resolve(j) {
			return 0
		}
		return 1
	}
	return 1 + r.supports(j, -1)
}

func (r *mover) defend(i int) int { return 1 + r.supports(i, -1) }

func (r *mover) prevent(i int) int {
	if !r.path(i) {
		return 0
	}
	if j := r.headToHead(i); j >= 0 && r.resolve(j) {
		return 0
	}
	return 1 + r.supports(i, -1)
}

func (r *mover) adjMove(i int) bool {
	u := &r.u[i]
	att := r.attack(i)
	if att == 0 {
		return false
	}
	if j := r.headToHead(i); j >= 0 {
		if att <= r.defend(j) {
			return false
		}
	} else if att <= r.hold(u.dst) {
		return false
	}
	for k := r.moveTo[u.dst]; k >= 0; k = r.u[k].nextTo {
		if k != i && att <= r.prevent(k) {
			return false
		}
	}
	return true
}

// adjSupport: a support is given unless cut (DATC 5.B.2).
func (r *mover) adjSupport(s int) bool {
	u := &r.u[s]
	for m := r.moveTo[u.prov]; m >= 0; m = r.u[m].nextTo {
		v := &r.u[m]
		if v.power == u.power {
			continue
		}
		if u.kind == SupportMove && v.prov == u.dst {
			continue // the attacked unit cannot cut support for the attack on itself
		}
		if r.path(m) {
			return false
		}
	}
	if u.kind == SupportMove {
		if m := r.unitAt[u.dst]; m >= 0 && r.u[m].kind == Move && r.u[m].dst == u.prov && r.u[m].power != u.power {
			if r.resolve(m) {
				return false // dislodged by the unit it supports an attack on
			}
		}
	}
	return true
}

// adjConvoy: a convoying fleet convoys unless dislodged. Its attackers are
// adjudicated, not resolved (DATC 5.D).
func (r *mover) adjConvoy(f int) bool {
	for m := r.moveTo[r.u[f].prov]; m >= 0; m = r.u[m].nextTo {
		if r.adjMove(m) {
			return false
		}
	}
	return true
}

func trailing(x uint64) int { return bits.TrailingZeros64(x) }

// moveCheck checks movement orders against the board: check (and legal)
// explain why an order cannot be carried out.
type moveCheck struct {
	m      *Map
	unitAt []int
	units  []Unit
	fleets bitset // convoyable provinces holding a fleet
}

// convoyPossible reports whether fleets on the board (without the one in
// province without, -1: none) could convoy an army from one province to
// another.
func (c *moveCheck) convoyPossible(from, to, without int) bool {
	k := c.m.Provinces[to].Kind
	if k != Coast && k != Archipelago {
		return false
	}
	avail := c.fleets
	if without >= 0 && avail.has(without) {
		avail[without>>6] &^= 1 << (uint(without) & 63)
	}
	return c.m.convoyRoute(from, to, avail)
}

// fleetTarget finds the location a fleet at loc reaches in province to,
// given the coast named (or ""). It returns a reason when it cannot.
func (c *moveCheck) fleetTarget(loc, to int, coast string) (int, string) {
	m := c.m
	p := m.Provinces[to]
	if len(p.Coasts) == 0 {
		// DATC 4.B.6: a coast where none matters is ignored.
		if m.fleet[loc].has(to) {
			return to, ""
		}
		return -1, fmt.Sprintf("a fleet in %s cannot reach %s", m.LocName(m.locOrder(loc)), p.Abbrev) + m.reachHint(Fleet, m.locs[loc].prov, loc) // hint.go
	}
	if coast != "" {
		l, ok := m.locOf(to, coast)
		if !ok {
			return -1, fmt.Sprintf("%s has no coast %q", p.Abbrev, coast)
		}
		if !m.fleet[loc].has(l) {
			// DATC 4.B.3: a wrong coast makes the order illegal.
			return -1, fmt.Sprintf("a fleet in %s cannot reach %s", m.LocName(m.locOrder(loc)), m.LocName(m.locOrder(l))) + m.reachHint(Fleet, m.locs[loc].prov, loc)
		}
		return l, ""
	}
	found, n := -1, 0
	for _, l := range m.coastLoc[to] {
		if m.fleet[loc].has(l) {
			found, n = l, n+1
		}
	}
	switch n {
	case 0:
		return -1, fmt.Sprintf("a fleet in %s cannot reach %s", m.LocName(m.locOrder(loc)), p.Abbrev) + m.reachHint(Fleet, m.locs[loc].prov, loc) // hint.go
	case 1:
		return found, "" // DATC 4.B.2: the only possible coast
	}
	return -1, fmt.Sprintf("say which coast of %s (%s)", p.Abbrev, coastList(p))
}

func coastList(p Province) string {
	s := ""
	for i, c := range p.Coasts {
		if i > 0 {
			s += " or "
		}
		s += p.Abbrev + "/" + c
	}
	return s
}

func (m *Map) locOrder(l int) Location {
	return Location{Province: m.Provinces[m.locs[l].prov].ID, Coast: m.locs[l].coast}
}

// canSupportInto reports whether the unit i, in province pi at location
// loc, could move to province to by itself (coasts aside, no convoy): the
// condition for supporting into it.
func (c *moveCheck) canSupportInto(i, pi, loc, to int) bool {
	if c.units[i].Type == Army {
		return c.m.army[pi].has(to)
	}
	return c.m.fleetTo[loc].has(to)
}
