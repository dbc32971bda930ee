package diplomacy

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// Engine is the adjudicator.Engine of one Diplomacy map. Powers are named by
// their map ids ("england", "rome") in every call and result.
type Engine struct {
	m *Map
	// info is Info as made once (the examples are built by parsing the
	// map's start): each call hands out a copy of its slices.
	infoOnce sync.Once
	info     adjudicator.Info
}

// Every embedded map and rule variant is an engine, registered without
// reading the map:
// the map is parsed when its engine is first looked up.
func init() {
	for _, name := range MapNames() {
		adjudicator.RegisterLazy(name, func() adjudicator.Engine {
			e, _ := NewEngine(name)
			return e
		})
	}
	for _, name := range RuleVariantNames() {
		adjudicator.RegisterLazy(name, func() adjudicator.Engine {
			m, _ := MapByName(name)
			return ruleEngine(m)
		})
	}
	// A map file a GM adds at run time is an engine too (adjudicator.Build).
	adjudicator.RegisterBuilder(".map", func(file string, text []byte) (adjudicator.Engine, error) {
		e, err := EngineFromText(file, text)
		if err != nil {
			return nil, err
		}
		return e, nil
	})
}

// EngineFromText returns the engine of a map file's text, as ParseMap
// reads it. The picture's checks (Problems) are the caller's: a game
// rebuilt from the text it was created with is not refused by a check
// added since.
func EngineFromText(file string, text []byte) (*Engine, error) {
	m, err := ParseMap(file, text)
	if err != nil {
		return nil, err
	}
	return &Engine{m: m}, nil
}

// mapNamed is the map a name finds: an embedded one, or that of a
// variant added from a file (adjudicator.AddVariant).
func mapNamed(name string) (*Map, bool) {
	if m, ok := MapByName(name); ok {
		return m, true
	}
	if e, ok := adjudicator.Lookup(name); ok {
		if de, ok := e.(*Engine); ok {
			return de.m, true
		}
	}
	return nil, false
}

// NewEngine returns the engine of an embedded map.
func NewEngine(variant string) (*Engine, bool) {
	m, ok := MapByName(variant)
	if !ok {
		return nil, false
	}
	return &Engine{m: m}, true
}

// Map returns the engine's map.
func (e *Engine) Map() *Map { return e.m }

const rulesText = `Diplomacy, 2023 rules, adjudicated as the DATC v3.0 prefers:
- Orders: hold (A Par H), move (A Par - Bur), support (A Mar S A Par - Bur,
  F Eng S A Bel), convoy (F Nth C A Lon - Bel), move by convoy (A Lon - Bel,
  or A Lon - Bel via convoy to an adjacent province). Retreats: A Par R Bur or
  A Par D. Adjustments: Build A Par, Build F StP/nc, A Par D, Waive.
- A unit without an order holds; a dislodged unit without a retreat order is
  disbanded; builds not ordered are waived; disbands not ordered are chosen by
  the civil disorder rule (farthest from an owned centre first).
- An order that cannot be carried out (foreign or missing unit, impossible
  move) is ignored and the unit holds. Convoy paradoxes follow the Szykman
  rule: the convoying fleets of the paradox hold.`

// Info implements adjudicator.Engine. It is made once per engine (the
// daemon asks it for every phase it processes); the slices each caller
// gets are its own (Agreements and Year, package variables, are shared
// as they always were).
func (e *Engine) Info() adjudicator.Info {
	e.infoOnce.Do(func() { e.info = e.makeInfo() })
	info := e.info
	info.Powers, info.Examples = slices.Clone(info.Powers), slices.Clone(info.Examples)
	info.PowerNames = maps.Clone(info.PowerNames)
	return info
}

func (e *Engine) makeInfo() adjudicator.Info {
	var powers []string
	// The map's power names ("NATO"), which a capitalised id ("Nato")
	// need not be.
	names := map[string]string{}
	for _, p := range e.m.Powers {
		powers = append(powers, p.ID)
		names[p.ID] = p.Name
	}
	start := e.m.NewPosition().Phase
	rules := rulesText + fmt.Sprintf("\n- Solo victory at %d supply centres. The game starts in %s.", e.m.Victory, e.m.turnName(start))
	if e.m.variantRules != "" {
		rules += "\n- " + e.m.variantRules
	} else if r := e.m.directiveRules(); r != "" {
		rules += "\n- " + r
	}
	rules += PictureRules
	return adjudicator.Info{Name: e.m.Name, Game: "diplomacy", Title: e.m.Title, Powers: powers, PowerNames: names, Simultaneous: true, Rules: rules, Examples: e.examples(), Diplomats: true,
		PreviewAlone: true, SummaryInResults: true, Agreements: agreements, Year: year, ForgedPress: true}
}

// year is a Diplomacy game year (Info.Year): Spring movement and
// retreats, Fall movement and retreats, Winter adjustments. The engine
// skips a retreat or adjustment phase in which nobody has anything to order.
var year = []adjudicator.PhaseKind{adjudicator.PhaseOrders, adjudicator.PhaseRetreat, adjudicator.PhaseOrders, adjudicator.PhaseRetreat, adjudicator.PhaseBuild}

// yearStep is p's index in year.
func yearStep(p Phase) int {
	switch {
	case p.Season == Winter:
		return 4
	case p.Season == Fall && p.Type == Retreats:
		return 3
	case p.Season == Fall:
		return 2
	case p.Type == Retreats:
		return 1
	}
	return 0
}

