package diplomacy

import (
	"strings"
	"testing"

	"pbemd/orders"
)

// testdataDir holds the shared sample files of the orders tests.
const testdataDir = "../../testdata/orders"

// loadLexicon returns the lexicon of the shipped map of that variant
// ("standard", "ancientmed"): the names the daemon reads a player's mail
// with (the engine parses with Map.Lexicon too), never a hand-made copy.
func loadLexicon(tb testing.TB, variant string) *Lexicon {
	tb.Helper()
	m, ok := MapByName(variant)
	if !ok {
		tb.Fatalf("no shipped map %q (the maps are %v)", variant, MapNames())
	}
	return m.Lexicon()
}

// testPosition is a Position read from "A par, F nth, F stp/sc".
type testPosition map[string]struct {
	unit  UnitType
	coast string
}

func parsePosition(tb testing.TB, s string) testPosition {
	tb.Helper()
	p := testPosition{}
	for _, u := range strings.Split(s, ",") {
		f := strings.Fields(u)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			tb.Fatalf("bad unit %q in position %q", u, s)
		}
		ut := Army
		if strings.EqualFold(f[0], "F") {
			ut = Fleet
		}
		prov, coast, _ := strings.Cut(strings.ToLower(f[1]), "/")
		p[prov] = struct {
			unit  UnitType
			coast string
		}{ut, coast}
	}
	return p
}

func (p testPosition) UnitAt(province string) (UnitType, string, string, bool) {
	u, ok := p[province]
	return u.unit, "", u.coast, ok
}

// lineOrder is the Diplomacy order of a parsed line, nil when it has none.
func lineOrder(l orders.Line) *Order {
	o, _ := l.Value.(*Order)
	return o
}

func hasError(ds []orders.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == orders.Error {
			return true
		}
	}
	return false
}

// splitLines splits a body at LF, CRLF or CR, as orders.Parse does.
func splitLines(body string) []string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	if body == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(body, "\n"), "\n")
}
