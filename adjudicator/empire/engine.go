package empire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// powerIDs are the powers in seating order, named after the seed's counter
// sheets (white, black, blue, red, khaki, olive green, yellow and dark
// green counters): eight powers at most. The shipped worlds seat 2 to 4;
// five or more play on a generated world.
var powerIDs = []string{"red", "blue", "green", "yellow", "white", "black", "khaki", "olive"}

// powerLetters mark each power's units on the text map (black is K, khaki
// H: the first letters of blue and black, and of khaki and K, collide).
var powerLetters = map[string]string{"red": "R", "blue": "B", "green": "G", "yellow": "Y", "white": "W", "black": "K", "khaki": "H", "olive": "O"}

// letterOf is the map letter of a power.
func letterOf(p string) string {
	if l, ok := powerLetters[p]; ok {
		return l
	}
	return strings.ToUpper(p[:1])
}

// maxShippedPlayers is the most players a shipped world seats; more play
// on a generated world.
const maxShippedPlayers = 4

// Engine is the adjudicator.Engine of the Empire Boardgame for a fixed
// number of players; its preset options apply unless New is given others.
type Engine struct {
	name    string
	title   string
	players int
	preset  map[string]string
	// rules is the rules text of Info, written once.
	rulesOnce sync.Once
	rules     string
}

// presets are the registered engines, one per seat count (and world):
// CREATE's players= picks one (Setup), and the names stay as aliases.
var presets = []*Engine{
	{name: "empire", title: "Empire Boardgame (4 players)", players: 4},
	{name: "empire2", title: "Empire Boardgame (2 players)", players: 2},
	{name: "empire3", title: "Empire Boardgame (3 players)", players: 3},
	{name: "empire-random", title: "Empire Boardgame (4 players, a new world generated for each game)", players: 4, preset: map[string]string{"world": "generated"}},
	{name: "empire5", title: "Empire Boardgame (5 players, a generated world)", players: 5, preset: map[string]string{"world": "generated"}},
	{name: "empire6", title: "Empire Boardgame (6 players, a generated world)", players: 6, preset: map[string]string{"world": "generated"}},
	{name: "empire7", title: "Empire Boardgame (7 players, a generated world)", players: 7, preset: map[string]string{"world": "generated"}},
	{name: "empire8", title: "Empire Boardgame (8 players, a generated world)", players: 8, preset: map[string]string{"world": "generated"}},
}

// The presets are registered by name: registering builds no Info (its
// rules text) and reads no data.
func init() {
	for _, e := range presets {
		adjudicator.RegisterLazy(e.name, func() adjudicator.Engine { return e })
	}
}

// NewEngine returns a registered engine by name.
func NewEngine(name string) (*Engine, bool) {
	for _, e := range presets {
		if e.name == name {
			return e, true
		}
	}
	return nil, false
}

// Info implements adjudicator.Engine.
func (e *Engine) Info() adjudicator.Info {
	e.rulesOnce.Do(func() { e.rules = rulesText(e.players) })
	return adjudicator.Info{Name: e.name, Game: "empire", Title: e.title, Powers: append([]string(nil), powerIDs[:e.players]...),
		Simultaneous: true, Rules: e.rules, Examples: examples}
}

// examples are shown by HELP.
var examples = []string{
	"RAD2 C4-D4          tactical: on the move over C4 and D4 (armor: both fully; slower units: C4 fully, D4 half)",
	"RID3 C4             tactical: stand in C4 (stop, or stay)",
	"RID3 HOLD           tactical: keep the position (the default)",
	"SACRIFICE TD5       use up TD5 to supply its group for one turn if it is cut off",
	"CEASEFIRE           done with tactical operations (NO CEASEFIRE takes it back)",
	"RETREAT RAD2 C4     (retreat rule) when picked to attack, leave the other hex instead",
	"KEEP RID3 / POOL RID3 / TRANSFORM AGHQ4    deployment: stay on the board, go to the pool, become a factory",
	"BID 3               bids: strategic turns of production before the fighting",
	"BUY 2 RID C4 / PLACE RID3 D5 / SAVE 5 FAC1  production: buy, lay out the pool, save points",
}

