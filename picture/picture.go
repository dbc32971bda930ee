// Package picture is pbemd's drawing vocabulary: a scene of shapes, texts
// and arrows that an engine builds from a game position, and two encoders
// that turn one scene into the same picture, SVG (deterministic text, for
// tests and the web) and PNG (for mail).
//
// It is a leaf package an engine may import: it knows no game, does no I/O
// but writing to the io.Writer it is given, reads no clock and keeps no
// state but caches of things that never change (parsed fonts, glyph masks,
// colour tables, and the rasters of Regions and Layers, which live in
// those values themselves) and buffers it reuses.
//
// # The scene
//
// A Picture is Width×Height pixels with a Background colour and a list of
// Items drawn in order, later over earlier. Coordinates are pixels, x to the
// right and y down, as floats. The items:
//
//   - Path: closed rings (a polygon, holes allowed: the even-odd rule) and/or
//     open polylines, filled and/or stroked;
//   - Circle: a disc or ring;
//   - Arrow: a straight or curved (quadratic, through Via) shaft with a
//     filled or hollow head at To;
//   - Text: one line at a baseline point, anchored start, middle or end, in
//     the Go fonts (regular or bold), optionally with a halo that keeps it
//     legible on any background;
//   - Group: items under an id (an SVG <g>);
//   - Layer: a group that never changes once made (a board's borders and
//     names): WritePNG rasterises it once per picture size and reuses the
//     raster, so keep one *Layer (e.g. in a sync.OnceValue) and put it in
//     every picture;
//   - RegionFill: a fixed partition of the picture into shapes (provinces,
//     areas, hexes: a Regions value, made once and kept) with one fill
//     colour per shape for this picture; WritePNG rasterises the partition
//     once and colours it per picture in one pass.
//
// A Style says how a shape is painted: Fill and Stroke colours (a zero
// Color paints nothing), StrokeWidth, and Dash (lengths of dashes and gaps).
// Opacity is the colour's alpha. Text has its own colour and halo.
//
// # Encoders
//
// WriteSVG writes the scene as SVG 1.1 text: the same scene gives the same
// bytes (numbers rounded to 0.01, fixed attribute order), so tests diff it
// as a golden file. Text uses font-family Go with sans-serif fallbacks.
//
// WritePNG rasterises with golang.org/x/image/vector (antialiased, nonzero
// winding after orienting rings for even-odd) and the Go fonts, straight
// into the indices of a palette (8 bits a pixel, opaque): the colours of
// Picture.Palette (or, when it is empty, the scene's own colours, up to
// 40) are kept exactly, and antialiasing and translucent colours, blended
// with the palette colour under them, map to the nearest of them or of a
// 6×6×6 colour cube. Set Palette to the engine's fixed colour list so the
// colour table is built once. The indices are an image.Paletted, which
// package flatpng writes: a PNG encoder for flat colour, kept beside
// image/png because the deadline burst's pictures do not fit its time
// budget without it (its package doc says why). (Render draws the same
// scene as RGBA.) Pictures are at most MaxSide pixels a side.
//
// A board is drawn again for every picture, but what never changes in it
// is rasterised once: a Regions value keeps its partition and a Layer its
// raster, per picture size, so a picture costs filling the partition's runs
// and compositing the layer's pixels, then rasterising the items that
// change (units, orders, legend). The package keeps nothing else between
// pictures but parsed fonts and glyph masks, the colour tables of the last
// palettes used, and buffers it reuses.

// # For engines
//
// An engine draws through the optional adjudicator.Drawer interface: Draw
// returns a *Picture made fresh for the call, which the caller encodes with
// WritePNG (mail) or WriteSVG (tests, the web). Keep what never changes for
// a board — its Regions, a Layer of borders and names, the colour list for
// Palette — in a value made once at the first picture (sync.OnceValue),
// never at init; Layers and Regions are safe to share between pictures
// drawn at once. Diplomacy's adjudicator/diplomacy/draw.go is an example.
// To keep names clear of what a picture draws over the board, TextBox is
// the box a text paints and Touches whether an item's paint may reach a
// box (it never misses a painted pixel).
//
// # Legibility and colour
//
// Powers and players are told apart by the colours of Colors (Okabe & Ito's
// palette for colour-blind readers, plus a grey), and a picture should also
// label or shape what colour alone would tell. Mail clients show pictures
// on phones: keep pictures at least 1000 px wide and texts at least MinText
// pixels high (tests of each engine check both).
package picture

