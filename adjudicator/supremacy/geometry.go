package supremacy

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"pbemd/picture"
)

// This file draws a scenario's world as a map of its real geography,
// when the scenario ships a geometry file beside it (scenarios/NAME.geo,
// made by internal/mapgeo -scenario from Natural Earth's coastlines and
// our own sketch of the areas, internal/mapgeo/supremacy.sketch). Each
// area is its region of the world (each sea a region of its ocean), named
// in full; cities, companies and forces stand round the point farthest
// from the area's borders. A scenario without a geometry file is drawn
// from its layout's grid (draw.go).
//
// The file is read and parsed at the first picture of its scenario, never
// at start-up.

//go:embed scenarios/*.geo
var geometryFiles embed.FS

// geoScale is the picture's size against the geometry file's coordinates
// (mapgeo traces at twice the picture's resolution).
const geoScale = 0.5

// geometry is a parsed geometry file, in picture pixels.
type geometry struct {
	w, h   int
	shapes map[string][][]picture.Point // "-land" and "-water": unplayable
	unit   map[string]picture.Point     // where an area's pieces gather
	label  map[string]picture.Point     // where its name stands
	coast  map[string]picture.Point     // where a chokepoint's strait is
	links  []geoLink
}

// geoLink is a border the shapes cannot show, drawn as a dashed line
// between the nearest border points of its two areas.
type geoLink struct {
	a, b     string
	from, to picture.Point
}

// readGeometry parses the geometry file of the embedded scenario name, or
// returns nil when there is none.
func readGeometry(name string) (*geometry, error) {
	data, err := geometryFiles.ReadFile("scenarios/" + name + ".geo")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g := &geometry{shapes: map[string][][]picture.Point{}, unit: map[string]picture.Point{}, label: map[string]picture.Point{}, coast: map[string]picture.Point{}}
	pts := func(s string) ([]picture.Point, error) {
		f := strings.Fields(s)
		out := make([]picture.Point, 0, len(f))
		for _, xy := range f {
			xs, ys, ok := strings.Cut(xy, ",")
			x, err1 := strconv.Atoi(xs)
			y, err2 := strconv.Atoi(ys)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("bad point %q", xy)
			}
			out = append(out, picture.Pt(float64(x)*geoScale, float64(y)*geoScale))
		}
		return out, nil
	}
	for no, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		fields := strings.Split(rest, "|")
		name := strings.TrimSpace(fields[0])
		var ps [][]picture.Point
		for _, f := range fields[1:] {
			p, err := pts(f)
			if err != nil {
				return nil, fmt.Errorf("supremacy: %s.geo line %d: %w", name, no+1, err)
			}
			ps = append(ps, p)
		}
		bad := func() error { return fmt.Errorf("supremacy: geometry %s line %d: malformed %s", name, no+1, key) }
		switch key {
		case "geo-size":
			f := strings.Fields(rest)
			if len(f) != 2 {
				return nil, bad()
			}
			w, err1 := strconv.Atoi(f[0])
			h, err2 := strconv.Atoi(f[1])
			if err1 != nil || err2 != nil {
				return nil, bad()
			}
			g.w, g.h = int(float64(w)*geoScale), int(float64(h)*geoScale)
		case "geo-shape":
			if len(ps) != 1 || len(ps[0]) < 3 {
				return nil, bad()
			}
			g.shapes[name] = append(g.shapes[name], ps[0])
		case "geo-place":
			if len(ps) != 2 || len(ps[0]) != 1 || len(ps[1]) != 1 {
				return nil, bad()
			}
			g.unit[name], g.label[name] = ps[0][0], ps[1][0]
		case "geo-coast":
			if len(ps) != 1 || len(ps[0]) != 1 {
				return nil, bad()
			}
			g.coast[name] = ps[0][0]
		case "geo-link":
			ids := strings.Fields(name)
			if len(ids) != 2 || len(ps) != 1 || len(ps[0]) != 2 {
				return nil, bad()
			}
			g.links = append(g.links, geoLink{a: ids[0], b: ids[1], from: ps[0][0], to: ps[0][1]})
		case "geo-colour", "geo-wrap":
			// Colours are the engine's own; the picture is not drawn
			// across the cut of a board of the whole world (geo-wrap).
		default:
			return nil, bad()
		}
	}
	if g.w <= 0 || g.h <= 0 {
		return nil, fmt.Errorf("supremacy: geometry of %s has no geo-size", name)
	}
	return g, nil
}

