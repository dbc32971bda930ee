package picture

import (
	"encoding/binary"
	"image"
	"slices"
	"sync/atomic"
)

// canvas is a picture, or a band of its rows, drawn straight into palette
// indices, one byte a pixel, each row led by the byte of its PNG filter
// (0, none), so that its bytes are the PNG's scanlines as they stand.
// Every pixel is opaque: a shape's edge or a translucent colour is blended
// with the palette colour under it and mapped to the nearest palette entry
// at once.
type canvas struct {
	w, h, stride int
	y0           int     // the first row in pix
	pix          []uint8 // rows y0 on
	q            *quantizer
}

// size sizes the canvas for a w×h picture, its pixels left as they are.
func (c *canvas) size(w, h int, q *quantizer) { c.band(w, h, q, 0, h) }

// band sizes the canvas for rows y0 to y1 of a w×h picture, its pixels
// left as they are.
func (c *canvas) band(w, h int, q *quantizer, y0, y1 int) {
	c.w, c.h, c.stride, c.q, c.y0 = w, h, w+1, q, y0
	n := c.stride * (y1 - y0)
	if cap(c.pix) < n {
		c.pix = make([]uint8, n)
	}
	c.pix = c.pix[:n]
}

// reset sizes the canvas for a w×h picture on background bg.
func (c *canvas) reset(w, h int, q *quantizer, bg Color) {
	c.size(w, h, q)
	c.background(bg, 0, h)
}

// row returns the n pixels of row y from x.
func (c *canvas) row(x, y, n int) []uint8 {
	o := (y-c.y0)*c.stride + 1 + x
	return c.pix[o : o+n]
}

// mix255 is (a·t + b·(255-t)) / 255, rounded.
func mix255(a, b, t uint32) uint32 { return (a*t + b*(255-t) + 127) / 255 }

// blendTable is what painting one colour over a palette index gives, by
// the index and the coverage (0..255): row d, entry m is the index of the
// colour at coverage m (times its alpha) over palette colour d. Rows are
// made at first use.
type blendTable struct {
	rows [256]atomic.Pointer[[256]uint8]
}

// row returns row d of t, the table of col in q.
func (t *blendTable) row(q *quantizer, col Color, d uint8) *[256]uint8 {
	if r := t.rows[d].Load(); r != nil {
		return r
	}
	r := new([256]uint8)
	sa := uint32(col.A)
	r[0] = d
	for m := 1; m < 256; m++ {
		if m == 255 && sa == 255 {
			r[m] = q.lut[key15(col.R, col.G, col.B)]
			continue
		}
		r[m] = q.over(d, col, (uint32(m)*sa+127)/255)
	}
	// Two pictures may make a row at once; both make the same.
	t.rows[d].Store(r)
	return r
}

// blendTable returns the blend table of col (made at first use).
func (q *quantizer) blendTable(col Color) *blendTable {
	q.tablesMu.Lock()
	defer q.tablesMu.Unlock()
	t, ok := q.tables[col]
	if !ok {
		if q.tables == nil {
			q.tables = map[Color]*blendTable{}
		}
		t = new(blendTable)
		q.tables[col] = t
	}
	return t
}

// layer composites rows y0 to y1 of a Layer's raster (premultiplied RGBA
// spans).
func (c *canvas) layer(lr *layerRaster, y0, y1 int) {
	if lr.w != c.w || lr.h != c.h {
		return
	}
	q := c.q
	first, last := lr.rows[y0], lr.rows[y1]
	if first == last {
		return
	}
	s := lr.pix
	k := int(lr.at[first])
	lastKey, lastOut := uint64(1<<63), uint8(0)
	for _, sp := range lr.spans[first:last] {
		d := c.row(int(sp.x), int(sp.y), int(sp.n))
		for x := range d {
			px := [4]uint8{s[k], s[k+1], s[k+2], s[k+3]}
			k += 4
			if px[3] == 255 {
				d[x] = q.lut[key15(px[0], px[1], px[2])]
				continue
			}
			key := uint64(d[x])<<32 | uint64(px[0])<<24 | uint64(px[1])<<16 | uint64(px[2])<<8 | uint64(px[3])
			if key != lastKey {
				lastKey, lastOut = key, q.overPremul(d[x], px)
			}
			d[x] = lastOut
		}
	}
}

// regions paints rows y0 to y1 of a RegionFill: runs of one shape set to
// its colour's index, edge pixels blended.
func (c *canvas) regions(rr *regionRaster, fill []Color, y0, y1 int) {
	if rr.w != c.w || rr.h != c.h {
		return
	}
	q := c.q
	for _, run := range rr.runs[rr.runRows[y0]:rr.runRows[y1]] {
		f := fillAt(fill, int(run.s))
		d := c.row(int(run.x), int(run.y), int(run.n))
		switch f.A {
		case 255:
			fillIndex(d, q.lut[key15(f.R, f.G, f.B)])
		case 0:
		default:
			for x, v := range d {
				d[x] = q.fill(v, f)
			}
		}
	}
	for _, e := range rr.edges[rr.edgeRows[y0]:rr.edgeRows[y1]] {
		d := c.row(int(e.x), int(e.y), 1)
		d[0] = q.edge(d[0], fillAt(fill, int(e.a)), e.ca, edgeFill(fill, e.b), e.cb)
	}
}

