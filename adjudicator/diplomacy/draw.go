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
// the places a name may stand, the colour table) is built once, at the
// first picture (drawplace.go places names and dislodged units).
//
// The picture shows:
//   - land: a supply centre's province tinted in its owner's colour, other
//     land beige, unplayable land grey; seas pale blue;
//   - supply centres: a ring right of the province's name, filled with the
//     owner's colour when owned;
//   - units: an army is a disc, a fleet a boat, in the power's colour with
//     the power's initial (so a power is told by a letter too, not by
//     colour alone), large enough to be told apart on a phone;
//   - orders of the phase (results given): a move is a thick arrow whose
//     head stops at the edge of the unit it reaches, a support a dashed
//     arrow to the middle of the supported move (a support to hold a
//     dashed line ending in a bar at the unit it holds), a convoy a dotted
//     line from the army through the fleet to the landing with a dotted
//     ring round the fleet; a failed order is grey with a hollow head and
//     a cross; a retreat is an arrow; a disbanded unit (ordered, forced or
//     by civil disorder) is drawn where it stood, struck out by a large
//     cross; a built unit has a solid ring; illegal and unmatched orders
//     are not drawn (the text report lists them);
//   - dislodged units inside their own province, beside the unit that took
//     it, in a red octagon, with thin dash-dot arrows to each retreat
//     option (struck out when there is none: the unit will be disbanded);
//     standoffs as a burst;
//   - names kept clear of every unit, arrow and mark: a name in the way
//     moves to another place in its province;
//   - links for adjacencies no shared border shows (the map's geo-link: a
//     dashed line between dots, or a small ring where the provinces meet
//     at a point);
//   - a legend: the phase, each power's colour, initial and centre count,
//     and a key to every symbol above.
//
// Diplomacy has no hidden information: every viewer sees the same picture.

// pictureWidth is the width of a board picture in pixels.
const pictureWidth = 1200

// tintWhite is how far a power's colour is moved towards white to tint its
// land: light enough for names to read on it, strong enough that no
// power's land reads as sea (TestPowerColoursApart).
const tintWhite = 0.45

// legendHeight is the strip below the board: the phase and two rows of the
// key, then the powers.
const legendHeight = 100

// Sizes on the board. A picture is 1200 px wide and a phone shows it 390
// px wide, a third of that: units and arrows are drawn large enough that a
// player sees at that size what became of each unit (RULES says so).
const (
	unitK         = 1.3 // board units, against the legend's 0.8
	dislodgedK    = 0.95
	moveWidth     = 4.5
	moveHead      = 16
	supportWidth  = 2.6
	supportHead   = 11
	convoyWidth   = 2.6
	burstOuter    = 15
	burstInner    = 7
	nameSize      = 12
	disbandCrossK = 13 // half the arms of a disband cross, at k 1
)

