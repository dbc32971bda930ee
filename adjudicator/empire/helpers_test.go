package empire

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// openBoard is a 6×4 board of all-land hexes.
var openBoard = []string{
	"# # # # # #",
	"# # # # # #",
	"# # # # # #",
	"# # # # # #",
}

// testGame builds a game on a board given as rows (see hex.go) with units
// given one per line as the state writes them (unitLine):
// "<power> <CODE><serial> <hex>[-<hex>] [disabled] [pooled] [saved=N]".
// The powers are red, blue and green; the step is tactical turn 1 unless
// the caller changes it.
func testGame(t testing.TB, rows []string, units string) *Game {
	t.Helper()
	sc, err := DefaultScenario()
	if err != nil {
		t.Fatal(err)
	}
	w, h, land, err := parseRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	world, err := newWorld("test", "test board", "invented", grid{w, h}, land, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := unitData()
	if err != nil {
		t.Fatal(err)
	}
	o := defaultOptions(3)
	o.World = "test"
	g := &Game{Opts: o, World: world, Table: sc.Units, Types: sc.Units.Set("all"), Powers: []string{"red", "blue", "green"},
		Round: 1, Step: stepTactical, Turn: 1, Serials: map[string]int{}, unitsRaw: raw}
	for _, line := range strings.Split(strings.TrimSpace(units), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		g.Serials[f[0]] = 1 << 20 // any number is fine while reading
		u, err := g.parseUnitLine(line)
		if err != nil {
			t.Fatal(err)
		}
		g.Units = append(g.Units, u)
	}
	for p := range g.Serials {
		g.Serials[p] = 0
	}
	for _, u := range g.Units {
		g.Serials[u.Owner] = max(g.Serials[u.Owner], u.Serial)
	}
	g.sortUnits()
	return g
}

// unitsText lists the units as testGame reads them, in order.
func unitsText(g *Game) string {
	var lines []string
	for _, u := range g.Units {
		lines = append(lines, g.unitLine(u))
	}
	return strings.Join(lines, "\n")
}

// hex reads a hex name of g's board.
func hex(t testing.TB, g *Game, s string) int {
	t.Helper()
	h, ok := g.World.ParseHex(s)
	if !ok {
		t.Fatalf("hex %q", s)
	}
	return h
}

// mustOrders reads canonical order lines of a power into an order set,
// failing on any line that is not accepted.
func mustOrders(t testing.TB, g *Game, power string, lines ...string) *orderSet {
	t.Helper()
	res, err := g.parseOrders(power, strings.Join(lines, "\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	var list []Order
	for _, l := range res.Lines {
		o, ok := l.Value.(*Order)
		if !ok {
			t.Fatalf("%s: line %q not read: %+v", power, l.Text, l.Diags)
		}
		list = append(list, *o)
	}
	s, vs := g.collect(power, list)
	for i, v := range vs {
		if v.err != nil && !errors.Is(v.err, errReplaced) {
			t.Fatalf("%s: order %q refused: %v", power, lines[i], v.err)
		}
	}
	s.sent = true
	return s
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x5eed)) }
