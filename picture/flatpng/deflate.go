package flatpng

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// This file is the zlib (RFC 1950) / deflate (RFC 1951) compressor the
// package doc describes: runs of a repeated byte (matches at distance 1)
// and literals, coded with dynamic Huffman codes, a block per blockTokens
// of them.

const (
	minMatch    = 3
	maxMatch    = 258
	blockTokens = 1 << 15
	eob         = 256 // the end-of-block symbol
	litCodes    = 286
	distCodes   = 30
	maxBits     = 15 // longest literal/length or distance code
	clBits      = 7  // longest code-length code
)

// deflater compresses one stream, written to it in pieces; its buffers
// are reused between streams.
type deflater struct {
	bw   bitWriter
	prev int // the last byte written, or -1
	sum  uint32
	// The block being gathered: its seqs, their literals in order, and
	// the literals written since the last seq (pending, in lits too).
	seqs    []seq
	lits    []byte
	pending int
	ntok    int // literals and matches in seqs
	nmatch  int // matches in seqs
	litF    [litCodes]int32
	distF   [distCodes]int32
	huff    huffBuilder
	litL    [litCodes]uint8
	distL   [distCodes]uint8
	litC    [litCodes]uint16
	distC   [distCodes]uint16
	// lenCode and lenBits are the code and extra bits of each length
	// (less minMatch) in this block, as one value.
	lenCode [256]uint32
	lenBits [256]uint8
}

// seq is nlit literals (the next ones in lits) and the run after them
// (length 0: none).
type seq struct {
	nlit   int32
	length uint16
}

// zlib appends to dst the zlib stream of data and returns it.
func (d *deflater) zlib(dst, data []byte) []byte {
	d.begin(dst)
	d.write(data)
	return d.end()
}

// begin starts a zlib stream after dst.
func (d *deflater) begin(dst []byte) {
	// CMF: deflate, 32 KB window; FLG: fastest level, check bits.
	d.bw = bitWriter{out: append(dst, 0x78, 0x01)}
	d.prev, d.sum = -1, 1
	d.seqs, d.lits, d.pending = d.seqs[:0], d.lits[:0], 0
	d.ntok, d.nmatch = 0, 0
	clear(d.litF[:])
	clear(d.distF[:])
}

// end writes the last block and the checksum and returns the stream.
func (d *deflater) end() []byte {
	if d.pending > 0 {
		d.seqs = append(d.seqs, seq{nlit: int32(d.pending)})
		d.ntok += d.pending
		d.pending = 0
	}
	d.block(true)
	d.bw.flush()
	out := binary.BigEndian.AppendUint32(d.bw.out, d.sum)
	d.bw = bitWriter{}
	return out
}

// literals adds p to the pending literals.
func (d *deflater) literals(p []byte) {
	if len(p) == 0 {
		return
	}
	d.lits = append(d.lits, p...)
	d.pending += len(p)
	if len(p) > 256 {
		d.sum = adlerUpdate(d.sum, p)
		return
	}
	// A short stretch is summed here and reduced once: a stays below
	// 65521 + 256·255 and b below 65521 + 256·130801, both in 32 bits.
	a, b := d.sum&0xFFFF, d.sum>>16
	for _, c := range p {
		a += uint32(c)
		b += a
	}
	d.sum = (b%adlerMod)<<16 | a%adlerMod
}

// write compresses the next bytes of the stream: it finds the runs of p (a
// byte repeated: a match at distance 1; a run ends with p), writing a
// block each blockTokens literals and runs, and keeps the Adler-32 of the
// stream: literals summed, each run's share in closed form. p is not kept.
func (d *deflater) write(p []byte) {
	n := len(p)
	if n == 0 {
		return
	}
	i, lit := 0, 0
	// The first byte's predecessor is the last byte written before.
	if !(d.prev >= 0 && n >= 3 && int(p[0]) == d.prev && p[1] == p[0] && p[2] == p[0]) {
		d.litF[p[0]]++
		i = 1
	}
	for i < n {
		// A run goes on where a byte repeats the one before it thrice.
		if i > 0 && (p[i] != p[i-1] || i+3 > n || p[i+1] != p[i] || p[i+2] != p[i]) {
			d.litF[p[i]]++
			i++
			continue
		}
		v := p[i]
		l := runLen(p[i:min(n, i+maxMatch)], v)
		d.literals(p[lit:i])
		// The run's l bytes of value v: a grows by l·v, b by l·a and
		// v·l(l+1)/2 (below 2³² before the reduction).
		a, b := d.sum&0xFFFF, d.sum>>16
		ul, uv := uint32(l), uint32(v)
		b = (b + ul*a + uv*ul*(ul+1)/2) % adlerMod
		a = (a + ul*uv) % adlerMod
		d.sum = b<<16 | a
		d.seqs = append(d.seqs, seq{nlit: int32(d.pending), length: uint16(l)})
		d.ntok += d.pending + 1
		d.pending = 0
		d.nmatch++
		d.litF[lengthCode(l)]++
		i += l
		lit = i
		if d.ntok >= blockTokens {
			d.block(false)
		}
	}
	d.literals(p[lit:])
	d.prev = int(p[n-1])
}

