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
	// chunks[i] is chunk i's colourings, nil until one is kept.
	chunks []atomic.Pointer[chunkVariants]

	mu    sync.Mutex // guards adding and the slabs
	bytes int
	// Slabs the variants are cut from, not to allocate each.
	vslab  []variant
	cslab  []Color
	bslab  []byte
	cvslab []chunkVariants
}

// chunkVariants is a chunk's colourings: the first n of keys and vs, in
// arrays so that a look-up reads the keys one after another. An entry
// below n is never changed; n grows (under the cache's lock) once the
// entry is written.
type chunkVariants struct {
	n    atomic.Int32
	keys [maxVariants]uint64
	vs   [maxVariants]*variant
}

// variant is a chunk compressed for one colouring of its shapes: its
// bits after a byte that is its first (same) or not (other), its first
// and last bytes and its share of an Adler-32.
type variant struct {
	cols        []Color // the fills of the chunk's shapes, in order
	bits        []byte  // same, then other from a byte, then eight bytes for copyBits
	same, other int32   // their lengths in bits
	first, last uint8
	s1, s2      uint32
}

func newRecolourCache(b *base) *recolourCache {
	n := len(b.z.at) - 1
	rc := &recolourCache{at: make([]int32, n+1), code: &b.z.code, chunks: make([]atomic.Pointer[chunkVariants], n)}
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

// fillKey is the fills of shapes as a number: the fills themselves for
// one or two shapes (exact: a chunk's shapes are always as many), a hash
// of them for more.
func fillKey(shapes []uint16, fill []Color) uint64 {
	word := func(s uint16) uint64 {
		c := fillAt(fill, int(s))
		return uint64(c.R)<<24 | uint64(c.G)<<16 | uint64(c.B)<<8 | uint64(c.A)
	}
	switch len(shapes) {
	case 0:
		return 0
	case 1:
		return word(shapes[0])
	case 2:
		return word(shapes[0])<<32 | word(shapes[1])
	}
	h := uint64(len(shapes))
	for _, s := range shapes {
		h = (h ^ word(s)) * 0x9E3779B97F4A7C15
	}
	return h
}

// exactKey reports whether fillKey is exact for n shapes.
func exactKey(n int) bool { return n <= 2 }

// find returns chunk i's variant for fill, or nil.
func (rc *recolourCache) find(i int, fill []Color) *variant {
	cv := rc.chunks[i].Load()
	if cv == nil {
		return nil
	}
	shapes := rc.shapes[rc.at[i]:rc.at[i+1]]
	key := fillKey(shapes, fill)
	n := int(cv.n.Load())
	for k, kk := range cv.keys[:n] {
		if kk == key && (exactKey(len(shapes)) || sameFills(cv.vs[k].cols, shapes, fill)) {
			return cv.vs[k]
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
	if cv := rc.chunks[i].Load(); cv != nil && cv.n.Load() >= maxVariants {
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
	cv := rc.chunks[i].Load()
	key := fillKey(shapes, fill)
	n := 0
	if cv != nil {
		n = int(cv.n.Load())
		for k, kk := range cv.keys[:n] {
			if kk == key && sameFills(cv.vs[k].cols, shapes, fill) {
				return // added meanwhile
			}
		}
	}
	size := len(w.out) + 8 + 4*len(shapes) + 64 // and the variant's fields
	if cv == nil {
		size += 8 + 16*maxVariants // a chunkVariants
	}
	if n >= maxVariants || rc.bytes+size > recolourBytes {
		return
	}
	rc.bytes += size
	if cv == nil {
		if len(rc.cvslab) == cap(rc.cvslab) {
			rc.cvslab = make([]chunkVariants, 0, 64)
		}
		rc.cvslab = rc.cvslab[:len(rc.cvslab)+1]
		cv = &rc.cvslab[len(rc.cvslab)-1]
		rc.chunks[i].Store(cv)
	}
	if len(rc.vslab) == cap(rc.vslab) {
		rc.vslab = make([]variant, 0, 1024)
	}
	rc.vslab = rc.vslab[:len(rc.vslab)+1]
	v := &rc.vslab[len(rc.vslab)-1]
	*v = variant{same: same, other: other, first: p[0], last: p[len(p)-1], s1: s1, s2: s2}
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
	cv.keys[n], cv.vs[n] = key, v
	cv.n.Store(int32(n + 1))
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
