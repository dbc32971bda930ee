package diplomacy

import "testing"

// TestResultsPointAtTheirOrders: in every kind of phase each result's
// Order is the order given (Adjudicate's doc says so), legal or not.
func TestResultsPointAtTheirOrders(t *testing.T) {
	for _, c := range loadCorpus(t)[:40] {
		ords := append(c.ords, PowerOrder{Power: "england", Order: Order{Kind: Hold, Unit: Army, Loc: Location{Province: "nowhere"}}})
		res, err := Adjudicate(c.pos, ords)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Orders) != len(ords) {
			t.Fatalf("%s: %d results for %d orders", c.pos.Phase.ID(), len(res.Orders), len(ords))
		}
		for k := range ords {
			if res.Orders[k].Order != &ords[k].Order {
				t.Fatalf("%s: result %d (%s) does not point at its order", c.pos.Phase.ID(), k, res.Orders[k].Text)
			}
		}
	}
}
