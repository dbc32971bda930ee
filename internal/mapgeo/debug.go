package main

import (
	"fmt"
	"math"
	"os"
	"sort"

	"pbemd/picture"
)

// writeDebug draws the traced regions, each province in its own colour with
// its id at its unit point, at the picture's size.
func (g *grid) writeDebug(path string, sk *sketch, chains []chain) error {
	p := &picture.Picture{Width: g.w / 2, Height: g.h / 2, Background: picture.RGB(40, 40, 40)}
	var shapes [][][]picture.Point
	var fill []picture.Color
	for l := 0; l < g.nProv+2; l++ {
		var rs [][]picture.Point
		for _, r := range rings(chains, l) {
			var pts []picture.Point
			for _, q := range r {
				pts = append(pts, picture.Pt(q[0]/2, q[1]/2))
			}
			rs = append(rs, pts)
		}
		shapes = append(shapes, rs)
		var c picture.Color
		switch {
		case l == g.nProv:
			c = picture.RGB(170, 170, 170)
		case l == g.nProv+1:
			c = picture.RGB(120, 120, 170)
		case g.isSea[l]:
			c = picture.Colors[l%7].Mix(picture.RGB(40, 60, 160), 0.7)
		default:
			c = picture.Colors[l%7].Mix(picture.White, 0.3)
		}
		fill = append(fill, c)
	}
	p.Add(&picture.RegionFill{Set: picture.NewRegions("", shapes, nil), Fill: fill})
	for l := 0; l < g.nProv+2; l++ {
		p.Add(&picture.Path{Rings: shapes[l], Style: picture.Style{Stroke: picture.Black, StrokeWidth: 0.8}})
	}
	for l, pl := range g.places(sk) {
		p.Add(&picture.Circle{C: picture.Pt(pl.unit[0]/2, pl.unit[1]/2), R: 3, Style: picture.Style{Fill: picture.Black}})
		p.Add(&picture.Text{At: picture.Pt(pl.label[0]/2, pl.label[1]/2+4), S: g.ids[l], Size: 11, Anchor: picture.Middle, Color: picture.Black, Halo: picture.White})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return p.WritePNG(f)
}

// report lists where the traced picture and the board's adjacency
// disagree: regions sharing a border at least minTouch long (and not
// a point) that are not
// adjacent, and adjacent ones that share no border and are neither linked
// nor joined by a strait (nil: the board has none).
func (g *grid) report(adjacent, strait func(a, b string) bool, minTouch float64, chains []chain, links [][2]string) {
	linked := map[[2]string]bool{}
	for _, l := range links {
		linked[l] = true
		linked[[2]string{l[1], l[0]}] = true
	}
	shared := map[[2]int]float64{}
	for _, c := range chains {
		a, b := c.left, c.right
		if a < 0 || b < 0 || a >= g.nProv || b >= g.nProv {
			continue
		}
		if a > b {
			a, b = b, a
		}
		for i := 1; i < len(c.pts); i++ {
			shared[[2]int{a, b}] += math.Hypot(c.pts[i][0]-c.pts[i-1][0], c.pts[i][1]-c.pts[i-1][1])
		}
	}
	var lines []string
	for k, l := range shared {
		if l > 0 && l >= minTouch && !adjacent(g.ids[k[0]], g.ids[k[1]]) {
			lines = append(lines, fmt.Sprintf("touch but not adjacent: %s %s (%.0f px)", g.ids[k[0]], g.ids[k[1]], l/2))
		}
	}
	for a := 0; a < g.nProv; a++ {
		for b := a + 1; b < g.nProv; b++ {
			x, y := g.ids[a], g.ids[b]
			if adjacent(x, y) && shared[[2]int{a, b}] < 6 && !linked[[2]string{x, y}] && (strait == nil || !strait(x, y)) {
				lines = append(lines, fmt.Sprintf("adjacent but no border: %s %s (%.1f px)", x, y, shared[[2]int{a, b}]/2))
			}
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("%d disagreements\n", len(lines))
}
