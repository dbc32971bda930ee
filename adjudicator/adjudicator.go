// Package adjudicator holds the game interface every pbemd engine implements and
// the registry through which the daemon finds an engine by the name stored with
// a game.
//
// An engine is pure: no I/O, no clock, no logger, no global random source, no
// dependence on map iteration order. Same state, same orders and same seed give
// byte-identical results. Engines live in sibling packages
// (adjudicator/diplomacy, adjudicator/supremacy, …) and register themselves from
// their own init, by name (RegisterLazy), so that starting a program reads
// no game's data; this package never imports an engine.
//
// The state of a game is an opaque, versioned byte string owned by its engine.
// Orders travel between the daemon and an engine as canonical text lines per
// power: that is what the daemon stores, shows to players and hands back at the
// deadline, so a stored game never depends on Go types.
package adjudicator

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"pbemd/orders"
	"pbemd/picture"
)

// Engine is one playable game (or one variant of a game, such as a Diplomacy
// map). Methods must be safe for concurrent use; they share no mutable state.
type Engine interface {
	// Info describes the game: its registry name, title and powers.
	Info() Info

	// New returns the state at the start of a game. Options are the game's
	// own settings (engine-specific keys, validated by the engine; unknown
	// keys are an error; Setuper validates them at CREATE). The seed
	// drives any random set-up.
	New(options map[string]string, seed int64) ([]byte, error)

	// Status reports the current phase of state: its name, what kind of
	// phase it is and which powers must (or may) send orders.
	Status(state []byte) (Status, error)

	// Check reads the order text a power sent for the current phase. It
	// reports what it understood line by line (with diagnostics for
	// misorders), the canonical order lines to store, and notes for the
	// acknowledgement (e.g. units that have no order and will hold).
	// Check never fails on player input; a malformed line is a diagnostic.
	Check(state []byte, power string, text string) (Check, error)

	// Resolve adjudicates the current phase. orders maps each power to the
	// canonical lines it stored (a power without an entry sent nothing and
	// falls into civil disorder). The seed is the phase's stored seed.
	Resolve(state []byte, orders map[string][]string, seed int64) (Outcome, error)
}

// Info describes an engine.
type Info struct {
	Name   string   // registry name, e.g. "standard", "ancientmed"
	Game   string   // family, e.g. "diplomacy"
	Title  string   // human title, e.g. "Diplomacy (Ancient Mediterranean)"
	Powers []string // ids, in the engine's canonical order
	// PowerNames maps an id to the name players read ("usa" → "United
	// States"); a power without an entry is shown as its id capitalised.
	PowerNames map[string]string
	// Simultaneous is true when every power orders each phase (Diplomacy);
	// false for games where only Status.Waiting powers act.
	Simultaneous bool
	// Rules is a short rules text sent to players who ask for RULES.
	Rules string
	// Examples are order lines that work in this game, shown by HELP
	// when the engine is not an Exampler (or before a game starts).
	Examples []string
	// Diplomats is true when several players may share a power as its
	// senior and junior diplomats (Diplomacy). False: one player per
	// power, and the daemon never speaks of diplomats, juniors or LOCK
	// JUNIORS.
	Diplomats bool
	// PreviewAlone is true when Resolve, given one power's orders alone,
	// reads every other power's units as holding and uses no luck, so a
	// player may preview their own orders (WHATIF) without learning anything
	// of the others' (Diplomacy). False: the daemon offers no preview.
	PreviewAlone bool
	// SummaryInResults is true when Status.Summary is a short position
	// (units and centres per power) fit to end every results mail and
	// HISTORY (Diplomacy). False: the board is left to STATUS and MAP.
	SummaryInResults bool
	// PublicPicture is true when an engine with hidden information (a
	// Viewer) draws the same picture for every viewer (Supremacy: the
	// board is open, only money and plans are private): the daemon draws
	// one picture for all readers. Engines that are no Viewer draw one
	// anyway.
	PublicPicture bool
	// ForgedPress is true when the game's own rules let players forge
	// press in another power's name (Diplomacy's seed: "Players are
	// encouraged and allowed to forge private messages"): a new game has
	// grey press on unless its GM says grey=off. False: off unless the GM
	// says grey=on.
	ForgedPress bool
	// Agreements are the endings, besides a draw of every survivor, that
	// the surviving powers may agree on by a unanimous secret vote (a
	// smaller draw named in the proposal, a concession to one power); nil:
	// none. An engine that declares any implements Agreer, which says
	// what each is called.
	Agreements []Agreement
	// Year lists the phases of one game year in order, by kind, when every
	// year has the same ones and the engine only skips a phase that no
	// power has anything to order in (Diplomacy: orders, retreat, orders,
	// retreat, build); Status.YearStep places each phase in it. A fixed
	// calendar keeps a skipped phase's day with it. Nil: no fixed year.
	Year []PhaseKind
}

