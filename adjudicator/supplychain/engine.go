package supplychain

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// allPowers are the seats, in turn order: Player 1 (the Listing Agent) is
// red.
var allPowers = []string{"red", "blue", "green", "yellow", "purple", "orange"}

// Engine is the adjudicator.Engine of one Supply Chain preset (a number of
// players and the variations); New's options can change the preset.
type Engine struct {
	name  string
	title string
	opt   Options
}

// presets are registered under their names: the daemon passes no engine
// options yet, so each common set-up is a variant of its own.
var presets = []Engine{
	{name: "supplychain", title: "Supply Chain (4 players, Full Deck)", opt: Options{Players: 4}},
	{name: "supplychain-solo", title: "Supply Chain (1-player solo game)", opt: Options{Players: 1, Short: true, Solo: true}},
	{name: "supplychain-solo2", title: "Supply Chain (two solitaire games side by side, one Short Deck)", opt: Options{Players: 2, Short: true, Solo: true}},
	{name: "supplychain-2", title: "Supply Chain (2 players, Short Deck)", opt: Options{Players: 2, Short: true}},
	{name: "supplychain-3", title: "Supply Chain (3 players, Full Deck)", opt: Options{Players: 3}},
	{name: "supplychain-5", title: "Supply Chain (5 players, Full Deck)", opt: Options{Players: 5}},
	{name: "supplychain-6", title: "Supply Chain (6 players, Full Deck)", opt: Options{Players: 6}},
	{name: "supplychain-coop", title: "Supply Chain (co-op: 4 players in 2 partnerships)", opt: Options{Players: 4, Coop: true}},
}

var _ adjudicator.Viewer = (*Engine)(nil)

// The presets are registered by name: registering builds no Info and
// reads no deck.
func init() {
	for i := range presets {
		e := presets[i]
		e.opt.Default, e.opt.Deck = "revenue", "default"
		adjudicator.RegisterLazy(e.name, func() adjudicator.Engine { return &e })
	}
}

// NewEngine returns the engine of a preset by name.
func NewEngine(name string) (*Engine, bool) {
	for _, p := range presets {
		if p.name == name {
			e := p
			e.opt.Default, e.opt.Deck = "revenue", "default"
			return &e, true
		}
	}
	return nil, false
}

func (e *Engine) powers() []string { return allPowers[:e.opt.Players] }

// Info implements adjudicator.Engine.
func (e *Engine) Info() adjudicator.Info {
	return adjudicator.Info{Name: e.name, Game: "supplychain", Title: e.title, Powers: append([]string(nil), e.powers()...),
		Simultaneous: false, Rules: rulesText, Examples: examples}
}

var examples = []string{
	"BUY LM1 FROM LISTING        (or: buy Lumber Mill from the listing)",
	"BUY Logs Contract           (from the Contract deck)",
	"BLIND                       (the top card of the Deck, $50 off)",
	"PLACE FF1 AT 1,0 TURN 1     (several PLACE lines are one block)",
	"PLACE Lumber Mill EAST OF FF1",
	"MOVE LM1 TO 2,0 / REMOVE KLG1 (Reorganize)",
	"REVENUE",
	"SELL FM1 TO Blue FOR $300 / TRADE LM1 FOR FM1 WITH Blue",
	"SWAP SO4 FOR LM2",
	"CLOSE FF1 / DISCARD KLG2 / SPIN LM1 1 / TOKEN AT 0,0 E",
	"ASK Blue OFFICES / HAND     (questions: answered at once, nothing stored)",
	"ACCEPT / DECLINE            (answering a Buy-Sell-Trade offer)",
}

// New implements adjudicator.Engine. Options (all optional): players
// (1–6, at most the preset's seats), deck (full|short), coop,
// laissez_faire, fire_sale, solo (on|off; solo with 2 players: two
// solitaire games side by side), default (revenue|pass), cards (the deck
// file's name).
func (e *Engine) New(options map[string]string, seed int64) ([]byte, error) {
	opt, err := e.options(options)
	if err != nil {
		return nil, err
	}
	d, err := DeckByName(opt.Deck)
	if err != nil {
		return nil, err
	}
	g, err := newGame(d, opt, allPowers, seed)
	if err != nil {
		return nil, err
	}
	return g.encode(), nil
}

