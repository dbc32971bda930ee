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
//     half price, the Deck's size and what the open decks hold;
//   - each tableau on its grid (x east, y south, as PLACE writes them):
//     cards linked across an edge joined by a bar (dark when the link
//     counts, grey when it does not), the link/3VP token where it lies,
//     derelicts others attached in red, the best revenue route traced;
//   - per team: VP, money, cards in hand, best route;
//   - the viewer's hand and business plan — never another player's (their
//     number only), until the solitaire game ends as its text shows them;
//     plans are shown to all at the end, as in the text.

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
	stripH       = 16.0
	pad          = 14.0
	pictureWidth = 1200
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

// cardItems draws card c with its top left corner at (x, y), its links
// turned by rot; border overrides the outline (thorns).
func (g *game) cardItems(c int, x, y float64, rot int, border picture.Color, dash []float64) []picture.Item {
	card := g.card(c)
	f := facesOf(g.d)[c]
	strip := kindColor(card)
	if border.A == 0 {
		border = lineColor
	}
	items := []picture.Item{
		&picture.Path{Rings: [][]picture.Point{rect(x, y, cardW, cardH)}, Style: picture.Style{Fill: cardColor}},
		&picture.Path{Rings: [][]picture.Point{rect(x, y, cardW, stripH)}, Style: picture.Style{Fill: strip}},
		&picture.Path{Rings: [][]picture.Point{rect(x, y, cardW, cardH)}, Style: picture.Style{Stroke: border, StrokeWidth: 1.3, Dash: dash}},
		&picture.Text{At: picture.Pt(x+5, y+12.5), S: f.code, Size: 12, Bold: true, Color: contrast(strip)},
		&picture.Text{At: picture.Pt(x+4, y+stripH+14), S: f.name, Size: 11, Bold: true, Color: textColor},
		&picture.Text{At: picture.Pt(x+4, y+stripH+28), S: f.lines[0], Size: 11, Color: mutedColor},
		&picture.Text{At: picture.Pt(x+4, y+stripH+42), S: f.lines[1], Size: 11, Color: mutedColor},
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
			c := picture.Pt(x+cardW/2, y+cardH/2).Add(picture.Pt(float64(dirDX[k])*cardW/2, float64(dirDY[k])*cardH/2))
			items = append(items, &picture.Circle{C: c, R: 4, Style: picture.Style{Fill: lineColor, Stroke: picture.White, StrokeWidth: 1}})
		}
	}
	return items
}

var _ adjudicator.Drawer = (*Engine)(nil)

// Draw implements adjudicator.Drawer: the table of state as viewer sees it
// ("" for an observer: no hand at all).
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
	if results != nil {
		if !json.Valid(results) {
			return nil, fmt.Errorf("supplychain: results are not JSON")
		}
		title += ", after the last results"
	}
	return g.drawTable(v, title), nil
}

// canvas lays a picture out from top to bottom.
type canvas struct {
	items []picture.Item
	y     float64
	w     float64
}

func (cv *canvas) add(items ...picture.Item) { cv.items = append(cv.items, items...) }

func (cv *canvas) heading(s string, size float64) {
	cv.y += size + 6
	cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: s, Size: size, Bold: true, Color: textColor})
	cv.y += 6
}

// row draws cards left to right from the current line, wrapping; under
// each, its caption (may be "").
func (g *game) row(cv *canvas, cards []int, captions []string) {
	x := pad
	for i, c := range cards {
		if x+cardW > cv.w-pad {
			x = pad
			cv.y += cardH + 22
		}
		if c < 0 {
			cv.add(&picture.Path{Rings: [][]picture.Point{rect(x, cv.y, cardW, cardH)}, Style: picture.Style{Fill: emptyColor, Stroke: weakColor, Dash: []float64{4, 3}}},
				&picture.Text{At: picture.Pt(x+cardW/2, cv.y+cardH/2+4), S: "(empty)", Size: 11, Anchor: picture.Middle, Color: mutedColor})
		} else {
			cv.add(g.cardItems(c, x, cv.y, 0, picture.Color{}, nil)...)
		}
		if i < len(captions) && captions[i] != "" {
			cv.add(&picture.Text{At: picture.Pt(x+cardW/2, cv.y+cardH+14), S: captions[i], Size: 11, Anchor: picture.Middle, Color: textColor})
		}
		x += cardW + 10
	}
	cv.y += cardH + 24
}

