package empire

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"pbemd/picture"
)

// This file marks on the board what the phases of a results picture did,
// each mark where it happened, drawn only where the viewer sees (or for its
// own units: the text report tells the same, by the same rule, from the
// position after the phase):
//   - moves made: a dashed trail from where a unit stood to where it
//     stands, in its power's colour;
//   - battles: a yellow burst on each contested hex and, above the units,
//     each side's losses ("R −2", in red);
//   - supply: a red cross and the name of a unit that perished or was
//     sacrificed, the name in orange of one disabled, in green of one
//     whose supply is back (short: a hex is 64 px wide at most);
//   - production: a green "+n" badge where units were bought or placed
//     from a pool, and a transformed headquarters' new name ("→FAC4");
//   - powers eliminated, in the legend.
//
// The viewer's own marks are drawn larger, as its units are: on a phone
// the picture is shown about a third of its size, and a player looks
// first for what happened to his own units.

// phaseMarks are the marks of a picture: under the units, over them, and
// the powers eliminated (for the legend).
type phaseMarks struct {
	under, over []picture.Item
	eliminated  []string
}

var (
	builtColor    = picture.Hex(0x1b7f3b)
	restoredColor = picture.Hex(0x1b7f3b)
	disabledColor = picture.Hex(0xb35900)
)

// pos is the point of a unit's position as results write it: "C4", or
// "C4-D4" (on the move: between the two).
func (b *hexBoard) pos(s string) (picture.Point, []int, bool) {
	var hs []int
	for _, part := range strings.Split(s, "-") {
		h, ok := b.w.ParseHex(part)
		if !ok {
			return picture.Point{}, nil, false
		}
		hs = append(hs, h)
	}
	c := b.centre(hs[0])
	if len(hs) > 1 {
		c = c.Lerp(b.centre(hs[1]), 0.5)
	}
	return c, hs, true
}

// lastWord is the hex ending an event line ("red RID3 -> C4").
func lastWord(s string) string { return s[strings.LastIndex(s, " ")+1:] }

