package diplomacy

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// groupSVG returns the SVG of the group with the id, nested groups and
// all ("" when there is none).
func groupSVG(svg, id string) string {
	start := strings.Index(svg, `<g id="`+id+`">`)
	if start < 0 {
		return ""
	}
	depth := 0
	for i := start; i < len(svg); {
		open, close := strings.Index(svg[i:], "<g"), strings.Index(svg[i:], "</g>")
		if close < 0 {
			return svg[start:]
		}
		if open >= 0 && open < close {
			depth++
			i += open + 2
			continue
		}
		depth--
		i += close + 4
		if depth == 0 {
			return svg[start:i]
		}
	}
	return svg[start:]
}

// findGroup returns the scene's group with the id.
func findGroup(items []picture.Item, id string) *picture.Group {
	for _, it := range items {
		if g, ok := it.(*picture.Group); ok {
			if g.ID == id {
				return g
			}
			if f := findGroup(g.Items, id); f != nil {
				return f
			}
		}
	}
	return nil
}

// eventGame plays, on the standard map, a Fall movement phase with every
// kind of event, its retreats and the winter's adjustments, and returns
// each phase's state after it and its results.
func eventGame(t *testing.T) (e *Engine, states, results [][]byte) {
	t.Helper()
	e, ok := NewEngine("standard")
	if !ok {
		t.Fatal("no standard map")
	}
	state := []byte(`{"version": 1, "variant": "standard", "phase": {"season": "fall", "year": 1901, "type": "movement"},
	"units": [
	  {"power": "france", "type": "army", "province": "par"}, {"power": "france", "type": "army", "province": "bur"},
	  {"power": "germany", "type": "army", "province": "mun"}, {"power": "germany", "type": "army", "province": "ruh"},
	  {"power": "germany", "type": "army", "province": "kie"}, {"power": "germany", "type": "fleet", "province": "hel"},
	  {"power": "england", "type": "army", "province": "den"}, {"power": "england", "type": "army", "province": "yor"},
	  {"power": "england", "type": "fleet", "province": "nth"},
	  {"power": "italy", "type": "army", "province": "ven"}, {"power": "austria", "type": "army", "province": "vie"},
	  {"power": "russia", "type": "fleet", "province": "sev"}, {"power": "russia", "type": "army", "province": "rum"},
	  {"power": "russia", "type": "army", "province": "ukr"}, {"power": "russia", "type": "army", "province": "mos"},
	  {"power": "turkey", "type": "fleet", "province": "bla"}, {"power": "turkey", "type": "army", "province": "arm"}],
	"supply_centers": {"par": "france", "bre": "france", "mar": "france", "mun": "germany", "kie": "germany", "ber": "germany",
	  "lon": "england", "edi": "england", "lvp": "england", "ven": "italy", "vie": "austria",
	  "sev": "russia", "mos": "russia", "ank": "turkey"}}`)
	phases := []map[string]string{{
		"france":  "A Par - Pic",
		"germany": "A Mun - Bur\nA Ruh S A Mun - Bur\nA Kie - Den\nF Hel S A Kie - Den",
		"england": "F Nth C A Yor - Nwy\nA Yor - Nwy",
		"italy":   "A Ven - Tyr",
		"austria": "A Vie - Tyr",
		"russia":  "A Ukr S A Rum",
		"turkey":  "F Bla - Sev\nA Arm S F Bla - Sev",
	}, {
		"france":  "A Bur R Gas",
		"england": "A Den D",
	}, {
		"france": "Build A Par",
	}}
	for i, orders := range phases {
		sent := map[string][]string{}
		for p, text := range orders {
			ck, err := e.Check(state, p, text)
			if err != nil {
				t.Fatal(err)
			}
			if len(ck.Canonical) != strings.Count(text, "\n")+1 {
				t.Fatalf("phase %d, %s: %q read as %q", i, p, text, ck.Canonical)
			}
			sent[p] = ck.Canonical
		}
		out, err := e.Resolve(state, sent, 0)
		if err != nil {
			t.Fatal(err)
		}
		states, results = append(states, out.Next), append(results, out.Report.Data)
		state = out.Next
	}
	return e, states, results
}

