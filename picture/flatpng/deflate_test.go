package flatpng

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

// adlerUpdate agrees with hash/adler32, at every length and in pieces, on
// bytes that make its sums largest.
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

// A stream written in pieces (as Encode writes an image's rows) decodes
// to the whole, and the same pieces give the same stream.
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