// PictureRules is what the engine's RULES text says of the pictures.
const PictureRules = `
- Each results mail carries a picture of the board. Units and arrows are
  drawn large and names move out of their way, so that on a phone, at the
  width of the screen, a player sees what became of each unit without
  zooming: where it moved, what failed (grey, with a cross), which unit was
  dislodged (in a red octagon inside its province, with dash-dot arrows to
  where it may retreat) and which was disbanded (struck out). The legend
  under the board names every symbol.`

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
	// slots are the powers' places in the legend when one row cannot
	// hold them all (Chaos's 34): a fixed slot per power, as wide as its
	// widest line, wrapped into rows under the board; nil when one row
	// holds them. legendH is the legend's height with those rows.
	slots      []picture.Point
	legendH    int
	lowerNames []string // per power index: its name in lower case
	// wrap is the board's width when its edges are one meridian
	// (Geometry.Wrap), else 0: see near.
	wrap  float64
	units []picture.Point // per province index: its unit point
	// names[i] are the places province i's name may stand (the map's own
	// first), nameBox[i] the box of the name and its centre ring around
	// such a place, and disAt[i] where a unit dislodged from it may stand,
	// best first (drawplace.go).
	names   [][]picture.Point
	nameBox []picture.Rect
	scOff   []picture.Point // per province index: its centre ring from its name
	disAt   [][]picture.Point
	orders  orderCache

	// mk scales names, centres, units and their frames (Geometry.Marks).
	mk float64
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
	groups  []picture.Group
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
func (s *slab) group(v picture.Group) *picture.Group    { return slabNew(&s.groups, v) }

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
	b := &board{m: m, g: g, scale: pictureWidth / g.Width, mk: max(g.Marks, 1)}
	b.w = pictureWidth
	b.h = int(math.Round(g.Height * b.scale))
	if g.Wrap {
		b.wrap = float64(b.w)
	}
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
	b.legendSlots()
	for i := range m.Provinces {
		b.units = append(b.units, g.Unit[i].Scale(b.scale))
	}
	b.place(shapes[:len(m.Provinces)])

	// The static layer: borders, links and the legend's key (names are
	// placed in each picture, clear of its marks).
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
		items = append(items, link(l.From.Scale(b.scale), l.To.Scale(b.scale))...)
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
	p := &picture.Picture{Width: b.w, Height: b.h + b.legendH, Title: m.Title + ": " + title, Background: waterColor, Palette: b.palette}
	sl := &slab{}
	p.Items = sl.list(12 + 5*len(m.Powers))

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

	// Who stands where after the phase: arrows stop at the unit they
	// reach.
	at := make(map[string]UnitType, len(pos.Units))
	for _, u := range pos.Units {
		at[u.Loc.Province] = u.Type
	}
	var ords, marks []picture.Item
	if res != nil {
		ords, marks = b.drawOrders(sl, res, at)
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
	if len(dislodged) == 0 && res != nil && !res.isRetreatPhase() {
		dislodged = res.dislodged
	}
	units := sl.list(2*len(pos.Units) + 4*len(dislodged))
	for _, u := range pos.Units {
		units = b.unit(units, sl, u, b.unitAt(u.Loc), unitK*b.mk)
	}
	var obs []obstacle
	if len(dislodged) > 0 {
		obs = leaves(leaves(nil, ords), units)
	}
	for _, d := range dislodged {
		g := b.dislodged(sl, d, b.dislodgedSpot(d.Loc, obs))
		units = append(units, g)
		obs = leaves(obs, g.Items)
	}
	ordG := &picture.Group{ID: "orders", Items: ords}
	unitG := &picture.Group{ID: "units", Items: units}
	markG := &picture.Group{ID: "marks", Items: marks}
	names, centres := b.placeNames(sl, pos, ordG, unitG, markG)
	p.Add(ordG, unitG, markG, &picture.Group{ID: "names", Items: names}, &picture.Group{ID: "centres", Items: centres})
	p.Items = b.legend(p.Items, sl, pos, title)
	return p, nil
}

func contains(s []string, v string) bool { return slicesIndex(s, v) >= 0 }

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

// dislodgedAt is where a unit dislodged from l stands: inside its
// province, clear of the unit that took it (the best spot; a picture
// whose arrows cross it may take another, dislodgedSpot).
func (b *board) dislodgedAt(l Location) picture.Point {
	if i, ok := b.m.provIdx[l.Province]; ok {
		return b.disAt[i][0]
	}
	return picture.Point{}
}

// dislodgedSpot is the first of the spots for a unit dislodged from l
// that no item of obs touches (the best when none is free).
func (b *board) dislodgedSpot(l Location, obs []obstacle) picture.Point {
	i, ok := b.m.provIdx[l.Province]
	if !ok {
		return picture.Point{}
	}
outer:
	for _, q := range b.disAt[i] {
		r := octagonBox(q, b.mk)
		for _, o := range obs {
			if o.box.Overlaps(r) && picture.Touches(o.it, r) {
				continue outer
			}
		}
		return q
	}
	return b.disAt[i][0]
}

// unit appends to dst a unit token at c (k scales it).
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

// unitReach is how far from its point a unit token of kind t at scale k
// reaches in the direction dir: where an arrow to it must stop.
func unitReach(t UnitType, k float64, dir picture.Point) float64 {
	if t == Army {
		return 10.5 * k
	}
	// The boat's box: 14 either side, 14 above (the sail), 8 below.
	l := dir.Len()
	if l == 0 {
		return 14 * k
	}
	ux, uy := math.Abs(dir.X)/l, dir.Y/l
	r := math.Inf(1)
	if ux > 0 {
		r = 14 * k / ux
	}
	switch {
	case uy > 0:
		r = math.Min(r, 8*k/uy)
	case uy < 0:
		r = math.Min(r, 14*k/-uy)
	}
	return r
}