func (e *Engine) options(in map[string]string) (Options, error) {
	opt := e.opt
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	onOff := func(k, v string) (bool, error) {
		switch strings.ToLower(v) {
		case "on", "yes", "true", "1":
			return true, nil
		case "off", "no", "false", "0":
			return false, nil
		}
		return false, fmt.Errorf("supplychain: option %s=%q: on or off", k, v)
	}
	shortSet := false
	for _, k := range keys {
		v := strings.TrimSpace(in[k])
		var err error
		switch strings.ToLower(k) {
		case "players":
			n := 0
			if _, err := fmt.Sscan(v, &n); err != nil || n < 1 || n > len(allPowers) {
				return opt, fmt.Errorf("supplychain: option players=%q: 1 to %d", v, len(allPowers))
			}
			if n > e.opt.Players {
				return opt, fmt.Errorf("supplychain: %s seats %d players; choose a preset with more seats", e.name, e.opt.Players)
			}
			opt.Players = n
		case "deck":
			switch strings.ToLower(v) {
			case "full":
				opt.Short = false
			case "short":
				opt.Short = true
			default:
				return opt, fmt.Errorf("supplychain: option deck=%q: full or short", v)
			}
			shortSet = true
		case "coop", "co-op":
			opt.Coop, err = onOff(k, v)
		case "laissez_faire", "laissez-faire", "laissezfaire":
			opt.Laissez, err = onOff(k, v)
		case "fire_sale", "fire-sale", "firesale":
			opt.FireSale, err = onOff(k, v)
		case "solo", "solitaire":
			opt.Solo, err = onOff(k, v)
		case "default":
			if v != "revenue" && v != "pass" {
				return opt, fmt.Errorf("supplychain: option default=%q: revenue or pass", v)
			}
			opt.Default = v
		case "cards":
			opt.Deck = v
		default:
			return opt, fmt.Errorf("supplychain: unknown option %q (known: cards, coop, deck, default, fire_sale, laissez_faire, players, solo)", k)
		}
		if err != nil {
			return opt, err
		}
	}
	if !shortSet && opt.Players < 3 {
		opt.Short = true
	}
	return opt, nil
}

// decodeFor decodes state and finds power's seat in it.
func (e *Engine) decodeFor(state []byte, power string) (*game, int, error) {
	g, err := e.decode(state)
	if err != nil {
		return nil, -1, err
	}
	p := g.playerIndex(power)
	if p < 0 {
		return nil, -1, fmt.Errorf("supplychain: unknown power %q", power)
	}
	return g, p, nil
}

func (e *Engine) decode(state []byte) (*game, error) {
	g, err := decodeState(state)
	if err != nil {
		return nil, err
	}
	if g.opt.Players > len(allPowers) {
		return nil, fmt.Errorf("supplychain: %d players", g.opt.Players)
	}
	return g, nil
}

// phaseID is a stable, sortable phase id: R003-2 (round 3, Player 2's
// turn), R003-2-offer (answering that player's offer), S004 (solo).
func (g *game) phaseID() string {
	switch {
	case g.phase == phaseSolo:
		return fmt.Sprintf("S%03d", g.step+1)
	case g.phase == phaseOver && g.opt.Solo:
		return fmt.Sprintf("S%03d-end", g.step+1)
	case g.phase == phaseOver:
		return fmt.Sprintf("R%03d-end", g.round)
	case g.phase == phaseOffer:
		return fmt.Sprintf("R%03d-%d-offer", g.round, g.seat+1)
	}
	return fmt.Sprintf("R%03d-%d", g.round, g.seat+1)
}

func (g *game) phaseTitle() string {
	switch g.phase {
	case phaseSolo:
		if len(g.players) > 1 {
			return fmt.Sprintf("Solitaire games side by side, mail %d", g.step+1)
		}
		return fmt.Sprintf("Solo game, mail %d", g.step+1)
	case phaseOver:
		return "Game over"
	case phaseOffer:
		return fmt.Sprintf("Round %d: %s answers %s's offer", g.round, titleCase(g.players[g.offer.to].power), titleCase(g.players[g.offer.from].power))
	}
	return fmt.Sprintf("Round %d: %s's turn", g.round, titleCase(g.players[g.seat].power))
}

// Status implements adjudicator.Engine.
func (e *Engine) Status(state []byte) (adjudicator.Status, error) {
	g, err := e.decode(state)
	if err != nil {
		return adjudicator.Status{}, err
	}
	return g.status(), nil
}

