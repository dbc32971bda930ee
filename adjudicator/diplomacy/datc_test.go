package diplomacy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// A case file (testdata/datc/*.txt, testdata/ancmed/*.txt) holds cases:
//
//	case 6.A.5 Title words
//	variant ancientmed              (optional; default standard)
//	start                           (the case starts from the variant's start
//	                                 position: its units and centres, then
//	                                 the unit and owner lines; no unit is
//	                                 placed by an order)
//	season fall                     (the first phase is in the Fall)
//	unit England: F Lon             (a unit that has no order, or an odd coast)
//	owner Germany: Ber Kie Mun      (supply centre owners; adjustment cases)
//	phase retreat | adjustment      (start of the next phase's orders;
//	                                 as the first line: the case starts there)
//	England: F Nth - Pic => illegal (an order and its expected outcome)
//	dislodged Turkey: F Ank         (expected dislodged units: exact set)
//	retreats Turkey: F Ank => Con Smy   (expected retreat options)
//	standoff Boh                    (expected standoff provinces: exact set when given)
//	disbanded Russia: A Pru         (units removed in a retreat/adjustment phase: exact set)
//	winner France | none            (who has won when the phase is over)
//	next 1430 Adjustments           (the name of the phase that follows,
//	                                 as players read it)
//	end
//
// Units given orders in the first movement phase are placed where the order
// says unless a unit line put something there. Orders use the canonical text
// of the orders package; outcomes are succeeds, fails, invalid, illegal.

type caseOrder struct {
	line    int
	power   string
	text    string
	outcome Outcome
}

type casePhase struct {
	kind      PhaseType
	orders    []caseOrder
	dislodged []string
	retreats  map[string]string
	standoffs []string
	hasStand  bool
	disbanded []string
	winner    string // "": not checked; "none": nobody
	next      string // "": not checked; else the next phase's title
}

type datcCase struct {
	file, name string
	line       int
	variant    string
	start      bool     // from the variant's start position
	fall       bool     // the first phase is in the Fall
	units      []string // "England: F Lon"
	owners     map[string][]string
	phases     []*casePhase
}

func loadCases(t *testing.T, pattern string) []*datcCase {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files match %s", pattern)
	}
	sort.Strings(files)
	var out []*datcCase
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		var c *datcCase
		no := 0
		cur := func() *casePhase { return c.phases[len(c.phases)-1] }
		for sc.Scan() {
			no++
			line := sc.Text()
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			bad := func() { t.Fatalf("%s:%d: cannot read %q", f, no, line) }
			key, rest, _ := strings.Cut(line, " ")
			if c == nil {
				if key != "case" {
					bad()
				}
				c = &datcCase{file: f, line: no, variant: "standard", owners: map[string][]string{}}
				c.name = strings.Fields(rest)[0]
				c.phases = []*casePhase{{kind: Movement}}
				continue
			}
			switch key {
			case "end":
				out = append(out, c)
				c = nil
			case "variant":
				c.variant = rest
			case "start":
				c.start = true
			case "season":
				if rest != "fall" {
					bad()
				}
				c.fall = true
			case "winner":
				cur().winner = rest
			case "next":
				cur().next = rest
			case "unit":
				c.units = append(c.units, rest)
			case "owner":
				pw, provs, ok := strings.Cut(rest, ":")
				if !ok {
					bad()
				}
				c.owners[strings.TrimSpace(pw)] = append(c.owners[strings.TrimSpace(pw)], strings.Fields(provs)...)
			case "phase":
				k := map[string]PhaseType{"retreat": Retreats, "adjustment": Adjustments}[rest]
				if k == 0 {
					bad()
				}
				p := cur()
				if len(p.orders) == 0 && len(c.phases) == 1 && p.kind == Movement {
					p.kind = k
				} else {
					c.phases = append(c.phases, &casePhase{kind: k})
				}
			case "dislodged":
				cur().dislodged = append(cur().dislodged, rest)
			case "retreats":
				u, opts, ok := strings.Cut(rest, "=>")
				if !ok {
					bad()
				}
				if cur().retreats == nil {
					cur().retreats = map[string]string{}
				}
				cur().retreats[strings.TrimSpace(u)] = strings.Join(strings.Fields(opts), " ")
			case "standoff":
				cur().hasStand = true
				cur().standoffs = append(cur().standoffs, strings.Fields(rest)...)
			case "disbanded":
				cur().disbanded = append(cur().disbanded, rest)
			default:
				text, want, ok := strings.Cut(line, "=>")
				if !ok || !strings.Contains(text, ":") {
					bad()
				}
				pw, o, _ := strings.Cut(text, ":")
				oc := map[string]Outcome{"succeeds": Succeeded, "fails": Failed, "invalid": Invalid, "illegal": Illegal}[strings.TrimSpace(want)]
				if oc == 0 {
					bad()
				}
				cur().orders = append(cur().orders, caseOrder{no, strings.TrimSpace(pw), strings.TrimSpace(o), oc})
			}
		}
		fh.Close()
		if c != nil {
			t.Fatalf("%s: case %s has no end", f, c.name)
		}
	}
	return out
}

