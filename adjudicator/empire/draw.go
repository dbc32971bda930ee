package empire

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

// This file draws a power's own view of the world board as a picture (the
// adjudicator.Drawer of the engine). What never changes for a board (hex
// shapes, their land wedges, names) is built once per world, at its first
// picture, and kept in a small cache beside the decoded worlds.
//
// The picture shows what the viewer's text view shows, no more:
//   - every hex with its land: each of its six wedges land (beige) or
//     water (blue), so shorelines and straits read as on the physical
//     tiles; land hexes are named ("C4", as orders write them), columns
//     and rows are lettered and numbered at the edges;
//   - with fog of war, the hexes out of the viewer's sight greyed: no unit
//     is drawn there;
//   - the units the viewer sees, per hex and power: a box in the power's
//     colour with its letter and the number of units ("R3"), a badge for
//     a factory (F), a base (B) or a headquarters (H), a dashed box when
//     some are disabled; a unit on the move as an arrow into its second
//     hex;
//   - in a tactical turn, the viewer's supply groups without a supply
//     generator, their hexes ringed in red;
//   - a legend: the phase, the powers (letter, colour; what the viewer may
//     know of their forces: all of it without fog, nothing with it), the
//     viewer's own pools and production, a key.
//
// Another power's unit pools are never drawn (only their number, without
// fog, as the text gives it); the viewer "" (an observer) sees the board
// as the public report does: everything without fog, no unit with it.

// Power colours: the counters' colours, from Okabe & Ito's palette where
// it has them (vermillion, blue, bluish green, yellow), the rest plain.
var powerColors = map[string]picture.Color{
	"red": picture.Hex(0xD55E00), "blue": picture.Hex(0x0072B2), "green": picture.Hex(0x009E73), "yellow": picture.Hex(0xF0E442),
	"white": picture.Hex(0xFFFFFF), "black": picture.Hex(0x333333), "khaki": picture.Hex(0xC3B091), "olive": picture.Hex(0x6B6B00),
}

var (
	seaColor      = picture.Hex(0xd6e7f2)
	landColor     = picture.Hex(0xf3ecdb)
	fogLandColor  = picture.Hex(0xcdc8be)
	fogSeaColor   = picture.Hex(0xb9c6d0)
	hexLineColor  = picture.Hex(0x9a9488)
	textColor     = picture.Hex(0x1e1e1e)
	mutedColor    = picture.Hex(0x6b6b6b)
	legendBg      = picture.Hex(0xfaf8f2)
	borderColor   = picture.Hex(0x4a4a4a)
	noSupplyColor = picture.Hex(0xc4001a)
)

// Picture sizes.
const (
	pictureWidth = 1200 // at least; a wide board makes it wider
	margin       = 26.0 // for the column letters and row numbers
	legendHeight = 96
)

// hexBoard is what every picture of one world shares.
type hexBoard struct {
	w       *World
	s       float64 // hex size: centre to corner
	hw      float64 // hex width
	width   int
	mapH    float64 // height of the map part
	regions *picture.Regions
	static  *picture.Layer
	palette []picture.Color
}

// boards caches the board of each world (worlds are immutable and cached
// themselves), bounded as the world cache is.
var boards = struct {
	mu sync.Mutex
	m  map[*World]*hexBoard
}{m: map[*World]*hexBoard{}}

func boardOf(w *World) *hexBoard {
	boards.mu.Lock()
	defer boards.mu.Unlock()
	if b, ok := boards.m[w]; ok {
		return b
	}
	b := newHexBoard(w)
	if len(boards.m) >= 64 {
		clear(boards.m)
	}
	boards.m[w] = b
	return b
}

// centre is the centre of hex i in pixels.
func (b *hexBoard) centre(i int) picture.Point {
	r, c := i/b.w.g.w, i%b.w.g.w
	x := margin + b.hw*(float64(c)+0.5)
	if r%2 == 1 {
		x += b.hw / 2
	}
	return picture.Pt(x, margin+b.s+1.5*b.s*float64(r))
}

// corner is corner k of hex i: k = 0 at 30° (above east), counter-clockwise;
// the wedge facing direction d lies between corners d-1 and d.
func (b *hexBoard) corner(i, k int) picture.Point {
	c := b.centre(i)
	a := math.Pi / 180 * float64(30+60*k)
	return picture.Pt(c.X+b.s*math.Cos(a), c.Y-b.s*math.Sin(a))
}

