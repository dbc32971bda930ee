// Package flatpng writes paletted PNG files of flat colour (boards, maps,
// diagrams) several times faster than image/png, for the same size.
//
// # Why
//
// A deadline burst mails the picture of thousands of games at once, and
// each picture of a board is about 1.4 million pixels. image/png at
// BestSpeed hands them to compress/flate, whose fast matcher hashes every
// position and looks for matches anywhere in the window; on these images
// that matching and the per-block Huffman work were over half of a
// picture's cost, which put the burst over its time budget
// (BenchmarkEncode compares the two on a board). A board is long runs of
// one palette index broken by antialiased edges, text and units, and for
// such images runs alone compress as well as general matching does: a
// match at any other distance (the row above) costs in distance codes
// about what the few literals it saves do.
//
// # What
//
// Encode writes an *image.Paletted as an 8-bit paletted PNG (colour type
// 3, its palette in PLTE, a tRNS chunk when an entry is not opaque),
// every row with filter type none, in one IDAT chunk. The zlib stream
// (RFC 1950, RFC 1951) holds only literals and matches at distance 1 (a
// run of the byte before), coded with dynamic Huffman codes made for each
// block of 32,768 tokens (length-limited, built with the package's own
// code-length builder); a run's share of the Adler-32 is summed in closed
// form. The output is a valid PNG any decoder reads; image/png reads it
// back to the same pixels (tests), and FuzzEncode holds that for any
// image.
//
// The package does nothing else: no other colour types, no filters, no
// interlacing, no ancillary chunks. Anything that is not a burst of
// flat-colour pictures should use image/png.
package flatpng

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"sync"
)

// Encode writes m as a paletted PNG. m must have at most 256 colours.
func Encode(w io.Writer, m *image.Paletted) error {
	wd, ht := m.Rect.Dx(), m.Rect.Dy()
	if wd <= 0 || ht <= 0 || len(m.Palette) == 0 || len(m.Palette) > 256 {
		return errors.New("flatpng: an empty image, or a palette of no or more than 256 colours")
	}
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)

	b := append(e.out[:0], "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(wd))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(ht))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, paletted; compression, filter and interlace 0
	b = chunk(b, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(m.Palette))
	trns := make([]byte, 0, len(m.Palette))
	opaque := true
	for _, c := range m.Palette {
		// A PNG's palette is not premultiplied.
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte = append(plte, n.R, n.G, n.B)
		trns = append(trns, n.A)
		opaque = opaque && n.A == 255
	}
	b = chunk(b, "PLTE", plte)
	if !opaque {
		b = chunk(b, "tRNS", trns)
	}
	// IDAT: its length is known once the rows are compressed after it.
	start := len(b)
	b = append(b, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	e.z.begin(b)
	filter := []byte{0}
	for y := 0; y < ht; y++ {
		o := m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y+y)
		e.z.write(filter)
		e.z.write(m.Pix[o : o+wd])
	}
	b = e.z.end()
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-8))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start+4:]))
	b = chunk(b, "IEND", nil)
	e.out = b
	_, err := w.Write(b)
	return err
}

// encoder is what one Encode reuses: the compressor and the output.
type encoder struct {
	z   deflater
	out []byte
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// chunk appends a PNG chunk: length, type, data, CRC of type and data.
func chunk(dst []byte, kind string, data []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(data)))
	start := len(dst)
	dst = append(dst, kind...)
	dst = append(dst, data...)
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
}