// newGeoBoard builds the board of a scenario from its geometry: the same
// pieces a grid board has (draw.go), placed on the world's shapes.
func newGeoBoard(sc *Scenario, g *geometry) (*board, error) {
	const cell = 28 // a slot is half a cell high, as on the grid
	b := &board{sc: sc, cell: cell, w: g.w, h: g.h}
	b.initColours()
	n := len(sc.areas)
	var shapes [][][]picture.Point
	var names []string
	for a := 0; a < n; a++ {
		id := sc.areas[a].ID
		rings, ok := g.shapes[id]
		_, placed := g.unit[id]
		if !ok || !placed {
			return nil, fmt.Errorf("supremacy: geometry of %s: area %s has no shape or no place", sc.Name, id)
		}
		b.rings = append(b.rings, rings)
		shapes = append(shapes, rings)
		names = append(names, sc.areas[a].ID+" "+sc.areas[a].Name)
	}
	shapes = append(shapes, g.shapes["-land"], nil, g.shapes["-water"])
	names = append(names, "", "", "")
	b.regions = picture.NewRegions("areas", shapes, names)

	items := b.areaLines(g.shapes["-land"], func(a, c int) [][]picture.Point { return sharedSegments(b.rings[a], b.rings[c]) })
	for _, lk := range g.links {
		_, okA := sc.areaByID[lk.a]
		_, okB := sc.areaByID[lk.b]
		if !okA || !okB {
			return nil, fmt.Errorf("supremacy: geometry of %s: link %s %s names an unknown area", sc.Name, lk.a, lk.b)
		}
		// The line runs between the two areas' nearest border points,
		// from just inside one to just inside the other.
		from := innerPoint(b.rings[sc.areaByID[lk.a]], lk.from, 3.5)
		to := innerPoint(b.rings[sc.areaByID[lk.b]], lk.to, 3.5)
		items = append(items,
			&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: picture.White, StrokeWidth: 4}},
			&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: linkColor, StrokeWidth: 2, Dash: []float64{5, 3}}},
			&picture.Circle{C: from, R: 3, Style: picture.Style{Fill: linkColor}},
			&picture.Circle{C: to, R: 3, Style: picture.Style{Fill: linkColor}})
	}
	for _, ch := range sc.chokes {
		at, ok := g.coast[ch.ID]
		if !ok {
			return nil, fmt.Errorf("supremacy: geometry of %s: chokepoint %s has no geo-coast", sc.Name, ch.ID)
		}
		// The strait runs from the nearest point of one sea to the
		// nearest of the other; the ball stands in the controlling area.
		pa := innerPoint(b.rings[ch.seas[0]], nearestOn(b.rings[ch.seas[0]], at), 4)
		pb := innerPoint(b.rings[ch.seas[1]], nearestOn(b.rings[ch.seas[1]], at), 4)
		ball := nearestOn(b.rings[ch.control], at)
		if v := g.unit[sc.areas[ch.control].ID].Sub(ball); v.Len() > 0 {
			ball = ball.Add(v.Scale(math.Min(6, v.Len()) / v.Len()))
		}
		items = append(items,
			&picture.Path{Lines: [][]picture.Point{{pa, pb}}, Style: picture.Style{Stroke: picture.White, StrokeWidth: 6}},
			&picture.Path{Lines: [][]picture.Point{{pa, pb}}, Style: picture.Style{Stroke: chokeColor, StrokeWidth: 3.5}},
			&picture.Circle{C: ball, R: 5.5, Style: picture.Style{Fill: chokeColor, Stroke: textColor, StrokeWidth: 1.2}})
	}

	b.slots = make([][]picture.Point, n)
	b.cityAt = make([][]picture.Point, n)
	b.coAt = make([]picture.Point, len(sc.cards))
	b.firstFree = make([]int, n)
	b.anchors = make([][]picture.Point, n)
	var labels, cities []picture.Item
	for a := 0; a < n; a++ {
		unit := g.unit[sc.areas[a].ID]
		b.anchors[a] = []picture.Point{unit}
		b.slots[a] = geoSlots(b.rings[a], unit, cell)
	}
	for a, at := range placeLabels(sc, g, b.slots) {
		ar := sc.areas[a]
		col := textColor
		if ar.sea {
			col = seaTextColor
		}
		lines := nameLines(ar.Name, !ar.sea)
		for i, line := range lines {
			labels = append(labels, &picture.Text{At: at.Add(picture.Pt(0, -float64(len(lines)-1-i)*labelSize)), S: line, Size: labelSize, Bold: !ar.sea, Anchor: picture.Middle, Color: col, Halo: picture.White.Alpha(190)})
		}
	}
	for a := 0; a < n; a++ {
		cities = append(cities, b.placeIcons(a)...)
	}
	items = append(items, cities...)
	items = append(items, labels...)
	items = append(items, b.legendKey()...)
	b.static = picture.NewLayer("map", items...)
	b.initPalette()
	return b, nil
}

