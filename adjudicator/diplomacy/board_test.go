package diplomacy

import (
	"fmt"
	"testing"

	"pbemd/orders"
)

// A position may carry its own retreat options (pbemd adjudicate reads
// them as given). A retreat to a given option is carried out even where a
// unit stands; the resolver keeps both units, in province order as
// SortUnits leaves them, rather than losing one.
func TestRetreatToGivenOptionKeepsEveryUnit(t *testing.T) {
	m, _ := MapByName("standard")
	pos := &Position{Map: m, Phase: Phase{Fall, 1901, Retreats}, Owners: map[string]string{},
		Units: []Unit{
			{Power: "england", Type: orders.Army, Loc: orders.Location{Province: "lon"}},
			{Power: "germany", Type: orders.Army, Loc: orders.Location{Province: "yor"}},
		},
		Dislodged: []Dislodged{{Unit: Unit{Power: "france", Type: orders.Army, Loc: orders.Location{Province: "wal"}}, Options: []string{"lon"}}},
	}
	ords := []PowerOrder{{Power: "france", Order: orders.Order{Kind: orders.Retreat, Unit: orders.Army, Loc: orders.Location{Province: "wal"}, Target: orders.Location{Province: "lon"}}}}
	res, err := Adjudicate(pos, ords)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(res.Next.Units), "[{england 1 {lon }} {france 1 {lon }} {germany 1 {yor }}]"; got != want {
		t.Errorf("units after the retreat: %s, want %s", got, want)
	}
}
