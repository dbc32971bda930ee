package supremacy

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Layout is how a scenario's map is drawn (the picture of a position, see
// draw.go): a schematic of square cells on a grid, each cell given to one
// area or left void (unplayable land). An area is the cells that carry its
// code, in one piece or several (an ocean cut by the map's edge). SCENARIO.md
// documents the section; it is optional — a scenario without one plays but
// cannot be drawn.
//
// The layout must tell the truth about adjacency: two areas whose cells
// share an edge must border each other in the scenario, and every border
// must be visible — a shared cell edge, a link (a dashed line drawn between
// the two areas, for borders the grid cannot show), or a chokepoint (drawn
// as a strait). validateLayout refuses anything else.
type Layout struct {
	Provenance Provenance `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	// Cell is the side of a cell in the picture, in pixels.
	Cell int `json:"cell"`
	// Key maps each cell code to its area id; ".." is a void cell.
	Key map[string]string `json:"key"`
	// Rows are the grid, top to bottom: one code per cell, separated by
	// spaces.
	Rows []string `json:"rows"`
	// Links are borders drawn as a dashed line: [a, b], or [a, b, via] to
	// draw the line across the area via (the nearest cells of a and b whose
	// line's middle lies in via).
	Links [][]string `json:"links,omitempty"`

	w, h  int
	cells []int // area index per cell (row-major), -1 for a void cell
	links []layoutLink
}

// layoutLink is a border drawn as a line between two areas.
type layoutLink struct {
	a, b, via int // via is -1 when not given
}

// voidCell is the code of a cell that belongs to no area.
const voidCell = ".."

// Limits of a layout, so that a scenario file cannot ask for a huge
// picture.
const (
	minCell, maxCell = 16, 64
	maxLayoutCols    = 160
	maxLayoutRows    = 120
)

// validateLayout checks the layout section against the map: every code
// resolves, every area is drawn, and the picture shows exactly the
// scenario's borders.
func (sc *Scenario) validateLayout() error {
	l := sc.Layout
	if l == nil {
		return nil
	}
	if err := l.Provenance.check("layout"); err != nil {
		return err
	}
	if l.Cell < minCell || l.Cell > maxCell {
		return fmt.Errorf("layout: cell %d px, want %d to %d", l.Cell, minCell, maxCell)
	}
	codes := make([]string, 0, len(l.Key))
	for c := range l.Key {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	areaOf := map[string]int{}
	codeOf := map[int]string{}
	for _, c := range codes {
		id := l.Key[c]
		if c == voidCell || c == "" || len(c) > 4 || strings.ContainsAny(c, " \t") {
			return fmt.Errorf("layout.key: code %q: a code is 1 to 4 characters without spaces, and not %q", c, voidCell)
		}
		a, ok := sc.areaByID[id]
		if !ok {
			return fmt.Errorf("layout.key: code %s: unknown area %q", c, id)
		}
		if prev, dup := codeOf[a]; dup {
			return fmt.Errorf("layout.key: area %s has two codes, %s and %s", id, prev, c)
		}
		areaOf[c], codeOf[a] = a, c
	}
	if len(l.Rows) < 2 || len(l.Rows) > maxLayoutRows {
		return fmt.Errorf("layout.rows: %d rows, want 2 to %d", len(l.Rows), maxLayoutRows)
	}
	l.h = len(l.Rows)
	l.cells = l.cells[:0]
	for r, row := range l.Rows {
		toks := strings.Fields(row)
		if r == 0 {
			l.w = len(toks)
			if l.w < 2 || l.w > maxLayoutCols {
				return fmt.Errorf("layout.rows: %d columns, want 2 to %d", l.w, maxLayoutCols)
			}
		}
		if len(toks) != l.w {
			return fmt.Errorf("layout.rows[%d]: %d cells, row 1 has %d", r+1, len(toks), l.w)
		}
		for c, t := range toks {
			if t == voidCell {
				l.cells = append(l.cells, -1)
				continue
			}
			a, ok := areaOf[t]
			if !ok {
				return fmt.Errorf("layout.rows[%d] column %d: code %q is not in layout.key", r+1, c+1, t)
			}
			l.cells = append(l.cells, a)
		}
	}
	drawn := make([]bool, len(sc.areas))
	for _, a := range l.cells {
		if a >= 0 {
			drawn[a] = true
		}
	}
	for a, ok := range drawn {
		if !ok {
			return fmt.Errorf("layout: area %s has no cell", sc.areas[a].ID)
		}
	}
	touch := l.contacts()
	for _, k := range sortedPairs(touch) {
		if !sc.border[k] {
			x, y := sc.areas[k[0]], sc.areas[k[1]]
			return fmt.Errorf("layout: %s and %s share a cell edge (row %d) but do not border each other: the picture would show a border that is not there",
				x.ID, y.ID, touch[k]+1)
		}
	}
	linked := map[[2]int]bool{}
	for i, lk := range l.Links {
		if len(lk) != 2 && len(lk) != 3 {
			return fmt.Errorf("layout.links[%d]: want [a, b] or [a, b, via]", i)
		}
		var ix [3]int
		ix[2] = -1
		for k, id := range lk {
			a, ok := sc.areaByID[id]
			if !ok {
				return fmt.Errorf("layout.links[%d]: unknown area %q", i, id)
			}
			ix[k] = a
		}
		k := pair(ix[0], ix[1])
		switch {
		case ix[0] == ix[1]:
			return fmt.Errorf("layout.links[%d]: %s links to itself", i, lk[0])
		case !sc.border[k]:
			return fmt.Errorf("layout.links[%d]: %s and %s do not border each other", i, lk[0], lk[1])
		case linked[k]:
			return fmt.Errorf("layout.links[%d]: %s–%s is linked twice", i, lk[0], lk[1])
		}
		if _, ok := touch[k]; ok {
			return fmt.Errorf("layout.links[%d]: %s and %s share a cell edge already; leave the link out", i, lk[0], lk[1])
		}
		linked[k] = true
		l.links = append(l.links, layoutLink{a: ix[0], b: ix[1], via: ix[2]})
	}
	for _, k := range sortedPairs(boolPairs(sc.border)) {
		if _, ok := touch[k]; ok || linked[k] {
			continue
		}
		if _, ok := sc.chokeOf[k]; ok {
			continue // drawn as the chokepoint's strait
		}
		return fmt.Errorf("layout: the border %s–%s is not drawn: give the two areas a shared cell edge or add [%q, %q] to layout.links",
			sc.areas[k[0]].ID, sc.areas[k[1]].ID, sc.areas[k[0]].ID, sc.areas[k[1]].ID)
	}
	sc.boardOnce = sync.OnceValues(func() (*board, error) { return newBoard(sc) })
	return nil
}

// contacts returns every pair of areas whose cells share an edge, with the
// first row (0-based) where they do.
func (l *Layout) contacts() map[[2]int]int {
	out := map[[2]int]int{}
	for r := 0; r < l.h; r++ {
		for c := 0; c < l.w; c++ {
			a := l.cells[r*l.w+c]
			if a < 0 {
				continue
			}
			for _, n := range [2][2]int{{r, c + 1}, {r + 1, c}} {
				if n[0] >= l.h || n[1] >= l.w {
					continue
				}
				if b := l.cells[n[0]*l.w+n[1]]; b >= 0 && b != a {
					k := pair(a, b)
					if _, seen := out[k]; !seen {
						out[k] = r
					}
				}
			}
		}
	}
	return out
}

func boolPairs(m map[[2]int]bool) map[[2]int]int {
	out := make(map[[2]int]int, len(m))
	for k, v := range m {
		if v {
			out[k] = 0
		}
	}
	return out
}

func sortedPairs(m map[[2]int]int) [][2]int {
	out := make([][2]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// at returns the area of cell (row, col), or -1 for a void cell or one off
// the grid.
func (l *Layout) at(r, c int) int {
	if r < 0 || c < 0 || r >= l.h || c >= l.w {
		return -1
	}
	return l.cells[r*l.w+c]
}