// labelSlots is how many of an area's first slots (where its cities,
// companies and first forces stand) other areas' names keep clear of.
const labelSlots = 3

// placeLabels returns where each area's name stands (the baseline of its
// last line): at the geometry's label point, unless that covers a name
// already placed or the first slots of an area; then at the first clear
// one of a few points round it. When none is clear (a crowded corner of
// the map), at the one of them that covers least: another name counts for
// most (two names written over each other cannot be read), then the
// name's corners that stand out of its area, then the slots it covers. Land names are placed before
// sea names, and small areas before large ones (they have less room).
func placeLabels(sc *Scenario, g *geometry, slots [][]picture.Point) []picture.Point {
	n := len(sc.areas)
	type box struct{ x0, y0, x1, y1 float64 }
	overlap := func(p, q box) float64 {
		return math.Max(0, math.Min(p.x1, q.x1)-math.Max(p.x0, q.x0)) * math.Max(0, math.Min(p.y1, q.y1)-math.Max(p.y0, q.y0))
	}
	var taken []box
	for a := 0; a < n; a++ {
		for _, s := range slots[a][:min(labelSlots, len(slots[a]))] {
			taken = append(taken, box{s.X - 13, s.Y - 7, s.X + 13, s.Y + 7})
		}
	}
	// Names keep this far apart, or two side by side read as one.
	const nameGap = 2
	var names []box
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	span := func(a int) float64 {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, r := range g.shapes[sc.areas[a].ID] {
			for _, p := range r {
				x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
			}
		}
		return (x1 - x0) * (y1 - y0)
	}
	spans := make([]float64, n)
	for a := range spans {
		spans[a] = span(a)
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, c := order[i], order[j]
		if sc.areas[a].sea != sc.areas[c].sea {
			return !sc.areas[a].sea
		}
		return spans[a] < spans[c]
	})
	// Up and to the sides first (the glyphs stand below a name's point).
	moves := []picture.Point{{}, {X: 0, Y: -8}, {X: -20, Y: 0}, {X: 20, Y: 0}, {X: 0, Y: -16},
		{X: -30, Y: -10}, {X: 30, Y: -10}, {X: -40, Y: 0}, {X: 40, Y: 0}, {X: 0, Y: -26},
		{X: 0, Y: 10}, {X: -30, Y: 10}, {X: 30, Y: 10}, {X: 0, Y: 20},
		{X: -50, Y: -16}, {X: 50, Y: -16}, {X: -50, Y: 16}, {X: 50, Y: 16}}
	out := make([]picture.Point, n)
	for _, a := range order {
		ar := sc.areas[a]
		lines := nameLines(ar.Name, !ar.sea)
		half := 0.0
		for _, l := range lines {
			half = math.Max(half, picture.TextWidth(l, labelSize, !ar.sea)/2)
		}
		// A name at the map's edge is moved in whole.
		inMap := func(p picture.Point) picture.Point {
			return picture.Pt(math.Max(half+2, math.Min(float64(g.w)-half-2, p.X)), p.Y)
		}
		boxAt := func(p picture.Point) box {
			return box{p.X - half, p.Y - float64(len(lines))*labelSize + 2, p.X + half, p.Y + 3}
		}
		cover := func(p picture.Point, outside bool) float64 {
			bx := boxAt(p)
			c := 0.0
			for _, t := range taken {
				c += overlap(bx, t)
			}
			wide := box{bx.x0 - nameGap, bx.y0 - nameGap, bx.x1 + nameGap, bx.y1 + nameGap}
			for _, t := range names {
				if o := overlap(wide, t); o > 0 {
					c += 1e4 + o
				}
			}
			if bx.y0 < 0 || bx.y1 > float64(g.h) {
				c += 1e6
			}
			// A name standing out of its area seems to name its
			// neighbour.
			for _, q := range []picture.Point{p, {X: bx.x0, Y: bx.y0}, {X: bx.x1, Y: bx.y0}, {X: bx.x0, Y: bx.y1}, {X: bx.x1, Y: bx.y1}} {
				if outside && !insideRings(g.shapes[ar.ID], q) {
					c += 300
				}
			}
			return c
		}
		at, found := inMap(g.label[ar.ID]), false
		for _, d := range moves {
			if p := inMap(g.label[ar.ID].Add(d)); cover(p, false) == 0 {
				at, found = p, true
				break
			}
		}
		if !found {
			best := math.Inf(1)
			for _, d := range moves {
				p := inMap(g.label[ar.ID].Add(d))
				if c := cover(p, true); c < best {
					at, best = p, c
				}
			}
		}
		out[a] = at
		names = append(names, boxAt(at))
	}
	return out
}