// wedgeShape returns the rings covering the wedges of hex i for which want
// is true: each run of neighbouring wedges one fan from the centre (the
// whole hexagon when all six).
func (b *hexBoard) wedgeShape(i int, want func(d int) bool) [][]picture.Point {
	n := 0
	for d := 0; d < 6; d++ {
		if want(d) {
			n++
		}
	}
	switch n {
	case 0:
		return nil
	case 6:
		var ring []picture.Point
		for k := 0; k < 6; k++ {
			ring = append(ring, b.corner(i, k))
		}
		return [][]picture.Point{ring}
	}
	// Start each run after a wedge that is not wanted.
	var rings [][]picture.Point
	for d := 0; d < 6; d++ {
		if !want(d) || want((d+5)%6) {
			continue
		}
		ring := []picture.Point{b.centre(i), b.corner(i, (d+5)%6)}
		for e := d; want(e%6) && e < d+6; e++ {
			ring = append(ring, b.corner(i, e%6))
		}
		rings = append(rings, ring)
	}
	return rings
}

func newHexBoard(w *World) *hexBoard {
	cols, rows := w.g.w, w.g.h
	hw := math.Min(64, math.Max(40, (pictureWidth-2*margin)/(float64(cols)+0.5)))
	b := &hexBoard{w: w, hw: hw, s: hw / math.Sqrt(3)}
	b.width = int(math.Max(pictureWidth, math.Ceil(2*margin+hw*(float64(cols)+0.5))))
	b.mapH = math.Ceil(2*margin + b.s*(1.5*float64(rows)+0.5))

	var shapes [][][]picture.Point
	for i := 0; i < w.Hexes(); i++ {
		m := w.land[i]
		shapes = append(shapes, b.wedgeShape(i, m.land), b.wedgeShape(i, func(d int) bool { return !m.land(d) }))
	}
	b.regions = picture.NewRegions("hexes", shapes, nil)

	var items []picture.Item
	// Hex edges, each once.
	var edges [][]picture.Point
	for i := 0; i < w.Hexes(); i++ {
		for d := 0; d < 6; d++ {
			if n := w.g.neighbour(i, d); n < 0 || n > i {
				edges = append(edges, []picture.Point{b.corner(i, (d+5)%6), b.corner(i, d)})
			}
		}
	}
	items = append(items, &picture.Path{Lines: edges, Style: picture.Style{Stroke: hexLineColor, StrokeWidth: 0.8}})
	// Shorelines: the edges of land wedges facing water inside a hex.
	var shore [][]picture.Point
	for i := 0; i < w.Hexes(); i++ {
		m := w.land[i]
		if m == 0 || m == allLand {
			continue
		}
		for d := 0; d < 6; d++ {
			if m.land(d) != m.land((d+5)%6) {
				shore = append(shore, []picture.Point{b.centre(i), b.corner(i, (d+5)%6)})
			}
		}
	}
	items = append(items, &picture.Path{Lines: shore, Style: picture.Style{Stroke: picture.Hex(0x7d95a8), StrokeWidth: 1}})
	// Names of land hexes; column letters and row numbers.
	for i := 0; i < w.Hexes(); i++ {
		if w.Fragments(i) == 0 {
			continue
		}
		c := b.centre(i)
		items = append(items, &picture.Text{At: c.Add(picture.Pt(0, -b.s*0.5)), S: w.HexName(i), Size: 11, Anchor: picture.Middle, Color: mutedColor, Halo: landColor.Alpha(200)})
	}
	for c := 0; c < cols; c++ {
		x := margin + hw*(float64(c)+0.75)
		items = append(items, &picture.Text{At: picture.Pt(x, margin-8), S: string(rune('A' + c)), Size: 12, Bold: true, Anchor: picture.Middle, Color: textColor})
	}
	for r := 0; r < rows; r++ {
		y := margin + b.s + 1.5*b.s*float64(r) + 4
		items = append(items, &picture.Text{At: picture.Pt(margin/2, y), S: strconv.Itoa(r + 1), Size: 12, Bold: true, Anchor: picture.Middle, Color: textColor})
	}
	items = append(items, b.legendKey()...)
	b.static = picture.NewLayer("board", items...)

	b.palette = []picture.Color{seaColor, landColor, fogLandColor, fogSeaColor, hexLineColor, textColor, mutedColor, legendBg, borderColor,
		noSupplyColor, picture.White, picture.Black, picture.Hex(0x7d95a8)}
	for _, p := range powerIDs {
		b.palette = append(b.palette, powerColors[p])
	}
	return b
}

