package supremacy

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// Engine is the adjudicator.Engine of Supremacy 2020 on one scenario, with
// default options (the superpowers played, above all). Powers are named by
// their scenario ids ("usa", "russia") in every call and result.
type Engine struct {
	name     string
	title    string
	defaults map[string]string
	sc       *Scenario
	powers   []string
	// info is Info as made once: each call hands out copies of its
	// slices and map.
	infoOnce sync.Once
	info     adjudicator.Info
}

// Preset is an engine registered by name, one per player count: CREATE's
// players=N picks one (Setup), and the names stay as aliases.
type Preset struct {
	Name    string
	Title   string
	Options map[string]string
}

// Presets are the engines this package registers.
var Presets = []Preset{
	{Name: "supremacy", Title: "Supremacy 2020 (six superpowers)", Options: map[string]string{"powers": "usa,commonwealth,eu,russia,china,japan"}},
	{Name: "supremacy-3", Title: "Supremacy 2020 (three players: United States, Russia, China)", Options: map[string]string{"powers": "usa,russia,china"}},
	{Name: "supremacy-4", Title: "Supremacy 2020 (four players)", Options: map[string]string{"powers": "usa,eu,russia,china"}},
	{Name: "supremacy-5", Title: "Supremacy 2020 (five players)", Options: map[string]string{"powers": "usa,eu,russia,china,japan"}},
	{Name: "supremacy-8", Title: "Supremacy 2020 (eight players, with Brazil and the Middle East)", Options: map[string]string{"powers": "usa,commonwealth,eu,russia,china,japan,brazil,middleeast"}},
}

// The presets are registered without reading the scenario: it is loaded
// when an engine is first looked up.
func init() {
	for _, p := range Presets {
		adjudicator.RegisterLazy(p.Name, func() adjudicator.Engine {
			e, err := NewEngine(p.Name, p.Title, p.Options)
			if err != nil {
				panic(err) // the presets are tested
			}
			return e
		})
	}
}

// NewEngine returns an engine whose New uses defaults for the options a
// game does not set. Its Info.Powers are the defaults' powers.
func NewEngine(name, title string, defaults map[string]string) (*Engine, error) {
	opt, err := parseOptions(defaults, nil)
	if err != nil {
		return nil, fmt.Errorf("supremacy: engine %s: %w", name, err)
	}
	sc, _ := ScenarioByName(opt.Scenario)
	return &Engine{name: name, title: title, defaults: defaults, sc: sc, powers: opt.Powers}, nil
}

// Scenario returns the scenario of the engine's default options.
func (e *Engine) Scenario() *Scenario { return e.sc }

var optionKeys = []string{"build", "fast", "powers", "scenario", "slow", "steps", "turns"}

// parseOptions reads the game options over the defaults; unknown keys are
// an error.
func parseOptions(defaults, options map[string]string) (Options, error) {
	all := map[string]string{}
	for k, v := range defaults {
		all[strings.ToLower(k)] = v
	}
	for k, v := range options {
		all[strings.ToLower(k)] = v
	}
	opt := Options{Scenario: "default", Turns: 10, Steps: StepsNone}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	boolOf := func(k, v string) (bool, error) {
		switch strings.ToLower(v) {
		case "yes", "on", "true", "1":
			return true, nil
		case "no", "off", "false", "0", "":
			return false, nil
		}
		return false, fmt.Errorf("option %s: %q is not yes or no", k, v)
	}
	var err error
	var powers string
	for _, k := range keys {
		v := strings.TrimSpace(all[k])
		switch k {
		case "scenario":
			opt.Scenario = v
		case "powers":
			powers = v
		case "turns":
			n, e := strconv.Atoi(v)
			if e != nil || n < 1 || n > 99 {
				return opt, fmt.Errorf("option turns: %q is not a number of turns from 1 to 99", v)
			}
			opt.Turns = n
		case "fast":
			opt.Fast, err = boolOf(k, v)
		case "slow":
			opt.Slow, err = boolOf(k, v)
		case "steps":
			switch strings.ToLower(v) {
			case StepsNone, StepsAttack, StepsAll:
				opt.Steps = strings.ToLower(v)
			default:
				return opt, fmt.Errorf("option steps: %q is not none, attack or all", v)
			}
		case "build":
			switch strings.ToLower(v) {
			case "together":
				opt.BuildTogether = true
			case "steps", "":
				opt.BuildTogether = false
			default:
				return opt, fmt.Errorf("option build: %q is not together or steps", v)
			}
		default:
			return opt, fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(optionKeys, ", "))
		}
		if err != nil {
			return opt, err
		}
	}
	sc, ok := ScenarioByName(opt.Scenario)
	if !ok {
		return opt, fmt.Errorf("option scenario: no scenario %q", opt.Scenario)
	}
	if powers == "" {
		for _, p := range sc.powers {
			if !p.Optional {
				opt.Powers = append(opt.Powers, p.ID)
			}
		}
	} else {
		seen := map[string]bool{}
		for _, f := range strings.FieldsFunc(powers, func(r rune) bool { return r == ',' || r == ' ' || r == '+' }) {
			f = strings.ToLower(f)
			if _, ok := sc.powerByID[f]; !ok {
				return opt, fmt.Errorf("option powers: %q is not a superpower of scenario %s (%s)", f, sc.Name, strings.Join(sc.Powers(), ", "))
			}
			if seen[f] {
				return opt, fmt.Errorf("option powers: %s twice", f)
			}
			seen[f] = true
		}
		for _, p := range sc.powers { // scenario order
			if seen[p.ID] {
				opt.Powers = append(opt.Powers, p.ID)
			}
		}
	}
	if len(opt.Powers) < 2 {
		return opt, fmt.Errorf("option powers: at least two superpowers must play")
	}
	return opt, nil
}

