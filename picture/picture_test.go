package picture

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff)", path)
	}
}

var square = [][]Point{{{10, 10}, {90, 10}, {90, 90}, {10, 90}}}

// scene uses every kind of item.
func scene() *Picture {
	regions := NewRegions("regions", [][][]Point{
		{{{0, 0}, {100, 0}, {100, 100}, {0, 100}}},
		{{{100, 0}, {200, 0}, {200, 100}, {100, 100}}},
	}, []string{"West", "East"})
	layer := NewLayer("borders", &Path{Lines: [][]Point{{{100, 0}, {100, 100}}}, Style: Style{Stroke: Black, StrokeWidth: 2}})
	p := &Picture{Width: 200, Height: 120, Title: "test & scene", Background: White}
	p.Add(
		&RegionFill{Set: regions, Fill: []Color{Colors[0], Colors[1]}},
		layer,
		&Group{ID: "shapes", Items: []Item{
			&Path{Rings: [][]Point{{{20, 20}, {80, 20}, {80, 80}, {20, 80}}, {{40, 40}, {60, 40}, {60, 60}, {40, 60}}}, Style: Style{Fill: Colors[2], Stroke: Black}},
			&Circle{C: Pt(150, 50), R: 20, Style: Style{Fill: Colors[3], Stroke: Black, StrokeWidth: 1.5}},
			&Circle{C: Pt(150, 50), R: 28, Style: Style{Stroke: Colors[5], StrokeWidth: 1, Dash: []float64{3, 2}}},
		}},
		&Arrow{From: Pt(20, 105), To: Pt(90, 105), Style: Style{Stroke: Black, StrokeWidth: 2}},
		&Arrow{From: Pt(110, 110), Via: Pt(140, 80), To: Pt(190, 110), Curve: true, HeadFill: White, Style: Style{Stroke: Colors[4], StrokeWidth: 2, Dash: []float64{4, 3}}},
		&Text{At: Pt(150, 55), S: "Mid <1>", Size: 12, Anchor: Middle, Color: Black, Halo: White},
		&Text{At: Pt(5, 118), S: "Bold", Size: 11, Bold: true, Color: Black.Alpha(128)},
	)
	return p
}

func TestSVGGolden(t *testing.T) {
	var b bytes.Buffer
	if err := scene().WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	scene().WriteSVG(&again)
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Fatal("two encodings of one scene differ")
	}
	golden(t, "scene.svg", b.Bytes())
}

func decodePNG(t *testing.T, p *Picture) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(p.Width, p.Height) {
		t.Fatalf("PNG is %v, want %dx%d", got, p.Width, p.Height)
	}
	return img
}

func colorAt(img image.Image, x, y int) Color {
	r, g, b, a := img.At(x, y).RGBA()
	return Color{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

func TestPNGPaintsTheScene(t *testing.T) {
	img := decodePNG(t, scene())
	for _, c := range []struct {
		name string
		x, y int
		want Color
	}{
		{"region West", 5, 50, Colors[0]},
		{"region East", 195, 20, Colors[1]},
		{"path fill", 30, 30, Colors[2]},
		{"hole in the path", 50, 50, Colors[0]},
		{"circle", 150, 40, Colors[3]},
		{"layer border", 100, 5, Black},
		{"straight arrow shaft", 50, 105, Black},
		{"background", 100, 117, White},
	} {
		if got := colorAt(img, c.x, c.y); got != c.want {
			t.Errorf("%s at (%d,%d): %v, want %v", c.name, c.x, c.y, got, c.want)
		}
	}
}

func TestTextIsDrawn(t *testing.T) {
	p := &Picture{Width: 60, Height: 20, Background: White}
	p.Add(&Text{At: Pt(30, 15), S: "Ber", Size: 12, Anchor: Middle, Color: Black})
	img := decodePNG(t, p)
	dark := 0
	minX, maxX := 60, 0
	for y := 0; y < 20; y++ {
		for x := 0; x < 60; x++ {
			if c := colorAt(img, x, y); c.R < 100 {
				dark++
				minX, maxX = min(minX, x), max(maxX, x)
			}
		}
	}
	if dark < 20 {
		t.Fatalf("only %d dark pixels: text not drawn", dark)
	}
	w := TextWidth("Ber", 12, false)
	if mid := float64(minX+maxX) / 2; mid < 30-3 || mid > 30+3 {
		t.Errorf("middle-anchored text centred at %v, want about 30 (width %v)", mid, w)
	}
}

// A cached RegionFill and Layer paint what the same shapes drawn directly
// paint, but for antialiasing.
func TestCachesMatchDirectDrawing(t *testing.T) {
	shapes := [][][]Point{square, {{{90, 10}, {150, 30}, {120, 95}}}}
	cached := &Picture{Width: 160, Height: 100, Background: White}
	cached.Add(&RegionFill{Set: NewRegions("", shapes, nil), Fill: []Color{Colors[0], Colors[4]}},
		NewLayer("", &Text{At: Pt(50, 50), S: "Cached", Size: 14, Color: Black, Halo: White}))
	direct := &Picture{Width: 160, Height: 100, Background: White}
	direct.Add(&Path{Rings: shapes[0], Style: Style{Fill: Colors[0]}}, &Path{Rings: shapes[1], Style: Style{Fill: Colors[4]}},
		&Text{At: Pt(50, 50), S: "Cached", Size: 14, Color: Black, Halo: White})
	for round := 0; round < 2; round++ { // the second round uses the caches
		a, b := cached.Render(), direct.Render()
		bad := 0
		for i := 0; i < len(a.Pix); i += 4 {
			for k := 0; k < 4; k++ {
				d := int(a.Pix[i+k]) - int(b.Pix[i+k])
				if d > 40 || d < -40 {
					bad++
					break
				}
			}
		}
		if bad > 30 {
			t.Errorf("round %d: %d pixels differ between cached and direct drawing", round, bad)
		}
	}
}

func TestDashes(t *testing.T) {
	d := dashes([]Point{{0, 0}, {10, 0}, {10, 10}}, []float64{3, 2})
	// 20 px of 3-on 2-off: dashes start at 0, 5, 10, 15.
	if len(d) != 4 {
		t.Fatalf("%d dashes, want 4: %v", len(d), d)
	}
	if got := d[2]; got[0] != (Point{10, 0}) || got[len(got)-1] != (Point{10, 3}) {
		t.Errorf("third dash %v, want from (10,0) to (10,3)", got)
	}
}

func BenchmarkPNG(b *testing.B) {
	p := scene()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := p.WritePNG(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}