// unitText prints a unit as the case files write it: "England: F Lon".
func unitText(m *Map, u Unit) string { return m.PowerName(u.Power) + ": " + m.UnitName(u) }

func (c *datcCase) position(t *testing.T, m *Map) *Position {
	pos := &Position{Map: m, Phase: Phase{Spring, m.StartYear, c.phases[0].kind}, Owners: map[string]string{}}
	if c.start {
		pos = m.NewPosition()
	}
	if c.fall || c.phases[0].kind == Adjustments {
		// The Fall turn's year, which the Winter adjustments share.
		pos.Phase.Year = m.fallYear(pos.Phase.Year)
	}
	if c.fall {
		pos.Phase.Season = Fall
	}
	if c.phases[0].kind == Adjustments {
		pos.Phase.Season = Winter
	}
	has := map[string]bool{}
	for _, u := range pos.Units {
		has[u.Loc.Province] = true
	}
	add := func(power, unitText string) {
		pw, ok := m.PowerID(power)
		if !ok {
			t.Fatalf("unknown power %q", power)
		}
		u, err := readUnit(m, unitText)
		if err != nil {
			t.Fatal(err)
		}
		if has[u.Loc.Province] {
			return
		}
		has[u.Loc.Province] = true
		u.Power = pw
		pos.Units = append(pos.Units, u)
	}
	for _, s := range c.units {
		pw, u, _ := strings.Cut(s, ":")
		add(pw, strings.TrimSpace(u))
	}
	if c.phases[0].kind == Movement && !c.start {
		for _, o := range c.phases[0].orders {
			f := strings.Fields(o.text)
			if len(f) >= 2 && (f[0] == "A" || f[0] == "F") {
				add(o.power, f[0]+" "+f[1])
			}
		}
	}
	for pw, provs := range c.owners {
		id, ok := m.PowerID(pw)
		if !ok {
			t.Fatalf("unknown power %q", pw)
		}
		for _, p := range provs {
			l, err := readLoc(m, p)
			if err != nil {
				t.Fatal(err)
			}
			pos.Owners[l.Province] = id
		}
	}
	return pos
}

func readLoc(m *Map, s string) (Location, error) {
	p, c, _ := strings.Cut(s, "/")
	p = strings.ToLower(p)
	if _, ok := m.provIdx[p]; ok {
		return Location{Province: p, Coast: strings.ToLower(c)}, nil
	}
	return Location{}, fmt.Errorf("unknown location %q", s)
}

func readUnit(m *Map, s string) (Unit, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return Unit{}, fmt.Errorf("bad unit %q", s)
	}
	l, err := readLoc(m, f[1])
	if err != nil {
		return Unit{}, err
	}
	t := map[string]UnitType{"A": Army, "F": Fleet}[f[0]]
	if t == NoUnit {
		return Unit{}, fmt.Errorf("bad unit type in %q", s)
	}
	return Unit{Type: t, Loc: l}, nil
}

func runCase(t *testing.T, c *datcCase) {
	m, ok := MapByName(c.variant)
	if !ok {
		t.Fatalf("unknown variant %q", c.variant)
	}
	runCaseOn(t, m, c)
}

