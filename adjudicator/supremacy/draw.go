package supremacy

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// This file draws a position as a picture of the scenario's world map
// (geometry.go) or, for a scenario without one, of its layout's grid (the
// adjudicator.Drawer of the engine). What never changes for a scenario
// (area shapes, borders, names, cities, the key) is built once, at the
// first picture, and shared by every picture of that scenario.
//
// The picture shows:
//   - land coloured by its controller (a tint of the player's colour),
//     uncontrolled land beige, contaminated land dark grey, seas blue;
//     unplayable cells grey; the home areas of every player outlined in
//     that player's colour;
//   - each area's name (on the world map its full name; on a grid the
//     shortest of its name and aliases that fits);
//   - cities: white squares (a cross when destroyed);
//   - companies: a disc with the resource's letter (O oil, M minerals, G
//     grain), filled with the owner's colour (lighter when closed), white
//     when nobody owns it, dashed when open to seizure or blockaded
//     (red), grey with a cross when destroyed;
//   - forces: armies as a box, navies as a hull, in the player's colour
//     with the player's two-letter code and the count ("US3"); a minor
//     power's bought armies and navies in white;
//   - impassable borders as a thick dark red line; chokepoints as a thick
//     grey strait with the grey ball in the controlling area; borders the
//     shapes cannot show as a dashed line between the two areas;
//   - what the phase did, when its results are given (drawphase.go);
//   - a legend: the phase, the market prices, each player's colour, code,
//     forces and companies, and a key to the symbols and to the phase's
//     marks.
//
// Everything drawn is public (the board, companies and forces are open in
// Supremacy); a player's picture of a phase draws that player's own events
// larger and lists them under the legend (drawphase.go), so the daemon
// draws one per player.

var (
	seaColor     = picture.Hex(0xd6e7f2)
	landColor    = picture.Hex(0xf3ecdb)
	voidColor    = picture.Hex(0xc9c5bd)
	gapSeaColor  = picture.Hex(0xa9c6dc)
	deadColor    = picture.Hex(0x6e6a66)
	borderColor  = picture.Hex(0x4a4a4a)
	seaLineColor = picture.Hex(0x8fb0c8)
	seaTextColor = picture.Hex(0x2d5873)
	textColor    = picture.Hex(0x1e1e1e)
	mutedColor   = picture.Hex(0x6b6b6b)
	impassColor  = picture.Hex(0x8b1a1a)
	chokeColor   = picture.Hex(0x7a7a7a)
	linkColor    = picture.Hex(0x1f4e79)
	legendBg     = picture.Hex(0xfaf8f2)
	crossColor   = picture.Hex(0xc4001a)
)

// powerOrder picks, for the superpowers in file order, colours of
// picture.Colors far apart for the first ones (blue, vermillion, yellow,
// reddish purple, orange, sky blue, bluish green, grey).
var powerOrder = []int{4, 5, 3, 6, 0, 1, 2, 7}

// Resource letters on company discs.
var resourceLetters = [nResources]string{"O", "M", "G"}

// legendHeight is the strip below the map.
const legendHeight = 130

// board is what every picture of one scenario shares.
type board struct {
	sc      *Scenario
	l       *Layout
	cell    float64
	w, h    int // the map's size in pixels; the legend is below
	regions *picture.Regions
	static  *picture.Layer
	palette []picture.Color
	rings   [][][]picture.Point // per area, in pixels
	// slots per area: where its cities, companies and forces go, nearest
	// the label first (half cells, see areaSlots).
	slots [][]picture.Point
	// cityAt and coAt are each city's and company's marker point.
	cityAt [][]picture.Point
	coAt   []picture.Point // per card (technologies: unused)
	// firstFree is each area's first slot after its cities and companies.
	firstFree []int
	// anchors are where the phase's arrows start and end in each area:
	// the centre of the label cell of each of its pieces.
	anchors [][]picture.Point
	colors  []picture.Color // per superpower
	tints   []picture.Color
	darks   []picture.Color
	codes   []string // per superpower: two letters ("US")
}

// drawing builds the scenario's board at the first picture.
func (sc *Scenario) drawing() (*board, error) {
	if sc.Layout == nil {
		return nil, fmt.Errorf("supremacy: scenario %s has no layout section: it cannot be drawn (SCENARIO.md tells how to add one)", sc.Name)
	}
	return sc.boardOnce()
}

// newBoard builds the board of a scenario: on its world map when it ships
// a geometry file (geometry.go), else on its layout's grid.
func newBoard(sc *Scenario) (*board, error) {
	g, err := readGeometry(sc.Name)
	if err != nil {
		return nil, err
	}
	if g != nil {
		return newGeoBoard(sc, g)
	}
	return newGridBoard(sc), nil
}

// initColours gives each superpower its colour, tint, dark shade and code.
func (b *board) initColours() {
	for i := range b.sc.powers {
		c := picture.Colors[powerOrder[i%len(powerOrder)]]
		b.colors = append(b.colors, c)
		b.tints = append(b.tints, c.Mix(picture.White, 0.55))
		b.darks = append(b.darks, c.Mix(picture.Black, 0.3))
	}
	b.codes = powerCodes(b.sc)
}

// initPalette lists the colours the board's pictures use.
func (b *board) initPalette() {
	b.palette = []picture.Color{seaColor, landColor, voidColor, gapSeaColor, deadColor, borderColor, seaLineColor, seaTextColor, textColor,
		mutedColor, impassColor, chokeColor, linkColor, legendBg, crossColor, failColor, picture.White, picture.Black}
	for i := range b.sc.powers {
		if len(b.palette)+3 > picture.MaxPalette {
			break
		}
		b.palette = append(b.palette, b.colors[i], b.tints[i], b.darks[i])
	}
}