// examples are order lines that work on this map, built from its start
// position so they name real units and real places (Info.Examples; a test
// parses every one). A note in parentheses follows some.
func (e *Engine) examples() []string {
	pos := e.m.NewPosition()
	if len(pos.Units) == 0 {
		// A game that opens with builds (Chaos): the examples show an army
		// on every home centre, as after the first builds.
		for _, p := range e.m.Provinces {
			if p.Home != "" {
				pos.Units = append(pos.Units, Unit{Power: p.Home, Type: Army, Loc: Location{Province: p.ID}})
			}
		}
	}
	return e.examplesFor(pos, e.m.Powers[0].ID, true)
}

// Examples implements adjudicator.Exampler: order lines for power's own
// units in the open phase of state (HELP shows them).
func (e *Engine) Examples(state []byte, power string) []string {
	g, err := decodeState(state, e.m)
	if err != nil || g.over {
		return nil
	}
	return e.examplesFor(g.pos, power, false)
}

// examplesFor builds examples for power's units in pos, those of the
// phase pos is in; with all set, the game's general examples: every kind
// of order, with any power's units (power is then the one to build for).
func (e *Engine) examplesFor(pos *Position, power string, all bool) []string {
	m := e.m
	border := func(t UnitType, a, b string) bool {
		if t == Army {
			return m.ArmyBorder(a, b)
		}
		return m.FleetBorder(a, b)
	}
	f := func(o Order) string { return m.FormatOrder(o) }
	phase := pos.Phase.Type
	mine := func(p string) bool { return all || p == power }
	var out []string
	if all || phase == Retreats {
		for _, d := range pos.Dislodged {
			if d.Power != power || all {
				continue
			}
			if len(d.Options) > 0 {
				prov, coast, _ := strings.Cut(d.Options[0], "/")
				loc := Location{Province: prov, Coast: coast}
				out = append(out, f(Order{Kind: Retreat, Unit: d.Type, Loc: d.Loc, Target: loc}))
			}
			out = append(out, f(Order{Kind: Disband, Unit: d.Type, Loc: d.Loc}))
		}
	}
	if all || phase == Movement {
		// A move, in short and in the seed's long form, and a hold.
		for _, u := range pos.Units {
			if !mine(u.Power) || u.Type != Army || u.Loc.Coast != "" {
				continue
			}
			for _, n := range m.Provinces {
				if n.ID == u.Loc.Province || n.Kind == Sea || !m.ArmyBorder(u.Loc.Province, n.ID) {
					continue
				}
				from, _ := m.Province(u.Loc.Province)
				out = append(out,
					f(Order{Kind: Move, Unit: u.Type, Loc: u.Loc, Target: Location{Province: n.ID}}),
					fmt.Sprintf("Army %q move %q", from.Full, n.Full),
					f(Order{Kind: Hold, Unit: u.Type, Loc: u.Loc}))
				if all {
					out = append(out,
						f(Order{Kind: Retreat, Unit: u.Type, Loc: u.Loc, Target: Location{Province: n.ID}})+"   (retreat phases)",
						f(Order{Kind: Disband, Unit: u.Type, Loc: u.Loc})+"   (retreat and adjustment phases)")
				}
				break
			}
			if len(out) > 0 {
				break
			}
		}
		// A support: two units of the power that can both reach a province.
	support:
		for _, a := range pos.Units {
			for _, b := range pos.Units {
				if !mine(a.Power) || a.Power != b.Power || a.Loc == b.Loc {
					continue
				}
				for _, n := range m.Provinces {
					if n.ID != a.Loc.Province && n.ID != b.Loc.Province && len(n.Coasts) == 0 && border(a.Type, a.Loc.Province, n.ID) && border(b.Type, b.Loc.Province, n.ID) {
						out = append(out, f(Order{Kind: SupportMove, Unit: a.Type, Loc: a.Loc, AuxUnit: b.Type, Aux: b.Loc, Target: Location{Province: n.ID}}),
							f(Order{Kind: SupportHold, Unit: a.Type, Loc: a.Loc, AuxUnit: b.Type, Aux: b.Loc}))
						break support
					}
				}
			}
		}
		out = append(out, e.convoyExample(pos, power, all)...)
	}
	if all || phase == Adjustments {
		sites := m.HomeCentres(power)
		if free := freeHomes(pos, power); !all && len(free) > 0 {
			sites = free // where this power may build now (any owned centre under Build Anywhere)
		}
		if len(sites) > 0 {
			out = append(out, f(Order{Kind: Build, Unit: Army, Loc: Location{Province: sites[0]}})+"   (adjustment phases)")
		}
		if !all {
			for _, u := range pos.Units {
				if u.Power == power {
					out = append(out, f(Order{Kind: Disband, Unit: u.Type, Loc: u.Loc})+"   (when you must disband)")
					break
				}
			}
		}
		out = append(out, "Waive")
	}
	return out
}