// contrast is black or white, whichever reads better on c.
func contrast(c picture.Color) picture.Color {
	l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	if l > 140 {
		return picture.Black
	}
	return picture.White
}

// The dash patterns of orders and marks (shared by every picture, never
// changed).
var (
	supportDash = []float64{7, 4}
	convoyDash  = []float64{1.5, 3.5}
	optionDash  = []float64{7, 3, 1.5, 3}
	linkDash    = []float64{4, 3}
)

// dislodged is a unit dislodged from its province: drawn inside it, in a
// red octagon, with a dash-dot arrow to each place it may retreat to, or
// struck out when it has none.
func (b *board) dislodged(sl *slab, d Dislodged, c picture.Point) *picture.Group {
	items := sl.list(4 + len(d.Options))
	for _, o := range d.Options {
		prov, coast, _ := strings.Cut(o, "/")
		to := b.near(c, b.unitAt(Location{Province: prov, Coast: coast}))
		items = append(items, sl.arrow(picture.Arrow{From: c, To: shorten(c, to, 12*unitK*b.mk), Head: 9, HeadFill: picture.White,
			Style: picture.Style{Stroke: b.darks[b.m.powerIdx[d.Power]], StrokeWidth: 1.8, Dash: optionDash}}))
	}
	items = append(b.across(items), octagon(sl, c, b.mk))
	items = b.unit(items, sl, d.Unit, c, dislodgedK*b.mk)
	if len(d.Options) == 0 {
		items = disbandCross(items, sl, c, dislodgedK*b.mk)
	}
	return sl.group(picture.Group{ID: "dislodged-" + d.Loc.Province, Items: items})
}

// octagon is the dislodged unit's frame at c (k scales it).
func octagon(sl *slab, c picture.Point, k float64) picture.Item {
	pts := sl.points(make([]picture.Point, 8)...)
	for i := range pts {
		a := math.Pi/8 + math.Pi/4*float64(i)
		pts[i] = c.Add(picture.Pt(17*k*math.Cos(a), 17*k*math.Sin(a)))
	}
	return sl.path(picture.Path{Rings: sl.polylines(pts), Style: picture.Style{Fill: picture.White.Alpha(190), Stroke: crossColor, StrokeWidth: 2.6}})
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
	return sl.group(picture.Group{ID: "standoff-" + prov, Items: append(sl.list(1), burst(sl, b.units[i], b.mk))})
}

// burst is a standoff's mark at c (k scales it).
func burst(sl *slab, c picture.Point, k float64) picture.Item {
	pts := sl.points(make([]picture.Point, 16)...)
	for i := range pts {
		r := burstOuter * k
		if i%2 == 1 {
			r = burstInner * k
		}
		a := math.Pi * float64(i) / 8
		pts[i] = c.Add(picture.Pt(r*math.Cos(a), r*math.Sin(a)))
	}
	return sl.path(picture.Path{Rings: sl.polylines(pts), Style: picture.Style{Fill: standoffColor, Stroke: picture.White, StrokeWidth: 1.2}})
}

// cross appends to dst a failure mark at c, its arms r long each way.
func cross(dst []picture.Item, sl *slab, c picture.Point, r float64) []picture.Item {
	for _, w := range [2]struct {
		c picture.Color
		w float64
	}{{picture.White, 2 + math.Min(r/2.5, 3.2)}, {crossColor, math.Min(r/2.5, 3.2)}} {
		dst = append(dst, sl.path(picture.Path{Lines: sl.polylines(
			sl.points(c.Add(picture.Pt(-r, -r)), c.Add(picture.Pt(r, r))),
			sl.points(c.Add(picture.Pt(-r, r)), c.Add(picture.Pt(r, -r))),
		), Style: picture.Style{Stroke: w.c, StrokeWidth: w.w}}))
	}
	return dst
}

// disbandCross strikes out a unit drawn at c (k its scale).
func disbandCross(dst []picture.Item, sl *slab, c picture.Point, k float64) []picture.Item {
	return cross(dst, sl, c, disbandCrossK*k)
}

