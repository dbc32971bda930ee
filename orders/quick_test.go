package orders

import (
	"strings"
	"testing"
)

// TestCanonicalForms checks the canonical lines of canonical.md and the most
// common long forms against the standard map.
func TestCanonicalForms(t *testing.T) {
	lex := loadLexicon(t, "standard")
	cases := []struct{ in, want string }{
		{"A Par H", "A Par H"},
		{"A Par - Bur", "A Par - Bur"},
		{"A Lon - Bel via convoy", "A Lon - Bel via convoy"},
		{"A Lon - Nth - Bel", "A Lon - Nth - Bel"},
		{"F Mao - Spa/nc", "F Mao - Spa/nc"},
		{"F Eng S A Bel", "F Eng S A Bel"},
		{"A Tyr S A Ven - Tri", "A Tyr S A Ven - Tri"},
		{"F Nth C A Lon - Bel", "F Nth C A Lon - Bel"},
		{"A Par R Bur", "A Par R Bur"},
		{"A Par D", "A Par D"},
		{"Build F StP/nc", "Build F StP/nc"},
		{"Waive", "Waive"},
		{"f nth - pic", "F Nth - Pic"},
		{`Army "Paris" move "Burgundy"`, "A Par - Bur"},
		{`Fleet "English Channel" support Army "Belgium" hold`, "F Eng S A Bel"},
		{"Fleet Constantinople move Bulgaria east coast", "F Con - Bul/ec"},
		{"A Par moves to Burgundy", "A Par - Bur"},
		{"Par-Bur", "Par - Bur"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			o, diags, err := ParseOrder(c.in, Options{Lexicon: lex})
			if err != nil {
				t.Fatalf("ParseOrder(%q): %v %v", c.in, err, diags)
			}
			if got := Format(o, lex); got != c.want {
				t.Errorf("Format(ParseOrder(%q)) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestParseMailQuick(t *testing.T) {
	lex := loadLexicon(t, "standard")
	body := "Hi GM,\n\nA Par - Bur\nF Brest - Mid-Atlantic Ocean\n# a comment\n> quoted\nxyzzy\nThanks\n-- \nA Mar - Spa\n"
	r := Parse(body, Options{Lexicon: lex})
	var got []string
	for _, o := range r.Orders() {
		got = append(got, Format(o, lex))
	}
	if strings.Join(got, "; ") != "A Par - Bur; F Bre - Mao" {
		t.Errorf("orders = %q", got)
	}
	errs := r.Errors()
	if len(errs) != 1 || errs[0].No != 7 {
		t.Errorf("errors = %+v", errs)
	}
}
