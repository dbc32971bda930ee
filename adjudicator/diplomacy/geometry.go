package diplomacy

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pbemd/picture"
)

// Geometry is how a map is drawn: the shapes of its provinces and of the
// neutral land and water around them, where each province's unit and name
// go, where a fleet stands on each coast of a multi-coast province, and the
// links drawn for adjacencies no shared border shows. Coordinates are in
// the map's own space, Width × Height (geo-size); a picture scales them.
type Geometry struct {
	Width, Height float64
	// Shapes holds each province's rings (even-odd), by province index.
	Shapes [][][]picture.Point
	// Land and Water are the rings of neutral (unplayable) land and water.
	Land, Water [][]picture.Point
	// Unit and Label are each province's unit point and name point.
	Unit, Label []picture.Point
	// Coasts is where a fleet stands on each named coast ("spa/nc").
	Coasts map[string]picture.Point
	Links  []Link
	// Wrap is true on a board of the whole world (geo-wrap): its left and
	// right edges are one meridian, so x and x±Width are the same place.
	Wrap bool
	// Colors is each power's colour (geo-colour), by power id.
	Colors map[string]picture.Color
	// Marks is how many times their usual size the board's names,
	// centres, units and their frames are drawn (geo-marks; 1 when not
	// given): a board of a few large provinces reads on a phone.
	Marks float64

	shapeLine []int // province -> line of its first geo-shape, for messages
}

// Link is an adjacency the shapes cannot show (an island's fleet border
// across open water, a point where four seas meet), drawn from From to To.
type Link struct {
	A, B     string
	From, To picture.Point
}

type geoLine struct {
	no        int
	key, rest string
}

// Geometry parses the map's geometry section (at first use; the result is
// kept). A map without one has none and cannot be drawn.
func (m *Map) Geometry() (*Geometry, error) { return m.geometry() }

// geometryMarker starts a map file's generated geometry section; what
// follows it is not read when the map loads.
const geometryMarker = "# ---- geometry"

func (m *Map) initGeometry(file string, lines []geoLine, tail []byte, tailLine int) {
	m.initGeometryFrom(file, func() ([]geoLine, error) { return geoLines(file, lines, tail, tailLine) })
}

// initGeometryFrom has the geometry parsed, at first use, from the geo-
// directives lines returns.
func (m *Map) initGeometryFrom(file string, lines func() ([]geoLine, error)) {
	m.geometry = sync.OnceValues(func() (*Geometry, error) {
		all, err := lines()
		if err != nil {
			return nil, err
		}
		return m.parseGeometry(file, all)
	})
	m.board = sync.OnceValues(func() (*board, error) { return newBoard(m) })
}

// geoLines adds the directives of the geometry section to those met before
// it; only geo- directives may stand there.
func geoLines(file string, lines []geoLine, tail []byte, first int) ([]geoLine, error) {
	if len(tail) == 0 {
		return lines, nil
	}
	all := append([]geoLine(nil), lines...)
	for i, raw := range strings.Split(string(tail), "\n") {
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, rest, _ := strings.Cut(text, " ")
		if !strings.HasPrefix(key, "geo-") {
			return nil, fmt.Errorf("map %s line %d: %q in the geometry section (only geo- directives go there)", file, first+i, key)
		}
		all = append(all, geoLine{first + i, key, strings.TrimSpace(rest)})
	}
	return all, nil
}

