package diplomacy

import (
	"strings"
	"sync"
	"testing"

	"pbemd/orders"
)

// A generated short form that two names share is not a name at all: it is
// reported as ambiguous, never read as either.
func TestShortFormClash(t *testing.T) {
	lex, err := NewLexicon([]orders.Name{
		{ID: "ios", Full: "Ionian Sea"}, {ID: "ioo", Full: "Ionian Ocean"}, {ID: "par", Full: "Paris"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, diags, err := ParseOrder("F Ionian - Par", ParseOptions{Lexicon: lex})
	if err == nil || !strings.Contains(firstError(diags).Message, `"Ionian" could be Ionian Sea (ios) or Ionian Ocean (ioo)`) {
		t.Errorf("got %v %+v, want the short form reported as ambiguous", err, diags)
	}
}

// An unprepared lexicon is indexed on first use; parsing with it from many
// goroutines at once is safe (run with -race).
func TestUnpreparedLexiconConcurrent(t *testing.T) {
	prepared := loadLexicon(t, "standard")
	lex := &Lexicon{Provinces: prepared.Provinces, Powers: prepared.Powers}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				o, _, err := ParseOrder("F Bre - Mid-Atlantic Ocean", ParseOptions{Lexicon: lex})
				if err != nil || Format(o, lex) != "F Bre - Mao" {
					errs <- Format(o, lex)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent parse gave %q", e)
	}
	if lex.ProvinceNames() != nil {
		t.Error("parsing wrote the index into a lexicon nobody prepared")
	}
}

func TestResultHelpers(t *testing.T) {
	lex := loadLexicon(t, "standard")
	r := Parse("A Par - Bur\nA Par - Burgandy\nxyzzy\nREADY\nHi", ParseOptions{Lexicon: lex})
	if got := len(Orders(r)); got != 2 {
		t.Errorf("Orders(r) has %d, want 2", got)
	}
	if got := len(r.Commands()); got != 1 {
		t.Errorf("Commands() has %d, want 1", got)
	}
	if got := len(r.Problems()); got != 2 {
		t.Errorf("Problems() has %d, want 2 (a warning and an error)", got)
	}
	if got := r.Errors(); len(got) != 1 || got[0].No != 3 {
		t.Errorf("Errors() = %+v, want line 3", got)
	}
	if r.OK() {
		t.Error("OK() with an error line")
	}
	if !Parse("A Par - Bur\n", ParseOptions{Lexicon: lex}).OK() {
		t.Error("not OK() without problems")
	}
}

func TestParseOrderErrors(t *testing.T) {
	if _, _, err := ParseOrder("A Par - Bur", ParseOptions{}); err == nil {
		t.Error("ParseOrder without a lexicon: no error")
	}
	_, diags, err := ParseOrder("A Par - Xyz", ParseOptions{Lexicon: loadLexicon(t, "standard")})
	if err == nil || !strings.Contains(err.Error(), `"Xyz" is not a province I know`) || len(diags) != 1 {
		t.Errorf("ParseOrder: %v %+v", err, diags)
	}
}

func TestFormatWithoutLexicon(t *testing.T) {
	o := Order{Kind: Move, Unit: Fleet, Loc: Location{Province: "mao"}, Target: Location{Province: "spa", Coast: "nc"}}
	if got := Format(o, nil); got != "F mao - spa/nc" {
		t.Errorf("Format = %q", got)
	}
}

// upper prints every province id in capitals.
type upper struct{}

func (upper) Abbrev(id string) (string, bool) { return strings.ToUpper(id), true }

// AppendFormat writes after what the buffer holds exactly what Format
// returns, for every kind of order.
func TestAppendFormat(t *testing.T) {
	lex := loadLexicon(t, "standard")
	for _, line := range []string{"A Par H", "F Lon - Nth", "A Lon - Nth - Nwy", "A Lon - Bel via convoy", "F Mao - Spa/nc",
		"A Mun S A Par", "A Mun S A Par - Bur", "F Nth C A Lon - Bel", "A Par R Bur", "A Par D", "Build F StP/nc", "Waive"} {
		o, _, err := ParseOrder(line, ParseOptions{Lexicon: lex})
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		for _, l := range []*Lexicon{lex, nil} {
			want := Format(o, l)
			if got := string(AppendFormat([]byte("x; "), o, l)); got != "x; "+want {
				t.Errorf("AppendFormat(%q) = %q, want %q", line, got, "x; "+want)
			}
		}
		if got := string(AppendFormatAbbrev(nil, o, lex.ProvinceNames())); got != line {
			t.Errorf("AppendFormatAbbrev(%q) with the lexicon's names = %q", line, got)
		}
		if got, want := string(AppendFormatAbbrev(nil, o, nil)), Format(o, nil); got != want {
			t.Errorf("AppendFormatAbbrev(%q) without names = %q, want %q", line, got, want)
		}
		if got, want := string(AppendFormatAbbrev(nil, o, upper{})), strings.ToUpper(Format(o, nil)); !strings.EqualFold(got, want) || strings.Contains(got, "lon") {
			t.Errorf("AppendFormatAbbrev(%q) with other names = %q", line, got)
		}
		if got := Format(o, lex); got != line {
			t.Errorf("Format(%q) = %q", line, got)
		}
	}
}

// A short alias followed by the rest of a misspelt longer name, joined by a
// tight hyphen, is the longer name ("Mid-Atlantc Ocean" where "Mid" is an
// alias of Mid-Atlantic Ocean); a tight hyphen between two names is a move.
func TestLongerNameAcrossHyphen(t *testing.T) {
	lex, err := NewLexicon([]orders.Name{
		{ID: "mao", Abbrev: "Mao", Full: "Mid-Atlantic Ocean", Aliases: []string{"Mid"}},
		{ID: "bre", Abbrev: "Bre", Full: "Brest"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"F Bre - Mid-Atlantc Ocean": "F Bre - Mao",
		"F Mid-Bre":                 "F Mao - Bre",
		"F Bre-Mid":                 "F Bre - Mao",
	} {
		o, _, err := ParseOrder(in, ParseOptions{Lexicon: lex})
		if err != nil || Format(o, lex) != want {
			t.Errorf("ParseOrder(%q) = %q, %v; want %q", in, Format(o, lex), err, want)
		}
	}
}

// Issue 16 item 8: a name signed at the end of a mail, after a blank line
// and with no closing formula, is a sign-off, not a misorder; a province
// there, or a name with no blank line before it, is still read (and
// refused) as an order.
func TestSignedNameAtTheEndIsASignOff(t *testing.T) {
	m, _ := MapByName("standard")
	opts := ParseOptions{Lexicon: m.Lexicon(), Phase: MovementPhase}
	cases := []struct {
		body   string
		errors int
	}{
		{"A Bud - Ser\nF Tri - Alb\n\nAmélie", 0},
		{"A Bud - Ser\n\nAmélie\n\n", 0},
		{"A Bud - Ser\n\nJean Dupont", 0},
		{"A Bud - Ser\nAmélie", 1},
		{"A Bud - Ser\n\nBurgundy", 1},
		{"A Bud - Ser\n\nAmélie\nF Tri - Alb", 1},
		{"A Bud - Ser\n\namélie", 1},
		{"Amélie", 1},
	}
	for _, c := range cases {
		r := Parse(c.body, opts)
		n := 0
		for _, l := range r.Lines {
			if l.Kind == orders.ErrorLine {
				n++
			}
		}
		if n != c.errors {
			t.Errorf("%q: %d error lines, want %d: %+v", c.body, n, c.errors, r.Lines)
		}
	}
}
