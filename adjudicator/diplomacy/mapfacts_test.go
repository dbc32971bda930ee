package diplomacy

import (
	"bufio"
	"bytes"
	"os"
	"sort"
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// A facts file restates a second public source of a map as plain lines
// (testdata/*-godip-facts.txt):
//
//	army A B    an army may move between provinces A and B (A < B)
//	fleet A B   a fleet may move between locations A and B (coasts as p/xc, A < B)
//	centre P O  P is a supply centre, home of O (- for neutral)

// readFacts reads a facts file, comments and blank lines skipped.
func readFacts(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ref := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ref[line] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ref
}

// mapFacts states a loaded map's borders and centres as a facts file does.
func mapFacts(m *Map) map[string]bool {
	ours := map[string]bool{}
	for i, a := range m.Provinces {
		for _, b := range m.Provinces[i+1:] {
			if m.ArmyBorder(a.ID, b.ID) {
				x, y := a.ID, b.ID
				if y < x {
					x, y = y, x
				}
				ours["army "+x+" "+y] = true
			}
		}
		if a.SupplyCenter {
			home := a.Home
			if home == "" {
				home = "-"
			}
			ours["centre "+a.ID+" "+home] = true
		}
	}
	var locs []string
	for _, p := range m.Provinces {
		if len(p.Coasts) == 0 {
			locs = append(locs, p.ID)
		}
		for _, c := range p.Coasts {
			locs = append(locs, p.ID+"/"+c)
		}
	}
	sort.Strings(locs)
	for i, a := range locs {
		for _, b := range locs[i+1:] {
			if m.FleetBorder(a, b) {
				ours["fleet "+a+" "+b] = true
			}
		}
	}
	return ours
}

// openingGolden holds the picture of a shipped map's start to its golden
// files (testdata/pictures/<variant>-opening.*) and to the mail budget of
// a board picture, and returns it.
func openingGolden(t *testing.T, variant string) *picture.Picture {
	t.Helper()
	e, ok := NewEngine(variant)
	if !ok {
		t.Fatalf("no variant %s", variant)
	}
	st, _ := e.New(nil, 0)
	p, err := e.Draw(st, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	picturetest.GoldenFile(t, variant+"-opening.svg", picturetest.SVG(t, p), *update)
	picturetest.GoldenPNG(t, variant+"-opening.png", p)
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 200<<10 {
		t.Errorf("PNG of %d bytes, budget 200 KB", b.Len())
	}
	return p
}

// mapSound: pbemd check-map's checks find nothing to refuse in a shipped
// map (its picture included).
func mapSound(t *testing.T, variant string) {
	t.Helper()
	m, ok := MapByName(variant)
	if !ok {
		t.Fatalf("no map %s", variant)
	}
	for _, p := range m.Problems() {
		t.Error(p)
	}
}

// neutralCentres checks that each of ids is a supply centre of no power.
func neutralCentres(t *testing.T, m *Map, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if p, _ := m.Province(id); !p.SupplyCenter || p.Home != "" {
			t.Errorf("%s: %+v, want a neutral centre", id, p)
		}
	}
}

// startList lists a map's start units as "power A Abc", sorted, joined by
// commas.
func startList(m *Map) string {
	var start []string
	for _, u := range m.Start {
		start = append(start, u.Power+" "+m.UnitName(u))
	}
	sort.Strings(start)
	return strings.Join(start, ",")
}