// New implements adjudicator.Engine. Options are the keys of optionHelp.
func (e *Engine) New(options map[string]string, seed int64) ([]byte, error) {
	o := defaultOptions(e.players)
	merged := map[string]string{}
	for k, v := range e.preset {
		merged[k] = v
	}
	for k, v := range options {
		if strings.EqualFold(k, "players") {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n == e.players {
				continue
			}
			return nil, fmt.Errorf("empire: %s seats %d players; the number of players is chosen at CREATE (CREATE <game> empire players=N)", e.name, e.players)
		}
		merged[k] = v
	}
	if err := o.apply(merged); err != nil {
		return nil, fmt.Errorf("empire: %w", err)
	}
	g, err := newGame(o, seed)
	if err != nil {
		return nil, fmt.Errorf("empire: %w", err)
	}
	return g.encode(e.name), nil
}

// newGame sets up a game: the world, the start forces, the first phase.
func newGame(o Options, seed int64) (*Game, error) {
	sc, err := DefaultScenario()
	if err != nil {
		return nil, err
	}
	var w *World
	var seats []string
	if o.World == "generated" {
		w, err = generateWorld(seed, o.Players, o.Width, o.Height)
		if err != nil {
			return nil, err
		}
		for _, h := range w.Homes {
			seats = append(seats, h.Seat)
		}
	} else {
		w = sc.Worlds[o.World]
		if w == nil {
			return nil, fmt.Errorf("unknown world %q (known: %s, generated)", o.World, strings.Join(sortedKeys(sc.Worlds), ", "))
		}
		seats = sc.Seats[o.World][o.Players]
		if seats == nil {
			return nil, fmt.Errorf("world %s has no seats for %d players (%d or more players play on a generated world: world=generated)", o.World, o.Players, maxShippedPlayers+1)
		}
	}
	raw, err := unitData()
	if err != nil {
		return nil, err
	}
	g := &Game{Opts: o, World: w, Table: sc.Units, Types: sc.Units.Set(o.Units), Powers: append([]string(nil), powerIDs[:o.Players]...),
		Round: 1, Step: stepBid, Serials: map[string]int{}, unitsRaw: raw}
	for i, p := range g.Powers {
		home, _ := w.homeOf(seats[i])
		ring := ringOf(w, home.Hex)
		k := 0
		for _, su := range sc.StartForce {
			t, ok := g.typeInPlay(su.Type)
			if !ok {
				return nil, fmt.Errorf("start force: %s is not in the %s unit set", su.Type, o.Units)
			}
			h := home.Hex
			if su.At == "ring" && len(ring) > 0 {
				h = ring[k%len(ring)]
				k++
			}
			g.newUnit(p, t, h)
		}
	}
	g.sortUnits()
	return g, nil
}

// ringOf lists the hexes around h that share land with it, in direction
// order (east first, counter-clockwise).
func ringOf(w *World, h int) []int {
	var out []int
	for d := 0; d < 6; d++ {
		if n := w.g.neighbour(h, d); n >= 0 && w.Linked(h, n) {
			out = append(out, n)
		}
	}
	return out
}