func (g *game) status() adjudicator.Status {
	// A mail's orders are a turn taken whole (no Merger), and they end
	// the phase when they arrive from the power it waits for.
	st := adjudicator.Status{ID: g.phaseID(), Title: g.phaseTitle(), Kind: adjudicator.PhaseTurn, Scores: map[string]int{}, Summary: g.publicText(),
		Combine: adjudicator.CombineReplace, EndsTurn: true}
	for _, p := range g.players {
		st.Alive = append(st.Alive, p.power)
		st.Scores[p.power] = g.vp(p.team, g.phase == phaseOver)
	}
	switch g.phase {
	case phaseSolo:
		for _, p := range g.players {
			if !p.done {
				st.Waiting = append(st.Waiting, p.power)
			}
		}
	case phaseTurn:
		st.Waiting = []string{g.players[g.seat].power}
	case phaseOffer:
		st.Waiting = []string{g.players[g.offer.to].power}
	case phaseOver:
		st.Over, st.Result = true, g.result()
	}
	return st
}

// result is how a finished game ended: the most victory points win (a
// tie the rules do not break shares the win).
func (g *game) result() *adjudicator.Result {
	res := &adjudicator.Result{Winners: append([]string(nil), g.winners...), Kind: "points"}
	var names []string
	vp := 0
	for _, w := range g.winners {
		names = append(names, titleCase(w))
		if i := g.playerIndex(w); i >= 0 {
			vp = g.vp(g.players[i].team, true)
		}
	}
	switch len(names) {
	case 0:
		res.Kind, res.Text = "none", "The game is over and nobody wins."
	case 1:
		res.Text = fmt.Sprintf("%s wins with %d victory points.", names[0], vp)
	default:
		res.Text = fmt.Sprintf("%s win together with %d victory points.", adjudicator.List(names), vp)
	}
	return res
}

// View implements adjudicator.Viewer (STATUS): what only this power may
// see now — its hand, money, business plan and, when it is its turn, what
// it can do. The HAND question shows the same text.
func (e *Engine) View(state []byte, power string) (string, error) {
	g, p, err := e.decodeFor(state, power)
	if err != nil {
		return "", err
	}
	return g.privateText(p), nil
}

// ---- Check ----

type checkItem struct {
	line int
	o    Order
}

