package picture

import (
	"slices"
	"sync"
)

// base is what a board picture begins with — its background, a RegionFill
// and the Layer drawn over it — composited in palette indices once and
// kept (in the Layer) for every later picture of that board. A picture
// then costs a copy of the template's chunks it may change (the template
// is made with the fill of the first picture), a copy of the runs of each
// shape whose colour differs from it (from a patch kept per shape and
// colour: the shape's pixels in that colour with the layer over them),
// and a copy of the edge pixels those shapes share with others (from a
// patch kept per pair of shapes and pair of colours). The result is the
// same, index for index, as drawing the RegionFill and the Layer on the
// canvas (a test shows it).
type base struct {
	set  *Regions
	w, h int
	bg   Color
	q    *quantizer

	rr        *regionRaster
	def       []Color // the fill the template is made with, one per shape
	template  []uint8 // a whole canvas
	shapes    []baseShape
	runAt     []int32 // per run of rr: where its pixels start in its shape's patches
	pairs     []edgePair
	edgeLayer [][4]uint8 // per edge pixel of rr: the layer's pixel over it (alpha 0: none)
	bgIdx     uint8
	z         *zbase // the template compressed (zbase.go)

	mu sync.Mutex // guards the shapes' patches
}

type baseShape struct {
	n       int // pixels in the shape's runs
	layer   []layerPixel
	patches []patch
	runs    []int32 // its runs (in the region raster), in order
	pairs   []int32 // the edge pairs it is one of
	chunks  []int32 // the chunks of the template its runs and edges are in, in order
}

// edgePair is the edge pixels two shapes share (or one shape's with
// none), whose colours are made again when either shape changes colour,
// from patches kept per pair of colours.
type edgePair struct {
	lo, hi  uint16  // the shapes, lo < hi (hi may be noRegion)
	edges   []int32 // in the region raster
	at      []int32 // each edge's offset in the template
	patches []pairPatch
}

// pairPatch is the colours of a pair's edges when its shapes are filled
// with lo and hi, the layer over them.
type pairPatch struct {
	lo, hi Color
	pix    []uint8
}

// layerPixel is a pixel of the layer over a shape's runs: its position
// among the shape's pixels and its premultiplied colour.
type layerPixel struct {
	at int32
	px [4]uint8
}

// patch is the pixels of a shape's runs, in order, filled with c.
type patch struct {
	c   Color
	pix []uint8
}

// maxPatches is the number of colours a shape's patches are kept for.
const maxPatches = 12

// maxBases is the number of bases a Layer keeps.
const maxBases = 4

// baseFor returns the base of set under l for a w×h picture on bg with
// the quantizer q, made (with fill as its template's colours) at the
// first call.
func (l *Layer) baseFor(set *Regions, w, h int, bg Color, q *quantizer, fill []Color) *base {
	l.mu.Lock()
	for _, b := range l.bases {
		if b.set == set && b.w == w && b.h == h && b.bg == bg && b.q == q {
			l.mu.Unlock()
			return b
		}
	}
	l.mu.Unlock()
	// Made outside the lock (rasterFor takes it); two callers at once may
	// both make one, and the first kept wins.
	b := newBase(set, l.rasterFor(w, h), set.rasterFor(w, h), bg, q, fill)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range l.bases {
		if o.set == set && o.w == w && o.h == h && o.bg == bg && o.q == q {
			return o
		}
	}
	if len(l.bases) >= maxBases {
		l.bases = l.bases[1:]
	}
	l.bases = append(l.bases, b)
	return b
}

func fillAt(fill []Color, s int) Color {
	if s < len(fill) {
		return fill[s]
	}
	return Color{}
}