var _ adjudicator.Drawer = (*Engine)(nil)

// Draw implements adjudicator.Drawer: viewer's own view of state (after
// the phases whose Report.Data results is, when given), with its fog of
// war; "" is an observer's (the public) view.
func (e *Engine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	g, err := e.decode(state)
	if err != nil {
		return nil, err
	}
	if viewer != "" && g.powerIndex(viewer) == len(g.Powers) {
		return nil, fmt.Errorf("empire: unknown power %q", viewer)
	}
	title := g.phaseTitle()
	if results != nil {
		var prs []PhaseResult
		if err := json.Unmarshal(results, &prs); err != nil {
			return nil, fmt.Errorf("empire: results: %w", err)
		}
		if len(prs) > 0 {
			title = prs[len(prs)-1].Title + " — results"
		}
	}
	return g.draw(viewer, title), nil
}

// viewSight is the hexes viewer sees: nil for all (no fog), none for an
// observer under fog.
func (g *Game) viewSight(viewer string) []bool {
	if viewer == "" {
		if g.Opts.Fog == 0 {
			return nil
		}
		return make([]bool, g.World.Hexes())
	}
	return g.sight(viewer)
}

// stack is what a picture shows of one power's units in one hex.
type stack struct {
	owner       string
	n, disabled int
	marker      byte
	moving      []int // hexes the stack's moving units go on to
}

