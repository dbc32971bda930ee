package empire

import (
	"fmt"
	"sort"
	"strings"

	"pbemd/adjudicator"
)

// What players see (seed: the public world board and the private planning
// boards). Without fog of war the world board is public: every report shows
// the whole map, every unit, every move and every shot. Hidden even then:
// a power's orders until they are revealed, its bid (only the number of
// strategic turns and who called them are announced), the contents of its
// unit pools (only their number), its production points and savings.
//
// With fog of war (option fog = radius), a power sees the hexes within that
// many hexes of its units; the public report then holds only what every
// power knows anyway (bids, the ceasefire, eliminations, the end), and each
// power's private report shows its map, the units it sees, the moves, shots
// and supply losses it can see, and the battles its units fought.

// sight returns the hexes power p sees, or nil when there is no fog.
func (g *Game) sight(p string) []bool {
	if g.Opts.Fog == 0 {
		return nil
	}
	n := g.World.Hexes()
	vis := make([]bool, n)
	done := map[int]bool{}
	for _, u := range g.Units {
		if u.Owner != p {
			continue
		}
		hs := u.hexes()
		if u.Pooled {
			hs = []int{u.At}
		}
		for _, h := range hs {
			if done[h] {
				continue
			}
			done[h] = true
			for j := 0; j < n; j++ {
				if g.World.g.distance(h, j) <= g.Opts.Fog {
					vis[j] = true
				}
			}
		}
	}
	return vis
}

func seen(vis []bool, h int) bool { return vis == nil || vis[h] }

// seesUnit reports whether a power with sight vis sees unit u.
func seesUnit(vis []bool, viewer string, u *Unit) bool {
	if u.Owner == viewer {
		return true
	}
	if u.Pooled {
		return false
	}
	for _, h := range u.hexes() {
		if seen(vis, h) {
			return true
		}
	}
	return false
}