func newBase(set *Regions, lr *layerRaster, rr *regionRaster, bg Color, q *quantizer, fill []Color) *base {
	w, h := rr.w, rr.h
	b := &base{set: set, w: w, h: h, bg: bg, q: q, rr: rr}
	b.def = make([]Color, set.Len())
	for s := range b.def {
		b.def[s] = fillAt(fill, s)
	}
	var c canvas
	c.reset(w, h, q, bg)
	b.bgIdx = c.row(0, 0, 1)[0]
	c.regions(rr, b.def, 0, h)
	c.layer(lr, 0, h)
	b.template = c.pix
	b.z = newZbase(b.template, w+1, h)

	// Where each pixel's colour comes from: a shape's run (shape, position
	// among its pixels), an edge, or neither.
	const none = -1
	shapeOf := make([]int32, w*h)
	posOf := make([]int32, w*h)
	for i := range shapeOf {
		shapeOf[i] = none
	}
	b.shapes = make([]baseShape, set.Len())
	b.runAt = make([]int32, len(rr.runs))
	for ri, run := range rr.runs {
		if int(run.s) >= len(b.shapes) {
			continue
		}
		sh := &b.shapes[run.s]
		b.runAt[ri] = int32(sh.n)
		sh.runs = append(sh.runs, int32(ri))
		o := int(run.y)*w + int(run.x)
		for k := 0; k < int(run.n); k++ {
			shapeOf[o+k] = int32(run.s)
			posOf[o+k] = int32(sh.n + k)
		}
		sh.n += int(run.n)
	}
	pairOf := map[uint32]int32{}
	for ei, e := range rr.edges {
		o := int(e.y)*w + int(e.x)
		shapeOf[o] = -2
		posOf[o] = int32(ei)
		lo, hi := min(e.a, e.b), max(e.a, e.b)
		k := uint32(lo)<<16 | uint32(hi)
		pi, ok := pairOf[k]
		if !ok {
			pi = int32(len(b.pairs))
			pairOf[k] = pi
			b.pairs = append(b.pairs, edgePair{lo: lo, hi: hi})
			for _, s := range [2]uint16{lo, hi} {
				if int(s) < len(b.shapes) {
					b.shapes[s].pairs = append(b.shapes[s].pairs, pi)
				}
			}
		}
		pr := &b.pairs[pi]
		pr.edges = append(pr.edges, int32(ei))
		pr.at = append(pr.at, int32(int(e.y)*(w+1)+1+int(e.x)))
	}
	// The chunks each shape paints.
	chunkOf := func(x, y int) int32 { return int32(y*b.z.per + (1+x)/chunkBytes) }
	addChunk := func(s int, c int32) {
		if s >= len(b.shapes) {
			return
		}
		sh := &b.shapes[s]
		if n := len(sh.chunks); n == 0 || sh.chunks[n-1] != c {
			sh.chunks = append(sh.chunks, c)
		}
	}
	for _, run := range rr.runs {
		for c := chunkOf(int(run.x), int(run.y)); c <= chunkOf(int(run.x+run.n-1), int(run.y)); c++ {
			addChunk(int(run.s), c)
		}
	}
	for _, e := range rr.edges {
		addChunk(int(e.a), chunkOf(int(e.x), int(e.y)))
		if e.b != noRegion {
			addChunk(int(e.b), chunkOf(int(e.x), int(e.y)))
		}
	}
	for s := range b.shapes {
		sh := &b.shapes[s]
		slices.Sort(sh.chunks)
		sh.chunks = slices.Clip(slices.Compact(sh.chunks))
	}
	b.edgeLayer = make([][4]uint8, len(rr.edges))
	k := 0
	for _, sp := range lr.spans {
		o := int(sp.y)*w + int(sp.x)
		for x := 0; x < int(sp.n); x, k = x+1, k+4 {
			px := [4]uint8{lr.pix[k], lr.pix[k+1], lr.pix[k+2], lr.pix[k+3]}
			switch s := shapeOf[o+x]; {
			case s >= 0:
				b.shapes[s].layer = append(b.shapes[s].layer, layerPixel{at: posOf[o+x], px: px})
			case s == -2:
				b.edgeLayer[posOf[o+x]] = px
			}
		}
	}
	return b
}

// prepare readies the base for a picture with fill: which shapes change
// colour, and their patches.
func (b *base) prepare(fill []Color, changed *[]bool, patches *[][]uint8) {
	ch := (*changed)[:0]
	pp := (*patches)[:0]
	for s := range b.shapes {
		f := fillAt(fill, s)
		c := f != b.def[s]
		ch = append(ch, c)
		var pix []uint8
		if c && b.shapes[s].n > 0 {
			pix = b.patch(s, f)
		}
		pp = append(pp, pix)
	}
	*changed, *patches = ch, pp
}

// markChanged marks the chunks of the shapes changed in dirty.
func (b *base) markChanged(changed, dirty []bool) {
	for s, c := range changed {
		if c {
			for _, k := range b.shapes[s].chunks {
				dirty[k] = true
			}
		}
	}
}

