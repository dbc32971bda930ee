package diplomacy

import (
	"strings"
	"testing"
)

// TestRuleVariantStarts: each rule variant's powers, start units, centres
// and victory count, as its published rules give them.
func TestRuleVariantStarts(t *testing.T) {
	std, _ := MapByName("standard")
	units := func(pos *Position) string {
		var out []string
		for _, u := range pos.Units {
			out = append(out, u.Power+" "+pos.Map.UnitName(u))
		}
		return strings.Join(out, ", ")
	}
	for _, tc := range []struct {
		name, powers, units string
		owned, victory      int
		phase               string
	}{
		{"buildanywhere", "austria england france germany italy russia turkey", units(std.NewPosition()), 22, 18, "S1901M"},
		{"fog", "austria england france germany italy russia turkey", units(std.NewPosition()), 22, 18, "S1901M"},
		{"fva", "austria france", "france F Bre, austria A Bud, france A Mar, france A Par, austria F Tri, austria A Vie", 6, 18, "S1901M"},
		{"gvi", "germany italy", "germany A Ber, germany F Kie, germany A Mun, italy F Nap, italy A Rom, italy A Ven", 6, 18, "S1901M"},
		{"evt", "england turkey", "turkey F Ank, turkey A Con, england F Eng, england A Lon, england F Nth, turkey A Smy", 6, 18, "S1901M"},
		{"fleetrome", "austria england france germany italy russia turkey", strings.Replace(units(std.NewPosition()), "italy A Rom", "italy F Rom", 1), 22, 18, "S1901M"},
		{"chaos", "", "", 34, 18, "W1900A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := MapByName(tc.name)
			if !ok {
				t.Fatalf("no variant %s", tc.name)
			}
			pos := m.NewPosition()
			var powers []string
			for _, p := range m.Powers {
				powers = append(powers, p.ID)
			}
			if tc.powers != "" && strings.Join(powers, " ") != tc.powers {
				t.Errorf("powers %v, want %s", powers, tc.powers)
			}
			if got := units(pos); got != tc.units {
				t.Errorf("units %q, want %q", got, tc.units)
			}
			if len(pos.Owners) != tc.owned || m.Victory != tc.victory || pos.Phase.ID() != tc.phase {
				t.Errorf("%d centres owned, victory %d, phase %s; want %d, %d, %s", len(pos.Owners), m.Victory, pos.Phase.ID(), tc.owned, tc.victory, tc.phase)
			}
			for prov, pw := range pos.Owners {
				if p, _ := m.Province(prov); p.Home != pw {
					t.Errorf("%s owns %s, whose home it is not (%q)", pw, prov, p.Home)
				}
			}
			if err := pos.Validate(); err != nil {
				t.Error(err)
			}
			if _, err := m.DrawStart(); err != nil {
				t.Errorf("the start is not drawn: %v", err)
			}
		})
	}
}

// TestChaosPowers: every supply centre of the standard map is the one
// home centre of a power named for it, and each owes one build in the
// opening Winter.
func TestChaosPowers(t *testing.T) {
	m, _ := MapByName("chaos")
	std, _ := MapByName("standard")
	if len(m.Powers) != 34 {
		t.Fatalf("%d powers, want 34", len(m.Powers))
	}
	pos := m.NewPosition()
	owed := Owed(pos)
	for _, sc := range std.SupplyCentres() {
		p, _ := std.Province(sc)
		id, ok := m.PowerID(p.Full)
		if !ok {
			t.Errorf("no power named %s", p.Full)
			continue
		}
		if h := m.HomeCentres(id); len(h) != 1 || h[0] != sc {
			t.Errorf("%s's home centres: %v, want [%s]", id, h, sc)
		}
		if owed[id] != 1 {
			t.Errorf("%s owes %d builds, want 1", id, owed[id])
		}
	}
}
