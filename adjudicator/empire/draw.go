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
//   - every hex with its land: the land beige, the water blue; in a
//     shoreline hex each water wedge is a band along the edge it faces
//     (coastDepth), so coasts run beside the hex edges, a strait is two
//     bands facing each other, and the land reaches the centre; columns
//     are lettered above and below the board and rows numbered left and
//     right, no hex carries its name;
//   - with fog of war, the hexes out of the viewer's sight darker, land
//     and water still told apart: no unit is drawn there;
//   - the units the viewer sees, per hex and power: a box in the power's
//     colour with its letter and the number of units ("R3"), a badge for
//     a factory (F), a base (B) or a headquarters (H), a dashed box when
//     some are disabled; a unit on the move as an arrow into its second
//     hex; the viewer's own larger and ringed in white;
//   - what the phases of a results picture did (drawmarks.go);
//   - in a tactical turn, the viewer's supply groups without a supply
//     generator, their hexes ringed in red;
//   - a legend: the phase, the powers (letter, colour; what the viewer may
//     know of their forces: all of it without fog, nothing with it), the
//     viewer's own pools and production, a key.
//
// Another power's unit pools are never drawn (only their number, without
// fog, as the text gives it). The viewer "" is the GM's and observers'
// picture: every unit on the board, fog or not.

// Power colours: the counters' colours, from Okabe & Ito's palette where
// it has them (vermillion, blue, bluish green, yellow), the rest plain.
var powerColors = map[string]picture.Color{
	"red": picture.Hex(0xD55E00), "blue": picture.Hex(0x0072B2), "green": picture.Hex(0x009E73), "yellow": picture.Hex(0xF0E442),
	"white": picture.Hex(0xFFFFFF), "black": picture.Hex(0x333333), "khaki": picture.Hex(0xC3B091), "olive": picture.Hex(0x6B6B00),
}

var (
	seaColor     = picture.Hex(0xcfe3f1)
	landColor    = picture.Hex(0xf3ecdb)
	fogLandColor = picture.Hex(0xc4b89c) // out of sight: darker, but land still reads as land
	fogSeaColor  = picture.Hex(0x8eaac0) // and water as water
	hexLineColor = picture.Hex(0x9a9488)
	coastColor   = picture.Hex(0x4f7694)
	textColor    = picture.Hex(0x1e1e1e)
	mutedColor   = picture.Hex(0x6b6b6b)
	legendBg     = picture.Hex(0xfaf8f2)
	borderColor  = picture.Hex(0x4a4a4a)
	// noSupplyColor rings groups without supply and crosses out units
	// that perished; battleColor is a battle's burst.
	noSupplyColor = picture.Hex(0xc4001a)
	battleColor   = picture.Hex(0xffd23f)
	ownRing       = picture.Hex(0xffffff)
)