// Check implements adjudicator.Engine. Questions (HAND, ASK) are answered
// at once in the line's diagnostic and never stored; a turn is taken whole
// or not at all: when any order line has an error, nothing is stored and
// the turn stays open.
func (e *Engine) Check(state []byte, power string, text string) (adjudicator.Check, error) {
	g, p, err := e.decodeFor(state, power)
	if err != nil {
		return adjudicator.Check{}, err
	}
	gr, err := newGrammar(g.d, g.powers())
	if err != nil {
		return adjudicator.Check{}, err
	}
	res := orders.Parse(text, orders.Options{Grammar: gr})
	ck := adjudicator.Check{Lines: res.Lines}
	var items []checkItem
	for i := range ck.Lines {
		l := &ck.Lines[i]
		if l.Kind != orders.OrderLine {
			continue
		}
		if v, ok := l.Value.(*line); ok {
			for _, o := range v.orders {
				items = append(items, checkItem{line: i, o: o})
			}
		}
	}
	lineErr := map[int]bool{}
	fail := func(i int, err error) {
		ck.Lines[i].Diags = append(ck.Lines[i].Diags, orders.Diagnostic{Severity: orders.Error, Message: err.Error()})
		lineErr[i] = true
	}
	var acts []checkItem
	for _, it := range items {
		if it.o.isQuery() {
			ck.Answers = append(ck.Answers, strings.TrimSpace(ck.Lines[it.line].Text)+":\n"+g.answer(p, &it.o))
			continue
		}
		acts = append(acts, it)
	}
	var notes []string
	switch {
	case len(acts) == 0:
	case g.phase == phaseOver:
		for _, it := range acts {
			fail(it.line, fmt.Errorf("the game is over"))
		}
	case g.phase == phaseOffer && p == g.offer.to:
		answers := 0
		var free []checkItem
		for _, it := range acts {
			switch {
			case it.o.Verb == VerbAccept || it.o.Verb == VerbDecline:
				if answers++; answers > 1 {
					fail(it.line, fmt.Errorf("one answer only"))
				}
			case isFree(it.o.Verb):
				free = append(free, it)
			default:
				fail(it.line, fmt.Errorf("you answer %s's offer now: ACCEPT or DECLINE", titleCase(g.players[g.offer.from].power)))
			}
		}
		notes = append(notes, "The offer: "+g.describeOffer(g.offer)+".")
		for _, it := range acts {
			if it.o.Verb == VerbAccept || it.o.Verb == VerbDecline {
				ck.Canonical = append(ck.Canonical, it.o.format(g.d))
			}
		}
		ck.Canonical = append(ck.Canonical, g.checkFree(p, free, fail)...)
	case g.phase == phaseSolo || (g.phase == phaseTurn && p == g.seat):
		os := make([]Order, len(acts))
		for k, it := range acts {
			os[k] = it.o
		}
		c := g.clone()
		c.rep = &report{}
		c.sim = true
		var rs []result
		if c.phase == phaseSolo {
			rs = c.runSolo(p, os, true)
		} else {
			rs = c.runTurn(p, os, true)
			if c.phase == phaseTurn {
				c.enforceHandLimit(p)
			}
		}
		for k, r := range rs {
			if r.err != nil {
				fail(acts[k].line, r.err)
			} else {
				ck.Canonical = append(ck.Canonical, r.canon)
			}
		}
		// Stored orders end the turn at once: free orders alone would
		// end it without an action, so say so.
		if g.phase == phaseTurn {
			action := g.players[p].forced // the Revenue a waiting Blind Purchase forces
			for _, it := range acts {
				action = action || it.o.actionKey() != "" || it.o.Verb == VerbPass || it.o.Verb == VerbToken
			}
			if !action {
				fail(acts[0].line, fmt.Errorf("this mail has no action, and orders end your turn when they arrive: add your actions, or PASS to end the turn with these alone"))
			}
		}
		notes = append(notes, "This turn will do (as things stand now):")
		for _, s := range c.rep.pub {
			notes = append(notes, "  "+s)
		}
		if c.phase == phaseSolo || c.phase == phaseTurn || c.phase == phaseOver {
			notes = append(notes, strings.Split(strings.TrimRight(c.afterTurn(p), "\n"), "\n")...)
		}
	default:
		// Not this player's turn: only the free orders (Discard and
		// Spin may be done at any time); they are carried out when the
		// phase is resolved, after the active player's orders.
		var free []checkItem
		for _, it := range acts {
			if isFree(it.o.Verb) {
				free = append(free, it)
				continue
			}
			who := titleCase(g.players[g.seat].power)
			if g.phase == phaseOffer {
				who = titleCase(g.players[g.offer.to].power) + " (answering an offer)"
			}
			fail(it.line, fmt.Errorf("it is not your turn: it is %s's (round %d); only DISCARD and SPIN may be done at any time", who, g.round))
		}
		ck.Canonical = g.checkFree(p, free, fail)
		if len(ck.Canonical) > 0 {
			notes = append(notes, "DISCARD and SPIN are carried out when "+g.phaseTitle()+" is resolved, after that player's orders.")
		}
	}
	// Lines that start with an order word but could not be read count as
	// errors of the turn; prose is only reported.
	for i := range ck.Lines {
		l := &ck.Lines[i]
		if l.Kind == orders.ErrorLine && startsWithVerb(l.Text) {
			lineErr[i] = true
		}
	}
	if len(lineErr) > 0 {
		ck.Canonical = nil
		notes = nil
		for _, it := range acts {
			if !lineErr[it.line] {
				l := &ck.Lines[it.line]
				if !hasDiagError(l.Diags) {
					l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: "not stored: another line of this mail has an error, and a turn is taken whole — send it again corrected"})
				}
			}
		}
	}
	// Nothing but the canonical lines is stored: refused lines become
	// error lines for the daemon, and questions (answered in Answers)
	// lines it ignores.
	for i := range ck.Lines {
		l := &ck.Lines[i]
		switch {
		case l.Kind != orders.OrderLine:
		case isQueryLine(l) && !lineErr[i]:
			l.Kind = orders.Ignored
		case lineErr[i] || len(ck.Canonical) == 0 || isQueryLine(l):
			l.Kind = orders.ErrorLine
		}
	}
	ck.Notes = notes
	return ck, nil
}

func hasDiagError(ds []orders.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == orders.Error {
			return true
		}
	}
	return false
}

func isQueryLine(l *orders.Line) bool {
	v, ok := l.Value.(*line)
	if !ok {
		return false
	}
	for _, o := range v.orders {
		if !o.isQuery() {
			return false
		}
	}
	return true
}

func startsWithVerb(text string) bool {
	f := strings.Fields(strings.ToLower(strings.TrimLeft(text, " \t-*•0123456789.)")))
	if len(f) == 0 {
		return false
	}
	_, ok := verbWords[strings.Trim(f[0], ".,:;!")]
	return ok
}

