package diplomacy

import (
	"fmt"
	"testing"
)

// sameLegality fails t unless movementLegality says of every order what
// Adjudicate's result res says of its legality: Illegal with its reason,
// or not illegal.
func sameLegality(t *testing.T, what string, pos *Position, ords []PowerOrder, res *Result) {
	t.Helper()
	why, err := movementLegality(pos, ords)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for k, or := range res.Orders {
		want := ""
		if or.Outcome == Illegal {
			want = or.Reason
		}
		if why[k] != want {
			t.Errorf("%s: order %d (%s): legality %q, Adjudicate %q (%s)", what, k, or.Text, why[k], want, or.Outcome)
		}
	}
}

// TestMovementLegality: Check's shortcut (movementLegality) finds the
// orders Adjudicate finds illegal, for the same reasons, in every movement
// phase of the corpus, with all the orders and with each power's alone,
// and with each power's orders twice, the second time changed (a unit
// given differing orders) or not (an identical repeat). The DATC cases
// compare it too (runCase).
func TestMovementLegality(t *testing.T) {
	illegal := 0
	for _, c := range loadCorpus(t) {
		if c.pos.Phase.Type != Movement {
			continue
		}
		sets := [][]PowerOrder{c.ords}
		byPower := map[string][]PowerOrder{}
		for _, o := range c.ords {
			byPower[o.Power] = append(byPower[o.Power], o)
		}
		for _, ords := range byPower {
			sets = append(sets, ords)
			twice := append(append([]PowerOrder(nil), ords...), ords...)
			sets = append(sets, twice)
			changed := append([]PowerOrder(nil), twice...)
			changed[len(ords)].Order.Kind = Hold
			changed[len(ords)].Order.Target = Location{}
			sets = append(sets, changed)
		}
		for _, ords := range sets {
			res, err := Adjudicate(c.pos, ords)
			if err != nil {
				t.Fatal(err)
			}
			for _, or := range res.Orders {
				if or.Outcome == Illegal {
					illegal++
				}
			}
			sameLegality(t, c.pos.Phase.ID(), c.pos, ords, res)
		}
	}
	if illegal == 0 {
		t.Error("no illegal order compared")
	}
}

// TestMergeUnitsAsTheGrammarReads: the unit Merge finds for a line (from
// mergeUnits, read once and kept) is the province ParseOrder reads for it
// on that map, asked once or twice, for the corpus's orders on the
// standard map and the same lines on every other map, and for lines
// that cannot be read; the cache stays within its bound.
func TestMergeUnitsAsTheGrammarReads(t *testing.T) {
	var lines []string
	for _, c := range loadCorpus(t) {
		for _, o := range c.ords {
			lines = append(lines, c.pos.Map.FormatOrder(o.Order))
		}
	}
	lines = append(lines, "not an order", "A Xyz - Abc", "")
	checked := 0
	for _, name := range MapNames() {
		m, _ := MapByName(name)
		for _, l := range lines[:min(len(lines), 400)] {
			want := "\x00" + l
			if o, _, err := ParseOrder(l, ParseOptions{Lexicon: m.lex, Strict: true}); err == nil {
				want = o.Loc.Province
			}
			for range 2 {
				if got := mergeUnits.of(m, l); got != want {
					t.Fatalf("%s: %q: %q, the grammar reads %q", name, l, got, want)
				}
			}
			checked++
		}
	}
	m, _ := MapByName("standard")
	for i := range lineUnitsSize + 10 {
		mergeUnits.of(m, fmt.Sprintf("A Par - Bur %d", i))
	}
	mergeUnits.mu.Lock()
	n := len(mergeUnits.m)
	mergeUnits.mu.Unlock()
	if n > lineUnitsSize {
		t.Errorf("%d lines kept, bound %d", n, lineUnitsSize)
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
