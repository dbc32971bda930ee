package supremacy

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbemd/picture"
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

// TestWorldMapNamesClear: on the shipped scenario's world map no area's
// name is written over another's or runs into it, so each can be read.
func TestWorldMapNamesClear(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	svg := string(svgOf(t, mustDraw(t, e, st, nil, "")))
	type name struct {
		s              string
		x0, y0, x1, y1 float64
	}
	lines := map[string]bool{}
	twoLines := map[[2]string]bool{} // the two lines of a long name
	for _, ar := range e.sc.areas {
		ls := nameLines(ar.Name, !ar.sea)
		for _, l := range ls {
			lines[l] = true
		}
		if len(ls) == 2 {
			twoLines[[2]string{ls[0], ls[1]}] = true
		}
	}
	var names []name
	re := regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)" font-size="12" text-anchor="middle"( font-weight="bold")?[^>]*>([^<]*)</text>`)
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		s := html.UnescapeString(m[4])
		if !lines[s] {
			continue
		}
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		half := picture.TextWidth(s, labelSize, m[3] != "") / 2
		// The box of the letters: a line's baseline is at y, its
		// capitals reach 9 px above it and its descenders 3 px below.
		nm := name{s, x - half, y - 9, x + half, y + 3}
		// The second line of a name is one box with its first.
		if k := len(names) - 1; k >= 0 && twoLines[[2]string{names[k].s, s}] && nm.y0 > names[k].y0 {
			p := &names[k]
			p.s += " " + s
			p.x0, p.x1, p.y1 = min(p.x0, nm.x0), max(p.x1, nm.x1), nm.y1
			continue
		}
		names = append(names, nm)
	}
	if len(names) < len(e.sc.areas) {
		t.Fatalf("found %d names in the picture, want at least %d", len(names), len(e.sc.areas))
	}
	for i, p := range names {
		for _, q := range names[i+1:] {
			// Names closer than 1 px read as one.
			if p.x0 < q.x1+1 && q.x0 < p.x1+1 && p.y0 < q.y1+1 && q.y0 < p.y1+1 {
				t.Errorf("%q at (%.0f,%.0f) is written over %q at (%.0f,%.0f)", p.s, p.x0, p.y1, q.s, q.x0, q.y1)
			}
		}
	}
}
