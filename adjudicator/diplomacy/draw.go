package diplomacy

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// This file draws a position, and the orders of the phase that led to it,
// as a picture of the board (the adjudicator.Drawer of the engine, and
// `pbemd map`). What never changes for a map (province shapes, borders,
// names, the colour table) is built once, at the first picture.
//
// The picture shows:
//   - land: a supply centre's province tinted in its owner's colour, other
//     land beige, unplayable land grey; seas pale blue;
//   - supply centres: a ring, filled with the owner's colour when owned;
//   - units: an army is a disc, a fleet a boat, in the power's colour with
//     the power's initial (so a power is told by a letter too, not by
//     colour alone);
//   - orders of the phase (results given): a move is an arrow, a support a
//     dashed line to the middle of the supported move (or a dashed ring
//     round the unit it holds), a convoy a dotted line from the army through
//     the fleet to the landing; a failed order is grey with a hollow head
//     and a cross; retreats are arrows, disbands a cross, builds a ring;
//     illegal and unmatched orders are not drawn (the text report lists
//     them);
//   - dislodged units beside their province, with a dashed ring, and thin
//     dotted arrows to each retreat option; standoffs as a burst;
//   - links for adjacencies no shared border shows (the map's geo-link);
//   - a legend: the phase, each power's colour, initial and centre count,
//     and a key to the symbols.
//
// Diplomacy has no hidden information: every viewer sees the same picture.

// pictureWidth is the width of a board picture in pixels.
const pictureWidth = 1200

// tintWhite is how far a power's colour is moved towards white to tint its
// land: light enough for names to read on it, strong enough that no
// power's land reads as sea (TestPowerColoursApart).
const tintWhite = 0.45

// legendHeight is the strip below the board.
const legendHeight = 74

var (
	seaColor      = picture.Hex(0xd6e7f2)
	waterColor    = picture.Hex(0xc6dcea) // unplayable water (lakes, closed seas)
	landColor     = picture.Hex(0xf3ecdb)
	neutralColor  = picture.Hex(0xc9c5bd) // unplayable land
	borderColor   = picture.Hex(0x4a4a4a)
	seaLineColor  = picture.Hex(0x8fb0c8)
	seaTextColor  = picture.Hex(0x2d5873)
	textColor     = picture.Hex(0x1e1e1e)
	failColor     = picture.Hex(0x8c8c8c)
	crossColor    = picture.Hex(0xc4001a)
	linkColor     = picture.Hex(0x1f4e79)
	legendBg      = picture.Hex(0xfaf8f2)
	standoffColor = picture.Hex(0xe8590c)
)

// board is what is drawn the same in every picture of a map.
type board struct {
	m        *Map
	g        *Geometry
	scale    float64
	w, h     int // board size in pixels (the legend is below)
	regions  *picture.Regions
	static   *picture.Layer
	palette  []picture.Color
	colors   []picture.Color // per power index: unit colour
	tints    []picture.Color // per power index: land tint
	darks    []picture.Color // per power index: order colour
	initials []string
	// centreLabels[i][n] is power i's legend line with n centres,
	// unitLabels[n] the "(n)" after it.
	centreLabels [][]string
	unitLabels   []string
	lowerNames   []string        // per power index: its name in lower case
	scAt         []picture.Point // per province index: scPoint
	units        []picture.Point // per province index: its unit point
	orders       orderCache
}

// orderCache is the orders result lines read back to, by the kind of
// phase and the line: a burst's pictures read the same lines again and
// again.
type orderCache struct {
	mu sync.RWMutex
	m  map[orderKey]Order
}

type orderKey struct {
	pt   PhaseType
	text string
}

// maxCachedOrders bounds an orderCache.
const maxCachedOrders = 1 << 14

// slab hands out one picture's items and points from blocks, so that its
// hundreds of items cost a few allocations. What it hands out is never
// moved (a full block is left, not grown).
type slab struct {
	paths   []picture.Path
	circles []picture.Circle
	arrows  []picture.Arrow
	texts   []picture.Text
	pts     []picture.Point
	lines   [][]picture.Point
	items   []picture.Item
}

const slabBlock = 64

// slabNew puts v in the slab's block of its kind and returns where it is;
// a full block is left to the items that point into it and a new one
// begun.
func slabNew[T any](block *[]T, v T) *T {
	if len(*block) == cap(*block) {
		*block = make([]T, 0, slabBlock)
	}
	*block = append(*block, v)
	return &(*block)[len(*block)-1]
}