// newGridBoard builds the board of a scenario from its layout's grid.
func newGridBoard(sc *Scenario) *board {
	l := sc.Layout
	b := &board{sc: sc, l: l, cell: float64(l.Cell), w: l.w * l.Cell, h: l.h * l.Cell}
	n := len(sc.areas)
	b.initColours()

	var shapes [][][]picture.Point
	var names []string
	fine, fw, _ := fineGrid(sc, l)
	// Each area's (and each special code's) box in the fine grid, so that
	// tracing an outline scans only its own box.
	type box struct{ r0, c0, r1, c1 int }
	boxes := map[int]*box{}
	for i, a := range fine {
		r, c := i/fw, i%fw
		if bx, ok := boxes[a]; ok {
			bx.r0, bx.c0, bx.r1, bx.c1 = min(bx.r0, r), min(bx.c0, c), max(bx.r1, r), max(bx.c1, c)
		} else {
			boxes[a] = &box{r, c, r, c}
		}
	}
	trace := func(code int) [][]picture.Point {
		bx, ok := boxes[code]
		if !ok {
			return nil
		}
		rings := cellRings(bx.c1-bx.c0+1, bx.r1-bx.r0+1, func(r, c int) bool {
			r, c = r+bx.r0, c+bx.c0
			return r >= bx.r0 && c >= bx.c0 && r <= bx.r1 && c <= bx.c1 && fine[r*fw+c] == code
		})
		for k, ring := range rings {
			for i := range ring {
				ring[i] = ring[i].Add(picture.Pt(float64(bx.c0), float64(bx.r0)))
			}
			if code == voidCode || (code >= 0 && !sc.areas[code].sea) {
				rings[k] = roundCoast(ring, code, fine, fw, func(a int) bool { return sc.areas[a].sea })
			}
		}
		return b.px(rings)
	}
	for a := 0; a < n; a++ {
		rings := trace(a)
		b.rings = append(b.rings, rings)
		shapes = append(shapes, rings)
		names = append(names, sc.areas[a].ID+" "+sc.areas[a].Name)
	}
	voidRings := trace(voidCode)
	shapes = append(shapes, voidRings, trace(landGap), trace(seaGap))
	names = append(names, "", "", "")
	b.regions = picture.NewRegions("areas", shapes, names)

	items := b.areaLines(voidRings, b.sharedEdges)
	items = append(items, b.linkItems()...)
	items = append(items, b.chokeItems()...)

	// Labels, and each area's slots for its markers and forces.
	b.slots = make([][]picture.Point, n)
	b.cityAt = make([][]picture.Point, n)
	b.coAt = make([]picture.Point, len(sc.cards))
	b.firstFree = make([]int, n)
	var labels, cities []picture.Item
	b.anchors = make([][]picture.Point, n)
	for a := 0; a < n; a++ {
		parts := b.parts(a)
		for k, part := range parts {
			b.anchors[a] = append(b.anchors[a], b.cellCentre(part[0]/l.w, part[0]%l.w))
			at := b.labelPoint(part[0])
			ar := sc.areas[a]
			col := textColor
			if ar.sea {
				col = seaTextColor
			}
			lines := b.labelLines(a, part[0])
			if k == 0 {
				half := 0.0 // half the label's width
				for _, line := range lines {
					half = max(half, picture.TextWidth(line, labelSize, !ar.sea)/2)
				}
				b.slots[a] = b.areaSlots(part, parts[1:], at.X-half, at.X+half)
			}
			for i, line := range lines {
				labels = append(labels, &picture.Text{At: at.Add(picture.Pt(0, -float64(len(lines)-1-i)*labelSize)), S: line, Size: labelSize, Bold: !ar.sea, Anchor: picture.Middle, Color: col, Halo: picture.White.Alpha(190)})
			}
		}
		cities = append(cities, b.placeIcons(a)...)
	}
	items = append(items, cities...)
	items = append(items, labels...)
	items = append(items, b.legendKey()...)
	b.static = picture.NewLayer("map", items...)
	b.initPalette()
	return b
}

// placeIcons places area a's cities and companies on its first slots, two
// to a slot, and returns the cities' squares.
func (b *board) placeIcons(a int) []picture.Item {
	var cities []picture.Item
	q := 0
	icon := func() picture.Point {
		s := b.slots[a][min(q/2, len(b.slots[a])-1)]
		dx := -b.cell/4 - 0.5
		if q%2 == 1 {
			dx = -dx
		}
		q++
		return s.Add(picture.Pt(dx, 0))
	}
	for range b.sc.areas[a].Cities {
		p := icon()
		b.cityAt[a] = append(b.cityAt[a], p)
		cities = append(cities, &picture.Path{Rings: [][]picture.Point{square(p, citySide/2)}, Style: picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}})
	}
	for c, cd := range b.sc.cards {
		if cd.company != nil && cd.company.area == a {
			b.coAt[c] = icon()
		}
	}
	b.firstFree[a] = (q + 1) / 2
	return cities
}

// labelSize is the size of the areas' names; citySide and companySide
// are the sizes of a city's square and a company's disc.
const (
	labelSize   = 12
	citySide    = 11
	companySide = 14
)

// labelLines is the name of area a as the label at cell shows it: the
// shortest of its name and aliases (all of which orders accept) that fits
// the area's width on the label's row (a little overflow allowed), or,
// when none does, the shortest on two lines, or a short one on one line,
// overflowing, or the id in capitals (what orders use).
// The last line sits on the label's baseline.
func (b *board) labelLines(a, cell int) []string {
	ar := b.sc.areas[a]
	l := b.l
	r, c := cell/l.w, cell%l.w
	c0, c1 := c, c
	// A land area's name may also run over up to two cells of sea beside
	// it (an island's, a coast's).
	free := func(c, k int) bool {
		x := l.at(r, c)
		return x == a || (k < 2 && !ar.sea && x >= 0 && b.sc.areas[x].sea)
	}
	for k := 0; free(c0-1, k); c0-- {
		if l.at(r, c0-1) != a {
			k++
		}
	}
	for k := 0; free(c1+1, k); c1++ {
		if l.at(r, c1+1) != a {
			k++
		}
	}
	// The label is centred on its cell: the room is twice the distance to
	// the nearer end of the row, and a little over the border.
	room := float64(2*min(c-c0, c1-c)+1)*b.cell + 8
	fits := func(s string) bool { return picture.TextWidth(s, labelSize, !ar.sea) <= room }
	names := append([]string{ar.Name}, ar.Aliases...)
	sort.SliceStable(names, func(i, j int) bool { return len(names[i]) < len(names[j]) })
	for _, n := range names {
		if fits(n) {
			return []string{n}
		}
	}
	n := names[0]
	// Two lines: break at the space nearest the middle.
	best := -1
	for i, ch := range n {
		if ch == ' ' && (best < 0 || math.Abs(float64(i)-float64(len(n))/2) < math.Abs(float64(best)-float64(len(n))/2)) {
			best = i
		}
	}
	if best > 0 && fits(n[:best]) && fits(n[best+1:]) {
		return []string{n[:best], n[best+1:]}
	}
	if len(n) > 8 {
		return []string{strings.ToUpper(ar.ID)} // the id orders use
	}
	return []string{n}
}