// unitData is the embedded unit table in the compact form a state keeps.
func unitData() (json.RawMessage, error) {
	b, err := dataFiles.ReadFile("data/units.json")
	if err != nil {
		return nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

func (e *Engine) decode(state []byte) (*Game, error) { return decodeGame(state, e.name) }

// Status implements adjudicator.Engine.
func (e *Engine) Status(state []byte) (adjudicator.Status, error) {
	g, err := e.decode(state)
	if err != nil {
		return adjudicator.Status{}, err
	}
	return g.status(), nil
}

func (g *Game) status() adjudicator.Status {
	st := adjudicator.Status{ID: g.phaseID(), Title: g.phaseTitle(), Kind: adjudicator.PhaseBuild, Scores: map[string]int{},
		Over: g.Over, Summary: g.summary(), Combine: adjudicator.CombinePerUnit}
	// How a new mail combines with the standing orders: as Merge does.
	switch g.Step {
	case stepTactical:
		st.Kind = adjudicator.PhaseOrders
		st.CombineText = "a new order for a unit replaces its earlier one; your other units keep theirs"
	case stepDeploy:
		st.CombineText = "a new order for a unit (KEEP, POOL, TRANSFORM, SACRIFICE) replaces its earlier one; your other orders stand"
	case stepBid:
		st.CombineText = "a new BID replaces your earlier bid, a new CEASEFIRE line your earlier one; other orders stand"
	case stepBuild:
		st.Combine, st.CombineText = adjudicator.CombineReplace, "in the production step a new set replaces the whole standing set, as purchases add up"
	}
	if g.Over {
		st.Result = g.result()
	}
	for _, p := range g.alivePowers() {
		st.Alive = append(st.Alive, p)
		st.Scores[p] = g.score(p)
	}
	st.Waiting = g.waiting()
	return st
}

// result is how a finished game ended: the last power standing, or at the
// round limit the largest production (ties share the win).
func (g *Game) result() *adjudicator.Result {
	res := &adjudicator.Result{Winners: append([]string(nil), g.Winners...)}
	alive := g.alivePowers()
	switch {
	case len(g.Winners) == 0:
		res.Kind, res.Text = "none", "The game is over: no power is left standing, and nobody wins."
	case len(alive) == 1:
		res.Kind, res.Text = "last", fmt.Sprintf("%s is the last power standing and wins the game.", titleOf(g.Winners[0]))
	case len(g.Winners) == 1:
		res.Kind, res.Text = "production", fmt.Sprintf("%s wins at the round limit with the largest production: %d per strategic turn.", titleOf(g.Winners[0]), g.score(g.Winners[0]))
	default:
		res.Kind, res.Text = "production", fmt.Sprintf("%s share the win at the round limit with a production of %d per strategic turn each.", adjudicator.List(strings.Split(titles(g.Winners), ", ")), g.score(g.Winners[0]))
	}
	return res
}

// waiting lists the powers that have something to order this phase.
func (g *Game) waiting() []string {
	var out []string
	for _, p := range g.alivePowers() {
		if !g.Over && g.mustAct(p) {
			out = append(out, p)
		}
	}
	return out
}

// mustAct reports whether a power has something to order this phase.
func (g *Game) mustAct(p string) bool {
	switch g.Step {
	case stepBid:
		return true
	case stepTactical:
		return g.canMove(p)
	case stepDeploy:
		for _, u := range g.Units {
			if u.Owner == p && (u.Type.Mobile() || u.Type.TransformsTo != "") {
				return true
			}
		}
	case stepBuild:
		for _, u := range g.Units {
			if u.Owner == p && (u.Pooled || u.Type.ProducesUnits) {
				return true
			}
		}
	}
	return false
}

// Check implements adjudicator.Engine.
func (e *Engine) Check(state []byte, power, text string) (adjudicator.Check, error) {
	g, err := e.decode(state)
	if err != nil {
		return adjudicator.Check{}, err
	}
	if g.powerIndex(power) == len(g.Powers) {
		return adjudicator.Check{}, fmt.Errorf("empire: unknown power %q", power)
	}
	res, err := g.parseOrders(power, text, false)
	if err != nil {
		return adjudicator.Check{}, err
	}
	ck := adjudicator.Check{Lines: res.Lines}
	switch {
	case g.Over:
		ck.Notes = append(ck.Notes, "The game is over; orders are not needed.")
		return ck, nil
	case !g.alive(power):
		ck.Notes = append(ck.Notes, fmt.Sprintf("%s is out of the game; orders are not needed.", titleOf(power)))
		return ck, nil
	}
	var list []Order
	var idx []int
	for i := range ck.Lines {
		if o, ok := ck.Lines[i].Value.(*Order); ok && ck.Lines[i].Kind == orders.OrderLine {
			list = append(list, *o)
			idx = append(idx, i)
		}
	}
	set, vs := g.collect(power, list)
	for k, v := range vs {
		l := &ck.Lines[idx[k]]
		switch {
		case errors.Is(v.err, errReplaced):
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Warning, Message: "replaced by a later order for the same unit"})
		case v.err != nil:
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: v.err.Error() + ": this order is not kept"})
		default:
			if v.warn != "" {
				l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Warning, Message: v.warn})
			}
		}
	}
	for _, o := range set.accepted {
		ck.Canonical = append(ck.Canonical, formatOrder(g.World, o))
	}
	ck.Notes = g.notes(power, set)
	if g.Step == stepDeploy {
		ck.Notes = append(ck.Notes, e.supplyForecast(state, power, set.accepted)...)
	}
	return ck, nil
}

