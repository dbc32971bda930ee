package picture

import (
	"image"
	"math"
)

// Rect is an axis-aligned box of the picture, Min its top left corner and
// Max its bottom right.
type Rect struct{ Min, Max Point }

// Overlaps reports whether r and s share some area.
func (r Rect) Overlaps(s Rect) bool {
	return r.Min.X < s.Max.X && s.Min.X < r.Max.X && r.Min.Y < s.Max.Y && s.Min.Y < r.Max.Y
}

// Grow returns r grown by d pixels on every side.
func (r Rect) Grow(d float64) Rect {
	return Rect{Point{r.Min.X - d, r.Min.Y - d}, Point{r.Max.X + d, r.Max.Y + d}}
}

// Translate returns r moved by v.
func (r Rect) Translate(v Point) Rect { return Rect{r.Min.Add(v), r.Max.Add(v)} }

// TextBox is the box the letters of t (and its halo, when set) paint,
// as WritePNG lays them out.
func TextBox(t *Text) Rect {
	if t.Size <= 0 || t.S == "" {
		return Rect{t.At, t.At}
	}
	k := keyOf(t.Size, t.Bold)
	start := textStart(t)
	x := start.X
	y := math.Round(start.Y)
	var box image.Rectangle
	for _, ch := range t.S {
		g := glyphOf(k, ch)
		m := g.mask
		if t.Halo.A != 0 {
			m = g.halo
		}
		box = box.Union(m.Rect.Add(image.Pt(int(math.Round(x)), int(y))))
		x += g.advance
	}
	return Rect{Pt(float64(box.Min.X), float64(box.Min.Y)), Pt(float64(box.Max.X), float64(box.Max.Y))}
}

// Touches reports whether what an item paints may reach into r: a
// painted pixel of r means Touches is true (a dashed stroke counts as
// solid, and a curve's bend or a stroke's corner may make it true for a
// box that only comes near). Engines use it to keep labels clear of the
// marks of a picture.
func Touches(it Item, r Rect) bool {
	switch v := it.(type) {
	case *Path:
		hw := halfStroke(v.Style)
		for _, ring := range v.Rings {
			if v.Fill.A != 0 && (inside(r.Min, ring) || inside(Pt(r.Max.X, r.Min.Y), ring)) {
				return true
			}
			if polylineTouches(ring, true, hw, r) {
				return true
			}
		}
		for _, l := range v.Lines {
			if polylineTouches(l, false, hw, r) {
				return true
			}
		}
		return false
	case *Circle:
		reach := v.R + halfStroke(v.Style) + 1
		d := Pt(math.Max(r.Min.X-v.C.X, math.Max(0, v.C.X-r.Max.X)), math.Max(r.Min.Y-v.C.Y, math.Max(0, v.C.Y-r.Max.Y)))
		if d.Len() >= reach {
			return false
		}
		if v.Fill.A != 0 {
			return true
		}
		// A ring: the box touches it unless it lies wholly in the hole.
		hole := v.R - halfStroke(v.Style) - 1
		for _, c := range [4]Point{r.Min, r.Max, Pt(r.Min.X, r.Max.Y), Pt(r.Max.X, r.Min.Y)} {
			if c.Sub(v.C).Len() >= hole {
				return true
			}
		}
		return false
	case *Arrow:
		_, head := arrowGeometry(v)
		if polylineTouches(head[:], true, halfStroke(v.Style), r) || inside(r.Min, head[:]) {
			return true
		}
		return polylineTouches(arrowShaft(v), false, halfStroke(v.Style), r)
	case *Text:
		return TextBox(v).Overlaps(r)
	case *Group:
		for _, it := range v.Items {
			if Touches(it, r) {
				return true
			}
		}
	case *Layer:
		for _, it := range v.items {
			if Touches(it, r) {
				return true
			}
		}
	case *RegionFill:
		return true
	}
	return false
}

// halfStroke is how far a stroke paints beyond its line, with a pixel
// for antialiasing.
func halfStroke(s Style) float64 {
	if s.Stroke.A == 0 {
		return 1
	}
	w := s.StrokeWidth
	if w <= 0 {
		w = 1
	}
	return w/2 + 1
}

// polylineTouches reports whether a polyline (closed: a ring), hw pixels
// either side of it, reaches into r.
func polylineTouches(pl []Point, closed bool, hw float64, r Rect) bool {
	g := r.Grow(hw)
	n := len(pl)
	if n == 1 {
		return segmentInRect(pl[0], pl[0], g)
	}
	last := n - 1
	if closed {
		last = n
	}
	for i := 0; i < last; i++ {
		if segmentInRect(pl[i], pl[(i+1)%n], g) {
			return true
		}
	}
	return false
}

// segmentInRect reports whether the segment a–b meets r (Liang–Barsky
// clipping).
func segmentInRect(a, b Point, r Rect) bool {
	t0, t1 := 0.0, 1.0
	d := b.Sub(a)
	for _, e := range [4][2]float64{{-d.X, a.X - r.Min.X}, {d.X, r.Max.X - a.X}, {-d.Y, a.Y - r.Min.Y}, {d.Y, r.Max.Y - a.Y}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// Bounds is a box that holds all an item paints (RegionFill and empty
// items: an empty box at the origin).
func Bounds(it Item) Rect {
	var b Rect
	first := true
	add := func(p Point, d float64) {
		r := Rect{p, p}.Grow(d)
		if first {
			b, first = r, false
			return
		}
		b.Min.X, b.Min.Y = math.Min(b.Min.X, r.Min.X), math.Min(b.Min.Y, r.Min.Y)
		b.Max.X, b.Max.Y = math.Max(b.Max.X, r.Max.X), math.Max(b.Max.Y, r.Max.Y)
	}
	switch v := it.(type) {
	case *Path:
		hw := halfStroke(v.Style)
		for _, ring := range v.Rings {
			for _, p := range ring {
				add(p, hw)
			}
		}
		for _, l := range v.Lines {
			for _, p := range l {
				add(p, hw)
			}
		}
	case *Circle:
		add(v.C, v.R+halfStroke(v.Style)+1)
	case *Arrow:
		hw := halfStroke(v.Style)
		add(v.From, hw)
		if v.Curve {
			add(v.Via, hw)
		}
		_, head := arrowGeometry(v)
		for _, p := range head {
			add(p, hw)
		}
	case *Text:
		t := TextBox(v)
		add(t.Min, 0)
		add(t.Max, 0)
	case *Group:
		for _, it := range v.Items {
			r := Bounds(it)
			add(r.Min, 0)
			add(r.Max, 0)
		}
	case *Layer:
		for _, it := range v.items {
			r := Bounds(it)
			add(r.Min, 0)
			add(r.Max, 0)
		}
	}
	return b
}