// TestPictureEveryEvent draws a movement phase, its retreats and the
// adjustments after them, and finds in each picture's SVG the mark of
// each kind of event: move, support, support to hold, convoy, failed
// move, standoff, dislodgement (inside its own province, with its retreat
// options, or struck out when it has none), retreat, disband forced and
// ordered (the same mark), build, and each symbol in the legend.
func TestPictureEveryEvent(t *testing.T) {
	e, states, results := eventGame(t)
	m := e.Map()
	b, _ := m.board()
	draw := func(i int) (*picture.Picture, string) {
		p, err := e.Draw(states[i], results[i], "")
		if err != nil {
			t.Fatal(err)
		}
		return p, string(picturetest.SVG(t, p))
	}
	has := func(t *testing.T, svg, id string, want ...string) string {
		t.Helper()
		g := groupSVG(svg, id)
		if g == "" {
			t.Errorf("no mark %q in the SVG", id)
			return ""
		}
		for _, w := range want {
			if !strings.Contains(g, w) {
				t.Errorf("mark %q has no %q:\n%s", id, w, g)
			}
		}
		return g
	}
	cross := fmt.Sprintf(`stroke="#%02x%02x%02x"`, crossColor.R, crossColor.G, crossColor.B)
	t.Run("movement", func(t *testing.T) {
		p, svg := draw(0)
		has(t, svg, "move-par-pic", "<path")
		has(t, svg, "support-ruh-mun-bur", `stroke-dasharray="7 4"`)
		has(t, svg, "hold-support-ukr-rum", `stroke-dasharray="7 4"`)
		has(t, svg, "convoy-nth-nwy", `stroke-dasharray="1.5 3.5"`)
		has(t, svg, "move-yor-nwy", "Q") // a convoyed move is bent
		has(t, svg, "failed-move-ven-tyr", `fill="#ffffff"`)
		has(t, svg, "cross-failed-move-ven-tyr", cross)
		has(t, svg, "failed-move-vie-tyr")
		has(t, svg, "standoff-tyr", "<path")
		has(t, svg, "dislodged-bur", `stroke-dasharray="7 3 1.5 3"`, cross)
		has(t, svg, "dislodged-den", `stroke-dasharray="7 3 1.5 3"`)
		if g := has(t, svg, "dislodged-sev", cross); strings.Contains(g, "7 3 1.5 3") {
			t.Error("F Sev has no retreat, but retreat arrows are drawn")
		}
		// The struck-out mark: the cross's two strokes.
		if g := groupSVG(svg, "dislodged-sev"); strings.Count(g, cross) < 2 {
			t.Errorf("F Sev, which has no retreat, is not struck out:\n%s", g)
		}
		// A dislodged unit stands inside its own province, clear of the
		// unit that took it.
		for _, prov := range []string{"bur", "den", "sev"} {
			i := m.provIdx[prov]
			g := groupSVG(svg, "dislodged-"+prov)
			found := false
			for _, c := range b.disAt[i] {
				if !strings.Contains(g, fmt.Sprintf(`M%s %s`, fmtNum(c.X+17*0.92388), fmtNum(c.Y+17*0.38268))) {
					continue
				}
				found = true
				if !insideEdges(c, edgesNear(b.regions.Shape(i), c.Y-1, c.Y+1)) {
					t.Errorf("the unit dislodged from %s stands at %v, outside it", prov, c)
				}
				if d := c.Sub(b.units[i]).Len(); d < dislodgedMin {
					t.Errorf("the unit dislodged from %s stands %.1f px from the unit that took it", prov, d)
				}
			}
			if !found {
				t.Errorf("the octagon of %s is at none of its places %v", prov, b.disAt[i])
			}
		}
		arrowsStopAtUnits(t, e, states[0], p)
	})
	t.Run("retreats", func(t *testing.T) {
		_, svg := draw(1)
		has(t, svg, "retreat-bur-gas", "<path")
		ordered := has(t, svg, "disband-den", cross)
		forced := has(t, svg, "disband-sev", cross)
		// The same mark: the unit, struck out by a cross of the same size
		// and stroke.
		strike := func(g string) string {
			for _, l := range strings.Split(g, "\n") {
				if !strings.Contains(l, cross) {
					continue
				}
				var x0, y0, x1, y1 float64
				d := l[strings.Index(l, `d="`)+3:]
				if _, err := fmt.Sscanf(d, "M%g %gL%g %g", &x0, &y0, &x1, &y1); err != nil {
					t.Fatalf("cross %q: %v", l, err)
				}
				return fmt.Sprintf("arms %.2f %s", x1-x0, l[strings.Index(l, "stroke-width"):])
			}
			return "none"
		}
		if strike(ordered) == "none" || strike(ordered) != strike(forced) {
			t.Errorf("an ordered and a forced disband are drawn differently:\n%s\n%s", ordered, forced)
		}
		for _, g := range []string{ordered, forced} {
			if !strings.Contains(g, "<text") {
				t.Errorf("a disbanded unit is not drawn:\n%s", g)
			}
		}
	})
	t.Run("adjustments", func(t *testing.T) {
		_, svg := draw(2)
		has(t, svg, "build-par", "<circle")
		// Russia (Rum and Mos, three units) disbands in civil disorder.
		if !strings.Contains(svg, `<g id="disband-`) {
			t.Error("the civil disorder disband is not drawn")
		}
		for _, key := range []string{"move", "support", "support hold", "convoy", "failed", "standoff", "dislodged", "may retreat to", "disbanded", "built", "passage", "centre"} {
			if !strings.Contains(svg, ">"+key+"</text>") {
				t.Errorf("the legend has no %q", key)
			}
		}
	})
}