// powerCodes gives each superpower two capital letters, unique in the
// scenario: the first two of its id, else its first and a later letter.
func powerCodes(sc *Scenario) []string {
	taken := map[string]bool{}
	var out []string
	for i, p := range sc.powers {
		id := strings.ToUpper(p.ID)
		code := ""
		for k := 1; k < len(id) && code == ""; k++ {
			if c := id[:1] + id[k:k+1]; !taken[c] {
				code = c
			}
		}
		if code == "" {
			code = id[:1] + strconv.Itoa(i+1)
		}
		taken[code] = true
		out = append(out, code)
	}
	return out
}

// px scales rings of sub-cells to pixels.
func (b *board) px(rings [][]picture.Point) [][]picture.Point {
	for _, r := range rings {
		for i := range r {
			r[i] = r[i].Scale(b.cell / sub)
		}
	}
	return rings
}

// sub is how many squares a cell is drawn as, across, and knot the side
// of the square of them that changes hands at a point where four cells
// meet: where only one diagonal pair of the four borders each other, that
// pair is joined across the point by a knot of each of the other two cells,
// so that the other pair visibly does not touch; where neither pair
// borders, a small gap square (land or sea) keeps all four apart; next to a
// void cell, the void takes the corner.
const (
	sub  = 8
	knot = 2
)

// Codes of the fine grid besides area indexes.
const (
	voidCode = -1
	landGap  = -3
	seaGap   = -4
)

// fineGrid returns the area of each sub-cell (row-major, l.w·sub wide), or
// one of the codes above.
func fineGrid(sc *Scenario, l *Layout) (owner []int, w, h int) {
	w, h = l.w*sub, l.h*sub
	owner = make([]int, w*h)
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			owner[r*w+c] = l.at(r/sub, c/sub)
		}
	}
	// set gives the knot×knot square whose corner at the point (y, x) is
	// (dy, dx) (each -1 or 0: the square up-left of the point is -1, -1).
	set := func(y, x, dy, dx, to int) {
		for i := 0; i < knot; i++ {
			for j := 0; j < knot; j++ {
				yy, xx := y+dy*knot+i, x+dx*knot+j
				owner[yy*w+xx] = to
			}
		}
	}
	apart := func(a, b int) bool { return a != b && !sc.adjacent(a, b) }
	join := func(a, b int) bool { return a == b || sc.adjacent(a, b) }
	for r := 1; r < l.h; r++ {
		for c := 1; c < l.w; c++ {
			tl, tr, bl, br := l.at(r-1, c-1), l.at(r-1, c), l.at(r, c-1), l.at(r, c)
			y, x := r*sub, c*sub // the point, in sub-cells
			switch {
			case tl >= 0 && br >= 0 && apart(tl, br) && (tr < 0 || bl < 0):
				set(y, x, -1, -1, voidCode)
			case tr >= 0 && bl >= 0 && apart(tr, bl) && (tl < 0 || br < 0):
				set(y, x, -1, 0, voidCode)
			case tl < 0 || tr < 0 || bl < 0 || br < 0:
			case apart(tl, br) && join(tr, bl):
				set(y, x, -1, -1, bl)
				set(y, x, 0, 0, tr)
			case apart(tr, bl) && join(tl, br):
				set(y, x, -1, 0, br)
				set(y, x, 0, -1, tl)
			case apart(tl, br) && apart(tr, bl):
				gap, seas := landGap, 0
				for _, a := range []int{tl, tr, bl, br} {
					if sc.areas[a].sea {
						seas++
					}
				}
				if seas > 2 {
					gap = seaGap
				}
				for _, d := range [][2]int{{-1, -1}, {-1, 0}, {0, -1}, {0, 0}} {
					owner[(y+d[0])*w+x+d[1]] = gap
				}
			}
		}
	}
	return owner, w, h
}

// roundCoast rounds the corners of a ring of land (area or void) code that
// stand out into the sea: where the ring's point has land of code in one
// of the four sub-cells round it and sea in the other three. The cut-off
// corner belongs to no shape, so the sea's colour shows there: the coast
// reads as a coast, not as the corner of a block. Borders between areas
// keep their corners, and every edge keeps most of its length (the
// picture's borders stay the scenario's: TestLayoutTruthful).
func roundCoast(ring []picture.Point, code int, fine []int, fw int, isSea func(area int) bool) []picture.Point {
	fh := len(fine) / fw
	at := func(r, c int) int {
		if r < 0 || c < 0 || r >= fh || c >= fw {
			return voidCode - 100 // off the map: never sea
		}
		return fine[r*fw+c]
	}
	seaAt := func(r, c int) bool { return at(r, c) == seaGap || (at(r, c) >= 0 && isSea(at(r, c))) }
	var out []picture.Point
	n := len(ring)
	for i, v := range ring {
		x, y := int(v.X), int(v.Y)
		own, sea := 0, 0
		for _, d := range [4][2]int{{-1, -1}, {-1, 0}, {0, -1}, {0, 0}} {
			switch {
			case at(y+d[0], x+d[1]) == code:
				own++
			case seaAt(y+d[0], x+d[1]):
				sea++
			}
		}
		p, q := ring[(i+n-1)%n], ring[(i+1)%n]
		lp, lq := v.Sub(p).Len(), q.Sub(v).Len()
		if own != 1 || sea != 3 || lp < sub/2 || lq < sub/2 {
			out = append(out, v)
			continue
		}
		r := math.Min(sub*0.7, 0.4*math.Min(lp, lq))
		a := v.Add(p.Sub(v).Scale(r / lp))
		c := v.Add(q.Sub(v).Scale(r / lq))
		for k := 0; k <= 4; k++ {
			t := float64(k) / 4
			out = append(out, a.Lerp(v, t).Lerp(v.Lerp(c, t), t))
		}
	}
	return out
}

