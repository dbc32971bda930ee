package diplomacy

import (
	"fmt"
	"maps"
	"math/bits"
)

func (b *resolver) retreats(ords []PowerOrder) *Result {
	m, pos := b.m, b.pos
	res := b.newResult(len(ords))
	nd := len(pos.Dislodged)
	b.keys = fill(b.keys, nd, -1)
	chosen := b.keys // order index per dislodged unit, -1 none
	target := make([]string, nd)
	b.conflict = fillBool(b.conflict, nd)
	conflict := b.conflict
	find := func(prov string) int {
		for i := range pos.Dislodged {
			if pos.Dislodged[i].Loc.Province == prov {
				return i
			}
		}
		return -1
	}
	b.formatOrders(ords)
	for k := range ords {
		po := &ords[k]
		o := &po.Order
		or := &res.Orders[k]
		or.Power, or.Order = po.Power, &po.Order
		illegal := func(format string, a ...any) { or.Outcome, or.Reason = Illegal, fmt.Sprintf(format, a...) }
		if o.Kind != Retreat && o.Kind != Disband {
			illegal("only retreats and disbands are ordered in a retreat phase") // DATC 6.H.1-3
			continue
		}
		i := find(o.Loc.Province)
		if i < 0 {
			if pi, ok := m.prov(o.Loc.Province); ok && b.unitAt[pi] >= 0 {
				illegal("%s was not dislodged", m.LocName(o.Loc)) // DATC 6.H.4
			} else {
				illegal("there is no dislodged unit in %s", m.LocName(o.Loc))
			}
			continue
		}
		d := &pos.Dislodged[i]
		if d.Power != po.Power {
			illegal("%s belongs to %s", m.UnitName(d.Unit), m.PowerName(d.Power))
			continue
		}
		to := ""
		if o.Kind == Retreat {
			t, why := retreatTarget(m, *d, o.Target)
			if why != "" {
				illegal("%s", why)
				continue
			}
			to = t
		}
		if chosen[i] >= 0 {
			prev := &ords[chosen[i]].Order
			if prev.Kind != o.Kind || target[i] != to {
				conflict[i] = true
			}
			or.Outcome = dup
			continue
		}
		chosen[i], target[i] = k, to
	}
	// Where each retreat goes; two or more to one province all disband.
	count := map[string]int{}
	for i := range pos.Dislodged {
		if chosen[i] >= 0 && !conflict[i] && target[i] != "" {
			count[provOf(target[i])]++
		}
	}
	next := b.nextFrom(res)
	for i := range pos.Units {
		b.addUnit(i, -1, b.unitProv[i], b.unitPow[i])
	}
	for i, d := range pos.Dislodged {
		k := chosen[i]
		switch {
		case k < 0 || conflict[i]:
			res.Disbanded = append(res.Disbanded, d.Unit)
		case target[i] == "":
			res.Orders[k].Outcome = Succeeded
			res.Disbanded = append(res.Disbanded, d.Unit)
		case count[provOf(target[i])] > 1:
			var others []string
			for j, e := range pos.Dislodged {
				if j != i && chosen[j] >= 0 && !conflict[j] && provOf(target[j]) == provOf(target[i]) {
					others = append(others, m.UnitName(e.Unit))
				}
			}
			res.Orders[k].Outcome = Failed
			res.Orders[k].Reason = "bounced with " + joinAnd(others) + ": disbanded" // DATC 6.H.7
			res.Disbanded = append(res.Disbanded, d.Unit)
		default:
			res.Orders[k].Outcome = Succeeded
			l := m.locIdx[target[i]]
			b.addUnit(len(pos.Units)+i, l, m.locs[l].prov, b.disPow[i])
		}
	}
	for k := range res.Orders {
		if res.Orders[k].Outcome != dup {
			continue
		}
		i := find(ords[k].Order.Loc.Province)
		if conflict[i] {
			res.Orders[k].Outcome, res.Orders[k].Reason = Illegal, "the unit was given more than one order: it is disbanded"
			res.Orders[chosen[i]].Outcome, res.Orders[chosen[i]].Reason = Illegal, "the unit was given more than one order: it is disbanded"
		} else {
			res.Orders[k].Outcome, res.Orders[k].Reason = res.Orders[chosen[i]].Outcome, res.Orders[chosen[i]].Reason
		}
	}
	b.setTexts(res)
	b.placeUnits(next, res)
	res.Next = next
	return res
}

