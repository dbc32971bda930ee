package empire

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

//go:embed data/*.json
var dataFiles embed.FS

// World is a board: its hexes with their land, and the home hexes where the
// players start. It is immutable once built.
type World struct {
	ID         string // "default", or "generated" for a generator's board
	Title      string
	Provenance string
	Homes      []Home // seats in the order of the world file

	g     grid
	land  []wedges
	links [][]int // hex -> hexes sharing land with it, ascending
}

// Home is one seat of a world: where a player's start force stands.
type Home struct {
	Seat string // "nw", "se", …
	Hex  int
}

// Width and Height are the board's size in hexes.
func (w *World) Width() int  { return w.g.w }
func (w *World) Height() int { return w.g.h }

// Hexes is the number of hexes.
func (w *World) Hexes() int { return w.g.size() }

// HexName is the printed name of a hex ("C4").
func (w *World) HexName(i int) string { return w.g.name(i) }

// ParseHex reads a hex name.
func (w *World) ParseHex(s string) (int, bool) { return w.g.parse(s) }

// Fragments is the number of land fragments of a hex (0 to 6).
func (w *World) Fragments(i int) int { return w.land[i].fragments() }

// Links lists the hexes that share land with hex i, ascending.
func (w *World) Links(i int) []int { return w.links[i] }

// Linked reports whether a land unit may cross between hexes a and b.
func (w *World) Linked(a, b int) bool {
	for _, x := range w.links[a] {
		if x == b {
			return true
		}
	}
	return false
}

// newWorld derives the crossings of a board and checks it.
func newWorld(id, title, prov string, g grid, land []wedges, homes []Home) (*World, error) {
	if g.w < 2 || g.h < 2 || g.w > maxCols || g.h > maxRows {
		return nil, fmt.Errorf("world %s: %d×%d hexes; a board is 2 to %d columns and 2 to %d rows", id, g.w, g.h, maxCols, maxRows)
	}
	if len(land) != g.size() {
		return nil, fmt.Errorf("world %s: %d hexes for %d×%d", id, len(land), g.w, g.h)
	}
	w := &World{ID: id, Title: title, Provenance: prov, Homes: homes, g: g, land: land, links: make([][]int, g.size())}
	for i := range land {
		for d := 0; d < 6; d++ {
			j := g.neighbour(i, d)
			if j >= 0 && land[i].land(d) && land[j].land(opposite(d)) {
				w.links[i] = append(w.links[i], j)
			}
		}
		sort.Ints(w.links[i])
	}
	seen := map[string]bool{}
	hexes := map[int]bool{}
	for _, h := range homes {
		if h.Seat == "" || seen[h.Seat] {
			return nil, fmt.Errorf("world %s: home seat %q is empty or given twice", id, h.Seat)
		}
		seen[h.Seat] = true
		if h.Hex < 0 || h.Hex >= g.size() {
			return nil, fmt.Errorf("world %s: home %s is off the board", id, h.Seat)
		}
		if hexes[h.Hex] {
			return nil, fmt.Errorf("world %s: two homes on %s", id, g.name(h.Hex))
		}
		hexes[h.Hex] = true
		if land[h.Hex] != allLand {
			return nil, fmt.Errorf("world %s: home %s on %s is not an all-land hex", id, h.Seat, g.name(h.Hex))
		}
	}
	if len(homes) > 1 {
		comp := w.component(homes[0].Hex)
		for _, h := range homes[1:] {
			if !comp[h.Hex] {
				return nil, fmt.Errorf("world %s: no land route from home %s (%s) to home %s (%s)", id,
					homes[0].Seat, g.name(homes[0].Hex), h.Seat, g.name(h.Hex))
			}
		}
	}
	return w, nil
}

// component returns the hexes reachable by land from start.
func (w *World) component(start int) map[int]bool {
	seen := map[int]bool{start: true}
	queue := []int{start}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range w.links[i] {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return seen
}

// landDistances returns the number of land steps from start to every hex
// (-1 where no land route leads).
func (w *World) landDistances(start int) []int {
	dist := make([]int, w.g.size())
	for i := range dist {
		dist[i] = -1
	}
	dist[start] = 0
	queue := []int{start}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range w.links[i] {
			if dist[j] < 0 {
				dist[j] = dist[i] + 1
				queue = append(queue, j)
			}
		}
	}
	return dist
}

