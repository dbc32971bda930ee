package picture

import (
	"sync"
	"sync/atomic"
)

// A board's pictures differ from its template most where a shape changed
// colour (a supply centre changing hands): on the standard Diplomacy
// board, about 1900 chunks of a picture (of 4300 compressed again) differ
// for that alone. What such a chunk holds is given by the colours of the
// shapes that paint it, and they take few colours, so a base keeps the
// compressed chunks of the colourings it has met: a chunk that only
// changed shapes paint (no item) is looked up by its shapes' colours and
// its bits copied, as the template's are. Over 400 different games, 97 %
// of those chunks were found after the first hundred, and the cache held
// 4.8 MB. The bits are those the chunk's bytes are coded to, so the
// picture is the same, bit for bit, whether a chunk came from the cache
// or not.

// maxVariants is the number of colourings kept for a chunk.
const maxVariants = 32

// recolourBytes bounds the bits a base's recolour cache keeps.
const recolourBytes = 16 << 20

// recolourCache is a base's compressed chunks by the colours of their
// shapes.
type recolourCache struct {
	// The shapes that paint chunk i (its runs and edges) are
	// shapes[at[i]:at[i+1]].
	at     []int32
	shapes []uint16
	code   *zcode
	// heads[i] is chunk i's last colouring kept, which leads to the
	// others; a variant is never changed once a head.
	heads []atomic.Pointer[variant]

	mu    sync.Mutex // guards adding and the slabs
	bytes int
	// Slabs the variants are cut from, not to allocate each.
	vslab []variant
	cslab []Color
	bslab []byte
}

// variant is a chunk compressed for one colouring of its shapes: its
// bits after a byte that is its first (same) or not (other), its first
// and last bytes and its share of an Adler-32.
type variant struct {
	key         uint64  // a hash of cols
	cols        []Color // the fills of the chunk's shapes, in order
	bits        []byte  // same, then other from a byte, then eight bytes for copyBits
	same, other int32   // their lengths in bits
	first, last uint8
	s1, s2      uint32
	next        *variant // the colouring kept before, or nil
	n           int      // the colourings kept from this one on
}

func newRecolourCache(b *base) *recolourCache {
	n := len(b.z.at) - 1
	rc := &recolourCache{at: make([]int32, n+1), code: &b.z.code, heads: make([]atomic.Pointer[variant], n)}
	for _, sh := range b.shapes {
		for _, c := range sh.chunks {
			rc.at[c+1]++
		}
	}
	for i := range n {
		rc.at[i+1] += rc.at[i]
	}
	rc.shapes = make([]uint16, rc.at[n])
	next := append([]int32(nil), rc.at[:n]...)
	for s, sh := range b.shapes {
		for _, c := range sh.chunks {
			rc.shapes[next[c]] = uint16(s)
			next[c]++
		}
	}
	return rc
}

// fillKey is a hash of the fills of shapes.
func fillKey(shapes []uint16, fill []Color) uint64 {
	h := uint64(len(shapes))
	for _, s := range shapes {
		c := fillAt(fill, int(s))
		h = (h ^ uint64(c.R)<<24 ^ uint64(c.G)<<16 ^ uint64(c.B)<<8 ^ uint64(c.A)) * 0x9E3779B97F4A7C15
	}
	return h
}

// find returns chunk i's variant for fill, or nil.
func (rc *recolourCache) find(i int, fill []Color) *variant {
	v := rc.heads[i].Load()
	if v == nil {
		return nil
	}
	shapes := rc.shapes[rc.at[i]:rc.at[i+1]]
	key := fillKey(shapes, fill)
	for ; v != nil; v = v.next {
		if v.key == key && sameFills(v.cols, shapes, fill) {
			return v
		}
	}
	return nil
}

func sameFills(cols []Color, shapes []uint16, fill []Color) bool {
	for k, s := range shapes {
		if cols[k] != fillAt(fill, int(s)) {
			return false
		}
	}
	return true
}

// add keeps chunk i's bytes p, which fill gives it, unless it has
// maxVariants or the cache is full; w is scratch.
func (rc *recolourCache) add(i int, fill []Color, p []byte, w *bitWriter) {
	if h := rc.heads[i].Load(); h != nil && h.n >= maxVariants {
		return
	}
	shapes := rc.shapes[rc.at[i]:rc.at[i+1]]
	*w = bitWriter{out: w.out[:0]}
	rc.code.encode(w, p, int(p[0]))
	same := int32(8*len(w.out)) + int32(w.nbits)
	w.flush() // the other way begins at a byte
	at := len(w.out)
	rc.code.encode(w, p, -1)
	other := int32(8*(len(w.out)-at)) + int32(w.nbits)
	w.flush()
	s1, s2 := adlerShare(p)

	rc.mu.Lock()
	defer rc.mu.Unlock()
	h := rc.heads[i].Load()
	key := fillKey(shapes, fill)
	for o := h; o != nil; o = o.next {
		if o.key == key && sameFills(o.cols, shapes, fill) {
			return // added meanwhile
		}
	}
	size := len(w.out) + 8 + 4*len(shapes) + 80 // and the variant's fields
	if (h != nil && h.n >= maxVariants) || rc.bytes+size > recolourBytes {
		return
	}
	rc.bytes += size
	if len(rc.vslab) == cap(rc.vslab) {
		rc.vslab = make([]variant, 0, 1024)
	}
	rc.vslab = rc.vslab[:len(rc.vslab)+1]
	v := &rc.vslab[len(rc.vslab)-1]
	*v = variant{key: key, same: same, other: other, first: p[0], last: p[len(p)-1], s1: s1, s2: s2, next: h, n: 1}
	if h != nil {
		v.n = h.n + 1
	}
	if len(rc.cslab)+len(shapes) > cap(rc.cslab) {
		rc.cslab = make([]Color, 0, max(4096, len(shapes)))
	}
	c0 := len(rc.cslab)
	for _, s := range shapes {
		rc.cslab = append(rc.cslab, fillAt(fill, int(s)))
	}
	v.cols = rc.cslab[c0:len(rc.cslab):len(rc.cslab)]
	if n := len(w.out) + 8; len(rc.bslab)+n > cap(rc.bslab) {
		rc.bslab = make([]byte, 0, max(64<<10, n))
	}
	b0 := len(rc.bslab)
	rc.bslab = append(append(rc.bslab, w.out...), 0, 0, 0, 0, 0, 0, 0, 0)
	v.bits = rc.bslab[b0:len(rc.bslab):len(rc.bslab)]
	rc.heads[i].Store(v)
}

// copyVariant writes a chunk of n bytes from its variant.
func (d *deflater) copyVariant(v *variant, n int) {
	if d.prev == int(v.first) {
		d.bw.copyBits(v.bits, 0, int(v.same))
	} else {
		d.bw.copyBits(v.bits, int(v.same+7)/8*8, int(v.other))
	}
	d.sum = adlerCombine(d.sum, n, v.s1, v.s2)
	d.prev = int(v.last)
}

// adlerShare is p's share of an Adler-32: the sum of its bytes and
// Σ (n-i)·p[i], mod 65521.
func adlerShare(p []byte) (s1, s2 uint32) {
	// Summed from a = 0, b = 0: after p, a = Σ p[i] and b = Σ (n-i)·p[i].
	var a, b uint64
	for _, v := range p {
		a += uint64(v)
		b += a
	}
	return uint32(a % adlerMod), uint32(b % adlerMod)
}