// retreatTarget checks a retreat destination against the unit's options and
// returns the location ("spa/nc" or "bur").
func retreatTarget(m *Map, d Dislodged, t Location) (string, string) {
	to, ok := m.prov(t.Province)
	if !ok {
		return "", fmt.Sprintf("unknown province %q", t.Province)
	}
	loc := m.Provinces[to].ID
	if d.Type == Fleet && len(m.Provinces[to].Coasts) > 0 {
		pi := m.provIdx[d.Loc.Province]
		from, _ := m.locOf(pi, d.Loc.Coast)
		c := &moveCheck{m: m}
		l, why := c.fleetTarget(from, to, t.Coast)
		if why != "" {
			return "", why
		}
		loc = m.locName(l)
	}
	for _, o := range d.Options {
		if o == loc {
			return loc, ""
		}
	}
	if len(d.Options) == 0 {
		return "", fmt.Sprintf("%s cannot retreat anywhere: it is disbanded", m.UnitName(d.Unit))
	}
	return "", fmt.Sprintf("%s cannot retreat to %s (it may retreat to %s)", m.UnitName(d.Unit), m.LocName(t), m.optionNames(d.Options))
}

func (m *Map) optionNames(opts []string) string {
	var names []string
	for _, o := range opts {
		p, c := splitLoc(o)
		names = append(names, m.LocName(Location{Province: p, Coast: c}))
	}
	return joinAnd(names)
}

func splitLoc(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func provOf(s string) string { p, _ := splitLoc(s); return p }

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := ""
	for i, x := range s {
		switch {
		case i == 0:
		case i == len(s)-1:
			out += " and "
		default:
			out += ", "
		}
		out += x
	}
	return out
}

// Owed returns, for each power with adjustments to make in pos (which must
// have up-to-date owners), its builds (positive) or disbands (negative).
// Builds are capped by the vacant owned home centres.
func Owed(pos *Position) map[string]int {
	m := pos.Map
	centres := pos.CentreCount()
	units := pos.UnitCount()
	out := map[string]int{}
	for _, pw := range m.Powers {
		d := centres[pw.ID] - units[pw.ID]
		if d > 0 {
			free := len(freeHomes(pos, pw.ID))
			if d > free {
				d = free
			}
		}
		if d != 0 {
			out[pw.ID] = d
		}
	}
	return out
}

// freeHomes lists a power's owned, vacant build sites: its home centres
// (every centre under BuildAnywhere).
func freeHomes(pos *Position, power string) []string {
	var out []string
	for _, h := range pos.Map.BuildSites(power) {
		if pos.Owners[h] != power {
			continue
		}
		if _, _, _, ok := pos.UnitAt(h); ok {
			continue
		}
		out = append(out, h)
	}
	return out
}

