package supplychain

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// This file draws the table as a picture (the adjudicator.Drawer of the
// engine): the listing and the Stale Sale pile, every team's tableau, and
// the viewer's own hand and plan.
//
// The picture shows what the viewer's text shows, no more:
//   - cards as boxes: a strip coloured by kind (offices green, special
//     offices blue, producers, suppliers, businesses, contracts, vehicles,
//     derelicts, plans each their own) with the card's code and VP, its
//     name, and what it makes, needs or earns; a chain link is a dot on
//     the edge that carries it (turned as the card lies);
//   - the listing with each card's price and taps, the Stale Sale pile at
//     half price as chips, the Deck's size and what the open decks hold;
//   - each tableau on its grid (x east, y south, as PLACE writes them,
//     the columns' x above and the rows' y at the left): cards linked
//     across an edge joined by a bar (dark when the link counts, grey when
//     it does not), the link/3VP token where it lies, derelicts others
//     attached in red, the best revenue route's cards outlined in orange
//     and the gaps between them barred (never a line over a card's text);
//   - per team: VP, money, cards in hand, best route;
//   - the viewer's hand and business plan — never another player's (their
//     number only), until the solitaire game ends as its text shows them;
//     plans are shown to all at the end, as in the text;
//   - with results, what the phase changed (drawchanges.go).
//
// Sizes: STATUS and MAP draw the viewer's tableau and hand whole and the
// other tableaux by strip and name. A results picture goes to every
// player every turn, so it keeps each results mail under 100 KB to the end
// of a game (the demo's test reads every mail's size): the viewer's
// tableau by strip and name, the others as chips of codes, the hand and
// the Stale Sale pile's changed cards as chips, a shorter legend. Card
// outlines lie on the pixel grid: a crisp edge costs the PNG's run-length
// coding one pixel a row where an antialiased one costs several.

// Colours of the seats (power ids are colours), from Okabe & Ito's palette.
var seatColors = map[string]picture.Color{
	"red": picture.Hex(0xD55E00), "blue": picture.Hex(0x0072B2), "green": picture.Hex(0x009E73),
	"yellow": picture.Hex(0xF0E442), "purple": picture.Hex(0xCC79A7), "orange": picture.Hex(0xE69F00),
}

var (
	backColor   = picture.Hex(0xf7f5ef)
	cardColor   = picture.White
	textColor   = picture.Hex(0x1e1e1e)
	mutedColor  = picture.Hex(0x6b6b6b)
	lineColor   = picture.Hex(0x4a4a4a)
	weakColor   = picture.Hex(0xa8a8a8)
	routeColor  = picture.Hex(0xe69f00)
	thornColor  = picture.Hex(0xa8002a)
	tokenColor  = picture.Hex(0xf0c419)
	emptyColor  = picture.Hex(0xdedad2)
	officeColor = picture.Hex(0x4e9a6f)
)

// kindColor is the strip colour of a card.
func kindColor(c *Card) picture.Color {
	switch c.Kind {
	case KindMainOffice, KindOffice:
		return officeColor
	case KindSpecialOffice:
		return picture.Hex(0x56B4E9)
	case KindContract:
		return picture.Hex(0xCC79A7)
	case KindVehicle:
		return picture.Hex(0x999999)
	case KindDerelict:
		return thornColor
	case KindPlan:
		return picture.Hex(0x0072B2)
	}
	switch c.Role() {
	case "business":
		return picture.Hex(0xD55E00)
	case "supplier":
		return picture.Hex(0xF0E442)
	}
	return picture.Hex(0xE69F00) // producer
}

// Card box geometry.
const (
	cardW, cardH = 112.0, 64.0
	cellW, cellH = 124.0, 84.0 // tableau grid pitch: room for the cell's x,y under a card
	miniH        = 34.0        // a compact card: its strip and name
	stripH       = 16.0
	pad          = 14.0
	pictureWidth = 1000
	axisW        = 20.0 // room for a tableau's row numbers
	// A card in the Stale Sale pile is a chip: its code on its kind's
	// colour, its name, its price.
	chipW, chipH = 160.0, 22.0
)

