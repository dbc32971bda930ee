package supplychain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"slices"
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// playTo plays a seeded bot game of a registered preset through Check and
// Resolve until stop says so after a phase, and returns the state after it
// and its results.
func playTo(t testing.TB, name string, seed int64, stop func(g *game) bool) (e *Engine, state, results []byte) {
	t.Helper()
	e, ok := NewEngine(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	state, err := e.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 2000; n++ {
		st, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over {
			break
		}
		ords := map[string][]string{}
		for _, p := range st.Waiting {
			lines, err := e.BotLines(state, p, seed*7919+int64(n))
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				continue
			}
			ck, err := e.Check(state, p, strings.Join(lines, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			ords[p] = ck.Canonical
		}
		out, err := e.Resolve(state, ords, seed+int64(n))
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.decode(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if stop(g) {
			return e, out.Next, out.Report.Data
		}
		state = out.Next
	}
	t.Fatal("the game never reached the position wanted")
	return nil, nil, nil
}

// midGame is a seeded 3-player bot game on the shipped deck at a turn
// where a tableau holds six cards and the Stale Sale pile is not empty.
func midGame(t testing.TB) (e *Engine, state, results []byte) {
	t.Helper()
	return playTo(t, "supplychain-3", 2, func(g *game) bool {
		n := 0
		for _, tm := range g.teams {
			n = max(n, len(tm.placed))
		}
		return n >= 6 && len(g.stale) > 0 && g.phase == phaseTurn
	})
}

// The golden pictures: red's view of the opening, blue's of a mid-game
// turn.
func TestPictureGolden(t *testing.T) {
	t.Parallel()
	t.Run("opening", func(t *testing.T) {
		e, _ := NewEngine("supplychain-3")
		st, err := e.New(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := picturetest.MustDraw(t, e, st, nil, "red")
		picturetest.GoldenFile(t, "supplychain-opening.svg", picturetest.SVG(t, p), *update)
		picturetest.GoldenPNG(t, "supplychain-opening.png", p)
	})
	t.Run("midgame", func(t *testing.T) {
		e, st, res := midGame(t)
		p := picturetest.MustDraw(t, e, st, res, "blue")
		if !strings.Contains(p.Title, "'s turn, after the last results") {
			t.Errorf("title %q", p.Title)
		}
		picturetest.GoldenFile(t, "supplychain-midgame.svg", picturetest.SVG(t, p), *update)
		picturetest.GoldenPNG(t, "supplychain-midgame.png", p)
	})
}

// pixels is the decoded PNG of a picture.
func pixels(t *testing.T, p *picture.Picture) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, image.Point{}, draw.Src)
	return rgba.Pix
}

// edited decodes state, lets edit change the game and encodes it again.
func edited(t *testing.T, e *Engine, state []byte, edit func(g *game)) []byte {
	t.Helper()
	g, err := e.decode(state)
	if err != nil {
		t.Fatal(err)
	}
	edit(g)
	return g.encode()
}

// sameFor reports whether viewer's picture of a and of b is the same, in
// SVG text and in PNG pixels (both must agree).
func sameFor(t *testing.T, e *Engine, a, b, res []byte, viewer string) bool {
	t.Helper()
	pa, pb := picturetest.MustDraw(t, e, a, res, viewer), picturetest.MustDraw(t, e, b, res, viewer)
	svg := bytes.Equal(picturetest.SVG(t, pa), picturetest.SVG(t, pb))
	pix := bytes.Equal(pixels(t, pa), pixels(t, pb))
	if svg != pix {
		t.Errorf("%s: SVG same %v but pixels same %v", viewer, svg, pix)
	}
	return svg && pix
}

// Hidden hands never appear in another player's picture: red's hand (and
// business plan, and the Deck's order) changed for cards of the Deck
// leaves blue's and an observer's picture as they were, while red's own
// picture shows the change (so the comparison can fail).
func TestPictureHiddenHands(t *testing.T) {
	t.Parallel()
	e, st, res := midGame(t)
	g0, _ := e.decode(st)
	red := g0.playerIndex("red")
	if len(g0.players[red].hand) == 0 || len(g0.draw) < len(g0.players[red].hand) {
		t.Fatal("red has no hand to change")
	}
	swapped := edited(t, e, st, func(g *game) {
		p := &g.players[red]
		for i := range p.hand {
			if p.hand[i].card == p.starter {
				continue
			}
			p.hand[i].card, g.draw[i] = g.draw[i], p.hand[i].card
		}
		for i, j := 0, len(g.draw)-1; i < j; i, j = i+1, j-1 {
			g.draw[i], g.draw[j] = g.draw[j], g.draw[i]
		}
	})
	for _, v := range []string{"blue", "green", ""} {
		if !sameFor(t, e, st, swapped, res, v) {
			t.Errorf("%q's picture shows red's hand or the Deck", v)
		}
	}
	if sameFor(t, e, st, swapped, res, "red") {
		t.Error("red's own picture does not show red's hand")
	}
	// The business plan stays secret until the end.
	plan := edited(t, e, st, func(g *game) {
		tm := &g.teams[g.players[red].team]
		if !swapHidden(g, &tm.plan, func(c int) bool { return g.card(c).Kind == KindPlan }) {
			t.Fatal("no other business plan out of sight")
		}
	})
	if !sameFor(t, e, st, plan, res, "blue") {
		t.Error("blue's picture shows red's business plan")
	}
	if sameFor(t, e, st, plan, res, "red") {
		t.Error("red's picture does not show red's business plan")
	}
}

// swapHidden exchanges the card *c with a card of the Deck or out of play
// for which ok is true, keeping every count as it is.
func swapHidden(g *game, c *int, ok func(int) bool) bool {
	for _, pile := range [][]int{g.draw, g.out} {
		for i, x := range pile {
			if x != *c && ok(x) {
				pile[i], *c = *c, x
				return true
			}
		}
	}
	return false
}

// Two solitaire games side by side: each player sees his own cards left to
// place, not the other's, until both have finished.
func TestPictureSoloHands(t *testing.T) {
	t.Parallel()
	e, st, res := playTo(t, "supplychain-solo2", 4, func(g *game) bool { return g.step >= 2 })
	g0, _ := e.decode(st)
	blue := g0.playerIndex("blue")
	if len(g0.players[blue].hand) < 2 {
		t.Fatal("blue has no cards left to place")
	}
	changed := edited(t, e, st, func(g *game) {
		h := g.players[blue].hand
		if !swapHidden(g, &h[len(h)-1].card, func(int) bool { return true }) {
			t.Fatal("no card out of sight to swap")
		}
	})
	if !sameFor(t, e, st, changed, res, "red") {
		t.Error("red's picture shows blue's cards")
	}
	if sameFor(t, e, st, changed, res, "blue") {
		t.Error("blue's picture does not show blue's cards")
	}
}

// PNGs decode at the picture's size, are wide enough for a phone and every
// text is legible.
func TestPicturePNG(t *testing.T) {
	e, st, res := midGame(t)
	for _, v := range []string{"blue", ""} {
		p := picturetest.MustDraw(t, e, st, res, v)
		var b bytes.Buffer
		if err := p.WritePNG(&b); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Bounds().Size(); got.X != p.Width || got.Y != p.Height {
			t.Errorf("PNG %v, picture %dx%d", got, p.Width, p.Height)
		}
		if p.Width < 1000 {
			t.Errorf("picture %d px wide, want at least 1000", p.Width)
		}
		picturetest.WalkText(p.Items, func(tx *picture.Text) {
			if tx.Size < picture.MinText {
				t.Errorf("text %q at %v px, want at least %d", tx.S, tx.Size, picture.MinText)
			}
		})
	}
}

// The picture shows the table (STATUS and MAP: no results): every listed
// and stale card, every placed card on its grid, the grid's columns and
// rows, each team's standing; bad input is an error.
func TestPictureShowsTable(t *testing.T) {
	e, st, res := midGame(t)
	g, _ := e.decode(st)
	svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, nil, "")))
	code := func(c int) string { return ">" + g.card(c).Code + "</text>" }
	for _, s := range g.listing {
		if s.card >= 0 && !strings.Contains(svg, code(s.card)) {
			t.Errorf("listed %s not drawn", g.card(s.card).Code)
		}
	}
	for _, c := range g.stale {
		if !strings.Contains(svg, code(c)) {
			t.Errorf("stale %s not drawn", g.card(c).Code)
		}
	}
	for ti, tm := range g.teams {
		for _, p := range tm.placed {
			if !strings.Contains(svg, code(p.card)) || !strings.Contains(svg, fmt.Sprintf(">x %d</text>", p.x)) || !strings.Contains(svg, fmt.Sprintf(">%d</text>", p.y)) {
				t.Errorf("%s's %s at %d,%d not drawn", g.teamName(ti), g.card(p.card).Code, p.x, p.y)
			}
		}
		if want := fmt.Sprintf("%d VP · %s, %s in hand", g.vp(ti, false), money(g.players[tm.seats[0]].money), count(len(g.players[tm.seats[0]].hand), "card")); !strings.Contains(svg, want) {
			t.Errorf("no standing %q", want)
		}
	}
	// A results picture names the Stale Sale pile's size, and its every
	// placed card by its code.
	svg = string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "")))
	daemontestContains(t, svg, fmt.Sprintf("Stale Sale pile (half price): %s (STATUS shows them)", count(len(g.stale), "card")))
	for _, tm := range g.teams {
		for _, p := range tm.placed {
			daemontestContains(t, svg, code(p.card))
		}
	}
	if _, err := e.Draw(st, nil, "black"); err == nil {
		t.Error("a picture for an unknown power")
	}
	if _, err := e.Draw(st, []byte("{"), "red"); err == nil {
		t.Error("bad results drew a picture")
	}
	if _, err := e.Draw([]byte("{}"), nil, ""); err == nil {
		t.Error("a bad state drew a picture")
	}
}

