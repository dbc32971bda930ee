package diplomacy

import (
	"math"
	"testing"

	"pbemd/picture"
)

// lab is c in CIE L*a*b* (D65), where a distance of about 2.3 is the
// smallest difference a reader notices and 20 or more reads as another
// colour.
func lab(c picture.Color) [3]float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	r, g, b := lin(c.R), lin(c.G), lin(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// deltaE is the CIE76 distance between two colours.
func deltaE(a, b picture.Color) float64 {
	p, q := lab(a), lab(b)
	return math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
}

// TestPowerColoursApart: on each shipped map, every power's units and
// land are told from every other power's and from the sea at a glance
// (issue 31 item 9: France was near the sea's blue, Greece's land read as
// water, and Austria, Germany and Turkey were three warm hues alike).
// The letters on units stay for readers who see fewer colours.
func TestPowerColoursApart(t *testing.T) {
	const (
		minUnits     = 35 // unit colours, pair by pair
		minUnitSea   = 40 // a unit against the sea
		minTints     = 18 // land tints, pair by pair
		minTintSea   = 24 // a power's land against the sea
		minTintWater = 20 // against unplayable water (lakes, small and few)
		minTintLand  = 20 // a power's land against unowned and unplayable land
	)
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			m, _ := MapByName(name)
			b, err := m.board()
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range m.Powers {
				if _, ok := b.g.Colors[p.ID]; !ok {
					t.Errorf("%s has no geo-colour", p.ID)
				}
				if d := deltaE(b.colors[i], seaColor); d < minUnitSea {
					t.Errorf("%s's units are %.1f from the sea, want %d", p.ID, d, minUnitSea)
				}
				if d := deltaE(b.tints[i], seaColor); d < minTintSea {
					t.Errorf("%s's land is %.1f from the sea, want %d", p.ID, d, minTintSea)
				}
				if d := deltaE(b.tints[i], waterColor); d < minTintWater {
					t.Errorf("%s's land is %.1f from unplayable water, want %d", p.ID, d, minTintWater)
				}
				if d := deltaE(b.tints[i], landColor); d < minTintLand {
					t.Errorf("%s's land is %.1f from unowned land, want %d", p.ID, d, minTintLand)
				}
				if d := deltaE(b.tints[i], neutralColor); d < minTintLand {
					t.Errorf("%s's land is %.1f from unplayable land, want %d", p.ID, d, minTintLand)
				}
				for j := i + 1; j < len(m.Powers); j++ {
					q := m.Powers[j]
					if d := deltaE(b.colors[i], b.colors[j]); d < minUnits {
						t.Errorf("%s and %s units are %.1f apart, want %d", p.ID, q.ID, d, minUnits)
					}
					if d := deltaE(b.tints[i], b.tints[j]); d < minTints {
						t.Errorf("%s and %s land is %.1f apart, want %d", p.ID, q.ID, d, minTints)
					}
				}
				if b.initials[i] == "" {
					t.Errorf("%s has no letter for its units", p.ID)
				}
			}
		})
	}
}
