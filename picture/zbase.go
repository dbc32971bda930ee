package picture

import (
	"bytes"
	"encoding/binary"
)

// A board's pictures are mostly its base: the template (made with the
// first picture's fill) with a few shapes recoloured and the units and
// orders over it. Compressing the template's bytes again for every
// picture was most of a picture's cost, so the base keeps the template
// compressed, in chunks of chunkBytes of a row, with one Huffman code
// made once for the board (from the template's statistics, every symbol
// given a code). A picture is then one dynamic-Huffman block in that
// code: a chunk whose bytes are the template's is its kept bits, copied;
// only the chunks that differ are compressed (runs, as deflate.go finds
// them, coded at once in the board's code). Runs stop at chunk ends, and
// the code is the template's rather than the picture's own: a picture
// comes out a little larger (a few per cent) for a small share of the
// work.

// chunkBytes is the length of a chunk: a row (its filter byte and pixels)
// is cut in chunks of this many bytes, the last one shorter. Measured on
// the standard board: 64 costs less than 32 or 128 (fewer bytes
// compressed again than with 128, fewer chunks than with 32).
var chunkBytes = 64

// zbase is a base's template, compressed chunk by chunk in the board's
// code.
type zbase struct {
	code   zcode
	stride int
	chunks []zchunk
	rows   []zchunk // each row as one piece: its chunks' bits one after another
	bits   []byte   // the chunks' and rows' bit strings, each padded to a byte
}

// zchunk is one chunk of the template: where its bytes begin in the
// scanlines, its length, its share of an Adler-32 (s1: the sum of its
// bytes, s2: Σ (n-i)·byte i, both mod 65521), and its bits in the code,
// two ways: [0] when the byte before it in the stream differs from its
// first byte, [1] when it is the same (a run may then start at once).
type zchunk struct {
	off, n int32
	s1, s2 uint32
	at     [2]int32
	nbits  [2]int32
}

// zcode is a literal/length code for runs at distance 1, as one table
// each: a literal's code and length, a run's length code, extra bits and
// distance code as one value and their total length.
type zcode struct {
	litL    [litCodes]uint8
	distL   [distCodes]uint8
	lit     [256]uint32 // code | length<<24
	run     [maxMatch + 1]uint32
	runBits [maxMatch + 1]uint8
	eobC    uint16
	eobL    uint8
}

// chunkSpans calls f with the offset and length of each chunk of an
// h-row picture of stride bytes a row, in order.
func chunkSpans(stride, h int, f func(off, n int)) {
	for y := 0; y < h; y++ {
		for x := 0; x < stride; x += chunkBytes {
			f(y*stride+x, min(chunkBytes, stride-x))
		}
	}
}

