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
	dislodgedMin   = 34 // from the unit point: the boat's half width and the octagon's
	dislodgedMax   = 72
	dislodgedClear = 18 // room wanted round a dislodged unit, to its province's border
	nameReach      = 110
	nameStep       = 5
	maxNamePlaces  = 64 // of each kind
	nameOutside    = 80
	nameSpacing    = 8
)

// octagonBox is the box a dislodged unit's octagon covers.
func octagonBox(c picture.Point) picture.Rect {
	return picture.Rect{Min: c.Add(picture.Pt(-19, -19)), Max: c.Add(picture.Pt(19, 19))}
}

// place works out b.disAt, b.names and b.nameBox from the provinces'
// shapes (in pixels).
func (b *board) place(shapes [][][]picture.Point) {
	m := b.m
	n := len(m.Provinces)
	b.names = make([][]picture.Point, n)
	b.nameBox = make([]picture.Rect, n)
	b.disAt = make([]picture.Point, n)
	defaults := make([]picture.Rect, n)
	for i, p := range m.Provinces {
		t := picture.Text{At: picture.Pt(0, 4), S: p.Abbrev, Size: nameSize, Bold: p.Kind != Sea, Anchor: picture.Middle, Halo: picture.White}
		box := picture.TextBox(&t)
		if p.SupplyCenter {
			c := b.scOffset(i)
			box = union(box, picture.Rect{Min: c.Add(picture.Pt(-6, -6)), Max: c.Add(picture.Pt(6, 6))})
		}
		b.nameBox[i] = box
		defaults[i] = box.Translate(b.g.Label[i].Scale(b.scale))
	}
	for i := range m.Provinces {
		b.disAt[i] = b.dislodgedSpot(shapes[i], b.units[i], defaults[i])
		b.names[i] = b.namePlaces(i, shapes[i])
	}
}

// scOffset is where province i's centre ring stands from its name's point:
// right of the name.
func (b *board) scOffset(i int) picture.Point {
	p := b.m.Provinces[i]
	return picture.Pt(picture.TextWidth(p.Abbrev, nameSize, p.Kind != Sea)/2+7, 0)
}