// disbanded appends a unit removed in the phase, drawn where it stood and
// struck out.
func (b *board) disbanded(dst []picture.Item, sl *slab, u Unit, c picture.Point, k float64) []picture.Item {
	items := b.unit(sl.list(4), sl, u, c, k)
	items = disbandCross(items, sl, c, k)
	return append(dst, sl.group(picture.Group{ID: "disband-" + u.Loc.Province, Items: items}))
}

// link is the mark of an adjacency no shared border shows: a dashed line
// between two dots, or a small ring where provinces meet at a point.
func link(from, to picture.Point) []picture.Item {
	if from.Sub(to).Len() < 4 {
		return []picture.Item{&picture.Circle{C: from.Lerp(to, 0.5), R: 5, Style: picture.Style{Stroke: linkColor, StrokeWidth: 1.6}}}
	}
	return []picture.Item{
		&picture.Path{Lines: [][]picture.Point{{from, to}}, Style: picture.Style{Stroke: linkColor, StrokeWidth: 1.6, Dash: linkDash}},
		&picture.Circle{C: from, R: 2.5, Style: picture.Style{Fill: linkColor}},
		&picture.Circle{C: to, R: 2.5, Style: picture.Style{Fill: linkColor}}}
}

// holdBar is the end of a support to hold: a bar across the line where it
// meets the held unit.
func holdBar(sl *slab, from, end picture.Point, st picture.Style) picture.Item {
	v := end.Sub(from)
	l := v.Len()
	if l == 0 {
		v, l = picture.Pt(1, 0), 1
	}
	n := picture.Pt(-v.Y/l, v.X/l).Scale(8)
	st.Dash, st.StrokeWidth = nil, st.StrokeWidth+1.4
	return sl.path(picture.Path{Lines: sl.polylines(sl.points(end.Add(n), end.Sub(n))), Style: st})
}

// arrowEnd is where an arrow from from (or bent through via) towards a
// unit's point c stops: at the edge of the unit standing there, of the
// standoff's burst, or just short of the point (mk: Geometry.Marks).
func arrowEnd(from, c picture.Point, occupant UnitType, occupied, standoff bool, mk float64) picture.Point {
	d := 4.0
	switch {
	case occupied:
		d = unitReach(occupant, unitK*mk, from.Sub(c)) + 2
	case standoff:
		d = burstOuter*mk + 1
	}
	return shorten(from, c, d)
}