import (
	"math"
	"sync"
)

// MinText is the smallest text size, in pixels, that stays legible on a
// phone screen when a picture of 1000 px or more is shown at its width.
const MinText = 11

// Color is an sRGB colour with straight (not premultiplied) alpha; the zero
// Color is transparent and paints nothing.
type Color struct{ R, G, B, A uint8 }

// RGB returns an opaque colour.
func RGB(r, g, b uint8) Color { return Color{r, g, b, 255} }

// Hex returns an opaque colour from 0xRRGGBB.
func Hex(v uint32) Color { return Color{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

// Alpha returns c with alpha a.
func (c Color) Alpha(a uint8) Color { c.A = a; return c }

// Mix returns c moved the fraction t (0..1) of the way towards d: Mix(White,
// 0.7) is a light tint.
func (c Color) Mix(d Color, t float64) Color {
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return Color{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B), m(c.A, d.A)}
}

// Some colours every picture needs.
var (
	Black = RGB(0, 0, 0)
	White = RGB(255, 255, 255)
)

// Colors are eight colours colour-blind readers can tell apart (Okabe & Ito,
// "Color Universal Design", 2008), in their order, black replaced by a
// medium grey so that black outlines and text stay distinct: orange, sky
// blue, bluish green, yellow, blue, vermillion, reddish purple, grey.
var Colors = []Color{
	Hex(0xE69F00), // orange
	Hex(0x56B4E9), // sky blue
	Hex(0x009E73), // bluish green
	Hex(0xF0E442), // yellow
	Hex(0x0072B2), // blue
	Hex(0xD55E00), // vermillion
	Hex(0xCC79A7), // reddish purple
	Hex(0x999999), // grey
}

// Point is a position in pixels.
type Point struct{ X, Y float64 }

// Pt returns a Point.
func Pt(x, y float64) Point { return Point{x, y} }

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Sub returns p-q.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y} }

// Scale returns p scaled by k.
func (p Point) Scale(k float64) Point { return Point{p.X * k, p.Y * k} }

// Len returns the length of p as a vector.
func (p Point) Len() float64 { return math.Hypot(p.X, p.Y) }

// Lerp returns the point the fraction t of the way from p to q.
func (p Point) Lerp(q Point, t float64) Point { return Point{p.X + (q.X-p.X)*t, p.Y + (q.Y-p.Y)*t} }

// Style is how a shape is painted. A zero Fill or Stroke paints nothing.
type Style struct {
	Fill        Color
	Stroke      Color
	StrokeWidth float64   // pixels; 0 with a Stroke colour means 1
	Dash        []float64 // dash and gap lengths in pixels, repeated; nil = solid
}

// Item is one element of a scene: *Path, *Circle, *Arrow, *Text, *Group,
// *Layer or *RegionFill.
type Item interface{ item() }

// Path is one shape: closed rings (filled by the even-odd rule, so a ring
// inside another is a hole) and open polylines (stroked only).
type Path struct {
	Rings [][]Point
	Lines [][]Point
	Style
}

// Circle is a disc of radius R around C.
type Circle struct {
	C Point
	R float64
	Style
}

// Arrow is a shaft from From to To, straight or, when Curve is set, a
// quadratic curve bent through the control point Via, with a head at To.
// The head is filled with the stroke colour, or with HeadFill when set (a
// hollow head: HeadFill White). Head is the head's length (0: 4 × the
// stroke width).
type Arrow struct {
	From, To Point
	Via      Point
	Curve    bool
	Head     float64
	HeadFill Color
	Style
}

// Anchor says which point of a text its position names.
type Anchor uint8

const (
	Start  Anchor = iota // the left end of the baseline
	Middle               // the middle of the baseline
	End                  // the right end of the baseline
)

// Text is one line of text whose baseline point (by Anchor) is At. Size is
// the font size in pixels; Halo, when set, is drawn around the letters.
type Text struct {
	At     Point
	S      string
	Size   float64
	Bold   bool
	Anchor Anchor
	Color  Color
	Halo   Color
}

