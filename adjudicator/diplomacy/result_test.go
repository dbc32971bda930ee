package diplomacy

import (
	"encoding/json"
	"strings"
	"testing"
)

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

// TestOutcomeJSON: an outcome, one byte, is written in JSON as its word
// and read back from it; a word that is no outcome reads as none.
func TestOutcomeJSON(t *testing.T) {
	for _, o := range []Outcome{Succeeded, Failed, Invalid, Illegal} {
		b, err := json.Marshal(OrderResult{Power: "france", Text: "A Par H", Outcome: o})
		if err != nil {
			t.Fatal(err)
		}
		if want := `"outcome":"` + o.String() + `"`; !strings.Contains(string(b), want) {
			t.Errorf("%s: %s, want %s in it", o, b, want)
		}
		var back OrderResult
		if err := json.Unmarshal(b, &back); err != nil || back.Outcome != o {
			t.Errorf("%s read back as %v (%v)", b, back.Outcome, err)
		}
	}
	var r OrderResult
	if err := json.Unmarshal([]byte(`{"outcome":"bounced"}`), &r); err != nil || r.Outcome != 0 {
		t.Errorf("an unknown word reads as %v (%v)", r.Outcome, err)
	}
	if s := []string{Succeeded.String(), Failed.String(), Invalid.String(), Illegal.String()}; strings.Join(s, " ") != "succeeded failed invalid illegal" {
		t.Errorf("words %q", s)
	}
}
