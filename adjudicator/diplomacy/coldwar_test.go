package diplomacy

import (
	"bufio"
	"os"
	"sort"
	"strings"
	"testing"
)

// Cold War's special features in the DATC's style: testdata/coldwar.
func TestColdWarFeatures(t *testing.T) {
	for _, c := range loadCases(t, "testdata/coldwar/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

// The map's header facts: the powers, the centres (Toronto, Alaska, Iran
// and Japan start neutral, by the rules page), the start and the victory.
func TestColdWarMapFacts(t *testing.T) {
	m, ok := MapByName("coldwar")
	if !ok {
		t.Fatal("no coldwar map")
	}
	if len(m.Provinces) != 90 || len(m.SupplyCentres()) != 27 || m.Victory != 17 || len(m.Powers) != 2 {
		t.Errorf("%d provinces, %d centres, victory %d, %d powers", len(m.Provinces), len(m.SupplyCentres()), m.Victory, len(m.Powers))
	}
	if m.StartYear != 1960 || m.YearName(1960) != "1960" {
		t.Errorf("years: start %d, %q", m.StartYear, m.YearName(1960))
	}
	for _, id := range []string{"tor", "ala", "irn", "jap"} {
		if p, _ := m.Province(id); !p.SupplyCenter || p.Home != "" {
			t.Errorf("%s: %+v, want a neutral centre", id, p)
		}
	}
	var start []string
	for _, u := range m.Start {
		start = append(start, u.Power+" "+m.UnitName(u))
	}
	sort.Strings(start)
	want := "nato A Los,nato A Nyk,nato A Par,nato F Aus,nato F Ist,nato F Lon,ussr A Mos,ussr A Sha,ussr A Vla,ussr F Alb,ussr F Hav,ussr F Len/sc"
	if got := strings.Join(start, ","); got != want {
		t.Errorf("start units\n got %s\nwant %s", got, want)
	}
	for _, pw := range []string{"ussr", "nato"} {
		if got := len(m.HomeCentres(pw)); got != 6 {
			t.Errorf("%s has %d home centres, want 6", pw, got)
		}
	}
}

// TestColdWarMatchesGodip holds the map, written from webDiplomacy's
// ColdWar, to the second public source, godip's coldwar
// (testdata/coldwar-godip-facts.txt): every border and centre the same
// both ways, but for the one place the two sources differ.
func TestColdWarMatchesGodip(t *testing.T) {
	m, _ := MapByName("coldwar")
	// godip lets fleets move between North Vietnam and South East Asia;
	// webDiplomacy's board (and this map) does not: their coasts are
	// parted by Saigon, and the two provinces share only a land border.
	differs := map[string]bool{"fleet nvi sea": true}
	f, err := os.Open("testdata/coldwar-godip-facts.txt")
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
	if len(ref) < 300 {
		t.Fatalf("read %d facts", len(ref))
	}
	ours := map[string]bool{}
	for i, a := range m.Provinces {
		for _, b := range m.Provinces[i+1:] {
			if m.ArmyBorder(a.ID, b.ID) {
				ours["army "+a.ID+" "+b.ID] = true
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
	for fact := range ref {
		if !ours[fact] && !differs[fact] {
			t.Errorf("godip: %s; the map does not say so", fact)
		}
	}
	for fact := range ours {
		if !ref[fact] {
			t.Errorf("the map: %s; godip does not say so", fact)
		}
	}
	for fact := range differs {
		if ours[fact] {
			t.Errorf("the map: %s, a border webDiplomacy's board does not have", fact)
		}
	}
}

// The golden picture of Cold War's start (testdata/pictures/coldwar-opening.*),
// within the mail budget of a board picture.
func TestColdWarPictureGolden(t *testing.T) { startPictureGolden(t, "coldwar") }

// pbemd check-map's checks find nothing to refuse in the shipped map (its
// picture included).
func TestColdWarMapSound(t *testing.T) {
	m, _ := MapByName("coldwar")
	for _, p := range m.Problems() {
		t.Error(p)
	}
}