// palette is the fixed colour list of every picture.
var palette = sync.OnceValue(func() []picture.Color {
	out := []picture.Color{backColor, cardColor, textColor, mutedColor, lineColor, weakColor, routeColor, thornColor,
		tokenColor, emptyColor, officeColor, picture.Black, picture.Hex(0x56B4E9), picture.Hex(0xCC79A7), picture.Hex(0x999999),
		picture.Hex(0x0072B2), picture.Hex(0xD55E00), picture.Hex(0xF0E442), picture.Hex(0xE69F00)}
	for _, p := range allPowers {
		out = append(out, seatColors[p])
	}
	return out
})

// faces caches, per deck, each card's text lines fitted to a box.
var faces = struct {
	mu sync.Mutex
	m  map[*Deck][]cardFace
}{m: map[*Deck][]cardFace{}}

type cardFace struct {
	code, vp, name string
	lines          [2]string // what it makes or earns; what it needs, its street or its kind
}

func facesOf(d *Deck) []cardFace {
	faces.mu.Lock()
	defer faces.mu.Unlock()
	if f, ok := faces.m[d]; ok {
		return f
	}
	out := make([]cardFace, len(d.Cards))
	for i := range d.Cards {
		c := &d.Cards[i]
		f := cardFace{code: c.Code, name: fit(c.Name, cardW-8, 11, true)}
		if c.VP != 0 {
			f.vp = fmt.Sprintf("%d VP", c.VP)
		}
		var l1, l2 string
		switch {
		case c.Kind == KindPlan:
			l1, l2 = d.Streets[c.Plan[0]].Name, d.Streets[c.Plan[1]].Name
		case c.Revenue > 0:
			l1 = "earns " + money(c.Revenue)
		case c.Makes != 0:
			l1 = "makes " + strings.Join(d.goodNames(c.Makes), ", ")
		}
		switch e := c.Effect; e.Kind {
		case EffectHandLimit:
			l1 = fmt.Sprintf("hand limit +%d", e.Amount)
		case EffectRouteBonus:
			l1 = fmt.Sprintf("+%s a business", money(e.Amount))
		case EffectStreetVP:
			l1 = fmt.Sprintf("+%d VP a %s card", e.Amount, d.Streets[e.Street].Name)
		case EffectDiscount:
			l1 = fmt.Sprintf("%s off %s", money(e.Amount), strings.ToLower(areaPlace(e.Area)))
		}
		switch {
		case c.Kind == KindPlan:
		case c.Needs != 0:
			l2 = "needs " + strings.Join(d.goodNames(c.Needs), ", ")
		case c.Street >= 0:
			l2 = d.Streets[c.Street].Name
		default:
			l2 = c.Kind.String()
		}
		if l1 == "" {
			l1, l2 = l2, ""
		}
		f.lines = [2]string{fit(l1, cardW-8, 11, false), fit(l2, cardW-8, 11, false)}
		out[i] = f
	}
	if len(faces.m) >= 16 {
		clear(faces.m)
	}
	faces.m[d] = out
	return out
}

