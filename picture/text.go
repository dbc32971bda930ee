package picture

import (
	"image"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts are parsed at first use, never at init.
var fonts = sync.OnceValue(func() [2]*opentype.Font {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err) // the embedded font: a build defect
	}
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic(err)
	}
	return [2]*opentype.Font{r, b}
})

// haloRadius is the width of a text halo in pixels.
const haloRadius = 2

type faceKey struct {
	size int // size in 1/4 px
	bold bool
}

type glyphKey struct {
	faceKey
	r rune
}

// glyph is a cached glyph mask (and its halo, the mask dilated), placed
// relative to the pen on the baseline.
type glyph struct {
	mask, halo *image.Alpha // bounds relative to the pen
	advance    float64
}

// face is one size of one font; opentype faces are not safe for concurrent
// use, so each is used under its lock and its results copied into the
// cache.
type face struct {
	mu sync.Mutex
	f  font.Face
}

var (
	faceMu  sync.Mutex
	faces   = map[faceKey]*face{}
	glyphMu sync.RWMutex
	glyphs  = map[glyphKey]*glyph{}
)

// maxGlyphs bounds the glyph cache (sizes × runes a picture uses).
const maxGlyphs = 4096

func keyOf(size float64, bold bool) faceKey {
	return faceKey{size: int(math.Round(size * 4)), bold: bold}
}

func faceOf(k faceKey) *face {
	faceMu.Lock()
	defer faceMu.Unlock()
	if f, ok := faces[k]; ok {
		return f
	}
	fo := fonts()[0]
	if k.bold {
		fo = fonts()[1]
	}
	f, err := opentype.NewFace(fo, &opentype.FaceOptions{Size: float64(k.size) / 4, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err) // sizes are positive: cannot fail
	}
	fc := &face{f: f}
	if len(faces) < 64 {
		faces[k] = fc
	}
	return fc
}

func glyphOf(k faceKey, r rune) *glyph {
	gk := glyphKey{k, r}
	glyphMu.RLock()
	g, ok := glyphs[gk]
	glyphMu.RUnlock()
	if ok {
		return g
	}
	fc := faceOf(k)
	fc.mu.Lock()
	dr, mask, mp, adv, ok := fc.f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = fc.f.Glyph(fixed.Point26_6{}, '?')
	}
	m := image.NewAlpha(dr)
	if mask != nil {
		for y := dr.Min.Y; y < dr.Max.Y; y++ {
			for x := dr.Min.X; x < dr.Max.X; x++ {
				_, _, _, a := mask.At(mp.X+x-dr.Min.X, mp.Y+y-dr.Min.Y).RGBA()
				m.Pix[m.PixOffset(x, y)] = uint8(a >> 8)
			}
		}
	}
	fc.mu.Unlock()
	g = &glyph{mask: m, halo: dilate(m, haloRadius), advance: float64(adv) / 64}
	glyphMu.Lock()
	if len(glyphs) < maxGlyphs {
		glyphs[gk] = g
	}
	glyphMu.Unlock()
	return g
}

// dilate grows a mask by r pixels (the maximum over a disc).
func dilate(m *image.Alpha, r int) *image.Alpha {
	b := m.Rect.Inset(-r)
	out := image.NewAlpha(b)
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			a := m.Pix[m.PixOffset(x, y)]
			if a == 0 {
				continue
			}
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					if dx*dx+dy*dy > r*r+1 {
						continue
					}
					o := out.PixOffset(x+dx, y+dy)
					if out.Pix[o] < a {
						out.Pix[o] = a
					}
				}
			}
		}
	}
	return out
}

// TextWidth is the advance width in pixels of s in the Go font of the size
// (bold or regular), as both encoders lay it out.
func TextWidth(s string, size float64, bold bool) float64 {
	k := keyOf(size, bold)
	w := 0.0
	for _, r := range s {
		w += glyphOf(k, r).advance
	}
	return w
}

// textStart is the pen position of the first letter of t.
func textStart(t *Text) Point {
	p := t.At
	switch t.Anchor {
	case Middle:
		p.X -= TextWidth(t.S, t.Size, t.Bold) / 2
	case End:
		p.X -= TextWidth(t.S, t.Size, t.Bold)
	}
	return p
}