// Agreement is a kind of ending the surviving powers agree on.
type Agreement string

const (
	// AgreeDraw: a draw shared by every survivor (DRAW YES), which every
	// game offers.
	AgreeDraw Agreement = "draw"
	// AgreeNamed: a draw shared by the survivors the proposal names
	// (DRAW Rome Greece); the others lose.
	AgreeNamed Agreement = "named"
	// AgreeConcede: the game conceded to one survivor (CONCEDE Rome).
	AgreeConcede Agreement = "concede"
)

// Agreer is implemented by engines whose players may agree on how a game
// ends: Agreed is the Result of an ending every surviving power voted for
// (kind, among the survivors powers: all of them for AgreeDraw, the named
// ones for AgreeNamed, the one conceded to for AgreeConcede), in the
// engine's own words. The daemon uses it for AgreeDraw too when the
// engine implements it.
type Agreer interface {
	Agreed(state []byte, kind Agreement, powers []string) (Result, error)
}

// PhaseKind tells the daemon which schedule slot a phase uses.
type PhaseKind string

const (
	PhaseOrders  PhaseKind = "orders"  // main order writing (Diplomacy movement)
	PhaseRetreat PhaseKind = "retreat" // retreats and disbands after a movement phase
	PhaseBuild   PhaseKind = "build"   // adjustments: builds and disbands
	PhaseTurn    PhaseKind = "turn"    // one player's turn in a sequential game
)

// Status is the current phase of a game.
type Status struct {
	ID    string    // stable, sortable phase id, e.g. "S1901M", "F451R"
	Title string    // e.g. "Spring 1901 Movement", "Fall 451 AUC Retreats"
	Kind  PhaseKind // schedule slot
	// YearStep is the phase's index in Info.Year (0 when the engine
	// declares no year).
	YearStep int
	// Waiting lists the powers that have something to order this phase
	// (units to move, retreats to make, builds or disbands owed).
	Waiting []string
	// Alive lists the surviving powers (draw votes are among these).
	Alive []string
	// Scores is each power's score (supply centres in Diplomacy), used
	// for reports and the draw prize.
	Scores map[string]int
	// Summary is a short plain-text picture of the position (units and
	// centres per power) for STATUS replies and reminders.
	Summary string
	// Combine is how a new mail of orders combines with the power's
	// standing orders in this phase; CombineText, when set, is the
	// sentence the daemon prints for it in acknowledgements and HELP
	// ("a new order for an army or fleet replaces its earlier one").
	Combine     Combine
	CombineText string
	// EndsTurn is true when orders from a waiting power end the phase as
	// soon as they are stored (a sequential game's turn): the daemon then
	// never invites new orders until the deadline.
	EndsTurn bool
	// Over is true when the game has ended; Result then says how.
	Over   bool
	Result *Result
}

// Combine is how a power's new order set combines with its standing one.
type Combine uint8

const (
	// CombineReplace: a new set replaces the whole standing set.
	CombineReplace Combine = iota
	// CombinePerUnit: a new order for a unit (or item) replaces that
	// one's earlier order, the others stand; the engine implements Merger.
	CombinePerUnit
)

// Sentence is how the daemon says c when the engine gave no CombineText.
func (c Combine) Sentence() string {
	if c == CombinePerUnit {
		return "a new order for a unit replaces its earlier one; your other orders stand"
	}
	return "a new set of orders replaces the whole standing set"
}

// Result is how a game ended by its rules.
type Result struct {
	// Winners are the powers that won (several for a shared win; none
	// when nobody won, e.g. a draw the rules decided).
	Winners []string
	// Kind names the result in one word: "solo", "joint", "draw",
	// "points", "last" (the last power standing), …
	Kind string
	// Text is the engine's own sentence for players, e.g. "Persia has won
	// with 18 supply centres." The daemon prints it as it is.
	Text string
}