func (g *Game) draw(viewer, title string) *picture.Picture {
	w := g.World
	b := boardOf(w)
	vis := g.viewSight(viewer)
	p := &picture.Picture{Width: b.width, Height: int(b.mapH) + legendHeight, Title: w.Title + ": " + title, Background: seaColor, Palette: b.palette}
	if viewer != "" {
		p.Title += " (" + titleOf(viewer) + "'s view)"
	}
	fill := make([]picture.Color, 2*w.Hexes())
	for i := 0; i < w.Hexes(); i++ {
		fill[2*i], fill[2*i+1] = landColor, seaColor
		if !seen(vis, i) {
			fill[2*i], fill[2*i+1] = fogLandColor, fogSeaColor
		}
	}
	p.Add(&picture.RegionFill{Set: b.regions, Fill: fill}, b.static)

	// Supply: the viewer's groups that have no generator in a tactical turn.
	var supply []picture.Item
	if viewer != "" && g.Step == stepTactical {
		for _, gr := range g.groups(viewer) {
			gen, needy := false, false
			for _, u := range gr.Units {
				gen = gen || (u.Type.Tactical.Produces == "full" && !u.Disabled)
				needy = needy || u.Type.Tactical.Needs()
			}
			if gen || !needy {
				continue
			}
			for _, h := range gr.Hexes {
				ring := b.wedgeShape(h, func(int) bool { return true })[0]
				c := b.centre(h)
				for k := range ring {
					ring[k] = c.Lerp(ring[k], 0.86)
				}
				supply = append(supply, &picture.Path{Rings: [][]picture.Point{ring}, Style: picture.Style{Stroke: noSupplyColor, StrokeWidth: 2.5, Dash: []float64{5, 3}}})
			}
		}
	}
	p.Add(&picture.Group{ID: "supply", Items: supply})

	// Units by hex and power, in the powers' order.
	stacks := map[int][]*stack{}
	var hexes []int
	for _, u := range g.Units {
		if u.Pooled || !seesUnit(vis, viewer, u) {
			continue
		}
		h := u.At
		if !seen(vis, h) && u.Owner != viewer {
			// A unit on the move seen only in its second hex stands there.
			h = u.To
		}
		var st *stack
		for _, s := range stacks[h] {
			if s.owner == u.Owner {
				st = s
			}
		}
		if st == nil {
			if stacks[h] == nil {
				hexes = append(hexes, h)
			}
			st = &stack{owner: u.Owner}
			stacks[h] = append(stacks[h], st)
		}
		st.n++
		if u.Disabled {
			st.disabled++
		}
		var m byte
		switch {
		case u.Type.ProducesUnits:
			m = 'F'
		case u.Type.Class == "stationary":
			m = 'B'
		case u.Type.Class == "hq":
			m = 'H'
		}
		if rank(m) > rank(st.marker) {
			st.marker = m
		}
		if u.To >= 0 && h == u.At {
			st.moving = append(st.moving, u.To)
		}
	}
	var arrows, tokens []picture.Item
	sortInts(hexes)
	for _, h := range hexes {
		ss := stacks[h]
		c := b.centre(h)
		for k, st := range ss {
			at := c.Add(picture.Pt(0, b.s*0.05+float64(k)*17-float64(len(ss)-1)*8.5))
			tokens = append(tokens, b.token(at, st)...)
			done := map[int]bool{}
			for _, to := range st.moving {
				if done[to] {
					continue
				}
				done[to] = true
				tc := b.centre(to)
				arrows = append(arrows, &picture.Arrow{From: at.Lerp(tc, 0.28), To: at.Lerp(tc, 0.68), Head: 9,
					Style: picture.Style{Stroke: powerColors[st.owner].Mix(picture.Black, 0.25), StrokeWidth: 3}})
			}
		}
	}
	p.Add(&picture.Group{ID: "moves", Items: arrows}, &picture.Group{ID: "units", Items: tokens})
	p.Add(g.legend(b, viewer, vis, title)...)
	return p
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// contrast is black or white, whichever reads better on c.
func contrast(c picture.Color) picture.Color {
	if 0.2126*float64(c.R)+0.7152*float64(c.G)+0.0722*float64(c.B) > 140 {
		return picture.Black
	}
	return picture.White
}

// token draws one power's units in a hex: a box with the power's letter and
// the count, a marker badge, dashed when some are disabled.
func (b *hexBoard) token(c picture.Point, st *stack) []picture.Item {
	col := powerColors[st.owner]
	label := letterOf(st.owner) + strconv.Itoa(st.n)
	wd := math.Max(24, picture.TextWidth(label, 11, true)+8)
	hw, hh := wd/2, 7.5
	ring := []picture.Point{c.Add(picture.Pt(-hw, -hh)), c.Add(picture.Pt(hw, -hh)), c.Add(picture.Pt(hw, hh)), c.Add(picture.Pt(-hw, hh))}
	st2 := picture.Style{Fill: col, Stroke: textColor, StrokeWidth: 1.3}
	if st.disabled > 0 {
		st2.Dash = []float64{3, 2}
		st2.StrokeWidth = 1.8
	}
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{ring}, Style: st2},
		&picture.Text{At: c.Add(picture.Pt(0, 4)), S: label, Size: 11, Bold: true, Anchor: picture.Middle, Color: contrast(col)},
	}
	if st.marker != 0 {
		m := c.Add(picture.Pt(hw+6, 0))
		items = append(items, &picture.Path{Rings: [][]picture.Point{{m.Add(picture.Pt(-6, -7)), m.Add(picture.Pt(6, -7)), m.Add(picture.Pt(6, 7)), m.Add(picture.Pt(-6, 7))}},
			Style: picture.Style{Fill: textColor, Stroke: picture.White, StrokeWidth: 1}},
			&picture.Text{At: m.Add(picture.Pt(0, 4)), S: string(st.marker), Size: 11, Bold: true, Anchor: picture.Middle, Color: picture.White})
	}
	return items
}

// legendKey is the legend's static part: its box and the key.
func (b *hexBoard) legendKey() []picture.Item {
	y0 := b.mapH
	items := []picture.Item{&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.width), Y: y0}, {X: float64(b.width), Y: y0 + legendHeight}, {X: 0, Y: y0 + legendHeight}}},
		Style: picture.Style{Fill: legendBg, Stroke: borderColor, StrokeWidth: 1}}}
	y := y0 + legendHeight - 16
	x := 12.0
	entry := func(wd float64, label string, draw func(c picture.Point) []picture.Item) {
		items = append(items, draw(picture.Pt(x+wd/2, y))...)
		items = append(items, &picture.Text{At: picture.Pt(x+wd+6, y+4), S: label, Size: 12, Color: textColor})
		x += wd + 6 + picture.TextWidth(label, 12, false) + 18
	}
	entry(38, "units of a power", func(c picture.Point) []picture.Item {
		return b.token(c.Add(picture.Pt(-6, 0)), &stack{owner: "red", n: 3, marker: 'F'})
	})
	entry(24, "some disabled", func(c picture.Point) []picture.Item { return b.token(c, &stack{owner: "blue", n: 2, disabled: 1}) })
	items = append(items, &picture.Text{At: picture.Pt(x, y+4), S: "F factory, B base, H headquarters", Size: 12, Color: textColor})
	x += picture.TextWidth("F factory, B base, H headquarters", 12, false) + 18
	entry(28, "on the move", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-14, 0)), To: c.Add(picture.Pt(14, 0)), Head: 9, Style: picture.Style{Stroke: textColor, StrokeWidth: 3}}}
	})
	entry(20, "out of supply", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Circle{C: c, R: 8, Style: picture.Style{Stroke: noSupplyColor, StrokeWidth: 2.5, Dash: []float64{5, 3}}}}
	})
	entry(18, "out of sight", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Rings: [][]picture.Point{{c.Add(picture.Pt(-9, -7)), c.Add(picture.Pt(9, -7)), c.Add(picture.Pt(9, 7)), c.Add(picture.Pt(-9, 7))}}, Style: picture.Style{Fill: fogLandColor, Stroke: hexLineColor}}}
	})
	return items
}

