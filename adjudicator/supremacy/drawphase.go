package supremacy

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"pbemd/picture"
)

// This file draws what a phase did (the marks of its Report.Data, see
// mark in world.go) over the position, in the conventions of the
// Diplomacy boards:
//   - a move is an arrow in the mover's colour; an invasion or a transport
//     bends through the sea that carried the armies;
//   - an attack (on land or at sea) is a thicker arrow ending in a burst:
//     in the attacker's colour when it won (filled head) or cleared the
//     area (hollow head), grey with a hollow head and a red cross when it
//     failed;
//   - an ICBM is a dashed arc from the launching power's home (or the minor
//     that fired it) to the place it aimed at: a red burst where it hit, a
//     grey hollow head and a cross where it was shot down;
//   - a blockade is a dashed ring round the company with dashed lines from
//     the blockading seas (grey with a cross when it failed);
//   - a seizure is a ring in the seizer's colour round the company.
//
// The picture of one player (the viewer) draws that player's own events
// (what it did, and what was done to it) larger, numbers them with big
// badges, and lists them under the legend in type a phone shows legibly
// at the picture's full width (RULES says why).

// failColor is a failed action's arrow.
var failColor = picture.Hex(0x8c8c8c)

// ownScale is how much larger the viewer's own events are drawn.
const ownScale = 1.7

// Sizes of the viewer's strip (its text, one line's height, its most
// lines) and of the badges that number the viewer's events: the picture
// shown 390 px wide on a phone, the strip's text is 11 px high, a badge
// 13 px across.
const (
	stripText   = 38
	stripLine   = 50
	stripLines  = 6
	badgeRadius = 22
	badgeText   = 28
)

// phaseDrawing is what one picture draws of a phase.
type phaseDrawing struct {
	under, over []picture.Item // arrows under the forces; bursts, crosses and badges over them
	own         []ownEvent     // the viewer's events, numbered in order
}

// ownEvent is one line of the viewer's strip.
type ownEvent struct {
	text string
}

// anchorPair returns the anchors of areas x and y nearest each other: for
// an area drawn in several pieces, the piece nearest the other area.
func (b *board) anchorPair(x, y int) (picture.Point, picture.Point) {
	best := math.Inf(1)
	var p, q picture.Point
	for _, a := range b.anchors[x] {
		for _, c := range b.anchors[y] {
			if d := a.Sub(c).Len(); d < best-1e-9 {
				best, p, q = d, a, c
			}
		}
	}
	return p, q
}

// anchorNear is area a's anchor nearest p.
func (b *board) anchorNear(a int, p picture.Point) picture.Point {
	best := math.Inf(1)
	var q picture.Point
	for _, c := range b.anchors[a] {
		if d := c.Sub(p).Len(); d < best-1e-9 {
			best, q = d, c
		}
	}
	return q
}

// shorten moves to back towards from by d pixels (not past the middle).
func shorten(from, to picture.Point, d float64) picture.Point {
	v := to.Sub(from)
	l := v.Len()
	if l == 0 {
		return to
	}
	d = math.Min(d, l/2)
	return to.Sub(v.Scale(d / l))
}

// aside is where an arrow's badge goes: beside the middle of its shaft.
func aside(from, to picture.Point) picture.Point {
	v := to.Sub(from)
	l := v.Len()
	if l == 0 {
		return from.Add(picture.Pt(20, -20))
	}
	n := picture.Pt(v.Y, -v.X).Scale((badgeRadius + 6) / l)
	if n.Y > 0 {
		n = n.Scale(-1) // above the arrow
	}
	return from.Lerp(to, 0.45).Add(n)
}

// burst is a star of n points round c (radius r outside, r/2 inside).
func burst(c picture.Point, r float64, n int, fill picture.Color) picture.Item {
	pts := make([]picture.Point, 0, 2*n)
	for k := 0; k < 2*n; k++ {
		rr := r
		if k%2 == 1 {
			rr = r * 0.5
		}
		a := math.Pi*float64(k)/float64(n) - math.Pi/2
		pts = append(pts, c.Add(picture.Pt(rr*math.Cos(a), rr*math.Sin(a))))
	}
	return &picture.Path{Rings: [][]picture.Point{pts}, Style: picture.Style{Fill: fill, Stroke: picture.White, StrokeWidth: 1.4}}
}