func (g *Game) phaseMarks(b *hexBoard, viewer string, vis []bool, prs []PhaseResult) phaseMarks {
	var m phaseMarks
	sees := func(owner string, hs ...int) bool {
		if owner == viewer {
			return true
		}
		for _, h := range hs {
			if seen(vis, h) {
				return true
			}
		}
		return false
	}
	var trails, bursts, losses, supply, built []picture.Item
	// Labels stacked per hex, so two events in a hex do not overlap.
	below := map[int]int{}
	label := func(h int, s string, col picture.Color, own bool, cross bool) {
		c := b.centre(h)
		size := 12.0
		if own {
			size = 15
		}
		y := c.Y + b.s*0.62 + float64(below[h])*(size+2)
		below[h]++
		if cross {
			x := c.X - picture.TextWidth(s, size, true)/2 - 8
			r := size * 0.35
			supply = append(supply, &picture.Path{Lines: [][]picture.Point{
				{picture.Pt(x-r, y-size*0.35-r), picture.Pt(x+r, y-size*0.35+r)},
				{picture.Pt(x-r, y-size*0.35+r), picture.Pt(x+r, y-size*0.35-r)}},
				Style: picture.Style{Stroke: col, StrokeWidth: 3}})
		}
		supply = append(supply, &picture.Text{At: picture.Pt(c.X, y), S: s, Size: size, Bold: true, Anchor: picture.Middle, Color: col, Halo: picture.White})
	}
	// newUnits counts units that appeared per hex and power.
	type hexPower struct {
		h     int
		power string
	}
	newUnits := map[hexPower]int{}
	supplyEvents := func(evs []SupplyEvent) {
		for _, ev := range evs {
			h, ok := b.w.ParseHex(ev.Hex)
			if !ok || !sees(ev.Power, h) {
				continue
			}
			own := ev.Power == viewer
			switch ev.What {
			case "perished", "sacrificed":
				label(h, ev.Unit, noSupplyColor, own, true)
			case "disabled":
				label(h, ev.Unit, disabledColor, own, false)
			case "restored":
				label(h, ev.Unit, restoredColor, own, false)
			}
		}
	}
	for _, pr := range prs {
		m.eliminated = append(m.eliminated, pr.Eliminated...)
		switch {
		case pr.Turn != nil:
			for _, mv := range pr.Turn.Moves {
				from, fh, ok1 := b.pos(mv.From)
				to, th, ok2 := b.pos(mv.To)
				if !ok1 || !ok2 || from == to || !sees(mv.Power, append(fh, th...)...) {
					continue
				}
				wd := 2.5
				if mv.Power == viewer {
					wd = 4
				}
				trails = append(trails, &picture.Arrow{From: from, To: from.Lerp(to, 0.9), Head: 3 * wd,
					Style: picture.Style{Stroke: powerColors[mv.Power].Mix(picture.Black, 0.35), StrokeWidth: wd, Dash: []float64{2 * wd, 1.5 * wd}}})
			}
			for _, bt := range pr.Turn.Battles {
				var hs []int
				for _, name := range bt.Hexes {
					if h, ok := b.w.ParseHex(name); ok {
						hs = append(hs, h)
					}
				}
				own := bt.Before[viewer] > 0
				if len(hs) == 0 || !(own || sees("", hs...)) {
					continue
				}
				for _, h := range hs {
					bursts = append(bursts, burst(b.centre(h), b.s*0.92, b.s*0.62))
				}
				var parts []string
				for _, p := range g.Powers {
					if n := bt.Lost[p]; n > 0 {
						parts = append(parts, letterOf(p)+" −"+strconv.Itoa(n))
					}
				}
				if len(parts) == 0 {
					parts = []string{"no loss"}
				}
				size := 13.0
				if own {
					size = 16
				}
				c := b.centre(hs[0])
				losses = append(losses, &picture.Text{At: picture.Pt(c.X, c.Y-b.s*0.55), S: strings.Join(parts, " "), Size: size, Bold: true,
					Anchor: picture.Middle, Color: noSupplyColor, Halo: picture.White})
			}
			supplyEvents(pr.Turn.Supply)
		case pr.Build != nil:
			for _, pd := range pr.Build.Production {
				for _, bought := range pd.Bought {
					_, hex, _ := strings.Cut(bought, " in ")
					if h, ok := b.w.ParseHex(hex); ok && sees(pd.Power, h) {
						newUnits[hexPower{h, pd.Power}]++
					}
				}
			}
			for _, pl := range pr.Build.Placed {
				owner, _, _ := strings.Cut(pl, " ")
				if h, ok := b.w.ParseHex(lastWord(pl)); ok && sees(owner, h) {
					newUnits[hexPower{h, owner}]++
				}
			}
		case pr.Deploy != nil:
			for _, t := range pr.Deploy.Transformed {
				// "red AGHQ4 -> FAC4 in C4"
				owner, rest, _ := strings.Cut(t, " ")
				if h, ok := b.w.ParseHex(lastWord(t)); ok && sees(owner, h) {
					what, _, _ := strings.Cut(rest, " in ")
					_, to, _ := strings.Cut(what, " -> ")
					label(h, "→"+to, builtColor, owner == viewer, false)
				}
			}
			supplyEvents(pr.Deploy.Supply)
		}
	}
	keys := make([]hexPower, 0, len(newUnits))
	for k := range newUnits {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].h != keys[j].h {
			return keys[i].h < keys[j].h
		}
		return keys[i].power < keys[j].power
	})
	for i, k := range keys {
		r := 11.0
		size := 12.0
		if k.power == viewer {
			r, size = 14, 15
		}
		c := b.centre(k.h).Add(picture.Pt(-b.hw*0.3, -b.s*0.5))
		if i > 0 && keys[i-1].h == k.h {
			c = c.Add(picture.Pt(0, 2*r+2))
		}
		built = append(built, &picture.Circle{C: c, R: r, Style: picture.Style{Fill: builtColor, Stroke: powerColors[k.power], StrokeWidth: 2.5}},
			&picture.Text{At: c.Add(picture.Pt(0, size*0.36)), S: "+" + strconv.Itoa(newUnits[k]), Size: size, Bold: true, Anchor: picture.Middle, Color: picture.White})
	}
	m.under = []picture.Item{&picture.Group{ID: "battles", Items: bursts}, &picture.Group{ID: "moved", Items: trails}}
	m.over = []picture.Item{&picture.Group{ID: "losses", Items: losses}, &picture.Group{ID: "supply-events", Items: supply}, &picture.Group{ID: "built", Items: built}}
	return m
}

// burst is a star of 12 points around c: where a battle was fought.
func burst(c picture.Point, outer, inner float64) picture.Item {
	var ring []picture.Point
	for k := 0; k < 24; k++ {
		r := outer
		if k%2 == 1 {
			r = inner
		}
		a := math.Pi * float64(k) / 12
		ring = append(ring, picture.Pt(c.X+r*math.Cos(a), c.Y+r*math.Sin(a)))
	}
	return &picture.Path{Rings: [][]picture.Point{ring}, Style: picture.Style{Fill: battleColor.Alpha(220), Stroke: noSupplyColor, StrokeWidth: 1.5}}
}

// eliminatedLine is the legend's line for powers out this phase.
func eliminatedLine(powers []string) string {
	if len(powers) == 0 {
		return ""
	}
	return fmt.Sprintf("Out this phase: %s", titles(powers))
}
