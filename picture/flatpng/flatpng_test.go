package flatpng

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"pbemd/internal/proccpu"
)

// roundTrip encodes m and decodes it with image/png: the same palette and
// the same index at every pixel.
func roundTrip(t testing.TB, m *image.Paletted) {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("image/png cannot read it: %v", err)
	}
	got, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("decodes to %T, want *image.Paletted", img)
	}
	if got.Rect.Size() != m.Rect.Size() {
		t.Fatalf("decodes to %v, want the size of %v", got.Rect, m.Rect)
	}
	if len(got.Palette) != len(m.Palette) {
		t.Fatalf("palette of %d colours, want %d", len(got.Palette), len(m.Palette))
	}
	for i := range m.Palette {
		if color.NRGBAModel.Convert(got.Palette[i]) != color.NRGBAModel.Convert(m.Palette[i]) {
			t.Fatalf("palette entry %d is %v, want %v", i, got.Palette[i], m.Palette[i])
		}
	}
	for y := 0; y < m.Rect.Dy(); y++ {
		for x := 0; x < m.Rect.Dx(); x++ {
			if g, w := got.ColorIndexAt(x, y), m.ColorIndexAt(m.Rect.Min.X+x, m.Rect.Min.Y+y); g != w {
				t.Fatalf("pixel (%d,%d) is index %d, want %d", x, y, g, w)
			}
		}
	}
}

func palette(n int, alpha bool) color.Palette {
	p := make(color.Palette, n)
	for i := range p {
		a := uint8(255)
		if alpha && i%3 == 1 {
			a = uint8(i * 7)
		}
		p[i] = color.NRGBA{uint8(i * 37), uint8(i * 91), uint8(255 - i), a}
	}
	return p
}

// Images image/png reads back as they were: a board of flat shapes with
// antialiased noise, random indices (nothing to run), one pixel, a palette
// with translucent entries, a sub-image (its rows apart by more than its
// width, not at the origin), and rows longer than deflate's window.
func TestEncodeDecodes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	board := image.NewPaletted(image.Rect(0, 0, 500, 300), palette(256, false))
	for y := 0; y < 300; y++ {
		for x := 0; x < 500; x++ {
			v := uint8(1)
			switch {
			case (x-250)*(x-250)+(y-150)*(y-150) < 90*90:
				v = 4
			case x+y/2 < 200:
				v = 9
			case x%37 == y%41:
				v = uint8(r.IntN(256))
			}
			board.SetColorIndex(x, y, v)
		}
	}
	random := image.NewPaletted(image.Rect(0, 0, 257, 129), palette(256, false))
	for i := range random.Pix {
		random.Pix[i] = uint8(r.Uint32())
	}
	translucent := image.NewPaletted(image.Rect(0, 0, 40, 30), palette(12, true))
	for i := range translucent.Pix {
		translucent.Pix[i] = uint8(i / 50 % 12)
	}
	wide := image.NewPaletted(image.Rect(0, 0, 40000, 3), palette(200, false))
	for i := range wide.Pix {
		wide.Pix[i] = uint8(i % 40000 / 201)
	}
	for name, m := range map[string]*image.Paletted{
		"board":       board,
		"random":      random,
		"one pixel":   image.NewPaletted(image.Rect(0, 0, 1, 1), palette(1, false)),
		"translucent": translucent,
		"sub-image":   board.SubImage(image.Rect(180, 70, 333, 201)).(*image.Paletted),
		"wide":        wide,
	} {
		t.Run(name, func(t *testing.T) { roundTrip(t, m) })
	}
}

func TestEncodeRefuses(t *testing.T) {
	for name, m := range map[string]*image.Paletted{
		"empty":       image.NewPaletted(image.Rect(0, 0, 0, 5), palette(2, false)),
		"no palette":  image.NewPaletted(image.Rect(0, 0, 5, 5), nil),
		"257 colours": image.NewPaletted(image.Rect(0, 0, 5, 5), palette(257, false)),
	} {
		if err := Encode(new(bytes.Buffer), m); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
}

// FuzzEncode: any image image/png reads back as it was. The first two
// bytes are the width and the palette's size; the rest are the pixels.
func FuzzEncode(f *testing.F) {
	f.Add([]byte{4, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 0})
	f.Add(append([]byte{200, 255}, bytes.Repeat([]byte{7}, 1000)...))
	f.Add([]byte{1, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		w, n := int(data[0])+1, int(data[1])+1
		pix := data[2:]
		h := len(pix) / w
		if h == 0 {
			return
		}
		m := image.NewPaletted(image.Rect(0, 0, w, h), palette(n, true))
		for i := range m.Pix {
			m.Pix[i] = uint8(int(pix[i]) % n)
		}
		roundTrip(t, m)
	})
}

// BenchmarkEncode compares Encode with image/png at BestSpeed on a board
// picture (the standard Diplomacy map mid-game, from the diplomacy
// package's reference pictures): CPU time and bytes of each.
func BenchmarkEncode(b *testing.B) {
	raw, err := os.ReadFile("../../adjudicator/diplomacy/testdata/pictures/standard-midgame.png")
	if err != nil {
		b.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	board := img.(*image.Paletted)
	std := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: new(onePool)}
	for name, encode := range map[string]func(*bytes.Buffer) error{
		"flatpng":        func(buf *bytes.Buffer) error { return Encode(buf, board) },
		"image-png-fast": func(buf *bytes.Buffer) error { return std.Encode(buf, board) },
	} {
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			cpu0 := proccpu.Used()
			for b.Loop() {
				buf.Reset()
				if err := encode(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(buf.Len()), "png-bytes")
		})
	}
}

// onePool keeps image/png's buffers between the benchmark's encodings.
type onePool struct{ b *png.EncoderBuffer }

func (p *onePool) Get() *png.EncoderBuffer  { return p.b }
func (p *onePool) Put(b *png.EncoderBuffer) { p.b = b }