// background sets rows y0 to y1 to the background bg, each led by its
// filter byte.
func (c *canvas) background(bg Color, y0, y1 int) {
	pb := premul(bg) // on black, as a transparent background shows
	v := c.q.lut[key15(pb[0], pb[1], pb[2])]
	for y := y0; y < y1; y++ {
		c.pix[(y-c.y0)*c.stride] = 0
		fillIndex(c.row(0, y, c.w), v)
	}
}

// fill is the index of colour f painted over the palette colour d.
func (q *quantizer) fill(d uint8, f Color) uint8 {
	switch f.A {
	case 255:
		return q.lut[key15(f.R, f.G, f.B)]
	case 0:
		return d
	}
	return q.over(d, f, uint32(f.A))
}

// over is the index of colour f at opacity e (0..255; f's own alpha is
// not used) over the palette colour d.
func (q *quantizer) over(d uint8, f Color, e uint32) uint8 {
	p := &q.rgb[d]
	return q.lut[key15(uint8(mix255(uint32(f.R), uint32(p[0]), e)), uint8(mix255(uint32(f.G), uint32(p[1]), e)), uint8(mix255(uint32(f.B), uint32(p[2]), e)))]
}

// overPremul is the index of the premultiplied colour px over the palette
// colour d.
func (q *quantizer) overPremul(d uint8, px [4]uint8) uint8 {
	p := &q.rgb[d]
	ia := 255 - uint32(px[3])
	return q.lut[key15(px[0]+uint8((uint32(p[0])*ia+127)/255), px[1]+uint8((uint32(p[1])*ia+127)/255), px[2]+uint8((uint32(p[2])*ia+127)/255))]
}

// edge is the index of a pixel shared by two shapes' colours fa and fb,
// which cover the fractions ca and cb (of 255) of it, over the palette
// colour d.
func (q *quantizer) edge(d uint8, fa Color, ca uint8, fb Color, cb uint8) uint8 {
	var acc [3]uint32
	rest := uint32(255)
	for _, part := range [2]struct {
		f Color
		c uint8
	}{{fa, ca}, {fb, cb}} {
		if part.c == 0 || part.f.A == 0 {
			continue
		}
		pc := premul(part.f)
		cov := uint32(part.c)
		for k := range acc {
			acc[k] += uint32(pc[k]) * cov
		}
		rest -= cov * uint32(pc[3]) / 255
	}
	p := &q.rgb[d]
	var out [3]uint8
	for k := range out {
		out[k] = uint8(min((acc[k]+uint32(p[k])*rest+127)/255, 255))
	}
	return q.lut[key15(out[0], out[1], out[2])]
}

// fillIndex sets every byte of d to v.
func fillIndex(d []uint8, v uint8) {
	if len(d) < 32 {
		for i := range d {
			d[i] = v
		}
		return
	}
	d[0] = v
	for n := 1; n < len(d); n *= 2 {
		copy(d[n:], d[:n])
	}
}

// recorder is the target of a picture's items before the canvas is drawn:
// it keeps what they paint (coverage masks, layers, region fills) in
// order, so that the canvas can be drawn band by band, each band while it
// is in the processor's cache. A mask is kept as its covered stretches
// (segs), so that drawing it touches only the pixels it covers.
type recorder struct {
	w, h int
	ops  []op
	segs []seg   // the ops' stretches
	cov  []uint8 // their coverages
}

// seg is a stretch of n covered pixels of a row from (x, y): fully
// covered by an opaque colour (at < 0: painted with its index), or with
// the coverages from at in its op's cov.
type seg struct {
	x, y, n int16
	at      int32
}

// minFull is the shortest stretch of full coverage kept as one.
const minFull = 16

type op struct {
	x, y, w, h int32 // the box painted
	// A mask: its stretches (in rows, top down) and coverages; in the
	// recorder's arenas from s0, s1 and c0, c1 until finish sets them.
	segs           []seg
	cov            []uint8
	s0, s1, c0, c1 int32
	col            Color
	lr             *layerRaster  // a layer, or
	rr             *regionRaster // a region fill
	fill           []Color
}

func (r *recorder) reset(w, h int) {
	r.w, r.h = w, h
	clear(r.ops) // no pointers kept into the last picture
	r.ops = r.ops[:0]
	r.segs = r.segs[:0]
	r.cov = r.cov[:0]
}

func (r *recorder) bounds() image.Rectangle { return image.Rect(0, 0, r.w, r.h) }

