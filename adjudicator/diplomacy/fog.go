package diplomacy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// Fog of war (variant fog): the standard game in which each power sees
// only the provinces its units stand in or border and the supply centres
// it owns with their borders (webDiplomacy's and vDiplomacy's fog of war
// games). FogEngine is the engine: it plays the standard rules and
// declares, as an adjudicator.Viewer, what each power may see. A power's
// acknowledgements read its orders against the units it sees; its
// results, STATUS and pictures show only the orders, units and centres it
// sees, with outcomes but no reasons (a reason names the units a move met).
// The picture of the GM and observers (viewer "") shows the whole board;
// the text every reader shares says nothing of the board.

// FogEngine is the engine of a fog of war variant.
type FogEngine struct{ *Engine }

var (
	_ adjudicator.Viewer = FogEngine{}
	_ adjudicator.Drawer = FogEngine{}
)

// visible is the set of provinces power sees in pos: those of its units
// and of the centres it owns, and every province bordering one.
func visible(pos *Position, power string) map[string]bool {
	m := pos.Map
	seen := map[string]bool{}
	see := func(prov string) {
		seen[prov] = true
		for _, p := range m.Provinces {
			if m.Adjacent(prov, p.ID) {
				seen[p.ID] = true
			}
		}
	}
	for _, u := range pos.Units {
		if u.Power == power {
			see(u.Loc.Province)
		}
	}
	for _, d := range pos.Dislodged {
		if d.Power == power {
			see(d.Loc.Province)
		}
	}
	for prov, pw := range pos.Owners {
		if pw == power {
			see(prov)
		}
	}
	return seen
}

// fogged is pos as power sees it: the units, dislodged units, standoffs
// and owners of the provinces it sees.
func fogged(pos *Position, power string, seen map[string]bool) *Position {
	q := pos.Clone()
	q.Units = slices.DeleteFunc(q.Units, func(u Unit) bool { return !seen[u.Loc.Province] })
	q.Dislodged = slices.DeleteFunc(q.Dislodged, func(d Dislodged) bool { return !seen[d.Loc.Province] })
	q.Standoffs = slices.DeleteFunc(q.Standoffs, func(s string) bool { return !seen[s] })
	for prov := range q.Owners {
		if !seen[prov] {
			delete(q.Owners, prov)
		}
	}
	return q
}

// AutopilotOrders implements adjudicator.Autopilot: the steady play of
// the standard game on the board as power sees it (an army that could be
// convoyed to its centre from out of sight is no threat it knows of).
func (f FogEngine) AutopilotOrders(state []byte, power string, _ int64) (string, error) {
	g, err := viewState(state, f.m)
	if err != nil || g.over {
		return "", err
	}
	return f.steady(fogged(g.pos, power, visible(g.pos, power)), power), nil
}

// Info implements adjudicator.Engine: no preview (WHATIF would resolve
// against units the player does not see) and no shared summary.
func (f FogEngine) Info() adjudicator.Info {
	info := f.Engine.Info()
	info.PreviewAlone, info.SummaryInResults = false, false
	return info
}

// Status implements adjudicator.Engine: the shared summary names the
// phase only; each power's board is its View.
func (f FogEngine) Status(state []byte) (adjudicator.Status, error) {
	st, err := f.Engine.Status(state)
	if err != nil {
		return st, err
	}
	g, err := viewState(state, f.m)
	if err != nil {
		return st, err
	}
	st.Summary = f.m.PhaseTitle(g.pos.Phase) + "\n(fog of war: each power sees its own part of the board)\n"
	return st, nil
}

// View implements adjudicator.Viewer: the units and centres power sees.
func (f FogEngine) View(state []byte, power string) (string, error) {
	g, err := viewState(state, f.m)
	if err != nil {
		return "", err
	}
	return f.fogSummary(g.pos, power), nil
}