// supplyForecast tells a power in the deployment step what the strategic
// supply check will do to its units if these deployment orders stand
// (seed, The Strategical Phase: "Check for the supply availability for all
// units that require strategic supplies. For any such units not receiving
// supplies, apply consequences"). A power's territories are its own units
// only, so the outcome depends on its own orders alone and can be told at
// once: the deployment is carried out on a copy of the game.
func (e *Engine) supplyForecast(state []byte, p string, accepted []Order) []string {
	c, err := e.decode(state)
	if err != nil {
		return nil
	}
	s, _ := c.collect(p, accepted)
	res := c.resolveDeploy(map[string]*orderSet{p: s})
	var perish, disable, sacrifice []string
	for _, ev := range res.Supply {
		if ev.Power != p {
			continue
		}
		name := ev.Unit + " (" + ev.Hex + ")"
		switch ev.What {
		case "perished":
			perish = append(perish, name)
		case "disabled":
			disable = append(disable, name)
		case "sacrificed":
			sacrifice = append(sacrifice, name)
		}
	}
	if len(perish)+len(disable) == 0 {
		out := []string{"Strategic supply, if these deployment orders stand: every unit of yours keeps its supply."}
		if len(sacrifice) > 0 {
			out = append(out, "  "+strings.Join(sacrifice, ", ")+" will be used up (SACRIFICE) to supply its territory.")
		}
		return out
	}
	out := []string{"Strategic supply, if these deployment orders stand (no territory with a factory, army base or army group HQ reaches them):"}
	if len(perish) > 0 {
		out = append(out, "  will perish: "+strings.Join(perish, ", "))
	}
	if len(disable) > 0 {
		out = append(out, "  will be disabled: "+strings.Join(disable, ", "))
	}
	if len(sacrifice) > 0 {
		out = append(out, "  will be used up (SACRIFICE): "+strings.Join(sacrifice, ", "))
	}
	out = append(out, "  To save them: KEEP them next to a supplied territory, POOL them into one, TRANSFORM a headquarters, or SACRIFICE one unit of their territory.")
	return out
}

// Merge implements adjudicator.Merger: a newer order for a unit (or a newer
// bid, or ceasefire) replaces the standing one; in the production step the
// newer set replaces the standing one whole, as purchases add up.
func (e *Engine) Merge(state []byte, standing, newer []string) []string {
	if len(newer) == 0 {
		return standing
	}
	g, err := e.decode(state)
	if err != nil || g.Step == stepBuild {
		return append([]string(nil), newer...)
	}
	key := func(line string) string {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			return line
		case f[0] == "CEASEFIRE" || line == "NO CEASEFIRE":
			return "ceasefire"
		case f[0] == "BID":
			return "bid"
		case f[0] == "KEEP" || f[0] == "POOL" || f[0] == "TRANSFORM":
			return "deploy " + f[1]
		case f[0] == "SACRIFICE" || f[0] == "RETREAT":
			return f[0] + " " + f[1]
		}
		return "move " + f[0]
	}
	replaced := map[string]bool{}
	for _, l := range newer {
		replaced[key(l)] = true
	}
	var out []string
	for _, l := range standing {
		if !replaced[key(l)] {
			out = append(out, l)
		}
	}
	return append(out, newer...)
}

// Resolve implements adjudicator.Engine.
func (e *Engine) Resolve(state []byte, powerOrders map[string][]string, seed int64) (adjudicator.Outcome, error) {
	g, err := e.decode(state)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	if g.Over {
		return adjudicator.Outcome{}, errors.New("empire: the game is over")
	}
	for p := range powerOrders {
		if g.powerIndex(p) == len(g.Powers) {
			return adjudicator.Outcome{}, fmt.Errorf("empire: orders for unknown power %q", p)
		}
	}
	var phases []*PhaseResult
	rep := newReporter(g)
	for k := 0; ; k++ {
		sets, unread, err := g.readOrders(powerOrders)
		if err != nil {
			return adjudicator.Outcome{}, err
		}
		rng := rand.New(rand.NewPCG(uint64(seed), uint64(k)^0x9e3779b97f4a7c15))
		before := g.clone()
		pr := g.resolvePhase(sets, rng)
		pr.Unread = unread
		phases = append(phases, pr)
		rep.add(before, g, pr, sets)
		// A phase in which nobody has anything to order is resolved at once
		// with everyone's defaults (a tactical phase in which no unit can
		// move, a deployment without mobile units).
		if g.Over || k >= 8 || len(g.waiting()) > 0 {
			break
		}
		powerOrders = nil
	}
	data, err := json.Marshal(phases)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	out := adjudicator.Outcome{Next: g.encode(e.name)}
	out.Report = rep.report(g)
	out.Report.Data = data
	return out, nil
}