// renderMap draws the board as text: one line per row of hexes, the
// even-numbered rows (2, 4, …) shifted half a hex; vis limits the units
// shown (nil: all).
func (g *Game) renderMap(viewer string, vis []bool) string {
	w := g.World
	type cell struct {
		owner  string
		n      int
		marker byte
	}
	cells := make([]cell, w.Hexes())
	for _, u := range g.Units {
		if !seesUnit(vis, viewer, u) {
			continue
		}
		for _, h := range u.hexes() {
			c := &cells[h]
			if c.owner != "" && c.owner != u.Owner {
				c.owner = "*"
			} else {
				c.owner = u.Owner
			}
			c.n++
			var m byte
			switch {
			case u.Type.ProducesUnits:
				m = 'F'
			case u.Type.Class == "stationary":
				m = 'B'
			case u.Type.Class == "hq":
				m = 'H'
			}
			if rank(m) > rank(c.marker) {
				c.marker = m
			}
		}
	}
	var b strings.Builder
	b.WriteString("    ")
	for c := 0; c < w.Width(); c++ {
		fmt.Fprintf(&b, " %c  ", 'A'+c)
	}
	b.WriteString("\n")
	for r := 0; r < w.Height(); r++ {
		line := fmt.Sprintf("%3d ", r+1)
		if r%2 == 1 {
			line += "  "
		}
		for c := 0; c < w.Width(); c++ {
			h := r*w.Width() + c
			ce := cells[h]
			var s string
			switch {
			case ce.owner != "":
				letter := "*"
				if ce.owner != "*" {
					letter = letterOf(ce.owner)
				}
				count := "+"
				if ce.n < 10 {
					count = fmt.Sprint(ce.n)
				}
				m := " "
				if ce.marker != 0 {
					m = string(ce.marker)
				}
				s = letter + count + m
			case w.Fragments(h) == 0:
				s = " ~ "
			case !seen(vis, h):
				s = " ? "
			case w.Fragments(h) == 6:
				s = " . "
			default:
				s = fmt.Sprintf(" %d ", w.Fragments(h))
			}
			line += s + " "
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	var letters []string
	for _, p := range g.Powers {
		letters = append(letters, letterOf(p)+" "+p)
	}
	fmt.Fprintf(&b, "Units: the power's letter (%s) and how many (F factory, B base, H headquarters there); land: . (6 fragments), 1-5 shoreline, ~ water", strings.Join(letters, ", "))
	if vis != nil {
		b.WriteString(", ? out of sight")
	}
	b.WriteString(".\n")
	return b.String()
}

func rank(m byte) int {
	switch m {
	case 'F':
		return 3
	case 'B':
		return 2
	case 'H':
		return 1
	}
	return 0
}

// unitList lists the units a viewer sees, power by power.
func (g *Game) unitList(viewer string, vis []bool) string {
	var b strings.Builder
	for _, p := range g.Powers {
		var parts []string
		pooled := 0
		for _, u := range g.Units {
			if u.Owner != p {
				continue
			}
			if u.Pooled && p != viewer {
				pooled++
				continue
			}
			if !seesUnit(vis, viewer, u) {
				continue
			}
			parts = append(parts, g.unitShort(u))
		}
		if pooled > 0 && vis == nil {
			parts = append(parts, fmt.Sprintf("%d in unit pools", pooled))
		}
		if len(parts) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", titleOf(p), strings.Join(parts, ", "))
	}
	return b.String()
}

// unitShort is "RID3 C4", "RAD2 C4-D4", "RIC5 D6 (disabled)", "RID7 pool@C4".
func (g *Game) unitShort(u *Unit) string {
	s := u.Name() + " " + g.posName(u.pos())
	if u.Pooled {
		s = u.Name() + " pool@" + g.World.HexName(u.At)
	}
	if u.Disabled {
		s += " (disabled)"
	}
	if u.Saved > 0 && !u.Pooled {
		s += fmt.Sprintf(" [%d saved]", u.Saved)
	}
	return s
}

// summary is the public picture of the position (Status.Summary).
func (g *Game) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", g.phaseTitle(), g.World.Title)
	fmt.Fprintf(&b, "Settings: %s.\n", g.Opts.describe())
	if g.Opts.Fog == 0 || g.Over {
		b.WriteString(g.scoreLine())
	}
	if g.Over {
		if len(g.Winners) > 0 {
			fmt.Fprintf(&b, "Winner: %s\n", titles(g.Winners))
		} else {
			b.WriteString("The game ended without a winner.\n")
		}
	}
	if g.Opts.Fog > 0 {
		b.WriteString("Fog of war: each power's reports show what it sees.\n")
		return b.String()
	}
	b.WriteString("\n" + g.renderMap("", nil) + "\n" + g.publicUnits())
	return b.String()
}

// publicUnits is the unit list without private details (saved points).
func (g *Game) publicUnits() string {
	var b strings.Builder
	for _, p := range g.Powers {
		var parts []string
		pooled := 0
		for _, u := range g.Units {
			if u.Owner != p {
				continue
			}
			if u.Pooled {
				pooled++
				continue
			}
			s := u.Name() + " " + g.posName(u.pos())
			if u.Disabled {
				s += " (disabled)"
			}
			parts = append(parts, s)
		}
		if pooled > 0 {
			parts = append(parts, fmt.Sprintf("%d in unit pools", pooled))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", titleOf(p), strings.Join(parts, ", "))
		}
	}
	return b.String()
}

func (g *Game) scoreLine() string {
	var parts []string
	for _, p := range g.Powers {
		if g.alive(p) {
			parts = append(parts, fmt.Sprintf("%s %d", titleOf(p), g.score(p)))
		} else {
			parts = append(parts, titleOf(p)+" out")
		}
	}
	return "Production per strategic turn: " + strings.Join(parts, ", ") + "\n"
}

func titles(ps []string) string {
	var out []string
	for _, p := range ps {
		out = append(out, titleOf(p))
	}
	return strings.Join(out, ", ")
}

// ---- phase reports ----

// reporter writes the reports of the phases one Resolve call resolved.
type reporter struct {
	powers []string
	pub    strings.Builder
	priv   map[string]*strings.Builder
}

func newReporter(g *Game) *reporter {
	r := &reporter{powers: g.Powers, priv: map[string]*strings.Builder{}}
	for _, p := range g.Powers {
		r.priv[p] = &strings.Builder{}
	}
	return r
}

// add reports one resolved phase: before is the state before it, after the
// state after it.
func (r *reporter) add(before, after *Game, pr *PhaseResult, sets map[string]*orderSet) {
	fog := before.Opts.Fog > 0
	pub := &r.pub
	fmt.Fprintf(pub, "%s — results\n", pr.Title)
	// visible reports whether power p sees hex h before or after the phase.
	sights := map[string][2][]bool{}
	for _, p := range before.Powers {
		sights[p] = [2][]bool{before.sight(p), after.sight(p)}
	}
	sees := func(p string, hexName string) bool {
		if !fog {
			return true
		}
		h, ok := before.World.ParseHex(hexName)
		return ok && (seen(sights[p][0], h) || seen(sights[p][1], h))
	}
	// event writes a line about a unit of owner at hex: public without fog,
	// else to the owner and to those who see the hex.
	event := func(owner, hex, line string) {
		if !fog {
			pub.WriteString(line + "\n")
			return
		}
		for _, p := range before.Powers {
			if p == owner || sees(p, hex) {
				r.priv[p].WriteString(line + "\n")
			}
		}
	}
	for _, u := range pr.Unread {
		p, _, _ := strings.Cut(u, ": ")
		fmt.Fprintf(r.priv[p], "Not carried out: %s\n", strings.TrimPrefix(u, p+": "))
	}
	// Sacrifices that were not needed: the unit is still there.
	for _, p := range before.Powers {
		if s := sets[p]; s != nil {
			for _, name := range s.sacrifice {
				if after.find(p, name) != nil {
					fmt.Fprintf(r.priv[p], "SACRIFICE %s was not needed (its group had supply): %s is still yours.\n", name, name)
				}
			}
		}
	}
	switch {
	case pr.Deploy != nil:
		d := pr.Deploy
		for _, t := range d.Transformed {
			owner, rest, _ := strings.Cut(t, " ")
			hex := rest[strings.LastIndex(rest, " ")+1:]
			event(owner, hex, fmt.Sprintf("%s: %s (transformed)", titleOf(owner), rest))
		}
		for _, p := range before.Powers {
			if n := d.Pooled[p]; n > 0 && !fog {
				// Without fog the board is public: units leaving it are seen.
				fmt.Fprintf(pub, "%s put %d unit%s into unit pools.\n", titleOf(p), n, plural(n))
			}
		}
		for _, t := range d.PoolRefused {
			owner, rest, _ := strings.Cut(t, " ")
			fmt.Fprintf(r.priv[owner], "Not pooled (no territory of yours in or next to its hex): %s; it stays on the board.\n", rest)
		}
		for _, p := range after.Powers {
			var pooled []string
			for _, u := range after.Units {
				if u.Owner == p && u.Pooled {
					pooled = append(pooled, u.Name()+" (territory at "+after.World.HexName(u.At)+")")
				}
			}
			if len(pooled) > 0 {
				fmt.Fprintf(r.priv[p], "Your unit pools: %s\n", strings.Join(pooled, ", "))
			}
		}
		r.supply(d.Supply, "strategic supply", event)
	case pr.Bids != nil:
		fmt.Fprintf(pub, "Strategic turns of production: %d. The ceasefire was broken by %s.\n", pr.Bids.Turns, titles(pr.Bids.Callers))
		for _, p := range before.alivePowers() {
			fmt.Fprintf(r.priv[p], "Your bid was %d.\n", pr.Bids.Bids[p])
		}
	case pr.Build != nil:
		for _, pd := range pr.Build.Production {
			var saved []string
			for _, f := range sortedKeys(pd.SavedIn) {
				saved = append(saved, fmt.Sprintf("%d in %s", pd.SavedIn[f], f))
			}
			fmt.Fprintf(r.priv[pd.Power], "Territory at %s: %d points a turn × %d turns + %d saved = %d; spent %d; saved %s.\n",
				pd.Territory, pd.Rate, pd.Turns, pd.Saved, pd.Budget, pd.Spent, orNone(strings.Join(saved, ", ")))
			// New units are revealed where they stand: one line per hex.
			byHex := map[string][]string{}
			var hexes []string
			for _, b := range pd.Bought {
				name, hex, _ := strings.Cut(b, " in ")
				if byHex[hex] == nil {
					hexes = append(hexes, hex)
				}
				byHex[hex] = append(byHex[hex], name)
			}
			for _, hex := range hexes {
				event(pd.Power, hex, fmt.Sprintf("%s built in %s: %s", titleOf(pd.Power), hex, strings.Join(byHex[hex], ", ")))
			}
		}
		for _, pl := range pr.Build.Placed {
			owner, rest, _ := strings.Cut(pl, " ")
			hex := rest[strings.LastIndex(rest, " ")+1:]
			event(owner, hex, fmt.Sprintf("%s from the pool: %s", titleOf(owner), rest))
		}
	case pr.Turn != nil:
		t := pr.Turn
		byPower := map[string][]string{}
		for _, m := range t.Moves {
			line := fmt.Sprintf("%s %s → %s", m.Unit, m.From, m.To)
			if !fog {
				byPower[m.Power] = append(byPower[m.Power], line)
				continue
			}
			hexes := append(strings.Split(m.From, "-"), strings.Split(m.To, "-")...)
			for _, p := range before.Powers {
				saw := p == m.Power
				for _, h := range hexes {
					saw = saw || sees(p, h)
				}
				if saw {
					fmt.Fprintf(r.priv[p], "Move: %s %s\n", titleOf(m.Power), line)
				}
			}
		}
		if !fog {
			for _, p := range before.alivePowers() {
				moves := byPower[p]
				switch {
				case sets[p] == nil && before.mustAct(p):
					fmt.Fprintf(pub, "%s sent no orders: its units kept their positions.\n", titleOf(p))
				case len(moves) > 0:
					fmt.Fprintf(pub, "%s moves: %s\n", titleOf(p), strings.Join(moves, "; "))
				}
			}
		}
		for i, bt := range t.Battles {
			var text strings.Builder
			fmt.Fprintf(&text, "Battle %d in %s (", i+1, strings.Join(bt.Hexes, " "))
			var sides, losses []string
			for _, p := range before.Powers {
				if n, ok := bt.Before[p]; ok {
					sides = append(sides, fmt.Sprintf("%s %d", titleOf(p), n))
					losses = append(losses, fmt.Sprintf("%s lost %d", titleOf(p), bt.Lost[p]))
				}
			}
			text.WriteString(strings.Join(sides, " v ") + "):\n")
			for _, s := range bt.Shots {
				text.WriteString("  " + shotLine(s) + "\n")
			}
			text.WriteString("  " + strings.Join(losses, ", ") + ".\n")
			if !fog {
				pub.WriteString(text.String())
				continue
			}
			for _, p := range before.Powers {
				in := bt.Before[p] > 0
				for _, h := range bt.Hexes {
					in = in || sees(p, h)
				}
				if in {
					r.priv[p].WriteString(text.String())
				}
			}
		}
		r.supply(t.Supply, "tactical supply", event)
		var votes []string
		for _, p := range before.Powers {
			if _, ok := t.Ceasefire[p]; !ok {
				continue
			}
			v := "fights on"
			if t.Ceasefire[p] {
				v = "ceasefire"
			}
			votes = append(votes, titleOf(p)+" "+v)
		}
		switch {
		case t.Limit && t.Ends:
			fmt.Fprintf(pub, "The tactical phase ends: it reached its limit of %d turns.\n", before.Opts.MaxTurns)
		case t.Ends:
			fmt.Fprintf(pub, "Ceasefire (%s): the tactical phase ends.\n", orNone(strings.Join(votes, ", ")))
		default:
			fmt.Fprintf(pub, "No ceasefire (%s): the fighting goes on.\n", strings.Join(votes, ", "))
		}
	}
	for _, p := range pr.Eliminated {
		fmt.Fprintf(pub, "%s is out of the game.\n", titleOf(p))
	}
	if len(pr.Surrender) > 0 {
		fmt.Fprintf(pub, "Surrendered: %s\n", strings.Join(pr.Surrender, ", "))
	}
	if pr.Over {
		if len(pr.Winners) > 0 {
			fmt.Fprintf(pub, "The game is over: %s wins.\n", titles(pr.Winners))
		} else {
			pub.WriteString("The game is over: no power is left.\n")
		}
	}
	pub.WriteString("\n")
}

// supply writes supply events.
func (r *reporter) supply(evs []SupplyEvent, what string, event func(owner, hex, line string)) {
	for _, e := range evs {
		var why string
		switch e.What {
		case "perished":
			why = "perished for lack of " + what
		case "disabled":
			why = "is disabled for lack of " + what
		case "restored":
			why = "has supply again and is no longer disabled"
		case "sacrificed":
			why = "was used up to supply its group (" + what + ")"
		}
		event(e.Power, e.Hex, fmt.Sprintf("%s %s in %s %s.", titleOf(e.Power), e.Unit, e.Hex, why))
	}
}

// shotLine writes one shot of a battle.
func shotLine(s Shot) string {
	if s.Retreat != "" {
		return fmt.Sprintf("%s retreats to %s", s.Attacker, s.Retreat)
	}
	line := fmt.Sprintf("%s destroys %s in %s", s.Attacker, s.Target, s.Hex)
	switch {
	case s.Free:
		line += " (free shot)"
	case s.Weak:
		line += " (weak units' round)"
	}
	if s.TargetWeak {
		line += ", a weak unit"
	}
	return line
}

// report finishes the reports with the position after the last phase.
func (r *reporter) report(g *Game) adjudicator.Report {
	rep := adjudicator.Report{Private: map[string]string{}}
	if g.Opts.Fog == 0 || g.Over {
		if g.Opts.Fog == 0 {
			r.pub.WriteString("The world after these results:\n" + g.renderMap("", nil) + "\n" + g.publicUnits())
		}
		r.pub.WriteString(g.scoreLine())
	}
	rep.Public = r.pub.String()
	for _, p := range g.Powers {
		b := r.priv[p]
		if g.alive(p) && !g.Over {
			b.WriteString(g.view(p))
		}
		if b.Len() > 0 {
			rep.Private[p] = b.String()
		}
	}
	return rep
}

// view is a power's private picture of the position for the coming phase:
// its map (with fog of war), its units and what each can do, its supply
// groups, its territories, pools and points.
func (g *Game) view(p string) string {
	var b strings.Builder
	vis := g.sight(p)
	fmt.Fprintf(&b, "\n%s — your position (%s):\n", g.phaseTitle(), titleOf(p))
	if vis != nil {
		b.WriteString(g.renderMap(p, vis))
		b.WriteString(g.unitList(p, vis))
		fmt.Fprintf(&b, "Your production per strategic turn: %d\n", g.score(p))
	}
	switch g.Step {
	case stepTactical:
		b.WriteString(g.tacticalView(p, vis))
	case stepDeploy:
		b.WriteString("Deployment: every unit stays on the board (KEEP) unless you POOL it; units on the move settle in their first hex unless you KEEP them in the other; headquarters may TRANSFORM.\n")
		for _, u := range g.unitsOf(p) {
			switch {
			case u.Type.TransformsTo != "":
				to, _ := g.Table.Type(u.Type.TransformsTo)
				fmt.Fprintf(&b, "  %s %s: KEEP, POOL, or TRANSFORM into a %s\n", u.Name(), g.posText(u), to.Name)
			case u.Type.Mobile():
				fmt.Fprintf(&b, "  %s %s: KEEP or POOL\n", u.Name(), g.posText(u))
			}
		}
		b.WriteString(g.territoryView(p, 0))
	case stepBid:
		fmt.Fprintf(&b, "Bid how many strategic turns (1 to %d) you want to produce for (BID n); the lowest bid decides.\n", g.Opts.MaxBid)
		b.WriteString(g.territoryView(p, 0))
	case stepBuild:
		fmt.Fprintf(&b, "Production for %d strategic turn%s: BUY units into hexes of a territory with a factory; PLACE pooled units in their territory; SAVE points in a factory.\n", g.Turns, plural(g.Turns))
		b.WriteString(g.territoryView(p, g.Turns))
		fmt.Fprintf(&b, "Prices: %s\n", g.priceList())
	}
	return b.String()
}

func (g *Game) priceList() string {
	var out []string
	for _, t := range g.Types {
		if t.Mobile() {
			out = append(out, fmt.Sprintf("%s %d (%s)", t.Code, t.Cost, t.Name))
		}
	}
	return strings.Join(out, ", ")
}

// territoryView lists a power's territories, production and pools; with
// turns > 0 the points it has to spend.
func (g *Game) territoryView(p string, turns int) string {
	var b strings.Builder
	for _, t := range g.territories(p) {
		fmt.Fprintf(&b, "Territory %s:", hexList(g, t.gr.Hexes))
		if len(t.factories) == 0 {
			b.WriteString(" no factory, no production")
		} else {
			saved := 0
			var fs []string
			for _, f := range t.factories {
				saved += f.Saved
				fs = append(fs, f.Name())
			}
			fmt.Fprintf(&b, " factories %s, %d points a strategic turn (land controlled: %s), %d saved", strings.Join(fs, " "), t.rate, g.controlledList(t.gr), saved)
			if turns > 0 {
				fmt.Fprintf(&b, "; to spend now: %d", t.budget(turns))
			}
		}
		if len(t.gr.Pool) > 0 {
			var ps []string
			for _, u := range t.gr.Pool {
				ps = append(ps, u.Name())
			}
			fmt.Fprintf(&b, "; pool: %s", strings.Join(ps, " "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// controlledList names the hexes a group's units control, with their land
// fragments: "C2:6 D2:4".
func (g *Game) controlledList(gr *group) string {
	var out []string
	for _, h := range controlled(gr) {
		out = append(out, fmt.Sprintf("%s:%d", g.World.HexName(h), g.World.Fragments(h)))
	}
	return orNone(strings.Join(out, " "))
}

func hexList(g *Game, hs []int) string {
	var out []string
	for _, h := range hs {
		out = append(out, g.World.HexName(h))
	}
	return strings.Join(out, " ")
}

// tacticalView lists a power's supply groups, units with their options, and
// the enemies next to them.
func (g *Game) tacticalView(p string, vis []bool) string {
	var b strings.Builder
	for i, gr := range g.groups(p) {
		var gen []string
		needy := []string{}
		for _, u := range gr.Units {
			if u.Type.Tactical.Produces == "full" && !u.Disabled {
				gen = append(gen, u.Name())
			}
			if u.Type.Tactical.Needs() {
				needy = append(needy, u.Name()+" would "+u.Type.Tactical.Unsupplied)
			}
		}
		fmt.Fprintf(&b, "Supply group %d (%s): ", i+1, hexList(g, gr.Hexes))
		switch {
		case len(gen) > 0:
			fmt.Fprintf(&b, "supplied by %s\n", strings.Join(gen, " "))
		case len(needy) > 0:
			fmt.Fprintf(&b, "NO SUPPLY GENERATOR: at the end of the turn, unless reconnected or a unit is SACRIFICEd, %s\n", strings.Join(needy, ", "))
		default:
			b.WriteString("no supply generator (its units need none)\n")
		}
		for _, u := range gr.Units {
			fmt.Fprintf(&b, "  %s (%s) %s%s: %s\n", u.Name(), u.Type.Name, g.posText(u), disabledNote(u), g.optionText(u))
		}
	}
	// Enemies next to the power's units.
	near := map[int]bool{}
	for _, u := range g.unitsOf(p) {
		for _, h := range u.hexes() {
			near[h] = true
			for d := 0; d < 6; d++ {
				if n := g.World.g.neighbour(h, d); n >= 0 {
					near[n] = true
				}
			}
		}
	}
	var enemies []string
	for _, u := range g.Units {
		if u.Owner == p || u.Pooled || !seesUnit(vis, p, u) {
			continue
		}
		for _, h := range u.hexes() {
			if near[h] {
				enemies = append(enemies, titleOf(u.Owner)+" "+g.unitShort(u))
				break
			}
		}
	}
	if len(enemies) > 0 {
		fmt.Fprintf(&b, "Enemy units next to yours: %s\n", strings.Join(enemies, ", "))
	}
	return b.String()
}

func disabledNote(u *Unit) string {
	if u.Disabled {
		return " DISABLED (weak, cannot move)"
	}
	return ""
}

// optionText lists what a unit may do in a tactical turn.
func (g *Game) optionText(u *Unit) string {
	opts := g.options(u)
	if len(opts) == 1 {
		return "holds (cannot move)"
	}
	var stand []string
	moves := map[int][]string{}
	var from []int
	for _, p := range opts {
		if p.To < 0 {
			stand = append(stand, g.World.HexName(p.At))
			continue
		}
		if moves[p.At] == nil {
			from = append(from, p.At)
		}
		moves[p.At] = append(moves[p.At], g.World.HexName(p.To))
	}
	var parts []string
	if len(stand) > 0 {
		parts = append(parts, "stand in "+strings.Join(stand, " or "))
	}
	sort.Ints(from)
	for _, h := range from {
		parts = append(parts, fmt.Sprintf("move %s-{%s}", g.World.HexName(h), strings.Join(moves[h], ",")))
	}
	return strings.Join(parts, "; ")
}

// notes tell a power what its standing orders leave to defaults.
func (g *Game) notes(p string, s *orderSet) []string {
	var out []string
	switch g.Step {
	case stepTactical:
		for _, u := range g.unitsOf(p) {
			if _, ok := s.moves[u]; !ok && u.Type.Mobile() && !u.Disabled {
				out = append(out, fmt.Sprintf("%s has no order: it keeps its position (%s)", u.Name(), g.posName(u.pos())))
			}
		}
		if s.ceasefire {
			out = append(out, "You agree to a ceasefire: the tactical phase ends when every power that can still move agrees.")
		} else {
			out = append(out, "You fight on (send CEASEFIRE when you are done with tactical operations).")
		}
	case stepDeploy:
		for _, u := range g.unitsOf(p) {
			if !u.Type.Mobile() {
				continue
			}
			if _, k := s.keep[u]; !k && !s.pool[u] && !s.transform[u] {
				out = append(out, fmt.Sprintf("%s has no order: it stays on the board (%s)", u.Name(), g.World.HexName(u.At)))
			}
		}
	case stepBid:
		if s.bid == 0 {
			out = append(out, fmt.Sprintf("No bid yet: it counts as %d, the largest bid.", g.Opts.MaxBid))
		} else {
			out = append(out, fmt.Sprintf("Your bid: %d strategic turns.", s.bid))
		}
	case stepBuild:
		for _, t := range g.territories(p) {
			if len(t.factories) == 0 {
				continue
			}
			spent := 0
			for _, o := range s.buys {
				if territoryAt([]*territory{t}, o.Pos.At) != nil {
					spent += o.N * g.buyable(o.Type).Cost
				}
			}
			out = append(out, fmt.Sprintf("Territory at %s: %d points, %d spent, %d left to save (in %s unless you SAVE them elsewhere).",
				g.World.HexName(t.gr.Hexes[0]), t.budget(g.Turns), spent, t.budget(g.Turns)-spent, t.factories[0].Name()))
		}
		for _, u := range g.unitsOf(p) {
			if _, ok := s.place[u]; u.Pooled && !ok {
				out = append(out, fmt.Sprintf("%s (pool) has no PLACE order: it is laid out in %s", u.Name(), g.World.HexName(u.At)))
			}
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