func daemontestContains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in the picture", w)
		}
	}
}

// A results picture marks what the turn changed: each kind of change on
// its card, wherever the card is now (the listing, the Stale Sale pile, a
// tableau, the reader's hand), ringed in the player's colour with its
// word, and a "This turn" line per player, the reader's own large.
func TestPictureMarksChanges(t *testing.T) {
	e, st, _ := playTo(t, "supplychain-3", 2, func(g *game) bool {
		n := len(g.players[g.playerIndex("blue")].hand)
		for _, tm := range g.teams {
			n = min(n, len(tm.placed))
		}
		return n >= 3 && len(g.stale) >= 2 && g.phase == phaseTurn
	})
	g, _ := e.decode(st)
	blue, red, green := g.playerIndex("blue"), g.playerIndex("red"), g.playerIndex("green")
	bt, rt, gt := &g.teams[g.players[blue].team], &g.teams[g.players[red].team], &g.teams[g.players[green].team]
	if len(g.players[blue].hand) < 2 || len(bt.placed) < 1 || len(rt.placed) < 3 || len(g.stale) < 2 {
		t.Fatal("the mid-game position lacks the cards this test marks")
	}
	listed := -1
	for _, s := range g.listing {
		if s.card >= 0 {
			listed = s.card
		}
	}
	codeOf := func(c int) string { return g.card(c).Code }
	marks := []Mark{
		{Power: "blue", Card: codeOf(g.players[blue].hand[0].card), What: markBought},
		{Power: "blue", Card: codeOf(bt.placed[0].card), What: markPlaced},
		{Power: "blue", Card: codeOf(g.players[blue].hand[1].card), What: markClosed},
		{Power: "blue", Card: codeOf(g.stale[0]), What: markDiscarded},
		{Power: "red", Card: codeOf(rt.placed[0].card), What: markSpun},
		{Power: "red", Card: codeOf(listed), What: markSwapped},
		{Power: "red", Card: codeOf(rt.placed[1].card), What: markRevenue},
		{Power: "red", Card: codeOf(rt.placed[2].card), What: markRevenue},
		{Power: "green", Card: codeOf(rt.placed[2].card), What: markDerelict},
		{Power: "green", Card: codeOf(gt.placed[0].card), What: markTraded},
		{Card: codeOf(g.stale[1]), What: markStale},
	}
	res, err := json.Marshal(resultData{Phase: "x", Events: []string{}, Marks: marks})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "blue")))
	i := strings.Index(svg, `<g id="changes">`)
	if i < 0 {
		t.Fatal("no changes drawn")
	}
	changes := svg[i:]
	for _, w := range []string{"BOUGHT", "PLACED", "CLOSED", "DISCARDED", "SPUN", "SWAPPED", "REVENUE", "DERELICT", "GOT BY TRADE", "STALE"} {
		if n := strings.Count(changes, ">"+w+"</text>"); n != 1 {
			t.Errorf("%d tabs %s, want 1", n, w)
		}
	}
	// A ring per marked card (the revenue route's second card and the
	// derelict's share one).
	if n := strings.Count(changes, `stroke-width="4"`); n != 10 {
		t.Errorf("%d rings, want 10", n)
	}
	daemontestContains(t, svg,
		`font-size="26" font-weight="bold" fill="#1e1e1e">Blue: bought `+codeOf(g.players[blue].hand[0].card)+" · placed "+codeOf(bt.placed[0].card),
		`font-size="15" fill="#1e1e1e">Red: spun `+codeOf(rt.placed[0].card)+" · swapped "+codeOf(listed)+" · revenue "+codeOf(rt.placed[1].card)+" → "+codeOf(rt.placed[2].card),
		">The Listing Agent: to the Stale Sale pile "+codeOf(g.stale[1])+"</text>")
	// Without results nothing is marked.
	if svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, nil, "blue"))); strings.Contains(svg, "This turn") || strings.Contains(svg, ">BOUGHT</text>") {
		t.Error("a picture without results marks changes")
	}
}

