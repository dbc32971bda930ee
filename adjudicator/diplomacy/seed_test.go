package diplomacy

import (
	"strings"
	"testing"
)

// The seed (diplomacy-ancient-mediterranean.txt, "Abbreviations for Ancient
// Med Names"): "There are only a few exceptions to these guidelines due to
// redundancies ... Sinai = Sii, Sinope = Sip". "Sin" is both Sinai and
// Sinope, and "An illegal or ambiguous order must be ignored". The shipped
// map is read through the engine's Check, as a player's mail is.
func TestSeedSinIsAmbiguousOnTheShippedMap(t *testing.T) {
	e := engineFor(t, "ancientmed")
	state := stateOf(t, "ancientmed", Phase{Spring, 451, Movement}, []string{"persia: F Bla", "persia: A Gal"}, nil, nil)
	for _, tc := range []struct{ text, canonical, diag string }{
		{"F Bla - Sin", "", `"Sin" could be`},
		{"A Gal - Sin", "", `"Sin" could be`},
		// The same rule for the seed's other redundancies: Sardinia = Sad,
		// Sarmatia = Sam; Tyre = Tye, Tyrrhenean Sea = Tyn.
		{"F Bla - Sar", "", `"Sar" could be`},
		{"F Bla - Tyr", "", `"Tyr" could be`},
		{"F Bla - Sip", "F Bla - Sip", ""},
		{"F Bla - Sinope", "F Bla - Sip", ""},
		{"A Gal - Sinai", "A Gal - Sii", "cannot reach"},
		{"A Gal - Sii", "A Gal - Sii", "cannot reach"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			ck, err := e.Check(state, "persia", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(ck.Canonical, "\n")
			if got != tc.canonical {
				t.Errorf("%q stored as %q, want %q", tc.text, got, tc.canonical)
			}
			var diags []string
			for _, l := range ck.Lines {
				for _, d := range l.Diags {
					diags = append(diags, d.Message)
				}
			}
			all := strings.Join(diags, "\n")
			if tc.diag == "" && all != "" {
				t.Errorf("%q: unexpected diagnostics %q", tc.text, all)
			}
			if tc.diag != "" && !strings.Contains(all, tc.diag) {
				t.Errorf("%q: diagnostics %q lack %q", tc.text, all, tc.diag)
			}
			if strings.HasPrefix(tc.diag, `"Sin"`) && (!strings.Contains(all, "Sinai") || !strings.Contains(all, "Sinope")) {
				t.Errorf("%q: the ambiguity should name both Sinai and Sinope: %q", tc.text, all)
			}
		})
	}
}