// Winners lists the winners of a finished game (nil while it goes on).
func (s Status) Winners() []string {
	if s.Result == nil {
		return nil
	}
	return s.Result.Winners
}

// Check is what an engine understood of one power's order text.
type Check struct {
	Lines     []orders.Line // every line with its kind, value and diagnostics
	Canonical []string      // the order lines to store, canonical short form
	Notes     []string      // e.g. "A Rom has no order: it will hold"
	// Answers reply to questions the player asked in the text (a hand of
	// cards, a price): shown first in the reply. A text of questions only
	// stores nothing.
	//
	// A line that asked such a question has kind orders.Ignored in Lines:
	// it is answered, stored nowhere and is no misorder.
	Answers []string
	// Held are the orders the text gave for later phases of the turn
	// (engines that are an Aheader only; ahead.go): not part of
	// Canonical, kept by the daemon until their phase opens.
	Held []Held
}

// Outcome is the result of resolving one phase.
type Outcome struct {
	Next   []byte // the state after this phase
	Report Report
	// Whether the game ended in this phase, and how, is the Status of
	// Next (Over, Result).
}

// Report is what happened in a phase, rendered as text by the engine's
// adapter from its plain-data results.
type Report struct {
	Public  string            // for every player and observer
	Private map[string]string // per power: its own extra part (retreat options, builds owed)
	// Data is the engine's plain-data account (e.g. JSON of every order's
	// outcome) kept in the phase history for tools and audits.
	Data []byte
}

// Merger is implemented by engines whose players send orders piecemeal. The
// daemon keeps every order set a power sends; when an engine implements
// Merger, a newer set is merged into the standing one (Diplomacy: a new
// order for a unit replaces that unit's order, other units keep theirs);
// otherwise the newest set replaces the previous one whole.
//
// Merge must be associative for a given state: Merge(Merge(a, b), c) and
// Merge(a, Merge(b, c)) give the same lines in the same order. The daemon
// relies on it to keep running folds of a phase's versions (by sender
// class) instead of folding every version again for each new mail.
// Replacing per key (a unit, a bid) and replacing whole both are.
type Merger interface {
	Merge(state []byte, standing, newer []string) []string
}

// Setup is what an engine makes of a game's options at CREATE (and at a
// SET before the start), without building a state: New is called at START.
type Setup struct {
	// Engine is the registered engine that plays these options: a seat
	// count (players=5) picks the variant with that many powers, and the
	// game is stored under its name. The old variant names (supremacy-5,
	// empire3, …) stay registered, as aliases of the counts.
	Engine string
	// Options are the options to store and pass to that engine's New,
	// normalised (the seat count, once it chose the engine, is dropped).
	Options map[string]string
}

// Setuper is implemented by engines that validate options without building
// a state and take their seat count from options. For an engine without
// it, the daemon validates options by calling New.
type Setuper interface {
	Setup(options map[string]string) (Setup, error)
}

// Exampler is implemented by engines that can give order examples that
// work for one power in the open phase of state (its own units, places it
// can reach): HELP shows them instead of Info.Examples.
type Exampler interface {
	Examples(state []byte, power string) []string
}

// Bot is implemented by engines that can order for a power by themselves:
// legal, deterministic orders for the open phase (the demo's and tests'
// scripted players use only this). The text is what a player would mail.
type Bot interface {
	BotOrders(state []byte, power string, seed int64) (string, error)
}

// Scorer is implemented by engines whose finished games may be scored
// under a system the GM chooses at CREATE (scoring=…; Diplomacy: draw-size,
// sum-of-squares, centre-based and Tribute), beyond who won.
type Scorer interface {
	// Scoring reads a system's name as a GM writes it and returns its
	// canonical name and the system in one line for players; an unknown
	// name is an error that lists the known ones.
	Scoring(name string) (system, formula string, err error)
	// Score is each power's score in the finished game: state is its last
	// position and res how it ended (by the rules, by agreement or by the
	// GM), system a canonical name from Scoring.
	Score(state []byte, res Result, system string) (map[string]float64, error)
}