func union(a, c picture.Rect) picture.Rect {
	return picture.Rect{Min: picture.Pt(math.Min(a.Min.X, c.Min.X), math.Min(a.Min.Y, c.Min.Y)),
		Max: picture.Pt(math.Max(a.Max.X, c.Max.X), math.Max(a.Max.Y, c.Max.Y))}
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

// clearance is q's distance to the nearest of the edges.
func clearance(q picture.Point, es [][]picture.Point) float64 {
	best := math.Inf(1)
	for _, e := range es {
		a, c := e[0], e[1]
		v := c.Sub(a)
		t := 0.0
		if l2 := v.X*v.X + v.Y*v.Y; l2 > 0 {
			t = math.Max(0, math.Min(1, ((q.X-a.X)*v.X+(q.Y-a.Y)*v.Y)/l2))
		}
		best = math.Min(best, q.Sub(a.Add(v.Scale(t))).Len())
	}
	return best
}

// dislodgedSpot is where a unit dislodged from the province with the shape
// rings and unit point u stands: inside the province, off u by the width
// of two tokens, with room round it to the border where the province has
// it, off the province's name, as near u as that allows (an island too
// small for that has it just off its coast).
func (b *board) dislodgedSpot(rings [][]picture.Point, u picture.Point, name picture.Rect) picture.Point {
	es := edgesNear(rings, u.Y-dislodgedMax-dislodgedClear, u.Y+dislodgedMax+dislodgedClear)
	best, bestScore := u.Add(picture.Pt(dislodgedMin*0.75, dislodgedMin*0.75)), math.Inf(-1)
	for y := -dislodgedMax; y <= dislodgedMax; y += 3 {
		for x := -dislodgedMax; x <= dislodgedMax; x += 3 {
			q := u.Add(picture.Pt(float64(x), float64(y)))
			d := q.Sub(u).Len()
			if d < dislodgedMin || d > dislodgedMax {
				continue
			}
			// Inside, with room; or, in a province too small for that
			// (an island), as near its border as can be.
			score := 20*math.Min(clearance(q, es), dislodgedClear) - d
			if !insideEdges(q, es) {
				score = -1000 - 20*clearance(q, es) - d
			}
			if octagonBox(q).Overlaps(name) {
				score -= 200
			}
			if score > bestScore {
				best, bestScore = q, score
			}
		}
	}
	return best
}

// namePlaces lists where province i's name may stand: the map's own
// place; then places whose box lies inside the province, then those whose
// middle does, nearest first; last, for a small province in a crowded
// picture, places just outside it. Which is free depends on the picture's
// units and marks (placeNames).
func (b *board) namePlaces(i int, rings [][]picture.Point) []picture.Point {
	def := b.g.Label[i].Scale(b.scale)
	box := b.nameBox[i]
	out := []picture.Point{def}
	es := edgesNear(rings, def.Y+box.Min.Y-nameReach-1, def.Y+box.Max.Y+nameReach+1)
	border := &picture.Path{Lines: es}
	type cand struct {
		q picture.Point
		d float64
	}
	var cands []cand
	for y := -nameReach; y <= nameReach; y += nameStep {
		for x := -nameReach; x <= nameReach; x += nameStep {
			q := def.Add(picture.Pt(float64(x), float64(y)))
			q = picture.Pt(math.Round(q.X), math.Round(q.Y))
			if d := q.Sub(def).Len(); d > 0 && d <= nameReach {
				cands = append(cands, cand{q, d})
			}
		}
	}
	sort.SliceStable(cands, func(a, c int) bool { return cands[a].d < cands[c].d })
	for tier := 0; tier < 3; tier++ {
		n := 0
		for _, c := range cands {
			if n >= maxNamePlaces {
				break
			}
			r := box.Translate(c.q)
			switch tier {
			case 0:
				if !insideEdges(r.Min.Lerp(r.Max, 0.5), es) || picture.Touches(border, r) {
					continue
				}
			case 1:
				if !insideEdges(r.Min.Lerp(r.Max, 0.5), es) {
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
// first of its places no item of marks touches.
func (b *board) placeNames(sl *slab, pos *Position, marks ...*picture.Group) (names, centres []picture.Item) {
	m := b.m
	var obs []obstacle
	for _, g := range marks {
		obs = leaves(obs, g.Items)
	}
	names, centres = sl.list(len(m.Provinces)), sl.list(len(m.scs))
	for i, p := range m.Provinces {
		// The first free place; when none is, the least covered. The box
		// is grown by a pixel for the rounding of letters to pixels.
		at, least := b.names[i][0], len(obs)+1
		for _, q := range b.names[i] {
			r := b.nameBox[i].Translate(q).Grow(1)
			n := 0
			for _, o := range obs {
				if o.box.Overlaps(r) && picture.Touches(o.it, r) {
					if n++; n >= least {
						break
					}
				}
			}
			if n < least {
				at, least = q, n
			}
			if n == 0 {
				break
			}
		}
		c := textColor
		if p.Kind == Sea {
			c = seaTextColor
		}
		names = append(names, sl.text(picture.Text{At: at.Add(picture.Pt(0, 4)), S: p.Abbrev, Size: nameSize, Bold: p.Kind != Sea, Anchor: picture.Middle, Color: c, Halo: picture.White.Alpha(200)}))
		if p.SupplyCenter {
			st := picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}
			if o := pos.Owners[p.ID]; o != "" {
				st.Fill = b.colors[m.powerIdx[o]]
			}
			centres = append(centres, sl.circle(picture.Circle{C: at.Add(b.scOffset(i)), R: 4.5, Style: st}))
		}
	}
	return names, centres
}