// cellCentre is the centre of cell (r, c) in pixels.
func (b *board) cellCentre(r, c int) picture.Point {
	return picture.Pt((float64(c)+0.5)*b.cell, (float64(r)+0.5)*b.cell)
}

// labelPoint is the baseline point of a label in the top half of a cell.
func (b *board) labelPoint(cell int) picture.Point {
	r, c := cell/b.l.w, cell%b.l.w
	return picture.Pt((float64(c)+0.5)*b.cell, float64(r)*b.cell+b.cell/2-1)
}

// cellRings traces the outline of the cells of a w×h grid for which in is
// true, in grid units: outer rings clockwise, holes counter-clockwise, collinear points
// merged. Where two cells of the set touch only at a corner the rings are
// kept apart (each turns right there).
func cellRings(w, h int, in func(r, c int) bool) [][]picture.Point {
	type pt struct{ x, y int }
	type edge struct{ from, to pt }
	var edges []edge
	out := map[pt][]int{}
	add := func(a, b pt) {
		out[a] = append(out[a], len(edges))
		edges = append(edges, edge{a, b})
	}
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			if !in(r, c) {
				continue
			}
			if !in(r-1, c) {
				add(pt{c, r}, pt{c + 1, r})
			}
			if !in(r, c+1) {
				add(pt{c + 1, r}, pt{c + 1, r + 1})
			}
			if !in(r+1, c) {
				add(pt{c + 1, r + 1}, pt{c, r + 1})
			}
			if !in(r, c-1) {
				add(pt{c, r + 1}, pt{c, r})
			}
		}
	}
	used := make([]bool, len(edges))
	var rings [][]picture.Point
	for start := range edges {
		if used[start] {
			continue
		}
		var ring []pt
		e := start
		for !used[e] {
			used[e] = true
			ring = append(ring, edges[e].from)
			d := pt{edges[e].to.x - edges[e].from.x, edges[e].to.y - edges[e].from.y}
			next := -1
			for _, n := range out[edges[e].to] {
				if used[n] {
					continue
				}
				nd := pt{edges[n].to.x - edges[n].from.x, edges[n].to.y - edges[n].from.y}
				if nd == (pt{-d.y, d.x}) { // a right turn wins
					next = n
					break
				}
				if next < 0 {
					next = n
				}
			}
			if next < 0 {
				break
			}
			e = next
		}
		// Merge collinear points.
		var pts []picture.Point
		for i, p := range ring {
			prev, nxt := ring[(i+len(ring)-1)%len(ring)], ring[(i+1)%len(ring)]
			if (prev.x == p.x && p.x == nxt.x) || (prev.y == p.y && p.y == nxt.y) {
				continue
			}
			pts = append(pts, picture.Pt(float64(p.x), float64(p.y)))
		}
		rings = append(rings, pts)
	}
	return rings
}

// parts returns the connected pieces of an area's cells (4-neighbours),
// largest first; each piece lists its cells best label cell first.
func (b *board) parts(a int) [][]int {
	l := b.l
	seen := map[int]bool{}
	var parts [][]int
	for i, x := range l.cells {
		if x != a || seen[i] {
			continue
		}
		part := []int{i}
		seen[i] = true
		for k := 0; k < len(part); k++ {
			r, c := part[k]/l.w, part[k]%l.w
			for _, n := range [4][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
				if l.at(n[0], n[1]) == a && !seen[n[0]*l.w+n[1]] {
					seen[n[0]*l.w+n[1]] = true
					part = append(part, n[0]*l.w+n[1])
				}
			}
		}
		parts = append(parts, b.rankCells(part))
	}
	sort.SliceStable(parts, func(i, j int) bool { return len(parts[i]) > len(parts[j]) })
	return parts
}

// rankCells orders a piece's cells for its label: the deepest inside the
// piece (farthest from another area, by 8-neighbour steps) first, then the
// nearest its centre, then in grid order.
func (b *board) rankCells(part []int) []int {
	l := b.l
	a := l.cells[part[0]]
	depth := map[int]int{}
	for _, i := range part {
		r, c := i/l.w, i%l.w
		d := 0
		for d < 6 {
			ok := true
			for dr := -(d + 1); dr <= d+1 && ok; dr++ {
				for dc := -(d + 1); dc <= d+1 && ok; dc++ {
					if l.at(r+dr, c+dc) != a && r+dr >= 0 && c+dc >= 0 && r+dr < l.h && c+dc < l.w {
						ok = false
					}
				}
			}
			if !ok {
				break
			}
			d++
		}
		depth[i] = d
	}
	var cx, cy float64
	for _, i := range part {
		cx += float64(i % l.w)
		cy += float64(i / l.w)
	}
	cx, cy = cx/float64(len(part)), cy/float64(len(part))
	dist := func(i int) float64 { return math.Hypot(float64(i%l.w)-cx, float64(i/l.w)-cy) }
	out := append([]int(nil), part...)
	sort.Slice(out, func(x, y int) bool {
		i, j := out[x], out[y]
		if depth[i] != depth[j] {
			return depth[i] > depth[j]
		}
		if di, dj := dist(i), dist(j); math.Abs(di-dj) > 1e-9 {
			return di < dj
		}
		return i < j
	})
	return out
}