// convoyExample is a convoy and its convoyed move: a fleet of power at sea
// carrying an army of power to a coast it cannot walk to; with none such,
// a fleet at sea of the power, or none. With any set, any sea between two
// coasts (the game's general example).
func (e *Engine) convoyExample(pos *Position, power string, any bool) []string {
	m := e.m
	f := func(o Order) string { return m.FormatOrder(o) }
	if any {
		for _, s := range m.Provinces {
			if s.Kind != Sea {
				continue
			}
			for _, x := range m.Provinces {
				for _, y := range m.Provinces {
					if x.Kind == Coast && y.Kind == Coast && x.ID < y.ID && m.FleetBorder(s.ID, x.ID) && m.FleetBorder(s.ID, y.ID) && !m.ArmyBorder(x.ID, y.ID) {
						return []string{f(Order{Kind: Convoy, Unit: Fleet, Loc: Location{Province: s.ID}, AuxUnit: Army, Aux: Location{Province: x.ID}, Target: Location{Province: y.ID}}),
							f(Order{Kind: Move, Unit: Army, Loc: Location{Province: x.ID}, Target: Location{Province: y.ID}, ViaConvoy: true})}
					}
				}
			}
		}
		return nil
	}
	army := map[string]bool{}
	for _, u := range pos.Units {
		if u.Power == power && u.Type == Army {
			army[u.Loc.Province] = true
		}
	}
	for _, fl := range pos.Units {
		if fl.Power != power || fl.Type != Fleet {
			continue
		}
		s, ok := m.Province(fl.Loc.Province)
		if !ok || s.Kind != Sea {
			continue
		}
		var fallback []string
		for _, x := range m.Provinces {
			for _, y := range m.Provinces {
				if x.Kind != Coast || y.Kind != Coast || x.ID == y.ID || !m.FleetBorder(s.ID, x.ID) || !m.FleetBorder(s.ID, y.ID) || m.ArmyBorder(x.ID, y.ID) {
					continue
				}
				ex := []string{f(Order{Kind: Convoy, Unit: Fleet, Loc: fl.Loc, AuxUnit: Army, Aux: Location{Province: x.ID}, Target: Location{Province: y.ID}}),
					f(Order{Kind: Move, Unit: Army, Loc: Location{Province: x.ID}, Target: Location{Province: y.ID}, ViaConvoy: true})}
				if army[x.ID] {
					return ex
				}
				if fallback == nil {
					fallback = ex[:1]
				}
			}
		}
		if fallback != nil {
			return fallback
		}
	}
	return nil
}

// New implements adjudicator.Engine. The Diplomacy engines take no options.
func (e *Engine) New(options map[string]string, seed int64) ([]byte, error) {
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		return nil, fmt.Errorf("diplomacy (%s) has no options; unknown: %s", e.m.Name, strings.Join(keys, ", "))
	}
	return encodeState(&gameState{pos: e.m.NewPosition()}), nil
}

// Status implements adjudicator.Engine.
func (e *Engine) Status(state []byte) (adjudicator.Status, error) {
	g, err := viewState(state, e.m) // read only: status copies what it keeps
	if err != nil {
		return adjudicator.Status{}, err
	}
	return e.status(g), nil
}

func (e *Engine) status(g *gameState) adjudicator.Status {
	pos := g.pos
	st := adjudicator.Status{ID: pos.Phase.ID(), Title: e.m.PhaseTitle(pos.Phase), YearStep: yearStep(pos.Phase), Scores: map[string]int{}, Over: g.over}
	switch pos.Phase.Type {
	case Movement:
		st.Kind = adjudicator.PhaseOrders
		st.Combine, st.CombineText = adjudicator.CombinePerUnit, "a new order for an army or fleet replaces its earlier one; your other units keep theirs"
	case Retreats:
		st.Kind = adjudicator.PhaseRetreat
		st.Combine, st.CombineText = adjudicator.CombinePerUnit, "a new order for a dislodged unit replaces its earlier one"
	case Adjustments:
		st.Kind = adjudicator.PhaseBuild
		st.Combine, st.CombineText = adjudicator.CombineReplace, "in adjustment phases a new set replaces the whole standing set (builds and disbands are counted against what you are owed)"
	}
	if g.over {
		st.Result = e.result(pos, g.winners)
	}
	live := alive(pos)
	centres := pos.CentreCount()
	waiting := e.waiting(pos)
	for _, p := range e.m.Powers {
		if live[p.ID] {
			st.Alive = append(st.Alive, p.ID)
			st.Scores[p.ID] = centres[p.ID]
		}
		if waiting[p.ID] && !g.over {
			st.Waiting = append(st.Waiting, p.ID)
		}
	}
	st.Summary = e.summary(pos)
	return st
}

// result is how the game of pos ended: a solo victory of its one winner
// (none: a draw the rules decided).
func (e *Engine) result(pos *Position, winners []string) *adjudicator.Result {
	winners = slices.Clone(winners) // the caller's: g may be the state cache's (Status)
	if len(winners) != 1 {
		return &adjudicator.Result{Kind: "draw", Winners: winners, Text: "The game has ended in a draw."}
	}
	name := winners[0]
	if i, ok := e.m.powerIdx[name]; ok {
		name = e.m.Powers[i].Name
	}
	n := pos.CentreCount()[winners[0]]
	return &adjudicator.Result{Kind: "solo", Winners: winners,
		Text: fmt.Sprintf("%s has won with a solo victory: %d supply centres (%d were needed).", name, n, e.m.Victory)}
}

// waiting reports the powers with something to order in the phase.
func (e *Engine) waiting(pos *Position) map[string]bool {
	out := map[string]bool{}
	switch pos.Phase.Type {
	case Movement:
		for _, u := range pos.Units {
			out[u.Power] = true
		}
	case Retreats:
		for _, d := range pos.Dislodged {
			out[d.Power] = true
		}
	case Adjustments:
		for p := range Owed(pos) {
			out[p] = true
		}
	}
	return out
}

