package supplychain

import (
	"fmt"
	"math"
	"strings"

	"pbemd/picture"
)

// This file marks on the table what a phase changed (its results' Marks):
//   - a "This turn" banner under the title, one line per player who did
//     something (and the Listing Agent): the words and cards of what they
//     did ("Red: bought AD1 · placed AD1, CM3"); the reader's own line
//     large, so that on a phone, where the picture is shown at about a
//     third of its size, a player reads what happened to his own cards
//     without zooming;
//   - every changed card still on the table (listing, Stale Sale pile,
//     tableaux, the reader's hand) ringed in the colour of the player who
//     changed it, with the word on a tab above it ("BOUGHT", "PLACED"); a
//     revenue route's cards are ringed, the word on its first card only.
// Cards that left the table (discarded into a deck) are named in the
// banner. Marks name only cards the public report names, so they are the
// same for every reader.

// actorColor is the ring colour of a mark.
func actorColor(m Mark) picture.Color {
	if c, ok := seatColors[m.Power]; ok {
		return c
	}
	return textColor // the Listing Agent
}

// mark rings card c drawn at (x, y), w×h, when the phase changed it, with
// a tab naming what happened.
func (cv *canvas) mark(g *game, c int, x, y, w, h float64) {
	ms := cv.marks[g.card(c).Code]
	if len(ms) == 0 {
		return
	}
	m := ms[len(ms)-1]
	col := actorColor(m)
	cv.marked = append(cv.marked, &picture.Path{Rings: [][]picture.Point{rect(x-4, y-4, w+8, h+8)}, Style: picture.Style{Stroke: col, StrokeWidth: 4}})
	var words []string
	for _, m := range ms {
		if m.What == markRevenue && !cv.firstOfRoute(g, c, m) {
			continue
		}
		word := strings.ToUpper(m.What)
		if m.What == markStale {
			word = "STALE"
		}
		if len(words) == 0 || words[len(words)-1] != word {
			words = append(words, word)
		}
	}
	if len(words) == 0 {
		return
	}
	label := strings.Join(words, " · ")
	tw := picture.TextWidth(label, 12, true) + 10
	tx := x + w + 4 - tw
	cv.marked = append(cv.marked, &picture.Path{Rings: [][]picture.Point{rect(tx, y-20, tw, 17)}, Style: picture.Style{Fill: col, Stroke: textColor, StrokeWidth: 1}},
		&picture.Text{At: picture.Pt(tx+5, y-7.5), S: label, Size: 12, Bold: true, Color: contrast(col)})
}

// firstOfRoute tells whether c is the first card of m's player's revenue
// route among the marks.
func (cv *canvas) firstOfRoute(g *game, c int, m Mark) bool {
	return cv.routeStart[m.Power] == g.card(c).Code
}

// halfPrices are the prices of cards in the Stale Sale pile.
func (g *game) halfPrices(cards []int) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = money(g.d.ceilStep((g.card(c).Price + 1) / 2))
	}
	return out
}

// chips draws cards as chips, left to right, wrapping: their code on
// their kind's colour, their name, and a note (a price) at the right. The
// Stale Sale pile is drawn so, and in a results picture the reader's hand.
func (g *game) chips(cv *canvas, cards []int, notes []string) {
	x := pad
	cv.y = math.Round(cv.y + 2)
	for i, c := range cards {
		if x+chipW > cv.w-pad {
			x = pad
			cv.y += chipH + 8
			if len(cv.marks) > 0 {
				cv.y += 14 // room for a mark's tab
			}
		}
		card := g.card(c)
		f := facesOf(g.d)[c]
		strip := kindColor(card)
		note := ""
		if i < len(notes) {
			note = notes[i]
		}
		codeW := math.Ceil(picture.TextWidth(f.code, 12, true) + 8)
		noteW := picture.TextWidth(note, 11, false) + 6
		cv.add(&picture.Path{Rings: [][]picture.Point{rect(x, cv.y, chipW, chipH)}, Style: picture.Style{Fill: cardColor}},
			&picture.Path{Rings: [][]picture.Point{rect(x, cv.y, codeW, chipH)}, Style: picture.Style{Fill: strip}},
			&picture.Path{Rings: [][]picture.Point{rect(x+0.5, cv.y+0.5, chipW-1, chipH-1)}, Style: picture.Style{Stroke: lineColor, StrokeWidth: 1}},
			&picture.Text{At: picture.Pt(x+4, cv.y+15.5), S: f.code, Size: 12, Bold: true, Color: contrast(strip)},
			&picture.Text{At: picture.Pt(x+codeW+4, cv.y+15.5), S: fit(card.Name, chipW-codeW-noteW-8, 11, false), Size: 11, Color: textColor})
		if note != "" {
			cv.add(&picture.Text{At: picture.Pt(x+chipW-4, cv.y+15.5), S: note, Size: 11, Anchor: picture.End, Color: mutedColor})
		}
		cv.mark(g, c, x, cv.y, chipW, chipH)
		x += chipW + 8
	}
	cv.y += chipH + 16
}

