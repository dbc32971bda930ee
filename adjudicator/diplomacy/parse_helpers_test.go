package diplomacy

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pbemd/orders"
)

// testdataDir holds the shared sample files of the orders tests.
const testdataDir = "../../testdata/orders"

var (
	lexMu    sync.Mutex
	lexCache = map[string]*Lexicon{}
)

// loadLexicon reads testdata/orders/<name>.lex (see the file header for its
// format) and prepares it. Lexicons are cached: they are read-only.
func loadLexicon(tb testing.TB, name string) *Lexicon {
	tb.Helper()
	lexMu.Lock()
	defer lexMu.Unlock()
	if l, ok := lexCache[name]; ok {
		return l
	}
	f, err := os.Open(filepath.Join(testdataDir, name+".lex"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var provs, pows []orders.Name
	sc := bufio.NewScanner(f)
	for no := 1; sc.Scan(); no++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, rest, _ := strings.Cut(line, " ")
		fields := strings.Split(rest, "|")
		for len(fields) < 5 {
			fields = append(fields, "")
		}
		n := orders.Name{ID: strings.TrimSpace(fields[0]), Abbrev: strings.TrimSpace(fields[1]), Full: strings.TrimSpace(fields[2])}
		for _, a := range strings.Split(fields[3], ",") {
			if a = strings.TrimSpace(a); a != "" {
				n.Aliases = append(n.Aliases, a)
			}
		}
		n.Coasts = strings.Fields(fields[4])
		switch kind {
		case "province":
			provs = append(provs, n)
		case "power":
			pows = append(pows, n)
		default:
			tb.Fatalf("%s.lex:%d: unknown kind %q", name, no, kind)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	l, err := NewLexicon(provs, pows)
	if err != nil {
		tb.Fatalf("%s.lex: %v", name, err)
	}
	lexCache[name] = l
	return l
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
