package empire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// stateVersion is the version of the stored state encoding. Decoding
// accepts every version up to this one; add fields, never rename them.
const stateVersion = 1

// Steps of a round. A round is a strategic phase (deploy, bid, build) and
// the tactical phase that follows it (turns 1, 2, …).
const (
	stepDeploy   = "deploy"
	stepBid      = "bid"
	stepBuild    = "build"
	stepTactical = "tactical"
	stepEnd      = "end" // the game is over
)

// Unit is one unit of the game.
type Unit struct {
	Owner  string
	Serial int // per owner; with the type's code it names the unit ("RID3")
	Type   *UnitType
	// At is the hex the unit fully occupies. To is -1 for a unit that
	// stands still; for a unit on the move it is the second hex it covers
	// (fully for armor, half for slower units).
	At, To   int
	Disabled bool
	Saved    int // a factory's saved production points
	// Pooled units are off the board in their territory's unit pool (during
	// a strategic phase only); At is then a hex of that territory.
	Pooled bool
}

// Name is the unit's name within its owner's forces: code and serial.
func (u *Unit) Name() string { return u.Type.Code + strconv.Itoa(u.Serial) }

// moving reports whether the unit is on the move (covers two hexes).
func (u *Unit) moving() bool { return u.To >= 0 }

// weak reports whether the unit counts as weak in combat.
func (u *Unit) weak() bool { return u.Type.Weak || u.Disabled }

// in reports whether the unit is present in hex h (fully or half).
func (u *Unit) in(h int) bool { return !u.Pooled && (u.At == h || u.To == h) }

// hexes lists the hexes the unit is present in.
func (u *Unit) hexes() []int {
	if u.Pooled {
		return nil
	}
	if u.To >= 0 {
		return []int{u.At, u.To}
	}
	return []int{u.At}
}

// Game is a decoded game state.
type Game struct {
	Opts   Options
	World  *World
	Table  *UnitTable
	Types  []*UnitType // the unit set in play
	Powers []string    // the powers in the game, in seating order

	Round   int
	Step    string
	Turn    int      // tactical turn within the round (tactical step)
	Turns   int      // strategic turns the bid decided (build step)
	Callers []string // who made the lowest bid (build step)

	Units      []*Unit // sorted by power order then serial
	Serials    map[string]int
	Eliminated []string
	Over       bool
	Winners    []string

	unitsRaw json.RawMessage
}

// powerIndex is the seat of a power (for sorting).
func (g *Game) powerIndex(p string) int {
	for i, q := range g.Powers {
		if q == p {
			return i
		}
	}
	return len(g.Powers)
}

// sortUnits puts the units in their canonical order.
func (g *Game) sortUnits() {
	sort.SliceStable(g.Units, func(i, j int) bool {
		a, b := g.Units[i], g.Units[j]
		if a.Owner != b.Owner {
			return g.powerIndex(a.Owner) < g.powerIndex(b.Owner)
		}
		return a.Serial < b.Serial
	})
}

// alive reports whether a power is still in the game.
func (g *Game) alive(p string) bool {
	if g.powerIndex(p) == len(g.Powers) {
		return false
	}
	for _, e := range g.Eliminated {
		if e == p {
			return false
		}
	}
	return true
}

// alivePowers lists the powers still in the game, in seat order.
func (g *Game) alivePowers() []string {
	var out []string
	for _, p := range g.Powers {
		if g.alive(p) {
			out = append(out, p)
		}
	}
	return out
}

// unitsOf lists a power's units in order.
func (g *Game) unitsOf(p string) []*Unit {
	var out []*Unit
	for _, u := range g.Units {
		if u.Owner == p {
			out = append(out, u)
		}
	}
	return out
}

// find returns a power's unit by name ("RID3", any case).
func (g *Game) find(p, name string) *Unit {
	for _, u := range g.Units {
		if u.Owner == p && strings.EqualFold(u.Name(), name) {
			return u
		}
	}
	return nil
}

// newUnit adds a unit of type t for power p at hex h.
func (g *Game) newUnit(p string, t *UnitType, h int) *Unit {
	g.Serials[p]++
	u := &Unit{Owner: p, Serial: g.Serials[p], Type: t, At: h, To: -1}
	g.Units = append(g.Units, u)
	return u
}

// remove drops the units for which gone returns true.
func (g *Game) remove(gone func(*Unit) bool) {
	out := g.Units[:0]
	for _, u := range g.Units {
		if !gone(u) {
			out = append(out, u)
		}
	}
	for i := len(out); i < len(g.Units); i++ {
		g.Units[i] = nil
	}
	g.Units = out
}

// typeInPlay returns a type of the unit set in play.
func (g *Game) typeInPlay(id string) (*UnitType, bool) {
	for _, t := range g.Types {
		if t.ID == id {
			return t, true
		}
	}
	return nil, false
}