// The best revenue route is drawn around its cards and across the gaps
// between them, never over a card's text.
func TestPictureRouteClearOfText(t *testing.T) {
	e, st, res := playTo(t, "supplychain-3", 2, func(g *game) bool {
		for ti := range g.teams {
			if len(analyze(g.d, &g.teams[ti], g.opt.Laissez).bestRoute(-1).path) >= 2 {
				return g.phase == phaseTurn
			}
		}
		return false
	})
	for _, withResults := range [][]byte{nil, res} {
		p := picturetest.MustDraw(t, e, st, withResults, "blue")
		var cards [][4]float64 // x0, y0, x1, y1 of each card's face
		var bars [][]picture.Point
		var walk func(items []picture.Item)
		walk = func(items []picture.Item) {
			for _, it := range items {
				switch v := it.(type) {
				case *picture.Group:
					walk(v.Items)
				case *picture.Path:
					if v.Fill == cardColor && len(v.Rings) == 1 {
						r := v.Rings[0]
						cards = append(cards, [4]float64{r[0].X, r[0].Y, r[2].X, r[2].Y})
					}
					if v.Stroke == routeColor && len(v.Lines) > 0 {
						bars = append(bars, v.Lines...)
					}
				}
			}
		}
		walk(p.Items)
		if len(bars) == 0 {
			t.Fatal("no revenue route drawn")
		}
		for _, b := range bars {
			for k := 1; k < len(b); k++ {
				for s := 0.0; s <= 1; s += 0.05 {
					q := b[k-1].Lerp(b[k], s)
					for _, c := range cards {
						if q.X > c[0]+3 && q.X < c[2]-3 && q.Y > c[1]+3 && q.Y < c[3]-3 {
							t.Fatalf("the route crosses a card at %v", q)
						}
					}
				}
			}
		}
	}
}

