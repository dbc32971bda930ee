package supremacy

import (
	"bytes"
	"html"
	"strings"
	"testing"
)

// TestWorldMapShapes: on the shipped scenario's world map every area is a
// shape of its own (no two overlap: TestLayoutTruthful) big enough to see,
// named in full, and its city and company glyphs are at least 11 px.
func TestWorldMapShapes(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	svg := string(svgOf(t, mustDraw(t, e, st, nil, "")))
	b, err := e.sc.drawing()
	if err != nil {
		t.Fatal(err)
	}
	lab, _, _ := areaRaster(b)
	size := make([]int, len(e.sc.areas))
	for _, a := range lab {
		if a >= 0 {
			size[a]++
		}
	}
	for a, ar := range e.sc.areas {
		if size[a] < 60 {
			t.Errorf("area %s covers %d px of the picture, want at least 60", ar.ID, size[a])
		}
		for _, line := range nameLines(ar.Name, !ar.sea) {
			if !strings.Contains(svg, ">"+html.EscapeString(line)+"</text>") {
				t.Errorf("area %s: its name %q is not written on the map", ar.ID, line)
			}
		}
		if strings.Contains(svg, ">"+ar.ID+"</text>") || strings.Contains(svg, ">"+strings.ToUpper(ar.ID)+"</text>") {
			t.Errorf("area %s is labelled by its id", ar.ID)
		}
	}
	if citySide < 11 || companySide < 11 {
		t.Errorf("city %v px, company %v px: want glyphs of at least 11 px", citySide, companySide)
	}
}

// TestWorldMapBudget: the largest results picture (a player's, with every
// kind of event and its own list) stays within a results mail's budget.
func TestWorldMapBudget(t *testing.T) {
	e := shipped(t)
	st, res, _ := everyEvent(t)
	p := mustDraw(t, e, st, res, "china")
	var buf bytes.Buffer
	if err := p.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 200<<10 {
		t.Errorf("PNG of %d bytes, budget 200 KB", buf.Len())
	}
}