// runLen is how many bytes p begins with that are v.
func runLen(p []byte, v byte) int {
	vv := uint64(v) * 0x0101010101010101
	n := 0
	for len(p) >= 8 {
		if x := binary.LittleEndian.Uint64(p) ^ vv; x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		p, n = p[8:], n+8
	}
	for _, c := range p {
		if c != v {
			return n
		}
		n++
	}
	return n
}

// block writes the seqs gathered so far as one dynamic-Huffman block.
func (d *deflater) block(final bool) {
	d.litF[eob]++
	d.distF[0] = int32(d.nmatch) // every match is at distance 1
	// A code needs two symbols to be complete (decoders such as Go's want
	// complete codes); unused ones cost nothing but a length.
	for k := 0; k < 2; k++ {
		if d.distF[k] == 0 {
			d.distF[k] = 1
		}
	}
	if d.litF[0] == 0 {
		d.litF[0] = 1
	}
	d.huff.lengths(d.litF[:], maxBits, d.litL[:])
	d.huff.lengths(d.distF[:], maxBits, d.distL[:])
	canonical(d.litL[:], d.litC[:])
	canonical(d.distL[:], d.distC[:])

	bw := &d.bw
	if final {
		bw.write(1, 1)
	} else {
		bw.write(0, 1)
	}
	bw.write(2, 2) // dynamic Huffman codes
	d.writeTrees()
	for l := minMatch; l <= maxMatch; l++ {
		lc := lengthCode(l)
		eb := uint(lengthExtra[lc-257])
		d.lenCode[l-minMatch] = uint32(d.litC[lc]) | uint32(l-int(lengthBase[lc-257]))<<d.litL[lc]
		d.lenBits[l-minMatch] = d.litL[lc] + uint8(eb)
	}
	// Literal codes with their lengths in one table, for one load each.
	var litCode [256]uint32
	for b := range litCode {
		litCode[b] = uint32(d.litC[b]) | uint32(d.litL[b])<<24
	}
	// Every match is a run: distance 1, code 0, no extra bits.
	distV, distN := uint64(d.distC[0]), uint64(d.distL[0])
	// The bits go through locals; at most 8 bytes a token.
	bw.reserve(d.ntok*8 + 16)
	out, o := bw.out[:cap(bw.out)], len(bw.out)
	acc, nb := bw.acc, uint64(bw.nbits)
	lits := d.lits
	for _, sq := range d.seqs {
		run := lits[:sq.nlit]
		lits = lits[sq.nlit:]
		// Two literals (at most 30 bits) between flushes.
		for len(run) >= 2 {
			c1, c2 := litCode[run[0]], litCode[run[1]]
			run = run[2:]
			acc |= uint64(c1&0xFFFF) << nb
			nb += uint64(c1 >> 24)
			acc |= uint64(c2&0xFFFF) << nb
			nb += uint64(c2 >> 24)
			if nb >= 32 {
				binary.LittleEndian.PutUint32(out[o:], uint32(acc))
				o += 4
				acc >>= 32
				nb -= 32
			}
		}
		if len(run) == 1 {
			c := litCode[run[0]]
			acc |= uint64(c&0xFFFF) << nb
			nb += uint64(c >> 24)
			if nb >= 32 {
				binary.LittleEndian.PutUint32(out[o:], uint32(acc))
				o += 4
				acc >>= 32
				nb -= 32
			}
		}
		if sq.length == 0 {
			continue
		}
		lk := sq.length - minMatch
		acc |= uint64(d.lenCode[lk]) << nb
		nb += uint64(d.lenBits[lk])
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
		acc |= distV << nb
		nb += distN
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
	}
	bw.out, bw.acc, bw.nbits = out[:o], acc, uint(nb)
	bw.write(uint64(d.litC[eob]), uint(d.litL[eob]))
	// What is left in lits is the pending literals (none: a block is
	// written just after a seq).
	d.lits = append(d.lits[:0], lits...)
	d.seqs, d.ntok, d.nmatch = d.seqs[:0], 0, 0
	clear(d.litF[:])
	clear(d.distF[:])
}