// Picture sizes.
const (
	pictureWidth = 1200 // at least; a wide board makes it wider
	margin       = 26.0 // for the column letters and row numbers
	legendHeight = 140
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

// hexagon is the ring of hex i's corners scaled by k around its centre.
func (b *hexBoard) hexagon(i int, k float64) []picture.Point {
	c := b.centre(i)
	ring := make([]picture.Point, 6)
	for j := range ring {
		ring[j] = c.Lerp(b.corner(i, j), k)
	}
	return ring
}

// coastDepth is how far water reaches into a shoreline hex from an edge
// its wedge faces water across, as a share of the way to the centre: a
// water wedge is drawn as a band along its edge, so coasts run beside the
// hex edges and two water wedges facing each other make a strait.
const coastDepth = 0.38

// inner is corner k of hex i where a water band along the edge ends.
func (b *hexBoard) inner(i, k int) picture.Point {
	return b.centre(i).Lerp(b.corner(i, k), 1-coastDepth)
}

// landShape and waterShape split hex i into its land and its water: all
// of it for an open water or all-land hex; in a shoreline hex a band
// along each edge whose wedge is water, the rest land.
func (b *hexBoard) landShape(i int) [][]picture.Point {
	m := b.w.land[i]
	switch m {
	case 0:
		return nil
	case allLand:
		return [][]picture.Point{b.hexagon(i, 1)}
	}
	// Corner k lies between wedges k and k+1: outer where both are land,
	// inner where both are water, both points where the coast turns.
	var ring []picture.Point
	for k := 0; k < 6; k++ {
		here, next := m.land(k), m.land((k+1)%6)
		switch {
		case here && next:
			ring = append(ring, b.corner(i, k))
		case !here && !next:
			ring = append(ring, b.inner(i, k))
		case here:
			ring = append(ring, b.corner(i, k), b.inner(i, k))
		default:
			ring = append(ring, b.inner(i, k), b.corner(i, k))
		}
	}
	return [][]picture.Point{ring}
}

func (b *hexBoard) waterShape(i int) [][]picture.Point {
	m := b.w.land[i]
	switch m {
	case 0:
		return [][]picture.Point{b.hexagon(i, 1)}
	case allLand:
		return nil
	}
	var rings [][]picture.Point
	for d := 0; d < 6; d++ {
		if !m.land(d) {
			k := (d + 5) % 6
			rings = append(rings, []picture.Point{b.corner(i, k), b.corner(i, d), b.inner(i, d), b.inner(i, k)})
		}
	}
	return rings
}

// coasts are the lines between land and water: inside shoreline hexes,
// and along a hex edge where land on one side meets water on the other.
func (b *hexBoard) coasts() [][]picture.Point {
	w := b.w
	var lines [][]picture.Point
	for i := 0; i < w.Hexes(); i++ {
		m := w.land[i]
		if m != 0 && m != allLand {
			for d := 0; d < 6; d++ {
				k := (d + 5) % 6
				if m.land(d) {
					continue
				}
				lines = append(lines, []picture.Point{b.inner(i, k), b.inner(i, d)})
				if m.land(k) {
					lines = append(lines, []picture.Point{b.inner(i, k), b.corner(i, k)})
				}
				if m.land((d + 1) % 6) {
					lines = append(lines, []picture.Point{b.inner(i, d), b.corner(i, d)})
				}
			}
		}
		for d := 0; d < 6; d++ {
			n := w.g.neighbour(i, d)
			if n < 0 || n < i {
				continue
			}
			if m.land(d) != w.land[n].land(opposite(d)) {
				lines = append(lines, []picture.Point{b.corner(i, (d+5)%6), b.corner(i, d)})
			}
		}
	}
	return lines
}

func newHexBoard(w *World) *hexBoard {
	cols, rows := w.g.w, w.g.h
	hw := math.Min(64, math.Max(40, (pictureWidth-2*margin)/(float64(cols)+0.5)))
	b := &hexBoard{w: w, hw: hw, s: hw / math.Sqrt(3)}
	b.width = int(math.Max(pictureWidth, math.Ceil(2*margin+hw*(float64(cols)+0.5))))
	b.mapH = math.Ceil(2*margin + b.s*(1.5*float64(rows)+0.5))

	var shapes [][][]picture.Point
	for i := 0; i < w.Hexes(); i++ {
		shapes = append(shapes, b.landShape(i), b.waterShape(i))
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
	items = append(items, &picture.Path{Lines: edges, Style: picture.Style{Stroke: hexLineColor, StrokeWidth: 0.8}},
		&picture.Path{Lines: b.coasts(), Style: picture.Style{Stroke: coastColor, StrokeWidth: 1.6}})
	// Coordinates on the edges of the board only: column letters above
	// the first row and below the last, row numbers left and right, each
	// beside the hexes it names.
	right := margin + hw*(float64(cols)+0.5)
	for c := 0; c < cols; c++ {
		l := string(rune('A' + c))
		top := b.centre(c)
		bottom := b.centre((rows-1)*cols + c)
		items = append(items,
			&picture.Text{At: picture.Pt(top.X, margin-8), S: l, Size: 13, Bold: true, Anchor: picture.Middle, Color: textColor},
			&picture.Text{At: picture.Pt(bottom.X, b.mapH-margin+18), S: l, Size: 13, Bold: true, Anchor: picture.Middle, Color: textColor})
	}
	for r := 0; r < rows; r++ {
		y := b.centre(r*cols).Y + 4
		n := strconv.Itoa(r + 1)
		items = append(items,
			&picture.Text{At: picture.Pt(margin/2, y), S: n, Size: 13, Bold: true, Anchor: picture.Middle, Color: textColor},
			&picture.Text{At: picture.Pt(right+margin/2, y), S: n, Size: 13, Bold: true, Anchor: picture.Middle, Color: textColor})
	}
	items = append(items, b.legendKey()...)
	b.static = picture.NewLayer("board", items...)

	b.palette = []picture.Color{seaColor, landColor, fogLandColor, fogSeaColor, hexLineColor, textColor, mutedColor, legendBg, borderColor,
		noSupplyColor, picture.White, picture.Black, coastColor, battleColor, ownRing}
	for _, p := range powerIDs {
		b.palette = append(b.palette, powerColors[p])
	}
	return b
}

var _ adjudicator.Drawer = (*Engine)(nil)

// Draw implements adjudicator.Drawer: viewer's own view of state (after
// the phases whose Report.Data results is, when given, with what those
// phases did marked), with its fog of war; "" (the GM's and observers'
// picture) shows every unit.
func (e *Engine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	g, err := e.decode(state)
	if err != nil {
		return nil, err
	}
	if viewer != "" && g.powerIndex(viewer) == len(g.Powers) {
		return nil, fmt.Errorf("empire: unknown power %q", viewer)
	}
	title := g.phaseTitle()
	var prs []PhaseResult
	if results != nil {
		if err := json.Unmarshal(results, &prs); err != nil {
			return nil, fmt.Errorf("empire: results: %w", err)
		}
		if len(prs) > 0 {
			title = prs[len(prs)-1].Title + " — results"
		}
	}
	return g.draw(viewer, title, prs), nil
}

// viewSight is the hexes viewer sees: nil for all (no fog, or the GM's
// and observers' picture "").
func (g *Game) viewSight(viewer string) []bool {
	if viewer == "" {
		return nil
	}
	return g.sight(viewer)
}

// stack is what a picture shows of one power's units in one hex.
type stack struct {
	owner       string
	n, disabled int
	marker      byte
	moving      []int // hexes the stack's moving units go on to
	own         bool  // the viewer's: drawn larger, ringed
}

func (g *Game) draw(viewer, title string, prs []PhaseResult) *picture.Picture {
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
				supply = append(supply, &picture.Path{Rings: [][]picture.Point{b.hexagon(h, 0.86)}, Style: picture.Style{Stroke: noSupplyColor, StrokeWidth: 2.5, Dash: []float64{5, 3}}})
			}
		}
	}
	p.Add(&picture.Group{ID: "supply", Items: supply})

	// What the phase did, under the units.
	marks := g.phaseMarks(b, viewer, vis, prs)
	p.Add(marks.under...)

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
			st = &stack{owner: u.Owner, own: u.Owner == viewer}
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
		step := 0.0
		for _, st := range ss {
			step += st.height() + 2
		}
		y := c.Y + b.s*0.05 - step/2
		for _, st := range ss {
			at := picture.Pt(c.X, y+st.height()/2+1)
			y += st.height() + 2
			tokens = append(tokens, b.token(at, st)...)
			done := map[int]bool{}
			for _, to := range st.moving {
				if done[to] {
					continue
				}
				done[to] = true
				tc := b.centre(to)
				wd, head := 3.0, 9.0
				if st.own {
					wd, head = 5, 14
				}
				arrows = append(arrows, &picture.Arrow{From: at.Lerp(tc, 0.28), To: at.Lerp(tc, 0.72), Head: head,
					Style: picture.Style{Stroke: powerColors[st.owner].Mix(picture.Black, 0.25), StrokeWidth: wd}})
			}
		}
	}
	p.Add(&picture.Group{ID: "moves", Items: arrows}, &picture.Group{ID: "units", Items: tokens})
	p.Add(marks.over...)
	p.Add(g.legend(b, viewer, vis, title, marks.eliminated)...)
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

