package empire

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

// The tests in this file each quote the line of the seed
// (shared/seeds/empire-boardgame.txt) or of RULES they enforce, on the
// shipped worlds and unit table.

// RULES: "the even-numbered rows 2, 4, 6, ... are shifted half a hex
// right" — true of the geometry the engine plays and of the map players
// get, with the row names players see.
func TestSeedRulesRowShiftMatchesGeometry(t *testing.T) {
	e := engine(t, "empire")
	rules := e.Info().Rules
	if !strings.Contains(strings.Join(strings.Fields(rules), " "), "the even-numbered rows 2, 4, 6, ... are shifted half a hex right") {
		t.Fatalf("RULES does not say which rows are shifted:\n%s", rules)
	}
	st, err := e.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decodeGame(st, "empire")
	if err != nil {
		t.Fatal(err)
	}
	w := g.World
	name := func(h int) string {
		if h < 0 {
			return "-"
		}
		return w.HexName(h)
	}
	for h := 0; h < w.Hexes(); h++ {
		col, row := h%w.Width(), h/w.Width()+1 // row as players name it
		if row == 1 || col == 0 || col == w.Width()-1 {
			continue
		}
		up := func(c int) string { return string(rune('A'+c)) + strconv.Itoa(row-1) }
		nw, ne := name(w.g.neighbour(h, dirNW)), name(w.g.neighbour(h, dirNE))
		if row%2 == 0 {
			// shifted right: it sits between the same column and the next above
			if nw != up(col) || ne != up(col+1) {
				t.Fatalf("%s touches %s and %s above, want %s and %s (shifted right)", name(h), nw, ne, up(col), up(col+1))
			}
		} else if nw != up(col-1) || ne != up(col) {
			t.Fatalf("%s touches %s and %s above, want %s and %s (not shifted)", name(h), nw, ne, up(col-1), up(col))
		}
	}
	// RULES' own example: "B2 touches B1 and C1 above it, B3 touches A2 and B2"
	b2, _ := w.ParseHex("B2")
	b3, _ := w.ParseHex("B3")
	if name(w.g.neighbour(b2, dirNW)) != "B1" || name(w.g.neighbour(b2, dirNE)) != "C1" ||
		name(w.g.neighbour(b3, dirNW)) != "A2" || name(w.g.neighbour(b3, dirNE)) != "B2" {
		t.Error("RULES' example does not hold")
	}
	// The map players get indents the even-numbered rows.
	s, _ := e.Status(st)
	var row1, row2 string
	for _, l := range strings.Split(s.Summary, "\n") {
		switch {
		case strings.HasPrefix(l, "  1 "):
			row1 = l
		case strings.HasPrefix(l, "  2 "):
			row2 = l
		}
	}
	if row1 == "" || row2 == "" {
		t.Fatalf("no map rows in the summary:\n%s", s.Summary)
	}
	if lead := func(l string) int { return len(l[4:]) - len(strings.TrimLeft(l[4:], " ")) }; lead(row2) <= lead(row1) {
		t.Errorf("the map does not shift row 2 right of row 1:\n%s\n%s", row1, row2)
	}
}