// answer answers a question of player p.
func (g *game) answer(p int, o *Order) string {
	if o.Verb == VerbHand {
		return strings.TrimRight(g.privateText(p), "\n")
	}
	q := g.playerIndex(o.Power)
	if q < 0 {
		return "no such player"
	}
	n := 0
	for _, h := range g.players[q].hand {
		k := g.card(h.card).Kind
		switch o.Ask {
		case "OFFICES":
			if k.IsOffice() {
				n++
			}
		case "CONTRACTS":
			if k == KindContract {
				n++
			}
		case "VEHICLES":
			if k == KindVehicle {
				n++
			}
		}
	}
	return fmt.Sprintf("Law E: %s has %d %s in hand.", titleCase(o.Power), n, strings.ToLower(o.Ask))
}

// afterTurn tells the player how things stand after the simulated turn.
func (g *game) afterTurn(p int) string {
	pl := &g.players[p]
	var names []string
	for _, h := range pl.hand {
		names = append(names, g.card(h.card).Code)
	}
	return fmt.Sprintf("Afterwards: %s, hand %s.", money(pl.money), strings.Join(names, " "))
}

// ---- Resolve ----

type resultData struct {
	Phase   string         `json:"phase"`
	Events  []string       `json:"events"`
	Marks   []Mark         `json:"marks,omitempty"` // the cards the phase changed, for its picture
	Scores  map[string]int `json:"scores"`
	Winners []string       `json:"winners,omitempty"`
}

// Resolve implements adjudicator.Engine. A turn without orders takes the
// default action (Revenue, or nothing with default=pass); an offer without
// an answer is declined; a solo game without orders ends.
func (e *Engine) Resolve(state []byte, ords map[string][]string, seed int64) (adjudicator.Outcome, error) {
	g, err := e.decode(state)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	g.rep = &report{}
	before := g.clone()
	id, title := g.phaseID(), g.phaseTitle()
	skip := "" // whose free orders the phase itself carries out
	if g.phase == phaseTurn {
		skip = g.players[g.seat].power
	}
	switch g.phase {
	case phaseOver:
		return adjudicator.Outcome{}, fmt.Errorf("supplychain: the game is over")
	case phaseTurn:
		p := g.seat
		lines, sent := ords[g.players[p].power]
		os, errs := g.parseCanonical(lines)
		for _, e := range errs {
			g.say("%s", e)
		}
		if !sent || len(lines) == 0 {
			if g.opt.Default == "pass" && g.players[p].blind < 0 {
				g.say("%s sent no orders: no action this turn.", titleCase(g.players[p].power))
				os = nil
			} else {
				g.say("%s sent no orders: Revenue.", titleCase(g.players[p].power))
				os = []Order{{Verb: VerbRevenue}}
			}
		}
		g.runTurn(p, os, false)
		if g.phase == phaseTurn {
			g.finishTurn()
		}
	case phaseOffer:
		to := g.players[g.offer.to].power
		lines, sent := ords[to]
		os, _ := g.parseCanonical(lines)
		accept, answered := false, false
		for _, o := range os {
			if o.Verb == VerbAccept || o.Verb == VerbDecline {
				accept, answered = o.Verb == VerbAccept, true
				break
			}
		}
		_ = sent
		g.answerOffer(accept, answered)
	case phaseSolo:
		// Each player's game on its own, in seat order (they share only
		// the Contract and Vehicle decks).
		for p := range g.players {
			if g.players[p].done {
				continue
			}
			lines := ords[g.players[p].power]
			os, errs := g.parseCanonical(lines)
			for _, e := range errs {
				g.say("%s", e)
			}
			if len(lines) == 0 {
				os = []Order{{Verb: VerbFinish, N: -1}}
				if len(g.players) == 1 {
					g.say("No orders by the deadline: the solo game ends here.")
				} else {
					g.say("%s sent no orders by the deadline: that solitaire game ends here.", titleCase(g.players[p].power))
				}
			}
			g.runSolo(p, os, false)
		}
	}
	if g.phase != phaseSolo && !g.opt.Solo {
		g.otherFree(skip, ords)
	}
	g.step++
	st := g.status()
	var pub strings.Builder
	fmt.Fprintf(&pub, "%s\n\n", title)
	for _, l := range g.rep.pub {
		fmt.Fprintf(&pub, "- %s\n", l)
	}
	// A results mail says what changed and what its reader must do; the
	// whole board is on request (Status.Summary: STATUS), and in the mail
	// that ends the game. The solitaire game shows its tableaux each time.
	full := g.phase == phaseOver || g.opt.Solo
	if g.phase == phaseOver {
		pub.WriteString("\n" + g.finalText())
	}
	if full {
		pub.WriteString("\n" + g.publicText())
	} else {
		pub.WriteString("\n" + g.changesText(before))
	}
	out := adjudicator.Outcome{Next: g.encode()}
	out.Report.Public = pub.String()
	out.Report.Private = map[string]string{}
	for i, p := range g.players {
		var b strings.Builder
		for _, l := range g.rep.priv[i] {
			fmt.Fprintf(&b, "%s\n", l)
		}
		if full || g.actor() == i {
			b.WriteString(g.privateText(i))
			if !full && g.phase == phaseTurn {
				fmt.Fprintf(&b, "Listed now:%s\nStale Sale pile (half price): %s\n", g.listingCompact(), g.staleCompact())
			}
		} else {
			b.WriteString(g.handCompact(i))
		}
		out.Report.Private[p.power] = b.String()
	}
	data, err := json.Marshal(resultData{Phase: id, Events: append([]string{}, g.rep.pub...), Marks: g.rep.marks, Scores: st.Scores, Winners: st.Winners()})
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	out.Report.Data = data
	return out, nil
}