func (b *resolver) adjustments(ords []PowerOrder) *Result {
	m, pos := b.m, b.pos
	np, npw := len(m.Provinces), len(m.Powers)
	res := b.newResult(len(ords))
	// Per power: centres, units, owed (as Owed), built, disbanded.
	b.counts = fill(b.counts, 5*npw, 0)
	centres, units, owed := b.counts[:npw], b.counts[npw:2*npw], b.counts[2*npw:3*npw]
	built, disbanded := b.counts[3*npw:4*npw], b.counts[4*npw:]
	for _, pw := range b.owner {
		if pw >= 0 {
			centres[pw]++
		}
	}
	for _, pw := range b.unitPow {
		units[pw]++
	}
	for pw := range owed {
		owed[pw] = owedOf(m, pw, centres[pw], units[pw], b.owner, b.unitAt)
	}
	// The builds' list in one allocation: no more than the builds ordered
	// or owed.
	nb, owedBuilds := 0, 0
	for k := range ords {
		if ords[k].Order.Kind == Build {
			nb++
		}
	}
	for _, d := range owed {
		owedBuilds += max(d, 0)
	}
	if nb = min(nb, owedBuilds); nb > 0 {
		res.Built = make([]Unit, 0, nb)
	}
	b.used = fillBool(b.used, np)
	b.removed = fillBool(b.removed, np)
	usedHome, removed := b.used, b.removed // by province
	b.formatOrders(ords)
	for k := range ords {
		po := &ords[k]
		o := &po.Order
		or := &res.Orders[k]
		or.Power, or.Order = po.Power, &po.Order
		illegal := func(format string, a ...any) { or.Outcome, or.Reason = Illegal, fmt.Sprintf(format, a...) }
		failed := func(format string, a ...any) { or.Outcome, or.Reason = Failed, fmt.Sprintf(format, a...) }
		pw := b.powerOf(po.Power)
		diff := 0
		if pw >= 0 {
			diff = centres[pw] - units[pw]
		}
		switch o.Kind {
		case Build, Waive:
			if diff <= 0 {
				illegal("%s has no builds", m.PowerName(po.Power))
				continue
			}
			if built[pw] >= owed[pw] {
				failed("%s has no builds left (%d owed)", m.PowerName(po.Power), owed[pw]) // DATC 6.I.1
				continue
			}
			if o.Kind == Waive {
				built[pw]++
				or.Outcome = Succeeded
				continue
			}
			pi, ok := m.prov(o.Loc.Province)
			if !ok {
				illegal("unknown province %q", o.Loc.Province)
				continue
			}
			p := &m.Provinces[pi]
			switch {
			case m.BuildAnywhere && !p.SupplyCenter:
				illegal("%s is not a supply centre", p.Abbrev) // Build Anywhere: any owned centre
				continue
			case !m.BuildAnywhere && p.Home != po.Power:
				illegal("%s is not a home centre of %s", p.Abbrev, m.PowerName(po.Power)) // DATC 6.I.6
				continue
			case b.owner[pi] != pw:
				illegal("%s does not own %s", m.PowerName(po.Power), p.Abbrev) // DATC 6.I.5
				continue
			}
			if b.unitAt[pi] >= 0 {
				illegal("%s is occupied", p.Abbrev) // DATC 6.I.3, 6.I.4
				continue
			}
			if usedHome[pi] {
				failed("a unit is already built in %s", p.Abbrev) // DATC 6.I.7
				continue
			}
			u := Unit{Power: po.Power, Type: o.Unit, Loc: Location{Province: p.ID}}
			switch o.Unit {
			case Army:
				if p.Kind != Land && p.Kind != Coast && p.Kind != Archipelago {
					illegal("an army cannot stand in %s", p.Abbrev)
					continue
				}
			case Fleet:
				if p.Kind == Land {
					illegal("a fleet cannot be built in %s", p.Abbrev) // DATC 6.I.2
					continue
				}
				if len(p.Coasts) > 0 {
					if o.Loc.Coast == "" {
						illegal("say which coast of %s (%s)", p.Abbrev, coastList(*p)) // DATC 6.B.14
						continue
					}
					if _, ok := m.locOf(pi, o.Loc.Coast); !ok {
						illegal("%s has no coast %q", p.Abbrev, o.Loc.Coast)
						continue
					}
					u.Loc.Coast = o.Loc.Coast
				}
			default:
				// DATC 4.C.3: an omitted type builds an army inland, a fleet
				// where a coast is named, and fails otherwise.
				switch {
				case p.Kind == Land:
					u.Type = Army
				case o.Loc.Coast != "" && len(p.Coasts) > 0:
					if _, ok := m.locOf(pi, o.Loc.Coast); !ok {
						illegal("%s has no coast %q", p.Abbrev, o.Loc.Coast)
						continue
					}
					u.Type, u.Loc.Coast = Fleet, o.Loc.Coast
				default:
					illegal("say whether to build an army or a fleet")
					continue
				}
			}
			usedHome[pi] = true
			built[pw]++
			or.Outcome = Succeeded
			res.Built = append(res.Built, u)
		case Disband:
			if diff >= 0 {
				illegal("%s has no disbands to make", m.PowerName(po.Power))
				continue
			}
			pi, ok := m.prov(o.Loc.Province)
			if !ok || b.unitAt[pi] < 0 {
				illegal("there is no unit in %s", m.LocName(o.Loc)) // DATC 6.J.1
				continue
			}
			if owner := pos.Units[b.unitAt[pi]].Power; owner != po.Power {
				illegal("the unit in %s belongs to %s", m.LocName(o.Loc), m.PowerName(owner))
				continue
			}
			if removed[pi] {
				failed("the unit in %s is already disbanded", m.LocName(o.Loc)) // DATC 6.J.2
				continue
			}
			if disbanded[pw] >= -diff {
				failed("%s has no disbands left (%d owed)", m.PowerName(po.Power), -diff) // DATC 6.J.1
				continue
			}
			removed[pi] = true
			disbanded[pw]++
			or.Outcome = Succeeded
		default:
			illegal("only builds, waives and disbands are ordered in an adjustment phase")
		}
	}
	// Civil disorder (2023 rules, DATC 6.J): missing disbands remove the
	// units farthest from the power's owned centres; missing builds are waived.
	for pw := range m.Powers {
		if need := units[pw] - centres[pw] - disbanded[pw]; need > 0 {
			b.civilDisorder(pw, need)
		}
	}
	next := b.nextFrom(res)
	nd := 0
	for _, pi := range b.unitProv {
		if removed[pi] {
			nd++
		}
	}
	if nd > 0 {
		res.Disbanded = make([]Unit, 0, nd) // one allocation, not one per doubling
	}
	for j, u := range pos.Units {
		if removed[b.unitProv[j]] {
			res.Disbanded = append(res.Disbanded, u)
			continue
		}
		b.addUnit(j, -1, b.unitProv[j], b.unitPow[j])
	}
	for j, u := range res.Built {
		b.addUnit(len(pos.Units)+len(pos.Dislodged)+j, -1, m.provIdx[u.Loc.Province], m.powerIdx[u.Power])
	}
	b.setTexts(res)
	b.placeUnits(next, res)
	res.Next = next
	return res
}