// nameLines is an area's full name as its label shows it: on two lines,
// broken at the space nearest the middle, when it is long.
func nameLines(name string, bold bool) []string {
	if picture.TextWidth(name, labelSize, bold) <= 90 {
		return []string{name}
	}
	best := -1
	for i, ch := range name {
		if ch == ' ' && (best < 0 || math.Abs(float64(i)-float64(len(name))/2) < math.Abs(float64(best)-float64(len(name))/2)) {
			best = i
		}
	}
	if best < 0 {
		return []string{name}
	}
	return []string{name[:best], name[best+1:]}
}

// geoSlots lists an area's slots (the centres of half-cell boxes, each a
// token or two icons wide) round its unit point: first those whose box
// lies inside the area, nearest below the point first, then, for a small
// area, those that overflow it.
func geoSlots(rings [][]picture.Point, at picture.Point, cell float64) []picture.Point {
	type cand struct {
		p     picture.Point
		score float64
	}
	var in, out []cand
	for j := -2; j <= 8; j++ {
		for i := -5; i <= 5; i++ {
			p := at.Add(picture.Pt(float64(i)*cell, float64(j)*cell/2))
			s := math.Hypot(float64(i)*cell, float64(j)*cell/2*1.6)
			if j < 0 {
				s += 200 // above the unit point stands the name
			}
			c := cand{p, s}
			if insideRings(rings, p) && insideRings(rings, p.Add(picture.Pt(-cell/2+2, 0))) && insideRings(rings, p.Add(picture.Pt(cell/2-2, 0))) {
				in = append(in, c)
			} else {
				out = append(out, c)
			}
		}
	}
	by := func(cs []cand) {
		sort.SliceStable(cs, func(x, y int) bool { return cs[x].score < cs[y].score })
	}
	by(in)
	by(out)
	var slots []picture.Point
	for _, c := range in {
		slots = append(slots, c.p)
	}
	for k := 0; len(slots) < 8 && k < len(out); k++ {
		slots = append(slots, out[k].p)
	}
	if len(slots) > 24 {
		slots = slots[:24]
	}
	return slots
}