// ---- data files ----

// tileFile is data/tiles.json.
type tileFile struct {
	Tiles []tileJSON `json:"tiles"`
}

type tileJSON struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Provenance string   `json:"provenance"`
	Rows       []string `json:"rows"`
}

// Tile is a piece of board that worlds are built from.
type Tile struct {
	ID, Title, Provenance string
	g                     grid
	land                  []wedges
}

// worldFile is data/worlds.json.
type worldFile struct {
	StartForce startForceJSON `json:"start_force"`
	Worlds     []worldJSON    `json:"worlds"`
}

type startForceJSON struct {
	Provenance string          `json:"provenance"`
	Units      []startUnitJSON `json:"units"`
}

type startUnitJSON struct {
	Type string `json:"type"`
	At   string `json:"at"` // "home" or "ring"
}

type worldJSON struct {
	ID         string              `json:"id"`
	Title      string              `json:"title"`
	Provenance string              `json:"provenance"`
	Layout     []string            `json:"layout"` // rows of tile ids, "B@180" turns a tile half round
	Homes      []homeJSON          `json:"homes"`
	Seats      map[string][]string `json:"seats"` // number of players -> seats used, in power order
}

type homeJSON struct {
	Seat string `json:"seat"`
	Hex  string `json:"hex"`
}

// StartUnit is one unit of the start force: a unit type placed on the home
// hex ("home") or on the next hex around it that shares land ("ring").
type StartUnit struct {
	Type string
	At   string
}

// Scenario is everything the data files give: tiles, worlds, the start
// force and the unit types.
type Scenario struct {
	Tiles      map[string]*Tile
	Worlds     map[string]*World
	Seats      map[string]map[int][]string // world -> players -> seats
	StartForce []StartUnit
	StartProv  string
	Units      *UnitTable
}

// decodeStrict decodes JSON refusing unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}

func checkProvenance(what, p string) error {
	switch {
	case p == "seed", p == "invented", strings.HasPrefix(p, "public: ") && len(p) > len("public: "):
		return nil
	}
	return fmt.Errorf("%s: provenance %q: want \"seed\", \"invented\" or \"public: <source>\"", what, p)
}

var (
	scenarioOnce  sync.Once
	scenario      *Scenario
	scenarioErr   error
	scenarioLoads atomic.Int32 // loads of the embedded data (tests read it)
)

// DefaultScenario returns the embedded data, loaded and validated once, at
// the first use (never by the package's init).
func DefaultScenario() (*Scenario, error) {
	scenarioOnce.Do(func() {
		scenarioLoads.Add(1)
		read := func(name string) []byte {
			b, err := dataFiles.ReadFile("data/" + name)
			if err != nil {
				panic(err) // embedded
			}
			return b
		}
		scenario, scenarioErr = LoadScenario(read("units.json"), read("tiles.json"), read("worlds.json"))
	})
	return scenario, scenarioErr
}