// isFree: orders a player may give at any time, in anybody's turn.
func isFree(v Verb) bool { return v == VerbDiscard || v == VerbSpin }

// checkFree checks a non-active player's free orders on a copy.
func (g *game) checkFree(p int, items []checkItem, fail func(int, error)) []string {
	if len(items) == 0 {
		return nil
	}
	os := make([]Order, len(items))
	for k, it := range items {
		os[k] = it.o
	}
	c := g.clone()
	c.rep = nil
	c.sim = true
	var out []string
	for k, r := range c.runFree(p, os) {
		if r.err != nil {
			fail(items[k].line, r.err)
		} else {
			out = append(out, r.canon)
		}
	}
	return out
}

// runFree carries out free orders (consecutive discards as one).
func (g *game) runFree(p int, os []Order) []result {
	res := make([]result, len(os))
	for i := 0; i < len(os); {
		j := i + 1
		if os[i].Verb == VerbDiscard {
			for j < len(os) && os[j].Verb == VerbDiscard {
				j++
			}
		}
		var ptrs []*Order
		for k := i; k < j; k++ {
			ptrs = append(ptrs, &os[k])
		}
		err := g.try(func(c *game) error { return c.free(p, ptrs) })
		for k := i; k < j; k++ {
			if err != nil {
				res[k].err = err
			} else {
				res[k].canon = os[k].format(g.d)
			}
		}
		i = j
	}
	return res
}

// otherFree carries out the free orders that players other than the one
// whose phase it was sent during the phase (seat order).
func (g *game) otherFree(skip string, ords map[string][]string) {
	if g.phase == phaseOver {
		return
	}
	for p, pl := range g.players {
		lines := ords[pl.power]
		if len(lines) == 0 || pl.power == skip {
			continue
		}
		os, _ := g.parseCanonical(lines)
		var free []Order
		for _, o := range os {
			if isFree(o.Verb) {
				free = append(free, o)
			}
		}
		for k, r := range g.runFree(p, free) {
			if r.err != nil {
				g.say("%s: %s — %v.", titleCase(pl.power), free[k].format(g.d), r.err)
			}
		}
	}
}

// finalText is the final scoring: VP with the business plans revealed,
// the revenue tie-break, the winner.
func (g *game) finalText() string {
	var b strings.Builder
	b.WriteString("Final scores (business plans revealed):\n")
	for t := range g.teams {
		tm := &g.teams[t]
		plan := "no plan"
		if tm.plan >= 0 {
			plan = g.describe(tm.plan)
		}
		fmt.Fprintf(&b, "  %s: %d VP (without the plan %d; %s); best revenue route %s", g.teamName(t), g.vp(t, true), g.vp(t, false), plan, money(g.routeValue(t)))
		if g.opt.Solo {
			fmt.Fprintf(&b, "; %s used; %s not placed", count(g.contractsPlaced(t), "contract"), count(len(g.players[g.teams[t].seats[0]].hand), "card"))
		}
		b.WriteString("\n")
	}
	var names []string
	for _, w := range g.winners {
		names = append(names, titleCase(w))
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, "Winner: %s.\n", strings.Join(names, " and "))
	}
	return b.String()
}
