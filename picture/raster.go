package picture

import (
	"image"
	"image/draw"
	"math"
	"sync/atomic"

	"golang.org/x/image/vector"
)

// Render rasterises the picture into a new RGBA image (premultiplied, as
// image.RGBA is).
func (p *Picture) Render() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, max(p.Width, 1), max(p.Height, 1)))
	p.renderInto(img)
	return img
}

func (p *Picture) renderInto(img *image.RGBA) {
	if bg := premul(p.Background); bg != [4]uint8{} {
		fillPix(img.Pix, bg)
	}
	r := &raster{dst: rgbaTarget{img}}
	r.items(p.Items)
}

// target is what a raster draws on: an RGBA image (Render, and the rasters
// of Layers) or a canvas of palette indices (WritePNG).
type target interface {
	bounds() image.Rectangle
	// blend paints colour c over the pixels of the w×h box at (x0, y0)
	// with the coverage mask (row after row, stride apart); the box lies
	// within the bounds.
	blend(x0, y0, w, h int, mask []uint8, stride int, c Color)
	layer(lr *layerRaster)
	regions(rr *regionRaster, fill []Color)
}

// raster draws items onto one target.
type raster struct {
	dst target
	z   vector.Rasterizer
	// polys collects the polygons of one fill before they are drawn.
	polys [][]Point
	// pts holds the points made for them (strokes, circles), reused once
	// the fill is drawn; boxes their bounds when a fill goes in tiles.
	pts   []Point
	boxes []image.Rectangle
	mask  []uint8 // coverage of one fill, reused
}

func (r *raster) items(items []Item) {
	for _, it := range items {
		switch v := it.(type) {
		case *Path:
			r.path(v)
		case *Circle:
			r.circle(v)
		case *Arrow:
			r.arrow(v)
		case *Text:
			r.text(v)
		case *Group:
			r.items(v.Items)
		case *Layer:
			b := r.dst.bounds()
			r.dst.layer(v.rasterFor(b.Dx(), b.Dy()))
		case *RegionFill:
			b := r.dst.bounds()
			r.dst.regions(v.Set.rasterFor(b.Dx(), b.Dy()), v.Fill)
		}
	}
}

func premul(c Color) [4]uint8 {
	a := uint32(c.A)
	return [4]uint8{uint8(uint32(c.R) * a / 255), uint8(uint32(c.G) * a / 255), uint8(uint32(c.B) * a / 255), c.A}
}

// fill rasterises r.polys (nonzero winding; callers orient rings) in c.
func (r *raster) fill(c Color) {
	defer func() { r.polys, r.pts = r.polys[:0], r.pts[:0] }()
	if c.A == 0 || len(r.polys) == 0 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pl := range r.polys {
		for _, q := range pl {
			minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
			maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
		}
	}
	b := pixelBounds(minX, minY, maxX, maxY).Intersect(r.dst.bounds())
	if b.Empty() {
		return
	}
	// The rasteriser works on the whole bounding box; a shape that covers
	// little of a large box (a long diagonal or curved stroke) is drawn
	// tile by tile, each tile with the parts that reach it, so the work
	// follows the shape.
	if b.Dx()*b.Dy() > 2*tile*tile && len(r.polys) > 1 {
		boxes := r.boxes[:0]
		for _, pl := range r.polys {
			boxes = append(boxes, polyBounds(pl))
		}
		r.boxes = boxes
		var in [][]Point
		for ty := b.Min.Y; ty < b.Max.Y; ty += tile {
			for tx := b.Min.X; tx < b.Max.X; tx += tile {
				t := image.Rect(tx, ty, tx+tile, ty+tile).Intersect(b)
				in = in[:0]
				for i, pl := range r.polys {
					if boxes[i].Overlaps(t) {
						in = append(in, pl)
					}
				}
				if len(in) > 0 {
					r.rasterize(in, t, c)
				}
			}
		}
		return
	}
	r.rasterize(r.polys, b, c)
}

