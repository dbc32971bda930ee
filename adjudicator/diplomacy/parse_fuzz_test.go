package diplomacy

import (
	"path/filepath"
	"strings"
	"testing"

	"pbemd/orders"
)

// FuzzParse feeds Parse any body, seeded with every line of the line files
// and every sample mail. Parse must not panic, must return one Line per line
// of the body, and every order it reads must survive parse ⇒ format ⇒
// parse unchanged. The line-length cap and the hint budget keep any input
// cheap (see orders.TestParseWorkIsLinear).
func FuzzParse(f *testing.F) {
	for _, c := range allLineCases(f) {
		f.Add(c.in)
	}
	mails, _ := filepath.Glob(filepath.Join(testdataDir, "mails", "*.txt"))
	for _, m := range mails {
		_, body := readMail(f, m)
		f.Add(body)
	}
	std, anc := loadLexicon(f, "standard"), loadLexicon(f, "ancientmed")
	f.Fuzz(func(t *testing.T, body string) {
		for _, opts := range []ParseOptions{
			{Lexicon: std},
			{Lexicon: anc},
			{Lexicon: std, Strict: true},
			{Lexicon: std, Phase: RetreatPhase},
			{},
		} {
			r := Parse(body, opts)
			if want := len(splitLines(body)); len(r.Lines) != want {
				t.Fatalf("Parse returned %d lines for a body of %d", len(r.Lines), want)
			}
			for _, l := range r.Lines {
				if l.Kind == orders.OrderLine && lineOrder(l) == nil {
					t.Fatalf("line %d is an order line without an order", l.No)
				}
				if l.Kind == orders.ErrorLine && !hasError(l.Diags) {
					t.Fatalf("line %d is an error without a diagnostic", l.No)
				}
				if o := lineOrder(l); o != nil {
					checkRoundTrip(t, *o, opts)
				}
			}
		}
	})
}

// garbage is a deterministic body of n lines of noise built to be costly:
// near-miss names (typo matching on every word), order words and
// punctuation in odd places, quotes, and now and then an over-long line. It
// holds no block command, so no line is swallowed by a block.
func garbage(n int) string {
	words := []string{
		"Burgandyy", "Mid-Atlantc", "Oceen", "Norht", "Sea", "Gulf", "of", "Pelusim", "Syrtix",
		"Tacapo", "zzzz", "qqqq", "A", "F", "S", "C", "-", "->", "=>", "(nc", "/sc", "\"",
		"via", "convoy", "Pari", "Bur", "Nor", "Sar", "Tyr", "xyzzy", "plugh", "Holand",
		"St", "Petersburgg", "east", "coast", "hold", "Constantinopel", "1.", "*", "#", "ok",
	}
	var b strings.Builder
	x := uint32(12345)
	next := func() int {
		x = x*1664525 + 1013904223
		return int(x >> 8)
	}
	for i := 0; i < n; i++ {
		if i%97 == 96 {
			b.WriteString(strings.Repeat("Burgandy ", 150)) // over the line-length cap
		}
		for k := 3 + next()%9; k > 0; k-- {
			b.WriteString(words[next()%len(words)])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// BenchmarkParseMail parses a 40-line order mail against a prepared
// standard-map lexicon (target: ≤ 50 µs).
func BenchmarkParseMail(b *testing.B) {
	opts, body := readMail(b, filepath.Join(testdataDir, "mails", "bench-40.txt"))
	if n := len(splitLines(strings.TrimSuffix(body, "\n"))); n != 40 {
		b.Fatalf("bench mail has %d lines, want 40", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		Parse(body, opts)
	}
}

// BenchmarkParseGarbage1MB parses a megabyte of garbage.
func BenchmarkParseGarbage1MB(b *testing.B) {
	lex := loadLexicon(b, "standard")
	body := garbage(2000)
	for len(body) < 1<<20 {
		body += garbage(500)
	}
	body = body[:1<<20]
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Parse(body, ParseOptions{Lexicon: lex})
	}
}

// BenchmarkParseOrder parses one long-form order line.
func BenchmarkParseOrder(b *testing.B) {
	opts := ParseOptions{Lexicon: loadLexicon(b, "standard")}
	for b.Loop() {
		if _, _, err := ParseOrder(`Fleet "English Channel" support Army "Picardy" move "Belgium"`, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseMailAllocations guards the benchmark mail's allocation count (56
// when written): a parse that starts allocating per word or per line shows
// here before it shows in BenchmarkParseMail.
func TestParseMailAllocations(t *testing.T) {
	opts, body := readMail(t, filepath.Join(testdataDir, "mails", "bench-40.txt"))
	allocs := testing.AllocsPerRun(50, func() { Parse(body, opts) })
	if allocs > 80 {
		t.Errorf("Parse of the 40-line mail allocates %.0f times, want at most 80", allocs)
	}
}
