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
	// variants[i] is chunk i's colourings, a slice never changed once
	// stored (a new one replaces it).
	variants []atomic.Pointer[[]*variant]

	mu    sync.Mutex // guards adding
	bytes int
}

// variant is a chunk compressed for one colouring of its shapes: its
// bits after a byte that is its first (same) or not (other), its first
// and last bytes and its share of an Adler-32.
type variant struct {
	cols        []Color // the fills of the chunk's shapes, in order
	bits        []byte  // same, then other, then eight bytes for copyBits
	same, other int32   // their lengths in bits
	first, last uint8
	s1, s2      uint32
}

func newRecolourCache(b *base) *recolourCache {
	n := len(b.z.at) - 1
	rc := &recolourCache{at: make([]int32, n+1), code: &b.z.code, variants: make([]atomic.Pointer[[]*variant], n)}
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

// find returns chunk i's variant for fill, or nil.
func (rc *recolourCache) find(i int, fill []Color) *variant {
	vs := rc.variants[i].Load()
	if vs == nil {
		return nil
	}
	shapes := rc.shapes[rc.at[i]:rc.at[i+1]]
	for _, v := range *vs {
		if sameFills(v.cols, shapes, fill) {
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
// maxVariants or the cache is full.
func (rc *recolourCache) add(i int, fill []Color, p []byte) {
	if old := rc.variants[i].Load(); old != nil && len(*old) >= maxVariants {
		return
	}
	rc.mu.Lock()
	full := rc.bytes >= recolourBytes
	rc.mu.Unlock()
	if full {
		return
	}
	shapes := rc.shapes[rc.at[i]:rc.at[i+1]]
	v := &variant{cols: make([]Color, len(shapes)), first: p[0], last: p[len(p)-1]}
	for k, s := range shapes {
		v.cols[k] = fillAt(fill, int(s))
	}
	var w bitWriter
	rc.code.encode(&w, p, int(p[0]))
	v.same = int32(8*len(w.out)) + int32(w.nbits)
	w.write(0, uint(-v.same&7)) // the other way begins at a byte
	w.flush()
	at := len(w.out)
	rc.code.encode(&w, p, -1)
	v.other = int32(8*(len(w.out)-at)) + int32(w.nbits)
	w.flush()
	v.bits = append(w.out, make([]byte, 8)...)
	v.s1, v.s2 = adlerShare(p)

	rc.mu.Lock()
	defer rc.mu.Unlock()
	old := rc.variants[i].Load()
	var vs []*variant
	if old != nil {
		for _, o := range *old {
			if sameFills(o.cols, shapes, fill) {
				return // added meanwhile
			}
		}
		vs = *old
	}
	size := len(v.bits) + 4*len(v.cols) + 64 // and the variant's fields
	if len(vs) >= maxVariants || rc.bytes+size > recolourBytes {
		return
	}
	rc.bytes += size
	nv := append(append(make([]*variant, 0, len(vs)+1), vs...), v)
	rc.variants[i].Store(&nv)
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