func (m *Map) parseGeometry(file string, lines []geoLine) (*Geometry, error) {
	if len(lines) == 0 {
		return nil, fmt.Errorf("map %s line 1: has no geometry (no geo- directives): it cannot be drawn (MAPFORMAT.md, Geometry)", file)
	}
	g := &Geometry{Shapes: make([][][]picture.Point, len(m.Provinces)), Unit: make([]picture.Point, len(m.Provinces)),
		Label: make([]picture.Point, len(m.Provinces)), Coasts: map[string]picture.Point{}, Colors: map[string]picture.Color{},
		shapeLine: make([]int, len(m.Provinces))}
	placed := make([]bool, len(m.Provinces))
	for _, l := range lines {
		errf := func(format string, a ...any) error {
			return fmt.Errorf("map %s line %d: %s", file, l.no, fmt.Sprintf(format, a...))
		}
		points := func(s string, n int) ([]picture.Point, error) {
			var out []picture.Point
			for _, f := range strings.Fields(s) {
				xs, ys, ok := strings.Cut(f, ",")
				x, err1 := strconv.ParseFloat(xs, 64)
				y, err2 := strconv.ParseFloat(ys, 64)
				if !ok || err1 != nil || err2 != nil {
					return nil, errf("%s: bad point %q (want x,y)", l.key, f)
				}
				if g.Width == 0 {
					return nil, errf("%s before geo-size", l.key)
				}
				if x < 0 || y < 0 || x > g.Width || y > g.Height {
					return nil, errf("%s: point %q outside the %gx%g space", l.key, f, g.Width, g.Height)
				}
				out = append(out, picture.Pt(x, y))
			}
			if n > 0 && len(out) != n {
				return nil, errf("%s wants %d points, got %d", l.key, n, len(out))
			}
			return out, nil
		}
		name, data, _ := strings.Cut(l.rest, "|")
		name = strings.TrimSpace(name)
		switch l.key {
		case "geo-size":
			f := strings.Fields(l.rest)
			if len(f) != 2 || g.Width != 0 {
				return nil, errf("geo-size wants width and height, once")
			}
			w, err1 := strconv.ParseFloat(f[0], 64)
			h, err2 := strconv.ParseFloat(f[1], 64)
			if err1 != nil || err2 != nil || w <= 0 || h <= 0 {
				return nil, errf("geo-size: bad size %q", l.rest)
			}
			g.Width, g.Height = w, h
		case "geo-wrap":
			if l.rest != "" || g.Wrap {
				return nil, errf("geo-wrap takes no fields, once")
			}
			g.Wrap = true
		case "geo-marks":
			k, err := strconv.ParseFloat(strings.TrimSpace(l.rest), 64)
			if err != nil || k < 1 || k > 4 || g.Marks != 0 {
				return nil, errf("geo-marks wants one number from 1 to 4, once; got %q", l.rest)
			}
			g.Marks = k
		case "geo-shape":
			ring, err := points(data, 0)
			if err != nil {
				return nil, err
			}
			if len(ring) < 3 {
				return nil, errf("geo-shape %s: a ring needs at least 3 points", name)
			}
			switch name {
			case "-land":
				g.Land = append(g.Land, ring)
			case "-water":
				g.Water = append(g.Water, ring)
			default:
				pi, ok := m.provIdx[name]
				if !ok {
					return nil, errf("geo-shape of unknown province %q", name)
				}
				if g.shapeLine[pi] == 0 {
					g.shapeLine[pi] = l.no
				}
				g.Shapes[pi] = append(g.Shapes[pi], ring)
			}
		case "geo-place":
			pi, ok := m.provIdx[name]
			if !ok {
				return nil, errf("geo-place of unknown province %q", name)
			}
			f := strings.Split(data, "|")
			if len(f) != 2 {
				return nil, errf("geo-place wants: id | unit x,y | label x,y")
			}
			u, err := points(f[0], 1)
			if err != nil {
				return nil, err
			}
			lb, err := points(f[1], 1)
			if err != nil {
				return nil, err
			}
			g.Unit[pi], g.Label[pi], placed[pi] = u[0], lb[0], true
		case "geo-coast":
			li, ok := m.locIdx[name]
			if !ok || m.locs[li].coast == "" {
				return nil, errf("geo-coast of unknown coast %q (want e.g. spa/nc)", name)
			}
			p, err := points(data, 1)
			if err != nil {
				return nil, err
			}
			g.Coasts[name] = p[0]
		case "geo-link":
			ids := strings.Fields(name)
			if len(ids) != 2 {
				return nil, errf("geo-link wants: a b | x,y x,y")
			}
			for _, id := range ids {
				if _, ok := m.provIdx[id]; !ok {
					return nil, errf("geo-link of unknown province %q", id)
				}
			}
			if !m.Adjacent(ids[0], ids[1]) {
				return nil, errf("geo-link %s %s: they are not adjacent", ids[0], ids[1])
			}
			p, err := points(data, 2)
			if err != nil {
				return nil, err
			}
			g.Links = append(g.Links, Link{A: ids[0], B: ids[1], From: p[0], To: p[1]})
		case "geo-colour":
			if _, ok := m.powerIdx[name]; !ok {
				return nil, errf("geo-colour of unknown power %q", name)
			}
			v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(data), "#"), 16, 32)
			if err != nil || len(strings.TrimPrefix(strings.TrimSpace(data), "#")) != 6 {
				return nil, errf("geo-colour %s: want #rrggbb, got %q", name, strings.TrimSpace(data))
			}
			g.Colors[name] = picture.Hex(uint32(v))
		default:
			return nil, errf("unknown directive %q", l.key)
		}
	}
	for i, p := range m.Provinces {
		if len(g.Shapes[i]) == 0 {
			return nil, fmt.Errorf("map %s line %d: province %s has no geo-shape: it cannot be drawn", file, m.lineOfProv(i), p.ID)
		}
		if !placed[i] {
			return nil, fmt.Errorf("map %s line %d: province %s has no geo-place", file, m.lineOfProv(i), p.ID)
		}
		for _, c := range p.Coasts {
			if _, ok := g.Coasts[p.ID+"/"+c]; !ok {
				return nil, fmt.Errorf("map %s line %d: province %s: coast %s/%s has no geo-coast", file, m.lineOfProv(i), p.ID, p.ID, c)
			}
		}
	}
	return g, nil
}