// areaSlots lists an area's half-cell slots (their centres): the bottom
// half of the label cell, then the halves of the other cells of the piece
// nearest the label, then those of the other pieces; the label spans x0 to
// x1.
func (b *board) areaSlots(part []int, others [][]int, x0, x1 float64) []picture.Point {
	l := b.l
	lab := part[0]
	lr, lc := lab/l.w, lab%l.w
	top := func(i int) picture.Point {
		r, c := i/l.w, i%l.w
		return picture.Pt((float64(c)+0.5)*b.cell, (float64(r)+0.25)*b.cell)
	}
	bottom := func(i int) picture.Point { return top(i).Add(picture.Pt(0, b.cell/2)) }
	out := []picture.Point{bottom(lab)}
	rest := append([]int(nil), part[1:]...)
	d := func(i int) float64 {
		r, c := i/l.w, i%l.w
		v := math.Hypot(float64(r-lr), float64(c-lc)*1.4) // rows first: slots stack under the label
		if r < lr {
			v += 0.7 // below the label before above it
		}
		return v
	}
	sort.SliceStable(rest, func(x, y int) bool { return d(rest[x]) < d(rest[y]) })
	for _, i := range rest {
		// The top half of a cell beside the label's, under a name wider
		// than its cell, is left to the name.
		if x := top(i).X; i/l.w == lr && x+b.cell/2 > x0 && x-b.cell/2 < x1 {
			out = append(out, bottom(i))
			continue
		}
		if i/l.w >= lr {
			out = append(out, top(i), bottom(i))
		} else {
			out = append(out, bottom(i), top(i))
		}
	}
	for _, p := range others {
		for _, i := range p[1:] {
			out = append(out, top(i), bottom(i))
		}
	}
	return out
}

// sharedEdges returns the cell edges between areas a and b, as segments in
// pixels.
func (b *board) sharedEdges(x, y int) [][]picture.Point {
	l := b.l
	var segs [][]picture.Point
	for r := 0; r < l.h; r++ {
		for c := 0; c < l.w; c++ {
			a := l.at(r, c)
			if a != x && a != y {
				continue
			}
			other := x + y - a
			if l.at(r, c+1) == other {
				segs = append(segs, []picture.Point{picture.Pt(float64(c+1)*b.cell, float64(r)*b.cell), picture.Pt(float64(c+1)*b.cell, float64(r+1)*b.cell)})
			}
			if l.at(r+1, c) == other {
				segs = append(segs, []picture.Point{picture.Pt(float64(c)*b.cell, float64(r+1)*b.cell), picture.Pt(float64(c+1)*b.cell, float64(r+1)*b.cell)})
			}
		}
	}
	return segs
}

// nearestCells returns the cells of areas x and y nearest each other
// (centre to centre); with via ≥ 0, only pairs whose middle lies in a cell
// of via count (when there is one).
func (b *board) nearestCells(x, y, via int) (picture.Point, picture.Point) {
	if b.l == nil {
		return b.borderPoints(x, y)
	}
	l := b.l
	var xs, ys []int
	for i, a := range l.cells {
		switch a {
		case x:
			xs = append(xs, i)
		case y:
			ys = append(ys, i)
		}
	}
	best := math.Inf(1)
	var p, q picture.Point
	for pass := 0; pass < 2 && math.IsInf(best, 1); pass++ {
		for _, i := range xs {
			for _, j := range ys {
				pi, pj := b.cellCentre(i/l.w, i%l.w), b.cellCentre(j/l.w, j%l.w)
				if pass == 0 && via >= 0 {
					m := pi.Lerp(pj, 0.5)
					if l.at(int(m.Y/b.cell), int(m.X/b.cell)) != via {
						continue
					}
				}
				if d := pi.Sub(pj).Len(); d < best-1e-9 {
					best, p, q = d, pi, pj
				}
			}
		}
	}
	return p, q
}

// linkItems draws the layout's links: a dashed line with a dot at each end.
func (b *board) linkItems() []picture.Item {
	var items []picture.Item
	for _, lk := range b.l.links {
		from, to := b.nearestCells(lk.a, lk.b, lk.via)
		items = append(items,
			&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: picture.White, StrokeWidth: 4}},
			&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: linkColor, StrokeWidth: 2, Dash: []float64{5, 3}}},
			&picture.Circle{C: from, R: 3, Style: picture.Style{Fill: linkColor}},
			&picture.Circle{C: to, R: 3, Style: picture.Style{Fill: linkColor}})
	}
	return items
}

// chokeItems draws each chokepoint: a thick grey line on the two seas'
// shared edge (or between their nearest cells across the controlling area
// when they do not touch) and the grey ball in the controlling area.
func (b *board) chokeItems() []picture.Item {
	var items []picture.Item
	for _, ch := range b.sc.chokes {
		segs := b.sharedEdges(ch.seas[0], ch.seas[1])
		var mid picture.Point
		if len(segs) > 0 {
			items = append(items, &picture.Path{Lines: segs, Style: picture.Style{Stroke: chokeColor, StrokeWidth: 5}})
			m := segs[len(segs)/2]
			mid = m[0].Lerp(m[1], 0.5)
		} else {
			from, to := b.nearestCells(ch.seas[0], ch.seas[1], ch.control)
			// The strait runs from sea to sea: from the edge of one's
			// cell to the edge of the other's.
			if v := to.Sub(from); v.Len() > b.cell {
				u := v.Scale(b.cell / 2 / v.Len())
				from, to = from.Add(u), to.Sub(u)
			}
			items = append(items,
				&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: picture.White, StrokeWidth: 6}},
				&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: chokeColor, StrokeWidth: 3.5}})
			mid = from.Lerp(to, 0.5)
		}
		ball := b.nearestCellOf(ch.control, mid)
		// The ball sits on the controlling area's side, a little way
		// from the strait towards the cell's centre.
		at := mid.Lerp(ball, 0.55)
		if mid.Sub(ball).Len() > b.cell {
			items = append(items, &picture.Path{Lines: [][]picture.Point{{mid, ball}}, Style: picture.Style{Stroke: chokeColor, StrokeWidth: 1.5}})
			at = ball
		}
		items = append(items, &picture.Circle{C: at, R: 5.5, Style: picture.Style{Fill: chokeColor, Stroke: textColor, StrokeWidth: 1.2}})
	}
	return items
}

