package diplomacy

import (
	"slices"
	"strings"
	"testing"
)

// The map's header facts: three powers and their home centres (England
// five, one of them Calais across the Channel; Burgundy four; France
// four), four neutral centres, victory at 9 of 17, France's fifth unit in
// Provence off its centres, years by fives, builds anywhere.
func TestHundredMapFacts(t *testing.T) {
	m, ok := MapByName("hundred")
	if !ok {
		t.Fatal("no hundred map")
	}
	if len(m.Provinces) != 41 || len(m.SupplyCentres()) != 17 || m.Victory != 9 || len(m.Powers) != 3 {
		t.Errorf("%d provinces, %d centres, victory %d, %d powers", len(m.Provinces), len(m.SupplyCentres()), m.Victory, len(m.Powers))
	}
	if m.StartYear != 1425 || m.YearStep != 5 || !m.BuildAnywhere {
		t.Errorf("start %d, year step %d, build anywhere %v", m.StartYear, m.YearStep, m.BuildAnywhere)
	}
	for pw, want := range map[string]string{
		"england":  "cal dev guy lon nom",
		"burgundy": "dij fla hol lux",
		"france":   "dau orl par tou",
	} {
		if got := strings.Join(m.HomeCentres(pw), " "); got != want {
			t.Errorf("%s's home centres: %s, want %s", pw, got, want)
		}
	}
	neutralCentres(t, m, "brt", "can", "cas", "sco")
	want := "burgundy A Dij,burgundy A Fla,burgundy A Lux,burgundy F Hol," +
		"england A Cal,england A Guy,england A Nom,england F Dev,england F Lon," +
		"france A Dau,france A Orl,france A Par,france A Pro,france A Tou"
	if got := startList(m); got != want {
		t.Errorf("start units\n got %s\nwant %s", got, want)
	}
	if got := m.BuildSites("burgundy"); !slices.Equal(got, m.BuildSites("france")) || len(got) != 17 {
		t.Errorf("build sites %v: want every centre, for every power", got)
	}
	e, _ := NewEngine("hundred")
	rules := e.Info().Rules
	for _, want := range []string{"The game starts in 1425.", "Years go by 5", "1430 Movement and\n  1430 Adjustments, then 1435 Movement",
		"France starts with 5 units on 4 home centres (A Pro off them)", "any vacant supply centre the power owns"} {
		if !strings.Contains(rules, want) {
			t.Errorf("RULES lack %q:\n%s", want, rules)
		}
	}
}

// TestHundredMatchesGodipAndWebDiplomacy holds the map to two public
// sources, godip's hundred and webDiplomacy's Hundred, restated as facts
// (testdata/hundred-*-facts.txt): every border and centre the same both
// ways. The two sources agree with each other exactly.
func TestHundredMatchesGodipAndWebDiplomacy(t *testing.T) {
	m, _ := MapByName("hundred")
	ours := mapFacts(m)
	for _, file := range []string{"testdata/hundred-godip-facts.txt", "testdata/hundred-webdiplomacy-facts.txt"} {
		ref := readFacts(t, file)
		if len(ref) < 140 {
			t.Fatalf("%s: read %d facts", file, len(ref))
		}
		for fact := range ref {
			if !ours[fact] {
				t.Errorf("%s: %s; the map does not say so", file, fact)
			}
		}
		for fact := range ours {
			if !ref[fact] {
				t.Errorf("the map: %s; %s does not say so", fact, file)
			}
		}
	}
}

// The golden picture of Hundred's start (testdata/pictures/hundred-opening.*),
// titled by the year alone, within the mail budget of a board picture.
func TestHundredPictureGolden(t *testing.T) {
	if p := openingGolden(t, "hundred"); !strings.HasSuffix(p.Title, ": 1425 Movement") {
		t.Errorf("picture title %q", p.Title)
	}
}

// pbemd check-map's checks find nothing to refuse in the shipped map (its
// picture included).
func TestHundredMapSound(t *testing.T) { mapSound(t, "hundred") }

// GameYear counts Hundred's cycles of two turns, as the demo's year limit
// does: 1425 and 1430 are the first game year, 1435 the second.
func TestHundredGameYears(t *testing.T) {
	m, _ := MapByName("hundred")
	for _, c := range []struct {
		p    Phase
		want int
	}{
		{Phase{Spring, 1425, Movement}, 0}, {Phase{Fall, 1430, Retreats}, 0}, {Phase{Winter, 1430, Adjustments}, 0},
		{Phase{Spring, 1435, Movement}, 1}, {Phase{Fall, 1440, Movement}, 1}, {Phase{Spring, 1445, Movement}, 2},
	} {
		if got := m.GameYear(c.p); got != c.want {
			t.Errorf("%s: game year %d, want %d", m.PhaseTitle(c.p), got, c.want)
		}
	}
	std, _ := MapByName("standard")
	if got := std.GameYear(Phase{Winter, 1903, Adjustments}); got != 2 {
		t.Errorf("standard Winter 1903: game year %d, want 2", got)
	}
}
