package diplomacy

import "testing"

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
	neutralCentres(t, m, "tor", "ala", "irn", "jap")
	want := "nato A Los,nato A Nyk,nato A Par,nato F Aus,nato F Ist,nato F Lon,ussr A Mos,ussr A Sha,ussr A Vla,ussr F Alb,ussr F Hav,ussr F Len/sc"
	if got := startList(m); got != want {
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
	ref := readFacts(t, "testdata/coldwar-godip-facts.txt")
	if len(ref) < 300 {
		t.Fatalf("read %d facts", len(ref))
	}
	ours := mapFacts(m)
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
func TestColdWarPictureGolden(t *testing.T) { openingGolden(t, "coldwar") }

// pbemd check-map's checks find nothing to refuse in the shipped map (its
// picture included).
func TestColdWarMapSound(t *testing.T) { mapSound(t, "coldwar") }
