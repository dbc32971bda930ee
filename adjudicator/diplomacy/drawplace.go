package diplomacy

import (
	"math"
	"sort"

	"pbemd/picture"
)

// This file places what the map's geometry does not: where a unit
// dislodged from a province stands (inside it, clear of the unit that
// took it), and where a province's name (with its centre ring) may stand
// so that no unit, arrow or mark of a picture covers it. Both are worked
// out once per map, from the province shapes in picture pixels; each
// picture then picks, per name, the first place its marks leave clear.

// Search radii and steps of the placement, in picture pixels.
const (
	dislodgedMin      = 34 // from the unit point: the boat's half width and the octagon's
	dislodgedMax      = 72
	dislodgedClear    = 18 // room wanted round a dislodged unit, to its province's border
	dislodgedApart    = 26 // between the spots of one province
	dislodgedWorse    = 0  // the least score of a spot not the best: inside, some room
	maxDislodgedSpots = 4
	nameReach         = 110
	nameStep          = 5
	maxNamePlaces     = 64 // of each kind
	nameOutside       = 80
	nameSpacing       = 8
)

// octagonBox is the box a dislodged unit's octagon covers (k scales it).
func octagonBox(c picture.Point, k float64) picture.Rect {
	return picture.Rect{Min: c.Add(picture.Pt(-19*k, -19*k)), Max: c.Add(picture.Pt(19*k, 19*k))}
}

// place works out b.disAt, b.names and b.nameBox from the provinces'
// shapes (in pixels).
func (b *board) place(shapes [][][]picture.Point) {
	m := b.m
	n := len(m.Provinces)
	b.names = make([][]picture.Point, n)
	b.nameBox = make([]picture.Rect, n)
	b.disAt = make([][]picture.Point, n)
	b.scOff = make([]picture.Point, n)
	grid := newLabelGrid(shapes, b.w, b.h)
	grid.k = b.mk
	offsets := nameOffsets()
	for i, p := range m.Provinces {
		t := picture.Text{At: picture.Pt(0, 4*b.mk), S: p.Abbrev, Size: nameSize * b.mk, Bold: p.Kind != Sea, Anchor: picture.Middle, Halo: picture.White}
		box := picture.TextBox(&t)
		b.scOff[i] = picture.Pt(picture.TextWidth(p.Abbrev, nameSize*b.mk, p.Kind != Sea)/2+7*b.mk, 0)
		if p.SupplyCenter {
			c, r := b.scOff[i], 6*b.mk
			box = union(box, picture.Rect{Min: c.Add(picture.Pt(-r, -r)), Max: c.Add(picture.Pt(r, r))})
		}
		b.nameBox[i] = box
		def := b.g.Label[i].Scale(b.scale)
		b.disAt[i] = grid.dislodgedSpots(i, b.units[i], box.Translate(def))
		b.names[i] = grid.namePlaces(i, def, box, offsets)
	}
}

func union(a, c picture.Rect) picture.Rect {
	return picture.Rect{Min: picture.Pt(math.Min(a.Min.X, c.Min.X), math.Min(a.Min.Y, c.Min.Y)),
		Max: picture.Pt(math.Max(a.Max.X, c.Max.X), math.Max(a.Max.Y, c.Max.Y))}
}

// labelGrid is the board's provinces drawn into pixels: each pixel holds
// the index of the province covering its centre, or -1. Placing asks it
// what is inside a province in one look-up each.
type labelGrid struct {
	w, h int
	lab  []int32
	k    float64 // the board's marks' scale (Geometry.Marks): dislodged spots are searched that much farther
}

// newLabelGrid fills each shape's rings (even-odd) row by row.
func newLabelGrid(shapes [][][]picture.Point, w, h int) *labelGrid {
	g := &labelGrid{w: w, h: h, lab: make([]int32, w*h), k: 1}
	for k := range g.lab {
		g.lab[k] = -1
	}
	var xs []float64
	for i, rings := range shapes {
		xs = fillRows(rings, w, h, xs, func(y, x0, x1 int) {
			for x := x0; x <= x1; x++ {
				g.lab[y*w+x] = int32(i)
			}
		})
	}
	return g
}

// in reports whether q is in province i.
func (g *labelGrid) in(i int, q picture.Point) bool {
	x, y := int(math.Floor(q.X)), int(math.Floor(q.Y))
	return x >= 0 && y >= 0 && x < g.w && y < g.h && g.lab[y*g.w+x] == int32(i)
}

// room is how far round q, up to limit, province i reaches every way
// (sixteen ways, two pixels apart).
func (g *labelGrid) room(i int, q picture.Point, limit float64) float64 {
	for r := 2.0; r <= limit; r += 2 {
		for _, u := range sixteenWays {
			if !g.in(i, q.Add(u.Scale(r))) {
				return r - 2
			}
		}
	}
	return limit
}