// clOrder is the order code-length code lengths are sent in.
var clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// writeTrees writes the block header's code lengths, run-length coded.
func (d *deflater) writeTrees() {
	nlit := litCodes
	for nlit > 257 && d.litL[nlit-1] == 0 {
		nlit--
	}
	ndist := distCodes
	for ndist > 1 && d.distL[ndist-1] == 0 {
		ndist--
	}
	var all [litCodes + distCodes]uint8
	lens := append(append(all[:0], d.litL[:nlit]...), d.distL[:ndist]...)
	// The run-length code: (symbol, extra bits value) pairs.
	var syms [litCodes + distCodes][2]uint8
	ns := 0
	var clF [19]int32
	for i := 0; i < len(lens); {
		v := lens[i]
		j := i + 1
		for j < len(lens) && lens[j] == v {
			j++
		}
		run := j - i
		i = j
		if v == 0 {
			for run >= 11 {
				k := min(run, 138)
				syms[ns] = [2]uint8{18, uint8(k - 11)}
				ns, run = ns+1, run-k
			}
			if run >= 3 {
				syms[ns] = [2]uint8{17, uint8(run - 3)}
				ns, run = ns+1, 0
			}
		} else {
			syms[ns] = [2]uint8{v, 0}
			ns, run = ns+1, run-1
			for run >= 3 {
				k := min(run, 6)
				syms[ns] = [2]uint8{16, uint8(k - 3)}
				ns, run = ns+1, run-k
			}
		}
		for ; run > 0; run-- {
			syms[ns] = [2]uint8{v, 0}
			ns++
		}
	}
	for _, s := range syms[:ns] {
		clF[s[0]]++
	}
	var clL [19]uint8
	var clC [19]uint16
	if n := countNonZero(clF[:]); n < 2 {
		// Two symbols at least, for a complete code.
		for k := 0; k < 19 && countNonZero(clF[:]) < 2; k++ {
			if clF[k] == 0 {
				clF[k] = 1
			}
		}
	}
	d.huff.lengths(clF[:], clBits, clL[:])
	canonical(clL[:], clC[:])
	nclen := 19
	for nclen > 4 && clL[clOrder[nclen-1]] == 0 {
		nclen--
	}
	bw := &d.bw
	bw.write(uint64(nlit-257), 5)
	bw.write(uint64(ndist-1), 5)
	bw.write(uint64(nclen-4), 4)
	for _, s := range clOrder[:nclen] {
		bw.write(uint64(clL[s]), 3)
	}
	for _, s := range syms[:ns] {
		bw.write(uint64(clC[s[0]]), uint(clL[s[0]]))
		switch s[0] {
		case 16:
			bw.write(uint64(s[1]), 2)
		case 17:
			bw.write(uint64(s[1]), 3)
		case 18:
			bw.write(uint64(s[1]), 7)
		}
	}
}

func countNonZero(f []int32) int {
	n := 0
	for _, v := range f {
		if v != 0 {
			n++
		}
	}
	return n
}

// The length codes of RFC 1951, section 3.2.5 (a run's distance, 1, is
// distance code 0, without extra bits).
var (
	lengthBase  [29]uint16
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	// lengthCodes maps length-3 to its code.
	lengthCodes [256]uint16
)

func init() {
	b := uint16(3)
	for c := range lengthBase {
		lengthBase[c] = b
		b += 1 << lengthExtra[c]
	}
	lengthBase[28] = 258
	for c := 0; c < 28; c++ {
		for l := lengthBase[c]; l < lengthBase[c]+1<<lengthExtra[c] && l < 258; l++ {
			lengthCodes[l-3] = uint16(257 + c)
		}
	}
	lengthCodes[255] = 285
}

func lengthCode(l int) int { return int(lengthCodes[l-minMatch]) }

// canonical assigns the canonical codes of lengths (RFC 1951, 3.2.2), bit
// reversed for writing least significant bit first.
func canonical(lengths []uint8, codes []uint16) {
	var count [maxBits + 1]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [maxBits + 1]uint16
	code := uint16(0)
	for b := 1; b <= maxBits; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for i, l := range lengths {
		if l == 0 {
			codes[i] = 0
			continue
		}
		codes[i] = bits.Reverse16(next[l]) >> (16 - l)
		next[l]++
	}
}

// huffBuilder computes length-limited Huffman code lengths; its buffers
// are reused.
type huffBuilder struct {
	leaves []huffNode
	nodes  []huffNode
}

type huffNode struct {
	w      int64
	sym    int32 // leaf symbol, or -1
	parent int32
}