// phaseID is the stable, sortable id of the current phase.
func (g *Game) phaseID() string {
	switch g.Step {
	case stepDeploy:
		return fmt.Sprintf("R%02dS1", g.Round)
	case stepBid:
		return fmt.Sprintf("R%02dS2", g.Round)
	case stepBuild:
		return fmt.Sprintf("R%02dS3", g.Round)
	case stepEnd:
		return fmt.Sprintf("R%02dZ", g.Round)
	}
	return fmt.Sprintf("R%02dT%02d", g.Round, g.Turn)
}

// phaseTitle names the current phase for players.
func (g *Game) phaseTitle() string {
	switch g.Step {
	case stepDeploy:
		return fmt.Sprintf("Round %d strategic phase: deployment", g.Round)
	case stepBid:
		return fmt.Sprintf("Round %d strategic phase: bids", g.Round)
	case stepBuild:
		return fmt.Sprintf("Round %d strategic phase: production", g.Round)
	case stepEnd:
		return "Game over"
	}
	return fmt.Sprintf("Round %d tactical turn %d", g.Round, g.Turn)
}

// clone returns a deep copy (units are copied; world and table are shared,
// they never change).
func (g *Game) clone() *Game {
	c := *g
	c.Units = make([]*Unit, len(g.Units))
	for i, u := range g.Units {
		v := *u
		c.Units[i] = &v
	}
	c.Serials = map[string]int{}
	for k, v := range g.Serials {
		c.Serials[k] = v
	}
	c.Powers = append([]string(nil), g.Powers...)
	c.Callers = append([]string(nil), g.Callers...)
	c.Eliminated = append([]string(nil), g.Eliminated...)
	c.Winners = append([]string(nil), g.Winners...)
	return &c
}

// ---- encoding ----

type stateJSON struct {
	Version    int             `json:"version"`
	Engine     string          `json:"engine"`
	Options    Options         `json:"options"`
	World      worldState      `json:"world"`
	UnitData   json.RawMessage `json:"unit_data"` // the unit table, in the format of data/units.json
	Powers     []string        `json:"powers"`
	Round      int             `json:"round"`
	Step       string          `json:"step"`
	Turn       int             `json:"turn,omitempty"`
	Turns      int             `json:"turns,omitempty"`
	Callers    []string        `json:"callers,omitempty"`
	Units      []string        `json:"units"` // "red RAD2 C4-D4 disabled", see unitLine
	Serials    map[string]int  `json:"serials"`
	Eliminated []string        `json:"eliminated,omitempty"`
	Over       bool            `json:"over,omitempty"`
	Winners    []string        `json:"winners,omitempty"`
}

// unitLine writes a unit for the state: owner, name, position (a second
// hex after "-" when on the move), then the flags "disabled", "pooled" and
// "saved=N" when they apply: "red RAD2 C4-D4 disabled".
func (g *Game) unitLine(u *Unit) string {
	var b strings.Builder
	b.WriteString(u.Owner)
	b.WriteByte(' ')
	b.WriteString(u.Name())
	b.WriteByte(' ')
	b.WriteString(g.World.HexName(u.At))
	if u.To >= 0 {
		b.WriteByte('-')
		b.WriteString(g.World.HexName(u.To))
	}
	if u.Disabled {
		b.WriteString(" disabled")
	}
	if u.Pooled {
		b.WriteString(" pooled")
	}
	if u.Saved > 0 {
		b.WriteString(" saved=")
		b.WriteString(strconv.Itoa(u.Saved))
	}
	return b.String()
}

// parseUnitLine reads a unitLine.
func (g *Game) parseUnitLine(line string) (*Unit, error) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return nil, fmt.Errorf("unit %q: want owner, name and hex", line)
	}
	if g.powerIndex(f[0]) == len(g.Powers) {
		return nil, fmt.Errorf("unit %q of unknown power", line)
	}
	var t *UnitType
	for _, x := range g.Table.Types {
		if strings.HasPrefix(f[1], x.Code) && isDigits(f[1][len(x.Code):]) {
			t = x
		}
	}
	if t == nil {
		return nil, fmt.Errorf("unit %q: no unit type has that code", line)
	}
	serial, _ := strconv.Atoi(f[1][len(t.Code):])
	if serial < 1 || serial > g.Serials[f[0]] || f[1] != t.Code+strconv.Itoa(serial) {
		return nil, fmt.Errorf("unit %q does not fit the serials", line)
	}
	u := &Unit{Owner: f[0], Serial: serial, Type: t, To: -1}
	a, b, moving := strings.Cut(f[2], "-")
	var ok bool
	if u.At, ok = g.World.ParseHex(a); !ok {
		return nil, fmt.Errorf("unit %q: %q is not a hex", line, a)
	}
	if moving {
		if u.To, ok = g.World.ParseHex(b); !ok || !g.World.Linked(u.At, u.To) || !t.Mobile() {
			return nil, fmt.Errorf("unit %q: not a crossing a unit of its type may cover", line)
		}
	}
	for _, x := range f[3:] {
		switch {
		case x == "disabled" && !u.Disabled:
			u.Disabled = true
		case x == "pooled" && !u.Pooled:
			u.Pooled = true
		case strings.HasPrefix(x, "saved=") && u.Saved == 0:
			n, err := strconv.Atoi(x[len("saved="):])
			if err != nil || n <= 0 || !t.ProducesUnits {
				return nil, fmt.Errorf("unit %q: bad savings", line)
			}
			u.Saved = n
		default:
			return nil, fmt.Errorf("unit %q: unknown flag %q", line, x)
		}
	}
	return u, nil
}