// nearestCellOf is the centre of area a's cell nearest p.
func (b *board) nearestCellOf(a int, p picture.Point) picture.Point {
	l := b.l
	best := math.Inf(1)
	var q picture.Point
	for i, x := range l.cells {
		if x != a {
			continue
		}
		c := b.cellCentre(i/l.w, i%l.w)
		if d := c.Sub(p).Len(); d < best-1e-9 {
			best, q = d, c
		}
	}
	return q
}

func square(c picture.Point, r float64) []picture.Point {
	return []picture.Point{c.Add(picture.Pt(-r, -r)), c.Add(picture.Pt(r, -r)), c.Add(picture.Pt(r, r)), c.Add(picture.Pt(-r, r))}
}

func cross(c picture.Point, r float64, col picture.Color) []picture.Item {
	return []picture.Item{
		&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-r, -r)), c.Add(picture.Pt(r, r))}, {c.Add(picture.Pt(-r, r)), c.Add(picture.Pt(r, -r))}},
			Style: picture.Style{Stroke: picture.White, StrokeWidth: 4}},
		&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-r, -r)), c.Add(picture.Pt(r, r))}, {c.Add(picture.Pt(-r, r)), c.Add(picture.Pt(r, -r))}},
			Style: picture.Style{Stroke: col, StrokeWidth: 2}},
	}
}

// contrast is black or white, whichever reads better on c.
func contrast(c picture.Color) picture.Color {
	if 0.2126*float64(c.R)+0.7152*float64(c.G)+0.0722*float64(c.B) > 140 {
		return picture.Black
	}
	return picture.White
}

// token draws a force: an army box or a navy hull centred on c with its
// label.
func token(c picture.Point, navy bool, label string, fill, stroke picture.Color, dash []float64) []picture.Item {
	w := math.Max(24, picture.TextWidth(label, 11, true)+6)
	hw, hh := w/2, 6.5
	var ring []picture.Point
	if navy {
		ring = []picture.Point{c.Add(picture.Pt(-hw-2, -hh)), c.Add(picture.Pt(hw+2, -hh)), c.Add(picture.Pt(hw-3, hh)), c.Add(picture.Pt(-hw+3, hh))}
	} else {
		k := 2.5
		ring = []picture.Point{c.Add(picture.Pt(-hw+k, -hh)), c.Add(picture.Pt(hw-k, -hh)), c.Add(picture.Pt(hw, -hh+k)), c.Add(picture.Pt(hw, hh-k)),
			c.Add(picture.Pt(hw-k, hh)), c.Add(picture.Pt(-hw+k, hh)), c.Add(picture.Pt(-hw, hh-k)), c.Add(picture.Pt(-hw, -hh+k))}
	}
	return []picture.Item{
		&picture.Path{Rings: [][]picture.Point{ring}, Style: picture.Style{Fill: fill, Stroke: stroke, StrokeWidth: 1.2, Dash: dash}},
		&picture.Text{At: c.Add(picture.Pt(0, 4)), S: label, Size: 11, Bold: true, Anchor: picture.Middle, Color: contrast(fill)},
	}
}

// company draws a company's disc.
func company(c picture.Point, res Resource, fill, stroke picture.Color, dash []float64) []picture.Item {
	return []picture.Item{
		&picture.Circle{C: c, R: companySide / 2, Style: picture.Style{Fill: fill, Stroke: stroke, StrokeWidth: 1.3, Dash: dash}},
		&picture.Text{At: c.Add(picture.Pt(0, 4)), S: resourceLetters[res], Size: 11, Bold: true, Anchor: picture.Middle, Color: contrast(fill)},
	}
}

var _ adjudicator.Drawer = (*Engine)(nil)

// Draw implements adjudicator.Drawer: the position of state (after the
// phase whose Report.Data results is, when given). Supremacy's board is
// public, so every viewer gets the same picture.
func (e *Engine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return nil, err
	}
	title := w.phaseTitle()
	var marks []mark
	if results != nil {
		var rd struct {
			Phase string `json:"phase"`
			Marks []mark `json:"marks"`
		}
		if err := json.Unmarshal(results, &rd); err != nil {
			return nil, fmt.Errorf("supremacy: results: %w", err)
		}
		title = rd.Phase + " — results"
		marks = rd.Marks
	}
	b, err := w.sc.drawing()
	if err != nil {
		return nil, err
	}
	if _, ok := w.sc.powerByID[viewer]; !ok || w.byPower[w.sc.powerByID[viewer]] < 0 {
		viewer = "" // an observer, the GM or a power not in the game: the public picture
	}
	return b.draw(w, title, marks, results != nil, viewer), nil
}