// newZbase compresses the template (h rows of stride bytes).
func newZbase(template []byte, stride, h int) *zbase {
	z := &zbase{stride: stride}
	// The code: the template's own symbols, tokenised as the chunks will
	// be, and one more of every literal and length, so that any picture
	// of the board can be coded.
	var litF [litCodes]int32
	var distF [distCodes]int32
	for s := range 256 {
		litF[s] = 1
	}
	for s := 257; s < litCodes; s++ {
		litF[s] = 1
	}
	litF[eob] = 1
	distF[0], distF[1] = 1, 1
	prev := -1
	chunkSpans(stride, h, func(off, n int) {
		p := template[off : off+n]
		tokens(p, prev, func(v byte) { litF[v]++ }, func(l int) { litF[lengthCode(l)]++; distF[0]++ })
		prev = int(p[n-1])
	})
	var hb huffBuilder
	hb.lengths(litF[:], maxBits, z.code.litL[:])
	// Every run is at distance 1: a one-bit code (and its unused twin,
	// for a complete code).
	z.code.distL[0], z.code.distL[1] = 1, 1
	z.code.build()

	var bw bitWriter
	prev = -1
	chunkSpans(stride, h, func(off, n int) {
		p := template[off : off+n]
		c := zchunk{off: int32(off), n: int32(n)}
		c.s1, c.s2 = adlerShare(p)
		for k := range 2 {
			pv := -1 // a first byte that no run continues
			if k == 1 {
				pv = int(p[0])
			}
			bw = bitWriter{out: bw.out[:0]}
			z.code.encode(&bw, p, pv)
			c.nbits[k] = int32(8*len(bw.out)) + int32(bw.nbits)
			bw.flush()
			c.at[k] = int32(len(z.bits))
			z.bits = append(z.bits, bw.out...)
		}
		z.chunks = append(z.chunks, c)
		prev = int(p[n-1])
	})
	// A row whose bytes are all the template's is copied whole: its
	// chunks' bits (each after the template's byte before it), the first
	// chunk's both ways.
	per := (stride + chunkBytes - 1) / chunkBytes
	for y := 0; y < h; y++ {
		cs := z.chunks[y*per : (y+1)*per]
		r := zchunk{off: int32(y * stride), n: int32(stride)}
		r.s1, r.s2 = adlerShare(template[y*stride : (y+1)*stride])
		for k := range 2 {
			bw = bitWriter{out: bw.out[:0]}
			for j, c := range cs {
				kc := k
				if j > 0 {
					kc = 0
					if template[c.off-1] == template[c.off] {
						kc = 1
					}
				}
				bw.appendBits(z.bits[c.at[kc]:], int(c.nbits[kc]))
			}
			r.nbits[k] = int32(8*len(bw.out)) + int32(bw.nbits)
			bw.flush()
			r.at[k] = int32(len(z.bits))
			z.bits = append(z.bits, bw.out...)
		}
		z.rows = append(z.rows, r)
	}
	return z
}

// build makes the code's tables from its lengths.
func (c *zcode) build() {
	var litC [litCodes]uint16
	var distC [distCodes]uint16
	canonical(c.litL[:], litC[:])
	canonical(c.distL[:], distC[:])
	for b := range 256 {
		c.lit[b] = uint32(litC[b]) | uint32(c.litL[b])<<24
	}
	for l := minMatch; l <= maxMatch; l++ {
		lc := lengthCode(l)
		eb := lengthExtra[lc-257]
		v := uint32(litC[lc]) | uint32(l-int(lengthBase[lc-257]))<<c.litL[lc]
		n := c.litL[lc] + eb
		c.run[l] = v | uint32(distC[0])<<n
		c.runBits[l] = n + c.distL[0]
	}
	c.eobC, c.eobL = litC[eob], c.litL[eob]
}

// tokens splits p, after a byte prev (-1: none), into literals and runs
// at distance 1 (of at least minMatch bytes), as deflater.write does.
func tokens(p []byte, prev int, lit func(byte), run func(int)) {
	n := len(p)
	for i := 0; i < n; {
		pv := prev
		if i > 0 {
			pv = int(p[i-1])
		}
		if v := p[i]; int(v) == pv && i+minMatch <= n && p[i+1] == v && p[i+2] == v {
			l := runLen(p[i:min(n, i+maxMatch)], v)
			run(l)
			i += l
			continue
		}
		lit(p[i])
		i++
	}
}

