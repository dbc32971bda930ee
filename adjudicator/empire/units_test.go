package empire

import (
	"strings"
	"testing"
)

// TestUnitTypesFollowSeed checks every property the seed ("Unit Types")
// gives for every unit type against data/units.json.
func TestUnitTypesFollowSeed(t *testing.T) {
	sc, err := DefaultScenario()
	if err != nil {
		t.Fatal(err)
	}
	// id: class, echelon, speed, weak, tactical produces/unsupplied,
	// strategic produces/unsupplied, controls, produces units, transforms.
	type row struct {
		id, class, echelon string
		speed              float64
		weak               bool
		tp, tu, sp, su     string
		controls, factory  bool
		transforms         string
	}
	seed := []row{
		{"factory", "stationary", "", 0, false, "full", "", "full", "", true, true, ""},
		{"army_base", "stationary", "", 0, false, "full", "", "full", "", true, false, ""},
		{"field_base", "stationary", "", 0, false, "full", "", "local", "", true, false, ""},
		{"army_group_hq", "hq", "army group", 0.5, false, "full", "", "full", "", true, false, "factory"},
		{"army_hq", "hq", "army", 0.5, false, "full", "", "local", "", true, false, "army_base"},
		{"corps_hq", "hq", "corps", 0.5, false, "full", "", "", "disable", true, false, "field_base"},
		{"division_hq", "hq", "division", 0.5, false, "full", "", "", "perish", true, false, ""},
		{"transport_division", "transport", "division", 0.5, true, "", "perish", "", "perish", false, false, ""},
		{"expeditionary_armored_corps", "armor", "corps", 1, false, "", "", "", "disable", false, false, ""},
		{"expeditionary_armored_division", "armor", "division", 1, false, "", "", "", "perish", false, false, ""},
		{"expeditionary_infantry_corps", "infantry", "corps", 0.5, false, "", "", "", "disable", true, false, ""},
		{"expeditionary_infantry_division", "infantry", "division", 0.5, false, "", "", "", "perish", true, false, ""},
		{"regular_armored_corps", "armor", "corps", 1, false, "", "disable", "", "perish", false, false, ""},
		{"regular_armored_division", "armor", "division", 1, false, "", "perish", "", "perish", false, false, ""},
		{"regular_infantry_corps", "infantry", "corps", 0.5, false, "", "disable", "", "perish", true, false, ""},
		{"regular_infantry_division", "infantry", "division", 0.5, false, "", "perish", "", "perish", true, false, ""},
	}
	if len(sc.Units.Types) != len(seed) {
		t.Errorf("%d unit types, the seed has %d", len(sc.Units.Types), len(seed))
	}
	for _, r := range seed {
		t.Run(r.id, func(t *testing.T) {
			u, ok := sc.Units.Type(r.id)
			if !ok {
				t.Fatal("missing")
			}
			got := row{u.ID, u.Class, u.Echelon, u.Speed, u.Weak, u.Tactical.Produces, u.Tactical.Unsupplied,
				u.Strategic.Produces, u.Strategic.Unsupplied, u.Controls, u.ProducesUnits, u.TransformsTo}
			if got != r {
				t.Errorf("data %+v\nseed %+v", got, r)
			}
			if u.Mobile() && u.Cost <= 0 || !u.Mobile() && u.Cost != 0 {
				t.Errorf("cost %d", u.Cost)
			}
			// A unit on the move covers its size (one hex) plus its speed.
			if cover := 1 + u.Speed; u.Mobile() && cover != 2 && cover != 1.5 {
				t.Errorf("covers %v hexes on the move", cover)
			}
		})
	}
	// Weak units: transports only (disabled units become weak in play).
	for _, u := range sc.Units.Types {
		if u.Weak != (u.Class == "transport") {
			t.Errorf("%s weak=%v", u.ID, u.Weak)
		}
	}
}

func TestReducedSet(t *testing.T) {
	sc, _ := DefaultScenario()
	var ids []string
	for _, u := range sc.Units.Set("reduced") {
		ids = append(ids, u.ID)
	}
	want := "factory army_base army_group_hq army_hq transport_division expeditionary_armored_corps regular_armored_division regular_infantry_division"
	if strings.Join(ids, " ") != want {
		t.Errorf("reduced set %v", ids)
	}
	if len(sc.Units.Set("all")) != 16 {
		t.Errorf("all: %d types", len(sc.Units.Set("all")))
	}
	// A game with the reduced set buys only those types.
	e, _ := NewEngine("empire2")
	st, err := e.New(map[string]string{"units": "reduced"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := e.decode(st)
	g.Step, g.Turns = stepBuild, 2
	if g.buyable("RIC") != nil || g.buyable("RID") == nil || g.buyable("FAC") != nil {
		t.Error("reduced set: RIC buyable or RID not, or a factory bought")
	}
	_, vs := g.collect("red", []Order{{Kind: OrderBuy, Type: "CHQ", N: 1, Pos: Pos{g.World.Homes[0].Hex, -1}}})
	if vs[0].err == nil {
		t.Error("a corps HQ bought with the reduced set")
	}
}
