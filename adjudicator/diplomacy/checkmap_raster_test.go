package diplomacy

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
)

// pixelCounts is rasterCounts done the plain way, pixel by pixel, every
// edge of a shape tried on every row of it: what the checks counted
// before rasterCounts counted run by run. TestRasterCountsArePixelCounts
// holds the two equal.
func pixelCounts(m *Map, g *Geometry) (contact, overlap, area []int) {
	w, h := int(math.Ceil(g.Width)), int(math.Ceil(g.Height))
	n := len(m.Provinces)
	lab := make([]int, w*h)
	overlap, area, contact = make([]int, n*n), make([]int, n), make([]int, n*n)
	for i := range lab {
		lab[i] = -1
	}
	for pi, rings := range g.Shapes {
		minY, maxY := math.Inf(1), math.Inf(-1)
		for _, r := range rings {
			for _, p := range r {
				minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
			}
		}
		var xs []float64
		for y := max(0, int(minY)); y <= min(h-1, int(maxY)); y++ {
			cy := float64(y) + 0.5
			xs = xs[:0]
			for _, r := range rings {
				for i := range r {
					a, b := r[i], r[(i+1)%len(r)]
					if (a.Y > cy) != (b.Y > cy) {
						xs = append(xs, a.X+(cy-a.Y)*(b.X-a.X)/(b.Y-a.Y))
					}
				}
			}
			sort.Float64s(xs)
			for k := 0; k+1 < len(xs); k += 2 {
				for x := max(0, int(math.Ceil(xs[k]-0.5))); x <= min(w-1, int(math.Floor(xs[k+1]-0.5))); x++ {
					if prev := lab[y*w+x]; prev >= 0 && prev != pi {
						overlap[min(prev, pi)*n+max(prev, pi)]++
					}
					lab[y*w+x] = pi
					area[pi]++
				}
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := lab[y*w+x]
			if a < 0 {
				continue
			}
			for _, d := range [][2]int{{1, 0}, {0, 1}, {2, 0}, {0, 2}} {
				xx, yy := x+d[0], y+d[1]
				if xx >= w || yy >= h {
					continue
				}
				if (d[0] == 2 || d[1] == 2) && lab[(y+d[1]/2)*w+x+d[0]/2] != -1 {
					continue
				}
				if b := lab[yy*w+xx]; b >= 0 && b != a {
					contact[a*n+b]++
					contact[b*n+a]++
				}
			}
		}
	}
	return contact, overlap, area
}

// TestRasterCountsArePixelCounts: the run-by-run counts of the picture
// checks are the pixel-by-pixel ones, on the shipped maps and on the
// test board with each of its broken shapes (overlap, gap, hairline).
func TestRasterCountsArePixelCounts(t *testing.T) {
	type board struct {
		name string
		m    *Map
	}
	var boards []board
	if !raceEnabled { // the pixel loops take seconds under the race detector: the small boards only there
		for _, name := range MapNames() {
			m, _ := MapByName(name)
			boards = append(boards, board{name, m})
		}
	}
	for i, edit := range [][2]string{
		{"", ""},
		{"geo-shape hil | 100,0 200,0 200,100 100,100", "geo-shape hil | 100,0 250,0 250,100 100,100"},
		{"geo-shape eas | 200,0 300,0 300,100 200,100", "geo-shape eas | 210,0 300,0 300,100 210,100"},
		{"geo-shape eas | 200,0 300,0 300,100 200,100", "geo-shape eas | 201.2,0 300,0 300,100 201.2,100"},
		{"geo-shape bay | 0,100 300,100 300,200 0,200", "geo-shape bay | 0,101.3 300,101.3 300,200 0,200"},
		{"geo-shape bay | 0,100 300,100 300,200 0,200", "geo-shape bay | 0,102 150,80 300,101 300,200 0,200"},
	} {
		text := strings.Replace(trioText(t), edit[0], edit[1], 1)
		m, err := ParseMap("trio.map", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, board{"trio edit " + string(rune('0'+i)), m})
	}
	for _, b := range boards {
		g, err := b.m.Geometry()
		if err != nil {
			t.Fatal(err)
		}
		c1, o1, a1 := rasterCounts(b.m, g)
		c2, o2, a2 := pixelCounts(b.m, g)
		if !slices.Equal(c1, c2) || !slices.Equal(o1, o2) || !slices.Equal(a1, a2) {
			t.Errorf("%s: the run counts differ from the pixel counts", b.name)
		}
	}
}