// legend is what the viewer may know of the powers and its own position.
func (g *Game) legend(b *hexBoard, viewer string, vis []bool, title string) []picture.Item {
	y0 := b.mapH
	items := []picture.Item{&picture.Text{At: picture.Pt(12, y0+22), S: title, Size: 16, Bold: true, Color: textColor}}
	var right string
	if g.Opts.Fog > 0 {
		hexes := fmt.Sprintf("%d hex%s", g.Opts.Fog, map[bool]string{true: "", false: "es"}[g.Opts.Fog == 1])
		right = "Fog of war: you see " + hexes + " around your units"
		if viewer == "" {
			right = "Fog of war: each power sees " + hexes + " around its units"
		}
	}
	if viewer != "" && g.alive(viewer) {
		var pools []string
		for _, u := range g.unitsOf(viewer) {
			if u.Pooled {
				pools = append(pools, u.Name()+"@"+g.World.HexName(u.At))
			}
		}
		own := fmt.Sprintf("Your production: %d a strategic turn", g.score(viewer))
		if len(pools) > 0 {
			own += "; pools: " + strings.Join(pools, " ")
		}
		if right != "" {
			right += " · "
		}
		right += own
	}
	if right != "" {
		items = append(items, &picture.Text{At: picture.Pt(float64(b.width)-12, y0+22), S: right, Size: 12, Anchor: picture.End, Color: textColor})
	}
	x := 12.0
	y := y0 + 48
	for _, pw := range g.Powers {
		label := titleOf(pw)
		if pw == viewer {
			label += " (you)"
		}
		var detail string
		switch {
		case !g.alive(pw):
			detail = "out"
		case vis == nil || pw == viewer:
			onBoard, pooled := 0, 0
			for _, u := range g.unitsOf(pw) {
				if u.Pooled {
					pooled++
				} else {
					onBoard++
				}
			}
			detail = fmt.Sprintf("%d units", onBoard)
			if pooled > 0 {
				detail += fmt.Sprintf(", %d pooled", pooled)
			}
			detail += fmt.Sprintf(", production %d", g.score(pw))
		}
		wd := 32 + picture.TextWidth(label, 12, true) + picture.TextWidth(detail, 12, false)
		if x+wd > float64(b.width)-12 {
			x, y = 12, y+19
		}
		col := powerColors[pw]
		c := picture.Pt(x+12, y-4)
		items = append(items,
			&picture.Path{Rings: [][]picture.Point{{c.Add(picture.Pt(-11, -7.5)), c.Add(picture.Pt(11, -7.5)), c.Add(picture.Pt(11, 7.5)), c.Add(picture.Pt(-11, 7.5))}},
				Style: picture.Style{Fill: col, Stroke: textColor, StrokeWidth: 1.3}},
			&picture.Text{At: c.Add(picture.Pt(0, 4)), S: letterOf(pw), Size: 11, Bold: true, Anchor: picture.Middle, Color: contrast(col)},
			&picture.Text{At: picture.Pt(x+28, y), S: label, Size: 12, Bold: true, Color: textColor})
		if detail != "" {
			items = append(items, &picture.Text{At: picture.Pt(x+32+picture.TextWidth(label, 12, true), y), S: detail, Size: 12, Color: mutedColor})
		}
		x += wd + 22
	}
	return items
}