func (s *slab) path(v picture.Path) *picture.Path       { return slabNew(&s.paths, v) }
func (s *slab) circle(v picture.Circle) *picture.Circle { return slabNew(&s.circles, v) }
func (s *slab) arrow(v picture.Arrow) *picture.Arrow    { return slabNew(&s.arrows, v) }
func (s *slab) text(v picture.Text) *picture.Text       { return slabNew(&s.texts, v) }

// points returns a slice of the points given, its capacity its length.
func (s *slab) points(p ...picture.Point) []picture.Point {
	if len(s.pts)+len(p) > cap(s.pts) {
		s.pts = make([]picture.Point, 0, max(8*slabBlock, len(p)))
	}
	at := len(s.pts)
	s.pts = append(s.pts, p...)
	return s.pts[at:len(s.pts):len(s.pts)]
}

// polylines returns a slice of the polylines given, its capacity its
// length.
func (s *slab) polylines(l ...[]picture.Point) [][]picture.Point {
	if len(s.lines)+len(l) > cap(s.lines) {
		s.lines = make([][]picture.Point, 0, max(slabBlock, len(l)))
	}
	at := len(s.lines)
	s.lines = append(s.lines, l...)
	return s.lines[at:len(s.lines):len(s.lines)]
}

// list returns n items' room, empty, for one list (a group's, say).
func (s *slab) list(n int) []picture.Item {
	if len(s.items)+n > cap(s.items) {
		s.items = make([]picture.Item, 0, max(4*slabBlock, n))
	}
	at := len(s.items)
	s.items = s.items[:at+n]
	return s.items[at : at : at+n]
}

func newBoard(m *Map) (*board, error) {
	g, err := m.Geometry()
	if err != nil {
		return nil, err
	}
	b := &board{m: m, g: g, scale: pictureWidth / g.Width}
	b.w = pictureWidth
	b.h = int(math.Round(g.Height * b.scale))
	sc := func(rings [][]picture.Point) [][]picture.Point {
		out := make([][]picture.Point, len(rings))
		for i, r := range rings {
			out[i] = make([]picture.Point, len(r))
			for j, p := range r {
				out[i][j] = p.Scale(b.scale)
			}
		}
		return out
	}
	var shapes [][][]picture.Point
	var names []string
	for i, p := range m.Provinces {
		shapes = append(shapes, sc(g.Shapes[i]))
		names = append(names, p.Full)
	}
	shapes = append(shapes, sc(g.Land), sc(g.Water))
	names = append(names, "", "")
	b.regions = picture.NewRegions("provinces", shapes, names)

	for i, p := range m.Powers {
		c, ok := g.Colors[p.ID]
		if !ok {
			c = picture.Colors[i%len(picture.Colors)]
		}
		b.colors = append(b.colors, c)
		b.tints = append(b.tints, c.Mix(picture.White, tintWhite))
		b.darks = append(b.darks, c.Mix(picture.Black, 0.25))
		b.initials = append(b.initials, strings.ToUpper(p.Name[:1]))
		var labels []string
		for n := 0; n <= len(m.scs); n++ {
			labels = append(labels, fmt.Sprintf("%s %d", p.Name, n))
		}
		b.centreLabels = append(b.centreLabels, labels)
		b.lowerNames = append(b.lowerNames, strings.ToLower(p.Name))
	}
	for n := 0; n <= len(m.Provinces); n++ {
		b.unitLabels = append(b.unitLabels, fmt.Sprintf("(%d)", n))
	}
	b.scAt = make([]picture.Point, len(m.Provinces))
	for i := range m.Provinces {
		b.units = append(b.units, g.Unit[i].Scale(b.scale))
	}
	for _, i := range m.scs {
		b.scAt[i] = b.scPoint(i)
	}

	// The static layer: borders, then names and links.
	var items []picture.Item
	for i, p := range m.Provinces {
		if p.Kind == Sea {
			items = append(items, &picture.Path{Rings: shapes[i], Style: picture.Style{Stroke: seaLineColor, StrokeWidth: 0.8}})
		}
	}
	items = append(items, &picture.Path{Rings: shapes[len(m.Provinces)], Style: picture.Style{Stroke: picture.Hex(0x8a8680), StrokeWidth: 0.8}})
	for i, p := range m.Provinces {
		if p.Kind != Sea {
			items = append(items, &picture.Path{Rings: shapes[i], Style: picture.Style{Stroke: borderColor, StrokeWidth: 1}})
		}
	}
	for _, l := range g.Links {
		from, to := l.From.Scale(b.scale), l.To.Scale(b.scale)
		if from.Sub(to).Len() < 4 {
			items = append(items, &picture.Circle{C: from.Lerp(to, 0.5), R: 5, Style: picture.Style{Stroke: linkColor, StrokeWidth: 1.6}})
			continue
		}
		items = append(items,
			&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: linkColor, StrokeWidth: 1.6, Dash: []float64{4, 3}}},
			&picture.Circle{C: from, R: 2.5, Style: picture.Style{Fill: linkColor}},
			&picture.Circle{C: to, R: 2.5, Style: picture.Style{Fill: linkColor}})
	}
	for i, p := range m.Provinces {
		c := textColor
		if p.Kind == Sea {
			c = seaTextColor
		}
		at := g.Label[i].Scale(b.scale)
		items = append(items, &picture.Text{At: at.Add(picture.Pt(0, 4)), S: p.Abbrev, Size: 12, Bold: p.Kind != Sea, Anchor: picture.Middle, Color: c, Halo: picture.White.Alpha(200)})
	}
	items = append(items, b.legendKey()...)
	b.static = picture.NewLayer("borders", items...)

	b.palette = []picture.Color{seaColor, waterColor, landColor, neutralColor, borderColor, seaLineColor, seaTextColor, textColor,
		failColor, crossColor, linkColor, legendBg, standoffColor, picture.White, picture.Black, picture.Hex(0x8a8680)}
	for i := range m.Powers {
		b.palette = append(b.palette, b.colors[i], b.tints[i], b.darks[i])
	}
	if len(b.palette) > picture.MaxPalette {
		b.palette = b.palette[:picture.MaxPalette]
	}
	return b, nil
}

