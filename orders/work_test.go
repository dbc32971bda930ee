package orders

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// places reads "[A|F] <place> (- <place>)*", enough of an order
// language to drive the name matcher (exact names, prefixes, typos, hints)
// the way a game's grammar does. Its value is the list of place ids.
type places struct{ set *Names }

func (g places) ParseOrder(sc *Scanner) any {
	sc.SetStop(func(norm string) bool { return norm == "a" || norm == "f" })
	sc.Accept("a", "f")
	var ids []string
	for {
		m, err := sc.Name(g.set)
		if err != nil {
			sc.Fail(err.Error(), sc.Hint(g.set, sc.Peek().Text))
			return nil
		}
		ids = append(ids, m.ID)
		if !sc.Accept("-", "->") {
			break
		}
	}
	if !sc.Done() {
		sc.Fail("not understood", "")
		return nil
	}
	return ids
}

// placeGrammar reads testdata/orders/<name>.lex (provinces and powers).
func placeGrammar(tb testing.TB, name string) (Grammar, *Names) {
	tb.Helper()
	f, err := os.Open("../testdata/orders/" + name + ".lex")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	lists := map[string][]Name{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, rest, _ := strings.Cut(line, " ")
		fields := append(strings.Split(rest, "|"), "", "", "", "")
		n := Name{ID: strings.TrimSpace(fields[0]), Abbrev: strings.TrimSpace(fields[1]), Full: strings.TrimSpace(fields[2])}
		for _, a := range strings.Split(fields[3], ",") {
			if a = strings.TrimSpace(a); a != "" {
				n.Aliases = append(n.Aliases, a)
			}
		}
		lists[kind] = append(lists[kind], n)
	}
	prov, err := NewNames("province", lists["province"])
	if err != nil {
		tb.Fatal(err)
	}
	pow, err := NewNames("power", lists["power"])
	if err != nil {
		tb.Fatal(err)
	}
	return places{prov}, pow
}

// TestParseWorkIsLinear checks that the parser's work grows linearly with
// the input, read with a grammar of unit moves over the standard map's
// names (Diplomacy's own grammar is in adjudicator/diplomacy; its
// benchmarks parse the same garbage): eight times the garbage costs at most about eight times the
// steps (tokens, look-ahead lines, name comparisons). This is what keeps a
// 1 MB body of garbage prompt, without timing anything.
func TestParseWorkIsLinear(t *testing.T) {
	gr, pow := placeGrammar(t, "standard")
	bodies := map[string]func(n int) string{
		"garbage":         garbage,
		"unended presses": func(n int) string { return strings.Repeat("PRESS TO France\nhi\n", n) },
		"one-line psas":   func(n int) string { return strings.Repeat("PSA the end is near\nA Par - Bur\n", n) },
		"prose presses":   func(n int) string { return strings.Repeat("Press on!\nA Par - Bur\n", n) },
		"rules requests":  func(n int) string { return strings.Repeat("RULES\nA Par - Bur\n", n) },
		"quote headers":   func(n int) string { return strings.Repeat("On Monday Ann wrote:\n\n\n", n) },
		"typos":           func(n int) string { return strings.Repeat("A Burgandyy - Picardyy - Gasconyy - Norht Sea\n", n) },
	}
	for name, gen := range bodies {
		t.Run(name, func(t *testing.T) {
			small := parseWork(gen(200), Options{Grammar: gr, Powers: pow})
			large := parseWork(gen(1600), Options{Grammar: gr, Powers: pow})
			if small == 0 {
				t.Fatal("no work counted")
			}
			if ratio := float64(large) / float64(small); ratio > 8*1.25 {
				t.Errorf("work %d for 200 units, %d for 1600: ratio %.1f, want about 8", small, large, ratio)
			}
		})
	}
}

func parseWork(body string, opts Options) int {
	p := newParser(opts)
	lines := splitLines(body)
	res := &Result{Lines: make([]Line, len(lines))}
	m := mailState{p: p, lines: lines, out: res.Lines}
	m.run()
	return p.sc.work
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
