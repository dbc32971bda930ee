package empire

import (
	"bytes"
	"strings"
	"testing"
)

func readData(t *testing.T, name string) []byte {
	t.Helper()
	b, err := dataFiles.ReadFile("data/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestScenarioLoads(t *testing.T) {
	sc, err := DefaultScenario()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"A", "B", "C", "D", "E", "F"} {
		tl := sc.Tiles[id]
		if tl == nil || tl.Provenance != "invented" || tl.g.w != 8 || tl.g.h != 6 {
			t.Errorf("tile %s: %+v", id, tl)
		}
	}
	for id, w := range sc.Worlds {
		if w.Provenance == "" {
			t.Errorf("world %s has no provenance", id)
		}
		for n, seats := range sc.Seats[id] {
			if len(seats) != n {
				t.Errorf("world %s: %d seats for %d players", id, len(seats), n)
			}
		}
	}
	def := sc.Worlds["default"]
	if def.Width() != 16 || def.Height() != 12 || len(def.Homes) != 4 {
		t.Errorf("default world %d×%d with %d homes", def.Width(), def.Height(), len(def.Homes))
	}
	if got := sc.Seats["default"][2]; strings.Join(got, " ") != "nw se" {
		t.Errorf("default 2-player seats %v", got)
	}
	for k, p := range sc.Units.Prov {
		if err := checkProvenance(k, p); err != nil {
			t.Error(err)
		}
	}
	if sc.Units.Prov["unit_types"] != "seed" || sc.Units.Prov["costs"] != "invented" {
		t.Errorf("unit provenance %v", sc.Units.Prov)
	}
}

func TestHexNames(t *testing.T) {
	g := grid{16, 12}
	for i := 0; i < g.size(); i++ {
		j, ok := g.parse(g.name(i))
		if !ok || j != i {
			t.Fatalf("%d -> %s -> %d", i, g.name(i), j)
		}
		if k, ok := g.parse(strings.ToLower(g.name(i))); !ok || k != i {
			t.Fatalf("lower case %s", g.name(i))
		}
	}
	for _, bad := range []string{"", "A", "A0", "Q1", "A13", "AA1", "11", "A-1", "A01"} {
		if _, ok := g.parse(bad); ok {
			t.Errorf("%q read as a hex", bad)
		}
	}
	if g.name(0) != "A1" || g.name(16*3+2) != "C4" {
		t.Errorf("names %s %s", g.name(0), g.name(16*3+2))
	}
}

func TestNeighboursAreMutual(t *testing.T) {
	for _, g := range []grid{{16, 12}, {5, 7}, {26, 30}} {
		for i := 0; i < g.size(); i++ {
			for d := 0; d < 6; d++ {
				j := g.neighbour(i, d)
				if j < 0 {
					continue
				}
				if back := g.neighbour(j, opposite(d)); back != i {
					t.Fatalf("%v: %s %s is %s, whose %s is %d", g, g.name(i), dirNames[d], g.name(j), dirNames[opposite(d)], back)
				}
				if g.distance(i, j) != 1 {
					t.Fatalf("distance %s %s = %d", g.name(i), g.name(j), g.distance(i, j))
				}
			}
		}
	}
}