// fit shortens s with an ellipsis to fit w pixels.
func fit(s string, w, size float64, bold bool) string {
	if picture.TextWidth(s, size, bold) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && picture.TextWidth(string(r)+"…", size, bold) > w {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ,") + "…"
}

func rect(x, y, w, h float64) []picture.Point {
	return []picture.Point{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}
}

// contrast is black or white, whichever reads better on c.
func contrast(c picture.Color) picture.Color {
	if 0.2126*float64(c.R)+0.7152*float64(c.G)+0.0722*float64(c.B) > 140 {
		return picture.Black
	}
	return picture.White
}

// cardItems draws card c with its top left corner at (x, y), h high
// (cardH, or miniH: its strip and name only), its links turned by rot;
// border overrides the outline (thorns).
func (g *game) cardItems(c int, x, y, h float64, rot int, border picture.Color, dash []float64) []picture.Item {
	card := g.card(c)
	f := facesOf(g.d)[c]
	strip := kindColor(card)
	if border.A == 0 {
		border = lineColor
	}
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{rect(x, y, cardW, h)}, Style: picture.Style{Fill: cardColor}},
		&picture.Path{Rings: [][]picture.Point{rect(x, y, cardW, stripH)}, Style: picture.Style{Fill: strip}},
		// The outline 1 px wide on the pixel grid: crisp edges cost the
		// PNG a pixel a row, antialiased ones several.
		&picture.Path{Rings: [][]picture.Point{rect(x+0.5, y+0.5, cardW-1, h-1)}, Style: picture.Style{Stroke: border, StrokeWidth: 1, Dash: dash}},
		&picture.Text{At: picture.Pt(x+5, y+12.5), S: f.code, Size: 12, Bold: true, Color: contrast(strip)},
		&picture.Text{At: picture.Pt(x+4, y+stripH+14), S: f.name, Size: 11, Bold: true, Color: textColor},
	}
	if h >= cardH {
		items = append(items,
			&picture.Text{At: picture.Pt(x+4, y+stripH+28), S: f.lines[0], Size: 11, Color: mutedColor},
			&picture.Text{At: picture.Pt(x+4, y+stripH+42), S: f.lines[1], Size: 11, Color: mutedColor})
	}
	if f.vp != "" {
		items = append(items, &picture.Text{At: picture.Pt(x+cardW-5, y+12.5), S: f.vp, Size: 11, Bold: true, Anchor: picture.End, Color: contrast(strip)})
	}
	if card.Kind != KindPlan {
		links := rotLinks(card.Links, rot)
		for k := 0; k < 4; k++ {
			if links&dirBits[k] == 0 {
				continue
			}
			c := picture.Pt(x+cardW/2, y+h/2).Add(picture.Pt(float64(dirDX[k])*cardW/2, float64(dirDY[k])*h/2))
			items = append(items, &picture.Circle{C: c, R: 4, Style: picture.Style{Fill: lineColor, Stroke: picture.White, StrokeWidth: 1}})
		}
	}
	return items
}

var _ adjudicator.Drawer = (*Engine)(nil)

// Draw implements adjudicator.Drawer: the table of state as viewer sees it
// ("" for an observer: no hand at all), with the cards the phase of
// results changed marked.
func (e *Engine) Draw(state, results []byte, viewer string) (*picture.Picture, error) {
	g, err := e.decode(state)
	if err != nil {
		return nil, err
	}
	v := -1
	if viewer != "" {
		if v = g.playerIndex(viewer); v < 0 {
			return nil, fmt.Errorf("supplychain: unknown power %q", viewer)
		}
	}
	title := g.phaseTitle()
	var rd resultData
	if results != nil {
		if err := json.Unmarshal(results, &rd); err != nil {
			return nil, fmt.Errorf("supplychain: results: %w", err)
		}
		title += ", after the last results"
	}
	return g.drawTable(v, title, results != nil, rd.Marks), nil
}

// canvas lays a picture out from top to bottom.
type canvas struct {
	items []picture.Item
	y     float64
	w     float64
	// marks are the cards the phase changed, by code; marked gathers
	// what is drawn over the cards, last.
	marks  map[string][]Mark
	marked []picture.Item
	// results is set for a results picture: hands and the Stale Sale
	// pile as chips, the other teams' tableaux as chips of codes.
	results bool
	// routeStart is the first card of each player's revenue route
	// collected this phase, by power.
	routeStart map[string]string
}

func (cv *canvas) add(items ...picture.Item) { cv.items = append(cv.items, items...) }

func (cv *canvas) heading(s string, size float64) {
	cv.y += size + 6
	cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: s, Size: size, Bold: true, Color: textColor})
	cv.y += 6
}