// Group is a list of items under an optional id.
type Group struct {
	ID    string
	Items []Item
}

// Layer is a group of items that never changes once made; the PNG encoder
// rasterises it once per picture size. Its items must not be changed after
// NewLayer.
type Layer struct {
	ID    string
	items []Item

	mu     sync.Mutex
	raster []*layerRaster
}

// NewLayer returns a Layer of items.
func NewLayer(id string, items ...Item) *Layer { return &Layer{ID: id, items: items} }

// Items returns the layer's items (not to be changed).
func (l *Layer) Items() []Item { return l.items }

// Regions is a fixed partition of a picture into shapes (each a set of
// rings, even-odd), such as a board's provinces. Keep one value per board:
// the PNG encoder rasterises it once per picture size. Shapes may touch but
// should not overlap. Names, when given, title the shapes in SVG.
type Regions struct {
	ID     string
	shapes [][][]Point
	names  []string

	mu     sync.Mutex
	raster []*regionRaster
}

// NewRegions returns the partition of shapes; names may be nil or one per
// shape.
func NewRegions(id string, shapes [][][]Point, names []string) *Regions {
	return &Regions{ID: id, shapes: shapes, names: names}
}

// Len is the number of shapes.
func (r *Regions) Len() int { return len(r.shapes) }

// Shape returns the rings of shape i (not to be changed).
func (r *Regions) Shape(i int) [][]Point { return r.shapes[i] }

// RegionFill paints the shapes of Set, shape i with Fill[i] (a zero colour
// or a missing entry leaves it unpainted).
type RegionFill struct {
	Set  *Regions
	Fill []Color
}

func (*Path) item()       {}
func (*Circle) item()     {}
func (*Arrow) item()      {}
func (*Text) item()       {}
func (*Group) item()      {}
func (*Layer) item()      {}
func (*RegionFill) item() {}

// Picture is a scene to encode.
type Picture struct {
	Width, Height int
	Title         string // the SVG <title>
	Background    Color
	Items         []Item
	// Palette lists the colours the PNG encoder keeps exactly (at most
	// 40); empty means the scene's own colours.
	Palette []Color
}

// Add appends items to the picture.
func (p *Picture) Add(items ...Item) { p.Items = append(p.Items, items...) }

// MaxPalette is the number of exact colours a PNG keeps.
const MaxPalette = 40

// arrowGeometry is the shaft (a polyline, flattened when curved) and the
// head triangle of an arrow, shared by both encoders so they agree.
func arrowGeometry(a *Arrow) (shaftEnd Point, head [3]Point) {
	w := a.StrokeWidth
	if w <= 0 {
		w = 1
	}
	hl := a.Head
	if hl <= 0 {
		hl = 4 * w
	}
	// Direction at the tip: from Via when curved, else from From.
	from := a.From
	if a.Curve {
		from = a.Via
	}
	d := a.To.Sub(from)
	l := d.Len()
	if l == 0 {
		d, l = Point{1, 0}, 1
	}
	u := d.Scale(1 / l)
	n := Point{-u.Y, u.X}
	base := a.To.Sub(u.Scale(hl))
	hw := hl * 0.55
	head = [3]Point{a.To, base.Add(n.Scale(hw)), base.Sub(n.Scale(hw))}
	// The shaft stops inside the head so its end is covered.
	shaftEnd = a.To.Sub(u.Scale(hl * 0.6))
	return shaftEnd, head
}

// quadPoints flattens the quadratic curve p0, c, p1 into a polyline.
func quadPoints(p0, c, p1 Point) []Point {
	l := p0.Sub(c).Len() + c.Sub(p1).Len()
	n := int(math.Ceil(l / 6))
	n = max(4, min(n, 64))
	out := make([]Point, 0, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		a := p0.Lerp(c, t)
		b := c.Lerp(p1, t)
		out = append(out, a.Lerp(b, t))
	}
	return out
}

// arrowShaft is the polyline of an arrow's shaft (flattened when curved),
// ending where the head begins.
func arrowShaft(a *Arrow) []Point {
	end, _ := arrowGeometry(a)
	if !a.Curve {
		return []Point{a.From, end}
	}
	return quadPoints(a.From, a.Via, end)
}
