package picture

import (
	"encoding/binary"
	"math"
	"sync"
)

// A board's pictures draw the same shapes again and again: a unit of a
// power at a province's unit point, a supply centre's ring, the arrow of
// a move between two provinces, the letter on a unit, a power's line of
// the legend. Rasterising a shape into coverage masks (or laying out a
// text and placing its glyphs' masks) costs more than blending the masks,
// so WritePNG keeps the masks of the Paths, Circles, Arrows and Texts it
// has drawn, by their exact value and the picture's size, and a shape met
// again is its kept masks. The masks
// are the ones rasterising it gives, so a picture is the same, index for
// index, whether a shape came from the cache or not. The cache is bounded
// (itemCacheBytes of masks); once full, it keeps what it has.

// itemCacheBytes bounds the masks kept.
const itemCacheBytes = 16 << 20

// segBytes is the size of a seg.
const segBytes = 12

var itemMasks = struct {
	sync.RWMutex
	m     map[string][]op
	bytes int
}{m: map[string][]op{}}

// itemKey appends to b what makes the masks of it in a w×h picture: its
// kind and every number and colour of its value. ok is false for items
// not kept.
func itemKey(b []byte, it Item, w, h int) ([]byte, bool) {
	f := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	pt := func(p Point) { f(p.X); f(p.Y) }
	col := func(c Color) { b = append(b, c.R, c.G, c.B, c.A) }
	pts := func(pp []Point) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(pp)))
		for _, p := range pp {
			pt(p)
		}
	}
	style := func(s Style) {
		col(s.Fill)
		col(s.Stroke)
		f(s.StrokeWidth)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s.Dash)))
		for _, d := range s.Dash {
			f(d)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(w))
	b = binary.LittleEndian.AppendUint32(b, uint32(h))
	switch v := it.(type) {
	case *Path:
		b = append(b, 'P')
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Rings)))
		for _, r := range v.Rings {
			pts(r)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Lines)))
		for _, l := range v.Lines {
			pts(l)
		}
		style(v.Style)
	case *Circle:
		b = append(b, 'C')
		pt(v.C)
		f(v.R)
		style(v.Style)
	case *Arrow:
		b = append(b, 'A')
		pt(v.From)
		pt(v.To)
		pt(v.Via)
		b = append(b, boolByte(v.Curve))
		f(v.Head)
		col(v.HeadFill)
		style(v.Style)
	case *Text:
		b = append(b, 'T')
		pt(v.At)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v.S)))
		b = append(b, v.S...)
		f(v.Size)
		b = append(b, boolByte(v.Bold), byte(v.Anchor))
		col(v.Color)
		col(v.Halo)
	default:
		return b, false
	}
	return b, true
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// cachedItem draws it on the recorder from the kept masks, or rasterises
// it and keeps its masks; false when it is not an item kept.
func (r *raster) cachedItem(rec *recorder, it Item) bool {
	var ok bool
	r.key, ok = itemKey(r.key[:0], it, rec.w, rec.h)
	if !ok {
		return false
	}
	itemMasks.RLock()
	ops, hit := itemMasks.m[string(r.key)]
	itemMasks.RUnlock()
	if hit {
		rec.ops = append(rec.ops, ops...)
		return true
	}
	n0 := len(rec.ops)
	switch v := it.(type) {
	case *Path:
		r.path(v)
	case *Circle:
		r.circle(v)
	case *Arrow:
		r.arrow(v)
	case *Text:
		r.text(v)
	}
	var nsegs, ncov int
	for _, o := range rec.ops[n0:] {
		nsegs += int(o.s1 - o.s0)
		ncov += int(o.c1 - o.c0)
	}
	size := ncov + nsegs*segBytes
	itemMasks.RLock()
	full := itemMasks.bytes+size > itemCacheBytes
	itemMasks.RUnlock()
	if full {
		return true
	}
	kept := make([]op, len(rec.ops)-n0)
	segs := make([]seg, 0, nsegs)
	cov := make([]uint8, 0, ncov)
	for i, o := range rec.ops[n0:] {
		if o.segs == nil {
			s := len(segs)
			segs = append(segs, rec.segs[o.s0:o.s1]...)
			o.segs = segs[s:len(segs):len(segs)]
			c := len(cov)
			cov = append(cov, rec.cov[o.c0:o.c1]...)
			o.cov = cov[c:len(cov):len(cov)]
		}
		kept[i] = o
	}
	itemMasks.Lock()
	if _, dup := itemMasks.m[string(r.key)]; !dup && itemMasks.bytes+size <= itemCacheBytes {
		itemMasks.m[string(r.key)] = kept
		itemMasks.bytes += size
	}
	itemMasks.Unlock()
	return true
}
