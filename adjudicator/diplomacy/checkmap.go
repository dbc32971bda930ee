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
	contact, overlap, area := rasterCounts(m, g)
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

// rasterCounts labels each pixel of the geometry (at its own resolution)
// with the province whose shape covers it (a later province's shape over
// an earlier one's; -1 for none) and counts, for each pair of provinces
// (a*n+b): the pixels both shapes cover (a < b; overlap), and the pairs
// of neighbouring pixels, right or below, labelled a and b (contact,
// both ways); neighbours two pixels apart count too across a gap pixel
// no province covers (a hand edit's hairline gap does not hide a
// border). area is each province's pixels.
//
// It goes row by row (scanShapes): a row is painted, cut into runs of one
// label, and compared run by run with the two rows above, so the cost
// follows the edges and the runs more than the pixels.
func rasterCounts(m *Map, g *Geometry) (contact, overlap, area []int) {
	w, h := int(math.Ceil(g.Width)), int(math.Ceil(g.Height))
	n := len(m.Provinces)
	contact, overlap, area = make([]int, n*n), make([]int, n*n), make([]int, n)
	if w <= 0 || h <= 0 {
		return contact, overlap, area
	}
	row := make([]int, w)
	for i := range row {
		row[i] = -1
	}
	// runs of the last three rows: start column and label of each run,
	// with a closing run at w.
	type run struct{ x, lab int }
	var rows [3][]run
	add := func(a, b, k int) {
		contact[a*n+b] += k
		contact[b*n+a] += k
	}
	paint := func(pi, _, x0, x1 int) {
		for x := x0; x <= x1; x++ {
			if prev := row[x]; prev >= 0 && prev != pi {
				overlap[min(prev, pi)*n+max(prev, pi)]++
			}
			row[x] = pi
		}
		area[pi] += x1 - x0 + 1
	}
	compare := func(int) {
		// This row's runs; the two rows above are rows[1] and rows[0].
		cur := rows[0][:0]
		rows[0], rows[1], rows[2] = rows[1], rows[2], nil
		for x := 0; x < w; x++ {
			if x == 0 || row[x] != cur[len(cur)-1].lab {
				cur = append(cur, run{x, row[x]})
			}
			row[x] = -1 // painted afresh for the next row
		}
		cur = append(cur, run{w, -2})
		rows[2] = cur
		// Right: each border between runs; two right: a gap run of one.
		for i := 0; i+2 < len(cur); i++ {
			a, b := cur[i].lab, cur[i+1].lab
			if a >= 0 && b >= 0 && a != b {
				add(a, b, 1)
			}
			if a >= 0 && b == -1 && cur[i+2].x-cur[i+1].x == 1 && i+3 < len(cur) {
				if c := cur[i+2].lab; c >= 0 && c != a {
					add(a, c, 1)
				}
			}
		}
		// Below: the row above against this one; two below: the row two
		// above against this one where the row between is uncovered.
		if up := rows[1]; up != nil {
			i, j := 0, 0
			for x := 0; x < w; {
				for up[i+1].x <= x {
					i++
				}
				for cur[j+1].x <= x {
					j++
				}
				end := min(up[i+1].x, cur[j+1].x)
				if a, b := up[i].lab, cur[j].lab; a >= 0 && b >= 0 && a != b {
					add(a, b, end-x)
				}
				x = end
			}
		}
		if top, mid := rows[0], rows[1]; top != nil && mid != nil {
			i, j, k := 0, 0, 0
			for x := 0; x < w; {
				for top[i+1].x <= x {
					i++
				}
				for mid[j+1].x <= x {
					j++
				}
				for cur[k+1].x <= x {
					k++
				}
				end := min(top[i+1].x, mid[j+1].x, cur[k+1].x)
				if a, b := top[i].lab, cur[k].lab; a >= 0 && b >= 0 && a != b && mid[j].lab == -1 {
					add(a, b, end-x)
				}
				x = end
			}
		}
	}
	scanShapes(g.Shapes, w, h, paint, compare)
	return contact, overlap, area
}

// Problems implements adjudicator.Checker: the map's Problems.
func (e *Engine) Problems() []string { return e.m.Problems() }

// DrawStart draws the map's start position (`pbemd map -variant FILE`).
func (m *Map) DrawStart() (*picture.Picture, error) { return m.drawPosition(m.NewPosition(), nil) }