// lengths sets lens[s] to the code length of symbol s for the frequencies
// freq (0 for unused symbols), no code longer than limit, and the code
// complete (a Kraft sum of exactly 1) when two or more symbols are used.
func (h *huffBuilder) lengths(freq []int32, limit int, lens []uint8) {
	clear(lens)
	h.leaves = h.leaves[:0]
	for s, f := range freq {
		if f > 0 {
			h.leaves = append(h.leaves, huffNode{w: int64(f), sym: int32(s)})
		}
	}
	switch len(h.leaves) {
	case 0:
		return
	case 1:
		lens[h.leaves[0].sym] = 1
		return
	}
	slices.SortFunc(h.leaves, func(a, b huffNode) int {
		if a.w != b.w {
			if a.w < b.w {
				return -1
			}
			return 1
		}
		return int(a.sym - b.sym)
	})
	// Two queues: leaves in order, and internal nodes as they are made
	// (also in order of weight). nodes holds every node: leaves first.
	n := len(h.leaves)
	h.nodes = append(h.nodes[:0], h.leaves...)
	for i := range h.nodes {
		h.nodes[i].parent = -1
	}
	li, ii := 0, n
	pick := func() int {
		if li < n && (ii >= len(h.nodes) || h.nodes[li].w <= h.nodes[ii].w) {
			li++
			return li - 1
		}
		ii++
		return ii - 1
	}
	for k := 0; k < n-1; k++ {
		a := pick()
		b := pick()
		h.nodes = append(h.nodes, huffNode{w: h.nodes[a].w + h.nodes[b].w, sym: -1, parent: -1})
		p := int32(len(h.nodes) - 1)
		h.nodes[a].parent, h.nodes[b].parent = p, p
	}
	// Depths: parents come after children, so walk from the root down.
	depth := make([]int, len(h.nodes))
	for i := len(h.nodes) - 2; i >= 0; i-- {
		depth[i] = depth[h.nodes[i].parent] + 1
	}
	over := false
	for i := 0; i < n; i++ {
		dl := depth[i]
		if dl > limit {
			dl, over = limit, true
		}
		lens[h.nodes[i].sym] = uint8(dl)
	}
	if !over {
		return
	}
	// Too deep: clamp, then restore the Kraft sum, in units of 2^-limit.
	// Lengthen the deepest codes not at the limit until the sum fits,
	// then shorten the longest codes whose gain still fits until it is 1.
	// nodes[:n] are the leaves in increasing weight, so lengthening the
	// lightest first costs least.
	kraft := 0
	for i := 0; i < n; i++ {
		kraft += 1 << (limit - int(lens[h.nodes[i].sym]))
	}
	full := 1 << limit
	for kraft > full {
		bestI, bestL := -1, 0
		for i := 0; i < n; i++ {
			if l := int(lens[h.nodes[i].sym]); l < limit && l > bestL {
				bestI, bestL = i, l
			}
		}
		lens[h.nodes[bestI].sym]++
		kraft -= 1 << (limit - bestL - 1)
	}
	for kraft < full {
		// The heaviest symbol whose shortening fits the deficit.
		for i := n - 1; i >= 0; i-- {
			l := int(lens[h.nodes[i].sym])
			if l > 1 && kraft+(1<<(limit-l)) <= full {
				lens[h.nodes[i].sym]--
				kraft += 1 << (limit - l)
				break
			}
		}
	}
}

// bitWriter writes bits least significant first.
type bitWriter struct {
	out   []byte
	acc   uint64
	nbits uint
}

// write writes the n low bits of v (n ≤ 32).
func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
	if w.nbits >= 32 {
		if len(w.out)+8 > cap(w.out) {
			w.reserve(1 << 12)
		}
		o := len(w.out)
		w.out = w.out[:o+4]
		binary.LittleEndian.PutUint32(w.out[o:], uint32(w.acc))
		w.acc >>= 32
		w.nbits -= 32
	}
}

// reserve makes room for n more bytes.
func (w *bitWriter) reserve(n int) {
	if len(w.out)+n > cap(w.out) {
		w.out = slices.Grow(w.out, n)
	}
}

// flush writes the bits left, padded to a byte.
func (w *bitWriter) flush() {
	for w.nbits > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nbits = w.nbits - min(w.nbits, 8)
	}
	w.acc = 0
}

const adlerMod = 65521

// adlerUpdate updates the Adler-32 checksum sum (RFC 1950; 1 for no data
// yet) with p.
func adlerUpdate(sum uint32, p []byte) uint32 {
	// At most nmax bytes between reductions keep b in 32 bits (RFC 1950's
	// sample code).
	const nmax = 5552
	a, b := sum&0xFFFF, sum>>16
	for len(p) > 0 {
		q := p[:min(len(p), nmax)]
		p = p[len(q):]
		for _, c := range q {
			a += uint32(c)
			b += a
		}
		a %= adlerMod
		b %= adlerMod
	}
	return b<<16 | a
}