// row draws cards left to right from the current line, wrapping; under
// each, its caption (may be "").
// h is the cards' height: cardH, or miniH for their strip and name.
func (g *game) row(cv *canvas, cards []int, captions []string, h float64) {
	x := pad
	cv.y = math.Round(cv.y)
	for i, c := range cards {
		if x+cardW > cv.w-pad {
			x = pad
			cv.y += h + 22
		}
		if c < 0 {
			cv.add(&picture.Path{Rings: [][]picture.Point{rect(x, cv.y, cardW, h)}, Style: picture.Style{Fill: emptyColor, Stroke: weakColor, Dash: []float64{4, 3}}},
				&picture.Text{At: picture.Pt(x+cardW/2, cv.y+h/2+4), S: "(empty)", Size: 11, Anchor: picture.Middle, Color: mutedColor})
		} else {
			cv.add(g.cardItems(c, x, cv.y, h, 0, picture.Color{}, nil)...)
			cv.mark(g, c, x, cv.y, cardW, h)
		}
		if i < len(captions) && captions[i] != "" {
			cv.add(&picture.Text{At: picture.Pt(x+cardW/2, cv.y+h+14), S: captions[i], Size: 11, Anchor: picture.Middle, Color: textColor})
		}
		x += cardW + 10
	}
	cv.y += h + 24
}

// drawTable draws the table for viewer (-1: the GM and observers). A
// results picture shows the other teams' tableaux as chips of their cards'
// codes and of the Stale Sale pile only the cards the phase changed: it
// goes in every results mail, and STATUS shows the whole table.
func (g *game) drawTable(viewer int, title string, results bool, marks []Mark) *picture.Picture {
	// The width: the widest tableau decides, at least pictureWidth.
	w := float64(pictureWidth)
	for ti := range g.teams {
		minX, maxX, _, _ := bounds(&g.teams[ti])
		w = math.Max(w, 2*pad+axisW+float64(maxX-minX+1)*cellW)
	}
	cv := &canvas{w: w, marks: map[string][]Mark{}, results: results}
	for _, m := range marks {
		cv.marks[m.Card] = append(cv.marks[m.Card], m)
	}
	cv.heading(g.d.Title+" — "+title, 16)
	g.banner(cv, viewer, marks)
	if !g.opt.Solo {
		cv.heading(fmt.Sprintf("Listing (a card goes to the Stale Sale pile at its %s tap)", ordinal(g.d.Rules.ListingRounds)), 13)
		var cards []int
		var caps []string
		for _, s := range g.listing {
			cards = append(cards, s.card)
			if s.card < 0 {
				caps = append(caps, "")
				continue
			}
			caps = append(caps, fmt.Sprintf("%s · %s", money(g.card(s.card).Price), count(s.age, "tap")))
		}
		g.row(cv, cards, caps, cardH)
		if results {
			cv.heading(fmt.Sprintf("Stale Sale pile (half price): %s (STATUS shows them) · Deck: %s", count(len(g.stale), "card"), count(len(g.draw), "card")), 13)
			var changed []int
			for _, c := range g.stale {
				if len(cv.marks[g.card(c).Code]) > 0 {
					changed = append(changed, c)
				}
			}
			if len(changed) > 0 {
				cv.y += 18
				g.chips(cv, changed, g.halfPrices(changed))
			} else {
				cv.y += 12
			}
		} else {
			cv.heading(fmt.Sprintf("Stale Sale pile (half price) · Deck: %s", count(len(g.draw), "card")), 13)
			if len(g.stale) == 0 {
				cv.y += 6
				cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: "(empty)", Size: 12, Color: mutedColor})
				cv.y += 14
			} else {
				g.chips(cv, g.stale, g.halfPrices(g.stale))
			}
		}
		cv.y += 4
		stock := fmt.Sprintf("For sale: %s, %s, %s.", count(len(g.contracts), "contract"), count(len(g.vehicles), "vehicle"), count(len(g.offices), "office"))
		cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: stock, Size: 12, Color: textColor})
		cv.y += 8
	}
	final := g.phase == phaseOver
	for ti := range g.teams {
		// STATUS and MAP: the reader's own tableau whole, the others'
		// cards their strip and name. A results picture, mailed every
		// turn to every player, keeps under its budget to the end of a
		// game: the reader's cards their strip and name, the others' a
		// chip with the code (STATUS shows the whole table).
		own := viewer >= 0 && g.players[viewer].team == ti
		sz := compactCards
		switch {
		case own && !results:
			sz = wholeCards
		case !own && results:
			sz = miniCards
		}
		g.tableau(cv, ti, viewer, final, sz)
	}
	if viewer >= 0 {
		pl := &g.players[viewer]
		if g.opt.Solo {
			cv.heading(fmt.Sprintf("Your cards left to place (%d)", len(pl.hand)), 13)
		} else {
			cv.heading(fmt.Sprintf("Your hand (%s, limit %d) · your money %s", count(len(pl.hand), "card"), g.handLimit(viewer), money(pl.money)), 13)
		}
		g.hand(cv, viewer)
	}
	g.legend(cv, results)
	p := &picture.Picture{Width: int(math.Ceil(w)), Height: int(math.Ceil(cv.y + pad)), Title: g.d.Title + ": " + title, Background: backColor, Palette: palette()}
	p.Add(&picture.Group{ID: "table", Items: cv.items}, &picture.Group{ID: "changes", Items: cv.marked})
	return p
}