func TestWedges(t *testing.T) {
	for _, tc := range []struct {
		tok  string
		frag int
	}{{"#", 6}, {".", 0}, {"#.....", 1}, {"##...#", 3}, {".#####", 5}} {
		t.Run(tc.tok, func(t *testing.T) {
			m, err := parseWedges(tc.tok)
			if err != nil {
				t.Fatal(err)
			}
			if m.fragments() != tc.frag || m.String() != tc.tok {
				t.Errorf("%s: %d fragments, written %s", tc.tok, m.fragments(), m.String())
			}
			if m.rotate(3).rotate(3) != m || m.rotate(6) != m {
				t.Errorf("rotation is not periodic")
			}
		})
	}
	for _, bad := range []string{"", "##", "#####x", "LLLLLL", "#######"} {
		if _, err := parseWedges(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// East wedge land, turned half round, faces west.
	if m, _ := parseWedges("#....."); m.rotate(3) != 1<<dirW {
		t.Errorf("rotate(3) of an east wedge = %s", m.rotate(3))
	}
}

// Seed, "Blocking Terrain": two neighbouring hexes that both hold land but
// whose land is separated by water share no crossing, so a unit cannot move
// (or attack) between them, and must go round along the shore.
func TestBlockingTerrain(t *testing.T) {
	// Row 1: A1 all land; B1 land facing east only; C1 land facing E, W
	// and SE; D1 land facing west only. Row 2 (shifted right): A2 water;
	// B2 land facing E, NE and W, but its NE neighbour C1 has water
	// facing it; C2 land facing E, NW and W; D2 all land, but its NW
	// neighbour D1 has water facing it.
	g := testGame(t, []string{
		"# #..... #..#.# ...#..",
		" . ##.#.. #.##.. #",
	}, "red RAD1 B1")
	w := g.World
	cases := []struct {
		a, b string
		want bool
	}{
		{"A1", "B1", false}, // A1 faces east with land, B1 faces west with water
		{"B1", "C1", true},
		{"C1", "D1", true},
		{"B2", "C1", false}, // B2's NE wedge is water
		{"C2", "C1", true},
		{"A2", "B2", false},
		{"B2", "C2", true},
		{"C2", "D2", true},
		{"D1", "D2", false},
	}
	for _, c := range cases {
		a, b := hex(t, g, c.a), hex(t, g, c.b)
		if w.Linked(a, b) != c.want || w.Linked(b, a) != c.want {
			t.Errorf("%s-%s linked %v, want %v", c.a, c.b, w.Linked(a, b), c.want)
		}
	}
	u := g.find("red", "RAD1")
	if err := g.canTake(u, Pos{hex(t, g, "B1"), hex(t, g, "A1")}); err == nil {
		t.Error("RAD1 crossed water from B1 to A1")
	}
	if err := g.canTake(u, Pos{hex(t, g, "B1"), hex(t, g, "C1")}); err != nil {
		t.Error(err)
	}
}

func TestShippedWorldsCrossings(t *testing.T) {
	sc, err := DefaultScenario()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range sortedKeys(sc.Worlds) {
		w := sc.Worlds[id]
		t.Run(id, func(t *testing.T) {
			for i := 0; i < w.Hexes(); i++ {
				for _, j := range w.Links(i) {
					if !w.Linked(j, i) {
						t.Fatalf("%s-%s one way", w.HexName(i), w.HexName(j))
					}
					if w.g.distance(i, j) != 1 || w.Fragments(i) == 0 || w.Fragments(j) == 0 {
						t.Fatalf("%s-%s is not a land crossing between neighbours", w.HexName(i), w.HexName(j))
					}
				}
			}
			comp := w.component(w.Homes[0].Hex)
			for _, h := range w.Homes {
				if !comp[h.Hex] || w.land[h.Hex] != allLand {
					t.Errorf("home %s", h.Seat)
				}
			}
		})
	}
}

// A tile turned half round lands in the world with every hex and wedge
// turned: the crossings inside the tile stay the same pairs of hexes.
func TestTileRotation(t *testing.T) {
	sc, err := DefaultScenario()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range sortedKeys(sc.Tiles) {
		tl := sc.Tiles[id]
		plain, err := sc.compose(worldJSON{ID: "p", Layout: []string{id}})
		if err != nil {
			t.Fatal(err)
		}
		turned, err := sc.compose(worldJSON{ID: "t", Layout: []string{id + "@180"}})
		if err != nil {
			t.Fatal(err)
		}
		n := tl.g.size()
		mirror := func(i int) int { return n - 1 - i }
		for i := 0; i < n; i++ {
			if plain.Fragments(i) != turned.Fragments(mirror(i)) {
				t.Fatalf("tile %s: %s has %d fragments, turned %d", id, plain.HexName(i), plain.Fragments(i), turned.Fragments(mirror(i)))
			}
			for _, j := range plain.Links(i) {
				if !turned.Linked(mirror(i), mirror(j)) {
					t.Fatalf("tile %s: crossing %s-%s lost when turned", id, plain.HexName(i), plain.HexName(j))
				}
			}
			if len(plain.Links(i)) != len(turned.Links(mirror(i))) {
				t.Fatalf("tile %s: %s has %d crossings, turned %d", id, plain.HexName(i), len(plain.Links(i)), len(turned.Links(mirror(i))))
			}
		}
	}
}

// Every broken data file is refused with a message that says what is wrong.
func TestBadData(t *testing.T) {
	units, tiles, worlds := readData(t, "units.json"), readData(t, "tiles.json"), readData(t, "worlds.json")
	cases := []struct {
		name     string
		file     string // which file the edit applies to
		old, new string
		want     string
	}{
		{"unknown field", "units", `"unit_types": {`, `"unit_types": {"colour": 1, `, "unknown field"},
		{"bad provenance", "costs", `"costs": {
    "provenance": "invented"`, `"costs": {
    "provenance": "made up"`, "provenance"},
		{"bad speed", "units", `"speed": 0.5, "combat": "weak"`, `"speed": 2, "combat": "weak"`, "speed 2"},
		{"producer consumes", "units", `"id": "army_hq", "name": "Army Headquarters", "class": "hq", "echelon": "army", "speed": 0.5, "combat": "capable",
       "tactical": {"produces": "full", "unsupplied": ""}`, `"id": "army_hq", "name": "Army Headquarters", "class": "hq", "echelon": "army", "speed": 0.5, "combat": "capable",
       "tactical": {"produces": "full", "unsupplied": "perish"}`, "does not consume"},
		{"transform target unknown", "units", `"transforms_into": "factory"`, `"transforms_into": "castle"`, "unknown type"},
		{"missing cost", "units", `"regular_infantry_division": 6`, `"regular_infantry_division": 0`, "no positive cost"},
		{"duplicate code", "units", `"field_base": "FB"`, `"field_base": "AB"`, "names two types"},
		{"reduced without factory maker", "units", `"army_group_hq", "army_hq", "transport_division"`, `"army_hq", "transport_division"`, "needs a factory"},
		{"bad wedge", "tiles", `. . #...## # # # ...### .`, `. . #...#x # # # ...### .`, "neither"},
		{"short row", "tiles", `. . #...## # # # ...### .`, `. . #...## # # # ...###`, "row 1 has"},
		{"tile provenance", "tiles", `"provenance": "invented"`, `"provenance": ""`, "provenance"},
		{"unknown tile", "worlds", `"layout": ["A B", "C D"]`, `"layout": ["A B", "C Z"]`, "unknown tile"},
		{"bad turn", "worlds", `"layout": ["A B", "C D"]`, `"layout": ["A B", "C D@90"]`, "turn 0 or 180"},
		{"uneven layout", "worlds", `"layout": ["A B", "C D"]`, `"layout": ["A B", "C"]`, "different numbers"},
		{"home on shoreline", "worlds", `{"seat": "nw", "hex": "D3"}`, `{"seat": "nw", "hex": "C1"}`, "not an all-land hex"},
		{"home off board", "worlds", `{"seat": "nw", "hex": "D3"}`, `{"seat": "nw", "hex": "Z3"}`, "not a hex"},
		{"seat unknown", "worlds", `"2": ["nw", "se"]`, `"2": ["nw", "xx"]`, "unknown or used twice"},
		{"seat count", "worlds", `"2": ["nw", "se"]`, `"2": ["nw", "se", "ne"]`, "list 3 seats"},
		{"start type unknown", "worlds", `{"type": "transport_division", "at": "ring"}`, `{"type": "tank", "at": "ring"}`, "unknown unit type"},
		{"start at", "worlds", `{"type": "transport_division", "at": "ring"}`, `{"type": "transport_division", "at": "sea"}`, "want home or ring"},
		{"no default world", "worlds", `"id": "default"`, `"id": "standard"`, "no world \"default\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, tl, w := units, tiles, worlds
			var target *[]byte
			switch c.file {
			case "units", "costs":
				target = &u
			case "tiles":
				target = &tl
			case "worlds":
				target = &w
			}
			if !bytes.Contains(*target, []byte(c.old)) {
				t.Fatalf("the data no longer contains %q", c.old)
			}
			*target = bytes.Replace(*target, []byte(c.old), []byte(c.new), 1)
			_, err := LoadScenario(u, tl, w)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := LoadScenario(units, tiles, worlds); err != nil {
		t.Errorf("the shipped data: %v", err)
	}
}

func TestGeneratedWorlds(t *testing.T) {
	for players := 2; players <= 4; players++ {
		for seed := int64(0); seed < 40; seed++ {
			w, err := generateWorld(seed, players, 0, 0)
			if err != nil {
				t.Fatalf("%d players, seed %d: %v", players, seed, err)
			}
			if len(w.Homes) != players {
				t.Fatalf("%d homes for %d players", len(w.Homes), players)
			}
			comp := w.component(w.Homes[0].Hex)
			for i, h := range w.Homes {
				if !comp[h.Hex] || w.land[h.Hex] != allLand || len(w.Links(h.Hex)) != 6 {
					t.Fatalf("seed %d: home %d at %s is not joined by land or not ringed by land", seed, i, w.HexName(h.Hex))
				}
				for _, o := range w.Homes[:i] {
					if d := w.landDistances(o.Hex)[h.Hex]; d < 4 {
						t.Fatalf("seed %d: homes %s and %s only %d apart", seed, w.HexName(o.Hex), w.HexName(h.Hex), d)
					}
				}
			}
			// A shoreline exists: the generator makes 1-5 fragment hexes.
			shore := 0
			for i := 0; i < w.Hexes(); i++ {
				if f := w.Fragments(i); f > 0 && f < 6 {
					shore++
				}
			}
			if shore == 0 {
				t.Fatalf("seed %d: no shoreline hex", seed)
			}
		}
	}
	a, _ := generateWorld(7, 4, 0, 0)
	b, _ := generateWorld(7, 4, 0, 0)
	c, _ := generateWorld(8, 4, 0, 0)
	if strings.Join(a.state().Rows, "/") != strings.Join(b.state().Rows, "/") {
		t.Error("the same seed made two worlds")
	}
	if strings.Join(a.state().Rows, "/") == strings.Join(c.state().Rows, "/") {
		t.Error("two seeds made the same world")
	}
	if w, err := generateWorld(3, 2, 20, 14); err != nil || w.Width() != 20 || w.Height() != 14 {
		t.Errorf("sized world: %v", err)
	}
}

// A world survives the trip through a game's state unchanged.
func TestWorldStateRoundTrip(t *testing.T) {
	sc, _ := DefaultScenario()
	for _, id := range sortedKeys(sc.Worlds) {
		w := sc.Worlds[id]
		back, err := w.state().world()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(back.state().Rows, "/") != strings.Join(w.state().Rows, "/") || len(back.Homes) != len(w.Homes) {
			t.Errorf("world %s changed", id)
		}
	}
}