// arrowsStopAtUnits: no arrowhead of a move or retreat ends inside the
// unit it reaches.
func arrowsStopAtUnits(t *testing.T, e *Engine, state []byte, p *picture.Picture) {
	t.Helper()
	pos, err := e.Position(state)
	if err != nil {
		t.Fatal(err)
	}
	var shapes []picture.Item
	if g := findGroup(p.Items, "units"); g != nil {
		for _, o := range leaves(nil, g.Items) {
			switch o.it.(type) {
			case *picture.Circle, *picture.Path:
				shapes = append(shapes, o.it)
			}
		}
	}
	if len(shapes) < len(pos.Units) {
		t.Fatalf("%d unit shapes for %d units", len(shapes), len(pos.Units))
	}
	ords := findGroup(p.Items, "orders")
	n := 0
	for _, g := range ords.Items {
		g := g.(*picture.Group)
		if !strings.Contains(g.ID, "move-") && !strings.Contains(g.ID, "retreat-") {
			continue
		}
		for _, it := range g.Items {
			a := it.(*picture.Arrow)
			n++
			for _, s := range shapes {
				if paintedInside(s, a.To) {
					t.Errorf("%s: the arrowhead's tip %v is inside a unit", g.ID, a.To)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no move arrows")
	}
}

// paintedInside reports whether q is inside a filled shape.
func paintedInside(it picture.Item, q picture.Point) bool {
	switch v := it.(type) {
	case *picture.Circle:
		return v.Fill.A != 0 && q.Sub(v.C).Len() < v.R
	case *picture.Path:
		if v.Fill.A == 0 {
			return false
		}
		for _, r := range v.Rings {
			if insideEdges(q, edgesNear([][]picture.Point{r}, q.Y-1, q.Y+1)) {
				return true
			}
		}
	}
	return false
}

// TestNamesClear: in a busy phase of each shipped map, no province's name
// (nor its centre ring) is touched by a unit, an arrow, a burst or any
// other mark of the phase (issue 31 item 6), and a name moved out of their
// way lands on no other name.
func TestNamesClear(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			e, _ := NewEngine(name)
			st, res, _ := midGame(t, e)
			p := picturetest.MustDraw(t, e, st, res, "")
			var marks []obstacle
			for _, id := range []string{"orders", "units", "marks"} {
				g := findGroup(p.Items, id)
				if g == nil {
					t.Fatalf("no group %s", id)
				}
				marks = leaves(marks, g.Items)
			}
			labels := leaves(nil, findGroup(p.Items, "names").Items)
			labels = leaves(labels, findGroup(p.Items, "centres").Items)
			if len(labels) < len(e.Map().Provinces) {
				t.Fatalf("%d names for %d provinces", len(labels), len(e.Map().Provinces))
			}
			// A name that moved keeps clear of every other name.
			b, _ := e.Map().board()
			names := findGroup(p.Items, "names").Items
			for i, a := range names {
				ta := a.(*picture.Text)
				for j := i + 1; j < len(names); j++ {
					tb := names[j].(*picture.Text)
					moved := ta.At != b.names[i][0].Add(picture.Pt(0, 4)) || tb.At != b.names[j][0].Add(picture.Pt(0, 4))
					if moved && picture.TextBox(ta).Overlaps(picture.TextBox(tb)) {
						t.Errorf("%s and %s overlap", ta.S, tb.S)
					}
				}
			}
			for _, l := range labels {
				box := l.box
				what := "a centre ring"
				if tx, ok := l.it.(*picture.Text); ok {
					box, what = picture.TextBox(tx), tx.S
				}
				for _, mk := range marks {
					if picture.Touches(mk.it, box) {
						t.Errorf("%s (%v) is covered by a %T at %v", what, box, mk.it, mk.box)
					}
				}
			}
		})
	}
}
