package diplomacy

import (
	"bufio"
	"os"
	"sort"
	"strings"
	"testing"
)

const miniMap = `variant mini
title Mini
start-year 1
year-suffix
victory 2
provinces 4
centres 3
power red | Red |
power blue | Blue |
province aaa | Aaa | coast | red | Alpha |
province bbb | Bbb | coast | blue | Beta |
province ccc | Ccc | coast | sc | Gamma |
province sea | Sea | sea | - | The Sea |
army aaa | bbb ccc
army bbb | aaa ccc
army ccc | aaa bbb
fleet aaa | sea
fleet bbb | sea
fleet ccc | sea
fleet sea | aaa bbb ccc
unit red | A aaa
unit blue | F bbb
`

func TestParseMapRefusesBrokenMaps(t *testing.T) {
	if _, err := ParseMap("mini", []byte(miniMap)); err != nil {
		t.Fatalf("the base map must load: %v", err)
	}
	tests := []struct {
		name, old, new, want string
	}{
		{"unknown directive", "unit blue | F bbb\n", "unit blue | F bbb\ncolour aaa | red\n", `unknown directive "colour"`},
		{"extra field", "province aaa | Aaa | coast | red | Alpha |", "province aaa | Aaa | coast | red | Alpha | | x", "province wants 6 fields"},
		{"unknown kind", "province ccc | Ccc | coast", "province ccc | Ccc | swamp", `province ccc: unknown kind "swamp"`},
		{"unknown neighbour", "army aaa | bbb ccc", "army aaa | bbb ccc zzz", `province aaa: army neighbour "zzz" does not exist`},
		{"army border not mirrored", "army ccc | aaa bbb", "army ccc | aaa", "province bbb: army border to ccc is not mirrored"},
		{"fleet border not mirrored", "fleet sea | aaa bbb ccc", "fleet sea | aaa bbb", "province ccc: fleet border to sea is not mirrored"},
		{"army border into the sea", "army ccc | aaa bbb", "army ccc | aaa bbb sea", "province ccc: army neighbour sea is a sea"},
		{"coasts without per-coast borders", "unit red", "coasts aaa | nc sc\nunit red", "province aaa: give fleet borders per coast"},
		{"coasts on a sea", "unit red", "coasts sea | nc sc\nunit red", "province sea: only a coastal province has coasts"},
		{"single coast", "unit red", "coasts aaa | nc\nunit red", "province aaa: a multi-coast province needs at least two coasts"},
		{"centre count", "centres 3", "centres 4", "declares 4 supply centres but lists 3"},
		{"province count", "provinces 4", "provinces 5", "declares 5 provinces but lists 4"},
		{"victory not a majority", "victory 2", "victory 1", "must be a majority"},
		{"unknown victory option", "victory 2", "victory 1 | shared", `victory: unknown option "shared"`},
		{"victory over the centres", "victory 2", "victory 4 | below-majority", "victory at 4 centres is more than the 3 centres"},
		{"start units do not match homes", "unit blue | F bbb\n", "", "power blue starts with 0 units on 1 home centres"},
		{"start unit off its home", "unit red | A aaa", "unit red | A ccc", "province ccc: start unit of red is not on one of its home centres"},
		{"two start units in one province", "unit red | A aaa", "unit red | A aaa\nunit red | F aaa", "province aaa: two start units"},
		{"fleet at an inland start", "province aaa | Aaa | coast", "province aaa | Aaa | land", "province aaa: an inland province has no fleet borders"},
		{"home of unknown power", "province ccc | Ccc | coast | sc", "province ccc | Ccc | coast | green", `province ccc: home centre of unknown power "green"`},
		{"ambiguous name", "province aaa | Aaa | coast | red | Alpha |", "province aaa | Aaa | coast | red | Alpha | beta", "is also a name of province"},
		{"duplicate province", "province sea | Sea", "province aaa | Sea", "province aaa declared twice"},
		{"fleet border to itself", "fleet sea | aaa bbb ccc", "fleet sea | aaa bbb ccc sea", "location sea: borders its own province"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(miniMap, tc.old) {
				t.Fatalf("test setup: %q not in the base map", tc.old)
			}
			_, err := ParseMap("mini", []byte(strings.Replace(miniMap, tc.old, tc.new, 1)))
			if err == nil {
				t.Fatalf("broken map accepted; want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestStandardMapFacts(t *testing.T) {
	m, ok := MapByName("standard")
	if !ok {
		t.Fatal("no standard map")
	}
	kinds := map[ProvinceKind]int{}
	for _, p := range m.Provinces {
		kinds[p.Kind]++
	}
	if len(m.Provinces) != 75 || kinds[Land] != 14 || kinds[Coast] != 42 || kinds[Sea] != 19 {
		t.Errorf("provinces: %d (land %d, coast %d, sea %d), want 75 (14, 42, 19)", len(m.Provinces), kinds[Land], kinds[Coast], kinds[Sea])
	}
	if n := len(m.SupplyCentres()); n != 34 || m.Victory != 18 {
		t.Errorf("%d centres, victory %d; want 34, 18", n, m.Victory)
	}
	homes := map[string]int{"austria": 3, "england": 3, "france": 3, "germany": 3, "italy": 3, "russia": 4, "turkey": 3}
	for p, n := range homes {
		if got := len(m.HomeCentres(p)); got != n {
			t.Errorf("%s has %d home centres, want %d", p, got, n)
		}
	}
	for _, id := range []string{"bul", "spa", "stp"} {
		p, _ := m.Province(id)
		if len(p.Coasts) != 2 {
			t.Errorf("%s coasts %v", id, p.Coasts)
		}
	}
	borders := []struct {
		fleet bool
		a, b  string
		want  bool
	}{
		{false, "rom", "ven", true}, {true, "rom", "ven", false}, // DATC 6.A.9
		{true, "spa/nc", "mao", true}, {true, "spa/nc", "lyo", false}, {true, "spa/sc", "lyo", true},
		{true, "stp/nc", "bar", true}, {true, "stp/sc", "bot", true}, {true, "stp/nc", "bot", false},
		{true, "bul/ec", "bla", true}, {true, "bul/sc", "aeg", true}, {true, "bul/ec", "aeg", false},
		{true, "con", "bul/ec", true}, {true, "con", "bul/sc", true}, {true, "gas", "spa/nc", true}, {true, "gas", "spa/sc", false},
		{false, "kie", "den", true}, {true, "kie", "den", true}, {false, "swe", "den", true},
		{true, "nap", "rom", true}, {true, "nth", "nwy", true}, {true, "eng", "iri", true}, {false, "naf", "tun", true},
		{false, "lvp", "wal", true}, {false, "bur", "bel", true}, {false, "ser", "alb", true}, {true, "ion", "eas", true},
		{false, "mos", "pru", false}, {true, "bla", "aeg", false}, {false, "fin", "lvn", false},
	}
	for _, b := range borders {
		got := m.ArmyBorder(b.a, b.b)
		if b.fleet {
			got = m.FleetBorder(b.a, b.b)
		}
		if got != b.want {
			t.Errorf("border %s-%s (fleet %v): %v, want %v", b.a, b.b, b.fleet, got, b.want)
		}
	}
	if len(m.Start) != 22 {
		t.Errorf("%d start units", len(m.Start))
	}
	if got := m.UnitName(Unit{Type: Fleet, Loc: Location{Province: "stp", Coast: "sc"}}); got != "F StP/sc" {
		t.Errorf("unit name %q", got)
	}
}

func TestAncientMedMapFacts(t *testing.T) {
	m, ok := MapByName("ancientmed")
	if !ok {
		t.Fatal("no ancientmed map")
	}
	if len(m.Provinces) != 79 || len(m.SupplyCentres()) != 34 || m.Victory != 18 || len(m.Powers) != 5 {
		t.Errorf("%d provinces, %d centres, victory %d, %d powers", len(m.Provinces), len(m.SupplyCentres()), m.Victory, len(m.Powers))
	}
	abbrevs := map[string]string{"gop": "GoP", "gos": "GoS", "got": "GoT", "sad": "Sad", "sam": "Sam", "sii": "Sii", "sip": "Sip", "tye": "Tye", "tyn": "Tyn", "egy": "Egy", "cil": "Cil"}
	for id, want := range abbrevs {
		p, ok := m.Province(id)
		if !ok || p.Abbrev != want {
			t.Errorf("%s: abbreviation %q, want %q", id, p.Abbrev, want)
		}
	}
	full := map[string]string{"gop": "Gulf of Pelusium", "tyn": "Tyrrhenean Sea", "sii": "Sinai", "sip": "Sinope", "bal": "Baleares", "byz": "Byzantium"}
	for id, want := range full {
		if p, _ := m.Province(id); p.Full != want {
			t.Errorf("%s: full name %q, want %q", id, p.Full, want)
		}
	}
	if p, _ := m.Province("bal"); p.Kind != Archipelago || !p.SupplyCenter {
		t.Errorf("Baleares: %+v", p)
	}
	if m.YearName(451) != "451 AUC" || m.StartYear != 450 {
		t.Errorf("years: start %d, %q", m.StartYear, m.YearName(451))
	}
	var start []string
	for _, u := range m.Start {
		start = append(start, u.Power+" "+m.UnitName(u))
	}
	sort.Strings(start)
	want := "carthage A Car,carthage A Cir,carthage F Tha,egypt A Mem,egypt A The,egypt F Ale,greece A Ath,greece A Mac,greece F Spa,persia A Ant,persia A Dam,persia F Sid,rome A Rav,rome A Rom,rome F Nea"
	if got := strings.Join(start, ","); got != want {
		t.Errorf("start units\n got %s\nwant %s", got, want)
	}
}

// TestAncientMedMatchesReference compares the embedded map with the
// reference facts of the variant (testdata/ancmed-map-facts.txt: provinces,
// kinds, centres, homes and adjacencies as plain facts, with their sources
// in its header), so the comparison runs on every checkout.
func TestAncientMedMatchesReference(t *testing.T) {
	f, err := os.Open("testdata/ancmed-map-facts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, _ := MapByName("ancientmed")
	sc := bufio.NewScanner(f)
	section := ""
	n := 0
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# PROVINCES"):
			section = "p"
			continue
		case strings.HasPrefix(line, "# ADJACENCY"):
			section = "a"
			continue
		case strings.HasPrefix(line, "#"), strings.TrimSpace(line) == "":
			if strings.HasPrefix(line, "# STARTING") {
				section = ""
			}
			continue
		}
		switch section {
		case "p":
			f := strings.Split(line, "|")
			id, kind, sc, home := strings.TrimSpace(f[0]), strings.TrimSpace(f[2]), strings.TrimSpace(f[3]), strings.TrimSpace(f[4])
			p, ok := m.Province(id)
			if !ok {
				t.Errorf("province %s missing", id)
				continue
			}
			if kindName(p.Kind) != kind || p.SupplyCenter != (sc == "yes") || (home != "-" && !strings.EqualFold(p.Home, home)) {
				t.Errorf("province %s: %+v, reference %s %s %s", id, p, kind, sc, home)
			}
			n++
		case "a":
			id, rest, _ := strings.Cut(line, ":")
			armies, fleets, _ := strings.Cut(rest, ";")
			for _, other := range m.Provinces {
				wantA := slicesIndex(strings.Fields(armies), other.ID) >= 0
				wantF := slicesIndex(strings.Fields(fleets), other.ID) >= 0
				if m.ArmyBorder(id, other.ID) != wantA || m.FleetBorder(id, other.ID) != wantF {
					t.Errorf("%s-%s: army %v fleet %v, reference army %v fleet %v", id, other.ID, m.ArmyBorder(id, other.ID), m.FleetBorder(id, other.ID), wantA, wantF)
				}
			}
		}
	}
	if n != 79 {
		t.Errorf("compared %d provinces", n)
	}
}