// hand draws player p's hand (and the team's business plan).
func (g *game) hand(cv *canvas, p int) {
	pl := &g.players[p]
	var cards []int
	var caps []string
	for _, h := range pl.hand {
		cards = append(cards, h.card)
		note := money(g.card(h.card).Price)
		if g.opt.Solo {
			note = ""
		}
		if h.card == pl.starter {
			note = strings.TrimPrefix(note+" · your Starter", " · ")
		}
		if h.stale {
			note += " · stale"
		}
		caps = append(caps, note)
	}
	if t := g.teamOf(p); t.plan >= 0 {
		cards = append(cards, t.plan)
		caps = append(caps, "business plan")
	}
	if len(cards) == 0 {
		cv.y += 6
		cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: "(empty)", Size: 12, Color: mutedColor})
		cv.y += 14
		return
	}
	if cv.results {
		g.chips(cv, cards, caps)
		return
	}
	g.row(cv, cards, caps, cardH)
}

// bounds is the grid extent of a team's cards.
func bounds(t *team) (minX, maxX, minY, maxY int) {
	minX, maxX, minY, maxY = 0, 0, 0, 0
	first := true
	add := func(x, y int) {
		if first {
			minX, maxX, minY, maxY, first = x, x, y, y, false
			return
		}
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
	}
	for _, p := range t.placed {
		add(p.x, p.y)
	}
	for _, th := range t.thorns {
		add(th.x, th.y)
	}
	return minX, maxX, minY, maxY
}

// cardSize is how large a tableau's cards are drawn: whole, their strip
// and name (compact), or a chip with the code (mini); w×h each, on a grid
// of cellW×cellH.
type cardSize struct{ w, h, cellW, cellH float64 }

var (
	wholeCards   = cardSize{cardW, cardH, cellW, cellH}
	compactCards = cardSize{cardW, miniH, cellW, miniH + cellH - cardH}
	miniCards    = cardSize{58, 20, 68, 30}
)

