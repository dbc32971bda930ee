package picture

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"slices"
	"sync"

	"pbemd/picture/flatpng"
)

// MaxSide is the largest width or height WritePNG draws.
const MaxSide = 16384

// WritePNG renders the picture into the indices of a palette and writes it
// with flatpng: a paletted PNG, 8 bits a pixel. It is safe to call for
// pictures at once.
func (p *Picture) WritePNG(w io.Writer) error {
	if p.Width <= 0 || p.Height <= 0 || p.Width > MaxSide || p.Height > MaxSide {
		return fmt.Errorf("picture: size %d×%d (1 to %d pixels a side)", p.Width, p.Height, MaxSide)
	}
	pal := p.Palette
	if len(pal) == 0 {
		pal = sceneColors(p)
	}
	q := quantizerFor(pal)
	c := canvases.Get().(*canvas)
	defer canvases.Put(c)
	c.reset(p.Width, p.Height, q, p.Background)
	r := &raster{dst: c}
	r.items(p.Items)
	img := &image.Paletted{Pix: c.pix, Stride: c.w, Rect: c.bounds(), Palette: q.palette}
	return flatpng.Encode(w, img)
}

// canvases are the pixels of pictures drawn before, reused: a board's
// picture is over a megabyte of them.
var canvases = sync.Pool{New: func() any { return new(canvas) }}

// sceneColors lists the distinct opaque colours a scene paints, in a stable
// order, at most MaxPalette.
func sceneColors(p *Picture) []Color {
	seen := map[Color]bool{}
	var out []Color
	add := func(c Color) {
		if c.A == 0 {
			return
		}
		c.A = 255
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	add(p.Background)
	var walk func(items []Item)
	walk = func(items []Item) {
		for _, it := range items {
			switch v := it.(type) {
			case *Path:
				add(v.Fill)
				add(v.Stroke)
			case *Circle:
				add(v.Fill)
				add(v.Stroke)
			case *Arrow:
				add(v.Stroke)
				add(v.HeadFill)
			case *Text:
				add(v.Color)
				add(v.Halo)
			case *Group:
				walk(v.Items)
			case *Layer:
				walk(v.items)
			case *RegionFill:
				for _, c := range v.Fill {
					add(c)
				}
			}
		}
	}
	walk(p.Items)
	if len(out) > MaxPalette {
		out = out[:MaxPalette]
	}
	return out
}

// quantizer maps RGBA pixels to a palette of exact colours plus a colour
// cube, through a 15-bit lookup table.
type quantizer struct {
	palette color.Palette
	rgb     [256][3]uint8 // the palette's colours
	lut     [1 << 15]uint8
}

const cubeLevels = 6

var (
	quantMu sync.Mutex
	quants  []*quantEntry
)

type quantEntry struct {
	key  []Color
	once sync.Once
	q    *quantizer
}

// quantizerFor returns the (cached) quantizer of a palette.
func quantizerFor(pal []Color) *quantizer {
	if len(pal) > MaxPalette {
		pal = pal[:MaxPalette]
	}
	quantMu.Lock()
	var e *quantEntry
	for _, q := range quants {
		if slices.Equal(q.key, pal) {
			e = q
			break
		}
	}
	if e == nil {
		e = &quantEntry{key: slices.Clone(pal)}
		if len(quants) >= 16 {
			quants = quants[1:]
		}
		quants = append(quants, e)
	}
	quantMu.Unlock()
	e.once.Do(func() { e.q = newQuantizer(e.key) })
	return e.q
}

func newQuantizer(pal []Color) *quantizer {
	q := &quantizer{}
	var cols [][3]int
	for _, c := range pal {
		q.palette = append(q.palette, color.RGBA{c.R, c.G, c.B, 255})
		cols = append(cols, [3]int{int(c.R), int(c.G), int(c.B)})
	}
	exact := len(cols)
	step := 255 / (cubeLevels - 1)
	for r := 0; r < cubeLevels; r++ {
		for g := 0; g < cubeLevels; g++ {
			for b := 0; b < cubeLevels; b++ {
				q.palette = append(q.palette, color.RGBA{uint8(r * step), uint8(g * step), uint8(b * step), 255})
			}
		}
	}
	for k := range q.lut {
		// The centre of the 5-5-5 cell.
		r, g, b := (k>>10)<<3|4, (k>>5&31)<<3|4, (k&31)<<3|4
		best, bd := 0, 1<<30
		for i, c := range cols {
			if d := sq(c[0]-r) + sq(c[1]-g) + sq(c[2]-b); d < bd {
				best, bd = i, d
			}
		}
		// The nearest cube colour, by rounding each channel.
		cr, cg, cb := (r+step/2)/step, (g+step/2)/step, (b+step/2)/step
		if d := sq(cr*step-r) + sq(cg*step-g) + sq(cb*step-b); d < bd {
			best = exact + (cr*cubeLevels+cg)*cubeLevels + cb
		}
		q.lut[k] = uint8(best)
	}
	for i, c := range q.palette {
		r, g, b, _ := c.RGBA()
		q.rgb[i] = [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
	}
	// An exact colour always maps to itself.
	for i, c := range cols {
		q.lut[key15(uint8(c[0]), uint8(c[1]), uint8(c[2]))] = uint8(i)
	}
	return q
}

func sq(x int) int { return x * x }

func key15(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