// point is where a unit at a location stands, in pixels.
func (b *board) point(l Location) picture.Point {
	if l.Coast != "" {
		if p, ok := b.g.Coasts[l.Province+"/"+l.Coast]; ok {
			return p.Scale(b.scale)
		}
	}
	if i, ok := b.m.provIdx[l.Province]; ok {
		return b.g.Unit[i].Scale(b.scale)
	}
	return picture.Point{}
}

var _ adjudicator.Drawer = (*Engine)(nil)

// drawnResults is what a picture shows of a phase's results.
type drawnResults struct {
	phase     string // the phase's title
	orders    []drawnOrder
	standoffs []string
	dislodged []Dislodged
	disbanded []Unit
	built     []Unit
}

type drawnOrder struct {
	power   string
	order   Order
	outcome Outcome
}

// drawnResultData is the part of ResultData a picture draws (the JSON
// decoder skips the rest, which costs nothing to allocate).
type drawnResultData struct {
	Phase  string `json:"phase"`
	Orders []struct {
		Power   string  `json:"power"`
		Text    string  `json:"order"`
		Outcome Outcome `json:"outcome"`
	} `json:"results"`
	Dislodged []jsonUnit `json:"dislodged,omitempty"`
	Standoffs []string   `json:"standoffs,omitempty"`
	Disbanded []jsonUnit `json:"disbanded,omitempty"`
	Built     []jsonUnit `json:"built,omitempty"`
}

// parseResults reads Report.Data (ResultData JSON) for drawing.
func (m *Map) parseResults(data []byte) (*drawnResults, error) {
	var rd drawnResultData
	if err := json.Unmarshal(data, &rd); err != nil {
		return nil, fmt.Errorf("diplomacy: results: %w", err)
	}
	ph, err := parsePhaseID(rd.Phase)
	if err != nil {
		return nil, fmt.Errorf("diplomacy: results: %w", err)
	}
	dr := &drawnResults{phase: m.PhaseTitle(ph), standoffs: rd.Standoffs}
	rows := make([]resultRow, 0, len(rd.Orders))
	for _, r := range rd.Orders {
		rows = append(rows, resultRow{r.Power, r.Text, r.Outcome})
	}
	dr.orders = m.readOrders(ph.Type, rows)
	unit := func(ju jsonUnit) (Unit, bool) {
		u := Unit{Power: ju.Power, Loc: Location{Province: ju.Province, Coast: ju.Coast}, Type: Army}
		if ju.Type == "fleet" {
			u.Type = Fleet
		}
		_, ok := m.provIdx[u.Loc.Province]
		return u, ok
	}
	for _, ju := range rd.Dislodged {
		if u, ok := unit(ju); ok {
			dr.dislodged = append(dr.dislodged, Dislodged{Unit: u, AttackerFrom: ju.AttackerFrom, Options: ju.Options})
		}
	}
	for _, ju := range rd.Disbanded {
		if u, ok := unit(ju); ok {
			dr.disbanded = append(dr.disbanded, u)
		}
	}
	for _, ju := range rd.Built {
		if u, ok := unit(ju); ok {
			dr.built = append(dr.built, u)
		}
	}
	return dr, nil
}