func (g *Game) encode(engine string) []byte {
	j := stateJSON{
		Version: stateVersion, Engine: engine, Options: g.Opts, World: g.World.state(), UnitData: g.unitsRaw,
		Powers: g.Powers, Round: g.Round, Step: g.Step, Turn: g.Turn, Turns: g.Turns, Callers: g.Callers,
		Units: make([]string, 0, len(g.Units)), Serials: g.Serials, Eliminated: g.Eliminated, Over: g.Over, Winners: g.Winners,
	}
	for _, u := range g.Units {
		j.Units = append(j.Units, g.unitLine(u))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(j); err != nil {
		panic(err) // plain data: cannot fail
	}
	return b.Bytes()
}

// tableCache keeps decoded unit tables by their encoding (bounded).
var tableCache = boundedCache{max: 64}

type boundedCache struct {
	mu  sync.Mutex
	max int
	m   map[string]any
}

func (c *boundedCache) get(k string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *boundedCache) put(k string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]any{}
	}
	if len(c.m) >= c.max {
		clear(c.m) // a rare reset beats an unbounded memo
	}
	c.m[k] = v
}

func decodeGame(data []byte, engine string) (*Game, error) {
	var j stateJSON
	if err := decodeStrict(data, &j); err != nil {
		return nil, fmt.Errorf("empire state: %w", err)
	}
	if j.Version < 1 || j.Version > stateVersion {
		return nil, fmt.Errorf("empire state: version %d not supported (this build reads 1 to %d)", j.Version, stateVersion)
	}
	if j.Engine != engine {
		return nil, fmt.Errorf("empire state: made by engine %q, read by %q", j.Engine, engine)
	}
	if err := j.Options.validate(); err != nil {
		return nil, fmt.Errorf("empire state: %w", err)
	}
	w, err := j.World.world()
	if err != nil {
		return nil, fmt.Errorf("empire state: %w", err)
	}
	var table *UnitTable
	if v, ok := tableCache.get(string(j.UnitData)); ok {
		table = v.(*UnitTable)
	} else {
		table, err = LoadUnits(j.UnitData)
		if err != nil {
			return nil, fmt.Errorf("empire state: unit data: %w", err)
		}
		tableCache.put(string(j.UnitData), table)
	}
	g := &Game{Opts: j.Options, World: w, Table: table, Types: table.Set(j.Options.Units), Powers: j.Powers,
		Round: j.Round, Step: j.Step, Turn: j.Turn, Turns: j.Turns, Callers: j.Callers, Serials: j.Serials,
		Eliminated: j.Eliminated, Over: j.Over, Winners: j.Winners, unitsRaw: j.UnitData}
	if g.Serials == nil {
		g.Serials = map[string]int{}
	}
	if len(g.Powers) < 2 {
		return nil, errors.New("empire state: fewer than two powers")
	}
	switch g.Step {
	case stepDeploy, stepBid, stepBuild:
	case stepEnd:
		if !g.Over {
			return nil, errors.New("empire state: the end step of a game that is not over")
		}
	case stepTactical:
		if g.Turn < 1 {
			return nil, errors.New("empire state: tactical turn below 1")
		}
	default:
		return nil, fmt.Errorf("empire state: unknown step %q", g.Step)
	}
	seen := map[string]bool{}
	for _, line := range j.Units {
		u, err := g.parseUnitLine(line)
		if err != nil {
			return nil, fmt.Errorf("empire state: %w", err)
		}
		key := u.Owner + "/" + strconv.Itoa(u.Serial)
		if seen[key] {
			return nil, fmt.Errorf("empire state: %s has two units numbered %d", u.Owner, u.Serial)
		}
		seen[key] = true
		g.Units = append(g.Units, u)
	}
	g.sortUnits()
	return g, nil
}
