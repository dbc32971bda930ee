package picture

import (
	"image"
)

// canvas is a picture drawn straight into palette indices, one byte a
// pixel, row after row (the Pix of an image.Paletted). Every pixel is
// opaque: a shape's edge or a translucent colour is blended with the
// palette colour under it and mapped to the nearest palette entry at once.
// It is the target WritePNG's raster draws on.
type canvas struct {
	w, h int
	pix  []uint8
	q    *quantizer
}

// reset sizes the canvas for a w×h picture on background bg, reusing its
// pixels' memory.
func (c *canvas) reset(w, h int, q *quantizer, bg Color) {
	c.w, c.h, c.q = w, h, q
	if n := w * h; cap(c.pix) < n {
		c.pix = make([]uint8, n)
	} else {
		c.pix = c.pix[:n]
	}
	pb := premul(bg) // on black, as a transparent background shows
	fillIndex(c.pix, q.lut[key15(pb[0], pb[1], pb[2])])
}

// row returns the n pixels of row y from x.
func (c *canvas) row(x, y, n int) []uint8 {
	o := y*c.w + x
	return c.pix[o : o+n]
}

func (c *canvas) bounds() image.Rectangle { return image.Rect(0, 0, c.w, c.h) }

// blend paints col over the w×h box at (x0, y0) through the coverage mask:
// a pixel fully covered by an opaque colour takes its index, a partly
// covered one the index nearest the colour at that coverage (times its
// alpha) over the palette colour under it.
func (c *canvas) blend(x0, y0, w, h int, mask []uint8, stride int, col Color) {
	if col.A == 0 {
		return
	}
	q := c.q
	full := q.lut[key15(col.R, col.G, col.B)]
	sa := uint32(col.A)
	// Neighbouring pixels of a stroke's edge often repeat the pair of the
	// index under them and the coverage.
	lastD, lastM, lastOut := -1, -1, uint8(0)
	for y := 0; y < h; y++ {
		m := mask[y*stride : y*stride+w]
		d := c.row(x0, y0+y, w)
		for x, v := range m {
			switch {
			case v == 0:
			case v == 255 && sa == 255:
				d[x] = full
			default:
				if int(d[x]) != lastD || int(v) != lastM {
					lastD, lastM = int(d[x]), int(v)
					lastOut = q.over(d[x], col, (uint32(v)*sa+127)/255)
				}
				d[x] = lastOut
			}
		}
	}
}

// layer composites a Layer's raster (premultiplied RGBA spans).
func (c *canvas) layer(lr *layerRaster) {
	if lr.w != c.w || lr.h != c.h {
		return
	}
	q := c.q
	s := lr.pix
	k := 0
	lastKey, lastOut := uint64(1<<63), uint8(0)
	for _, sp := range lr.spans {
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

// regions paints a RegionFill: runs of one shape set to its colour's
// index, edge pixels blended.
func (c *canvas) regions(rr *regionRaster, fill []Color) {
	if rr.w != c.w || rr.h != c.h {
		return
	}
	q := c.q
	for _, run := range rr.runs {
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
	for _, e := range rr.edges {
		d := c.row(int(e.x), int(e.y), 1)
		d[0] = q.edge(d[0], fillAt(fill, int(e.a)), e.ca, edgeFill(fill, e.b), e.cb)
	}
}

// fillAt is shape s's colour in fill: none past its end.
func fillAt(fill []Color, s int) Color {
	if s < len(fill) {
		return fill[s]
	}
	return Color{}
}

// edgeFill is fillAt for the second shape of an edge pixel, which may be
// none.
func edgeFill(fill []Color, s uint16) Color {
	if s == noRegion {
		return Color{}
	}
	return fillAt(fill, int(s))
}

// mix255 is (a·t + b·(255-t)) / 255, rounded.
func mix255(a, b, t uint32) uint32 { return (a*t + b*(255-t) + 127) / 255 }

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
