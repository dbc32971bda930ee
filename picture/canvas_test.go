package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"sync"
	"testing"
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

// drawDirect draws p on a canvas item by item, without the base cache,
// all rows at once.
func drawDirect(p *Picture) []uint8 {
	var c canvas
	c.reset(p.Width, p.Height, quantizerFor(p.Palette), p.Background)
	var rec recorder
	rec.reset(p.Width, p.Height)
	r := &raster{dst: &rec}
	r.items(p.Items)
	rec.finish()
	rec.play(&c, 0, p.Height)
	return c.pix
}

// drawCached draws p as WritePNG does, from the base cache, in bands of 7
// rows (so that shapes, edges and masks cross bands), and returns the
// PNG's pixels as a canvas holds them.
func drawCached(t *testing.T, p *Picture) []uint8 {
	t.Helper()
	e := &pngEncoder{bandRows: 7}
	img, err := png.Decode(bytes.NewReader(e.encode(nil, p, quantizerFor(p.Palette))))
	if err != nil {
		t.Fatal(err)
	}
	pi, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("PNG decodes to %T, want a paletted image", img)
	}
	var out []uint8
	for y := 0; y < p.Height; y++ {
		out = append(out, 0)
		out = append(out, pi.Pix[y*pi.Stride:y*pi.Stride+p.Width]...)
	}
	return out
}

// A board drawn from the base cache — its template, the patches of shapes
// whose colour changed, the edges between them — is the board drawn item
// by item, index for index, whatever the fills: the first, changed ones,
// translucent and missing ones, more colours than a shape keeps patches
// for, and again once the patches are kept.
func TestBaseCacheMatchesDirectDrawing(t *testing.T) {
	set := NewRegions("cells", testRegions.shapes, nil)
	layer := NewLayer("borders", testLayer.items...)
	fills := [][]Color{
		{Colors[0], Colors[1], Colors[2], Colors[3], Colors[4]},
		{Colors[0], Colors[5], Colors[2], Colors[3], Colors[4]},
		{Colors[6], Colors[5], Colors[2].Alpha(128), {}, Colors[4]},
		{Colors[0], Colors[1]}, // the others unpainted
		{Colors[1], Colors[1], Colors[1], Colors[1], Colors[1], Colors[1]},
	}
	for k := 0; k < 2*maxPatches; k++ { // more colours than patches kept
		fills = append(fills, []Color{Colors[0].Mix(Black, float64(k)/30), Colors[1], Colors[2], Colors[3], Colors[4]})
	}
	for round := 0; round < 2; round++ {
		for i, f := range fills {
			p := boardOn(set, layer, f)
			want, got := drawDirect(p), drawCached(t, p)
			if !bytes.Equal(got, want) {
				diff := 0
				for k := range got {
					if got[k] != want[k] {
						diff++
					}
				}
				t.Errorf("round %d, fill %d: %d of %d pixels differ from direct drawing", round, i, diff, len(got))
			}
		}
	}
	if len(layer.bases) != 1 {
		t.Errorf("%d bases kept for one board, want 1", len(layer.bases))
	}
}

// Pictures encoded at once (sharing the caches of one board) come out as
// they do one at a time. Run with -race.
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

// Shapes drawn from the item cache's masks (the second time a picture is
// encoded, and in another picture that has the same shapes) paint what
// rasterising them paints, index for index: paths with holes and lines,
// dashed rings, straight, curved, dashed and hollow-headed arrows, and a
// haloed text.
func TestItemCacheMatchesDirectDrawing(t *testing.T) {
	set := NewRegions("cells", testRegions.shapes, nil)
	layer := NewLayer("borders", testLayer.items...)
	shapes := []Item{
		&Path{Rings: [][]Point{{{10, 10}, {60, 12}, {40, 70}}, {{30, 30}, {40, 30}, {35, 40}}}, Lines: [][]Point{{{5, 100}, {90, 110}, {150, 20}}}, Style: Style{Fill: Colors[3], Stroke: Black, StrokeWidth: 2}},
		&Circle{C: Pt(120, 70), R: 14, Style: Style{Fill: White.Alpha(160), Stroke: Colors[5], StrokeWidth: 1.8, Dash: []float64{4, 2}}},
		&Arrow{From: Pt(20, 20), To: Pt(180, 110), Head: 11, Style: Style{Stroke: Colors[4], StrokeWidth: 3}},
		&Arrow{From: Pt(190, 10), To: Pt(15, 90), Via: Pt(100, 120), Curve: true, Head: 9, HeadFill: White, Style: Style{Stroke: Colors[7], StrokeWidth: 2, Dash: []float64{6, 4}}},
		&Text{At: Pt(100, 64), S: "Kept", Size: 13, Bold: true, Anchor: Middle, Color: Black, Halo: White.Alpha(200)},
	}
	var pics []*Picture
	for k := range 3 {
		p := boardOn(set, layer, []Color{Colors[k], Colors[1], Colors[2], Colors[3], Colors[4]})
		p.Add(shapes[k:]...)
		pics = append(pics, p)
	}
	for round := 0; round < 2; round++ {
		for i, p := range pics {
			if want, got := drawDirect(p), drawCached(t, p); !bytes.Equal(got, want) {
				t.Errorf("round %d, picture %d: differs from direct drawing", round, i)
			}
		}
	}
	key, _ := itemKey(nil, shapes[2], 200, 125)
	itemMasks.RLock()
	_, kept := itemMasks.m[string(key)]
	itemMasks.RUnlock()
	if !kept {
		t.Error("an arrow drawn in three pictures was not kept")
	}
}