// drawOrders draws the phase's orders (under the units) and the marks that
// go over them (crosses, disbanded units, build rings). at is who stands
// where after the phase.
func (b *board) drawOrders(sl *slab, res *drawnResults, at map[string]UnitType) (under, over []picture.Item) {
	m := b.m
	under, over = sl.list(len(res.orders)), sl.list(len(res.orders)+len(res.disbanded))
	// A move's arrow, by the province it starts from, for supports.
	moveOf := make(map[string][2]picture.Point, len(res.orders))
	retreat := res.isRetreatPhase()
	ends := func(o Order) (from, via, to picture.Point, curve bool) {
		from = b.unitAt(o.Loc)
		if o.Kind == Retreat {
			from = b.dislodgedAt(o.Loc)
		}
		c := b.near(from, b.unitAt(o.Target))
		via = from
		if o.Kind == Move && o.Unit == Army && !m.ArmyBorder(o.Loc.Province, o.Target.Province) {
			// By convoy: bend the arrow so it reads as a voyage.
			v := c.Sub(from)
			via, curve = from.Lerp(c, 0.5).Add(picture.Pt(-v.Y, v.X).Scale(0.18)), true
		}
		t, occupied := at[o.Target.Province]
		return from, via, arrowEnd(via, c, t, occupied, contains(res.standoffs, o.Target.Province), b.mk), curve
	}
	for _, d := range res.orders {
		if d.order.Kind == Move {
			f, _, t, _ := ends(d.order)
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
	// Each order is a group named by its kind and provinces, its failure
	// cross another over the units.
	add := func(kind string, d drawnOrder, items []picture.Item, crossAt *picture.Point) {
		o := d.order
		id := kind + "-" + o.Loc.Province
		switch o.Kind {
		case Move, Retreat, Convoy:
			id += "-" + o.Target.Province
		case SupportMove:
			id += "-" + o.Aux.Province + "-" + o.Target.Province
		case SupportHold:
			id += "-" + o.Aux.Province
		}
		if d.outcome != Succeeded {
			id = "failed-" + id
		}
		under = append(under, sl.group(picture.Group{ID: id, Items: b.across(items)}))
		if crossAt != nil {
			over = append(over, sl.group(picture.Group{ID: "cross-" + id, Items: cross(sl.list(2), sl, b.onBoard(*crossAt), 6)}))
		}
	}
	for _, d := range res.orders {
		o := d.order
		failed := d.outcome != Succeeded
		var crossAt *picture.Point
		switch o.Kind {
		case Move, Retreat:
			from, via, to, curve := ends(o)
			a := sl.arrow(picture.Arrow{From: from, To: to, Head: moveHead, Style: style(d, moveWidth, nil)})
			if curve {
				a.Curve, a.Via = true, via
			}
			if failed {
				a.HeadFill = picture.White
				c := from.Lerp(to, 0.6)
				if curve {
					c = from.Lerp(via, 0.6).Lerp(via.Lerp(to, 0.6), 0.6)
				}
				crossAt = &c
			}
			kind := "move"
			if o.Kind == Retreat {
				kind = "retreat"
			}
			add(kind, d, append(sl.list(2), casing(a), a), crossAt)
		case SupportMove:
			from := b.unitAt(o.Loc)
			mv, ok := moveOf[o.Aux.Province]
			var to picture.Point
			if ok {
				to = b.near(from, mv[0].Lerp(mv[1], 0.55))
			} else {
				// The supported move was not ordered (its support is then
				// void and not drawn) or did not parse: aim at the target.
				to = b.near(from, b.unitAt(o.Target))
			}
			a := sl.arrow(picture.Arrow{From: from, To: shorten(from, to, 3), Head: supportHead, Style: style(d, supportWidth, supportDash)})
			if failed {
				c := from.Lerp(to, 0.5)
				crossAt = &c
			}
			add("support", d, append(sl.list(2), casing(a), a), crossAt)
		case SupportHold:
			from := b.unitAt(o.Loc)
			to := b.near(from, b.unitAt(o.Aux))
			t, occupied := at[o.Aux.Province]
			end := arrowEnd(from, to, t, occupied, false, b.mk)
			st := style(d, supportWidth, supportDash)
			line := sl.path(picture.Path{Lines: sl.polylines(sl.points(from, end)), Style: st})
			if failed {
				c := from.Lerp(end, 0.5)
				crossAt = &c
			}
			add("hold-support", d, append(sl.list(2), line, holdBar(sl, from, end, st)), crossAt)
		case Convoy:
			fleet := b.unitAt(o.Loc)
			army := b.near(fleet, b.unitAt(o.Aux))
			land := b.near(fleet, b.unitAt(o.Target))
			st := style(d, convoyWidth, convoyDash)
			items := append(sl.list(2), sl.path(picture.Path{Lines: sl.polylines(sl.points(army, fleet, land)), Style: st}),
				sl.circle(picture.Circle{C: fleet, R: 22, Style: st}))
			if failed {
				c := fleet.Add(picture.Pt(0, -25))
				crossAt = &c
			}
			add("convoy", d, items, crossAt)
		case Disband:
			if res.contains(o.Loc.Province) {
				continue // drawn with the units disbanded below
			}
			c := b.unitAt(o.Loc)
			if retreat {
				c = b.dislodgedAt(o.Loc)
			}
			over = b.disbanded(over, sl, Unit{Power: d.power, Type: o.Unit, Loc: o.Loc}, c, disbandK(retreat)*b.mk)
		case Build:
			c := b.unitAt(o.Loc)
			r := unitReach(o.Unit, unitK*b.mk, picture.Pt(1, 0)) + 7
			over = append(over, sl.group(picture.Group{ID: "build-" + o.Loc.Province, Items: append(sl.list(1),
				sl.circle(picture.Circle{C: c, R: r, Style: picture.Style{Stroke: b.darks[m.powerIdx[d.power]], StrokeWidth: 3}}))}))
		}
	}
	// Units removed: ordered, forced (no retreat, or two retreats to one
	// province) or by civil disorder, all drawn the same way.
	for _, u := range res.disbanded {
		c := b.unitAt(u.Loc)
		if retreat {
			c = b.dislodgedAt(u.Loc)
		}
		over = b.disbanded(over, sl, u, c, disbandK(retreat)*b.mk)
	}
	return under, over
}

// disbandK is the scale of a disbanded unit: a dislodged one's in a
// retreat phase, a unit's otherwise.
func disbandK(retreat bool) float64 {
	if retreat {
		return dislodgedK
	}
	return unitK
}

func (r *drawnResults) isRetreatPhase() bool { return strings.Contains(r.phase, "Retreats") }

// contains reports whether a unit in prov is among those disbanded.
func (r *drawnResults) contains(prov string) bool {
	for _, u := range r.disbanded {
		if u.Loc.Province == prov {
			return true
		}
	}
	return false
}

// legendKey is the legend's static part (drawn once, in the static layer):
// its box and, right-aligned on the first two lines, a key to every
// symbol of the board.
func (b *board) legendKey() []picture.Item {
	m := b.m
	sl := &slab{}
	y0 := float64(b.h)
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.w), Y: y0}, {X: float64(b.w), Y: y0 + float64(b.legendH)}, {X: 0, Y: y0 + float64(b.legendH)}}},
			Style: picture.Style{Fill: legendBg, Stroke: borderColor, StrokeWidth: 1}},
		&picture.Text{At: picture.Pt(float64(b.w)-12, y0+85), S: "centres (units)", Size: 12, Anchor: picture.End, Color: failColor},
	}
	type entry struct {
		label string
		w     float64
		draw  func(c picture.Point) []picture.Item
	}
	p0 := m.Powers[0].ID
	dark := textColor
	l := func(c picture.Point, dx float64) (picture.Point, picture.Point) {
		return c.Add(picture.Pt(-dx, 0)), c.Add(picture.Pt(dx, 0))
	}
	rows := [2][]entry{{
		{"army", 18, func(c picture.Point) []picture.Item { return b.unit(nil, sl, Unit{Power: p0, Type: Army}, c, 0.8) }},
		{"fleet", 24, func(c picture.Point) []picture.Item {
			return b.unit(nil, sl, Unit{Power: p0, Type: Fleet}, c.Add(picture.Pt(0, 2)), 0.8)
		}},
		{"move", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			return []picture.Item{&picture.Arrow{From: a, To: z, Head: 11, Style: picture.Style{Stroke: dark, StrokeWidth: 3.5}}}
		}},
		{"support", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			return []picture.Item{&picture.Arrow{From: a, To: z, Head: 9, Style: picture.Style{Stroke: dark, StrokeWidth: supportWidth, Dash: supportDash}}}
		}},
		{"support hold", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			st := picture.Style{Stroke: dark, StrokeWidth: supportWidth, Dash: supportDash}
			return []picture.Item{&picture.Path{Lines: [][]picture.Point{{a, z}}, Style: st}, holdBar(sl, a, z, st)}
		}},
		{"convoy", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			return []picture.Item{&picture.Path{Lines: [][]picture.Point{{a, z}}, Style: picture.Style{Stroke: dark, StrokeWidth: convoyWidth, Dash: convoyDash}}}
		}},
		{"failed", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			return cross([]picture.Item{&picture.Arrow{From: a, To: z, Head: 11, HeadFill: picture.White, Style: picture.Style{Stroke: failColor, StrokeWidth: 3.5}}}, sl, c.Add(picture.Pt(-2, 0)), 5)
		}},
		{"standoff", 20, func(c picture.Point) []picture.Item { return []picture.Item{burst(sl, c, 0.65)} }},
	}, {
		{"dislodged", 24, func(c picture.Point) []picture.Item {
			return b.unit([]picture.Item{octagon(sl, c, 0.65)}, sl, Unit{Power: p0, Type: Army}, c, 0.7)
		}},
		{"may retreat to", 30, func(c picture.Point) []picture.Item {
			a, z := l(c, 15)
			return []picture.Item{&picture.Arrow{From: a, To: z, Head: 9, HeadFill: picture.White, Style: picture.Style{Stroke: dark, StrokeWidth: 1.8, Dash: optionDash}}}
		}},
		{"disbanded", 20, func(c picture.Point) []picture.Item {
			return cross(b.unit(nil, sl, Unit{Power: p0, Type: Army}, c, 0.7), sl, c, disbandCrossK*0.7)
		}},
		{"built", 24, func(c picture.Point) []picture.Item {
			return b.unit([]picture.Item{&picture.Circle{C: c, R: 11.5, Style: picture.Style{Stroke: dark, StrokeWidth: 2.4}}}, sl, Unit{Power: p0, Type: Army}, c, 0.7)
		}},
		{"passage", 46, func(c picture.Point) []picture.Item {
			a, z := l(c.Add(picture.Pt(-8, 0)), 14)
			return append(link(a, z), link(c.Add(picture.Pt(18, 0)), c.Add(picture.Pt(18, 0)))...)
		}},
		{"centre", 10, func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Circle{C: c, R: 4.5, Style: picture.Style{Fill: picture.White, Stroke: textColor, StrokeWidth: 1.4}}}
		}},
	}}
	for r, row := range rows {
		width := 0.0
		for _, e := range row {
			width += e.w + 12 + picture.TextWidth(e.label, 12, false)
		}
		x := float64(b.w) - width
		y := y0 + 19 + 28*float64(r)
		for _, e := range row {
			items = append(items, e.draw(picture.Pt(x+e.w/2, y))...)
			items = append(items, &picture.Text{At: picture.Pt(x+e.w+5, y+4), S: e.label, Size: 12, Color: textColor})
			x += e.w + 12 + picture.TextWidth(e.label, 12, false)
		}
	}
	return items
}