// tableau draws team ti's panel: its standing line and its cards, drawn
// at size sz.
func (g *game) tableau(cv *canvas, ti, viewer int, final bool, sz cardSize) {
	t := &g.teams[ti]
	cv.y += 10
	top, first := cv.y, len(cv.items)
	// Standing line with a swatch per seat.
	x := pad + 8
	cv.y += 22
	for _, s := range t.seats {
		col := seatColors[g.players[s].power]
		cv.add(&picture.Path{Rings: [][]picture.Point{rect(x, cv.y-12, 14, 14)}, Style: picture.Style{Fill: col, Stroke: textColor}})
		x += 20
	}
	name := g.teamName(ti)
	cv.add(&picture.Text{At: picture.Pt(x, cv.y), S: name, Size: 14, Bold: true, Color: textColor})
	x += picture.TextWidth(name, 14, true) + 10
	a := analyze(g.d, t, g.opt.Laissez)
	var parts []string
	if g.opt.Solo {
		parts = append(parts, fmt.Sprintf("%d VP so far, %s placed", g.vp(ti, final), count(g.contractsPlaced(ti), "contract")))
	} else {
		parts = append(parts, fmt.Sprintf("%d VP", g.vp(ti, final)))
	}
	for _, s := range t.seats {
		p := &g.players[s]
		part := fmt.Sprintf("%s, %s in hand", money(p.money), count(len(p.hand), "card"))
		if g.opt.Solo {
			part = fmt.Sprintf("%d cards left to place", len(p.hand))
		}
		if len(t.seats) > 1 {
			part = titleCase(p.power) + " " + part
		}
		if p.blind >= 0 {
			part += ", blind purchase " + g.cname(p.blind) + " set aside"
		}
		if g.opt.Solo && p.done {
			part += ", finished"
		}
		parts = append(parts, part)
	}
	if g.phase != phaseSolo {
		parts = append(parts, "best route "+money(a.bestRoute(-1).value))
	}
	if t.token == nil {
		parts = append(parts, "token 3VP side up")
	}
	cv.add(&picture.Text{At: picture.Pt(x, cv.y), S: strings.Join(parts, " · "), Size: 12, Color: textColor})
	cv.y += 12

	if len(t.placed) == 0 && len(t.thorns) == 0 {
		cv.y += 16
		cv.add(&picture.Text{At: picture.Pt(pad+8, cv.y), S: "(nothing placed)", Size: 12, Color: mutedColor})
		cv.y += 10
	} else {
		minX, maxX, minY, maxY := bounds(t)
		cw, ch, cellW, pitch := sz.w, sz.h, sz.cellW, sz.cellH
		ox := pad + (cellW-cw)/2
		oy := math.Round(cv.y + 8)
		var links, cards, marks []picture.Item
		if sz.h >= miniH {
			// The grid's x above its columns and y left of its rows, as
			// PLACE writes them, rather than under every card.
			ox, oy = ox+axisW, oy+14
			for gx := minX; gx <= maxX; gx++ {
				cards = append(cards, &picture.Text{At: picture.Pt(ox+float64(gx-minX)*cellW+4, oy-5), S: fmt.Sprintf("x %d", gx), Size: 11, Bold: true, Color: mutedColor})
			}
			for gy := minY; gy <= maxY; gy++ {
				cards = append(cards, &picture.Text{At: picture.Pt(ox-9, oy+float64(gy-minY)*pitch+ch/2+4), S: fmt.Sprint(gy), Size: 11, Bold: true, Anchor: picture.End, Color: mutedColor})
			}
		}
		at := func(gx, gy int) (float64, float64) {
			return ox + float64(gx-minX)*cellW, oy + float64(gy-minY)*pitch
		}
		draw := func(c int, px, py float64, rot int, border picture.Color, dash []float64, caption string) {
			if sz.h < miniH {
				cards = append(cards, g.chipItems(c, px, py, cw, ch, rot, border)...)
			} else {
				cards = append(cards, g.cardItems(c, px, py, ch, rot, border, dash)...)
				if caption != "" {
					cards = append(cards, &picture.Text{At: picture.Pt(px+2, py+ch+13), S: caption, Size: 11, Color: border})
				}
			}
			cv.mark(g, c, px, py, cw, ch)
		}
		// Links between neighbours: a bar across the gap.
		for i, p := range t.placed {
			px, py := at(p.x, p.y)
			draw(p.card, px, py, p.rot, picture.Color{}, nil, "")
			for k := 1; k <= 2; k++ { // east and south: each link once
				if a.nb[i][k] < 0 || !a.phys[i][k] {
					continue
				}
				c1 := picture.Pt(px+cw/2, py+ch/2).Add(picture.Pt(float64(dirDX[k])*cw/2, float64(dirDY[k])*ch/2))
				c2 := c1.Add(picture.Pt(float64(dirDX[k])*(cellW-cw), float64(dirDY[k])*(pitch-ch)))
				st := picture.Style{Stroke: lineColor, StrokeWidth: 5}
				if !a.rel[i][k] {
					st = picture.Style{Stroke: weakColor, StrokeWidth: 4, Dash: []float64{3, 2}}
				}
				links = append(links, &picture.Path{Lines: [][]picture.Point{{c1, c2}}, Style: st})
			}
		}
		for _, th := range t.thorns {
			px, py := at(th.x, th.y)
			draw(th.card, px, py, th.rot, thornColor, []float64{5, 3}, "by "+titleCase(th.from))
		}
		// The link/3VP token on its edge.
		if e := t.token; e != nil {
			px, py := at(e.x, e.y)
			c := picture.Pt(px+cw+(cellW-cw)/2, py+ch/2)
			if e.dir == South {
				c = picture.Pt(px+cw/2, py+ch+(pitch-ch)/2)
			}
			marks = append(marks, &picture.Path{Rings: [][]picture.Point{{c.Add(picture.Pt(0, -8)), c.Add(picture.Pt(8, 0)), c.Add(picture.Pt(0, 8)), c.Add(picture.Pt(-8, 0))}},
				Style: picture.Style{Fill: tokenColor, Stroke: textColor, StrokeWidth: 1.2}})
		}
		// The best revenue route: its cards outlined, and a bar across
		// each gap it crosses (never over a card's text).
		if g.phase != phaseSolo {
			if r := a.bestRoute(-1); len(r.path) > 1 {
				var outlines, bars [][]picture.Point
				for k, i := range r.path {
					px, py := at(t.placed[i].x, t.placed[i].y)
					outlines = append(outlines, rect(px-2, py-2, cw+4, ch+4))
					if k == 0 {
						continue
					}
					qx, qy := at(t.placed[r.path[k-1]].x, t.placed[r.path[k-1]].y)
					a, b := picture.Pt(qx+cw/2, qy+ch/2), picture.Pt(px+cw/2, py+ch/2)
					switch {
					case qy == py: // side by side: across the gap between them
						y := py + ch/2
						lo, hi := math.Min(qx, px)+cw, math.Max(qx, px)
						bars = append(bars, []picture.Point{{X: lo - 2, Y: y}, {X: hi + 2, Y: y}})
					default:
						x := px + cw/2
						top, bottom := math.Min(a.Y, b.Y)+ch/2, math.Max(a.Y, b.Y)-ch/2
						bars = append(bars, []picture.Point{{X: x, Y: top - 2}, {X: x, Y: bottom + 2}})
					}
				}
				marks = append(marks, &picture.Path{Rings: outlines, Style: picture.Style{Stroke: routeColor, StrokeWidth: 3}},
					&picture.Path{Lines: bars, Style: picture.Style{Stroke: routeColor, StrokeWidth: 7}})
			}
		}
		cv.add(links...)
		cv.add(cards...)
		cv.add(marks...)
		_, bottom := at(minX, maxY)
		cv.y = bottom + sz.cellH
	}
	// Others' hands stay hidden; the solitaire game shows them at its end.
	for _, s := range t.seats {
		if s != viewer && g.opt.Solo && final {
			cv.heading(titleCase(g.players[s].power)+"'s cards left to place", 12)
			g.hand(cv, s)
		}
	}
	if final && t.plan >= 0 && !(viewer >= 0 && g.players[viewer].team == ti) && !g.opt.Solo {
		cv.heading("Business plan", 12)
		if cv.results {
			g.chips(cv, []int{t.plan}, nil)
		} else {
			g.row(cv, []int{t.plan}, nil, cardH)
		}
	}
	// A rule above the panel sets it apart (its ground is the picture's:
	// a filled panel would cost a raster pass over most of the picture,
	// and a frame's sides break every row of the PNG's runs twice).
	rule := &picture.Path{Lines: [][]picture.Point{{{X: pad / 2, Y: top}, {X: cv.w - pad/2, Y: top}}}, Style: picture.Style{Stroke: weakColor, StrokeWidth: 2}}
	cv.items = append(cv.items[:first], append([]picture.Item{rule}, cv.items[first:]...)...)
}