// summary is a short picture of the position: per power its centres and
// units.
func (e *Engine) summary(pos *Position) string {
	m := e.m
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", m.PhaseTitle(pos.Phase))
	centres := map[string][]string{}
	for _, sc := range m.SupplyCentres() {
		if p, ok := pos.Owners[sc]; ok {
			pr, _ := m.Province(sc)
			centres[p] = append(centres[p], pr.Abbrev)
		}
	}
	units := map[string][]string{}
	for _, u := range pos.Units {
		units[u.Power] = append(units[u.Power], m.UnitName(u))
	}
	live := alive(pos)
	for _, p := range m.Powers {
		if !live[p.ID] {
			continue
		}
		fmt.Fprintf(&b, "%s: %s (%s); units: %s\n", p.Name, plural(len(centres[p.ID]), "centre"), strings.Join(centres[p.ID], " "), orNone(strings.Join(units[p.ID], ", ")))
	}
	var neutral []string
	for _, sc := range m.SupplyCentres() {
		if _, ok := pos.Owners[sc]; !ok {
			pr, _ := m.Province(sc)
			neutral = append(neutral, pr.Abbrev)
		}
	}
	if len(neutral) > 0 {
		fmt.Fprintf(&b, "Unowned centres: %s\n", strings.Join(neutral, " "))
	}
	for _, d := range pos.Dislodged {
		fmt.Fprintf(&b, "Dislodged: %s %s, %s\n", m.PowerName(d.Power), m.UnitName(d.Unit), retreatText(m, d))
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func retreatText(m *Map, d Dislodged) string {
	if len(d.Options) == 0 {
		return "no retreat possible: it will be disbanded"
	}
	return "may retreat to " + joinOr(m, d.Options)
}

func joinOr(m *Map, opts []string) string {
	s := m.optionNames(opts)
	if i := strings.LastIndex(s, " and "); i >= 0 {
		s = s[:i] + " or " + s[i+5:]
	}
	return s
}

func (e *Engine) parsePhase(p PhaseType) ParsePhase {
	switch p {
	case Movement:
		return MovementPhase
	case Retreats:
		return RetreatPhase
	}
	return AdjustmentPhase
}

// retreatView answers the parser, in a retreat phase, for dislodged units.
type retreatView struct{ pos *Position }

func (v retreatView) UnitAt(province string) (UnitType, string, string, bool) {
	for _, d := range v.pos.Dislodged {
		if d.Loc.Province == province {
			return d.Type, d.Power, d.Loc.Coast, true
		}
	}
	return v.pos.UnitAt(province)
}

func (e *Engine) parseOptions(pos *Position) ParseOptions {
	var view UnitFinder = pos
	if pos.Phase.Type == Retreats {
		view = retreatView{pos}
	}
	return ParseOptions{Lexicon: e.m.lex, Position: view, Phase: e.parsePhase(pos.Phase.Type)}
}

// Check implements adjudicator.Engine: it reads a power's order text,
// marks the orders that cannot apply, and returns the canonical lines.
// A later order for a unit replaces an earlier one in the same text.
func (e *Engine) Check(state []byte, power string, text string) (adjudicator.Check, error) {
	g, err := viewState(state, e.m) // read only, below
	if err != nil {
		return adjudicator.Check{}, err
	}
	pw, ok := e.m.PowerID(power)
	if !ok {
		return adjudicator.Check{}, fmt.Errorf("diplomacy: unknown power %q", power)
	}
	pos := g.pos
	m := e.m
	res := Parse(text, e.parseOptions(pos))
	var ck adjudicator.Check
	ck.Lines = res.Lines
	if g.over {
		ck.Notes = append(ck.Notes, "The game is over; orders are not needed.")
		return ck, nil
	}
	// Collect the orders, the last one per unit winning.
	type entry struct {
		line int
		o    Order
	}
	n := 0
	for i := range ck.Lines {
		if ck.Lines[i].Kind == orders.OrderLine {
			n++
		}
	}
	list := make([]entry, 0, n) // an Order is some 200 bytes: no regrowing
	// last[province] is the index in list of the standing order for the
	// unit there, so that replacing it is one lookup: Check is linear in
	// the lines of the text.
	last := map[string]int{}
	for i := range ck.Lines {
		l := &ck.Lines[i]
		lo, _ := l.Value.(*Order)
		if l.Kind != orders.OrderLine || lo == nil {
			continue
		}
		o := *lo
		if o.Power != "" && o.Power != pw {
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: fmt.Sprintf("you play %s, not %s: this order is ignored", m.PowerName(pw), m.PowerName(o.Power))})
			continue
		}
		o.Power = ""
		// The stored line names the unit as it stands (DATC 4.B.5, 4.C.2:
		// a wrong coast or type of the ordered unit is ignored anyway).
		if u, ok := orderedUnit(pos, pw, o); ok {
			o.Unit, o.Loc.Coast = u.Type, u.Loc.Coast
		}
		if o.Kind != Build && o.Kind != Waive {
			if k, ok := last[o.Loc.Province]; ok {
				prev := &ck.Lines[list[k].line]
				prev.Diags = append(prev.Diags, orders.Diagnostic{Severity: orders.Warning, Message: fmt.Sprintf("replaced by the later order on line %d", l.No)})
				list[k].line = -1
			}
			last[o.Loc.Province] = len(list)
		}
		list = append(list, entry{i, o})
	}
	ords := make([]PowerOrder, 0, len(list))
	idx := make([]int, 0, len(list))
	for _, en := range list {
		if en.line >= 0 {
			ords = append(ords, PowerOrder{Power: pw, Order: en.o})
			idx = append(idx, en.line)
		}
	}
	r, err := checkOutcomes(pos, ords)
	if err != nil {
		return ck, err
	}
	// Every understood order is stored, even one that cannot succeed: the
	// seed's GM executes orders as received, so at the deadline it is
	// revealed with its reason and the unit holds. The player is warned
	// now.
	ordered := map[string]bool{}
	var legal []string
	for k, or := range r.Orders {
		l := &ck.Lines[idx[k]]
		line := m.FormatOrder(ords[k].Order)
		ck.Canonical = append(ck.Canonical, line)
		if _, own := orderedUnit(pos, pw, ords[k].Order); own {
			ordered[ords[k].Order.Loc.Province] = true // ordered, even if the order will fail
		}
		switch {
		case or.Outcome == Illegal:
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: or.Reason + ": this order will fail and the unit holds"})
			continue
		case or.Outcome == Failed && pos.Phase.Type == Adjustments:
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: or.Reason + ": this order will fail"})
			continue
		}
		legal = append(legal, line)
	}
	ck.Notes = append(ck.Notes, e.notes(pos, pw, ordered, legal)...)
	return ck, nil
}

