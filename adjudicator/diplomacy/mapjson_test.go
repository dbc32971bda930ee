package diplomacy

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"pbemd/picture/picturetest"
)

// section returns the SVG text of the group with the given id.
func section(svg, id string) string { return groupSVG(svg, id) }

func TestDrawJSON(t *testing.T) {
	// Spring 1901: France bounces in Burgundy (a standoff) and a German
	// army is dislodged from Ruhr.
	in := `{"variant": "standard", "units": [
	    {"power": "France", "type": "army", "province": "par"}, {"power": "Germany", "type": "army", "province": "mun"},
	    {"power": "France", "type": "army", "province": "bel"}, {"power": "France", "type": "army", "province": "hol"},
	    {"power": "Germany", "type": "army", "province": "ruh"}],
	  "orders": {"France": ["A Par - Bur", "A Bel - Ruh", "A Hol S A Bel - Ruh"], "Germany": ["A Mun - Bur"]}}`
	var out bytes.Buffer
	if err := AdjudicateJSON(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, json string }{{"output", out.String()}, {"input with orders", in}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := DrawJSON(strings.NewReader(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Title, "Spring 1901 Movement — results") {
				t.Errorf("title %q", p.Title)
			}
			svg := string(picturetest.SVG(t, p))
			if marks := section(svg, "marks"); strings.Count(marks, "<path") < 2 {
				t.Errorf("no standoff burst and failure cross among the marks:\n%s", marks)
			}
			if ords := section(svg, "orders"); strings.Count(ords, "stroke-dasharray=\"7 4\"") < 1 {
				t.Errorf("the support is not drawn dashed:\n%s", ords)
			}
			if units := section(svg, "dislodged-ruh"); !strings.Contains(units, `stroke="#c4001a"`) {
				t.Errorf("the dislodged army has no red octagon:\n%s", units)
			}
		})
	}
	for _, bad := range []string{`{"variant": `, `{}`, `{"next": {"variant": "standard"}, "orders": {}}`, `{"variant": "standard", "phase": {"season": "summer", "year": 1, "type": "movement"}}`} {
		if _, err := DrawJSON(strings.NewReader(bad)); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: error %v, want ErrBadInput", bad, err)
		}
	}
}