// insideRings reports whether p lies inside rings (even-odd).
func insideRings(rings [][]picture.Point, p picture.Point) bool {
	in := false
	for _, r := range rings {
		for i := range r {
			a, c := r[i], r[(i+1)%len(r)]
			if (a.Y > p.Y) != (c.Y > p.Y) && p.X < a.X+(p.Y-a.Y)*(c.X-a.X)/(c.Y-a.Y) {
				in = !in
			}
		}
	}
	return in
}

// nearestOn is the point of rings' outlines nearest p.
func nearestOn(rings [][]picture.Point, p picture.Point) picture.Point {
	best, out := math.Inf(1), p
	for _, r := range rings {
		for i := range r {
			a, c := r[i], r[(i+1)%len(r)]
			v := c.Sub(a)
			t := 0.0
			if l := v.X*v.X + v.Y*v.Y; l > 0 {
				t = math.Max(0, math.Min(1, ((p.X-a.X)*v.X+(p.Y-a.Y)*v.Y)/l))
			}
			q := a.Add(v.Scale(t))
			if d := q.Sub(p).Len(); d < best {
				best, out = d, q
			}
		}
	}
	return out
}

// sharedSegments returns the edges of x's rings whose two ends are both
// corners of y's rings: their common border (mapgeo traces each border
// once, so neighbours share its points exactly).
func sharedSegments(x, y [][]picture.Point) [][]picture.Point {
	corner := map[picture.Point]bool{}
	for _, r := range y {
		for _, p := range r {
			corner[p] = true
		}
	}
	var segs [][]picture.Point
	for _, r := range x {
		for i := range r {
			a, c := r[i], r[(i+1)%len(r)]
			if corner[a] && corner[c] {
				segs = append(segs, []picture.Point{a, c})
			}
		}
	}
	return segs
}

// borderPoints returns, on a world map, two points either side of the
// border between areas x and y (or of the water between them), half a
// cell apart: where an attack's arrow crosses.
func (b *board) borderPoints(x, y int) (picture.Point, picture.Point) {
	ax, ay := b.anchors[x][0], b.anchors[y][0]
	p := nearestOn(b.rings[x], ay)
	c := p.Lerp(nearestOn(b.rings[y], p), 0.5)
	u := ay.Sub(ax)
	if u.Len() == 0 {
		return ax, ay
	}
	u = u.Scale(b.cell / 2 / u.Len())
	return c.Sub(u), c.Add(u)
}

// innerPoint returns the point nearest p (within 40 px) whose disc of
// radius r lies inside rings: where a line ends inside an area, clear of
// its outline; p itself when there is none.
func innerPoint(rings [][]picture.Point, p picture.Point, r float64) picture.Point {
	clear := func(c picture.Point) bool {
		if !insideRings(rings, c) {
			return false
		}
		for k := 0; k < 16; k++ {
			a := float64(k) * math.Pi / 8
			for _, d := range []float64{r / 2, r} {
				if !insideRings(rings, c.Add(picture.Pt(d*math.Cos(a), d*math.Sin(a)))) {
					return false
				}
			}
		}
		return true
	}
	for rad := 0.0; rad <= 40; rad++ {
		n := max(1, int(2*math.Pi*rad))
		for k := 0; k < n; k++ {
			a := 2 * math.Pi * float64(k) / float64(n)
			if c := p.Add(picture.Pt(rad*math.Cos(a), rad*math.Sin(a))); clear(c) {
				return c
			}
		}
	}
	return p
}