// draw pictures the position of w after a phase titled title that did
// done (phase: results were given), for viewer ("" the public
// picture; else a player in the game, whose own events are drawn larger
// and listed in a strip under the legend).
func (b *board) draw(w *world, title string, done []mark, phase bool, viewer string) *picture.Picture {
	sc := b.sc
	pd := b.drawPhase(w, done, viewer)
	height := b.h + legendHeight
	if phase && viewer != "" {
		height += stripHeight(len(pd.own))
	}
	p := &picture.Picture{Width: b.w, Height: height, Title: sc.Title + ": " + title, Background: seaColor, Palette: b.palette}
	n := len(sc.areas)
	fill := make([]picture.Color, n+3)
	for a := 0; a < n; a++ {
		switch {
		case sc.areas[a].sea:
			fill[a] = seaColor
		case w.dead[a]:
			fill[a] = deadColor
		default:
			fill[a] = landColor
			if i := w.controller(a); i >= 0 {
				fill[a] = b.tints[w.players[i].idx]
			}
		}
	}
	fill[n], fill[n+1], fill[n+2] = voidColor, voidColor, gapSeaColor
	p.Add(&picture.RegionFill{Set: b.regions, Fill: fill}, b.static)

	// Home areas of the players in the game, outlined in their colour.
	var homes []picture.Item
	for _, pl := range w.players {
		var rings [][]picture.Point
		for _, a := range sc.powers[pl.idx].homes {
			rings = append(rings, b.rings[a]...)
		}
		homes = append(homes, &picture.Path{Rings: rings, Style: picture.Style{Stroke: b.darks[pl.idx], StrokeWidth: 2.4}})
	}
	p.Add(&picture.Group{ID: "homes", Items: homes})

	var marks []picture.Item
	for a := range sc.areas {
		for k, dead := range w.cities[a] {
			if dead && k < len(b.cityAt[a]) {
				marks = append(marks, cross(b.cityAt[a][k], citySide/2, crossColor)...)
			}
		}
	}
	for c, cd := range sc.cards {
		co := cd.company
		if co == nil {
			continue
		}
		at := b.coAt[c]
		switch h := w.cardAt[c]; {
		case w.cardDed[c]:
			marks = append(marks, company(at, co.res, deadColor, textColor, nil)...)
			marks = append(marks, cross(at, 5, crossColor)...)
		case h >= 0:
			pi := w.players[h].idx
			f, st, dash := b.colors[pi], textColor, []float64(nil)
			if !w.cardOpn[c] {
				f = b.tints[pi]
			}
			if w.cardBlk[c] {
				st, dash = crossColor, []float64{2.5, 1.5}
			}
			marks = append(marks, company(at, co.res, f, st, dash)...)
		case h == cardLoose:
			marks = append(marks, company(at, co.res, picture.White, textColor, []float64{2.5, 1.5})...)
		default:
			marks = append(marks, company(at, co.res, picture.White, mutedColor, nil)...)
		}
	}
	p.Add(&picture.Group{ID: "companies", Items: marks})
	p.Add(&picture.Group{ID: "phase", Items: pd.under})

	var forces []picture.Item
	for a := range sc.areas {
		q := b.firstFree[a]
		slot := func() picture.Point {
			s := b.slots[a]
			if q < len(s) {
				q++
				return s[q-1]
			}
			// More forces than room: stack them below the last slot.
			q++
			return s[len(s)-1].Add(picture.Pt(0, float64(q-len(s))*b.cell/2))
		}
		for pi := range sc.powers {
			if n := w.army[a][pi]; n > 0 {
				forces = append(forces, token(slot(), false, b.codes[pi]+strconv.Itoa(n), b.colors[pi], textColor, nil)...)
			}
			if n := w.navy[a][pi]; n > 0 {
				forces = append(forces, token(slot(), true, b.codes[pi]+strconv.Itoa(n), b.colors[pi], textColor, nil)...)
			}
		}
		if n := w.minorA[a]; n > 0 {
			forces = append(forces, token(slot(), false, "+"+strconv.Itoa(n), picture.White, textColor, []float64{3, 2})...)
		}
		if n := w.minorN[a]; n > 0 {
			forces = append(forces, token(slot(), true, "+"+strconv.Itoa(n), picture.White, textColor, []float64{3, 2})...)
		}
	}
	p.Add(&picture.Group{ID: "forces", Items: forces})
	p.Add(&picture.Group{ID: "outcomes", Items: pd.over})
	p.Add(b.legend(w, title)...)
	if phase && viewer != "" {
		p.Add(&picture.Group{ID: "yours", Items: b.strip(float64(b.h+legendHeight), pd.own, viewer)})
	}
	return p
}