// legend is the key to the card colours and marks; a results picture
// keeps only the marks' (STATUS shows the whole key).
func (g *game) legend(cv *canvas, results bool) {
	cv.y += 18
	if !results {
		g.kindKey(cv)
		cv.y += 20
	}
	g.markKey(cv, results)
	cv.y += 4
}

// kindKey is the legend's line of card kinds (their strips' colours).
func (g *game) kindKey(cv *canvas) {
	x := pad
	entry := func(col picture.Color, label string) {
		cv.add(&picture.Path{Rings: [][]picture.Point{rect(x, cv.y-10, 22, 12)}, Style: picture.Style{Fill: col, Stroke: lineColor}},
			&picture.Text{At: picture.Pt(x+27, cv.y), S: label, Size: 12, Color: textColor})
		x += 27 + picture.TextWidth(label, 12, false) + 14
	}
	entry(officeColor, "office")
	entry(picture.Hex(0x56B4E9), "special office")
	entry(picture.Hex(0xE69F00), "producer")
	entry(picture.Hex(0xF0E442), "supplier")
	entry(picture.Hex(0xD55E00), "business")
	entry(picture.Hex(0xCC79A7), "contract")
	entry(picture.Hex(0x999999), "vehicle")
	entry(thornColor, "derelict")
	entry(picture.Hex(0x0072B2), "plan")
}