type resultRow struct {
	power, text string
	outcome     Outcome
}

// readOrders parses result lines (canonical text) back into orders; lines
// that do not parse, and illegal or unmatched orders, are left out.
func (m *Map) readOrders(pt PhaseType, rows []resultRow) []drawnOrder {
	var cache *orderCache
	if b, err := m.board(); err == nil {
		cache = &b.orders
	}
	var opts *ParseOptions
	out := make([]drawnOrder, 0, len(rows))
	for _, r := range rows {
		if r.outcome != Succeeded && r.outcome != Failed {
			continue
		}
		pw, ok := m.powerID(r.power)
		if !ok {
			continue
		}
		k := orderKey{pt, r.text}
		var o Order
		if cache != nil {
			cache.mu.RLock()
			o, ok = cache.m[k]
			cache.mu.RUnlock()
		}
		if !ok {
			if opts == nil {
				e := &Engine{m: m}
				opts = &ParseOptions{Lexicon: m.lex, Phase: e.parsePhase(pt)}
			}
			var err error
			if o, _, err = ParseOrder(r.text, *opts); err != nil {
				continue
			}
			if cache != nil {
				cache.mu.Lock()
				if cache.m == nil {
					cache.m = map[orderKey]Order{}
				}
				if len(cache.m) < maxCachedOrders {
					cache.m[k] = o
				}
				cache.mu.Unlock()
			}
		}
		out = append(out, drawnOrder{power: pw, order: o, outcome: r.outcome})
	}
	return out
}

// powerID is PowerID, with the powers' names lowered once for the board
// (PowerID lowers them at each call).
func (m *Map) powerID(name string) (string, bool) {
	b, err := m.board()
	if err != nil {
		return m.PowerID(name)
	}
	k := strings.ToLower(strings.TrimSpace(name))
	for i, p := range m.Powers {
		if k == p.ID || k == b.lowerNames[i] || slicesIndex(p.Aliases, k) >= 0 {
			return p.ID, true
		}
	}
	return "", false
}

// parsePhaseID reads "S1901M" back into a phase.
func parsePhaseID(id string) (Phase, error) {
	var p Phase
	if len(id) < 3 {
		return p, fmt.Errorf("phase id %q", id)
	}
	switch id[0] {
	case 'S':
		p.Season = Spring
	case 'F':
		p.Season = Fall
	case 'W':
		p.Season = Winter
	}
	switch id[len(id)-1] {
	case 'M':
		p.Type = Movement
	case 'R':
		p.Type = Retreats
	case 'A':
		p.Type = Adjustments
	}
	y, err := strconv.Atoi(id[1 : len(id)-1])
	if err != nil || p.Season == 0 || p.Type == 0 {
		return p, fmt.Errorf("phase id %q", id)
	}
	p.Year = y
	return p, nil
}

// Draw implements adjudicator.Drawer: state is the position to draw (after
// the phase, when results are given) and results the phase's Report.Data
// (nil: the position only). Diplomacy hides nothing, so viewer is unused.
func (e *Engine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	g, err := decodeState(state, e.m)
	if err != nil {
		return nil, err
	}
	var dr *drawnResults
	if results != nil {
		if dr, err = e.m.parseResults(results); err != nil {
			return nil, err
		}
	}
	return e.m.drawPosition(g.pos, dr)
}