// Info implements adjudicator.Engine.
func (e *Engine) Info() adjudicator.Info {
	e.infoOnce.Do(func() { e.info = e.makeInfo() })
	info := e.info
	info.Powers, info.Examples, info.PowerNames = slices.Clone(info.Powers), slices.Clone(info.Examples), maps.Clone(info.PowerNames)
	return info
}

func (e *Engine) makeInfo() adjudicator.Info {
	names := map[string]string{}
	for _, p := range e.sc.powers {
		names[p.ID] = p.Name
	}
	return adjudicator.Info{
		Name: e.name, Game: "supremacy", Title: e.title, Powers: append([]string(nil), e.powers...),
		PowerNames: names, Simultaneous: false, Rules: RulesText, Examples: e.examples(),
		// The board is open, but each player's picture of a phase draws
		// that player's own events larger and lists them (drawphase.go):
		// the daemon draws one picture per player, and the public one
		// for observers and the GM.
		PublicPicture: false,
	}
}

// New implements adjudicator.Engine: it deals the cards and opens the
// set-up phase.
func (e *Engine) New(options map[string]string, seed int64) ([]byte, error) {
	opt, err := parseOptions(e.defaults, options)
	if err != nil {
		return nil, fmt.Errorf("supremacy: %w", err)
	}
	sc, _ := ScenarioByName(opt.Scenario)
	return newGame(sc, opt, seed).encode(), nil
}

// Status implements adjudicator.Engine.
func (e *Engine) Status(state []byte) (adjudicator.Status, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return adjudicator.Status{}, err
	}
	return w.status(), nil
}

func (w *world) status() adjudicator.Status {
	// Orders are taken whole (no Merger), and a phase ends as soon as
	// every power it waits for has sent them (a step: its one player).
	st := adjudicator.Status{ID: w.phaseID(), Title: w.phaseTitle(), Kind: adjudicator.PhaseOrders, Scores: map[string]int{},
		Over: w.over, Summary: w.boardText(), Combine: adjudicator.CombineReplace, EndsTurn: true,
		CombineText: "a new mail of orders replaces all your standing orders for this phase"}
	if w.stepped(w.phase) {
		st.Kind = adjudicator.PhaseTurn
	}
	if w.over {
		st.Result = w.result()
	}
	for _, i := range w.waiting() {
		st.Waiting = append(st.Waiting, w.pid(i))
	}
	for i, p := range w.players {
		if p.alive() {
			st.Alive = append(st.Alive, p.ID)
		}
		// Scores are public: what the board shows (companies and forces)
		// while the game runs, the full net worth at the end.
		switch {
		case w.over && p.Status == statusDestroyed:
			st.Scores[p.ID] = p.SavedNW
		case w.over && p.alive():
			st.Scores[p.ID] = w.netWorth(i)
		case p.alive():
			st.Scores[p.ID] = w.publicWorth(i)
		}
	}
	return st
}

// result is how the game ended: the highest net worth wins (a tie
// shares the win; seed: Ending the Game).
func (w *world) result() *adjudicator.Result {
	res := &adjudicator.Result{Winners: append([]string(nil), w.winners...), Kind: "networth"}
	var names []string
	nw := 0
	for _, id := range w.winners {
		i := w.playerIndex(id)
		names = append(names, w.pname(i))
		nw = w.netWorth(i)
	}
	switch len(names) {
	case 0:
		res.Kind, res.Text = "none", "The game is over and nobody wins."
	case 1:
		res.Text = fmt.Sprintf("%s wins with the highest net worth: %s.", names[0], money(nw))
	default:
		res.Text = fmt.Sprintf("%s share the win with a net worth of %s each.", adjudicator.List(names), money(nw))
	}
	return res
}

