package diplomacy

import (
	"fmt"
	"math"

	"pbemd/picture"
)

// CheckMap and the picture checks. ParseMap checks what a game needs;
// Problems adds what a picture needs: the geometry reads, every province
// has a shape, shapes do not overlap, and the picture does not mislead
// about adjacency (provinces drawn sharing a border are adjacent, and
// adjacent ones share a drawn border or a link). `pbemd check-map` and the
// loader of the maps a GM adds at run time run both.

// CheckMap parses a map file and runs every check on it: those of
// ParseMap, then Problems. It returns the map when it is sound, else every
// problem found (ParseMap stops at its first).
func CheckMap(file string, data []byte) (*Map, []string) {
	m, err := ParseMap(file, data)
	if err != nil {
		return nil, []string{err.Error()}
	}
	if probs := m.Problems(); len(probs) > 0 {
		return nil, probs
	}
	return m, nil
}

// minBorder is the length, in pixels of the geometry (half a picture
// pixel each), of a shared border a player would see: 4 picture pixels.
const minBorder = 8

// overlaps reports whether two shapes that both cover px pixels overlap
// rather than share a border traced twice a little apart (a generated
// coastline and a hand-drawn sea edge): px is at least a square of 4 by 4
// picture pixels and a tenth of the smaller shape.
func overlaps(px, areaA, areaB int) bool {
	return px >= minBorder*minBorder && px*10 >= min(areaA, areaB)
}

// Problems lists what is wrong with the map's picture, each naming the
// file, the line and the province; none for a sound map.
func (m *Map) Problems() []string {
	g, err := m.Geometry()
	if err != nil {
		return []string{err.Error()}
	}
	return m.geometryProblems(g)
}

func (m *Map) geometryProblems(g *Geometry) []string {
	lab, overlap, area, w, h := provinceRaster(m, g)
	n := len(m.Provinces)
	var out []string
	at := func(pi int, format string, a ...any) string {
		line := 0
		if g.shapeLine != nil {
			line = g.shapeLine[pi]
		}
		return fmt.Sprintf("map %s line %d: province %s: %s", m.file, line, m.Provinces[pi].ID, fmt.Sprintf(format, a...))
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if px := overlap[a*n+b]; overlaps(px, area[a], area[b]) {
				out = append(out, at(b, "its shape overlaps that of %s (%d pixels): the picture would show one over the other", m.Provinces[a].ID, px))
			}
		}
	}
	contact := make([]int, n*n)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := lab[y*w+x]
			if a < 0 {
				continue
			}
			// Neighbours right and below; two pixels away across a gap
			// pixel that no province covers (a hand edit's hairline gap
			// does not hide a border).
			for _, d := range [][2]int{{1, 0}, {0, 1}, {2, 0}, {0, 2}} {
				xx, yy := x+d[0], y+d[1]
				if xx >= w || yy >= h {
					continue
				}
				if d[0] == 2 || d[1] == 2 {
					if lab[(y+d[1]/2)*w+x+d[0]/2] != -1 {
						continue
					}
				}
				if b := lab[yy*w+xx]; b >= 0 && b != a {
					contact[a*n+b]++
					contact[b*n+a]++
				}
			}
		}
	}
	linked := map[[2]string]bool{}
	for _, l := range g.Links {
		linked[[2]string{l.A, l.B}], linked[[2]string{l.B, l.A}] = true, true
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pa, pb := m.Provinces[a].ID, m.Provinces[b].ID
			touch := contact[a*n+b] >= minBorder
			adj := m.Adjacent(pa, pb)
			switch {
			case touch && !adj && !overlaps(overlap[a*n+b], area[a], area[b]):
				out = append(out, at(b, "%s and %s are drawn sharing a border (%d px) but are not adjacent", pa, pb, contact[a*n+b]))
			case adj && !touch && !linked[[2]string{pa, pb}]:
				out = append(out, at(b, "%s and %s are adjacent but share no drawn border (%d px) and no link", pa, pb, contact[a*n+b]))
			}
		}
	}
	return out
}

// provinceRaster labels each pixel of the geometry (at its own resolution)
// with the province whose shape covers it, -1 for none; it counts for
// each pair of provinces (a*n+b, a < b) the pixels both cover, and each
// province's area in pixels.
func provinceRaster(m *Map, g *Geometry) (lab, overlap, area []int, w, h int) {
	w, h = int(math.Ceil(g.Width)), int(math.Ceil(g.Height))
	n := len(m.Provinces)
	lab = make([]int, w*h)
	overlap = make([]int, n*n)
	area = make([]int, n)
	for i := range lab {
		lab[i] = -1
	}
	var xs []float64
	for pi, rings := range g.Shapes {
		xs = fillRows(rings, w, h, xs, func(y, x0, x1 int) {
			for x := x0; x <= x1; x++ {
				if prev := lab[y*w+x]; prev >= 0 && prev != pi {
					overlap[min(prev, pi)*n+max(prev, pi)]++
				}
				lab[y*w+x] = pi
				area[pi]++
			}
		})
	}
	return lab, overlap, area, w, h
}

// Problems implements adjudicator.Checker: the map's Problems.
func (e *Engine) Problems() []string { return e.m.Problems() }

// DrawStart draws the map's start position (`pbemd map -variant FILE`).
func (m *Map) DrawStart() (*picture.Picture, error) { return m.drawPosition(m.NewPosition(), nil) }