// drawPosition draws pos, with the orders of the phase before it when res
// is set.
func (m *Map) drawPosition(pos *Position, res *drawnResults) (*picture.Picture, error) {
	b, err := m.board()
	if err != nil {
		return nil, err
	}
	title := m.PhaseTitle(pos.Phase)
	if res != nil {
		title = res.phase + " — results"
	}
	p := &picture.Picture{Width: b.w, Height: b.h + legendHeight, Title: m.Title + ": " + title, Background: waterColor, Palette: b.palette}
	sl := &slab{}
	p.Items = sl.list(11 + 5*len(m.Powers))

	// Land and sea.
	fill := make([]picture.Color, len(m.Provinces)+2)
	for i, pr := range m.Provinces {
		switch {
		case pr.Kind == Sea:
			fill[i] = seaColor
		case pr.SupplyCenter && pos.Owners[pr.ID] != "":
			fill[i] = b.tints[m.powerIdx[pos.Owners[pr.ID]]]
		default:
			fill[i] = landColor
		}
	}
	fill[len(m.Provinces)] = neutralColor
	fill[len(m.Provinces)+1] = waterColor
	p.Add(&picture.RegionFill{Set: b.regions, Fill: fill}, b.static)

	// Supply centres.
	centres := sl.list(len(m.scs))
	for _, i := range m.scs {
		pr := m.Provinces[i]
		st := picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}
		if o := pos.Owners[pr.ID]; o != "" {
			st.Fill = b.colors[m.powerIdx[o]]
		}
		centres = append(centres, sl.circle(picture.Circle{C: b.scAt[i], R: 4.5, Style: st}))
	}

	var ords, marks []picture.Item
	if res != nil {
		ords, marks = b.drawOrders(sl, res)
	}
	for _, s := range pos.Standoffs {
		if res == nil || !contains(res.standoffs, s) {
			marks = append(marks, b.standoff(sl, s))
		}
	}
	if res != nil {
		for _, s := range res.standoffs {
			marks = append(marks, b.standoff(sl, s))
		}
	}
	dislodged := pos.Dislodged
	if len(dislodged) == 0 && res != nil {
		dislodged = res.dislodged
	}
	units := sl.list(2*len(pos.Units) + 8*len(dislodged))
	for _, u := range pos.Units {
		units = b.unit(units, sl, u, b.unitAt(u.Loc), 1)
	}
	for _, d := range dislodged {
		units = b.dislodged(units, sl, d)
	}
	p.Add(&picture.Group{ID: "centres", Items: centres},
		&picture.Group{ID: "orders", Items: ords}, &picture.Group{ID: "units", Items: units}, &picture.Group{ID: "marks", Items: marks})
	p.Items = b.legend(p.Items, sl, pos, title)
	return p, nil
}

func contains(s []string, v string) bool { return slicesIndex(s, v) >= 0 }

// scPoint is where a province's centre marker goes: right of its name.
func (b *board) scPoint(i int) picture.Point {
	at := b.g.Label[i].Scale(b.scale)
	w := picture.TextWidth(b.m.Provinces[i].Abbrev, 12, true)
	return at.Add(picture.Pt(w/2+7, 0))
}

// unitAt is where a unit at a location stands, in pixels, from the
// points made once (point).
func (b *board) unitAt(l Location) picture.Point {
	if l.Coast == "" {
		if i, ok := b.m.provIdx[l.Province]; ok {
			return b.units[i]
		}
	}
	return b.point(l)
}

// unit appends to dst a unit token at c (k scales it: dislodged units are
// smaller).
func (b *board) unit(dst []picture.Item, sl *slab, u Unit, c picture.Point, k float64) []picture.Item {
	pi := b.m.powerIdx[u.Power]
	col := b.colors[pi]
	st := picture.Style{Fill: col, Stroke: textColor, StrokeWidth: 1.5}
	var shape picture.Item
	letterAt := c.Add(picture.Pt(0, 4.2*k))
	if u.Type == Fleet {
		// A boat: a hull with a sail.
		pt := func(x, y float64) picture.Point { return c.Add(picture.Pt(x*k, y*k)) }
		shape = sl.path(picture.Path{Rings: sl.polylines(
			sl.points(pt(-14, -3), pt(14, -3), pt(9, 8), pt(-9, 8)),
			sl.points(pt(-1.5, -5), pt(-1.5, -14), pt(8, -5)),
		), Style: st})
		letterAt = c.Add(picture.Pt(0, 6.2*k))
	} else {
		shape = sl.circle(picture.Circle{C: c, R: 10.5 * k, Style: st})
	}
	return append(dst, shape, sl.text(picture.Text{At: letterAt, S: b.initials[pi], Size: math.Max(picture.MinText, 12*k), Bold: true, Anchor: picture.Middle, Color: contrast(col)}))
}

// contrast is black or white, whichever reads better on c.
func contrast(c picture.Color) picture.Color {
	l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	if l > 140 {
		return picture.Black
	}
	return picture.White
}

// dislodgedOffset is where a dislodged unit stands, from its province's
// unit point.
var dislodgedOffset = picture.Pt(15, 15)