// publicWorth is the part of a player's net worth the board shows.
func (w *world) publicWorth(i int) int {
	v := &w.sc.NetWorth
	nw := 0
	for _, c := range w.companies(i) {
		if w.cardBlk[c] {
			nw += v.BlockadedCompany
		} else {
			nw += v.Company
		}
	}
	a, n := w.forces(i)
	return nw + (a+n)*v.Force
}

// phaseID is a stable, sortable id: T03-4 (turn 3, phase 4), with the step
// in stepped phases: T03-4-007.
func (w *world) phaseID() string {
	if w.over {
		return fmt.Sprintf("T%02d-9", w.turn)
	}
	id := fmt.Sprintf("T%02d-%d", w.turn, int(w.phase))
	if w.stepped(w.phase) {
		id += fmt.Sprintf("-%03d", w.step)
	}
	return id
}

func (w *world) phaseTitle() string {
	switch {
	case w.over:
		return "Game over"
	case w.phase == PhaseSetup:
		return "Set-up"
	}
	t := fmt.Sprintf("Turn %d %s", w.turn, w.phase.Title())
	if !w.stepped(w.phase) {
		return t
	}
	ws := w.waiting()
	if len(ws) == 0 {
		return t
	}
	who := w.pname(ws[0])
	if w.phase == PhaseAttack && w.attack != nil {
		switch w.attack.Stage {
		case "counter":
			return fmt.Sprintf("%s: %s may counterattack", t, who)
		case "confirm":
			return fmt.Sprintf("%s: %s confirms or calls off its launch", t, who)
		}
		return fmt.Sprintf("%s: %s attacks (step %d)", t, who, w.step+1)
	}
	return fmt.Sprintf("%s: %s's step", t, who)
}

// parseLine reads a stored canonical line strictly.
func (sc *Scenario) parseLine(line string) (*Order, error) {
	s := orders.NewScanner(line, true)
	v := grammar{sc}.ParseOrder(s)
	o, ok := v.(*Order)
	if !ok || o == nil || s.Failed() {
		msg := "not understood"
		for _, d := range s.Diagnostics() {
			if d.Severity == orders.Error {
				msg = d.Message
				break
			}
		}
		return nil, fmt.Errorf("supremacy: stored order %q: %s", line, msg)
	}
	return o, nil
}

// parseOptions for orders.Parse.
func (sc *Scenario) parseOpts() orders.Options {
	return orders.Options{Grammar: grammar{sc}, Powers: sc.powerCmds}
}

// Check implements adjudicator.Engine.
func (e *Engine) Check(state []byte, power string, text string) (adjudicator.Check, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return adjudicator.Check{}, err
	}
	sc := w.sc
	res := orders.Parse(text, sc.parseOpts())
	ck := adjudicator.Check{Lines: res.Lines}
	i := w.playerIndex(power)
	if i < 0 {
		return ck, fmt.Errorf("supremacy: %q is not a player of this game", power)
	}
	acting := false
	for _, j := range w.waiting() {
		acting = acting || j == i
	}
	sections := w.splitSections(ck.Lines) // ahead.go: orders for later phases of the turn

	n := 0
	prev := KNone // the kind of the last order line stored (KNone after one refused)
	for k := range ck.Lines {
		l := &ck.Lines[k]
		o, ok := l.Value.(*Order)
		if !sections.forOpen(k) {
			prev = KNone
			continue
		}
		if l.Kind != orders.OrderLine || !ok {
			if l.Kind == orders.OrderLine {
				prev = KNone
			}
			continue
		}
		errs, warns := w.vet(i, o, acting)
		if o.Kind == KReinforce {
			if why := reinforceAfter(prev); why != "" {
				errs = append(errs, why)
			}
		}
		for _, m := range errs {
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: m})
		}
		if len(errs) > 0 {
			prev = KNone
			continue
		}
		prev = o.Kind
		for _, m := range warns {
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Warning, Message: m})
		}
		ck.Canonical = append(ck.Canonical, sc.format(o))
		if o.Kind == KAttack || o.Kind == KLaunch {
			n++
		}
	}
	ck.Notes = w.notes(i, acting, n)
	ck.Held = w.checkHeld(i, ck.Lines, sections)
	return ck, nil
}

// reinforceAfter says why a REINFORCE line cannot follow an order of kind
// prev ("" when it may). Reinforcing moves are steps 5 and 6 of the
// conventional attack (seed: Conventional Attack); a strategic attack has
// none (seed: Strategic Attack: Identify, ABMs, Resolve Combat).
func reinforceAfter(prev Kind) string {
	switch prev {
	case KAttack:
		return ""
	case KLaunch:
		return "no reinforcing move follows a strategic attack: the seed's reinforcing moves are steps of the conventional attack only"
	}
	return "REINFORCE goes on the line right after the ATTACK it follows (an ATTACK that was accepted)"
}

