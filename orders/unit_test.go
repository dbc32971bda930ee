package orders

import (
	"fmt"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"A Par-Bur", "a par - bur"},
		{"A Par->Bur", "a par -> bur"},
		{"A Par => Bur", "a par -> bur"},
		{"A Par --> Bur", "a par -> bur"},
		{"A Par > Bur", "a par -> bur"},
		{"A Par → Bur", "a par -> bur"},
		{"A Par – Bur — Gas", "a par - bur - gas"},
		{`Army "Rome" move “Neapolis”`, `army " rome " move " neapolis "`},
		{"Army 'Rome' move 'Neapolis'", "army rome move neapolis"},
		{"St. Petersburg (n.c.)", "st petersburg ( nc )"},
		{"Spa[nc]", "spa ( nc )"},
		{"Bul/EC", "bul / ec"},
		{"Sinaï", "sinai"},
		{"ÉGYPTE", "egypte"},
		{"Rome's", "romes"},
		{"1. A Par H.", "1 a par h"},
		{"A Par H ...", "a par h"},
		{"• A Par H", "* a par h"},
		{"  \t ", ""},
		{"A\u00a0Par", "a par"},
		{"x\xffy", "x y"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			var got []string
			for _, tk := range tokenize(c.in, nil, nil) {
				got = append(got, tk.Norm)
				if tk.Text == "" || !strings.Contains(c.in[tk.Pos:], tk.Text) {
					t.Errorf("token %+v: Text/Pos do not point into the line", tk)
				}
			}
			if s := strings.Join(got, " "); s != c.want {
				t.Errorf("tokenize(%q) = %q, want %q", c.in, s, c.want)
			}
		})
	}
}

func TestOSADistance(t *testing.T) {
	cases := []struct {
		a, b string
		max  int
		want int
	}{
		{"burgundy", "burgundy", 2, 0},
		{"burgandy", "burgundy", 2, 1},
		{"rhur", "ruhr", 1, 1}, // transposition
		{"sielsia", "silesia", 2, 1},
		{"burgonyy", "burgundy", 2, 2},
		{"burgonyy", "burgundy", 1, 2}, // max+1: over the bound
		{"abc", "xyz", 1, 2},
		{"", "abc", 5, 3},
		{"abc", "", 5, 3},
	}
	for _, c := range cases {
		if got := osaDistance(c.a, c.b, c.max); got != c.want {
			t.Errorf("osaDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
}

func TestNewNamesRejectsClashes(t *testing.T) {
	cases := []struct {
		name  string
		provs []Name
		want  string
	}{
		{"duplicate id", []Name{{ID: "par", Full: "Paris"}, {ID: "PAR", Full: "Paris 2"}}, `id "par" appears twice`},
		{"empty id", []Name{{Full: "Paris"}}, "has no id"},
		{"shared spelling", []Name{{ID: "par", Full: "Paris"}, {ID: "pas", Full: "Pas", Aliases: []string{"Paris"}}}, `"Paris" names both province "par" and "pas"`},
		{"abbreviation clash", []Name{{ID: "lvp", Full: "Liverpool", Abbrev: "Liv"}, {ID: "lvn", Full: "Livonia", Abbrev: "Liv"}}, `"Liv" names both`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewNames("province", c.provs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewNames: %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\r\nb\r\n": 2, "a\rb": 2, "a\n\nb": 3} {
		if got := len(splitLines(in)); got != want {
			t.Errorf("splitLines(%q) has %d lines, want %d", in, got, want)
		}
	}
}

// The Scanner's helpers for grammars: NameSpan (a power before an order),
// NameAhead, Hint with its budget, DropErrors, and Heading.
func TestScannerHelpers(t *testing.T) {
	pow, err := NewNames("power", []Name{{ID: "england", Full: "England"}, {ID: "france", Full: "France"}})
	if err != nil {
		t.Fatal(err)
	}
	prov, err := NewNames("province", []Name{{ID: "par", Abbrev: "Par", Full: "Paris"}, {ID: "bur", Abbrev: "Bur", Full: "Burgundy"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line   string
		strict bool
		want   string
	}{{"England: A Par", true, "england"}, {"Eng: A Par", false, "england"}, {"Eng: A Par", true, ""}, {"Fr England: A", false, ""}} {
		sc := NewScanner(c.line, c.strict)
		colon := 0
		for i, tk := range sc.Tokens() {
			if tk.Norm == ":" {
				colon = i
				break
			}
		}
		n, ok := sc.NameSpan(pow, colon)
		if got := n.ID; got != c.want || ok != (c.want != "") || sc.Pos() != 0 {
			t.Errorf("NameSpan(%q, strict %v) = %q %v, at %d; want %q", c.line, c.strict, got, ok, sc.Pos(), c.want)
		}
	}
	sc := NewScanner("A Paris - Burgandyy", false)
	if sc.NameAhead(prov, 0) || !sc.NameAhead(prov, 1) || sc.NameAhead(prov, 3) || sc.NameAhead(nil, 1) {
		t.Error("NameAhead: wrong answer for A, Paris, Burgandyy or a nil set")
	}
	if got := sc.Hint(prov, "Burgandyy"); got != "did you mean Burgundy (Bur)?" {
		t.Errorf("Hint = %q", got)
	}
	for i := 0; i < maxHints; i++ {
		sc.Hint(prov, "Burgandyy")
	}
	if got := sc.Hint(prov, "Burgandyy"); got != "" {
		t.Errorf("Hint past the budget = %q, want none", got)
	}
	sc.Warn("look again", "")
	sc.Fail("wrong", "")
	sc.DropErrors()
	if d := sc.Diagnostics(); len(d) != 1 || d[0].Severity != Warning || !sc.Failed() {
		t.Errorf("after DropErrors: %+v, failed %v; want the warning only, still failed", d, sc.Failed())
	}
	r := Parse("A Par\nFrance:\nA Bur\nA Par", Options{Grammar: headingGrammar{}, Powers: pow})
	var got []any
	for _, l := range r.Lines {
		got = append(got, l.Value)
	}
	if fmt.Sprint(got) != "[ <nil> france france]" {
		t.Errorf("headings seen by the grammar: %q", got)
	}
}

// headingGrammar reads any line as the heading above it.
type headingGrammar struct{}

func (headingGrammar) ParseOrder(sc *Scanner) any {
	for !sc.Done() {
		sc.Next()
	}
	return sc.Heading()
}