// height is the height of a stack's token: the viewer's own are larger,
// to be found on a phone screen without zooming.
func (st *stack) height() float64 {
	if st.own {
		return 22
	}
	return 15
}

// token draws one power's units in a hex: a box with the power's letter and
// the count, a marker badge, dashed when some are disabled; the viewer's
// own larger and ringed in white.
func (b *hexBoard) token(c picture.Point, st *stack) []picture.Item {
	col := powerColors[st.owner]
	label := letterOf(st.owner) + strconv.Itoa(st.n)
	size, pad := 11.0, 8.0
	if st.own {
		size, pad = 16, 10
	}
	wd := math.Max(st.height()*1.6, picture.TextWidth(label, size, true)+pad)
	hw, hh := wd/2, st.height()/2
	box := func(hw, hh float64) []picture.Point {
		return []picture.Point{c.Add(picture.Pt(-hw, -hh)), c.Add(picture.Pt(hw, -hh)), c.Add(picture.Pt(hw, hh)), c.Add(picture.Pt(-hw, hh))}
	}
	var items []picture.Item
	if st.own {
		items = append(items, &picture.Path{Rings: [][]picture.Point{box(hw+3, hh+3)}, Style: picture.Style{Fill: ownRing, Stroke: textColor, StrokeWidth: 1.2}})
	}
	st2 := picture.Style{Fill: col, Stroke: textColor, StrokeWidth: 1.3}
	if st.disabled > 0 {
		st2.Dash = []float64{3, 2}
		st2.StrokeWidth = 1.8
	}
	items = append(items,
		&picture.Path{Rings: [][]picture.Point{box(hw, hh)}, Style: st2},
		&picture.Text{At: c.Add(picture.Pt(0, size*0.36)), S: label, Size: size, Bold: true, Anchor: picture.Middle, Color: contrast(col)})
	if st.marker != 0 {
		m := c.Add(picture.Pt(hw+hh-1, 0))
		items = append(items, &picture.Path{Rings: [][]picture.Point{{m.Add(picture.Pt(-hh+1, -hh)), m.Add(picture.Pt(hh-1, -hh)), m.Add(picture.Pt(hh-1, hh)), m.Add(picture.Pt(-hh+1, hh))}},
			Style: picture.Style{Fill: textColor, Stroke: picture.White, StrokeWidth: 1}},
			&picture.Text{At: m.Add(picture.Pt(0, size*0.36)), S: string(st.marker), Size: size, Bold: true, Anchor: picture.Middle, Color: picture.White})
	}
	return items
}