// Autopilot is implemented by engines that can order for an absent power
// the way a steady, careful player would (in Diplomacy: hold and support its
// own units, defend its centres, build at home, disband the farthest unit) —
// never cleverer than a player expects. The daemon's autopilot (autopilot=on,
// or the GM's AUTOPILOT <power> ON) uses it for a power that sent no orders by
// the deadline; a game whose engine lacks it has no autopilot.
type Autopilot interface {
	// AutopilotOrders is the text a player would mail for power; "" when
	// power has nothing to order. The same state and seed give the same text.
	AutopilotOrders(state []byte, power string, seed int64) (string, error)
	// AutopilotPlay says what the autopilot does, as a clause that follows
	// "the autopilot" in RULES and in the GM's and the player's notes
	// ("holds and supports its units, ..."): the daemon prints it as given.
	AutopilotPlay() string
}

// Painter is implemented by engines whose pictures give each power a
// colour: PowerColors is that colour by power id, so that anything else
// drawn of the game (the web pages' score chart) keys the powers as the
// pictures do.
type Painter interface {
	PowerColors() map[string]picture.Color
}

// Briefer is implemented by engines that can say in a line or two what a
// processed phase did to each power (its orders, its units, its centres):
// each player's results mail opens with their power's, before the full
// results. before and after are the states around the phase, data its
// Report.Data; a power missing from the map gets no brief.
type Briefer interface {
	Brief(before, after, data []byte) (map[string]string, error)
}

// Viewer is implemented by engines with hidden information: STATUS shows a
// player what only their power may see now (a hand of cards, secret
// plans), beside the public Status.Summary.
type Viewer interface {
	View(state []byte, power string) (string, error)
}

// Drawer is implemented by engines that can show a position as a picture
// (mailed with results, STATUS and MAP replies). state is the position to
// draw — after the phase when results are given — and results is that
// phase's Report.Data (nil: the position alone). viewer is the power whose
// picture it is ("" for the public or an observer's): a picture never shows
// what that viewer may not see. The picture is drawn from the engine's state
// and results only, never from mail or store data.
type Drawer interface {
	Draw(state []byte, results []byte, viewer string) (*picture.Picture, error)
}

// NoPicture is the picture mailed in place of one a Drawer failed to draw
// (its mails are composed before it is drawn): one line of text saying so.
func NoPicture(text string) *picture.Picture {
	return &picture.Picture{Width: 1000, Height: 60, Background: picture.Hex(0xffffff), Items: []picture.Item{
		&picture.Text{At: picture.Pt(20, 36), S: text, Size: 16, Color: picture.Hex(0x222222)},
	}}
}

// TextMapper is implemented by engines whose board a player must learn
// before writing orders and cannot from the Summary alone (a scenario's
// areas and borders). TextMap is the board as plain text for a MAP reply
// (HELP points to it): every place a player may name in orders, with its
// id, name and borders, and who controls it in state. viewer is as for
// Drawer: the text never shows what that viewer may not see.
type TextMapper interface {
	TextMap(state []byte, viewer string) (string, error)
}

var (
	mu      sync.RWMutex
	engines = map[string]func() Engine{}
)

// Register makes an engine available under its Info().Name. It panics on a
// duplicate name: two engines claiming one name is a programming error.
func Register(e Engine) {
	register(e.Info().Name, func() Engine { return e })
}

// RegisterLazy makes an engine available under name without building it:
// load runs once, at the first Lookup of name, so a program that never
// plays that game never reads its data (a map, a scenario). The engine
// load returns must have name as its Info().Name. It panics on a duplicate
// name, as Register does.
func RegisterLazy(name string, load func() Engine) {
	register(name, sync.OnceValue(load))
}

func register(name string, get func() Engine) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := engines[name]; dup {
		panic(fmt.Sprintf("adjudicator: engine %q registered twice", name))
	}
	engines[name] = get
}

// Lookup returns the engine registered under name, building it first if it
// was registered lazily.
func Lookup(name string) (Engine, bool) {
	mu.RLock()
	get, ok := engines[name]
	mu.RUnlock()
	if !ok {
		return nil, false
	}
	return get(), true
}

// Names lists the registered engines in sorted order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(engines))
	for n := range engines {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// List joins names as an English sentence does, for Result.Text: "Red",
// "Red and Blue", "Red, Blue and Green".
func List(names []string) string {
	switch n := len(names); n {
	case 0:
		return ""
	case 1:
		return names[0]
	default:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
}