// checkOutcomes is what Check needs of Adjudicate(pos, ords): which
// orders are illegal and why, and in an adjustment phase which fail. In a
// movement phase that is settled before any move is resolved, so only
// the legality is worked out there (movementLegality), with the outcome
// of every legal order left Succeeded.
func checkOutcomes(pos *Position, ords []PowerOrder) (*Result, error) {
	if pos.Phase.Type != Movement {
		return Adjudicate(pos, ords)
	}
	why, err := movementLegality(pos, ords)
	if err != nil {
		return nil, err
	}
	res := &Result{Orders: make([]OrderResult, len(ords))}
	for k := range ords {
		res.Orders[k] = OrderResult{Power: ords[k].Power, Order: &ords[k].Order, Outcome: Succeeded}
		if why[k] != "" {
			res.Orders[k].Outcome, res.Orders[k].Reason = Illegal, why[k]
		}
	}
	return res, nil
}

// dupReason is why an order for a unit that was given differing orders
// is illegal (DATC 4.D.3).
const dupReason = "the unit was given more than one order: it holds"

// movementLegality is, for each order of a movement phase, the reason
// Adjudicate(pos, ords) finds it illegal, "" when it does not: the order
// itself cannot apply (moveCheck.check), or its unit was given differing
// orders (all of them then are illegal; an identical repeat shares the
// outcome of the first, which is never illegal).
func movementLegality(pos *Position, ords []PowerOrder) ([]string, error) {
	b := getResolver()
	defer b.release()
	if err := b.load(pos); err != nil {
		return nil, err
	}
	m := b.m
	chk := &b.chk
	*chk = moveCheck{m: m, unitAt: b.unitAt, units: pos.Units}
	for i, u := range pos.Units {
		if pi := b.unitProv[i]; u.Type == Fleet && m.convoyable(pi) {
			chk.fleets.set(pi)
		}
	}
	n := len(pos.Units)
	first := fill(b.dislodger, n, -1) // the first legal order of each unit
	conflict := fillBool(b.conflict, n)
	b.dislodger, b.conflict = first, conflict
	why := make([]string, len(ords))
	unit := make([]int, len(ords))
	for k := range ords {
		ck, w := chk.check(&ords[k])
		unit[k] = ck.unit
		if w != "" {
			why[k] = w
			continue
		}
		i := ck.unit
		if f := first[i]; f >= 0 {
			if ords[f].Order.Kind != ords[k].Order.Kind || !sameOrder(ords[f].Order, ords[k].Order) {
				conflict[i] = true
			}
			continue
		}
		first[i] = k
	}
	for k := range ords {
		if why[k] == "" && conflict[unit[k]] {
			why[k] = dupReason
		}
	}
	return why, nil
}

// Merge implements adjudicator.Merger. In movement and retreat phases a
// newer order for a unit replaces the standing order for that unit and the
// other units keep theirs. In adjustment phases the newer set replaces the
// standing one whole: builds and disbands are counted against what is owed,
// so mixing two sets would surprise.
func (e *Engine) Merge(state []byte, standing, newer []string) []string {
	if len(newer) == 0 {
		return standing
	}
	g, err := viewState(state, e.m) // read only
	if err != nil || g.pos.Phase.Type == Adjustments {
		return append([]string(nil), newer...)
	}
	unitOf := func(line string) string { return mergeUnits.of(e.m, line) }
	replaced := map[string]bool{}
	for _, l := range newer {
		replaced[unitOf(l)] = true
	}
	out := make([]string, 0, len(standing)+len(newer))
	for _, l := range standing {
		if !replaced[unitOf(l)] {
			out = append(out, l)
		}
	}
	return append(out, newer...)
}