// legendKey is the legend's static part: its box and the key, in two
// rows: what stands on the board, then what a phase did.
func (b *hexBoard) legendKey() []picture.Item {
	y0 := b.mapH
	items := []picture.Item{&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.width), Y: y0}, {X: float64(b.width), Y: y0 + legendHeight}, {X: 0, Y: y0 + legendHeight}}},
		Style: picture.Style{Fill: legendBg, Stroke: borderColor, StrokeWidth: 1}}}
	var x, y float64
	entry := func(wd float64, label string, draw func(c picture.Point) []picture.Item) {
		items = append(items, draw(picture.Pt(x+wd/2, y))...)
		items = append(items, &picture.Text{At: picture.Pt(x+wd+6, y+4), S: label, Size: 12, Color: textColor})
		x += wd + 6 + picture.TextWidth(label, 12, false) + 18
	}
	box := func(c picture.Point, col picture.Color) *picture.Path {
		return &picture.Path{Rings: [][]picture.Point{{c.Add(picture.Pt(-9, -7)), c.Add(picture.Pt(9, -7)), c.Add(picture.Pt(9, 7)), c.Add(picture.Pt(-9, 7))}}, Style: picture.Style{Fill: col, Stroke: hexLineColor}}
	}
	// The first entry is the viewer's (ownKey), drawn per picture in the
	// slot left for it here.
	x, y = 12+ownKeyWidth(), y0+legendHeight-48
	entry(38, "another power's", func(c picture.Point) []picture.Item {
		return b.token(c.Add(picture.Pt(-6, 0)), &stack{owner: "blue", n: 2})
	})
	entry(24, "some disabled", func(c picture.Point) []picture.Item { return b.token(c, &stack{owner: "green", n: 2, disabled: 1}) })
	items = append(items, &picture.Text{At: picture.Pt(x, y+4), S: "F factory, B base, H headquarters", Size: 12, Color: textColor})
	x += picture.TextWidth("F factory, B base, H headquarters", 12, false) + 18
	entry(28, "on the move", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-14, 0)), To: c.Add(picture.Pt(14, 0)), Head: 9, Style: picture.Style{Stroke: textColor, StrokeWidth: 3}}}
	})
	entry(20, "out of supply", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Circle{C: c, R: 8, Style: picture.Style{Stroke: noSupplyColor, StrokeWidth: 2.5, Dash: []float64{5, 3}}}}
	})
	entry(38, "out of sight (land, water)", func(c picture.Point) []picture.Item {
		return []picture.Item{box(c.Add(picture.Pt(-10, 0)), fogLandColor), box(c.Add(picture.Pt(10, 0)), fogSeaColor)}
	})
	x, y = 12, y0+legendHeight-18
	entry(30, "moved", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Arrow{From: c.Add(picture.Pt(-15, 0)), To: c.Add(picture.Pt(15, 0)), Head: 8, Style: picture.Style{Stroke: textColor, StrokeWidth: 2.5, Dash: []float64{5, 4}}}}
	})
	entry(24, "battle, losses (R −2)", func(c picture.Point) []picture.Item { return []picture.Item{burst(c, 12, 8)} })
	entry(16, "perished or sacrificed", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Path{Lines: [][]picture.Point{{c.Add(picture.Pt(-6, -6)), c.Add(picture.Pt(6, 6))}, {c.Add(picture.Pt(-6, 6)), c.Add(picture.Pt(6, -6))}}, Style: picture.Style{Stroke: noSupplyColor, StrokeWidth: 3}}}
	})
	entry(22, "units built or placed", func(c picture.Point) []picture.Item {
		return []picture.Item{&picture.Circle{C: c, R: 10, Style: picture.Style{Fill: builtColor, Stroke: textColor, StrokeWidth: 1}},
			&picture.Text{At: c.Add(picture.Pt(0, 4)), S: "+2", Size: 11, Bold: true, Anchor: picture.Middle, Color: picture.White}}
	})
	word := func(s string, col picture.Color) func(c picture.Point) []picture.Item {
		return func(c picture.Point) []picture.Item {
			return []picture.Item{&picture.Text{At: c.Add(picture.Pt(0, 4)), S: s, Size: 12, Bold: true, Anchor: picture.Middle, Color: col}}
		}
	}
	entry(34, "disabled", word("RID9", disabledColor))
	entry(34, "supply back", word("RID9", restoredColor))
	entry(44, "transformed", word("→FAC4", builtColor))
	return items
}

