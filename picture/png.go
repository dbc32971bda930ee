package picture

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"io"
	"slices"
	"sync"
)

// MaxSide is the largest width or height WritePNG draws.
const MaxSide = 16384

// WritePNG renders the picture and writes it as a paletted PNG (8 bits a
// pixel, filter none: flat colour is runs of one index, which is what its
// compressor looks for). It is safe to call for pictures at once.
func (p *Picture) WritePNG(w io.Writer) error {
	if p.Width <= 0 || p.Height <= 0 || p.Width > MaxSide || p.Height > MaxSide {
		return fmt.Errorf("picture: size %d×%d (1 to %d pixels a side)", p.Width, p.Height, MaxSide)
	}
	pal := p.Palette
	if len(pal) == 0 {
		pal = sceneColors(p)
	}
	e := encoders.Get().(*pngEncoder)
	defer encoders.Put(e)
	e.out = e.encode(e.out[:0], p, quantizerFor(pal))
	_, err := w.Write(e.out)
	return err
}

// pngEncoder is the reused state of one WritePNG: the canvas, the
// rasteriser's and recorder's buffers, the compressor's and the output.
type pngEncoder struct {
	canvas  canvas
	raster  raster
	rec     recorder
	z       deflater
	out     []byte
	changed []bool
	patches [][]uint8
	dirty   []bool // a base's chunks that may differ from its template
	seen    []bool // scratch of base.draw
	// bandRows, when set, is the height of a band (for tests).
	bandRows int
}

var encoders = sync.Pool{New: func() any { return new(pngEncoder) }}

// bandBytes is about the size of a band of rows drawn and compressed at
// once: well within a processor's second-level cache.
const bandBytes = 64 << 10

// encode appends the PNG file of p to dst. The items are rasterised first
// (the recorder keeps their coverage masks); then a board is drawn where
// it differs from its base's template and compressed, and another picture
// is drawn and compressed band by band, each band on the same small
// canvas, which stays in the processor's cache.
func (e *pngEncoder) encode(dst []byte, p *Picture, q *quantizer) []byte {
	w, h := p.Width, p.Height
	items := p.Items
	var b *base
	var fill []Color
	// A board: its regions and the layer over them come from the cache.
	if len(items) >= 2 {
		rf, ok1 := items[0].(*RegionFill)
		l, ok2 := items[1].(*Layer)
		if ok1 && ok2 && rf.Set != nil {
			b = l.baseFor(rf.Set, w, h, p.Background, q, rf.Fill)
			fill = rf.Fill
			b.prepare(fill, &e.changed, &e.patches)
			items = items[2:]
		}
	}
	e.rec.reset(w, h)
	e.raster.dst, e.raster.cache = &e.rec, true
	e.raster.items(items)
	e.rec.finish()
	e.raster.dst = nil
	clear(e.raster.polys[:cap(e.raster.polys)])

	c := &e.canvas
	dst = pngHeader(dst, w, h, q)
	// IDAT: the length is known once the data is compressed in place.
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	if b != nil {
		// A board is drawn and compressed where it may differ from its
		// template: on a canvas of the whole picture, of which only those
		// chunks are touched.
		e.markDirty(b)
		c.size(w, h, q)
		b.draw(c, fill, e.changed, e.patches, e.dirty, &e.seen)
		e.rec.play(c, 0, h)
		e.z.beginBase(dst, b.z)
		e.z.writeBase(c.pix, b.z, e.dirty)
		dst = e.z.endBase(b.z)
	} else {
		e.z.begin(dst)
		band := max(1, bandBytes/(w+1))
		if e.bandRows > 0 {
			band = e.bandRows
		}
		for y0 := 0; y0 < h; y0 += band {
			y1 := min(h, y0+band)
			c.band(w, h, q, y0, y1)
			c.background(p.Background, y0, y1)
			e.rec.play(c, y0, y1)
			e.z.write(c.pix)
		}
		dst = e.z.end()
	}
	clear(e.patches) // nothing of this picture is kept
	e.rec.reset(0, 0)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-8))
	dst = binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start+4:]))
	return chunk(dst, "IEND", nil)
}

// markDirty marks the chunks of b's template that the picture may paint
// otherwise: those of the shapes whose colour changed and those under
// what was recorded.
func (e *pngEncoder) markDirty(b *base) {
	z := b.z
	n := z.per * b.h
	if cap(e.dirty) < n {
		e.dirty = make([]bool, n)
	}
	e.dirty = e.dirty[:n]
	clear(e.dirty)
	b.markChanged(e.changed, e.dirty)
	for i := range e.rec.ops {
		o := &e.rec.ops[i]
		// Byte 1+x of a row is pixel x.
		c0, c1 := (1+int(o.x))/chunkBytes, (int(o.x+o.w))/chunkBytes
		for y := int(o.y); y < int(o.y+o.h); y++ {
			for c := c0; c <= c1; c++ {
				e.dirty[y*z.per+c] = true
			}
		}
	}
}