// lineUnits remembers which unit (province) a stored order line is for,
// as Merge reads it: the standing lines of a power are merged again with
// every version it sends, and reading each line with the grammar again
// was most of what a merge cost. The answer depends on the map and the
// line alone. Safe for concurrent use; bounded (emptied when full).
type lineUnits struct {
	mu sync.Mutex
	m  map[lineKey]string
}

type lineKey struct {
	m    *Map
	line string
}

// lineUnitsSize bounds the lines kept (a few hundred bytes each).
const lineUnitsSize = 1 << 14

var mergeUnits = &lineUnits{m: map[lineKey]string{}}

// of is the province of the unit line orders on map m, or the line
// itself behind a NUL when the line cannot be read (its own entry).
func (c *lineUnits) of(m *Map, line string) string {
	k := lineKey{m, line}
	c.mu.Lock()
	u, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return u
	}
	if o, _, err := ParseOrder(line, ParseOptions{Lexicon: m.lex, Strict: true}); err != nil {
		u = "\x00" + line // unreadable: keep it as its own entry
	} else {
		u = o.Loc.Province
	}
	c.mu.Lock()
	if len(c.m) >= lineUnitsSize {
		clear(c.m)
	}
	c.m[k] = u
	c.mu.Unlock()
	return u
}

// orderedUnit finds the power's own unit an order is given to.
func orderedUnit(pos *Position, pw string, o Order) (Unit, bool) {
	switch o.Kind {
	case Build, Waive:
		return Unit{}, false
	}
	if pos.Phase.Type == Retreats {
		for _, d := range pos.Dislodged {
			if d.Loc.Province == o.Loc.Province && d.Power == pw {
				return d.Unit, true
			}
		}
		return Unit{}, false
	}
	for _, u := range pos.Units {
		if u.Loc.Province == o.Loc.Province && u.Power == pw {
			return u, true
		}
	}
	return Unit{}, false
}

