package picture

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"testing"
)

// inflate decodes a zlib stream with the standard library.
func inflate(t *testing.T, z []byte) []byte {
	t.Helper()
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	return got
}

// The compressor's streams decode, with compress/zlib, to what went in:
// empty and one-byte inputs, random bytes, runs, repeated rows, skewed
// statistics that make deep Huffman trees, and inputs of several blocks.
func TestZlibRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rows := func(w, h int, f func(x, y int) byte) ([]byte, int) {
		var b []byte
		for y := 0; y < h; y++ {
			b = append(b, 0)
			for x := 0; x < w; x++ {
				b = append(b, f(x, y))
			}
		}
		return b, w + 1
	}
	type input struct {
		name   string
		data   []byte
		stride int
	}
	var inputs []input
	add := func(name string, d []byte, stride int) { inputs = append(inputs, input{name, d, stride}) }
	add("empty", nil, 0)
	add("one byte", []byte{7}, 0)
	add("one run", bytes.Repeat([]byte{3}, 100000), 0)
	random := make([]byte, 200000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	add("random", random, 0)
	// Fibonacci-like frequencies: a Huffman tree far deeper than 15.
	var skew []byte
	a, b := 1, 1
	for s := 0; s < 30 && len(skew) < 3<<20; s++ {
		for k := 0; k < a; k++ {
			skew = append(skew, byte(s*7))
		}
		a, b = b, a+b
	}
	r.Shuffle(len(skew), func(i, j int) { skew[i], skew[j] = skew[j], skew[i] })
	add("skewed", skew, 0)
	d, s := rows(500, 300, func(x, y int) byte {
		switch {
		case (x-250)*(x-250)+(y-150)*(y-150) < 90*90:
			return 4
		case x+y/2 < 200:
			return 9
		case x%37 == y%41:
			return byte(r.IntN(256))
		}
		return 1
	})
	add("rows", d, s)
	d, s = rows(1200, 40, func(x, y int) byte { return byte((x + y) / 3) })
	add("slanted", d, s)
	d, s = rows(40000, 3, func(x, y int) byte { return byte(x / 100) })
	add("rows beyond the window", d, s)
	var z deflater
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			out := z.zlib(nil, in.data)
			if got := inflate(t, out); !bytes.Equal(got, in.data) {
				t.Fatalf("round trip of %d bytes gave %d bytes, not the same", len(in.data), len(got))
			}
		})
	}
}

// Code lengths are within the limit and make a complete prefix code.
func TestHuffmanLengths(t *testing.T) {
	var h huffBuilder
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 200; round++ {
		n := 2 + r.IntN(285)
		freq := make([]int32, n)
		for i := range freq {
			switch r.IntN(4) {
			case 0:
			case 1:
				freq[i] = int32(1 + r.IntN(3))
			default:
				freq[i] = int32(1) << r.IntN(24)
			}
		}
		freq[0], freq[1] = 1, 1<<24
		limit := maxBits
		if round%3 == 0 {
			limit = clBits
			freq = freq[:min(n, 19)]
		}
		lens := make([]uint8, len(freq))
		h.lengths(freq, limit, lens)
		kraft := 0
		for i, l := range lens {
			if (l == 0) != (freq[i] == 0) {
				t.Fatalf("round %d: symbol %d of frequency %d has length %d", round, i, freq[i], l)
			}
			if int(l) > limit {
				t.Fatalf("round %d: length %d over the limit %d", round, l, limit)
			}
			if l > 0 {
				kraft += 1 << (limit - int(l))
			}
		}
		if kraft != 1<<limit {
			t.Fatalf("round %d: Kraft sum %d/%d, want a complete code", round, kraft, 1<<limit)
		}
	}
}

// The eight-bytes-a-step Adler-32 agrees with hash/adler32, at every
// length and in pieces, on bytes that make its sums largest.
func TestAdler32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 40000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	ones := bytes.Repeat([]byte{0xFF}, 40000)
	for _, d := range [][]byte{data, ones} {
		for _, n := range []int{0, 1, 7, 8, 9, 63, 5551, 5552, 5553, 11104, 11111, 40000} {
			if got, want := adlerUpdate(1, d[:n]), adler32.Checksum(d[:n]); got != want {
				t.Errorf("%d bytes: %08x, want %08x", n, got, want)
			}
			half := n / 3
			if got, want := adlerUpdate(adlerUpdate(1, d[:half]), d[half:n]), adler32.Checksum(d[:n]); got != want {
				t.Errorf("%d bytes in two pieces: %08x, want %08x", n, got, want)
			}
		}
	}
}