// sixteenWays are unit vectors a sixteenth of a turn apart.
var sixteenWays = [16]picture.Point{{X: 1, Y: 0}, {X: 0.9239, Y: 0.3827}, {X: 0.7071, Y: 0.7071}, {X: 0.3827, Y: 0.9239},
	{X: 0, Y: 1}, {X: -0.3827, Y: 0.9239}, {X: -0.7071, Y: 0.7071}, {X: -0.9239, Y: 0.3827},
	{X: -1, Y: 0}, {X: -0.9239, Y: -0.3827}, {X: -0.7071, Y: -0.7071}, {X: -0.3827, Y: -0.9239},
	{X: 0, Y: -1}, {X: 0.3827, Y: -0.9239}, {X: 0.7071, Y: -0.7071}, {X: 0.9239, Y: -0.3827}}

// boxIn reports whether the rectangle r lies in province i (its edges
// looked at every two pixels).
func (g *labelGrid) boxIn(i int, r picture.Rect) bool {
	for x := r.Min.X; x <= r.Max.X+1; x += 2 {
		x := math.Min(x, r.Max.X)
		if !g.in(i, picture.Pt(x, r.Min.Y)) || !g.in(i, picture.Pt(x, r.Max.Y)) {
			return false
		}
	}
	for y := r.Min.Y; y <= r.Max.Y+1; y += 2 {
		y := math.Min(y, r.Max.Y)
		if !g.in(i, picture.Pt(r.Min.X, y)) || !g.in(i, picture.Pt(r.Max.X, y)) {
			return false
		}
	}
	return true
}

// edgesNear returns the edges of rings (each a two-point line) whose
// y-range meets [y0, y1]: all a ray along a row in that band can cross.
func edgesNear(rings [][]picture.Point, y0, y1 float64) [][]picture.Point {
	var out [][]picture.Point
	for _, r := range rings {
		for k := range r {
			a, c := r[k], r[(k+1)%len(r)]
			if math.Max(a.Y, c.Y) >= y0 && math.Min(a.Y, c.Y) <= y1 {
				out = append(out, []picture.Point{a, c})
			}
		}
	}
	return out
}