func (r *recorder) blend(x0, y0, w, h int, mask []uint8, stride int, c Color) {
	if c.A == 0 {
		return
	}
	s0, c0 := len(r.segs), len(r.cov)
	minX, maxX, minY, maxY := w, -1, h, -1
	for y := 0; y < h; y++ {
		row := mask[y*stride : y*stride+w]
		for x := 0; x < w; {
			// Uncovered pixels, eight at a time.
			for x+8 <= w && binary.LittleEndian.Uint64(row[x:]) == 0 {
				x += 8
			}
			for x < w && row[x] == 0 {
				x++
			}
			if x >= w {
				break
			}
			e := x + 1
			for e < w && row[e] != 0 {
				e++
			}
			r.stretch(row[x:e], x0+x, y0+y, c.A == 255, c0)
			minX, maxX = min(minX, x), max(maxX, e-1)
			minY, maxY = min(minY, y), y
			x = e
		}
	}
	if len(r.segs) == s0 {
		return
	}
	r.ops = append(r.ops, op{x: int32(x0 + minX), y: int32(y0 + minY), w: int32(maxX - minX + 1), h: int32(maxY - minY + 1),
		s0: int32(s0), s1: int32(len(r.segs)), c0: int32(c0), c1: int32(len(r.cov)), col: c})
}

// stretch keeps the covered pixels m from (x, y): full stretches of an
// opaque colour as such, the others with their coverages (at counted from
// c0, the op's first coverage).
func (r *recorder) stretch(m []uint8, x, y int, opaque bool, c0 int) {
	base := int32(len(r.cov) - c0)
	for i := 0; i < len(m); {
		if opaque && m[i] == 255 {
			e := i + 1
			for e < len(m) && m[e] == 255 {
				e++
			}
			if e-i >= minFull {
				r.segs = append(r.segs, seg{x: int16(x + i), y: int16(y), n: int16(e - i), at: -1})
				i = e
				continue
			}
		}
		// Partial coverage up to the next full stretch.
		e := i + 1
		for e < len(m) && !(opaque && m[e] == 255 && fullFrom(m[e:])) {
			e++
		}
		r.segs = append(r.segs, seg{x: int16(x + i), y: int16(y), n: int16(e - i), at: base})
		r.cov = append(r.cov, m[i:e]...)
		base += int32(e - i)
		i = e
	}
}

// fullFrom reports whether m begins with minFull full coverages.
func fullFrom(m []uint8) bool {
	if len(m) < minFull {
		return false
	}
	for _, v := range m[:minFull] {
		if v != 255 {
			return false
		}
	}
	return true
}

func (r *recorder) layer(lr *layerRaster) {
	r.ops = append(r.ops, op{lr: lr, w: int32(r.w), h: int32(r.h)})
}

func (r *recorder) regions(rr *regionRaster, fill []Color) {
	r.ops = append(r.ops, op{rr: rr, fill: fill, w: int32(r.w), h: int32(r.h)})
}

// finish gives the ops recorded in the arenas their stretches and
// coverages: they are then as the item cache keeps them.
func (r *recorder) finish() {
	for i := range r.ops {
		o := &r.ops[i]
		if o.segs == nil && o.s1 > o.s0 {
			o.segs, o.cov = r.segs[o.s0:o.s1], r.cov[o.c0:o.c1]
		}
	}
}

// play draws rows y0 to y1 of what was recorded (and finished) on c.
func (r *recorder) play(c *canvas, y0, y1 int) {
	for i := range r.ops {
		o := &r.ops[i]
		if max(int(o.y), y0) >= min(int(o.y+o.h), y1) {
			continue
		}
		switch {
		case o.lr != nil:
			c.layer(o.lr, y0, y1)
		case o.rr != nil:
			c.regions(o.rr, o.fill, y0, y1)
		default:
			c.blendSegs(o.segs, o.cov, o.col, y0, y1)
		}
	}
}

// blendSegs paints col over the stretches of a mask in rows y0 to y1.
func (c *canvas) blendSegs(segs []seg, cov []uint8, col Color, y0, y1 int) {
	if int(segs[0].y) < y0 {
		k, _ := slices.BinarySearchFunc(segs, y0, func(s seg, y int) int { return int(s.y) - y })
		segs = segs[k:]
	}
	q := c.q
	t := q.blendTable(col)
	full := q.lut[key15(col.R, col.G, col.B)]
	lastD, row := -1, (*[256]uint8)(nil)
	for _, s := range segs {
		if int(s.y) >= y1 {
			break
		}
		d := c.row(int(s.x), int(s.y), int(s.n))
		if s.at < 0 {
			fillIndex(d, full)
			continue
		}
		m := cov[s.at : int(s.at)+len(d)]
		for k, v := range d {
			if int(v) != lastD {
				lastD, row = int(v), t.row(q, col, v)
			}
			d[k] = row[m[k]]
		}
	}
}