// LoadScenario reads and validates the three data files (see DATAFORMAT.md).
func LoadScenario(unitsJSON, tilesJSON, worldsJSON []byte) (*Scenario, error) {
	units, err := LoadUnits(unitsJSON)
	if err != nil {
		return nil, fmt.Errorf("units.json: %w", err)
	}
	var tf tileFile
	if err := decodeStrict(tilesJSON, &tf); err != nil {
		return nil, fmt.Errorf("tiles.json: %w", err)
	}
	sc := &Scenario{Tiles: map[string]*Tile{}, Worlds: map[string]*World{}, Seats: map[string]map[int][]string{}, Units: units}
	for _, tj := range tf.Tiles {
		if tj.ID == "" || sc.Tiles[tj.ID] != nil {
			return nil, fmt.Errorf("tiles.json: tile id %q is empty or given twice", tj.ID)
		}
		if err := checkProvenance("tiles.json: tile "+tj.ID, tj.Provenance); err != nil {
			return nil, err
		}
		w, h, land, err := parseRows(tj.Rows)
		if err != nil {
			return nil, fmt.Errorf("tiles.json: tile %s: %w", tj.ID, err)
		}
		if h%2 != 0 {
			return nil, fmt.Errorf("tiles.json: tile %s has %d rows; tiles have an even number of rows so they combine without shifting", tj.ID, h)
		}
		sc.Tiles[tj.ID] = &Tile{ID: tj.ID, Title: tj.Title, Provenance: tj.Provenance, g: grid{w, h}, land: land}
	}
	var wf worldFile
	if err := decodeStrict(worldsJSON, &wf); err != nil {
		return nil, fmt.Errorf("worlds.json: %w", err)
	}
	if err := checkProvenance("worlds.json: start_force", wf.StartForce.Provenance); err != nil {
		return nil, err
	}
	if len(wf.StartForce.Units) == 0 || wf.StartForce.Units[0].At != "home" {
		return nil, errors.New("worlds.json: start_force: the first unit stands on the home hex (\"at\": \"home\")")
	}
	hasFactory := false
	for _, su := range wf.StartForce.Units {
		t, ok := units.byID[su.Type]
		if !ok {
			return nil, fmt.Errorf("worlds.json: start_force: unknown unit type %q", su.Type)
		}
		hasFactory = hasFactory || t.ProducesUnits
		if su.At != "home" && su.At != "ring" {
			return nil, fmt.Errorf("worlds.json: start_force: %s at %q: want home or ring", su.Type, su.At)
		}
		sc.StartForce = append(sc.StartForce, StartUnit(su))
	}
	if !hasFactory {
		return nil, errors.New("worlds.json: start_force has no factory")
	}
	sc.StartProv = wf.StartForce.Provenance
	for _, wj := range wf.Worlds {
		if wj.ID == "" || wj.ID == "generated" || sc.Worlds[wj.ID] != nil {
			return nil, fmt.Errorf("worlds.json: world id %q is empty, reserved or given twice", wj.ID)
		}
		if err := checkProvenance("worlds.json: world "+wj.ID, wj.Provenance); err != nil {
			return nil, err
		}
		w, err := sc.compose(wj)
		if err != nil {
			return nil, fmt.Errorf("worlds.json: %w", err)
		}
		seats, err := checkSeats(w, wj.Seats)
		if err != nil {
			return nil, fmt.Errorf("worlds.json: world %s: %w", wj.ID, err)
		}
		sc.Worlds[wj.ID] = w
		sc.Seats[wj.ID] = seats
	}
	if sc.Worlds["default"] == nil {
		return nil, errors.New("worlds.json: no world \"default\"")
	}
	return sc, nil
}

// compose builds a world from its tile layout.
func (sc *Scenario) compose(wj worldJSON) (*World, error) {
	if len(wj.Layout) == 0 {
		return nil, fmt.Errorf("world %s: empty layout", wj.ID)
	}
	type placed struct {
		t   *Tile
		rot bool
	}
	var rows [][]placed
	var tw, th int
	for _, line := range wj.Layout {
		var row []placed
		for _, ref := range strings.Fields(line) {
			id, rot, _ := strings.Cut(ref, "@")
			t := sc.Tiles[id]
			if t == nil {
				return nil, fmt.Errorf("world %s: unknown tile %q", wj.ID, id)
			}
			if rot != "" && rot != "180" && rot != "0" {
				return nil, fmt.Errorf("world %s: tile %s turned %q: tiles turn 0 or 180 degrees", wj.ID, id, rot)
			}
			if tw == 0 {
				tw, th = t.g.w, t.g.h
			}
			if t.g.w != tw || t.g.h != th {
				return nil, fmt.Errorf("world %s: tile %s is %d×%d, the first tile %d×%d: a world's tiles have one size", wj.ID, id, t.g.w, t.g.h, tw, th)
			}
			row = append(row, placed{t, rot == "180"})
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("world %s: layout rows have different numbers of tiles", wj.ID)
		}
		rows = append(rows, row)
	}
	g := grid{tw * len(rows[0]), th * len(rows)}
	if g.w > maxCols || g.h > maxRows {
		return nil, fmt.Errorf("world %s: %d×%d hexes is larger than %d×%d", wj.ID, g.w, g.h, maxCols, maxRows)
	}
	land := make([]wedges, g.size())
	for tr, row := range rows {
		for tc, p := range row {
			for r := 0; r < th; r++ {
				for c := 0; c < tw; c++ {
					src := r*tw + c
					m := p.t.land[src]
					if p.rot {
						// Half a turn: (r, c) comes from (h-1-r, w-1-c); with an
						// even number of rows the row shift flips as it must.
						src = (th-1-r)*tw + (tw - 1 - c)
						m = p.t.land[src].rotate(3)
					}
					land[(tr*th+r)*g.w+tc*tw+c] = m
				}
			}
		}
	}
	var homes []Home
	for _, hj := range wj.Homes {
		i, ok := g.parse(hj.Hex)
		if !ok {
			return nil, fmt.Errorf("world %s: home %s: %q is not a hex of the board", wj.ID, hj.Seat, hj.Hex)
		}
		homes = append(homes, Home{Seat: hj.Seat, Hex: i})
	}
	return newWorld(wj.ID, wj.Title, wj.Provenance, g, land, homes)
}

