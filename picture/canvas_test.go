package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"sync"
	"testing"

	"pbemd/picture/flatpng"
)

// The shapes and layer of a small board: shapes that share edges, a hole,
// and borders, haloed names and a translucent disc over them.
var (
	testRegions = NewRegions("cells", [][][]Point{
		{{{0, 0}, {70.5, 0}, {60.3, 80.2}, {0, 90}}},
		{{{70.5, 0}, {160, 0}, {160, 60}, {60.3, 80.2}}},
		{{{0, 90}, {60.3, 80.2}, {160, 60}, {160, 120}, {0, 120}}, {{40, 100}, {60, 100}, {50, 110}}},
		{{{150, 100}, {190, 100}, {190, 130}, {150, 130}}},
		{{{165, 5}, {195, 5}, {195, 40}}},
	}, nil)
	testLayer = NewLayer("borders",
		&Path{Lines: [][]Point{{{70.5, 0}, {60.3, 80.2}, {160, 60}}, {{0, 90}, {60.3, 80.2}}}, Style: Style{Stroke: Black, StrokeWidth: 1.3}},
		&Text{At: Pt(30, 40), S: "Abc", Size: 12, Bold: true, Color: Black, Halo: White.Alpha(200)},
		&Text{At: Pt(120, 100), S: "Sea", Size: 11, Color: Colors[4], Halo: White.Alpha(120)},
		&Circle{C: Pt(100, 30), R: 8, Style: Style{Fill: Colors[6].Alpha(100), Stroke: Black}},
	)
)

// boardOn is a scene that begins as a board picture does: a RegionFill
// and a Layer over it, then what changes.
func boardOn(set *Regions, layer *Layer, fill []Color) *Picture {
	p := &Picture{Width: 200, Height: 125, Background: Colors[7].Mix(White, 0.5)}
	p.Palette = append([]Color{p.Background, Black, White}, Colors...)
	p.Add(&RegionFill{Set: set, Fill: fill}, layer,
		&Circle{C: Pt(50, 50), R: 10, Style: Style{Fill: Colors[5], Stroke: Black, StrokeWidth: 1.5}})
	return p
}

// Pictures encoded at once (sharing one board's Regions and Layer, their
// rasters and the palette's colour table) come out as they do one at a
// time. Run with -race.
func TestPNGConcurrent(t *testing.T) {
	set := NewRegions("cells", testRegions.shapes, nil)
	layer := NewLayer("borders", testLayer.items...)
	var pics []*Picture
	for k := 0; k < 8; k++ {
		pics = append(pics, boardOn(set, layer, []Color{Colors[k%8], Colors[(k+1)%8], Colors[(k+3)%8], Colors[2], Colors[k%3]}))
	}
	want := make([][]byte, len(pics))
	for i, p := range pics {
		var b bytes.Buffer
		if err := p.WritePNG(&b); err != nil {
			t.Fatal(err)
		}
		want[i] = b.Bytes()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(pics))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, p := range pics {
				var b bytes.Buffer
				if err := p.WritePNG(&b); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b.Bytes(), want[i]) {
					errs <- fmt.Errorf("picture %d differs when encoded concurrently", i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// WritePNG writes the picture as an image.Paletted (8 bits a pixel), the
// palette's colours first, through flatpng: a board, and a scene that is
// not one.
func TestPNGIsPaletted(t *testing.T) {
	for name, p := range map[string]*Picture{
		"board": boardOn(testRegions, testLayer, []Color{Colors[0], Colors[1], Colors[2], Colors[3], Colors[4]}),
		"scene": scene(),
	} {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := p.WritePNG(&got); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			pi, ok := img.(*image.Paletted)
			if !ok {
				t.Fatalf("PNG decodes to %T, want a paletted image", img)
			}
			pal := p.Palette
			if len(pal) == 0 {
				pal = sceneColors(p)
			}
			for i, c := range pal {
				if r, g, b, _ := pi.Palette[i].RGBA(); (Color{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}) != c {
					t.Errorf("palette entry %d is %v, want %v", i, pi.Palette[i], c)
				}
			}
			var want bytes.Buffer
			if err := flatpng.Encode(&want, pi); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("WritePNG wrote %d bytes, flatpng %d for the same pixels", got.Len(), want.Len())
			}
		})
	}
}