// legend appends to dst the legend's part that changes: the phase and
// each power's colour, initial, centres and units.
func (b *board) legend(dst []picture.Item, sl *slab, pos *Position, title string) []picture.Item {
	m := b.m
	y0 := float64(b.h)
	dst = append(dst, sl.text(picture.Text{At: picture.Pt(12, y0+24), S: title, Size: 16, Bold: true, Color: textColor}))
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
		if b.slots != nil {
			x = b.slots[i].X
			y0 = float64(b.h) + b.slots[i].Y
		}
		c := picture.Pt(x+10, y0+80)
		dst = append(dst, sl.circle(picture.Circle{C: c, R: 10, Style: picture.Style{Fill: b.colors[i], Stroke: textColor, StrokeWidth: 1.2}}),
			sl.text(picture.Text{At: c.Add(picture.Pt(0, 4.2)), S: b.initials[i], Size: 12, Bold: true, Anchor: picture.Middle, Color: contrast(b.colors[i])}))
		label := b.label(i, centres[i])
		dst = append(dst, sl.text(picture.Text{At: picture.Pt(x+25, y0+85), S: label, Size: 13, Bold: true, Color: textColor}))
		x += 25 + picture.TextWidth(label, 13, true) + 8
		sub := b.unitLabel(units[i])
		dst = append(dst, sl.text(picture.Text{At: picture.Pt(x, y0+85), S: sub, Size: 12, Color: failColor}))
		x += picture.TextWidth(sub, 12, false) + 18
	}
	return dst
}

// legendRow is the height of each row of powers after the first.
const legendRow = 26

// legendSlots wraps the powers' part of the legend into rows when one row
// under the board cannot hold every power at its widest line ("Name 99
// (99)"); with one row the legend is laid out as the lines come.
func (b *board) legendSlots() {
	b.legendH = legendHeight
	widths := make([]float64, len(b.m.Powers))
	total := 12.0
	for i, p := range b.m.Powers {
		widths[i] = 25 + picture.TextWidth(p.Name+" 99", 13, true) + 8 + picture.TextWidth("(99)", 12, false) + 18
		total += widths[i]
	}
	if total <= float64(b.w) {
		return
	}
	// Rows keep clear of the "centres (units)" key at the right.
	limit := float64(b.w) - 12 - picture.TextWidth("centres (units)", 12, false) - 12
	x, y := 12.0, 0.0
	for i := range b.m.Powers {
		if x > 12 && x+widths[i] > limit {
			x, y = 12, y+legendRow
		}
		b.slots = append(b.slots, picture.Point{X: x, Y: y})
		x += widths[i]
	}
	b.legendH = legendHeight + int(y)
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