// A stream written in pieces (as WritePNG writes a picture's bands)
// decodes to the whole, and the same pieces give the same stream.
func TestZlibInPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const w, h = 301, 90
	stride := w + 1
	data := make([]byte, stride*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := byte(x / 40)
			if (x+y)%17 == 0 {
				v = byte(r.IntN(9))
			}
			data[y*stride+1+x] = v
		}
	}
	var z deflater
	pieces := func(rows int) []byte {
		z.begin(nil)
		for y0 := 0; y0 < h; y0 += rows {
			y1 := min(h, y0+rows)
			piece := append([]byte(nil), data[y0*stride:y1*stride]...)
			z.write(piece)
			clear(piece) // not kept
		}
		return z.end()
	}
	for _, rows := range []int{1, 7, h} {
		out := pieces(rows)
		if got := inflate(t, out); !bytes.Equal(got, data) {
			t.Fatalf("in pieces of %d rows: the stream decodes to other bytes", rows)
		}
		if again := pieces(rows); !bytes.Equal(again, out) {
			t.Fatalf("in pieces of %d rows: two streams differ", rows)
		}
	}
}

// encodeByTokens is the board code's encoder written plainly, token by
// token as tokens finds them: what zcode.encode must write.
func encodeByTokens(c *zcode, w *bitWriter, p []byte, prev int) {
	tokens(p, prev, func(v byte) {
		k := c.lit[v]
		w.write(uint64(k&0xFFFF), uint(k>>24))
	}, func(l int) { w.write(uint64(c.run[l]), uint(c.runBits[l])) })
}

// The board code's encoder, which finds runs with bit masks, writes the
// bits that coding token by token writes, and sums the chunk's share of
// an Adler-32: for chunks of every length to
// 64, flat, striped, random and in runs of every length, after a byte
// that continues them or not.
func TestZcodeEncodeMatchesTokens(t *testing.T) {
	var z zcode
	for s := range z.litL {
		z.litL[s] = 9
	}
	for s := 0; s < 30; s++ { // any code will do: 30 symbols of 8 bits, the others 9
		z.litL[s] = 8
	}
	z.distL[0], z.distL[1] = 1, 1
	z.build()
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 4000; trial++ {
		n := 1 + r.IntN(64)
		p := make([]byte, n)
		switch trial % 4 {
		case 0: // runs of random lengths of a few values
			for i := 0; i < n; {
				v, l := byte(r.IntN(3)), 1+r.IntN(9)
				for ; l > 0 && i < n; l, i = l-1, i+1 {
					p[i] = v
				}
			}
		case 1:
			for i := range p {
				p[i] = byte(r.IntN(256))
			}
		case 2:
			for i := range p {
				p[i] = byte(i / (1 + trial%5) % 2 * 255)
			}
		case 3:
			for i := range p {
				p[i] = 7
			}
		}
		prev := -1
		if k := r.IntN(3); k == 1 {
			prev = int(p[0])
		} else if k == 2 {
			prev = r.IntN(256)
		}
		var a, b bitWriter
		// Both start at a random bit, as chunks do in a stream.
		lead := uint(r.IntN(31))
		a.write(0, lead)
		b.write(0, lead)
		s1, s2 := z.encode(&a, p, prev)
		if w1, w2 := adlerShare(p); s1%adlerMod != w1 || s2%adlerMod != w2 {
			t.Fatalf("chunk %v: encode's Adler-32 share %d, %d, want %d, %d", p, s1, s2, w1, w2)
		}
		encodeByTokens(&z, &b, p, prev)
		a.flush()
		b.flush()
		if !bytes.Equal(a.out, b.out) {
			t.Fatalf("chunk %v after %d: encode wrote %x, tokens %x", p, prev, a.out, b.out)
		}
	}
}

// copyBits copies any stretch of bits, from any bit, after any number of
// bits already written, as writing them one by one does.
func TestCopyBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(r.IntN(256))
	}
	src = append(src, make([]byte, 8)...)
	for trial := 0; trial < 3000; trial++ {
		lead, from := uint(r.IntN(32)), r.IntN(200)
		n := r.IntN(8*64 - from + 1)
		var a, b bitWriter
		a.write(uint64(r.IntN(1<<20)), 20)
		b = bitWriter{out: append([]byte(nil), a.out...), acc: a.acc, nbits: a.nbits}
		a.write(0, lead)
		b.write(0, lead)
		a.copyBits(src, from, n)
		for k := from; k < from+n; k++ {
			b.write(uint64(src[k>>3]>>(k&7)&1), 1)
		}
		a.flush()
		b.flush()
		if !bytes.Equal(a.out, b.out) {
			t.Fatalf("%d bits from bit %d after %d: copyBits wrote %x, bit by bit %x", n, from, 20+lead, a.out, b.out)
		}
	}
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