// readOrders parses the stored canonical lines strictly.
func (g *Game) readOrders(powerOrders map[string][]string) (map[string]*orderSet, []string, error) {
	sets := map[string]*orderSet{}
	var unread []string
	for _, p := range sortedKeys(powerOrders) {
		if !g.alive(p) {
			continue
		}
		res, err := g.parseOrders(p, strings.Join(powerOrders[p], "\n"), true)
		if err != nil {
			return nil, nil, err
		}
		var list []Order
		for _, l := range res.Lines {
			switch {
			case l.Kind == orders.OrderLine:
				list = append(list, *l.Value.(*Order))
			case l.Kind == orders.ErrorLine:
				unread = append(unread, p+": "+l.Text)
			}
		}
		s, vs := g.collect(p, list)
		for i, v := range vs {
			if v.err != nil && !errors.Is(v.err, errReplaced) {
				unread = append(unread, p+": "+formatOrder(g.World, list[i])+" ("+v.err.Error()+")")
			}
		}
		s.sent = true
		sets[p] = s
	}
	return sets, unread, nil
}

// PhaseResult is the plain-data account of one resolved phase.
type PhaseResult struct {
	Phase      string        `json:"phase"`
	Title      string        `json:"title"`
	Deploy     *DeployResult `json:"deploy,omitempty"`
	Bids       *BidResult    `json:"bids,omitempty"`
	Build      *BuildResult  `json:"build,omitempty"`
	Turn       *TurnResult   `json:"turn,omitempty"`
	Unread     []string      `json:"unread,omitempty"`
	Eliminated []string      `json:"eliminated,omitempty"`
	Surrender  []string      `json:"surrendered,omitempty"` // units removed with an eliminated power
	Over       bool          `json:"over,omitempty"`
	Winners    []string      `json:"winners,omitempty"`
	Next       string        `json:"next"`
}

// resolvePhase resolves the current phase and the end of the game.
func (g *Game) resolvePhase(sets map[string]*orderSet, rng *rand.Rand) *PhaseResult {
	pr := &PhaseResult{Phase: g.phaseID(), Title: g.phaseTitle()}
	endOfTactical := false
	switch g.Step {
	case stepDeploy:
		pr.Deploy = g.resolveDeploy(sets)
	case stepBid:
		pr.Bids = g.resolveBids(sets)
	case stepBuild:
		pr.Build = g.resolveBuild(sets)
	case stepTactical:
		pr.Turn = g.resolveTurn(sets, rng)
		endOfTactical = pr.Turn.Ends
	}
	// Eliminations: a power without units is out; at the end of a
	// tactical phase so is one that can never produce again (no factory
	// and no army group headquarters to become one); its units surrender.
	for _, p := range g.alivePowers() {
		units, producer := 0, false
		for _, u := range g.Units {
			if u.Owner == p {
				units++
				producer = producer || u.Type.ProducesUnits || g.becomesFactory(u.Type)
			}
		}
		if units == 0 || endOfTactical && !producer {
			g.Eliminated = append(g.Eliminated, p)
			pr.Eliminated = append(pr.Eliminated, p)
			for _, u := range g.Units {
				if u.Owner == p {
					pr.Surrender = append(pr.Surrender, g.unitLabel(u)+" in "+g.World.HexName(u.At))
				}
			}
			g.remove(func(u *Unit) bool { return u.Owner == p })
		}
	}
	alive := g.alivePowers()
	switch {
	case len(alive) <= 1:
		g.Over, g.Winners = true, alive
	case endOfTactical && g.Round > g.Opts.MaxRounds:
		// The round limit: the largest production wins (ties share).
		g.Over = true
		best := -1
		for _, p := range alive {
			s := g.score(p)
			switch {
			case s > best:
				best, g.Winners = s, []string{p}
			case s == best:
				g.Winners = append(g.Winners, p)
			}
		}
	}
	if g.Over {
		g.Step, g.Turn = stepEnd, 0
	}
	pr.Over, pr.Winners = g.Over, g.Winners
	pr.Next = g.phaseID()
	return pr
}

// becomesFactory reports whether a type transforms into a factory.
func (g *Game) becomesFactory(t *UnitType) bool {
	to, ok := g.Table.Type(t.TransformsTo)
	return ok && to.ProducesUnits
}

func titleOf(p string) string {
	if p == "" {
		return p
	}
	return strings.ToUpper(p[:1]) + p[1:]
}

// View implements adjudicator.Viewer: the power's private picture of the
// position now (its fogged map, its units and what they can do, its
// territories and points), as its results mail shows it, for the power
// mail at the start and STATUS.
func (e *Engine) View(state []byte, power string) (string, error) {
	g, err := e.decode(state)
	if err != nil {
		return "", err
	}
	if g.powerIndex(power) == len(g.Powers) {
		return "", fmt.Errorf("empire: unknown power %q", power)
	}
	return strings.TrimLeft(g.view(power), "\n"), nil
}
