package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"

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
	r := &raster{dst: img}
	r.items(p.Items)
}

// raster draws items onto one RGBA image.
type raster struct {
	dst *image.RGBA
	z   vector.Rasterizer
	// polys collects the polygons of one fill before they are drawn.
	polys [][]Point
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
			v.rasterFor(r.dst.Rect.Dx(), r.dst.Rect.Dy()).drawOver(r.dst)
		case *RegionFill:
			v.Set.rasterFor(r.dst.Rect.Dx(), r.dst.Rect.Dy()).paint(r.dst, v.Fill)
		}
	}
}

func premul(c Color) [4]uint8 {
	a := uint32(c.A)
	return [4]uint8{uint8(uint32(c.R) * a / 255), uint8(uint32(c.G) * a / 255), uint8(uint32(c.B) * a / 255), c.A}
}

func uniform(c Color) *image.Uniform {
	return image.NewUniform(color.NRGBA{c.R, c.G, c.B, c.A})
}

// fill rasterises r.polys (nonzero winding; callers orient rings) in c.
func (r *raster) fill(c Color) {
	defer func() { r.polys = r.polys[:0] }()
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
	b := pixelBounds(minX, minY, maxX, maxY).Intersect(r.dst.Rect)
	if b.Empty() {
		return
	}
	// The rasteriser works on the whole bounding box; a shape that covers
	// little of a large box (a long diagonal or curved stroke) is drawn
	// tile by tile, each tile with the parts that reach it, so the work
	// follows the shape.
	if b.Dx()*b.Dy() > 2*tile*tile && len(r.polys) > 1 {
		boxes := make([]image.Rectangle, len(r.polys))
		for i, pl := range r.polys {
			boxes[i] = polyBounds(pl)
		}
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

// tile is the side of the tiles a wide, sparse shape is drawn in.
const tile = 32

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
	pc := premul(c)
	sa := uint32(c.A)
	d := r.dst.Pix
	for y := 0; y < h; y++ {
		row := mask.Pix[y*w : y*w+w]
		o := r.dst.PixOffset(b.Min.X, b.Min.Y+y)
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
		rev := make([]Point, len(pl))
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
				closed := append(append([]Point(nil), ring...), ring[0])
				r.strokeLine(closed, w, p.Dash, true)
			}
		}
		for _, l := range p.Lines {
			r.strokeLine(l, w, p.Dash, false)
		}
		r.fill(p.Stroke)
	}
}

// circlePoints approximates a circle by a polygon.
func circlePoints(c Point, rad float64) []Point {
	n := int(math.Ceil(2 * math.Pi * rad / 2.5))
	n = max(12, min(n, 256))
	out := make([]Point, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = Point{c.X + rad*math.Cos(a), c.Y + rad*math.Sin(a)}
	}
	return out
}

func (r *raster) circle(c *Circle) {
	if c.Fill.A != 0 {
		r.addOriented(circlePoints(c.C, c.R), false)
		r.fill(c.Fill)
	}
	if c.Stroke.A != 0 {
		w := strokeWidth(c.Style)
		if c.Dash != nil {
			pts := circlePoints(c.C, c.R)
			r.strokeLine(append(pts, pts[0]), w, c.Dash, true)
		} else {
			r.addOriented(circlePoints(c.C, c.R+w/2), false)
			if c.R > w/2 {
				r.addOriented(circlePoints(c.C, c.R-w/2), true)
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
		r.strokeLine([]Point{head[0], head[1], head[2], head[0]}, w*0.8, nil, true)
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
			r.addOriented([]Point{a.Add(n), b.Add(n), b.Sub(n), a.Sub(n)}, false)
		}
		if i+1 < len(pts)-1 || closed {
			r.addOriented(joinPoints(q, h), false)
		}
	}
}

// maxPiece is the longest piece of a stroked segment, in pixels.
const maxPiece = 24

// joinPoints is a small polygon round a joint.
func joinPoints(c Point, h float64) []Point {
	n := 8
	if h > 2 {
		n = 12
	}
	out := make([]Point, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = Point{c.X + h*math.Cos(a), c.Y + h*math.Sin(a)}
	}
	return out
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
		src := uniform(c)
		x := start.X
		y := int(math.Round(start.Y))
		for _, ch := range t.S {
			g := glyphOf(k, ch)
			m := g.mask
			if pass == 0 {
				m = g.halo
			}
			off := image.Pt(int(math.Round(x)), y)
			dr := m.Rect.Add(off)
			draw.DrawMask(r.dst, dr, src, image.Point{}, m, m.Rect.Min, draw.Over)
			x += g.advance
		}
	}
}

// layerRaster is a Layer drawn once on transparency at one size, kept as
// runs of painted pixels.
type layerRaster struct {
	w, h  int
	spans []span // runs of pixels with some alpha
	pix   []byte // premultiplied RGBA of the spans, in order
}

type span struct{ off, n int32 } // pixel offset, length

func (l *Layer) rasterFor(w, h int) *layerRaster {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, lr := range l.raster {
		if lr.w == w && lr.h == h {
			return lr
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := &raster{dst: img}
	r.items(l.items)
	lr := &layerRaster{w: w, h: h}
	n := w * h
	for i := 0; i < n; {
		if img.Pix[4*i+3] == 0 {
			i++
			continue
		}
		j := i
		for j < n && img.Pix[4*j+3] != 0 {
			j++
		}
		lr.spans = append(lr.spans, span{int32(i), int32(j - i)})
		lr.pix = append(lr.pix, img.Pix[4*i:4*j]...)
		i = j
	}
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
		o := int(sp.off) * 4
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
	runs  []regionRun // runs of pixels one shape covers fully
	edges []edgePixel
}

type regionRun struct {
	off, n int32
	s      uint16
}

const (
	noRegion = 0xFFFF
)

type edgePixel struct {
	off    int32
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
	for i := 0; i < n; {
		s := best[i]
		if s == noRegion {
			i++
			continue
		}
		if bestC[i] != 255 {
			cb := secondC[i]
			if int(bestC[i])+int(cb) > 255 {
				cb = 255 - bestC[i]
			}
			rr.edges = append(rr.edges, edgePixel{off: int32(i), a: s, b: second[i], ca: bestC[i], cb: cb})
			i++
			continue
		}
		j := i
		for j < n && best[j] == s && bestC[j] == 255 {
			j++
		}
		rr.runs = append(rr.runs, regionRun{off: int32(i), n: int32(j - i), s: s})
		i = j
	}
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
		o, e := 4*int(run.off), 4*int(run.off+run.n)
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
		o := 4 * int(e.off)
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
