package diplomacy

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckMapRefusesDirectiveMisuse: the calendar, build and start
// directives (year-step, build-anywhere, extra-unit) misused on the test
// board, each refused by check-map's CheckMap with the file, the line and,
// where one is at fault, the province.
func TestCheckMapRefusesDirectiveMisuse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // one edit of trio.map
		want     string
	}{
		{"year-step not a number", "year-suffix\n", "year-suffix\nyear-step five\n",
			`trio.map line 8: year-step wants a number of years of at least 1, got "five"`},
		{"year-step of no years", "year-suffix\n", "year-suffix\nyear-step 0\n",
			`trio.map line 8: year-step wants a number of years of at least 1, got "0"`},
		{"year-step twice", "year-suffix\n", "year-suffix\nyear-step 5\nyear-step 10\n",
			"trio.map line 9: year-step given twice"},
		{"build-anywhere with a value", "year-suffix\n", "year-suffix\nbuild-anywhere yes\n",
			`trio.map line 8: build-anywhere takes no value, got "yes"`},
		{"build-anywhere twice", "year-suffix\n", "year-suffix\nbuild-anywhere\nbuild-anywhere\n",
			"trio.map line 9: build-anywhere given twice"},
		{"extra unit on its own home centre", "unit blue | F eas\n", "unit blue | F eas\nextra-unit red | F bay\nextra-unit blue | A wes\n",
			"trio.map line 32: province wes: extra start unit of blue on a home centre of red"},
		{"extra unit on a home centre of its own power", "unit red  | A wes\n", "extra-unit red | A wes\n",
			"trio.map line 29: province wes: extra start unit of red on its own home centre (write it as a unit line)"},
		{"extra unit where a unit stands", "unit blue | F eas\n", "unit blue | F eas\nextra-unit blue | F hil\nextra-unit red | A hil\n",
			"trio.map line 32: province hil: two start units"},
		{"extra army at sea", "unit blue | F eas\n", "unit blue | F eas\nextra-unit red | A bay\n",
			"trio.map line 31: province bay: an army cannot stand at bay"},
		{"extra unit of an unknown power", "unit blue | F eas\n", "unit blue | F eas\nextra-unit green | A hil\n",
			`trio.map line 31: unit of unknown power "green"`},
		{"extra unit without a location", "unit blue | F eas\n", "unit blue | F eas\nextra-unit red | A\n",
			"trio.map line 31: extra-unit wants <A|F> <location>"},
		{"a unit line off the home centres", "unit red  | A wes\n", "unit red  | A wes\nunit red | A hil\n",
			"trio.map line 30: province hil: start unit of red is not on one of its home centres (an extra-unit line places one elsewhere)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := trioText(t)
			if !strings.Contains(text, tc.old) {
				t.Fatalf("trio.map has no %q", tc.old)
			}
			_, probs := CheckMap("trio.map", []byte(strings.Replace(text, tc.old, tc.new, 1)))
			if len(probs) == 0 {
				t.Fatal("the misused directive passes")
			}
			if got := strings.Join(probs, "\n"); !strings.Contains(got, tc.want) {
				t.Errorf("problems\n%s\nwant %q", got, tc.want)
			}
		})
	}
}

// TestMapDirectivesPlay: the test board with all three directives is
// sound and plays by them: Red's extra fleet stands off its centres, so
// Red owes a disband after the second turn; phases are named by year,
// five years apart, the adjustments in the second turn's year; Red may
// build in the neutral centre it owns.
func TestMapDirectivesPlay(t *testing.T) {
	text := strings.Replace(trioText(t), "year-suffix\n", "year-suffix\nyear-step 5\nbuild-anywhere\n", 1)
	text = strings.Replace(text, "unit blue | F eas\n", "unit blue | F eas\nextra-unit red | F bay\n", 1)
	m, probs := CheckMap("trio.map", []byte(text))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if m.YearStep != 5 || !m.BuildAnywhere {
		t.Fatalf("year step %d, build anywhere %v", m.YearStep, m.BuildAnywhere)
	}
	e := &Engine{m: m}
	checkExamplesParse(t, e)
	if r := e.Info().Rules; !strings.Contains(r, "Years go by 5") || !strings.Contains(r, "any vacant supply centre") || !strings.Contains(r, "The game starts in 1901.") {
		t.Errorf("RULES do not tell the directives:\n%s", r)
	}
	pos := m.NewPosition()
	var start []string
	for _, u := range pos.Units {
		start = append(start, u.Power+" "+m.UnitName(u))
	}
	if want := []string{"red A Wes", "blue F Eas", "red F Bay"}; !slices.Equal(start, want) {
		t.Errorf("start units %v, want %v", start, want)
	}
	var titles []string
	for range 4 {
		titles = append(titles, m.PhaseTitle(pos.Phase))
		res, err := Adjudicate(pos, nil) // nothing ordered: holds, then civil disorder
		if err != nil {
			t.Fatal(err)
		}
		pos = res.Next
	}
	if want := []string{"1901 Movement", "1906 Movement", "1906 Adjustments", "1911 Movement"}; !slices.Equal(titles, want) {
		t.Errorf("phases %v, want %v", titles, want)
	}
	if n := len(pos.Units); n != 2 {
		t.Errorf("%d units after the adjustments, want 2 (Red's extra unit disbanded)", n)
	}
	if got := m.BuildSites("red"); !slices.Equal(got, []string{"eas", "hil", "wes"}) {
		t.Errorf("red builds in %v, want every centre", got)
	}
}