// fogSummary is the part of pos power sees, as summary writes a whole
// position: per power the centres and units it sees, then the unowned
// centres it sees (an owner it does not see is not told either way).
func (f FogEngine) fogSummary(pos *Position, power string) string {
	m := f.m
	seen := visible(pos, power)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (what your units and centres see)\n", m.PhaseTitle(pos.Phase))
	centres, units := map[string][]string{}, map[string][]string{}
	var unowned []string
	for _, sc := range m.SupplyCentres() {
		if !seen[sc] {
			continue
		}
		pr, _ := m.Province(sc)
		if p, ok := pos.Owners[sc]; ok {
			centres[p] = append(centres[p], pr.Abbrev)
		} else {
			unowned = append(unowned, pr.Abbrev)
		}
	}
	for _, u := range pos.Units {
		if seen[u.Loc.Province] {
			units[u.Power] = append(units[u.Power], m.UnitName(u))
		}
	}
	for _, p := range m.Powers {
		if len(centres[p.ID]) == 0 && len(units[p.ID]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: %s (%s); units: %s\n", p.Name, plural(len(centres[p.ID]), "centre"), strings.Join(centres[p.ID], " "), orNone(strings.Join(units[p.ID], ", ")))
	}
	if len(unowned) > 0 {
		fmt.Fprintf(&b, "Unowned centres: %s\n", strings.Join(unowned, " "))
	}
	return b.String()
}

// Check implements adjudicator.Engine: the orders are read against the
// units power sees, so no diagnostic names another.
func (f FogEngine) Check(state []byte, power, text string) (adjudicator.Check, error) {
	g, err := viewState(state, f.m)
	if err != nil {
		return adjudicator.Check{}, err
	}
	q := &gameState{pos: fogged(g.pos, power, visible(g.pos, power)), over: g.over, winners: g.winners}
	return f.Engine.Check(encodeState(q), power, text)
}

// Resolve implements adjudicator.Engine: the rules' outcome, reported to
// each power as it sees it.
func (f FogEngine) Resolve(state []byte, orders map[string][]string, seed int64) (adjudicator.Outcome, error) {
	out, err := f.Engine.Resolve(state, orders, seed)
	if err != nil {
		return out, err
	}
	before, err := decodeState(state, f.m)
	if err != nil {
		return out, err
	}
	after, err := decodeState(out.Next, f.m)
	if err != nil {
		return out, err
	}
	var data ResultData
	if err := json.Unmarshal(out.Report.Data, &data); err != nil {
		return out, err
	}
	private := map[string]string{}
	for _, p := range f.m.Powers {
		seen := visible(before.pos, p.ID)
		for prov := range visible(after.pos, p.ID) {
			seen[prov] = true
		}
		text := f.fogResults(before.pos, &data, p.ID, seen) + "\n--- the position you see ---\n" + f.fogSummary(after.pos, p.ID)
		if own := out.Report.Private[p.ID]; own != "" {
			text += "\n" + own
		}
		private[p.ID] = text
	}
	out.Report.Public = fmt.Sprintf("%s — results\n(fog of war: your part below shows what your units and centres see)\n", f.m.PhaseTitle(before.pos.Phase))
	out.Report.Private = private
	return out, nil
}

// orderSeen reports whether power sees an order's unit and every unit
// the order names (a support's or convoy's), the order read with opts.
func orderSeen(opts ParseOptions, text string, seen map[string]bool) bool {
	o, _, err := ParseOrder(text, opts)
	if err != nil || !seen[o.Loc.Province] {
		return false
	}
	switch o.Kind {
	case SupportHold, SupportMove, Convoy:
		return seen[o.Aux.Province]
	}
	return true
}

// fogResults is the results of a phase as power sees them: the orders of
// the units it sees, with their outcomes; the standoffs and dislodged
// units it sees.
func (f FogEngine) fogResults(pos *Position, data *ResultData, power string, seen map[string]bool) string {
	var b strings.Builder
	opts := f.parseOptions(pos)
	for _, p := range f.m.Powers {
		var lines []string
		for _, r := range data.Orders {
			if r.Power != p.ID || (p.ID != power && !orderSeen(opts, r.Text, seen)) {
				continue
			}
			lines = append(lines, fmt.Sprintf("  %-25s %s", r.Text, r.Outcome))
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n%s:\n%s\n", p.Name, strings.Join(lines, "\n"))
		}
	}
	var dis []string
	for _, d := range data.Dislodged {
		if seen[d.Province] {
			dis = append(dis, f.m.PowerName(d.Power)+" "+f.m.UnitName(unitOfJSON(d)))
		}
	}
	if len(dis) > 0 {
		fmt.Fprintf(&b, "\nDislodged: %s\n", strings.Join(dis, ", "))
	}
	var st []string
	for _, s := range data.Standoffs {
		if seen[s] {
			pr, _ := f.m.Province(s)
			st = append(st, pr.Abbrev)
		}
	}
	if len(st) > 0 {
		fmt.Fprintf(&b, "\nStandoffs: %s\n", strings.Join(st, " "))
	}
	return b.String()
}

// unitOfJSON is the unit a result's jsonUnit names.
func unitOfJSON(j jsonUnit) Unit {
	t := Army
	if j.Type == "fleet" {
		t = Fleet
	}
	return Unit{Power: j.Power, Type: t, Loc: Location{Province: j.Province, Coast: j.Coast}}
}

// Draw implements adjudicator.Drawer: the GM's and observers' picture
// ("") shows everything; a power's shows the units, centres and orders it
// sees after the phase and saw before it.
func (f FogEngine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	if viewer == "" {
		return f.Engine.Draw(state, results, "")
	}
	g, err := decodeState(state, f.m)
	if err != nil {
		return nil, err
	}
	seen := visible(g.pos, viewer)
	bare := ParseOptions{Lexicon: f.m.lex} // orders read without a position
	var shown *Position
	var data ResultData
	if len(results) > 0 {
		if err := json.Unmarshal(results, &data); err != nil {
			return nil, err
		}
		// The viewer's own ordered units stood where it saw before.
		for _, r := range data.Orders {
			if r.Power != viewer {
				continue
			}
			if o, _, err := ParseOrder(r.Text, bare); err == nil {
				seen[o.Loc.Province] = true
				for _, p := range f.m.Provinces {
					if f.m.Adjacent(o.Loc.Province, p.ID) {
						seen[p.ID] = true
					}
				}
			}
		}
		shown = fogged(g.pos, viewer, seen)
		data.Orders = slices.DeleteFunc(data.Orders, func(r OrderResult) bool {
			return r.Power != viewer && !orderSeen(bare, r.Text, seen)
		})
		data.Unordered = slices.DeleteFunc(data.Unordered, func(s string) bool {
			_, u, _ := strings.Cut(s, ": ")
			return !orderSeen(bare, u+" H", seen)
		})
		hide := func(j jsonUnit) bool { return !seen[j.Province] }
		data.Dislodged = slices.DeleteFunc(data.Dislodged, hide)
		data.Disbanded = slices.DeleteFunc(data.Disbanded, hide)
		data.Built = slices.DeleteFunc(data.Built, hide)
		data.Standoffs = slices.DeleteFunc(data.Standoffs, func(s string) bool { return !seen[s] })
		for prov := range data.Owners {
			if !seen[prov] {
				delete(data.Owners, prov)
			}
		}
		for p := range data.Adjustments {
			if p != viewer {
				delete(data.Adjustments, p)
			}
		}
		if results, err = json.Marshal(data); err != nil {
			return nil, err
		}
	}
	if shown == nil {
		shown = fogged(g.pos, viewer, seen)
	}
	return f.Engine.Draw(encodeState(&gameState{pos: shown, over: g.over, winners: g.winners}), results, "")
}

// Brief implements adjudicator.Briefer as the standard game's, without the
// reasons of failed orders: a reason names the unit a move met, which the
// power may not see.
func (f FogEngine) Brief(before, after, data []byte) (map[string]string, error) {
	var rd ResultData
	if err := json.Unmarshal(data, &rd); err != nil {
		return nil, fmt.Errorf("diplomacy: fog brief: results: %w", err)
	}
	for i := range rd.Orders {
		rd.Orders[i].Reason = ""
	}
	plain, err := json.Marshal(rd)
	if err != nil {
		return nil, err
	}
	return f.Engine.Brief(before, after, plain)
}