// owedOf is Owed for one power, from the owner of every province and the
// unit in it.
func owedOf(m *Map, pw, centres, units int, owner, unitAt []int) int {
	d := centres - units
	if d > 0 {
		free := 0
		for _, h := range m.buildSites(pw) {
			if owner[h] == pw && unitAt[h] < 0 {
				free++
			}
		}
		d = min(d, free)
	}
	return d
}

// civilDisorder removes n units of power pw not yet removed (2023 rules):
// greatest distance to an owned supply centre first, counting moves over
// land and sea for both unit types; on equal distance fleets before
// armies, then by the English province name.
func (b *resolver) civilDisorder(pw, n int) {
	m, pos := b.m, b.pos
	cand := b.cand[:0]
	var left bitset // provinces of the candidates not yet reached
	for j := range pos.Units {
		if b.unitPow[j] == pw && !b.removed[b.unitProv[j]] {
			cand = append(cand, j)
			left.set(b.unitProv[j])
		}
	}
	b.cand = cand
	// Distance from each candidate's province to the nearest owned centre:
	// a breadth-first search one ring at a time, as bit sets, that stops
	// once every candidate is reached (-1: never).
	b.dist = resize(b.dist, len(m.Provinces))
	dist := b.dist
	var front bitset
	for p, o := range b.owner {
		if o == pw {
			front.set(p)
		}
	}
	for _, j := range cand {
		dist[b.unitProv[j]] = -1
	}
	seen := front
	for d := 0; left != (bitset{}) && front != (bitset{}); d++ {
		var ring bitset
		for w, x := range front {
			for h := x & left[w]; h != 0; h &= h - 1 {
				dist[w<<6|bits.TrailingZeros64(h)] = d
			}
			left[w] &^= x
			for ; x != 0; x &= x - 1 {
				p := w<<6 | bits.TrailingZeros64(x)
				ring = ring.or(m.army[p].or(m.seaNear[p]))
			}
		}
		front = ring.minus(seen)
		seen = seen.or(front)
	}
	d := func(j int) int {
		if x := dist[b.unitProv[j]]; x >= 0 {
			return x
		}
		return 1 << 20 // no owned centre reachable: farthest
	}
	first := func(x, y int) bool {
		if dx, dy := d(x), d(y); dx != dy {
			return dx > dy
		}
		if tx, ty := pos.Units[x].Type, pos.Units[y].Type; tx != ty {
			return tx == Fleet
		}
		return m.Provinces[b.unitProv[x]].Full < m.Provinces[b.unitProv[y]].Full
	}
	for i := 1; i < len(cand); i++ { // stable
		for j := i; j > 0 && first(cand[j], cand[j-1]); j-- {
			cand[j], cand[j-1] = cand[j-1], cand[j]
		}
	}
	for _, j := range cand[:min(n, len(cand))] {
		b.removed[b.unitProv[j]] = true
	}
}