// failCross is a red cross with a white casing: a failure.
func failCross(c picture.Point, r float64) []picture.Item {
	segs := [][]picture.Point{{c.Add(picture.Pt(-r, -r)), c.Add(picture.Pt(r, r))}, {c.Add(picture.Pt(-r, r)), c.Add(picture.Pt(r, -r))}}
	return []picture.Item{
		&picture.Path{Lines: segs, Style: picture.Style{Stroke: picture.White, StrokeWidth: r * 0.9}},
		&picture.Path{Lines: segs, Style: picture.Style{Stroke: crossColor, StrokeWidth: r * 0.45}},
	}
}

// arrowWithCasing is a: under a white casing a little wider, so it reads
// on any fill.
func arrowWithCasing(a *picture.Arrow) []picture.Item {
	c := *a
	c.Style = picture.Style{Stroke: picture.White, StrokeWidth: a.StrokeWidth + 2.6, Dash: a.Dash}
	c.HeadFill = picture.Color{}
	c.Head = a.Head + 2.5
	return []picture.Item{&c, a}
}

// bend makes a an arc through via (or, with via nil, bowed to its left by
// a fifth of its length: an ICBM's flight).
func bend(a *picture.Arrow, via *picture.Point) {
	if via != nil {
		a.Curve, a.Via = true, *via
		return
	}
	v := a.To.Sub(a.From)
	n := picture.Pt(v.Y, -v.X)
	if n.Y > 0 {
		n = n.Scale(-1) // bow upwards, as a flight reads
	}
	a.Curve, a.Via = true, a.From.Lerp(a.To, 0.5).Add(n.Scale(0.22))
}