// runCaseOn plays a case on a map the registry does not hold.
func runCaseOn(t *testing.T, m *Map, c *datcCase) {
	pos := c.position(t, m)
	for pi, ph := range c.phases {
		if pos.Phase.Type != ph.kind {
			t.Fatalf("phase %d: position is in %s, case expects %s", pi+1, pos.Phase.Type, ph.kind)
		}
		var ords []PowerOrder
		for _, o := range ph.orders {
			pw, ok := m.PowerID(o.power)
			if !ok {
				t.Fatalf("line %d: unknown power %q", o.line, o.power)
			}
			ord, err := parseCaseOrder(m, o.text, ph.kind)
			if err != nil {
				t.Fatalf("line %d: %v", o.line, err)
			}
			ords = append(ords, PowerOrder{Power: pw, Order: ord})
		}
		res, err := Adjudicate(pos, ords)
		if err != nil {
			t.Fatalf("phase %d: %v", pi+1, err)
		}
		if ph.kind == Movement {
			sameLegality(t, fmt.Sprintf("phase %d", pi+1), pos, ords, res)
		}
		for k, o := range ph.orders {
			got := res.Orders[k]
			if got.Outcome != o.outcome {
				t.Errorf("line %d: %s: %s %s: got %s (%s), want %s", o.line, o.power, o.text, "", got.Outcome, got.Reason, o.outcome)
			}
		}
		switch ph.kind {
		case Movement:
			var got []string
			for _, d := range res.Dislodged {
				got = append(got, unitText(m, d.Unit))
			}
			if !sameSet(got, ph.dislodged) {
				t.Errorf("dislodged: got %q, want %q", got, ph.dislodged)
			}
			for u, want := range ph.retreats {
				found := false
				for _, d := range res.Dislodged {
					if unitText(m, d.Unit) == u {
						found = true
						if g := m.optionNames2(d.Options); g != want {
							t.Errorf("retreats of %s: got %q, want %q", u, g, want)
						}
					}
				}
				if !found {
					t.Errorf("retreats: %s is not dislodged", u)
				}
			}
			if ph.hasStand {
				var want []string
				for _, s := range ph.standoffs {
					l, err := readLoc(m, s)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, l.Province)
				}
				if !sameSet(res.Standoffs, want) {
					t.Errorf("standoffs: got %q, want %q", res.Standoffs, want)
				}
			}
		default:
			var got []string
			for _, u := range res.Disbanded {
				got = append(got, unitText(m, u))
			}
			if !sameSet(got, ph.disbanded) {
				t.Errorf("disbanded: got %q, want %q", got, ph.disbanded)
			}
		}
		if w := ph.winner; w != "" {
			want := ""
			if w != "none" {
				want, _ = m.PowerID(w)
			}
			if res.Winner != want {
				t.Errorf("winner: got %q, want %q", res.Winner, want)
			}
		}
		if got := m.PhaseTitle(res.Next.Phase); ph.next != "" && got != ph.next {
			t.Errorf("next phase: got %q, want %q", got, ph.next)
		}
		if t.Failed() {
			for _, r := range res.Orders {
				t.Logf("  %s: %s => %s %s", r.Power, r.Text, r.Outcome, r.Reason)
			}
			return
		}
		pos = res.Next
	}
}

// optionNames2 prints retreat options space-separated as the case files do.
func (m *Map) optionNames2(opts []string) string {
	var out []string
	for _, o := range opts {
		p, c := splitLoc(o)
		out = append(out, m.LocName(Location{Province: p, Coast: c}))
	}
	return strings.Join(out, " ")
}

func sameSet(a, b []string) bool {
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	if len(x) == 0 && len(y) == 0 {
		return true
	}
	return reflect.DeepEqual(x, y)
}

func TestDATC(t *testing.T) {
	cases := loadCases(t, "testdata/datc/*.txt")
	if len(cases) != 165 { // 164 cases; 6.J.9 has two scenarios
		t.Errorf("found %d DATC cases, want 165", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("case %s appears twice", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

// TestRuleVariants: the special rules of the rule variants on the
// standard board (rulevariants.go), a case each.
func TestRuleVariants(t *testing.T) {
	for _, c := range loadCases(t, "testdata/variants/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

func TestAncientMedFeatures(t *testing.T) {
	for _, c := range loadCases(t, "testdata/ancmed/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

// Hundred's special features (the year step, France's army off its
// centres, build anywhere, London–Calais, two coasts): testdata/hundred.
func TestHundredFeatures(t *testing.T) {
	for _, c := range loadCases(t, "testdata/hundred/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}