// legendKey is the legend's static part: its box and the key to the
// symbols (bottom line).
func (b *board) legendKey() []picture.Item {
	y0 := float64(b.h)
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.w), Y: y0}, {X: float64(b.w), Y: y0 + legendHeight}, {X: 0, Y: y0 + legendHeight}}},
			Style: picture.Style{Fill: legendBg, Stroke: borderColor, StrokeWidth: 1}},
	}
	y := y0 + legendHeight - 42
	x := 12.0
	entry := func(wd float64, label string, draw func(c picture.Point) []picture.Item) {
		items = append(items, draw(picture.Pt(x+wd/2, y))...)
		items = append(items, &picture.Text{At: picture.Pt(x+wd+5, y+4), S: label, Size: 12, Color: textColor})
		x += wd + 5 + picture.TextWidth(label, 12, false) + 16
	}
	c0 := picture.Colors[powerOrder[0]]
	entry(26, "armies", func(c picture.Point) []picture.Item { return token(c, false, b.codes[0]+"3", c0, textColor, nil) })
	entry(28, "navies", func(c picture.Point) []picture.Item { return token(c, true, b.codes[0]+"2", c0, textColor, nil) })
	entry(26, "a minor's armies", func(c picture.Point) []picture.Item {
		return token(c, false, "+2", picture.White, textColor, []float64{3, 2})
	})
	entry(10, "city", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Rings: [][]picture.Point{square(c, citySide/2)}, Style: picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}}}
	})
	entry(14, "company: oil, minerals, grain (owner's colour; pale: closed)", func(c picture.Point) []picture.Item {
		return company(c, Oil, c0, textColor, nil)
	})
	entry(14, "for seizure", func(c picture.Point) []picture.Item {
		return company(c, Grain, picture.White, textColor, []float64{2.5, 1.5})
	})
	entry(24, "impassable", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-12, 0)), c.Add(picture.Pt(12, 0))}}, Style: picture.Style{Stroke: impassColor, StrokeWidth: 4.5}}}
	})
	entry(24, "choke point", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-12, 0)), c.Add(picture.Pt(12, 0))}}, Style: picture.Style{Stroke: chokeColor, StrokeWidth: 4}},
			&picture.Circle{C: c, R: 5, Style: picture.Style{Fill: chokeColor, Stroke: textColor, StrokeWidth: 1.2}}}
	})
	entry(24, "border", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-12, 0)), c.Add(picture.Pt(12, 0))}}, Style: picture.Style{Stroke: linkColor, StrokeWidth: 2, Dash: []float64{5, 3}}}}
	})
	// The second line: what a phase did (drawphase.go).
	y, x = y0+legendHeight-15, 12
	d0 := c0.Mix(picture.Black, 0.3)
	arrow := func(c picture.Point, st picture.Style, head float64, hollow bool) []picture.Item {
		a := &picture.Arrow{From: c.Add(picture.Pt(-17, 0)), To: c.Add(picture.Pt(13, 0)), Head: head, Style: st}
		if hollow {
			a.HeadFill = picture.White
		}
		return arrowWithCasing(a)
	}
	entry(34, "move", func(c picture.Point) []picture.Item {
		return arrow(c, picture.Style{Stroke: d0, StrokeWidth: 2.6}, 10, false)
	})
	entry(40, "attack won", func(c picture.Point) []picture.Item {
		return append(arrow(c.Add(picture.Pt(-4, 0)), picture.Style{Stroke: d0, StrokeWidth: 4}, 13, false), burst(c.Add(picture.Pt(12, 0)), 9, 8, d0))
	})
	entry(40, "area cleared, nobody moved in", func(c picture.Point) []picture.Item {
		return append(arrow(c.Add(picture.Pt(-4, 0)), picture.Style{Stroke: d0, StrokeWidth: 4}, 13, true), burst(c.Add(picture.Pt(12, 0)), 9, 8, d0))
	})
	entry(40, "attack failed (on land or at sea)", func(c picture.Point) []picture.Item {
		it := append(arrow(c.Add(picture.Pt(-4, 0)), picture.Style{Stroke: failColor, StrokeWidth: 4}, 13, true), burst(c.Add(picture.Pt(12, 0)), 9, 8, failColor))
		return append(it, failCross(c.Add(picture.Pt(-8, 0)), 6)...)
	})
	entry(40, "ICBM hit", func(c picture.Point) []picture.Item {
		return append(arrow(c.Add(picture.Pt(-4, 0)), picture.Style{Stroke: d0, StrokeWidth: 2.4, Dash: []float64{8, 5}}, 11, false), burst(c.Add(picture.Pt(12, 0)), 11, 12, crossColor))
	})
	entry(34, "ICBM shot down", func(c picture.Point) []picture.Item {
		return append(arrow(c, picture.Style{Stroke: failColor, StrokeWidth: 2.4, Dash: []float64{8, 5}}, 11, true), failCross(c.Add(picture.Pt(13, -9)), 5)...)
	})
	entry(26, "blockade", func(c picture.Point) []picture.Item {
		return append(company(c, Oil, picture.White, textColor, nil), &picture.Circle{C: c, R: 11, Style: picture.Style{Stroke: d0, StrokeWidth: 3, Dash: []float64{4, 2.5}}})
	})
	entry(26, "company seized", func(c picture.Point) []picture.Item {
		return append(company(c, Oil, c0, textColor, nil), &picture.Circle{C: c, R: 11, Style: picture.Style{Stroke: d0, StrokeWidth: 3}})
	})
	return items
}

// legend is the legend's changing part: the phase, the market and each
// player's forces and companies.
func (b *board) legend(w *world, title string) []picture.Item {
	sc := b.sc
	y0 := float64(b.h)
	items := []picture.Item{&picture.Text{At: picture.Pt(12, y0+20), S: title, Size: 16, Bold: true, Color: textColor}}
	market := fmt.Sprintf("Market: oil %s, minerals %s, grain %s", money(w.price(Oil)), money(w.price(Minerals)), money(w.price(Grain)))
	if w.deton > 0 {
		market += fmt.Sprintf(" · land detonations %d", w.deton)
	}
	items = append(items, &picture.Text{At: picture.Pt(float64(b.w)-12, y0+20), S: market, Size: 13, Anchor: picture.End, Color: textColor})
	col := float64(b.w-24) / 4
	for k, pl := range w.players {
		i := pl.idx
		x := 12 + float64(k%4)*col
		y := y0 + 42 + float64(k/4)*20
		items = append(items, token(picture.Pt(x+13, y-4), false, b.codes[i], b.colors[i], textColor, nil)...)
		name := sc.powers[i].Name
		var detail string
		if pl.alive() {
			armies, navies := w.forces(k)
			detail = fmt.Sprintf("%d A, %d N, %d co.", armies, navies, len(w.companies(k)))
		} else {
			detail = "out (" + pl.Status + ")"
		}
		items = append(items, &picture.Text{At: picture.Pt(x+30, y), S: name, Size: 12, Bold: true, Color: textColor},
			&picture.Text{At: picture.Pt(x+34+picture.TextWidth(name, 12, true), y), S: detail, Size: 12, Color: mutedColor})
	}
	return items
}

// areaLines is what both kinds of board (grid and world map) draw of the
// areas themselves: the seas' outlines, the unplayable land's (void),
// the land borders, and the impassable borders along the edges shared
// says two areas share.
func (b *board) areaLines(void [][]picture.Point, shared func(a, c int) [][]picture.Point) []picture.Item {
	sc := b.sc
	var items []picture.Item
	for a := range sc.areas {
		if sc.areas[a].sea {
			items = append(items, &picture.Path{Rings: b.rings[a], Style: picture.Style{Stroke: seaLineColor, StrokeWidth: 1}})
		}
	}
	if len(void) > 0 {
		items = append(items, &picture.Path{Rings: void, Style: picture.Style{Stroke: picture.Hex(0x8a8680), StrokeWidth: 0.8}})
	}
	for a := range sc.areas {
		if !sc.areas[a].sea {
			items = append(items, &picture.Path{Rings: b.rings[a], Style: picture.Style{Stroke: borderColor, StrokeWidth: 1.1}})
		}
	}
	for _, k := range sortedPairs(boolPairs(sc.impass)) {
		if segs := shared(k[0], k[1]); len(segs) > 0 {
			items = append(items, &picture.Path{Lines: segs, Style: picture.Style{Stroke: impassColor, StrokeWidth: 4.5}})
		}
	}
	return items
}
