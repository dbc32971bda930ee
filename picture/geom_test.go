package picture

import (
	"math/rand/v2"
	"testing"
)

// Touches never misses paint, and what it touches is within Bounds: for items of every kind and boxes all over
// them, a box Touches calls clear has no pixel the item painted, in the
// picture as it is rasterised.
func TestTouchesMissesNoPaint(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	pt := func() Point { return Pt(20+r.Float64()*160, 20+r.Float64()*160) }
	items := []Item{
		&Circle{C: Pt(100, 100), R: 30, Style: Style{Fill: Black}},
		&Circle{C: Pt(100, 100), R: 40, Style: Style{Stroke: Black, StrokeWidth: 3, Dash: []float64{4, 2}}},
		&Arrow{From: Pt(30, 40), To: Pt(170, 150), Head: 14, Style: Style{Stroke: Black, StrokeWidth: 4}},
		&Arrow{From: Pt(30, 160), To: Pt(170, 40), Via: Pt(60, 20), Curve: true, Head: 10, HeadFill: White, Style: Style{Stroke: Black, StrokeWidth: 3}},
		&Path{Rings: [][]Point{{Pt(40, 40), Pt(160, 60), Pt(100, 170)}}, Style: Style{Fill: Black, Stroke: Black, StrokeWidth: 2}},
		&Path{Lines: [][]Point{{Pt(20, 100), Pt(100, 30), Pt(180, 100)}}, Style: Style{Stroke: Black, StrokeWidth: 2.5}},
		&Text{At: Pt(60, 110), S: "Kie", Size: 14, Bold: true, Color: Black, Halo: Black},
		&Group{Items: []Item{&Text{At: Pt(100, 60), S: "Nwg", Size: 12, Anchor: Middle, Color: Black}}},
	}
	for i, it := range items {
		p := &Picture{Width: 200, Height: 200, Background: White, Items: []Item{it}}
		img := p.Render()
		clear, touched := 0, 0
		for k := 0; k < 400; k++ {
			a := pt()
			box := Rect{a, a.Add(Pt(4+r.Float64()*30, 4+r.Float64()*14))}
			if Touches(it, box) {
				touched++
				if !Bounds(it).Overlaps(box) {
					t.Fatalf("item %d (%T): box %v touches it outside its bounds %v", i, it, box, Bounds(it))
				}
				continue
			}
			clear++
			for y := int(box.Min.Y); y < int(box.Max.Y)+1; y++ {
				for x := int(box.Min.X); x < int(box.Max.X)+1; x++ {
					if x >= 200 || y >= 200 || float64(x+1) <= box.Min.X || float64(x) >= box.Max.X || float64(y+1) <= box.Min.Y || float64(y) >= box.Max.Y {
						continue
					}
					if c := colorAt(img, x, y); c != White {
						t.Fatalf("item %d (%T): box %v is called clear, but (%d,%d) is painted %v", i, it, box, x, y, c)
					}
				}
			}
		}
		if clear == 0 || touched == 0 {
			t.Errorf("item %d: %d boxes clear, %d touched: the test says nothing", i, clear, touched)
		}
	}
}

// TextBox is where the letters are: every painted pixel of a text lies in
// its box.
func TestTextBoxHoldsTheLetters(t *testing.T) {
	tx := &Text{At: Pt(50, 30), S: "StP Gal", Size: 13, Bold: true, Anchor: Middle, Color: Black, Halo: Black}
	img := (&Picture{Width: 100, Height: 50, Background: White, Items: []Item{tx}}).Render()
	box := TextBox(tx)
	if box.Max.X-box.Min.X < 30 || box.Max.Y-box.Min.Y < 10 {
		t.Fatalf("box %v too small for the text", box)
	}
	for y := 0; y < 50; y++ {
		for x := 0; x < 100; x++ {
			if colorAt(img, x, y) != White && (float64(x) < box.Min.X || float64(x) >= box.Max.X || float64(y) < box.Min.Y || float64(y) >= box.Max.Y) {
				t.Fatalf("(%d,%d) painted outside the box %v", x, y, box)
			}
		}
	}
}
