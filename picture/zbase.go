package picture

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A board's pictures are mostly its base: the template (made with the
// first picture's fill) with a few shapes recoloured and the units and
// orders over it. Compressing the template's bytes again for every
// picture was most of a picture's cost, so the base keeps the template
// compressed, in chunks of chunkBytes of a row, with one Huffman code
// made once for the board (from the template's statistics, every symbol
// given a code). A picture is then one dynamic-Huffman block in that
// code: a stretch of chunks whose bytes are the template's is its kept
// bits, copied at once; only the chunks that differ are compressed (runs,
// as deflate.go finds them, coded at once in the board's code). Runs stop
// at chunk ends, and
// the code is the template's rather than the picture's own: a picture
// comes out a little larger (a few per cent) for a small share of the
// work.

// chunkBytes is the length of a chunk (64 at most: see encode): a row
// (its filter byte and pixels) is cut in chunks of this many bytes, the
// last one shorter. Measured on the standard board: 64 costs less than
// 32 or 128 (fewer bytes compressed again than with 128, fewer chunks
// than with 32; with the template one bit string, 32 still cost 8 % more
// instructions a picture).
var chunkBytes = 64

// zbase is a base's template, compressed chunk by chunk in the board's
// code, as one bit string: each chunk after the template's byte before it,
// so that a stretch of chunks that are the template's, however long, is
// one copy of bits; and each chunk the other way, for a stretch whose
// first chunk follows another byte than the template's.
type zbase struct {
	code        zcode
	stride, per int // bytes a row, chunks a row
	template    []byte
	// bits holds the chunks, in order; bit at[i] is where chunk i begins
	// (len(at) is one more than the chunks). A chunk is coded after the
	// template's byte before it: "same" when that byte is its first byte
	// (a run may start at once; see tokens), else "other".
	bits []byte
	at   []uint32
	// alt holds each chunk the other way, from bit altAt[i].
	alt   []byte
	altAt []uint32
	// sum1[i] and sumJ[i] are Σ b and Σ j·b over the template's bytes j
	// before chunk i, mod 65521: a stretch's share of an Adler-32.
	sum1, sumJ []uint32
	// off[i] is where chunk i begins (off[len] the template's length).
	off []int32
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

// chunk returns the offset and length of chunk i.
func (z *zbase) chunk(i int) (off, n int) {
	return int(z.off[i]), int(z.off[i+1] - z.off[i])
}

// same reports whether chunk i (at off) is coded after its own first byte
// in bits.
func (z *zbase) same(i, off int) bool {
	return i > 0 && z.template[off-1] == z.template[off]
}

// newZbase compresses the template (h rows of stride bytes).
func newZbase(template []byte, stride, h int) *zbase {
	z := &zbase{stride: stride, per: (stride + chunkBytes - 1) / chunkBytes, template: template}
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

	var bw, alt bitWriter
	pos := func(w *bitWriter) uint32 { return uint32(8*len(w.out)) + uint32(w.nbits) }
	var a1, aj uint64
	i := 0
	chunkSpans(stride, h, func(off, n int) {
		p := template[off : off+n]
		z.at = append(z.at, pos(&bw))
		z.altAt = append(z.altAt, pos(&alt))
		z.sum1 = append(z.sum1, uint32(a1))
		z.sumJ = append(z.sumJ, uint32(aj))
		z.off = append(z.off, int32(off))
		same, other := &bw, &alt
		if !z.same(i, off) {
			same, other = other, same
		}
		z.code.encode(same, p, int(p[0]))
		z.code.encode(other, p, -1) // -1: a first byte no run continues
		for j, v := range p {
			a1 += uint64(v)
			aj += uint64(off+j) * uint64(v)
		}
		a1 %= adlerMod
		aj %= adlerMod
		i++
	})
	z.at = append(z.at, pos(&bw))
	z.altAt = append(z.altAt, pos(&alt))
	z.sum1 = append(z.sum1, uint32(a1))
	z.sumJ = append(z.sumJ, uint32(aj))
	z.off = append(z.off, int32(len(template)))
	// Eight bytes after the last bit, for copyBits' loads.
	bw.flush()
	alt.flush()
	z.bits = append(bw.out, make([]byte, 8)...)
	z.alt = append(alt.out, make([]byte, 8)...)
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

// encode writes p (at most 64 bytes), after a byte prev (-1: none), in
// the code: the tokens of tokens, found with bit masks of the bytes that
// repeat the one before them, and the bits kept in locals. It returns p's
// share of an Adler-32 (Σ p[i] and Σ (n-i)·p[i], not reduced).
func (c *zcode) encode(w *bitWriter, p []byte, prev int) (s1, s2 uint32) {
	n := len(p)
	eq, s1, s2 := repeats(p, prev)
	// A run starts where a byte and the two after it repeat the one
	// before: their bits are 0 past the end, so runs end with p.
	starts := eq & (eq >> 1) & (eq >> 2)
	// At most 15 bits a literal, 21 a run (a length code, its extra bits
	// and the one-bit distance).
	w.reserve(2*n + 16)
	out, o := w.out[:cap(w.out)], len(w.out)
	acc, nb := w.acc, uint64(w.nbits)
	for i := 0; i < n; {
		j := n
		if r := starts >> i << i; r != 0 {
			j = bits.TrailingZeros64(r)
		}
		// The literals before the run, two (at most 30 bits) a flush.
		for ; i+2 <= j; i += 2 {
			k1, k2 := c.lit[p[i]], c.lit[p[i+1]]
			acc |= uint64(k1&0xFFFF) << nb
			nb += uint64(k1 >> 24)
			acc |= uint64(k2&0xFFFF) << nb
			nb += uint64(k2 >> 24)
			if nb >= 32 {
				binary.LittleEndian.PutUint32(out[o:], uint32(acc))
				o += 4
				acc >>= 32
				nb -= 32
			}
		}
		if i < j { // the last literal; i goes past the run below
			k := c.lit[p[i]]
			acc |= uint64(k&0xFFFF) << nb
			nb += uint64(k >> 24)
			if nb >= 32 {
				binary.LittleEndian.PutUint32(out[o:], uint32(acc))
				o += 4
				acc >>= 32
				nb -= 32
			}
		}
		if j == n {
			break
		}
		// The run: as long as the bytes repeat.
		l := bits.TrailingZeros64(^(eq >> j))
		acc |= uint64(c.run[l]) << nb
		nb += uint64(c.runBits[l])
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
		i = j + l
	}
	w.out, w.acc, w.nbits = out[:o], acc, uint(nb)
	return s1, s2
}

// repeats returns the mask of the bytes of p (at most 64) that repeat the
// byte before them: bit i is set when p[i] == p[i-1], or for i = 0 when
// p[0] == prev; and p's share of an Adler-32, Σ p[i] and Σ (n-i)·p[i],
// not reduced (below 2²⁰ for 64 bytes).
func repeats(p []byte, prev int) (eq uint64, s1, s2 uint32) {
	const (
		low7  = 0x7F7F7F7F7F7F7F7F
		high  = 0x8080808080808080
		lanes = 0x00FF00FF00FF00FF
	)
	var a, b uint64
	before := uint64(prev) & 0xFF
	i := 0
	for ; i+8 <= len(p); i += 8 {
		v := binary.LittleEndian.Uint64(p[i:])
		x := v ^ (v<<8 | before) // 0 where a byte repeats the one before
		nz := ((x & low7) + low7 | x) & high
		// The eight bytes' bits (set: repeats) gathered into one byte.
		eq |= ((^nz & high) >> 7 * 0x0102040810204080 >> 56) << i
		before = v >> 56
		// As adlerUpdate: a grows by the bytes' sum, b by 8a and the
		// bytes weighted 8 to 1.
		e, o := v&lanes, (v>>8)&lanes
		b += 8*a + (e*0x0008000600040002)>>48 + (o*0x0007000500030001)>>48
		a += ((e + o) * 0x0001000100010001) >> 48
	}
	for ; i < len(p); i++ {
		if uint64(p[i]) == before {
			eq |= 1 << i
		}
		before = uint64(p[i])
		a += before
		b += a
	}
	if prev < 0 {
		eq &^= 1
	}
	return eq, uint32(a), uint32(b)
}

// adlerCombine is the Adler-32 sum of a stream followed by a piece of n
// bytes whose share is s1, s2.
func adlerCombine(sum uint32, n int, s1, s2 uint32) uint32 {
	a, b := uint64(sum&0xFFFF), uint64(sum>>16)
	b = (b + uint64(n)*a + uint64(s2)) % adlerMod
	a = (a + uint64(s1)) % adlerMod
	return uint32(b<<16 | a)
}

// copyBits writes n bits of src from bit from (least significant first);
// src has eight bytes after the last bit read.
func (w *bitWriter) copyBits(src []byte, from, n int) {
	w.reserve(n/8 + 16)
	out, o := w.out[:cap(w.out)], len(w.out)
	acc, nb := w.acc, uint64(w.nbits)
	if n >= 64 {
		// Whole bytes out, then 56 bits a step: fewer than 8 bits wait in
		// acc, so 56 more fit, and 7 bytes go out.
		for ; nb >= 8; nb -= 8 {
			out[o] = byte(acc)
			o++
			acc >>= 8
		}
		for ; n >= 56; n, from = n-56, from+56 {
			v := binary.LittleEndian.Uint64(src[from>>3:]) >> (from & 7)
			acc |= (v & (1<<56 - 1)) << nb
			binary.LittleEndian.PutUint64(out[o:], acc)
			o += 7
			acc >>= 56
		}
	}
	// nb < 32 between steps: 32 bits in, 32 bits out.
	for ; n >= 32; n, from = n-32, from+32 {
		v := binary.LittleEndian.Uint64(src[from>>3:]) >> (from & 7)
		acc |= (v & 0xFFFFFFFF) << nb
		binary.LittleEndian.PutUint32(out[o:], uint32(acc))
		o += 4
		acc >>= 32
	}
	if n > 0 {
		v := binary.LittleEndian.Uint64(src[from>>3:]) >> (from & 7)
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
	d.kept = 0
}

// writeBase compresses a picture of z's board, which p holds: the
// chunks that are the template's as bits of z, the others in z's code.
// dirty says which chunks may differ from the template; the others are
// not read.
func (d *deflater) writeBase(p []byte, z *zbase, dirty []bool) {
	for i, dv := range dirty {
		if !dv {
			continue
		}
		off, n := z.chunk(i)
		q := p[off : off+n]
		if bytes.Equal(q, z.template[off:off+n]) {
			continue
		}
		d.keepTo(z, i)
		s1, s2 := z.code.encode(&d.bw, q, d.prev)
		d.sum = adlerCombine(d.sum, n, s1, s2)
		d.prev = int(q[n-1])
		d.kept = i + 1
	}
}

// keepTo writes the chunks from d.kept to k (not included), which are
// the template's.
func (d *deflater) keepTo(z *zbase, k int) {
	i := d.kept
	if i >= k {
		return
	}
	off, end := int(z.off[i]), int(z.off[k])
	// The first chunk the other way when the byte before it is not the
	// template's kind of byte.
	if (d.prev == int(z.template[off])) != z.same(i, off) {
		d.bw.copyBits(z.alt, int(z.altAt[i]), int(z.altAt[i+1]-z.altAt[i]))
		i++
	}
	d.bw.copyBits(z.bits, int(z.at[i]), int(z.at[k]-z.at[i]))
	// The stretch's share of the Adler-32: Σ b, and Σ (end-j)·b.
	s1 := (z.sum1[k] + adlerMod - z.sum1[d.kept]) % adlerMod
	sj := (z.sumJ[k] + adlerMod - z.sumJ[d.kept]) % adlerMod
	s2 := uint32((uint64(end%adlerMod)*uint64(s1) + adlerMod - uint64(sj)) % adlerMod)
	d.sum = adlerCombine(d.sum, end-off, s1, s2)
	d.prev = int(z.template[end-1])
	d.kept = k
}

// endBase ends the block and the stream begun by beginBase.
func (d *deflater) endBase(z *zbase) []byte {
	d.keepTo(z, len(z.at)-1)
	d.bw.write(uint64(z.code.eobC), uint(z.code.eobL))
	d.bw.flush()
	out := binary.BigEndian.AppendUint32(d.bw.out, d.sum)
	d.bw = bitWriter{}
	return out
}