// tile is the side of the tiles a wide, sparse shape is drawn in (the
// picture benchmarks chose it among powers of two).
const tile = 64

func pixelBounds(minX, minY, maxX, maxY float64) image.Rectangle {
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
}

func polyBounds(pl []Point) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range pl {
		minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
		maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
	}
	return pixelBounds(minX, minY, maxX, maxY)
}

// rasterize fills polys within the pixel box b: the rasteriser writes the
// coverage into a reused mask, and only covered pixels are blended.
func (r *raster) rasterize(polys [][]Point, b image.Rectangle, c Color) {
	if b.Empty() {
		return
	}
	w, h := b.Dx(), b.Dy()
	// The rasteriser's (0,0) is b.Min; its size clips the far edges, and
	// points before b.Min are clamped by it.
	r.z.Reset(w, h)
	r.z.DrawOp = draw.Src
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for _, pl := range polys {
		if len(pl) < 3 {
			continue
		}
		r.z.MoveTo(float32(pl[0].X-ox), float32(pl[0].Y-oy))
		for _, q := range pl[1:] {
			r.z.LineTo(float32(q.X-ox), float32(q.Y-oy))
		}
		r.z.ClosePath()
	}
	if cap(r.mask) < w*h {
		r.mask = make([]uint8, w*h)
	}
	mask := &image.Alpha{Pix: r.mask[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	r.z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	r.dst.blend(b.Min.X, b.Min.Y, w, h, mask.Pix, w, c)
}

// rgbaTarget draws on an RGBA image (premultiplied).
type rgbaTarget struct{ img *image.RGBA }

func (t rgbaTarget) bounds() image.Rectangle { return t.img.Rect }

func (t rgbaTarget) blend(x0, y0, w, h int, mask []uint8, stride int, c Color) {
	pc := premul(c)
	sa := uint32(c.A)
	d := t.img.Pix
	for y := 0; y < h; y++ {
		row := mask[y*stride : y*stride+w]
		o := t.img.PixOffset(x0, y0+y)
		for x, m := range row {
			if m == 0 {
				continue
			}
			i := o + 4*x
			if m == 255 && sa == 255 {
				d[i], d[i+1], d[i+2], d[i+3] = pc[0], pc[1], pc[2], 255
				continue
			}
			cov := uint32(m)
			ia := 255 - cov*sa/255
			for k := 0; k < 4; k++ {
				d[i+k] = uint8((uint32(pc[k])*cov + uint32(d[i+k])*ia + 127) / 255)
			}
		}
	}
}

func (t rgbaTarget) layer(lr *layerRaster)                  { lr.drawOver(t.img) }
func (t rgbaTarget) regions(rr *regionRaster, fill []Color) { rr.paint(t.img, fill) }

// signedArea is positive for rings counter-clockwise on screen (y down).
func signedArea(pl []Point) float64 {
	a := 0.0
	for i := range pl {
		j := (i + 1) % len(pl)
		a += pl[i].X*pl[j].Y - pl[j].X*pl[i].Y
	}
	return a / 2
}

// addOriented adds a polygon wound positive (or negative when neg).
func (r *raster) addOriented(pl []Point, neg bool) {
	if (signedArea(pl) < 0) != neg {
		rev := r.points(len(pl))
		for i, q := range pl {
			rev[len(pl)-1-i] = q
		}
		pl = rev
	}
	r.polys = append(r.polys, pl)
}

// inside reports whether q is inside ring pl (even-odd).
func inside(q Point, pl []Point) bool {
	in := false
	for i, j := 0, len(pl)-1; i < len(pl); j, i = i, i+1 {
		a, b := pl[i], pl[j]
		if (a.Y > q.Y) != (b.Y > q.Y) && q.X < (b.X-a.X)*(q.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// addEvenOdd adds rings so that nonzero winding fills them as even-odd
// would: a ring inside an odd number of others is wound the other way.
func (r *raster) addEvenOdd(rings [][]Point) {
	for i, pl := range rings {
		if len(pl) < 3 {
			continue
		}
		depth := 0
		for j, o := range rings {
			if j != i && len(o) >= 3 && inside(pl[0], o) {
				depth++
			}
		}
		r.addOriented(pl, depth%2 == 1)
	}
}

func strokeWidth(s Style) float64 {
	if s.StrokeWidth <= 0 {
		return 1
	}
	return s.StrokeWidth
}

func (r *raster) path(p *Path) {
	if p.Fill.A != 0 {
		r.addEvenOdd(p.Rings)
		r.fill(p.Fill)
	}
	if p.Stroke.A != 0 {
		w := strokeWidth(p.Style)
		for _, ring := range p.Rings {
			if len(ring) > 1 {
				closed := append(append(r.points(len(ring) + 1)[:0], ring...), ring[0])
				r.strokeLine(closed, w, p.Dash, true)
			}
		}
		for _, l := range p.Lines {
			r.strokeLine(l, w, p.Dash, false)
		}
		r.fill(p.Stroke)
	}
}

// points returns n points from the arena, valid until the fill.
func (r *raster) points(n int) []Point {
	if len(r.pts)+n > cap(r.pts) {
		// Points handed out stay where they are; the new ones go in a
		// new block.
		r.pts = make([]Point, 0, max(2*cap(r.pts), n, 1024))
	}
	out := r.pts[len(r.pts) : len(r.pts)+n : len(r.pts)+n]
	r.pts = r.pts[:len(r.pts)+n]
	return out
}

// circleSides is the number of sides of the polygon that stands for a
// circle of radius rad.
func circleSides(rad float64) int {
	n := int(math.Ceil(2 * math.Pi * rad / 2.5))
	n = max(12, min(n, 256))
	return n
}

// circlePoints approximates a circle by a polygon.
func (r *raster) circlePoints(c Point, rad float64) []Point {
	return r.ring(c, rad, circleSides(rad))
}

// ring is the regular n-gon of radius rad round c, from angle 0.
func (r *raster) ring(c Point, rad float64, n int) []Point {
	unit := unitRing(n)
	out := r.points(n)
	for i, u := range unit {
		out[i] = Point{c.X + rad*u.X, c.Y + rad*u.Y}
	}
	return out
}

// unitRings[n] is the unit n-gon's (cos, sin) of 2πi/n, made at first use.
var unitRings [257]atomic.Pointer[[]Point]

func unitRing(n int) []Point {
	if p := unitRings[n].Load(); p != nil {
		return *p
	}
	u := make([]Point, n)
	for i := range u {
		a := 2 * math.Pi * float64(i) / float64(n)
		u[i] = Point{math.Cos(a), math.Sin(a)}
	}
	unitRings[n].Store(&u)
	return u
}

func (r *raster) circle(c *Circle) {
	if c.Fill.A != 0 {
		r.addOriented(r.circlePoints(c.C, c.R), false)
		r.fill(c.Fill)
	}
	if c.Stroke.A != 0 {
		w := strokeWidth(c.Style)
		if c.Dash != nil {
			pts := r.circlePoints(c.C, c.R)
			r.strokeLine(append(append(r.points(len(pts) + 1)[:0], pts...), pts[0]), w, c.Dash, true)
		} else {
			r.addOriented(r.circlePoints(c.C, c.R+w/2), false)
			if c.R > w/2 {
				r.addOriented(r.circlePoints(c.C, c.R-w/2), true)
			}
		}
		r.fill(c.Stroke)
	}
}

func (r *raster) arrow(a *Arrow) {
	w := strokeWidth(a.Style)
	r.strokeLine(arrowShaft(a), w, a.Dash, false)
	r.fill(a.Stroke)
	_, head := arrowGeometry(a)
	r.addOriented(head[:], false)
	if a.HeadFill.A != 0 {
		r.fill(a.HeadFill)
		r.strokeLine(append(r.points(4)[:0], head[0], head[1], head[2], head[0]), w*0.8, nil, true)
	}
	r.fill(a.Stroke)
}

// strokeLine adds the outline of a polyline of width w (round joins, butt
// ends; dashed when dash is set) to r.polys, all wound positive so they
// unite.
func (r *raster) strokeLine(pts []Point, w float64, dash []float64, closed bool) {
	if len(dash) > 0 {
		for _, d := range dashes(pts, dash) {
			r.strokeLine(d, w, nil, false)
		}
		return
	}
	h := w / 2
	for i := 0; i+1 < len(pts); i++ {
		p, q := pts[i], pts[i+1]
		d := q.Sub(p)
		l := d.Len()
		if l == 0 {
			continue
		}
		n := Point{-d.Y / l * h, d.X / l * h}
		// A long segment goes in pieces, so that fill can keep each
		// piece's box small.
		k := int(math.Ceil(l / maxPiece))
		for j := 0; j < k; j++ {
			a, b := p.Lerp(q, float64(j)/float64(k)), p.Lerp(q, float64(j+1)/float64(k))
			r.addOriented(append(r.points(4)[:0], a.Add(n), b.Add(n), b.Sub(n), a.Sub(n)), false)
		}
		if i+1 < len(pts)-1 || closed {
			r.addOriented(r.joinPoints(q, h), false)
		}
	}
}

// maxPiece is the longest piece of a stroked segment, in pixels.
const maxPiece = 24

// joinPoints is a small polygon round a joint.
func (r *raster) joinPoints(c Point, h float64) []Point {
	n := 8
	if h > 2 {
		n = 12
	}
	return r.ring(c, h, n)
}

// dashes cuts a polyline into its dashes.
func dashes(pts []Point, pattern []float64) [][]Point {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if total <= 0 {
		return [][]Point{pts}
	}
	var out [][]Point
	var cur []Point
	k, left, on := 0, pattern[0], true
	if on {
		cur = []Point{pts[0]}
	}
	for i := 0; i+1 < len(pts); i++ {
		p, q := pts[i], pts[i+1]
		seg := q.Sub(p).Len()
		pos := 0.0
		for seg-pos > left {
			pos += left
			at := p.Lerp(q, pos/seg)
			if on {
				cur = append(cur, at)
				out = append(out, cur)
				cur = nil
			} else {
				cur = []Point{at}
			}
			on = !on
			k = (k + 1) % len(pattern)
			left = pattern[k]
			if left <= 0 {
				left = 1e-9
			}
		}
		left -= seg - pos
		if on {
			cur = append(cur, q)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

func (r *raster) text(t *Text) {
	if t.Size <= 0 || t.S == "" {
		return
	}
	k := keyOf(t.Size, t.Bold)
	start := textStart(t)
	for pass := 0; pass < 2; pass++ {
		c := t.Halo
		if pass == 1 {
			c = t.Color
		}
		if c.A == 0 {
			continue
		}
		x := start.X
		y := int(math.Round(start.Y))
		bounds := r.dst.bounds()
		for _, ch := range t.S {
			g := glyphOf(k, ch)
			m := g.mask
			if pass == 0 {
				m = g.halo
			}
			off := image.Pt(int(math.Round(x)), y)
			dr := m.Rect.Add(off).Intersect(bounds)
			if !dr.Empty() {
				sp := dr.Min.Sub(off)
				r.dst.blend(dr.Min.X, dr.Min.Y, dr.Dx(), dr.Dy(), m.Pix[m.PixOffset(sp.X, sp.Y):], m.Stride, c)
			}
			x += g.advance
		}
	}
}

// layerRaster is a Layer drawn once on transparency at one size, kept as
// runs of painted pixels.
type layerRaster struct {
	w, h  int
	spans []span  // runs of pixels with some alpha, row by row
	pix   []byte  // premultiplied RGBA of the spans, in order
	rows  []int32 // rows[y]: the first span of row y or after (h+1 entries)
	at    []int32 // at[i]: where span i's pixels start in pix
}

// span is a run of pixels within one row.
type span struct{ x, y, n int32 }

func (l *Layer) rasterFor(w, h int) *layerRaster {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, lr := range l.raster {
		if lr.w == w && lr.h == h {
			return lr
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := &raster{dst: rgbaTarget{img}}
	r.items(l.items)
	lr := &layerRaster{w: w, h: h}
	for y := 0; y < h; y++ {
		lr.rows = append(lr.rows, int32(len(lr.spans)))
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < w; {
			if row[4*x+3] == 0 {
				x++
				continue
			}
			e := x
			for e < w && row[4*e+3] != 0 {
				e++
			}
			lr.spans = append(lr.spans, span{int32(x), int32(y), int32(e - x)})
			lr.at = append(lr.at, int32(len(lr.pix)))
			lr.pix = append(lr.pix, row[4*x:4*e]...)
			x = e
		}
	}
	lr.rows = append(lr.rows, int32(len(lr.spans)))
	if len(l.raster) < 4 {
		l.raster = append(l.raster, lr)
	}
	return lr
}

// drawOver composites the layer over dst (same size).
func (lr *layerRaster) drawOver(dst *image.RGBA) {
	if dst.Rect.Dx() != lr.w || dst.Rect.Dy() != lr.h {
		return
	}
	d := dst.Pix
	s := lr.pix
	k := 0
	for _, sp := range lr.spans {
		o := dst.PixOffset(int(sp.x), int(sp.y))
		for e := o + int(sp.n)*4; o < e; o, k = o+4, k+4 {
			a := uint32(s[k+3])
			if a == 255 {
				d[o], d[o+1], d[o+2], d[o+3] = s[k], s[k+1], s[k+2], 255
				continue
			}
			ia := 255 - a
			d[o] = s[k] + uint8((uint32(d[o])*ia+127)/255)
			d[o+1] = s[k+1] + uint8((uint32(d[o+1])*ia+127)/255)
			d[o+2] = s[k+2] + uint8((uint32(d[o+2])*ia+127)/255)
			d[o+3] = s[k+3] + uint8((uint32(d[o+3])*ia+127)/255)
		}
	}
}

// regionRaster is a Regions partition rasterised at one size: per pixel
// the shape covering it fully, or an edge entry for pixels shared by
// shapes or partly covered.
type regionRaster struct {
	w, h  int
	runs  []regionRun // runs of pixels one shape covers fully, row by row
	edges []edgePixel // row by row
	// runRows[y] and edgeRows[y] are the first run and edge of row y or
	// after (h+1 entries).
	runRows, edgeRows []int32
}

type regionRun struct {
	span
	s uint16
}

const (
	noRegion = 0xFFFF
)

type edgePixel struct {
	x, y   int32
	a, b   uint16 // shapes (b may be noRegion)
	ca, cb uint8  // their coverage
}

func (rs *Regions) rasterFor(w, h int) *regionRaster {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, rr := range rs.raster {
		if rr.w == w && rr.h == h {
			return rr
		}
	}
	n := w * h
	best := make([]uint16, n)
	second := make([]uint16, n)
	bestC := make([]uint8, n)
	secondC := make([]uint8, n)
	for i := range best {
		best[i], second[i] = noRegion, noRegion
	}
	bounds := image.Rect(0, 0, w, h)
	var z vector.Rasterizer
	for si, rings := range rs.shapes {
		rr := &raster{}
		rr.addEvenOdd(rings)
		if len(rr.polys) == 0 {
			continue
		}
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, pl := range rr.polys {
			for _, q := range pl {
				minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
				maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
			}
		}
		b := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(bounds)
		if b.Empty() {
			continue
		}
		z.Reset(b.Dx(), b.Dy())
		z.DrawOp = draw.Src
		for _, pl := range rr.polys {
			z.MoveTo(float32(pl[0].X-float64(b.Min.X)), float32(pl[0].Y-float64(b.Min.Y)))
			for _, q := range pl[1:] {
				z.LineTo(float32(q.X-float64(b.Min.X)), float32(q.Y-float64(b.Min.Y)))
			}
			z.ClosePath()
		}
		mask := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
		z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				c := mask.Pix[y*mask.Stride+x]
				if c == 0 {
					continue
				}
				i := (b.Min.Y+y)*w + b.Min.X + x
				switch {
				case c > bestC[i]:
					second[i], secondC[i] = best[i], bestC[i]
					best[i], bestC[i] = uint16(si), c
				case c > secondC[i]:
					second[i], secondC[i] = uint16(si), c
				}
			}
		}
	}
	rr := &regionRaster{w: w, h: h}
	for y := 0; y < h; y++ {
		rr.runRows = append(rr.runRows, int32(len(rr.runs)))
		rr.edgeRows = append(rr.edgeRows, int32(len(rr.edges)))
		for x := 0; x < w; {
			i := y*w + x
			s := best[i]
			if s == noRegion {
				x++
				continue
			}
			if bestC[i] != 255 {
				cb := secondC[i]
				if int(bestC[i])+int(cb) > 255 {
					cb = 255 - bestC[i]
				}
				rr.edges = append(rr.edges, edgePixel{x: int32(x), y: int32(y), a: s, b: second[i], ca: bestC[i], cb: cb})
				x++
				continue
			}
			e := x
			for e < w && best[y*w+e] == s && bestC[y*w+e] == 255 {
				e++
			}
			rr.runs = append(rr.runs, regionRun{span: span{int32(x), int32(y), int32(e - x)}, s: s})
			x = e
		}
	}
	rr.runRows = append(rr.runRows, int32(len(rr.runs)))
	rr.edgeRows = append(rr.edgeRows, int32(len(rr.edges)))
	if len(rs.raster) < 4 {
		rs.raster = append(rs.raster, rr)
	}
	return rr
}

// paint fills the shapes with their colours in one pass over the pixels.
func (rr *regionRaster) paint(dst *image.RGBA, fill []Color) {
	if dst.Rect.Dx() != rr.w || dst.Rect.Dy() != rr.h {
		return
	}
	cols := make([][4]uint8, len(fill))
	for i, c := range fill {
		cols[i] = premul(c)
	}
	col := func(i uint16) ([4]uint8, bool) {
		if int(i) >= len(cols) {
			return [4]uint8{}, false
		}
		return cols[i], cols[i][3] != 0
	}
	d := dst.Pix
	for _, run := range rr.runs {
		if int(run.s) >= len(cols) {
			continue
		}
		c := cols[run.s]
		o := dst.PixOffset(int(run.x), int(run.y))
		e := o + 4*int(run.n)
		switch c[3] {
		case 255:
			fillPix(d[o:e], c)
		case 0:
		default:
			ia := 255 - uint32(c[3])
			for ; o < e; o += 4 {
				for k := 0; k < 4; k++ {
					d[o+k] = c[k] + uint8((uint32(d[o+k])*ia+127)/255)
				}
			}
		}
	}
	for _, e := range rr.edges {
		o := dst.PixOffset(int(e.x), int(e.y))
		var acc [4]uint32
		rest := uint32(255)
		for _, part := range [2]struct {
			s uint16
			c uint8
		}{{e.a, e.ca}, {e.b, e.cb}} {
			c, ok := col(part.s)
			if !ok || part.c == 0 {
				continue
			}
			// Coverage × the colour's alpha of this pixel is painted.
			cov := uint32(part.c)
			for k := 0; k < 4; k++ {
				acc[k] += uint32(c[k]) * cov
			}
			rest -= cov * uint32(c[3]) / 255
		}
		for k := 0; k < 4; k++ {
			v := (acc[k] + uint32(d[o+k])*rest + 127) / 255
			d[o+k] = uint8(min(v, 255))
		}
	}
}

// fillPix sets every pixel of pix to c.
func fillPix(pix []byte, c [4]uint8) {
	if len(pix) < 4 {
		return
	}
	copy(pix, c[:])
	for n := 4; n < len(pix); n *= 2 {
		copy(pix[n:], pix[:n])
	}
}