// banner writes the "This turn" lines: per player, in seat order, then the
// Listing Agent, what they did to which cards.
func (g *game) banner(cv *canvas, viewer int, marks []Mark) {
	if len(marks) == 0 {
		return
	}
	cv.routeStart = map[string]string{}
	type line struct {
		words []string
		cards map[string][]string
	}
	lines := map[string]*line{}
	for _, m := range marks {
		if m.What == markRevenue {
			if _, ok := cv.routeStart[m.Power]; !ok {
				cv.routeStart[m.Power] = m.Card
			}
		}
		l := lines[m.Power]
		if l == nil {
			l = &line{cards: map[string][]string{}}
			lines[m.Power] = l
		}
		if len(l.cards[m.What]) == 0 {
			l.words = append(l.words, m.What)
		}
		if cs := l.cards[m.What]; len(cs) == 0 || cs[len(cs)-1] != m.Card {
			l.cards[m.What] = append(l.cards[m.What], m.Card)
		}
	}
	var who []string
	for _, p := range g.players {
		who = append(who, p.power)
	}
	who = append(who, "")
	cv.y += 8
	for _, p := range who {
		l := lines[p]
		if l == nil {
			continue
		}
		var parts []string
		for _, w := range l.words {
			sep := ", "
			if w == markRevenue {
				sep = " → "
			}
			parts = append(parts, fmt.Sprintf("%s %s", w, strings.Join(l.cards[w], sep)))
		}
		name := "The Listing Agent"
		if p != "" {
			name = titleCase(p)
		}
		text := name + ": " + strings.Join(parts, " · ")
		size := 15.0
		own := viewer >= 0 && g.players[viewer].power == p
		if own {
			size = 26
		}
		cv.y += size + 4
		col := actorColor(Mark{Power: p})
		cv.add(&picture.Path{Rings: [][]picture.Point{rect(pad, cv.y-size*0.8, size*0.8, size*0.8)}, Style: picture.Style{Fill: col, Stroke: textColor}},
			&picture.Text{At: picture.Pt(pad+size, cv.y), S: fit(text, cv.w-2*pad-size, size, own), Size: size, Bold: own, Color: textColor})
	}
	cv.y += 6
}

// chipItems draws card c of another team's tableau in a results picture:
// a w×h chip in its kind's colour with its code, its chain links as dots.
func (g *game) chipItems(c int, x, y, w, h float64, rot int, border picture.Color) []picture.Item {
	card := g.card(c)
	strip := kindColor(card)
	st := picture.Style{Stroke: lineColor, StrokeWidth: 1}
	if border.A != 0 {
		st.Stroke, st.StrokeWidth, st.Dash = border, 2, []float64{4, 2}
	}
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{rect(x, y, w, h)}, Style: picture.Style{Fill: strip}},
		&picture.Path{Rings: [][]picture.Point{rect(x+0.5, y+0.5, w-1, h-1)}, Style: st},
		&picture.Text{At: picture.Pt(x+w/2, y+h/2+4.5), S: card.Code, Size: 12, Bold: true, Anchor: picture.Middle, Color: contrast(strip)},
	}
	links := rotLinks(card.Links, rot)
	for k := 0; k < 4; k++ {
		if links&dirBits[k] != 0 {
			d := picture.Pt(x+w/2, y+h/2).Add(picture.Pt(float64(dirDX[k])*w/2, float64(dirDY[k])*h/2))
			items = append(items, &picture.Circle{C: d, R: 3, Style: picture.Style{Fill: lineColor}})
		}
	}
	return items
}
