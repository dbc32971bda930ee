package diplomacy

import (
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// Pure (maps/pure.map): the board's peculiarities, from its published
// rules: seven land provinces, each adjacent to every other, each the one
// home centre of its power, one army each, victory at 4 of 7.
func TestPureBoard(t *testing.T) {
	m, ok := MapByName("pure")
	if !ok {
		t.Fatal("no variant pure")
	}
	homes := map[string]string{"ber": "germany", "con": "turkey", "lon": "england", "mos": "russia",
		"par": "france", "rom": "italy", "vie": "austria"}
	if len(m.Provinces) != 7 || len(m.Powers) != 7 || len(m.SupplyCentres()) != 7 || m.Victory != 4 {
		t.Fatalf("%d provinces, %d powers, %d centres, victory %d; want 7, 7, 7, 4",
			len(m.Provinces), len(m.Powers), len(m.SupplyCentres()), m.Victory)
	}
	for _, p := range m.Provinces {
		if p.Kind != Land || !p.SupplyCenter || p.Home != homes[p.ID] {
			t.Errorf("%s: kind %v, centre %v, home %q; want a land home centre of %s", p.ID, p.Kind, p.SupplyCenter, p.Home, homes[p.ID])
		}
		for _, q := range m.Provinces {
			if q.ID != p.ID && !m.Adjacent(p.ID, q.ID) {
				t.Errorf("%s and %s are not adjacent", p.ID, q.ID)
			}
		}
		if h := m.HomeCentres(p.Home); len(h) != 1 || h[0] != p.ID {
			t.Errorf("%s's home centres: %v, want [%s]", p.Home, h, p.ID)
		}
	}
	pos := m.NewPosition()
	var units []string
	for _, u := range pos.Units {
		units = append(units, u.Power+" "+m.UnitName(u))
	}
	if got, want := strings.Join(units, ", "), "germany A Ber, turkey A Con, england A Lon, russia A Mos, france A Par, italy A Rom, austria A Vie"; got != want {
		t.Errorf("start units %q, want %q", got, want)
	}
	if len(pos.Owners) != 7 {
		t.Errorf("%d centres owned at the start, want 7", len(pos.Owners))
	}
	if !strings.Contains(m.variantRules, "Danny Loeb") || !strings.Contains(m.variantRules, "Victory at 4") {
		t.Errorf("the rules do not name their source and victory: %q", m.variantRules)
	}
}

// TestPureFeatures: Pure's rules in play, a case each (testdata/pure).
func TestPureFeatures(t *testing.T) {
	for _, c := range loadCases(t, "testdata/pure/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

// The golden picture of Pure's start (testdata/pictures/pure-opening.*):
// seven sectors around a hub whose dashed star links the provinces no
// border joins, within the mail budget of a board picture.
func TestPurePictureGolden(t *testing.T) { openingGolden(t, "pure") }

// TestPureMarksReadOnAPhone: Pure's geometry draws its names and units
// geo-marks (2.5) times their usual size, so that a phone showing the
// 1200-pixel picture 390 wide shows names about 10 pixels high; the
// standard map's stay at their size. geo-marks out of its range, or given
// twice, is refused.
func TestPureMarksReadOnAPhone(t *testing.T) {
	size := func(name, word string) (text, unit float64) {
		e, _ := NewEngine(name)
		st, _ := e.New(nil, 0)
		p, err := e.Draw(st, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		picturetest.WalkText(p.Items, func(tx *picture.Text) {
			if tx.S == word && text == 0 {
				text = tx.Size
			}
			if tx.S == "G" && tx.Bold && unit == 0 && tx.At.Y < float64(p.Height)-legendHeight {
				unit = tx.Size
			}
		})
		return text, unit
	}
	for _, tc := range []struct {
		name string
		k    float64
	}{{"pure", 2.5}, {"standard", 1}} {
		wantText, wantUnit := nameSize*tc.k, 12*(unitK*tc.k)
		if text, unit := size(tc.name, "Ber"); text != wantText || unit != wantUnit {
			t.Errorf("%s: names of %g px and unit letters of %g, want %g and %g", tc.name, text, unit, wantText, wantUnit)
		}
	}
	base := shippedMap(t, "pure")
	for _, bad := range []string{"geo-marks 0.5", "geo-marks 5", "geo-marks big", "geo-marks 2\ngeo-marks 2"} {
		text := strings.Replace(base, "geo-marks 2.5", bad, 1)
		m, err := ParseMap("pure.map", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Geometry(); err == nil || !strings.Contains(err.Error(), "geo-marks wants one number from 1 to 4, once") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}