// checkSeats validates the seats table: for each number of players the
// distinct home seats used.
func checkSeats(w *World, seats map[string][]string) (map[int][]string, error) {
	out := map[int][]string{}
	known := map[string]bool{}
	for _, h := range w.Homes {
		known[h.Seat] = true
	}
	for k, list := range seats {
		n, err := strconv.Atoi(k)
		if err != nil || n < 2 || n > len(powerIDs) {
			return nil, fmt.Errorf("seats %q: want a number of players from 2 to %d", k, len(powerIDs))
		}
		if len(list) != n {
			return nil, fmt.Errorf("seats for %d players list %d seats", n, len(list))
		}
		used := map[string]bool{}
		for _, s := range list {
			if !known[s] || used[s] {
				return nil, fmt.Errorf("seats for %d players: seat %q is unknown or used twice", n, s)
			}
			used[s] = true
		}
		out[n] = list
	}
	if len(out) == 0 {
		return nil, errors.New("no seats")
	}
	return out, nil
}

// homeOf returns the home of a seat.
func (w *World) homeOf(seat string) (Home, bool) {
	for _, h := range w.Homes {
		if h.Seat == seat {
			return h, true
		}
	}
	return Home{}, false
}

// ---- the world in a game's state ----

// worldState is how a game's state stores its board: self-contained, so a
// running game never depends on the data files of a later release.
type worldState struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	Provenance string      `json:"provenance"`
	Width      int         `json:"width"`
	Rows       []string    `json:"rows"`
	Homes      []homeState `json:"homes"`
}

type homeState struct {
	Seat string `json:"seat"`
	Hex  string `json:"hex"`
}

func (w *World) state() worldState {
	ws := worldState{ID: w.ID, Title: w.Title, Provenance: w.Provenance, Width: w.g.w, Rows: formatRows(w.g.w, w.land)}
	for _, h := range w.Homes {
		ws.Homes = append(ws.Homes, homeState{Seat: h.Seat, Hex: w.g.name(h.Hex)})
	}
	return ws
}

// worldCache keeps decoded boards by their encoding: every call of an
// engine method decodes the state, and boards never change during a game.
var worldCache = boundedCache{max: 64}

func (ws worldState) world() (*World, error) {
	key, err := json.Marshal(ws)
	if err != nil {
		return nil, err
	}
	if w, ok := worldCache.get(string(key)); ok {
		return w.(*World), nil
	}
	wd, h, land, err := parseRows(ws.Rows)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", ws.ID, err)
	}
	if wd != ws.Width {
		return nil, fmt.Errorf("world %s: rows are %d hexes wide, width says %d", ws.ID, wd, ws.Width)
	}
	g := grid{wd, h}
	var homes []Home
	for _, hs := range ws.Homes {
		i, ok := g.parse(hs.Hex)
		if !ok {
			return nil, fmt.Errorf("world %s: home %s: bad hex %q", ws.ID, hs.Seat, hs.Hex)
		}
		homes = append(homes, Home{Seat: hs.Seat, Hex: i})
	}
	w, err := newWorld(ws.ID, ws.Title, ws.Provenance, g, land, homes)
	if err != nil {
		return nil, err
	}
	worldCache.put(string(key), w)
	return w, nil
}