// drawPhase draws the marks of a phase for viewer ("" the public picture).
func (b *board) drawPhase(w *world, marks []mark, viewer string) phaseDrawing {
	sc := b.sc
	var pd phaseDrawing
	// The viewer's own marks, the non-moves first, each numbered.
	var ownIdx []int
	for k, m := range marks {
		if viewer != "" && (m.Power == viewer || m.Against == viewer) {
			ownIdx = append(ownIdx, k)
		}
	}
	sort.SliceStable(ownIdx, func(x, y int) bool {
		return (marks[ownIdx[x]].Kind == "move") != (marks[ownIdx[y]].Kind == "move") && marks[ownIdx[y]].Kind == "move"
	})
	number := map[int]int{}
	for n, k := range ownIdx {
		number[k] = n + 1
	}
	for k, m := range marks {
		to, ok := sc.areaByID[m.To]
		if !ok {
			continue // a report of another scenario: nothing to draw
		}
		s := 1.0
		if number[k] > 0 {
			s = ownScale
		}
		col := textColor
		if pi, ok := sc.powerByID[m.Power]; ok {
			col = b.darks[pi]
		}
		var from []int
		for _, id := range m.From {
			if a, ok := sc.areaByID[id]; ok && a != to {
				from = append(from, a)
			}
		}
		var via *picture.Point
		if v, ok := sc.areaByID[m.Via]; ok && len(from) > 0 {
			p, q := b.anchorPair(from[0], to)
			c := b.anchorNear(v, p.Lerp(q, 0.5))
			via = &c
		}
		g := &picture.Group{ID: fmt.Sprintf("mark-%d-%s-%s-%s", k+1, m.Kind, m.Result, m.To)}
		top := &picture.Group{ID: g.ID + "-top"}
		var at picture.Point // where the badge goes
		switch m.Kind {
		case "attack", "naval", "move":
			failed := m.Result == "lost"
			st := picture.Style{Stroke: col, StrokeWidth: 4 * s}
			head := 13 * s
			if m.Kind == "move" {
				st.StrokeWidth, head = 2.6*s, 10*s
			}
			if failed {
				st.Stroke = failColor
			}
			at = b.anchors[to][0]
			// battle marks a fight at c: a burst in the attacker's colour,
			// grey with a red cross when the attack failed.
			battle := func(c picture.Point, r float64) {
				fill := col
				if failed {
					fill = failColor
				}
				top.Items = append(top.Items, burst(c, r*s, 8, fill))
				if failed {
					top.Items = append(top.Items, failCross(c, 6*s)...)
				}
			}
			for n, f := range from {
				// From inside the source across the border (the nearest
				// cells of the two areas) into the target, the burst of
				// the fight on the border; an invasion or a transport
				// from the source's anchor through the sea.
				p, q := b.nearestCells(f, to, -1)
				a := &picture.Arrow{From: p.Lerp(q, -0.45), To: q.Lerp(p, -0.1), Head: head, Style: st}
				fight := p.Lerp(q, 0.5)
				if via != nil {
					p, q = b.anchorPair(f, to)
					a.From, a.To = shorten(q, p, 6), shorten(p, q, 8*s)
					bend(a, via)
					fight = a.Via.Lerp(a.To, 0.55)
				}
				if failed || m.Result == "cleared" {
					a.HeadFill = picture.White
				}
				g.Items = append(g.Items, arrowWithCasing(a)...)
				if m.Kind != "move" {
					battle(fight, 8)
				}
				if n == 0 {
					at = aside(a.From, a.To)
				}
			}
			if len(from) == 0 && m.Kind != "move" {
				// A battle where the attacker already was (its fleet in
				// the sea it fights in): the burst alone.
				battle(at, 11)
				at = at.Add(picture.Pt(badgeRadius+8, -badgeRadius-4))
			}
		case "icbm":
			target := b.anchors[to][0]
			if c := m.City - 1; c >= 0 && c < len(b.cityAt[to]) {
				target = b.cityAt[to][c]
			} else if len(b.cityAt[to]) > 0 {
				target = b.cityAt[to][0]
			}
			origin, has := picture.Point{}, false
			if len(from) > 0 {
				origin, has = b.anchorNear(from[0], target), true
			} else if pi, ok := sc.powerByID[m.Power]; ok && len(sc.powers[pi].homes) > 0 {
				origin, has = b.anchorNear(sc.powers[pi].homes[0], target), true
			}
			hit := m.Result == "hit"
			if has && origin.Sub(target).Len() > 1 {
				st := picture.Style{Stroke: col, StrokeWidth: 2.4 * s, Dash: []float64{8, 5}}
				if !hit {
					st.Stroke = failColor
				}
				a := &picture.Arrow{From: origin, To: shorten(origin, target, 10*s), Head: 11 * s, Style: st}
				bend(a, nil)
				if !hit {
					a.HeadFill = picture.White
				}
				g.Items = append(g.Items, arrowWithCasing(a)...)
			}
			if hit {
				top.Items = append(top.Items, burst(target, 14*s, 12, crossColor))
			} else {
				top.Items = append(top.Items, failCross(target.Add(picture.Pt(0, -14*s)), 6*s)...)
			}
			at = target.Add(picture.Pt(badgeRadius+8, badgeRadius+4))
		case "blockade", "seize":
			c, ok := sc.cardByID[m.Card]
			if !ok || sc.cards[c].company == nil {
				continue
			}
			co := b.coAt[c]
			failed := m.Result == "failed"
			st := picture.Style{Stroke: col, StrokeWidth: 3 * s}
			if failed {
				st.Stroke = failColor
			}
			if m.Kind == "blockade" {
				st.Dash = []float64{4, 2.5}
				for _, f := range from {
					p := b.anchorNear(f, co)
					g.Items = append(g.Items,
						&picture.Path{Lines: [][]picture.Point{{p, shorten(p, co, 13*s)}}, Style: picture.Style{Stroke: picture.White, StrokeWidth: 2*s + 2.4}},
						&picture.Path{Lines: [][]picture.Point{{p, shorten(p, co, 13*s)}}, Style: picture.Style{Stroke: st.Stroke, StrokeWidth: 2 * s, Dash: []float64{5, 3}}})
				}
			}
			top.Items = append(top.Items,
				&picture.Circle{C: co, R: 12 * s, Style: picture.Style{Stroke: picture.White, StrokeWidth: st.StrokeWidth + 2.4}},
				&picture.Circle{C: co, R: 12 * s, Style: st})
			if failed {
				top.Items = append(top.Items, failCross(co.Add(picture.Pt(12*s, -12*s)), 5*s)...)
			}
			at = co.Add(picture.Pt(-badgeRadius-8, -badgeRadius-4))
		default:
			continue
		}
		pd.under = append(pd.under, g)
		if n := number[k]; n > 0 {
			top.Items = append(top.Items, badge(at, n, b.viewerColor(viewer))...)
			pd.own = append(pd.own, ownEvent{text: b.ownText(m, viewer)})
		}
		pd.over = append(pd.over, top)
	}
	return pd
}

// viewerColor is the colour of the viewer's badges.
func (b *board) viewerColor(viewer string) picture.Color {
	if pi, ok := b.sc.powerByID[viewer]; ok {
		return b.darks[pi]
	}
	return textColor
}

// badge is a numbered disc: which line of the viewer's strip an event is.
func badge(c picture.Point, n int, fill picture.Color) []picture.Item {
	return []picture.Item{
		&picture.Circle{C: c, R: badgeRadius, Style: picture.Style{Fill: fill, Stroke: picture.White, StrokeWidth: 2.5}},
		&picture.Text{At: c.Add(picture.Pt(0, badgeText*0.36)), S: strconv.Itoa(n), Size: badgeText, Bold: true, Anchor: picture.Middle, Color: contrast(fill)},
	}
}