// Seed, The Strategical Phase: "Check for the supply availability for all
// units that require strategic supplies. For any such units not receiving
// supplies, apply consequences (which usually means the unit is removed
// from play)." The check depends on the power's own deployment only, so
// the acknowledgement of the orders says which units will perish.
func TestSeedDeploymentTellsWhoWillStarve(t *testing.T) {
	g := testGame(t, openBoard, `
red FAC1 A1
red RID2 B1
red RAD3 C1-D1
red CHQ4 F4
red RID5 F3
blue FAC6 E4
`)
	g.Step = stepDeploy
	state := g.encode("empire3")
	e := engine(t, "empire3")
	notes := func(text string) string {
		t.Helper()
		ck, err := e.Check(state, "red", text)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ck.Lines {
			for _, d := range l.Diags {
				if d.Severity == 2 {
					t.Fatalf("%q refused: %s", text, d.Message)
				}
			}
		}
		return strings.Join(ck.Notes, "\n")
	}
	// RAD3 settling in D1 leaves B1's territory: cut off, it perishes; the
	// corps HQ and the infantry in F3-F4 have no generator anyway.
	got := notes("KEEP RAD3 D1")
	for _, want := range []string{"will perish: RAD3 (D1), RID5 (F3)", "will be disabled: CHQ4 (F4)"} {
		if !strings.Contains(got, want) {
			t.Errorf("notes lack %q:\n%s", want, got)
		}
	}
	got = notes("KEEP RAD3 C1")
	if strings.Contains(got, "RAD3") || !strings.Contains(got, "will perish: RID5 (F3)") {
		t.Errorf("RAD3 next to its factory's territory is supplied; notes:\n%s", got)
	}
	// one unit sacrificed supplies the cut-off territory
	got = notes("KEEP RAD3 C1\nSACRIFICE RID5")
	if !strings.Contains(got, "every unit of yours keeps its supply") || !strings.Contains(got, "RID5 (F3) will be used up") {
		t.Errorf("notes after a sacrifice:\n%s", got)
	}
	// the forecast is what the deployment does
	e2 := engine(t, "empire3")
	out, err := e2.Resolve(state, map[string][]string{"red": {"KEEP RAD3 D1"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := decodeGame(out.Next, "empire3")
	for _, u := range after.Units {
		if n := u.Name(); u.Owner == "red" && (n == "RAD3" || n == "RID5") {
			t.Errorf("%s survived the strategic supply check the note foretold", n)
		}
	}
}

// Seed, Counter Sheets: "Black on white counters, White on black counters,
// White on blue counters, White on red counters, Black on khaki counters,
// Black on olive green counters, Black on yellow counters, Dark green on
// white counters" — eight sets of counters, so up to eight powers, on
// generated worlds large enough for them. Each is played by random players
// to its end with the invariants checked after every phase.
func TestSeedUpToEightPowers(t *testing.T) {
	want := map[string]int{"empire5": 5, "empire6": 6, "empire7": 7, "empire8": 8}
	for _, name := range []string{"empire5", "empire6", "empire7", "empire8"} {
		n := want[name]
		a, ok := adjudicator.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		info := a.Info()
		if len(info.Powers) != n || !strings.Contains(info.Rules, fmt.Sprintf("%d players", n)) {
			t.Errorf("%s: powers %v", name, info.Powers)
		}
		st, err := a.New(nil, 3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, _ := a.Status(st)
		if len(s.Waiting) != n {
			t.Errorf("%s waits for %v", name, s.Waiting)
		}
		g, _ := decodeGame(st, name)
		if len(g.World.Homes) != n {
			t.Errorf("%s: %d homes", name, len(g.World.Homes))
		}
		letters := map[string]bool{}
		for _, p := range g.Powers {
			if letters[letterOf(p)] {
				t.Errorf("%s: two powers are %s on the map", name, letterOf(p))
			}
			letters[letterOf(p)] = true
			if !strings.Contains(s.Summary, letterOf(p)+" "+p) {
				t.Errorf("%s: the map legend lacks %s", name, p)
			}
		}
	}
	if _, err := engine(t, "empire6").New(map[string]string{"world": "default"}, 1); err == nil || !strings.Contains(err.Error(), "generated world") {
		t.Errorf("six players on the 4-seat default world: %v", err)
	}
	for _, name := range []string{"empire6", "empire8"} {
		t.Run(name, func(t *testing.T) {
			var st gameStats
			states := playRandom(t, name, nil, 7, &st)
			last, _ := decodeGame(states[len(states)-1], name)
			if !last.Over {
				t.Fatal("no end")
			}
			t.Logf("%s: %d phases, %d battles, %d shots, winners %v", name, st.phases, st.battles, st.shots, last.Winners)
			if st.battles == 0 {
				t.Errorf("no battle in a %s game", name)
			}
		})
	}
}
