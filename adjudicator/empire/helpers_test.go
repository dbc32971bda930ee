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
// given one per line: "<power> <CODE><serial> <hex>[-<hex>] [disabled] [pooled] [saved=N]".
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
	raw, err := unitData(sc)
	if err != nil {
		t.Fatal(err)
	}
	o := defaultOptions(3)
	o.World = "test"
	g := &Game{Opts: o, World: world, Table: sc.Units, Types: sc.Units.Set("all"), Powers: []string{"red", "blue", "green"},
		Round: 1, Step: stepTactical, Turn: 1, Serials: map[string]int{}, unitsRaw: raw}
	for _, line := range strings.Split(strings.TrimSpace(units), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			t.Fatalf("unit line %q", line)
		}
		var ty *UnitType
		for _, x := range sc.Units.Types {
			if strings.HasPrefix(f[1], x.Code) && isDigits(strings.TrimPrefix(f[1], x.Code)) {
				ty = x
			}
		}
		if ty == nil {
			t.Fatalf("unit line %q: unknown unit", line)
		}
		serial := atoi(t, strings.TrimPrefix(f[1], ty.Code))
		u := &Unit{Owner: f[0], Serial: serial, Type: ty, To: -1}
		a, b, _ := strings.Cut(f[2], "-")
		var ok bool
		if u.At, ok = world.ParseHex(a); !ok {
			t.Fatalf("unit line %q: hex %q", line, a)
		}
		if b != "" {
			if u.To, ok = world.ParseHex(b); !ok {
				t.Fatalf("unit line %q: hex %q", line, b)
			}
		}
		for _, x := range f[3:] {
			switch {
			case x == "disabled":
				u.Disabled = true
			case x == "pooled":
				u.Pooled = true
			case strings.HasPrefix(x, "saved="):
				u.Saved = atoi(t, strings.TrimPrefix(x, "saved="))
			default:
				t.Fatalf("unit line %q: %q", line, x)
			}
		}
		if serial > g.Serials[u.Owner] {
			g.Serials[u.Owner] = serial
		}
		g.Units = append(g.Units, u)
	}
	g.sortUnits()
	return g
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n := 0
	if !isDigits(s) {
		t.Fatalf("not a number: %q", s)
	}
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// unitsText lists the units as testGame reads them, sorted.
func unitsText(g *Game) string {
	var lines []string
	for _, u := range g.Units {
		s := u.Owner + " " + u.Name() + " " + g.posName(u.pos(), u.Type)
		if u.Disabled {
			s += " disabled"
		}
		if u.Pooled {
			s += " pooled"
		}
		if u.Saved > 0 {
			s += " saved=" + itoa(u.Saved)
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	if neg {
		s = "-" + s
	}
	return s
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
