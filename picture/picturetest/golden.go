// Package picturetest holds what the engines' picture tests share.
package picturetest

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"pbemd/picture"
)

var updatePNG = flag.Bool("update-png", false, "rewrite the reference PNGs in testdata/pictures (only from a renderer known to be right)")

// GoldenPNG checks that the PNG of p shows, pixel for pixel, what the
// reference PNG testdata/pictures/name shows: the picture as the renderer
// drew it before its PNG encoder was made cheaper (commit d05fc38). The
// PNG's bytes may differ (their compression); its decoded colours may not.
func GoldenPNG(t *testing.T, name string, p *picture.Picture) {
	t.Helper()
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "pictures", name)
	if *updatePNG {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	ref, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(bytes.NewReader(ref))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	got, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("PNG of %v, the reference %v", got.Bounds(), want.Bounds())
	}
	g, w := image.NewRGBA(got.Bounds()), image.NewRGBA(want.Bounds())
	draw.Draw(g, g.Rect, got, image.Point{}, draw.Src)
	draw.Draw(w, w.Rect, want, image.Point{}, draw.Src)
	bad, first := 0, ""
	for i := 0; i < len(g.Pix); i += 4 {
		if !bytes.Equal(g.Pix[i:i+4], w.Pix[i:i+4]) {
			if bad == 0 {
				first = fmt.Sprintf("(%d,%d) is %v, the reference %v", i/4%g.Rect.Dx(), i/4/g.Rect.Dx(), g.Pix[i:i+4], w.Pix[i:i+4])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d pixels differ from %s, the first %s", bad, path, first)
	}
}