// insideEdges reports whether q is inside the shape whose edges (those of
// q's row at least) are es: the even-odd rule.
func insideEdges(q picture.Point, es [][]picture.Point) bool {
	in := false
	for _, e := range es {
		a, c := e[0], e[1]
		if (a.Y > q.Y) != (c.Y > q.Y) && q.X < (c.X-a.X)*(q.Y-a.Y)/(c.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// dislodgedSpots are where a unit dislodged from province i, whose unit
// point is u, may stand, best first: inside the province, off u by the
// width of two tokens, with room round it to the border where the
// province has it, off the province's name, as near u as that allows (an
// island too small for that has it just off its coast). The others are
// as good but for a little, apart from each other, for a picture whose
// arrows cross the best.
func (g *labelGrid) dislodgedSpots(i int, u picture.Point, name picture.Rect) []picture.Point {
	var out []picture.Point
	for len(out) < maxDislodgedSpots {
		q, score := g.dislodgedSpot(i, u, name, out)
		if len(out) > 0 && score < dislodgedWorse {
			break
		}
		out = append(out, q)
	}
	return out
}

// dislodgedSpot is the best spot at least dislodgedApart from each of
// taken, and its score.
func (g *labelGrid) dislodgedSpot(i int, u picture.Point, name picture.Rect, taken []picture.Point) (picture.Point, float64) {
	k := g.k
	best, bestScore := u.Add(picture.Pt(dislodgedMin*0.75*k, dislodgedMin*0.75*k)), math.Inf(-1)
next:
	for y := -dislodgedMax * k; y <= dislodgedMax*k; y += 3 * k {
		for x := -dislodgedMax * k; x <= dislodgedMax*k; x += 3 * k {
			q := u.Add(picture.Pt(x, y))
			d := q.Sub(u).Len()
			if d < dislodgedMin*k || d > dislodgedMax*k {
				continue
			}
			for _, t := range taken {
				if q.Sub(t).Len() < dislodgedApart*k {
					continue next
				}
			}
			// Inside, with room; or, in a province too small for that
			// (an island), as near it as can be.
			score := -1000 - 2*d
			penalty := 0.0
			if octagonBox(q, k).Overlaps(name) {
				penalty = 200
			}
			if g.in(i, q) {
				if 20*dislodgedClear*k-d-penalty <= bestScore {
					continue // cannot beat the best, whatever its room
				}
				score = 20*g.room(i, q, dislodgedClear*k) - d
			}
			score -= penalty
			if score > bestScore {
				best, bestScore = q, score
			}
		}
	}
	return best, bestScore
}

// offset is a place for a name from the map's own, and how far that is.
type offset struct {
	v picture.Point
	d float64
}

// nameOffsets are the places a name may move to from its own, nearest
// first.
func nameOffsets() []offset {
	var out []offset
	for y := -nameReach; y <= nameReach; y += nameStep {
		for x := -nameReach; x <= nameReach; x += nameStep {
			v := picture.Pt(float64(x), float64(y))
			if d := v.Len(); d > 0 && d <= nameReach {
				out = append(out, offset{v, d})
			}
		}
	}
	sort.SliceStable(out, func(a, c int) bool { return out[a].d < out[c].d })
	return out
}

// namePlaces lists where province i's name (its box around the point
// box) may stand: the map's own place def; then places whose box lies in
// the province, then those whose middle does, nearest first; last, for a
// small province in a crowded picture, places just outside it. Which is
// free depends on the picture's units and marks (placeNames).
func (g *labelGrid) namePlaces(i int, def picture.Point, box picture.Rect, offsets []offset) []picture.Point {
	out := []picture.Point{def}
	at := picture.Pt(math.Round(def.X), math.Round(def.Y))
	for tier := 0; tier < 3; tier++ {
		n := 0
		for _, o := range offsets {
			if n >= maxNamePlaces {
				break
			}
			c := struct {
				q picture.Point
				d float64
			}{at.Add(o.v), o.d}
			r := box.Translate(c.q)
			switch tier {
			case 0:
				if !g.boxIn(i, r) {
					continue
				}
			case 1:
				if !g.in(i, r.Min.Lerp(r.Max, 0.5)) {
					continue
				}
			default:
				if c.d > nameOutside {
					continue
				}
			}
			near := false
			for _, o := range out {
				if o.Sub(c.q).Len() < nameSpacing*float64(1+tier/2) {
					near = true
					break
				}
			}
			if !near {
				out = append(out, c.q)
				n++
			}
		}
	}
	return out
}

// obstacle is a mark of a picture with its bounds.
type obstacle struct {
	it  picture.Item
	box picture.Rect
}

// leaves appends the items of items, groups opened, with their bounds.
func leaves(dst []obstacle, items []picture.Item) []obstacle {
	for _, it := range items {
		if g, ok := it.(*picture.Group); ok {
			dst = leaves(dst, g.Items)
			continue
		}
		dst = append(dst, obstacle{it, picture.Bounds(it)})
	}
	return dst
}

// placeNames draws each province's name, and its centre ring, at the
// first of its places no item of marks touches: names at the map's own
// places stay there, and a name that must move takes a place clear of
// every other name too.
func (b *board) placeNames(sl *slab, pos *Position, marks ...*picture.Group) (names, centres []picture.Item) {
	m := b.m
	var obs []obstacle
	for _, g := range marks {
		obs = leaves(obs, g.Items)
	}
	// covered counts, up to limit, the marks (and the names of taken)
	// over a name's box at q. The box is grown by a pixel for the
	// rounding of letters to pixels.
	var taken []picture.Rect
	covered := func(i int, q picture.Point, limit int) int {
		r := b.nameBox[i].Translate(q).Grow(1)
		n := 0
		for _, t := range taken {
			if t.Overlaps(r) {
				n++
			}
		}
		for _, o := range obs {
			if n >= limit {
				break
			}
			if o.box.Overlaps(r) && picture.Touches(o.it, r) {
				n++
			}
		}
		return n
	}
	at := make([]picture.Point, len(m.Provinces))
	var moving []int
	for i := range m.Provinces {
		at[i] = b.names[i][0]
		if covered(i, at[i], 1) == 0 {
			taken = append(taken, b.nameBox[i].Translate(at[i]))
		} else {
			moving = append(moving, i)
		}
	}
	for _, i := range moving {
		// The first free place; when none is, the least covered.
		least := len(obs) + len(taken) + 1
		for _, q := range b.names[i] {
			n := covered(i, q, least)
			if n < least {
				at[i], least = q, n
			}
			if n == 0 {
				break
			}
		}
		taken = append(taken, b.nameBox[i].Translate(at[i]))
	}
	names, centres = sl.list(len(m.Provinces)), sl.list(len(m.scs))
	for i, p := range m.Provinces {
		c := textColor
		if p.Kind == Sea {
			c = seaTextColor
		}
		names = append(names, sl.text(picture.Text{At: at[i].Add(picture.Pt(0, 4*b.mk)), S: p.Abbrev, Size: nameSize * b.mk, Bold: p.Kind != Sea, Anchor: picture.Middle, Color: c, Halo: picture.White.Alpha(200)}))
		if p.SupplyCenter {
			st := picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4 * b.mk}
			if o := pos.Owners[p.ID]; o != "" {
				st.Fill = b.colors[m.powerIdx[o]]
			}
			centres = append(centres, sl.circle(picture.Circle{C: at[i].Add(b.scOff[i]), R: 4.5 * b.mk, Style: st}))
		}
	}
	return names, centres
}