// draw paints on c (the whole picture) the chunks dirty marks (which
// hold every shape changed) from the template, then the shapes changed
// over them: their runs from their patches, the edges they are in from
// their pairs' patches. The other chunks are left as they are. seen is
// scratch, a flag per pair.
func (b *base) draw(c *canvas, fill []Color, changed []bool, patches [][]uint8, dirty []bool, seen *[]bool) {
	z := b.z
	// Consecutive chunks are consecutive bytes.
	for i := 0; i < len(dirty); i++ {
		if !dirty[i] {
			continue
		}
		k := i + 1
		for k < len(dirty) && dirty[k] {
			k++
		}
		from, to := z.off[i], z.off[k]
		copy(c.pix[from:to], b.template[from:to])
		i = k
	}
	rr := b.rr
	if cap(*seen) < len(b.pairs) {
		*seen = make([]bool, len(b.pairs))
	}
	sn := (*seen)[:len(b.pairs)]
	clear(sn)
	for s, ch := range changed {
		if !ch {
			continue
		}
		if pix := patches[s]; pix != nil {
			for _, ri := range b.shapes[s].runs {
				run := &rr.runs[ri]
				copy(c.row(int(run.x), int(run.y), int(run.n)), pix[b.runAt[ri]:])
			}
		}
		for _, pi := range b.shapes[s].pairs {
			if sn[pi] {
				continue
			}
			sn[pi] = true
			pr := &b.pairs[pi]
			pix := b.pairPatch(pr, fillAt(fill, int(pr.lo)), edgeFill(fill, pr.hi))
			for k, o := range pr.at {
				c.pix[o] = pix[k]
			}
		}
	}
}

// pairPatch returns the colours of pr's edges with its shapes filled lo
// and hi, kept for up to maxPairPatches pairs of colours.
func (b *base) pairPatch(pr *edgePair, lo, hi Color) []uint8 {
	b.mu.Lock()
	for _, p := range pr.patches {
		if p.lo == lo && p.hi == hi {
			b.mu.Unlock()
			return p.pix
		}
	}
	keep := len(pr.patches) < maxPairPatches
	b.mu.Unlock()
	pix := make([]uint8, len(pr.edges))
	q := b.q
	for k, ei := range pr.edges {
		e := &b.rr.edges[ei]
		fa, fb := lo, hi
		if e.a != pr.lo {
			fa, fb = hi, lo
		}
		if e.b == noRegion {
			fb = Color{}
		}
		d := q.edge(b.bgIdx, fa, e.ca, fb, e.cb)
		if px := b.edgeLayer[ei]; px[3] != 0 {
			d = q.overPremul(d, px)
		}
		pix[k] = d
	}
	if keep {
		b.mu.Lock()
		if len(pr.patches) < maxPairPatches {
			pr.patches = append(pr.patches, pairPatch{lo: lo, hi: hi, pix: pix})
		}
		b.mu.Unlock()
	}
	return pix
}

// maxPairPatches is the number of pairs of colours a pair's patches are
// kept for: more than a shape's, as two shapes change colour.
const maxPairPatches = 24

func edgeFill(fill []Color, s uint16) Color {
	if s == noRegion {
		return Color{}
	}
	return fillAt(fill, int(s))
}

// patch returns the pixels of shape s in colour col with the layer over
// them, kept for up to maxPatches colours of the shape.
func (b *base) patch(s int, col Color) []uint8 {
	sh := &b.shapes[s]
	b.mu.Lock()
	for _, p := range sh.patches {
		if p.c == col {
			b.mu.Unlock()
			return p.pix
		}
	}
	// Past maxPatches colours a patch is made for the picture and dropped.
	keep := len(sh.patches) < maxPatches
	b.mu.Unlock()
	pix := make([]uint8, sh.n)
	fillIndex(pix, b.q.fill(b.bgIdx, col))
	for _, lp := range sh.layer {
		pix[lp.at] = b.q.overPremul(pix[lp.at], lp.px)
	}
	if keep {
		b.mu.Lock()
		if len(sh.patches) < maxPatches {
			sh.patches = append(sh.patches, patch{c: col, pix: pix})
		}
		b.mu.Unlock()
	}
	return pix
}