// pngHeader appends the PNG signature, header and palette.
func pngHeader(dst []byte, w, h int, q *quantizer) []byte {
	dst = append(dst, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth, paletted; compression, filter, interlace 0
	dst = chunk(dst, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(q.palette))
	for _, v := range q.rgb[:len(q.palette)] {
		plte = append(plte, v[0], v[1], v[2])
	}
	return chunk(dst, "PLTE", plte)
}

// chunk appends a PNG chunk.
func chunk(dst []byte, kind string, data []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(data)))
	start := len(dst)
	dst = append(dst, kind...)
	dst = append(dst, data...)
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
}

// sceneColors lists the distinct opaque colours a scene paints, in a stable
// order, at most MaxPalette.
func sceneColors(p *Picture) []Color {
	seen := map[Color]bool{}
	var out []Color
	add := func(c Color) {
		if c.A == 0 {
			return
		}
		c.A = 255
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	add(p.Background)
	var walk func(items []Item)
	walk = func(items []Item) {
		for _, it := range items {
			switch v := it.(type) {
			case *Path:
				add(v.Fill)
				add(v.Stroke)
			case *Circle:
				add(v.Fill)
				add(v.Stroke)
			case *Arrow:
				add(v.Stroke)
				add(v.HeadFill)
			case *Text:
				add(v.Color)
				add(v.Halo)
			case *Group:
				walk(v.Items)
			case *Layer:
				walk(v.items)
			case *RegionFill:
				for _, c := range v.Fill {
					add(c)
				}
			}
		}
	}
	walk(p.Items)
	if len(out) > MaxPalette {
		out = out[:MaxPalette]
	}
	return out
}

// quantizer maps RGBA pixels to a palette of exact colours plus a colour
// cube, through a 15-bit lookup table.
type quantizer struct {
	palette color.Palette
	rgb     [256][3]uint8 // the palette's colours
	lut     [1 << 15]uint8

	tablesMu sync.Mutex
	tables   map[Color]*blendTable // by colour: see blendTable
}

const cubeLevels = 6

var (
	quantMu sync.Mutex
	quants  []*quantEntry
)

type quantEntry struct {
	key  []Color
	once sync.Once
	q    *quantizer
}

// quantizerFor returns the (cached) quantizer of a palette.
func quantizerFor(pal []Color) *quantizer {
	if len(pal) > MaxPalette {
		pal = pal[:MaxPalette]
	}
	quantMu.Lock()
	var e *quantEntry
	for _, q := range quants {
		if slices.Equal(q.key, pal) {
			e = q
			break
		}
	}
	if e == nil {
		e = &quantEntry{key: slices.Clone(pal)}
		if len(quants) >= 16 {
			quants = quants[1:]
		}
		quants = append(quants, e)
	}
	quantMu.Unlock()
	e.once.Do(func() { e.q = newQuantizer(e.key) })
	return e.q
}

func newQuantizer(pal []Color) *quantizer {
	q := &quantizer{}
	var cols [][3]int
	for _, c := range pal {
		q.palette = append(q.palette, color.RGBA{c.R, c.G, c.B, 255})
		cols = append(cols, [3]int{int(c.R), int(c.G), int(c.B)})
	}
	exact := len(cols)
	step := 255 / (cubeLevels - 1)
	for r := 0; r < cubeLevels; r++ {
		for g := 0; g < cubeLevels; g++ {
			for b := 0; b < cubeLevels; b++ {
				q.palette = append(q.palette, color.RGBA{uint8(r * step), uint8(g * step), uint8(b * step), 255})
			}
		}
	}
	for k := range q.lut {
		// The centre of the 5-5-5 cell.
		r, g, b := (k>>10)<<3|4, (k>>5&31)<<3|4, (k&31)<<3|4
		best, bd := 0, 1<<30
		for i, c := range cols {
			if d := sq(c[0]-r) + sq(c[1]-g) + sq(c[2]-b); d < bd {
				best, bd = i, d
			}
		}
		// The nearest cube colour, by rounding each channel.
		cr, cg, cb := (r+step/2)/step, (g+step/2)/step, (b+step/2)/step
		if d := sq(cr*step-r) + sq(cg*step-g) + sq(cb*step-b); d < bd {
			best = exact + (cr*cubeLevels+cg)*cubeLevels + cb
		}
		q.lut[k] = uint8(best)
	}
	for i, c := range q.palette {
		r, g, b, _ := c.RGBA()
		q.rgb[i] = [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
	}
	// An exact colour always maps to itself.
	for i, c := range cols {
		q.lut[key15(uint8(c[0]), uint8(c[1]), uint8(c[2]))] = uint8(i)
	}
	return q
}

func sq(x int) int { return x * x }

func key15(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