// notes tell a player what the phase expects and what happens by default.
func (w *world) notes(i int, acting bool, attacks int) []string {
	if w.over {
		return []string{"The game is over."}
	}
	p := w.players[i]
	if !p.alive() {
		return []string{"You are out of the game (" + p.Status + ")."}
	}
	var out []string
	if !acting {
		ws := w.waiting()
		who := "another player"
		if len(ws) > 0 {
			who = w.pname(ws[0])
		}
		return append(out, fmt.Sprintf("It is %s's step, not yours: only anytime orders (LOAN, REPAY, BONDS, SEIZE, OFFER, ACCEPT) and standing orders (IF ATTACKED …, CONTEST, PERMIT, ABM DEFEND) count now.", who))
	}
	switch w.phase {
	case PhaseSetup:
		out = append(out, fmt.Sprintf("Set-up: place %d forces (PLACE 3 ARMIES IN <home area>, PLACE 2 NAVIES IN <sea next to a home>); what you do not place becomes armies spread over your home areas. MISDEAL redraws your hand once.", w.sc.Rules.StartForces))
	case PhaseSalaries:
		out = append(out, "Salaries: without OPEN/CLOSE orders your companies open as far as your cash allows after the forces' pay and the interest; all forces are paid unless you DISBAND some.")
	case PhaseAttack:
		if w.stepped(PhaseAttack) && attacks > 1 {
			out = append(out, "One attack per step: only the first ATTACK or LAUNCH whose condition holds is made now; send the next one at your next step.")
		}
	}
	if !w.stepped(w.phase) && w.phase != PhaseSetup && w.phase != PhaseSalaries {
		for k, j := range w.order {
			if j == i {
				out = append(out, fmt.Sprintf("Your orders are carried out %s of %d in this phase's drawn order.", ordinal(k+1), len(w.order)))
			}
		}
	}
	return out
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

// vet checks an order against the rules and the position: errors for what
// can never work in this phase, warnings for what may fail as things stand.
func (w *world) vet(i int, o *Order, acting bool) (errs, warns []string) {
	sc := w.sc
	p := w.players[i]
	r := &run{w: w, sc: sc, rep: newReport()}
	if w.over {
		return []string{"the game is over"}, nil
	}
	if !p.alive() {
		return []string{"you are out of the game"}, nil
	}
	ph := o.phaseOf()
	if !o.anytime() {
		if ph != w.phase {
			return []string{fmt.Sprintf("%s is an order of the %s phase; this is the %s phase", strings.Fields(sc.format(o))[0], ph.Title(), w.phase.Title())}, nil
		}
		if !acting {
			return []string{"it is not your step: this order waits for your own step"}, nil
		}
		if w.phase == PhaseAttack && w.attack != nil {
			stage := w.attack.Stage
			switch {
			case stage == "confirm" && o.Kind != KConfirm && o.Kind != KCallOff:
				return []string{"your launch awaits CONFIRM or CALL OFF"}, nil
			case stage != "confirm" && (o.Kind == KConfirm || o.Kind == KCallOff):
				return []string{"there is no declared launch to confirm"}, nil
			case stage == "counter" && o.Kind == KReinforce:
				return []string{"a counterattack step has no reinforcement"}, nil
			}
		} else if o.Kind == KConfirm || o.Kind == KCallOff {
			return []string{"CONFIRM and CALL OFF answer a declared launch when the attack phase is played step by step"}, nil
		}
	}
	switch o.Kind {
	case KLoan, KRepay, KBuyBonds, KSellBonds:
		if o.N%sc.Rules.LoanUnit != 0 {
			errs = append(errs, fmt.Sprintf("amounts are multiples of %s", money(sc.Rules.LoanUnit)))
		}
	case KSeize:
		if !o.All {
			a := w.cardArea(o.Card)
			switch {
			case w.cardAt[o.Card] == i:
				warns = append(warns, sc.cards[o.Card].name+" is yours already")
			case !w.controls(i, a):
				warns = append(warns, "you do not control "+sc.areaName(a)+" now")
			}
		}
	case KOffer:
		q := w.playerOf(o.Power)
		switch {
		case q == nil || !q.alive():
			errs = append(errs, o.Power+" is not playing")
		case o.Power == p.ID:
			errs = append(errs, "an offer to yourself")
		}
		for _, it := range append(append([]Item(nil), o.Give...), o.Get...) {
			switch {
			case (it.Kind == ItemResource || it.Kind == ItemCompany) && w.phase != PhaseTrade:
				errs = append(errs, "resources and companies are traded in the trade phase")
			case (it.Kind == ItemArmies || it.Kind == ItemNavies || it.Kind == ItemICBM || it.Kind == ItemABM) && w.phase != PhaseBuild:
				errs = append(errs, "forces and weapons are sold in the build phase, after they are built")
			}
		}
	case KIntercept:
		if w.attack == nil || w.attack.Stage != "confirm" {
			warns = append(warns, "ABM targets count only against a declared launch awaiting confirmation (step play); otherwise your ABM DEFEND order decides")
		}
	case KAccept:
		if o.Power == p.ID {
			errs = append(errs, "you cannot accept your own offer")
		}
	case KRefuse:
		if o.Power == p.ID {
			errs = append(errs, "you cannot refuse your own offer")
		}
	case KReaction:
		if why := w.staticAttackOrMove(o.Sub); why != "" {
			errs = append(errs, why)
		}
	case KPlace:
		total := 0
		for _, part := range o.Parts {
			if why := r.placeOK(i, part.To); why != "" {
				errs = append(errs, why)
			}
			total += part.N
		}
		if total > sc.Rules.StartForces {
			warns = append(warns, fmt.Sprintf("only %d forces are placed at set-up", sc.Rules.StartForces))
		}
	case KMisdeal:
		if p.Misdealt {
			errs = append(errs, "a misdeal is allowed once only")
		}
	case KOpen, KClose:
		if !o.All && w.cardAt[o.Card] != i {
			errs = append(errs, sc.cards[o.Card].name+" is not your company")
		}
	case KBlockade:
		if w.cardAt[o.Card] == i {
			errs = append(errs, "you cannot blockade your own company")
		} else if len(sc.areas[w.cardArea(o.Card)].seas) == 0 {
			errs = append(errs, sc.areaName(w.cardArea(o.Card))+" has no sea next to it: it cannot be blockaded")
		}
	case KDisband:
		have := w.armies(i, o.Area)
		if o.Unit == UNavy {
			have = w.navies(i, o.Area)
		}
		if have == 0 {
			warns = append(warns, "you have none there now")
		}
	case KAttack:
		if why := w.staticAttackOrMove(o); why != "" {
			errs = append(errs, why)
		} else if _, _, why := r.attackCheck(i, o); why != "" {
			warns = append(warns, "as things stand: "+why)
		}
	case KLaunch:
		for _, t := range o.Targets {
			if t.City < 0 && len(sc.areas[t.Area].Cities) > 1 {
				errs = append(errs, sc.areaName(t.Area)+" has several cities: target one ("+strings.Join(sc.areas[t.Area].Cities, ", ")+")")
			}
		}
		if len(errs) == 0 {
			if why := r.strategicCheck(i, o); why != "" {
				warns = append(warns, "as things stand: "+why)
			}
		}
	case KReinforce:
		if why := w.staticAttackOrMove(o.Sub); why != "" {
			errs = append(errs, why)
		}
	case KMove, KRail, KAirlift, KTransport:
		if why := sc.moveStatic(o); why != "" {
			errs = append(errs, why)
		} else if _, why := r.moveCheck(i, o); why != "" {
			warns = append(warns, "as things stand: "+why)
		}
	case KBuild:
		total := 0
		for _, part := range o.Parts {
			total += part.N
			if why := r.buildPlaceOK(i, part.To); why != "" {
				warns = append(warns, "as things stand: "+why)
			}
		}
		if total%sc.Costs.Forces.Count != 0 {
			errs = append(errs, fmt.Sprintf("armies and navies are built in sets of %d", sc.Costs.Forces.Count))
		}
	case KBuildWeapon:
		if (o.Unit == UICBM && !p.TechICBM) || (o.Unit == UABM && !p.TechABM) {
			warns = append(warns, "you do not have the technology yet (research it first, in this phase)")
		}
	case KResearch:
		switch {
		case o.Tech == TechICBM && p.TechICBM, o.Tech == TechABM && p.TechABM:
			errs = append(errs, "you have that technology already")
		case o.Tech != 0 && w.opt.Slow && w.turn < sc.Rules.SlowTechTurn:
			errs = append(errs, fmt.Sprintf("slow game: no ICBM or ABM research before turn %d", sc.Rules.SlowTechTurn))
		}
	case KSellMinor, KBuyBack:
		switch {
		case !w.minor(o.Minor):
			errs = append(errs, sc.areaName(o.Minor)+" is not a minor power")
		case o.Unit == UNavy && len(sc.areas[o.Minor].seas) == 0:
			errs = append(errs, sc.areaName(o.Minor)+" has no coast: it cannot keep navies")
		}
	}
	return errs, warns
}

// staticAttackOrMove checks what never changes about an attack or a move.
func (w *world) staticAttackOrMove(o *Order) string {
	sc := w.sc
	switch o.Kind {
	case KMove, KRail, KAirlift, KTransport:
		return sc.moveStatic(o)
	case KLaunch:
		for _, t := range o.Targets {
			if t.City < 0 && len(sc.areas[t.Area].Cities) > 1 {
				return sc.areaName(t.Area) + " has several cities: target one (" + strings.Join(sc.areas[t.Area].Cities, ", ") + ")"
			}
		}
		return ""
	case KAttack:
		acts := 0
		for _, s := range o.Strikes {
			acts += len(s.Sources) * s.Rounds
			for _, src := range s.Sources {
				if src.Via >= 0 {
					acts++
				}
				switch {
				case sc.areas[s.Target].sea && !sc.areas[src.Area].sea:
					return "armies cannot attack navies at sea"
				case !sc.areas[src.Area].sea && src.Via < 0 && !sc.armyBorder(src.Area, s.Target):
					if sc.adjacent(src.Area, s.Target) {
						return "armies cannot cross the impassable border between " + sc.areaName(src.Area) + " and " + sc.areaName(s.Target)
					}
					return sc.areaName(src.Area) + " does not border " + sc.areaName(s.Target)
				case src.Via >= 0 && (!sc.areas[src.Via].sea || !sc.adjacent(src.Area, src.Via)):
					return sc.areaName(src.Via) + " is not a sea next to " + sc.areaName(src.Area)
				case src.To >= 0 && !sc.areas[src.To].sea:
					return sc.areaName(src.To) + " is not a sea area"
				}
			}
		}
		if acts > sc.Rules.AttackActivations {
			return fmt.Sprintf("an attack activates at most %d areas (a blitz round and a carrying fleet count as one each); this one needs %d", sc.Rules.AttackActivations, acts)
		}
		for _, l := range o.Leave {
			overland := false
			for _, s := range o.Strikes {
				for _, src := range s.Sources {
					overland = overland || (src.Area == l.From && src.Via < 0 && !sc.areas[src.Area].sea)
				}
			}
			if !overland {
				return "LEAVE names an area whose armies attack overland in this attack; " + sc.areaName(l.From) + " is not one (armies carried by sea always land)"
			}
		}
	}
	return ""
}

// Resolve implements adjudicator.Engine.
func (e *Engine) Resolve(state []byte, ords map[string][]string, seed int64) (adjudicator.Outcome, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	if w.over {
		return adjudicator.Outcome{}, errors.New("supremacy: the game is over")
	}
	parsed := make([][]*Order, len(w.players))
	var bad []string
	for _, power := range sortedMapKeys(ords) {
		i := w.playerIndex(power)
		if i < 0 {
			continue
		}
		for _, line := range ords[power] {
			o, err := w.sc.parseLine(line)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s: %v", power, err))
				continue
			}
			parsed[i] = append(parsed[i], o)
		}
	}
	title := w.phaseTitle()
	r := newRun(w, seed)
	r.resolve(parsed)
	return e.outcome(w, r, title, bad), nil
}

func sortedMapKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// outcome renders a resolved phase.
func (e *Engine) outcome(w *world, r *run, title string, bad []string) adjudicator.Outcome {
	var pub strings.Builder
	fmt.Fprintf(&pub, "Supremacy 2020 — %s\n\n", title)
	for _, l := range r.rep.pub {
		pub.WriteString(l + "\n")
	}
	for _, b := range bad {
		pub.WriteString("(unreadable stored order ignored: " + b + ")\n")
	}
	pub.WriteString("\n" + w.boardText())
	priv := map[string]string{}
	for i, p := range w.players {
		var b strings.Builder
		for _, l := range r.rep.priv[p.ID] {
			b.WriteString(l + "\n")
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(w.privateText(i))
		priv[p.ID] = b.String()
	}
	data, _ := json.Marshal(struct {
		Phase  string  `json:"phase"`
		Events []event `json:"events"`
		Marks  []mark  `json:"marks,omitempty"`
	}{title, r.rep.events, r.rep.marks})
	out := adjudicator.Outcome{Next: w.encode(), Report: adjudicator.Report{Public: pub.String(), Private: priv, Data: data}}
	return out
}

// boardText is the public picture of the game.
func (w *world) boardText() string {
	sc := w.sc
	var b strings.Builder
	fmt.Fprintf(&b, "%s", w.phaseTitle())
	if w.opt.Turns > 0 && !w.over {
		fmt.Fprintf(&b, " (the game ends after turn %d)", w.opt.Turns)
	}
	b.WriteString("\n")
	if len(w.order) > 0 && !w.over {
		names := make([]string, len(w.order))
		for k, i := range w.order {
			names[k] = w.pname(i)
		}
		fmt.Fprintf(&b, "Order of play: %s\n", strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "Market: oil %s, minerals %s, grain %s\n", money(w.price(Oil)), money(w.price(Minerals)), money(w.price(Grain)))
	for i, p := range w.players {
		sp := sc.powers[p.idx]
		status := ""
		if !p.alive() {
			status = " — out (" + p.Status + ")"
		}
		fmt.Fprintf(&b, "%s%s\n", sp.Name, status)
		if !p.alive() {
			continue
		}
		var homes []string
		for _, a := range sp.homes {
			h := sc.areas[a].Name
			if ctl := w.controller(a); w.dead[a] {
				h += " (destroyed)"
			} else if ctl != i {
				if ctl >= 0 {
					h += " (held by " + w.pname(ctl) + ")"
				} else {
					h += " (lost)"
				}
			}
			homes = append(homes, h)
		}
		fmt.Fprintf(&b, "  home: %s\n", strings.Join(homes, ", "))
		var forces []string
		for a := range sc.areas {
			if n := w.armies(i, a); n > 0 {
				forces = append(forces, fmt.Sprintf("%s %s", sc.areas[a].ID, plural(n, "army", "armies")))
			}
			if n := w.navies(i, a); n > 0 {
				forces = append(forces, fmt.Sprintf("%s %s", sc.areas[a].ID, plural(n, "navy", "navies")))
			}
		}
		fmt.Fprintf(&b, "  forces: %s\n", orNone(strings.Join(forces, ", ")))
		var cos []string
		for _, c := range w.companies(i) {
			co := sc.cards[c].company
			st := "closed"
			if w.cardOpn[c] {
				st = "open"
			}
			if w.cardBlk[c] {
				st += ", blockaded"
			}
			cos = append(cos, fmt.Sprintf("%s [%s, %d %s, %s]", sc.cards[c].name, sc.areas[co.area].ID, co.Output, co.res, st))
		}
		fmt.Fprintf(&b, "  companies: %s\n", orNone(strings.Join(cos, "; ")))
	}
	var loose []string
	for c, at := range w.cardAt {
		if at == cardLoose {
			loose = append(loose, fmt.Sprintf("%s [%s]", sc.cards[c].name, sc.areas[w.cardArea(c)].ID))
		}
	}
	if len(loose) > 0 {
		fmt.Fprintf(&b, "Companies open to seizure: %s\n", strings.Join(loose, "; "))
	}
	var minors, dead, cities []string
	for a := range sc.areas {
		if w.minorA[a]+w.minorI[a]+w.minorB[a]+w.minorN[a] > 0 {
			navies := ""
			if w.minorN[a] > 0 {
				navies = ", " + plural(w.minorN[a], "navy", "navies")
			}
			minors = append(minors, fmt.Sprintf("%s (%d armies%s, %d ICBM, %d ABM)", sc.areas[a].Name, w.minorA[a], navies, w.minorI[a], w.minorB[a]))
		}
		if w.dead[a] {
			dead = append(dead, sc.areas[a].Name)
		} else if len(w.cities[a]) > 1 {
			for k, d := range w.cities[a] {
				if d {
					cities = append(cities, sc.areas[a].Cities[k])
				}
			}
		}
	}
	if len(minors) > 0 {
		fmt.Fprintf(&b, "Minor powers armed: %s\n", strings.Join(minors, "; "))
	}
	if len(dead) > 0 {
		fmt.Fprintf(&b, "Contaminated (out of play): %s\n", strings.Join(dead, ", "))
	}
	if len(cities) > 0 {
		fmt.Fprintf(&b, "Destroyed cities: %s\n", strings.Join(cities, ", "))
	}
	if w.deton > 0 {
		fmt.Fprintf(&b, "Land detonations: %d (nuclear winter is rolled from the %dth)\n", w.deton, sc.Rules.WinterDetonation)
	}
	if w.over {
		if w.winter {
			b.WriteString("The game ended in nuclear winter.\n")
		}
		if len(w.winners) > 0 {
			names := make([]string, len(w.winners))
			for k, id := range w.winners {
				names[k] = w.pname(w.playerIndex(id))
			}
			fmt.Fprintf(&b, "Supreme Superpower: %s\n", strings.Join(names, " and "))
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// privateText is a player's own position.
func (w *world) privateText(i int) string {
	sc := w.sc
	p := w.players[i]
	var b strings.Builder
	fmt.Fprintf(&b, "Your position (%s):\n", w.pname(i))
	if !p.alive() {
		fmt.Fprintf(&b, "  You are out of the game (%s).", p.Status)
		if p.Status == statusDestroyed {
			fmt.Fprintf(&b, " Your net worth of %s counts at the end.", money(p.SavedNW))
		}
		b.WriteString("\n")
		return b.String()
	}
	fmt.Fprintf(&b, "  cash %s; loans %s (interest %s per turn); bonds %s (interest %s per turn)\n",
		money(p.Cash), money(p.Loans), money(sc.Loans.Interest(p.LoanPeak)), money(p.Bonds), money(sc.Bonds.Interest(p.Bonds)))
	fmt.Fprintf(&b, "  Strategic Reserve (%d card%s): oil %d/%d, minerals %d/%d, grain %d/%d; ICBM %d/%d, ABM %d/%d\n",
		p.Cards, map[bool]string{true: "s", false: ""}[p.Cards > 1],
		p.Oil, sc.Reserve.Oil*p.Cards, p.Minerals, sc.Reserve.Minerals*p.Cards, p.Grain, sc.Reserve.Grain*p.Cards,
		p.ICBM, sc.Reserve.ICBM*p.Cards, p.ABM, sc.Reserve.ABM*p.Cards)
	var tech []string
	if p.TechICBM {
		tech = append(tech, "ICBM")
	}
	if p.TechABM {
		tech = append(tech, "ABM")
	}
	fmt.Fprintf(&b, "  technologies: %s; this turn: %d of %d trades, %d of %d research attempts\n",
		orNone(strings.Join(tech, ", ")), p.Trades, sc.Rules.TradesPerTurn, p.Research, sc.Rules.ResearchAttempts)
	var cos []string
	for _, c := range w.companies(i) {
		st := "closed"
		if w.cardOpn[c] {
			st = "open"
		}
		cos = append(cos, fmt.Sprintf("%s (%s)", sc.cards[c].name, st))
	}
	fmt.Fprintf(&b, "  companies: %s\n", orNone(strings.Join(cos, ", ")))
	fmt.Fprintf(&b, "  net worth: %s\n", money(w.netWorth(i)))
	policy := p.ABMPolicy
	if policy == "powers" {
		policy = "own and " + strings.Join(p.ABMPowers, ", ")
	}
	fmt.Fprintf(&b, "  standing: ABM DEFEND %s", strings.ToUpper(policy))
	if len(p.Reactions) > 0 {
		fmt.Fprintf(&b, "; reactions: %s", strings.Join(p.Reactions, " | "))
	}
	if len(p.Contests) > 0 {
		fmt.Fprintf(&b, "; contests: %s", strings.Join(p.Contests, " | "))
	}
	b.WriteString("\n")
	return b.String()
}

// examples are order lines that work in this scenario.
func (e *Engine) examples() []string {
	sc := e.sc
	sp := sc.powers[0]
	home := sc.areas[sp.homes[0]]
	var nb, sea string
	for _, a := range home.land {
		if sc.areas[a].home != home.home {
			nb = sc.areas[a].ID
			break
		}
	}
	if nb == "" && len(home.land) > 0 {
		nb = sc.areas[home.land[0]].ID
	}
	for _, h := range sp.homes {
		if len(sc.areas[h].seas) > 0 {
			sea = sc.areas[sc.areas[h].seas[0]].ID
			break
		}
	}
	co := sc.cards[0].id
	return []string{
		"PLACE 6 ARMIES IN " + home.ID + ", 3 NAVIES IN " + sea + "   (set-up)",
		"MISDEAL                               (set-up, once)",
		"CLOSE " + co + " / OPEN ALL / DISBAND 2 ARMIES IN " + home.ID + "   (salaries)",
		"BLOCKADE <company>                    (salaries)",
		"BUY 3 OIL / SELL 2 GRAIN              (trade, 3 trades a turn)",
		"IF OIL PRICE AT MOST 600: BUY 3 OIL",
		"ATTACK " + nb + " FROM " + home.ID + "           (conventional attack)",
		"ATTACK " + nb + " FROM " + home.ID + " BLITZ 3   (blitz)",
		"ATTACK kor FROM jap VIA soj BLITZ 2  (naval invasion)",
		"ATTACK china IN soj FROM npo        (naval combat)",
		"REINFORCE MOVE " + home.ID + " - " + nb + "    (after your attack)",
		"LAUNCH 2 AT mos, 1 AT tokyo          (strategic attack)",
		"IF ATTACKED BY russia IN ukr: ATTACK ukr FROM blr   (standing counterattack)",
		"CONTEST ALL / ABM DEFEND ALL / PERMIT usa THROUGH suez   (standing orders)",
		"MOVE 3 " + home.ID + " - " + nb + ", 2 " + home.ID + " - <area> / RAIL / AIRLIFT 3 a - b",
		"TRANSPORT 3 jap - kor VIA soj",
		"BUILD 3 ARMIES IN " + home.ID + " / BUILD 1 ICBM / RESEARCH OIL MAX 4",
		"SELL 1 ICBM TO mex / BUY BACK 1 ICBM FROM mex   (arms sales, build phase)",
		"LOAN 5000 / REPAY 1000 / BUY BONDS 2000 / SELL BONDS 1000 / SEIZE ALL",
		"OFFER 1 TO china: $1000 FOR 2 OIL / ACCEPT usa 1: $1000 FOR 2 OIL / REFUSE usa 1",
		"MAP                                  (the map as text: every area's id, name, borders and holder)",
	}
}

// View implements adjudicator.Viewer: a player's own position (cash, loans,
// bonds, Strategic Reserve, technologies, standing orders) for STATUS.
func (e *Engine) View(state []byte, power string) (string, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return "", err
	}
	i := w.playerIndex(power)
	if i < 0 {
		return "", fmt.Errorf("supremacy: %q is not a player of this game", power)
	}
	return w.privateText(i), nil
}

var _ adjudicator.Viewer = (*Engine)(nil)