func (g *game) drawTable(viewer int, title string) *picture.Picture {
	// The width: the widest tableau decides, at least pictureWidth.
	w := float64(pictureWidth)
	for ti := range g.teams {
		minX, maxX, _, _ := bounds(&g.teams[ti])
		w = math.Max(w, 2*pad+float64(maxX-minX+1)*cellW)
	}
	cv := &canvas{w: w}
	cv.heading(g.d.Title+" — "+title, 16)
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
		g.row(cv, cards, caps)
		cv.heading(fmt.Sprintf("Stale Sale pile (half price) · Deck: %s", count(len(g.draw), "card")), 13)
		if len(g.stale) == 0 {
			cv.y += 6
			cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: "(empty)", Size: 12, Color: mutedColor})
			cv.y += 14
		} else {
			caps = caps[:0]
			for _, c := range g.stale {
				caps = append(caps, money(g.d.ceilStep((g.card(c).Price+1)/2)))
			}
			g.row(cv, g.stale, caps)
		}
		cv.y += 4
		stock := fmt.Sprintf("For sale: %s, %s, %s.", count(len(g.contracts), "contract"), count(len(g.vehicles), "vehicle"), count(len(g.offices), "office"))
		cv.add(&picture.Text{At: picture.Pt(pad, cv.y), S: stock, Size: 12, Color: textColor})
		cv.y += 8
	}
	final := g.phase == phaseOver
	for ti := range g.teams {
		g.tableau(cv, ti, viewer, final)
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
	g.legend(cv)
	p := &picture.Picture{Width: int(math.Ceil(w)), Height: int(math.Ceil(cv.y + pad)), Title: g.d.Title + ": " + title, Background: backColor, Palette: palette()}
	p.Add(&picture.Group{ID: "table", Items: cv.items})
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
	g.row(cv, cards, caps)
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

// tableau draws team ti's panel: its standing line and its cards.
func (g *game) tableau(cv *canvas, ti, viewer int, final bool) {
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
		minX, _, minY, maxY := bounds(t)
		ox := pad + (cellW-cardW)/2
		oy := cv.y + 8
		at := func(gx, gy int) (float64, float64) {
			return ox + float64(gx-minX)*cellW, oy + float64(gy-minY)*cellH
		}
		var links, cards, marks []picture.Item
		// Links between neighbours: a bar across the gap.
		for i, p := range t.placed {
			px, py := at(p.x, p.y)
			cards = append(cards, g.cardItems(p.card, px, py, p.rot, picture.Color{}, nil)...)
			cards = append(cards, &picture.Text{At: picture.Pt(px+2, py+cardH+13), S: fmt.Sprintf("%d,%d", p.x, p.y), Size: 11, Color: mutedColor})
			for k := 1; k <= 2; k++ { // east and south: each link once
				if a.nb[i][k] < 0 || !a.phys[i][k] {
					continue
				}
				c1 := picture.Pt(px+cardW/2, py+cardH/2).Add(picture.Pt(float64(dirDX[k])*cardW/2, float64(dirDY[k])*cardH/2))
				c2 := c1.Add(picture.Pt(float64(dirDX[k])*(cellW-cardW), float64(dirDY[k])*(cellH-cardH)))
				st := picture.Style{Stroke: lineColor, StrokeWidth: 5}
				if !a.rel[i][k] {
					st = picture.Style{Stroke: weakColor, StrokeWidth: 4, Dash: []float64{3, 2}}
				}
				links = append(links, &picture.Path{Lines: [][]picture.Point{{c1, c2}}, Style: st})
			}
		}
		for _, th := range t.thorns {
			px, py := at(th.x, th.y)
			cards = append(cards, g.cardItems(th.card, px, py, th.rot, thornColor, []float64{5, 3})...)
			cards = append(cards, &picture.Text{At: picture.Pt(px+2, py+cardH+13), S: fmt.Sprintf("%d,%d by %s", th.x, th.y, titleCase(th.from)), Size: 11, Color: thornColor})
		}
		// The link/3VP token on its edge.
		if e := t.token; e != nil {
			px, py := at(e.x, e.y)
			c := picture.Pt(px+cardW+(cellW-cardW)/2, py+cardH/2)
			if e.dir == South {
				c = picture.Pt(px+cardW/2, py+cardH+(cellH-cardH)/2)
			}
			marks = append(marks, &picture.Path{Rings: [][]picture.Point{{c.Add(picture.Pt(0, -8)), c.Add(picture.Pt(8, 0)), c.Add(picture.Pt(0, 8)), c.Add(picture.Pt(-8, 0))}},
				Style: picture.Style{Fill: tokenColor, Stroke: textColor, StrokeWidth: 1.2}})
		}
		// The best revenue route, card centre to card centre.
		if g.phase != phaseSolo {
			if r := a.bestRoute(-1); len(r.path) > 1 {
				var pts []picture.Point
				for _, i := range r.path {
					px, py := at(t.placed[i].x, t.placed[i].y)
					pts = append(pts, picture.Pt(px+cardW/2, py+cardH/2+6))
				}
				marks = append(marks, &picture.Path{Lines: [][]picture.Point{pts}, Style: picture.Style{Stroke: routeColor.Alpha(200), StrokeWidth: 3, Dash: []float64{8, 4}}})
			}
		}
		cv.add(links...)
		cv.add(cards...)
		cv.add(marks...)
		_, bottom := at(minX, maxY)
		cv.y = bottom + cardH + 20
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
		g.row(cv, []int{t.plan}, nil)
	}
	// The panel's frame (its ground is the picture's: a filled panel
	// would cost a raster pass over most of the picture).
	frame := &picture.Path{Rings: [][]picture.Point{rect(pad/2, top, cv.w-pad, cv.y-top)}, Style: picture.Style{Stroke: weakColor, StrokeWidth: 1.5}}
	cv.items = append(cv.items[:first], append([]picture.Item{frame}, cv.items[first:]...)...)
}

