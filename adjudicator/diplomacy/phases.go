package diplomacy

import (
	"fmt"
	"sort"

	"pbemd/orders"
)

func adjudicateRetreats(pos *Position, ords []PowerOrder) *Result {
	m := pos.Map
	res := &Result{Phase: pos.Phase, Orders: make([]OrderResult, len(ords))}
	nd := len(pos.Dislodged)
	chosen := make([]int, nd) // order index per dislodged unit, -1 none
	target := make([]string, nd)
	for i := range chosen {
		chosen[i] = -1
	}
	conflict := make([]bool, nd)
	find := func(prov string) int {
		for i, d := range pos.Dislodged {
			if d.Loc.Province == prov {
				return i
			}
		}
		return -1
	}
	for k, po := range ords {
		o := po.Order
		or := &res.Orders[k]
		*or = OrderResult{Power: po.Power, Order: o, Text: m.FormatOrder(o)}
		illegal := func(format string, a ...any) { or.Outcome, or.Reason = Illegal, fmt.Sprintf(format, a...) }
		if o.Kind != orders.Retreat && o.Kind != orders.Disband {
			illegal("only retreats and disbands are ordered in a retreat phase") // DATC 6.H.1-3
			continue
		}
		i := find(o.Loc.Province)
		if i < 0 {
			if _, _, _, ok := pos.UnitAt(o.Loc.Province); ok {
				illegal("%s was not dislodged", m.LocName(o.Loc)) // DATC 6.H.4
			} else {
				illegal("there is no dislodged unit in %s", m.LocName(o.Loc))
			}
			continue
		}
		d := pos.Dislodged[i]
		if d.Power != po.Power {
			illegal("%s belongs to %s", m.UnitName(d.Unit), m.PowerName(d.Power))
			continue
		}
		to := ""
		if o.Kind == orders.Retreat {
			t, why := retreatTarget(m, d, o.Target)
			if why != "" {
				illegal("%s", why)
				continue
			}
			to = t
		}
		if chosen[i] >= 0 {
			prev := ords[chosen[i]].Order
			if prev.Kind != o.Kind || target[i] != to {
				conflict[i] = true
			}
			or.Outcome = "dup"
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
	next := pos.Clone()
	next.Dislodged, next.Standoffs = nil, nil
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
			u := d.Unit
			p, c := splitLoc(target[i])
			u.Loc = orders.Location{Province: p, Coast: c}
			next.Units = append(next.Units, u)
		}
	}
	for k := range res.Orders {
		if res.Orders[k].Outcome != "dup" {
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
	next.SortUnits()
	res.Next = next
	return res
}

// retreatTarget checks a retreat destination against the unit's options and
// returns the location ("spa/nc" or "bur").
func retreatTarget(m *Map, d Dislodged, t orders.Location) (string, string) {
	to, ok := m.provIdx[t.Province]
	if !ok {
		return "", fmt.Sprintf("unknown province %q", t.Province)
	}
	loc := m.Provinces[to].ID
	if d.Type == orders.Fleet && len(m.Provinces[to].Coasts) > 0 {
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
		names = append(names, m.LocName(orders.Location{Province: p, Coast: c}))
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

// freeHomes lists a power's owned, vacant home centres.
func freeHomes(pos *Position, power string) []string {
	var out []string
	for _, h := range pos.Map.HomeCentres(power) {
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

func adjudicateAdjustments(pos *Position, ords []PowerOrder) *Result {
	m := pos.Map
	res := &Result{Phase: pos.Phase, Orders: make([]OrderResult, len(ords))}
	owed := Owed(pos)
	centres := pos.CentreCount()
	units := pos.UnitCount()
	next := pos.Clone()
	built := map[string]int{}
	removed := map[string]bool{} // province of a unit removed
	disbanded := map[string]int{}
	usedHome := map[string]bool{}
	for k, po := range ords {
		o := po.Order
		or := &res.Orders[k]
		*or = OrderResult{Power: po.Power, Order: o, Text: m.FormatOrder(o)}
		illegal := func(format string, a ...any) { or.Outcome, or.Reason = Illegal, fmt.Sprintf(format, a...) }
		failed := func(format string, a ...any) { or.Outcome, or.Reason = Failed, fmt.Sprintf(format, a...) }
		diff := centres[po.Power] - units[po.Power]
		switch o.Kind {
		case orders.Build, orders.Waive:
			if diff <= 0 {
				illegal("%s has no builds", m.PowerName(po.Power))
				continue
			}
			if built[po.Power] >= owed[po.Power] {
				failed("%s has no builds left (%d owed)", m.PowerName(po.Power), owed[po.Power]) // DATC 6.I.1
				continue
			}
			if o.Kind == orders.Waive {
				built[po.Power]++
				or.Outcome = Succeeded
				continue
			}
			pi, ok := m.provIdx[o.Loc.Province]
			if !ok {
				illegal("unknown province %q", o.Loc.Province)
				continue
			}
			p := m.Provinces[pi]
			switch {
			case p.Home != po.Power:
				illegal("%s is not a home centre of %s", p.Abbrev, m.PowerName(po.Power)) // DATC 6.I.6
				continue
			case pos.Owners[p.ID] != po.Power:
				illegal("%s does not own %s", m.PowerName(po.Power), p.Abbrev) // DATC 6.I.5
				continue
			}
			if _, _, _, occ := pos.UnitAt(p.ID); occ {
				illegal("%s is occupied", p.Abbrev) // DATC 6.I.3, 6.I.4
				continue
			}
			if usedHome[p.ID] {
				failed("a unit is already built in %s", p.Abbrev) // DATC 6.I.7
				continue
			}
			u := Unit{Power: po.Power, Type: o.Unit, Loc: orders.Location{Province: p.ID}}
			switch o.Unit {
			case orders.Army:
				if p.Kind != Land && p.Kind != Coast && p.Kind != Archipelago {
					illegal("an army cannot stand in %s", p.Abbrev)
					continue
				}
			case orders.Fleet:
				if p.Kind == Land {
					illegal("a fleet cannot be built in %s", p.Abbrev) // DATC 6.I.2
					continue
				}
				if len(p.Coasts) > 0 {
					if o.Loc.Coast == "" {
						illegal("say which coast of %s (%s)", p.Abbrev, coastList(p)) // DATC 6.B.14
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
					u.Type = orders.Army
				case o.Loc.Coast != "" && len(p.Coasts) > 0:
					if _, ok := m.locOf(pi, o.Loc.Coast); !ok {
						illegal("%s has no coast %q", p.Abbrev, o.Loc.Coast)
						continue
					}
					u.Type, u.Loc.Coast = orders.Fleet, o.Loc.Coast
				default:
					illegal("say whether to build an army or a fleet")
					continue
				}
			}
			usedHome[p.ID] = true
			built[po.Power]++
			or.Outcome = Succeeded
			next.Units = append(next.Units, u)
			res.Built = append(res.Built, u)
		case orders.Disband:
			if diff >= 0 {
				illegal("%s has no disbands to make", m.PowerName(po.Power))
				continue
			}
			ut, pw, _, ok := pos.UnitAt(o.Loc.Province)
			if !ok {
				illegal("there is no unit in %s", m.LocName(o.Loc)) // DATC 6.J.1
				continue
			}
			if pw != po.Power {
				illegal("the unit in %s belongs to %s", m.LocName(o.Loc), m.PowerName(pw))
				continue
			}
			if removed[o.Loc.Province] {
				failed("the unit in %s is already disbanded", m.LocName(o.Loc)) // DATC 6.J.2
				continue
			}
			if disbanded[po.Power] >= -diff {
				failed("%s has no disbands left (%d owed)", m.PowerName(po.Power), -diff) // DATC 6.J.1
				continue
			}
			_ = ut
			removed[o.Loc.Province] = true
			disbanded[po.Power]++
			or.Outcome = Succeeded
		default:
			illegal("only builds, waives and disbands are ordered in an adjustment phase")
		}
	}
	// Civil disorder (2023 rules, DATC 6.J): missing disbands remove the
	// units farthest from the power's owned centres; missing builds are waived.
	for _, pw := range m.Powers {
		need := units[pw.ID] - centres[pw.ID] - disbanded[pw.ID]
		if need <= 0 {
			continue
		}
		for _, u := range civilDisorder(pos, pw.ID, removed, need) {
			removed[u.Loc.Province] = true
		}
	}
	kept := next.Units[:0]
	for _, u := range next.Units {
		if removed[u.Loc.Province] && !isBuilt(res.Built, u) {
			res.Disbanded = append(res.Disbanded, u)
			continue
		}
		kept = append(kept, u)
	}
	next.Units = kept
	next.SortUnits()
	res.Next = next
	return res
}

func isBuilt(b []Unit, u Unit) bool {
	for _, x := range b {
		if x == u {
			return true
		}
	}
	return false
}

// civilDisorder picks n units of a power to remove (2023 rules): greatest
// distance to an owned supply centre first, counting moves over land and sea
// for both unit types; on equal distance fleets before armies, then by the
// English province name.
func civilDisorder(pos *Position, power string, removed map[string]bool, n int) []Unit {
	m := pos.Map
	// Distance from every province to the nearest owned centre (BFS).
	dist := make([]int, len(m.Provinces))
	for i := range dist {
		dist[i] = -1
	}
	var queue []int
	for sc, pw := range pos.Owners {
		if pw == power {
			pi := m.provIdx[sc]
			dist[pi] = 0
			queue = append(queue, pi)
		}
	}
	sort.Ints(queue)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		near := m.army[p].or(m.seaNear[p])
		for q := range m.Provinces {
			if near.has(q) && dist[q] < 0 {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	var cand []Unit
	for _, u := range pos.Units {
		if u.Power == power && !removed[u.Loc.Province] {
			cand = append(cand, u)
		}
	}
	d := func(u Unit) int {
		x := dist[m.provIdx[u.Loc.Province]]
		if x < 0 {
			return 1 << 20 // no owned centre reachable: farthest
		}
		return x
	}
	sort.SliceStable(cand, func(i, j int) bool {
		a, b := cand[i], cand[j]
		if d(a) != d(b) {
			return d(a) > d(b)
		}
		if a.Type != b.Type {
			return a.Type == orders.Fleet
		}
		pa, _ := m.Province(a.Loc.Province)
		pb, _ := m.Province(b.Loc.Province)
		return pa.Full < pb.Full
	})
	if n > len(cand) {
		n = len(cand)
	}
	return cand[:n]
}

// advance sets res.Next to the following phase: a retreat phase only when a
// unit was dislodged, centre ownership after Fall (after its retreats), an
// adjustment phase only when some power must build or disband.
func advance(pos *Position, res *Result) {
	next := res.Next
	m := pos.Map
	before := alive(pos)
	ph := pos.Phase
	switch {
	case ph.Type == Movement && len(next.Dislodged) > 0:
		next.Phase = Phase{ph.Season, ph.Year, Retreats}
	case ph.Season == Spring:
		next.Phase = Phase{Fall, ph.Year, Movement}
		next.Standoffs = nil
	case ph.Season == Fall:
		next.Standoffs = nil
		changed := false
		for _, u := range next.Units {
			pr, _ := m.Province(u.Loc.Province)
			if pr.SupplyCenter && next.Owners[pr.ID] != u.Power {
				next.Owners[pr.ID] = u.Power
				changed = true
			}
		}
		_ = changed
		res.Owners = next.Owners
		owed := Owed(next)
		if w := winner(next); w != "" {
			res.Winner = w
		}
		if len(owed) > 0 {
			next.Phase = Phase{Winter, ph.Year, Adjustments}
			res.Adjustments = owed
		} else {
			next.Phase = Phase{Spring, ph.Year + 1, Movement}
		}
	default: // Winter
		next.Phase = Phase{Spring, ph.Year + 1, Movement}
	}
	after := alive(next)
	for _, pw := range m.Powers {
		if before[pw.ID] && !after[pw.ID] {
			res.Eliminated = append(res.Eliminated, pw.ID)
		}
	}
	next.SortUnits()
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

func winner(pos *Position) string {
	best, bestN := "", 0
	for pw, n := range pos.CentreCount() {
		if n >= pos.Map.Victory && (n > bestN || (n == bestN && pw < best)) {
			best, bestN = pw, n
		}
	}
	return best
}