// Adjacent reports whether two provinces share an army border or a fleet
// border (from any of their coasts).
func (m *Map) Adjacent(a, b string) bool {
	ai, ok1 := m.provIdx[a]
	bi, ok2 := m.provIdx[b]
	if !ok1 || !ok2 || ai == bi {
		return false
	}
	return m.army[ai].has(bi) || m.seaNear[ai].has(bi) || m.seaNear[bi].has(ai)
}

// fillRows calls span for each run of pixels, row by row, whose centres
// lie inside the rings (even-odd) within a w×h raster: y, and the first
// and last x of the run. It is scanShapes for one shape; xs is not used
// (scanShapes keeps its own scratch) and is returned as it came.
func fillRows(rings [][]picture.Point, w, h int, xs []float64, span func(y, x0, x1 int)) []float64 {
	scanShapes([][][]picture.Point{rings}, w, h, func(_, y, x0, x1 int) { span(y, x0, x1) }, nil)
	return xs
}

// scanShapes is the scanline fill of the map's pictures and of its
// checks (rasterCounts). Row by row from the top of a w×h raster, it
// calls span for each run of pixels whose centres lie inside a shape's
// rings (even-odd): the shape's index, y, and the first and last x of
// the run; within a row shape by shape in order, each left to right.
// With rowDone, it calls rowDone(y) after every row of the raster, runs
// or none; without, it visits only the rows the shapes cross.
//
// A pixel is inside where its centre (x+0.5, y+0.5) is: an edge crosses
// the rows whose centre lies in [its low end, its high end), and a run
// covers the pixels whose centre lies between two crossings. The edges
// that cross a row are kept in an active list as the rows go down, so a
// row costs its own edges, not every edge of the map.
func scanShapes(shapes [][][]picture.Point, w, h int, span func(shape, y, x0, x1 int), rowDone func(y int)) {
	if w <= 0 || h <= 0 {
		return
	}
	type edge struct {
		shape       int
		first, last int // the rows it crosses
		ax, ay      float64
		dx, dy      float64
	}
	n := 0
	for _, rings := range shapes {
		for _, r := range rings {
			n += len(r)
		}
	}
	edges := make([]edge, 0, n)
	for si, rings := range shapes {
		for _, r := range rings {
			for i := range r {
				a, b := r[i], r[(i+1)%len(r)]
				if a.Y == b.Y {
					continue
				}
				lo, hi := math.Min(a.Y, b.Y), math.Max(a.Y, b.Y)
				first, last := int(math.Ceil(lo-0.5)), int(math.Ceil(hi-0.5))-1
				first, last = max(first, 0), min(last, h-1)
				if first > last {
					continue
				}
				edges = append(edges, edge{shape: si, first: first, last: last, ax: a.X, ay: a.Y, dx: b.X - a.X, dy: b.Y - a.Y})
			}
		}
	}
	slices.SortFunc(edges, func(a, b edge) int { return a.first - b.first })
	type cross struct {
		shape int
		x     float64
	}
	var active []edge
	var xs []cross
	y0, y1 := 0, h-1
	if rowDone == nil {
		if len(edges) == 0 {
			return
		}
		y0 = edges[0].first
		y1 = 0
		for _, e := range edges {
			y1 = max(y1, e.last)
		}
	}
	next := 0
	for y := y0; y <= y1; y++ {
		keep := active[:0]
		for _, e := range active {
			if e.last >= y {
				keep = append(keep, e)
			}
		}
		active = keep
		for ; next < len(edges) && edges[next].first == y; next++ {
			active = append(active, edges[next])
		}
		cy := float64(y) + 0.5
		xs = xs[:0]
		for _, e := range active {
			// The crossing as x = ax + (cy-ay)·dx/dy, in this order of
			// operations: one rounding for every caller.
			xs = append(xs, cross{e.shape, e.ax + (cy-e.ay)*e.dx/e.dy})
		}
		slices.SortFunc(xs, func(a, b cross) int {
			if a.shape != b.shape {
				return a.shape - b.shape
			}
			return cmp.Compare(a.x, b.x)
		})
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && xs[j].shape == xs[i].shape {
				j++
			}
			for k := i; k+1 < j; k += 2 {
				if x0, x1 := max(0, int(math.Ceil(xs[k].x-0.5))), min(w-1, int(math.Floor(xs[k+1].x-0.5))); x0 <= x1 {
					span(xs[k].shape, y, x0, x1)
				}
			}
			i = j
		}
		if rowDone != nil {
			rowDone(y)
		}
	}
}