// legend is the key to the card colours and marks.
func (g *game) legend(cv *canvas) {
	cv.y += 18
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
	cv.y += 20
	x = pad
	cv.add(&picture.Circle{C: picture.Pt(x+6, cv.y-4), R: 4, Style: picture.Style{Fill: lineColor}},
		&picture.Text{At: picture.Pt(x+16, cv.y), S: "chain link", Size: 12, Color: textColor})
	x += 16 + picture.TextWidth("chain link", 12, false) + 14
	cv.add(&picture.Path{Lines: [][]picture.Point{{picture.Pt(x, cv.y-4), picture.Pt(x+22, cv.y-4)}}, Style: picture.Style{Stroke: lineColor, StrokeWidth: 5}},
		&picture.Text{At: picture.Pt(x+27, cv.y), S: "a link that counts", Size: 12, Color: textColor})
	x += 27 + picture.TextWidth("a link that counts", 12, false) + 14
	cv.add(&picture.Path{Lines: [][]picture.Point{{picture.Pt(x, cv.y-4), picture.Pt(x+22, cv.y-4)}}, Style: picture.Style{Stroke: weakColor, StrokeWidth: 4, Dash: []float64{3, 2}}},
		&picture.Text{At: picture.Pt(x+27, cv.y), S: "one that does not", Size: 12, Color: textColor})
	x += 27 + picture.TextWidth("one that does not", 12, false) + 14
	cv.add(&picture.Path{Rings: [][]picture.Point{{picture.Pt(x+8, cv.y-12), picture.Pt(x+16, cv.y-4), picture.Pt(x+8, cv.y+4), picture.Pt(x, cv.y-4)}}, Style: picture.Style{Fill: tokenColor, Stroke: textColor}},
		&picture.Text{At: picture.Pt(x+21, cv.y), S: "link/3VP token", Size: 12, Color: textColor})
	x += 21 + picture.TextWidth("link/3VP token", 12, false) + 14
	cv.add(&picture.Path{Lines: [][]picture.Point{{picture.Pt(x, cv.y-4), picture.Pt(x+22, cv.y-4)}}, Style: picture.Style{Stroke: routeColor, StrokeWidth: 3, Dash: []float64{8, 4}}},
		&picture.Text{At: picture.Pt(x+27, cv.y), S: "best revenue route", Size: 12, Color: textColor})
	cv.y += 4
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