// markKey is the legend's line of links, token and route, and in a
// results picture only the route and changes.
func (g *game) markKey(cv *canvas, results bool) {
	x := pad
	entry := func(wd float64, label string, key ...picture.Item) {
		cv.add(key...)
		cv.add(&picture.Text{At: picture.Pt(x+wd+5, cv.y), S: label, Size: 12, Color: textColor})
		x += wd + 5 + picture.TextWidth(label, 12, false) + 14
	}
	if !results {
		entry(11, "chain link", &picture.Circle{C: picture.Pt(x+6, cv.y-4), R: 4, Style: picture.Style{Fill: lineColor}})
		entry(22, "a link that counts", &picture.Path{Lines: [][]picture.Point{{picture.Pt(x, cv.y-4), picture.Pt(x+22, cv.y-4)}}, Style: picture.Style{Stroke: lineColor, StrokeWidth: 5}})
		entry(22, "one that does not", &picture.Path{Lines: [][]picture.Point{{picture.Pt(x, cv.y-4), picture.Pt(x+22, cv.y-4)}}, Style: picture.Style{Stroke: weakColor, StrokeWidth: 4, Dash: []float64{3, 2}}})
		entry(16, "link/3VP token", &picture.Path{Rings: [][]picture.Point{{picture.Pt(x+8, cv.y-12), picture.Pt(x+16, cv.y-4), picture.Pt(x+8, cv.y+4), picture.Pt(x, cv.y-4)}}, Style: picture.Style{Fill: tokenColor, Stroke: textColor}})
	}
	entry(22, "best revenue route", &picture.Path{Rings: [][]picture.Point{rect(x, cv.y-11, 22, 14)}, Style: picture.Style{Stroke: routeColor, StrokeWidth: 3}})
	if !results {
		return
	}
	entry(22, "changed this turn (ringed in the player's colour, with a word)", &picture.Path{Rings: [][]picture.Point{rect(x, cv.y-11, 22, 14)}, Style: picture.Style{Stroke: textColor, StrokeWidth: 4}})
}

// ordinal writes 4 as "4th".
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
