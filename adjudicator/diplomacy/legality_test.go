package diplomacy

import "testing"

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