// The dash patterns of orders and marks (shared by every picture, never
// changed).
var (
	supportDash   = []float64{6, 4}
	convoyDash    = []float64{1.5, 3.5}
	retreatDash   = []float64{2, 3}
	dislodgedDash = []float64{4, 2}
)

func (b *board) dislodged(dst []picture.Item, sl *slab, d Dislodged) []picture.Item {
	c := b.unitAt(d.Loc).Add(dislodgedOffset)
	for _, o := range d.Options {
		prov, coast, _ := strings.Cut(o, "/")
		to := b.unitAt(Location{Province: prov, Coast: coast})
		dst = append(dst, sl.arrow(picture.Arrow{From: c, To: shorten(c, to, 11), Head: 7, Style: picture.Style{Stroke: b.darks[b.m.powerIdx[d.Power]], StrokeWidth: 1.3, Dash: retreatDash}}))
	}
	dst = append(dst, sl.circle(picture.Circle{C: c, R: 14, Style: picture.Style{Fill: picture.White.Alpha(160), Stroke: crossColor, StrokeWidth: 1.8, Dash: dislodgedDash}}))
	return b.unit(dst, sl, d.Unit, c, 0.85)
}

// shorten moves to back towards from by d pixels (so an arrow stops at a
// token's edge).
func shorten(from, to picture.Point, d float64) picture.Point {
	v := to.Sub(from)
	l := v.Len()
	if l <= 2*d {
		return from.Lerp(to, 0.5)
	}
	return to.Sub(v.Scale(d / l))
}

func (b *board) standoff(sl *slab, prov string) picture.Item {
	i, ok := b.m.provIdx[prov]
	if !ok {
		return &picture.Group{}
	}
	c := b.units[i]
	pts := sl.points(make([]picture.Point, 16)...)
	for k := range pts {
		r := 11.0
		if k%2 == 1 {
			r = 5
		}
		a := math.Pi * float64(k) / 8
		pts[k] = c.Add(picture.Pt(r*math.Cos(a), r*math.Sin(a)))
	}
	return sl.path(picture.Path{Rings: sl.polylines(pts), Style: picture.Style{Fill: standoffColor, Stroke: picture.White, StrokeWidth: 1.2}})
}

// cross appends to dst a failure mark at c.
func cross(dst []picture.Item, sl *slab, c picture.Point) []picture.Item {
	for _, w := range [2]struct {
		c picture.Color
		w float64
	}{{picture.White, 5}, {crossColor, 2.6}} {
		dst = append(dst, sl.path(picture.Path{Lines: sl.polylines(
			sl.points(c.Add(picture.Pt(-5, -5)), c.Add(picture.Pt(5, 5))),
			sl.points(c.Add(picture.Pt(-5, 5)), c.Add(picture.Pt(5, -5))),
		), Style: picture.Style{Stroke: w.c, StrokeWidth: w.w}}))
	}
	return dst
}