// Pictures drawn at once share the card faces safely (run with -race)
// and come out the same.
func TestPictureConcurrent(t *testing.T) {
	e, st, res := midGame(t)
	want := picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "green"))
	done := make(chan []byte)
	for i := 0; i < 4; i++ {
		go func() {
			p, err := e.Draw(st, res, "green")
			var b, svg bytes.Buffer
			if err != nil || p.WritePNG(&b) != nil || p.WriteSVG(&svg) != nil {
				done <- nil
				return
			}
			done <- svg.Bytes()
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; !bytes.Equal(got, want) {
			t.Error("a picture drawn concurrently differs")
		}
	}
}

// BenchmarkPicturePNG draws blue's mid-game picture from state and results
// and encodes it as PNG (what a results mail carries).
func BenchmarkPicturePNG(b *testing.B) {
	e, st, res := midGame(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		p, err := e.Draw(st, res, "blue")
		if err != nil {
			b.Fatal(err)
		}
		if err := p.WritePNG(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// The engine marks what its public report names: in a bot game, a phase
// whose report says a card was bought carries a bought mark for it, and
// the buyer's results picture rings the card in the hand with BOUGHT.
func TestResultsMarkPurchases(t *testing.T) {
	e, _ := NewEngine("supplychain-3")
	state, err := e.New(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 200; n++ {
		st, err := e.Status(state)
		if err != nil || st.Over {
			t.Fatalf("no purchase from the listing (%v)", err)
		}
		ords := map[string][]string{}
		for _, p := range st.Waiting {
			lines, err := e.BotLines(state, p, int64(n))
			if err != nil {
				t.Fatal(err)
			}
			if ck, err := e.Check(state, p, strings.Join(lines, "\n")); err == nil && len(lines) > 0 {
				ords[p] = ck.Canonical
			}
		}
		out, err := e.Resolve(state, ords, int64(n))
		if err != nil {
			t.Fatal(err)
		}
		state = out.Next
		var rd resultData
		if err := json.Unmarshal(out.Report.Data, &rd); err != nil {
			t.Fatal(err)
		}
		for _, ev := range rd.Events {
			who, rest, ok := strings.Cut(ev, " buys ")
			if !ok || !strings.Contains(rest, " from the listing ") {
				continue
			}
			code := rest[strings.Index(rest, "(")+1 : strings.Index(rest, ")")]
			power := strings.ToLower(who)
			if !slices.Contains(rd.Marks, Mark{Power: power, Card: code, What: markBought}) {
				t.Fatalf("%q: marks %v", ev, rd.Marks)
			}
			svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, state, out.Report.Data, power)))
			if !strings.Contains(svg, ">BOUGHT</text>") || !strings.Contains(svg, "bought "+code) {
				t.Errorf("%s's picture does not mark %s bought", power, code)
			}
			return
		}
	}
	t.Fatal("no purchase from the listing in 200 phases")
}