// encode writes p, after a byte prev (-1: none), in the code: tokens,
// with the bits kept in locals.
func (c *zcode) encode(w *bitWriter, p []byte, prev int) {
	// At most 15 bits a literal, 21 a run (a length code, its extra bits
	// and the one-bit distance).
	w.reserve(2*len(p) + 16)
	out, o := w.out[:cap(w.out)], len(w.out)
	acc, nb := w.acc, uint64(w.nbits)
	n := len(p)
	for i := 0; i < n; {
		pv := prev
		if i > 0 {
			pv = int(p[i-1])
		}
		v := p[i]
		if int(v) == pv && i+minMatch <= n && p[i+1] == v && p[i+2] == v {
			l := runLen(p[i:min(n, i+maxMatch)], v)
			acc |= uint64(c.run[l]) << nb
			nb += uint64(c.runBits[l])
			i += l
		} else {
			k := c.lit[v]
			acc |= uint64(k&0xFFFF) << nb
			nb += uint64(k >> 24)
			i++
		}
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
	}
	w.out, w.acc, w.nbits = out[:o], acc, uint(nb)
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

// adlerCombine is the Adler-32 sum of a stream followed by a piece of n
// bytes whose share is s1, s2.
func adlerCombine(sum uint32, n int, s1, s2 uint32) uint32 {
	a, b := uint64(sum&0xFFFF), uint64(sum>>16)
	b = (b + uint64(n)*a + uint64(s2)) % adlerMod
	a = (a + uint64(s1)) % adlerMod
	return uint32(b<<16 | a)
}

// appendBits writes the first n bits of b (least significant first).
func (w *bitWriter) appendBits(b []byte, n int) {
	w.reserve(n/8 + 8)
	out, o := w.out[:cap(w.out)], len(w.out)
	acc, nb := w.acc, uint64(w.nbits)
	for ; n >= 32; n -= 32 {
		acc |= uint64(binary.LittleEndian.Uint32(b)) << nb
		b = b[4:]
		binary.LittleEndian.PutUint32(out[o:], uint32(acc))
		o += 4
		acc >>= 32
	}
	if n > 0 {
		var v uint64
		for i := 0; 8*i < n; i++ {
			v |= uint64(b[i]) << (8 * i)
		}
		acc |= (v & (1<<n - 1)) << nb
		nb += uint64(n)
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
	}
	w.out, w.acc, w.nbits = out[:o], acc, uint(nb)
}

// beginBase starts a zlib stream after dst of one block in z's code.
func (d *deflater) beginBase(dst []byte, z *zbase) {
	d.begin(dst)
	d.prev = -1
	d.bw.write(1, 1) // the final block
	d.bw.write(2, 2) // dynamic Huffman codes
	d.litL, d.distL = z.code.litL, z.code.distL
	d.writeTrees()
}

// writeBase compresses the rows y0 to y1 of a picture of z's board,
// which p holds (row y0 first): the chunks that are the template's from
// z, the others in z's code.
func (d *deflater) writeBase(p []byte, z *zbase, template []byte, y0, y1 int) {
	per := (z.stride + chunkBytes - 1) / chunkBytes
	base := y0 * z.stride
	for y := y0; y < y1; y++ {
		off := y * z.stride
		if bytes.Equal(p[off-base:off-base+z.stride], template[off:off+z.stride]) {
			d.copyKept(z, &z.rows[y], p[off-base])
			d.prev = int(p[off-base+z.stride-1])
			continue
		}
		for i := range per {
			c := &z.chunks[y*per+i]
			off, n := int(c.off), int(c.n)
			q := p[off-base : off-base+n]
			if bytes.Equal(q, template[off:off+n]) {
				d.copyKept(z, c, q[0])
			} else {
				z.code.encode(&d.bw, q, d.prev)
				d.sum = adlerUpdate(d.sum, q)
			}
			d.prev = int(q[n-1])
		}
	}
}

// copyKept writes a piece of the template kept in z, whose first byte is
// first, from its bits.
func (d *deflater) copyKept(z *zbase, c *zchunk, first byte) {
	k := 0
	if d.prev == int(first) {
		k = 1
	}
	d.bw.appendBits(z.bits[c.at[k]:], int(c.nbits[k]))
	d.sum = adlerCombine(d.sum, int(c.n), c.s1, c.s2)
}

// endBase ends the block and the stream begun by beginBase.
func (d *deflater) endBase(z *zbase) []byte {
	d.bw.write(uint64(z.code.eobC), uint(z.code.eobL))
	d.bw.flush()
	out := binary.BigEndian.AppendUint32(d.bw.out, d.sum)
	d.bw = bitWriter{}
	return out
}
