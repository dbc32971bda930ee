package orders_test

import (
	"strings"
	"testing"

	"pbemd/adjudicator/diplomacy"
	"pbemd/orders"
)

// places reads "[A|F] <place> (- <place>)*", enough of an order
// language to drive the name matcher (exact names, prefixes, typos, hints)
// the way a game's grammar does. Its value is the list of place ids.
type places struct{ set *orders.Names }

func (g places) ParseOrder(sc *orders.Scanner) any {
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

// placeGrammar is the places grammar over the names of a shipped map, the
// very indexes the daemon reads a player's mail with (Map.Lexicon), never a
// hand-made copy of them.
func placeGrammar(tb testing.TB, variant string) (orders.Grammar, *orders.Names) {
	tb.Helper()
	m, ok := diplomacy.MapByName(variant)
	if !ok {
		tb.Fatalf("no shipped map %q", variant)
	}
	lex := m.Lexicon()
	if lex.ProvinceNames() == nil || lex.PowerNames() == nil {
		tb.Fatalf("the %s map's lexicon is not prepared", variant)
	}
	return places{lex.ProvinceNames()}, lex.PowerNames()
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
		"garbage":         orders.Garbage,
		"unended presses": func(n int) string { return strings.Repeat("PRESS TO France\nhi\n", n) },
		"one-line psas":   func(n int) string { return strings.Repeat("PSA the end is near\nA Par - Bur\n", n) },
		"prose presses":   func(n int) string { return strings.Repeat("Press on!\nA Par - Bur\n", n) },
		"rules requests":  func(n int) string { return strings.Repeat("RULES\nA Par - Bur\n", n) },
		"quote headers":   func(n int) string { return strings.Repeat("On Monday Ann wrote:\n\n\n", n) },
		"typos":           func(n int) string { return strings.Repeat("A Burgandyy - Picardyy - Gasconyy - Norht Sea\n", n) },
	}
	for name, gen := range bodies {
		t.Run(name, func(t *testing.T) {
			opts := orders.Options{Grammar: gr, Powers: pow}
			small := orders.ParseWork(gen(200), opts)
			large := orders.ParseWork(gen(1600), opts)
			if small == 0 {
				t.Fatal("no work counted")
			}
			if ratio := float64(large) / float64(small); ratio > 8*1.25 {
				t.Errorf("work %d for 200 units, %d for 1600: ratio %.1f, want about 8", small, large, ratio)
			}
		})
	}
}