// ownKeyWidth is the room the key leaves at its start for ownKey (a
// function: measuring text at package init would load the font's metrics
// before any picture is drawn).
func ownKeyWidth() float64 {
	return 58 + 6 + math.Max(picture.TextWidth("your units", 12, false), picture.TextWidth("a power's units", 12, false)) + 18
}

// ownKey is the key's first entry: a player's own units are drawn larger
// and ringed ("your units"); the GM's and observers' picture has no own
// units, so its key shows a power's units as every stack is drawn there.
func (b *hexBoard) ownKey(viewer string) []picture.Item {
	c := picture.Pt(12+58.0/2-8, b.mapH+legendHeight-48)
	label, st := "your units", &stack{owner: "red", n: 3, marker: 'F', own: true}
	if viewer == "" {
		label, st = "a power's units", &stack{owner: "red", n: 3, marker: 'F'}
	}
	return append(b.token(c, st), &picture.Text{At: picture.Pt(12+58+6, c.Y+4), S: label, Size: 12, Color: textColor})
}

// legend is what the viewer may know of the powers and its own position.
func (g *Game) legend(b *hexBoard, viewer string, vis []bool, title string, eliminated []string) []picture.Item {
	y0 := b.mapH
	items := []picture.Item{&picture.Text{At: picture.Pt(12, y0+22), S: title, Size: 16, Bold: true, Color: textColor}}
	items = append(items, b.ownKey(viewer)...)
	var right string
	if g.Opts.Fog > 0 {
		hexes := fmt.Sprintf("%d hex%s", g.Opts.Fog, map[bool]string{true: "", false: "es"}[g.Opts.Fog == 1])
		right = "Fog of war: you see " + hexes + " around your units"
		if viewer == "" {
			right = "Fog of war: each power sees " + hexes + " around its units; the GM and observers see every unit"
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
	if out := eliminatedLine(eliminated); out != "" {
		if right != "" {
			right += " · "
		}
		right += out
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