// advance sets res.Next to the following phase: a retreat phase only when a
// unit was dislodged, centre ownership after Fall (after its retreats), an
// adjustment phase only when some power must build or disband.
func (b *resolver) advance(res *Result) {
	next := res.Next
	m := b.m
	ph := b.pos.Phase
	npw := len(m.Powers)
	b.alive = fillBool(b.alive, 2*npw)
	before, after := b.alive[:npw], b.alive[npw:]
	for _, pw := range b.unitPow {
		before[pw] = true
	}
	for _, pw := range b.disPow {
		before[pw] = true
	}
	captured := false // a centre changed hands
	b.nextOwner = append(b.nextOwner[:0], b.owner...)
	owner := b.nextOwner
	switch {
	case ph.Type == Movement && len(next.Dislodged) > 0:
		next.Phase = Phase{ph.Season, ph.Year, Retreats}
	case ph.Season == Spring:
		next.Phase = Phase{Fall, m.fallYear(ph.Year), Movement}
		next.Standoffs = nil
	case ph.Season == Fall:
		next.Standoffs = nil
		shared := true
		for k, u := range next.Units {
			p, pw := b.nextProv[k], b.nextPow[k]
			if m.Provinces[p].SupplyCenter && owner[p] != pw {
				owner[p] = pw
				if shared {
					next.Owners, shared = maps.Clone(next.Owners), false
				}
				captured = true
				next.Owners[m.Provinces[p].ID] = u.Power
			}
		}
		res.Owners = next.Owners
		// Centres and units per power after the year, and who owes what
		// (as Owed).
		b.counts = fill(b.counts, 2*npw, 0)
		centres, units := b.counts[:npw], b.counts[npw:]
		for _, pw := range owner {
			if pw >= 0 {
				centres[pw]++
			}
		}
		b.dist = fill(b.dist, len(m.Provinces), -1)
		nextAt := b.dist // province: unit of the next position
		for k, pw := range b.nextPow {
			units[pw]++
			nextAt[b.nextProv[k]] = k
		}
		var owed map[string]int
		for pw := range m.Powers {
			if d := owedOf(m, pw, centres[pw], units[pw], owner, nextAt); d != 0 {
				if owed == nil {
					owed = map[string]int{}
				}
				owed[m.Powers[pw].ID] = d
			}
		}
		// A solo victory: the most centres at or over the mark. Two
		// powers can pass it together only on a map whose mark is below
		// a majority (Youngstown Redux); on equal counts nobody wins and
		// the game goes on.
		best, bestN, tied := "", 0, false
		for pw, n := range centres {
			if n >= m.Victory && n >= bestN {
				tied = n == bestN
				best, bestN = m.Powers[pw].ID, n
			}
		}
		if tied {
			best = ""
		}
		res.Winner = best
		if len(owed) > 0 {
			next.Phase = Phase{Winter, ph.Year, Adjustments}
			res.Adjustments = owed
		} else {
			next.Phase = Phase{Spring, m.springYear(ph.Year), Movement}
		}
	default: // Winter
		next.Phase = Phase{Spring, m.springYear(ph.Year), Movement}
	}
	for _, pw := range b.nextPow {
		after[pw] = true
	}
	for i := range next.Dislodged {
		after[b.powerOf(next.Dislodged[i].Power)] = true
	}
	// So far before and after say who has units. A power with units after
	// the phase is not eliminated, nor one without units before or after
	// whose centres stayed as they were; only when another is there are
	// the centres read.
	for pw := range m.Powers {
		if !after[pw] && (before[pw] || captured) {
			for _, pw := range b.owner {
				if pw >= 0 {
					before[pw] = true
				}
			}
			for _, pw := range owner {
				if pw >= 0 {
					after[pw] = true
				}
			}
			break
		}
	}
	for pw := range m.Powers {
		if before[pw] && !after[pw] {
			res.Eliminated = append(res.Eliminated, m.Powers[pw].ID)
		}
	}
}

// alive reports the powers that still have units (on the board or
// dislodged) or centres.
func alive(pos *Position) map[string]bool {
	out := map[string]bool{}
	for _, u := range pos.Units {
		out[u.Power] = true
	}
	for _, d := range pos.Dislodged {
		out[d.Power] = true
	}
	for _, pw := range pos.Owners {
		out[pw] = true
	}
	return out
}