// ownText is one line of the viewer's strip: what an event did, from the
// viewer's side.
func (b *board) ownText(m mark, viewer string) string {
	sc := b.sc
	area := func(id string) string {
		if a, ok := sc.areaByID[id]; ok {
			return sc.areas[a].Name
		}
		return id
	}
	power := func(id string) string {
		if pi, ok := sc.powerByID[id]; ok {
			return sc.powers[pi].Name
		}
		if len(m.From) > 0 {
			return area(m.From[0])
		}
		return "a minor power"
	}
	card := func() string {
		if c, ok := sc.cardByID[m.Card]; ok {
			return sc.cards[c].name
		}
		return m.Card
	}
	to := area(m.To)
	mine := m.Power == viewer
	them := power(m.Power)
	if mine {
		them = power(m.Against)
	}
	switch m.Kind {
	case "attack":
		switch {
		case mine && m.Result == "won":
			return "took " + to
		case mine && m.Result == "cleared":
			return "cleared " + to
		case mine:
			return "attack on " + to + " failed"
		case m.Result == "won":
			return "lost " + to + " to " + them
		case m.Result == "cleared":
			return "armies in " + to + " destroyed by " + them
		default:
			return "held " + to + " against " + them
		}
	case "naval":
		switch {
		case mine && m.Result == "won":
			return "won at sea in " + to
		case mine && m.Result == "cleared":
			return "no fleet left to fight in " + to
		case mine:
			return "lost at sea in " + to
		case m.Result == "won":
			return "fleet in " + to + " sunk by " + them
		default:
			return "fleet in " + to + " held against " + them
		}
	case "move":
		what := "armies"
		if m.Navy {
			what = "navies"
		}
		from := ""
		if len(m.From) > 0 {
			from = area(m.From[0]) + " → "
		}
		return what + " " + from + to
	case "icbm":
		place := to
		if a, ok := sc.areaByID[m.To]; ok && m.City > 0 {
			place = sc.placeName(a, m.City-1)
		}
		who := "ICBM"
		if !mine {
			who = them + "'s ICBM"
		}
		if m.N > 1 {
			who += "s"
		}
		if m.Result == "hit" {
			return who + " hit " + place
		}
		return who + " on " + place + " shot down"
	case "blockade":
		switch {
		case mine && m.Result == "held":
			return "blockaded " + card()
		case mine:
			return "blockade of " + card() + " failed"
		case m.Result == "held":
			return them + " blockaded your " + card()
		default:
			return them + "'s blockade of your " + card() + " failed"
		}
	case "seize":
		if mine {
			return "seized " + card()
		}
		return them + " seized your " + card()
	}
	return m.Kind + " " + to
}

// stripHeight is the height of the viewer's strip for n events.
func stripHeight(n int) int {
	lines := min(max(n, 1), stripLines) + 1
	return 16 + lines*stripLine
}

// strip is the viewer's strip at y0: a heading and one line per event,
// numbered as the badges on the map (at most stripLines, then how many
// more).
func (b *board) strip(y0 float64, own []ownEvent, viewer string) []picture.Item {
	h := float64(stripHeight(len(own)))
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{{{X: 0, Y: y0}, {X: float64(b.w), Y: y0}, {X: float64(b.w), Y: y0 + h}, {X: 0, Y: y0 + h}}},
			Style: picture.Style{Fill: picture.White, Stroke: borderColor, StrokeWidth: 1}},
	}
	name := viewer
	if pi, ok := b.sc.powerByID[viewer]; ok {
		name = b.sc.powers[pi].Name
	}
	y := y0 + 8 + stripLine*0.75
	items = append(items, &picture.Text{At: picture.Pt(16, y), S: name + " this phase:", Size: stripText, Bold: true, Color: textColor})
	col := b.viewerColor(viewer)
	if len(own) == 0 {
		y += stripLine
		items = append(items, &picture.Text{At: picture.Pt(16, y), S: "nothing happened to your forces", Size: stripText, Color: mutedColor})
	}
	for n, ev := range own {
		y += stripLine
		if n == stripLines-1 && len(own) > stripLines {
			items = append(items, &picture.Text{At: picture.Pt(16, y), S: fmt.Sprintf("and %d more (the mail lists them)", len(own)-n), Size: stripText, Color: mutedColor})
			break
		}
		items = append(items, badge(picture.Pt(38, y-13), n+1, col)...)
		items = append(items, &picture.Text{At: picture.Pt(72, y), S: ev.text, Size: stripText, Color: textColor})
	}
	return items
}