// drawOrders draws the phase's orders (under the units) and the marks that
// go over them (crosses, build rings).
func (b *board) drawOrders(sl *slab, res *drawnResults) (under, over []picture.Item) {
	m := b.m
	under, over = sl.list(2*len(res.orders)), sl.list(2*len(res.orders))
	// A move's arrow, by the province it starts from, for supports.
	moveOf := make(map[string][2]picture.Point, len(res.orders))
	arrowFor := func(o Order) (picture.Point, picture.Point) {
		from := b.unitAt(o.Loc)
		to := b.unitAt(o.Target)
		return from, shorten(from, to, 11)
	}
	for _, d := range res.orders {
		if d.order.Kind == Move {
			f, t := arrowFor(d.order)
			moveOf[d.order.Loc.Province] = [2]picture.Point{f, t}
		}
	}
	style := func(d drawnOrder, w float64, dash []float64) picture.Style {
		c := b.darks[m.powerIdx[d.power]]
		if d.outcome != Succeeded {
			c = failColor
		}
		return picture.Style{Stroke: c, StrokeWidth: w, Dash: dash}
	}
	casing := func(a *picture.Arrow) *picture.Arrow {
		c := *a
		c.Style = picture.Style{Stroke: picture.White, StrokeWidth: a.StrokeWidth + 2.4, Dash: a.Dash}
		c.HeadFill = picture.Color{}
		c.Head = a.Head + 2
		return sl.arrow(c)
	}
	for _, d := range res.orders {
		o := d.order
		failed := d.outcome != Succeeded
		switch o.Kind {
		case Move, Retreat:
			from, to := arrowFor(o)
			if o.Kind == Retreat {
				from = from.Add(dislodgedOffset)
			}
			a := sl.arrow(picture.Arrow{From: from, To: to, Head: 11, Style: style(d, 3, nil)})
			if o.Kind == Move && !m.ArmyBorder(o.Loc.Province, o.Target.Province) && o.Unit == Army {
				// By convoy: bend the arrow so it reads as a voyage.
				mid := from.Lerp(to, 0.5)
				v := to.Sub(from)
				a.Curve, a.Via = true, mid.Add(picture.Pt(-v.Y, v.X).Scale(0.18))
			}
			if failed {
				a.HeadFill = picture.White
			}
			under = append(under, casing(a), a)
			if failed {
				over = cross(over, sl, from.Lerp(to, 0.72))
			}
		case SupportMove:
			from := b.unitAt(o.Loc)
			mv, ok := moveOf[o.Aux.Province]
			var to picture.Point
			if ok {
				to = mv[0].Lerp(mv[1], 0.55)
			} else {
				// The supported move was not ordered (its support is then
				// void and not drawn) or did not parse: aim at the target.
				to = b.unitAt(o.Target)
			}
			a := sl.arrow(picture.Arrow{From: from, To: shorten(from, to, 2), Head: 8, Style: style(d, 2, supportDash)})
			under = append(under, casing(a), a)
			if failed {
				over = cross(over, sl, from.Lerp(to, 0.5))
			}
		case SupportHold:
			from := b.unitAt(o.Loc)
			to := b.unitAt(o.Aux)
			st := style(d, 2, supportDash)
			under = append(under, sl.path(picture.Path{Lines: sl.polylines(sl.points(from, shorten(from, to, 16))), Style: st}),
				sl.circle(picture.Circle{C: to, R: 16, Style: st}))
			if failed {
				over = cross(over, sl, from.Lerp(to, 0.5))
			}
		case Convoy:
			fleet := b.unitAt(o.Loc)
			army := b.unitAt(o.Aux)
			land := b.unitAt(o.Target)
			st := style(d, 2.2, convoyDash)
			under = append(under, sl.path(picture.Path{Lines: sl.polylines(sl.points(army, fleet, land)), Style: st}),
				sl.circle(picture.Circle{C: fleet, R: 17, Style: st}))
			if failed {
				over = cross(over, sl, fleet.Add(picture.Pt(0, -19)))
			}
		case Disband:
			at := b.unitAt(o.Loc)
			if res.isRetreatPhase() {
				at = at.Add(dislodgedOffset)
			}
			over = cross(over, sl, at)
		case Build:
			at := b.unitAt(o.Loc)
			over = append(over, sl.circle(picture.Circle{C: at, R: 15, Style: picture.Style{Stroke: b.darks[m.powerIdx[d.power]], StrokeWidth: 2.2}}))
		}
	}
	// Units removed by civil disorder or a failed retreat.
	for _, u := range res.disbanded {
		if !res.ordered(Disband, u.Loc.Province) {
			at := b.unitAt(u.Loc)
			if res.isRetreatPhase() {
				at = at.Add(dislodgedOffset)
			}
			over = cross(over, sl, at)
		}
	}
	return under, over
}

func (r *drawnResults) isRetreatPhase() bool { return strings.Contains(r.phase, "Retreats") }

func (r *drawnResults) ordered(k OrderKind, prov string) bool {
	for _, d := range r.orders {
		if d.order.Kind == k && d.order.Loc.Province == prov && d.outcome == Succeeded {
			return true
		}
	}
	return false
}