// notes tells a power what happens to what it did not order.
func (e *Engine) notes(pos *Position, pw string, ordered map[string]bool, canonical []string) []string {
	m := e.m
	var notes []string
	switch pos.Phase.Type {
	case Movement:
		for _, u := range pos.Units {
			if u.Power == pw && !ordered[u.Loc.Province] {
				notes = append(notes, m.UnitName(u)+" has no order: it will hold")
			}
		}
	case Retreats:
		for _, d := range pos.Dislodged {
			if d.Power == pw && !ordered[d.Loc.Province] {
				notes = append(notes, fmt.Sprintf("%s has no retreat order: it will be disbanded (%s)", m.UnitName(d.Unit), retreatText(m, d)))
			}
		}
	case Adjustments:
		owed := Owed(pos)[pw]
		switch {
		case owed > 0:
			n := 0
			for _, c := range canonical {
				if strings.HasPrefix(c, "Build") || c == "Waive" {
					n++
				}
			}
			notes = append(notes, fmt.Sprintf("%s may build %s in %s; %d ordered", m.PowerName(pw), plural(owed, "unit"), joinOr(m, freeHomes(pos, pw)), n))
			if n < owed {
				notes = append(notes, fmt.Sprintf("%s not ordered will be waived", plural(owed-n, "build")))
			}
		case owed < 0:
			n := 0
			for _, c := range canonical {
				if strings.HasSuffix(c, " D") {
					n++
				}
			}
			notes = append(notes, fmt.Sprintf("%s must disband %s; %d ordered", m.PowerName(pw), plural(-owed, "unit"), n))
			if n < -owed {
				notes = append(notes, fmt.Sprintf("%s not ordered will be chosen by the civil disorder rule (farthest from an owned centre first)", plural(-owed-n, "disband")))
			}
		default:
			notes = append(notes, fmt.Sprintf("%s has no adjustments to make", m.PowerName(pw)))
		}
	}
	return notes
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Resolve implements adjudicator.Engine. orders maps power ids to the
// canonical lines Check returned; a power without an entry is in civil
// disorder. Diplomacy uses no randomness, so seed is ignored.
func (e *Engine) Resolve(state []byte, powerOrders map[string][]string, seed int64) (adjudicator.Outcome, error) {
	g, err := viewState(state, e.m) // read only: Adjudicate makes the next position anew
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	if g.over {
		return adjudicator.Outcome{}, errors.New("diplomacy: the game is over")
	}
	pos := g.pos
	m := e.m
	powers := make([]string, 0, len(powerOrders))
	for p := range powerOrders {
		powers = append(powers, p)
	}
	sort.Strings(powers)
	lines := 0
	for _, l := range powerOrders {
		lines += len(l)
	}
	ords := make([]PowerOrder, 0, lines) // one allocation: an Order is large, and a doubling run of them was most of Resolve's own garbage
	var unread []OrderResult
	opts := e.parseOptions(pos)
	opts.Strict = true
	for _, p := range powers {
		pw, ok := m.PowerID(p)
		if !ok {
			return adjudicator.Outcome{}, fmt.Errorf("diplomacy: orders for unknown power %q", p)
		}
		for _, line := range powerOrders[p] {
			o, _, err := ParseOrder(line, opts)
			if err != nil {
				unread = append(unread, OrderResult{Power: pw, Order: &Order{}, Text: line, Outcome: Invalid, Reason: "not understood"})
				continue
			}
			o.Power = ""
			ords = append(ords, PowerOrder{Power: pw, Order: o})
		}
	}
	res, err := Adjudicate(pos, ords)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	res.Orders = append(res.Orders, unread...)
	next := &gameState{pos: res.Next}
	if res.Winner != "" {
		next.over, next.winners = true, []string{res.Winner}
	}
	out := adjudicator.Outcome{Next: encodeState(next)}
	// The daemon asks the new state's Status at once, and a burst's
	// pictures draw it: kept decoded, it is not read back from its JSON.
	e.m.states.put(out.Next, next)
	out.Report = e.report(pos, res, powerOrders)
	return out, nil
}

// ResultData is the plain-data account of a phase kept as Report.Data.
type ResultData struct {
	Variant     string            `json:"variant"`
	Phase       string            `json:"phase"` // e.g. "S1901M"
	Orders      []OrderResult     `json:"results"`
	Unordered   []string          `json:"unordered,omitempty"` // units that had no order, e.g. "england: F Lon"
	Dislodged   []jsonUnit        `json:"dislodged,omitempty"`
	Standoffs   []string          `json:"standoffs,omitempty"`
	Disbanded   []jsonUnit        `json:"disbanded,omitempty"`
	Built       []jsonUnit        `json:"built,omitempty"`
	Owners      map[string]string `json:"supply_centers,omitempty"`
	Adjustments map[string]int    `json:"adjustments,omitempty"`
	Eliminated  []string          `json:"eliminated,omitempty"`
	Winner      string            `json:"winner,omitempty"`
	Next        string            `json:"next"` // next phase id
}

func unitJSON(u Unit) jsonUnit {
	t := "army"
	if u.Type == Fleet {
		t = "fleet"
	}
	return jsonUnit{Power: u.Power, Type: t, Province: u.Loc.Province, Coast: u.Loc.Coast}
}

// unordered lists the units of the phase that received no accepted order.
func unordered(pos *Position, res *Result) []Unit {
	got := map[string]bool{}
	for _, r := range res.Orders {
		if r.Outcome != Illegal && r.Outcome != Invalid {
			got[r.Order.Loc.Province] = true
		}
	}
	var out []Unit
	switch pos.Phase.Type {
	case Movement:
		for _, u := range pos.Units {
			if !got[u.Loc.Province] {
				out = append(out, u)
			}
		}
	case Retreats:
		for _, d := range pos.Dislodged {
			if !got[d.Loc.Province] {
				out = append(out, d.Unit)
			}
		}
	}
	return out
}

func (e *Engine) report(pos *Position, res *Result, sent map[string][]string) adjudicator.Report {
	m := e.m
	data := ResultData{Variant: m.Name, Phase: pos.Phase.ID(), Orders: res.Orders, Standoffs: res.Standoffs,
		Owners: res.Owners, Adjustments: res.Adjustments, Eliminated: res.Eliminated, Winner: res.Winner, Next: res.Next.Phase.ID()}
	for _, u := range unordered(pos, res) {
		data.Unordered = append(data.Unordered, u.Power+": "+m.UnitName(u))
	}
	for _, d := range res.Dislodged {
		ju := unitJSON(d.Unit)
		ju.AttackerFrom, ju.ByConvoy, ju.Options = d.AttackerFrom, d.ByConvoy, append([]string{}, d.Options...)
		data.Dislodged = append(data.Dislodged, ju)
	}
	for _, u := range res.Disbanded {
		data.Disbanded = append(data.Disbanded, unitJSON(u))
	}
	for _, u := range res.Built {
		data.Built = append(data.Built, unitJSON(u))
	}
	raw, err := json.Marshal(data)
	if err != nil {
		panic(err) // plain data
	}
	return adjudicator.Report{Public: e.publicText(pos, res, sent), Private: e.privateText(res), Data: raw}
}

func (e *Engine) publicText(pos *Position, res *Result, sent map[string][]string) string {
	m := e.m
	var b strings.Builder
	fmt.Fprintf(&b, "%s — results\n", m.PhaseTitle(pos.Phase))
	missing := unordered(pos, res)
	// fate is what became of a unit that had no order that counted: it
	// held (and maybe was dislodged) or, in a retreat phase, disbanded.
	fate := func(u Unit) string {
		if pos.Phase.Type == Retreats {
			return "disbanded"
		}
		for _, d := range res.Dislodged {
			if d.Loc == u.Loc {
				return "held, dislodged"
			}
		}
		return "held"
	}
	for _, p := range m.Powers {
		var lines []string
		// A unit whose only order was illegal or invalid is told once: on
		// that order's line, with its reason and what the unit did instead.
		told := map[string]bool{}
		for _, r := range res.Orders {
			if r.Power != p.ID {
				continue
			}
			status := r.Outcome.String()
			if r.Reason != "" {
				status += ": " + r.Reason
			}
			if r.Outcome == Illegal || r.Outcome == Invalid {
				for _, u := range missing {
					if u.Power == p.ID && u.Loc.Province == r.Order.Loc.Province && !told[u.Loc.Province] {
						told[u.Loc.Province] = true
						status += "; the unit " + fate(u)
					}
				}
			}
			lines = append(lines, row(r.Text, status))
		}
		for _, u := range missing {
			if u.Power != p.ID || told[u.Loc.Province] {
				continue
			}
			switch pos.Phase.Type {
			case Movement:
				lines = append(lines, row(m.UnitName(u)+" H", "no order: "+fate(u)))
			case Retreats:
				lines = append(lines, row(m.UnitName(u)+" D", "no order: disbanded"))
			}
		}
		if pos.Phase.Type == Adjustments {
			if owed := Owed(pos)[p.ID]; owed > 0 {
				used := 0
				for _, r := range res.Orders {
					if r.Power == p.ID && r.Outcome == Succeeded && (r.Order.Kind == Build || r.Order.Kind == Waive) {
						used++
					}
				}
				if used < owed {
					lines = append(lines, row("Waive", fmt.Sprintf("%s not ordered: waived", plural(owed-used, "build"))))
				}
			}
			for _, u := range res.Disbanded {
				if u.Power == p.ID && !orderedDisband(res, p.ID, u) {
					lines = append(lines, row(m.UnitName(u)+" D", "civil disorder: disbanded"))
				}
			}
		}
		_, didSend := sent[p.ID]
		if !didSend {
			for k := range sent {
				if id, ok := m.PowerID(k); ok && id == p.ID {
					didSend = true
				}
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:", p.Name)
		if !didSend && pos.Phase.Type != Adjustments {
			b.WriteString(" (no orders received)")
		}
		b.WriteString("\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	if len(res.Dislodged) > 0 {
		b.WriteString("\nDislodged:\n")
		for _, d := range res.Dislodged {
			fmt.Fprintf(&b, "  %s %s (attacked from %s): %s\n", m.PowerName(d.Power), m.UnitName(d.Unit), m.LocName(Location{Province: d.AttackerFrom}), retreatText(m, d))
		}
	}
	if len(res.Standoffs) > 0 {
		var names []string
		for _, s := range res.Standoffs {
			names = append(names, m.LocName(Location{Province: s}))
		}
		fmt.Fprintf(&b, "\nStandoffs: %s\n", strings.Join(names, ", "))
	}
	if len(res.Built) > 0 {
		var built []string
		for _, u := range res.Built {
			built = append(built, m.PowerName(u.Power)+" "+m.UnitName(u))
		}
		fmt.Fprintf(&b, "\nBuilt: %s\n", strings.Join(built, ", "))
	}
	if res.Owners != nil {
		b.WriteString("\nSupply centres:\n")
		count := map[string][]string{}
		for _, sc := range m.SupplyCentres() {
			if p, ok := res.Owners[sc]; ok {
				pr, _ := m.Province(sc)
				count[p] = append(count[p], pr.Abbrev)
			}
		}
		units := res.Next.UnitCount()
		for _, p := range m.Powers {
			if len(count[p.ID]) == 0 && units[p.ID] == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %s: %d (%s), %d units", p.Name, len(count[p.ID]), strings.Join(count[p.ID], " "), units[p.ID])
			if n := res.Adjustments[p.ID]; n > 0 {
				fmt.Fprintf(&b, ": builds %d", n)
			} else if n < 0 {
				fmt.Fprintf(&b, ": disbands %d", -n)
			}
			b.WriteString("\n")
		}
	}
	for _, p := range res.Eliminated {
		fmt.Fprintf(&b, "\n%s is eliminated.\n", m.PowerName(p))
	}
	if res.Winner != "" {
		fmt.Fprintf(&b, "\n%s has %d supply centres and wins the game.\n", m.PowerName(res.Winner), res.Next.CentreCount()[res.Winner])
	} else {
		fmt.Fprintf(&b, "\nNext phase: %s\n", m.PhaseTitle(res.Next.Phase))
	}
	return b.String()
}

// row prints one order line of a report: the order, padded, and its fate.
func row(order, status string) string {
	return "  " + order + strings.Repeat(" ", max(1, 26-len(order))) + status
}

func orderedDisband(res *Result, power string, u Unit) bool {
	for _, r := range res.Orders {
		if r.Power == power && r.Outcome == Succeeded && r.Order.Kind == Disband && r.Order.Loc.Province == u.Loc.Province {
			return true
		}
	}
	return false
}

func (e *Engine) privateText(res *Result) map[string]string {
	m := e.m
	out := map[string]string{}
	add := func(p, s string) { out[p] += s + "\n" }
	for _, d := range res.Dislodged {
		if len(d.Options) == 0 {
			add(d.Power, fmt.Sprintf("Your %s was dislodged with no retreat possible: it is disbanded in %s (order %s D, or nothing).",
				m.UnitName(d.Unit), m.PhaseTitle(res.Next.Phase), m.UnitName(d.Unit)))
			continue
		}
		add(d.Power, fmt.Sprintf("Your %s was dislodged: it %s. Order its retreat (%s R …) or disband it (%s D) in %s.",
			m.UnitName(d.Unit), retreatText(m, d), m.UnitName(d.Unit), m.UnitName(d.Unit), m.PhaseTitle(res.Next.Phase)))
	}
	powers := make([]string, 0, len(res.Adjustments))
	for p := range res.Adjustments {
		powers = append(powers, p)
	}
	sort.Strings(powers)
	for _, p := range powers {
		n := res.Adjustments[p]
		if n > 0 {
			add(p, fmt.Sprintf("You may build %s in %s (in %s). Builds you do not order are waived.", plural(n, "unit"), joinOr(m, freeHomes(res.Next, p)), m.PhaseTitle(res.Next.Phase)))
		} else {
			add(p, fmt.Sprintf("You must disband %s in %s. If you do not, the civil disorder rule chooses.", plural(-n, "unit"), m.PhaseTitle(res.Next.Phase)))
		}
	}
	return out
}