// legendKey is the legend's static part (drawn once, in the static layer):
// its box and, right-aligned on the first line, a key to the symbols.
func (b *board) legendKey() []picture.Item {
	m := b.m
	sl := &slab{}
	y0 := float64(b.h)
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.w), Y: y0}, {X: float64(b.w), Y: y0 + legendHeight}, {X: 0, Y: y0 + legendHeight}}},
			Style: picture.Style{Fill: legendBg, Stroke: borderColor, StrokeWidth: 1}},
		&picture.Text{At: picture.Pt(float64(b.w)-12, y0+55), S: "centres (units)", Size: 12, Anchor: picture.End, Color: failColor},
	}
	type entry struct {
		label string
		w     float64
		draw  func(c picture.Point) []picture.Item
	}
	p0 := m.Powers[0].ID
	entries := []entry{
		{"army", 18, func(c picture.Point) []picture.Item { return b.unit(nil, sl, Unit{Power: p0, Type: Army}, c, 0.8) }},
		{"fleet", 24, func(c picture.Point) []picture.Item {
			return b.unit(nil, sl, Unit{Power: p0, Type: Fleet}, c.Add(picture.Pt(0, 2)), 0.8)
		}},
		{"move", 28, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-14, 0)), To: c.Add(picture.Pt(14, 0)), Head: 9, Style: picture.Style{Stroke: textColor, StrokeWidth: 2.5}}}
		}},
		{"support", 28, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-14, 0)), To: c.Add(picture.Pt(14, 0)), Head: 7, Style: picture.Style{Stroke: textColor, StrokeWidth: 2, Dash: []float64{6, 4}}}}
		}},
		{"convoy", 28, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-14, 0)), c.Add(picture.Pt(14, 0))}}, Style: picture.Style{Stroke: textColor, StrokeWidth: 2.2, Dash: []float64{1.5, 3.5}}}}
		}},
		{"failed", 28, func(c picture.Point) []picture.Item {
			return cross([]picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-14, 0)), To: c.Add(picture.Pt(14, 0)), Head: 9, HeadFill: picture.White, Style: picture.Style{Stroke: failColor, StrokeWidth: 2.5}}}, sl, c)
		}},
		{"standoff", 14, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Circle{C: c, R: 6, Style: picture.Style{Fill: standoffColor, Stroke: picture.White}}}
		}},
		{"dislodged", 16, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Circle{C: c, R: 8, Style: picture.Style{Fill: picture.White, Stroke: crossColor, StrokeWidth: 1.8, Dash: []float64{4, 2}}}}
		}},
		{"centre", 10, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Circle{C: c, R: 4.5, Style: picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}}}
		}},
	}
	width := 0.0
	for _, e := range entries {
		width += e.w + 12 + picture.TextWidth(e.label, 12, false)
	}
	x := float64(b.w) - 12 - width + 12
	for _, e := range entries {
		items = append(items, e.draw(picture.Pt(x+e.w/2, y0+17))...)
		items = append(items, &picture.Text{At: picture.Pt(x+e.w+5, y0+21), S: e.label, Size: 12, Color: textColor})
		x += e.w + 12 + picture.TextWidth(e.label, 12, false)
	}
	return items
}

// legend appends to dst the legend's part that changes: the phase and
// each power's colour, initial, centres and units.
func (b *board) legend(dst []picture.Item, sl *slab, pos *Position, title string) []picture.Item {
	m := b.m
	y0 := float64(b.h)
	dst = append(dst, sl.text(picture.Text{At: picture.Pt(12, y0+22), S: title, Size: 16, Bold: true, Color: textColor}))
	centres := make([]int, len(m.Powers))
	for _, pw := range pos.Owners {
		if i, ok := m.powerIdx[pw]; ok {
			centres[i]++
		}
	}
	units := make([]int, len(m.Powers))
	for _, u := range pos.Units {
		if i, ok := m.powerIdx[u.Power]; ok {
			units[i]++
		}
	}
	x := 12.0
	for i := range m.Powers {
		c := picture.Pt(x+10, y0+50)
		dst = append(dst, sl.circle(picture.Circle{C: c, R: 10, Style: picture.Style{Fill: b.colors[i], Stroke: textColor, StrokeWidth: 1.2}}),
			sl.text(picture.Text{At: c.Add(picture.Pt(0, 4.2)), S: b.initials[i], Size: 12, Bold: true, Anchor: picture.Middle, Color: contrast(b.colors[i])}))
		label := b.label(i, centres[i])
		dst = append(dst, sl.text(picture.Text{At: picture.Pt(x+25, y0+55), S: label, Size: 13, Bold: true, Color: textColor}))
		x += 25 + picture.TextWidth(label, 13, true) + 8
		sub := b.unitLabel(units[i])
		dst = append(dst, sl.text(picture.Text{At: picture.Pt(x, y0+55), S: sub, Size: 12, Color: failColor}))
		x += picture.TextWidth(sub, 12, false) + 18
	}
	return dst
}

// label is power i's legend line with n centres.
func (b *board) label(i, n int) string {
	if n < len(b.centreLabels[i]) {
		return b.centreLabels[i][n]
	}
	return fmt.Sprintf("%s %d", b.m.Powers[i].Name, n)
}

// unitLabel is "(n)", for n units.
func (b *board) unitLabel(n int) string {
	if n < len(b.unitLabels) {
		return b.unitLabels[n]
	}
	return fmt.Sprintf("(%d)", n)
}
