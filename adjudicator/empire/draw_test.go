package empire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"maps"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// playTo plays a seeded random game of a registered engine through Check
// and Resolve until stop says so after a phase, and returns the state
// after that phase and its results.
func playTo(t testing.TB, name string, opts map[string]string, seed uint64, stop func(g *Game, prs []*PhaseResult) bool) (state, results []byte) {
	t.Helper()
	e, ok := NewEngine(name)
	if !ok {
		t.Fatalf("no engine %s", name)
	}
	state, err := e.New(opts, int64(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 77))
	for n := 0; n < 400; n++ {
		s, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if s.Over {
			break
		}
		ords := map[string][]string{}
		for _, p := range s.Waiting {
			lines, err := e.RandomOrders(state, p, r)
			if err != nil {
				t.Fatal(err)
			}
			ck, err := e.Check(state, p, strings.Join(lines, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			ords[p] = ck.Canonical
		}
		out, err := e.Resolve(state, ords, int64(seed)*1000+int64(n))
		if err != nil {
			t.Fatal(err)
		}
		var prs []*PhaseResult
		if err := json.Unmarshal(out.Report.Data, &prs); err != nil {
			t.Fatal(err)
		}
		g, err := e.decode(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if stop(g, prs) {
			return out.Next, out.Report.Data
		}
		state = out.Next
	}
	t.Fatal("the game never reached the position wanted")
	return nil, nil
}

// fogGame is a mid-game position of the shipped 4-player world with fog
// of war (2 hexes): round 2's third tactical turn, and its results.
func fogGame(t testing.TB) (e *Engine, state, results []byte) {
	t.Helper()
	state, results = playTo(t, "empire", map[string]string{"fog": "2"}, 5, func(g *Game, prs []*PhaseResult) bool {
		return g.Round == 2 && g.Step == stepTactical && g.Turn >= 3
	})
	return engine(t, "empire"), state, results
}

// The golden pictures: red's view of the opening (no fog: the seed's
// public board) and of a mid-game position under fog of war.
func TestPictureGolden(t *testing.T) {
	t.Run("opening", func(t *testing.T) {
		e := engine(t, "empire")
		st, err := e.New(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := picturetest.MustDraw(t, e, st, nil, "red")
		picturetest.GoldenFile(t, "empire-opening.svg", picturetest.SVG(t, p), *update)
		picturetest.GoldenPNG(t, "empire-opening.png", p)
	})
	t.Run("midgame", func(t *testing.T) {
		e, st, res := fogGame(t)
		p := picturetest.MustDraw(t, e, st, res, "red")
		if !strings.Contains(p.Title, "Round 2 tactical turn 2 — results (Red's view)") {
			t.Errorf("title %q", p.Title)
		}
		picturetest.GoldenFile(t, "empire-midgame.svg", picturetest.SVG(t, p), *update)
		picturetest.GoldenPNG(t, "empire-midgame.png", p)
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

// withUnit returns state with one more unit of owner (a Regular Infantry
// Division) at hex h, pooled or on the board.
func withUnit(t *testing.T, e *Engine, state []byte, owner string, h int, pooled bool) []byte {
	t.Helper()
	g, err := e.decode(state)
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := g.typeInPlay("regular_infantry_division")
	if !ok {
		t.Fatal("no infantry in the unit set")
	}
	u := g.newUnit(owner, typ, h)
	u.Pooled = pooled
	g.sortUnits()
	return g.encode(e.name)
}

// No picture of one power shows what it may not see: another power's unit
// out of its sight, or in a unit pool, changes neither the SVG text nor a
// pixel of the PNG; the same unit where it does see changes both (so the
// comparison can fail).
func TestPictureFogOfWar(t *testing.T) {
	e, st, res := fogGame(t)
	g, _ := e.decode(st)
	vis := g.sight("red")
	hidden, seenHex := -1, -1
	for h := 0; h < g.World.Hexes(); h++ {
		if g.World.Fragments(h) != 6 {
			continue
		}
		switch {
		case !vis[h] && hidden < 0:
			hidden = h
		case vis[h] && seenHex < 0:
			occupied := false
			for _, u := range g.Units {
				occupied = occupied || u.in(h)
			}
			if !occupied {
				seenHex = h
			}
		}
	}
	if hidden < 0 || seenHex < 0 {
		t.Fatal("no hex out of red's sight, or none in it")
	}
	base := picturetest.MustDraw(t, e, st, res, "red")
	baseSVG, basePix := picturetest.SVG(t, base), pixels(t, base)
	same := func(name string, state []byte, want bool) {
		t.Helper()
		p := picturetest.MustDraw(t, e, state, res, "red")
		if got := bytes.Equal(picturetest.SVG(t, p), baseSVG); got != want {
			t.Errorf("%s: SVG the same as without it: %v, want %v", name, got, want)
		}
		if got := bytes.Equal(pixels(t, p), basePix); got != want {
			t.Errorf("%s: PNG pixels the same as without it: %v, want %v", name, got, want)
		}
	}
	same("a blue unit out of red's sight", withUnit(t, e, st, "blue", hidden, false), true)
	same("a blue unit in a pool where red sees", withUnit(t, e, st, "blue", seenHex, true), true)
	same("a blue unit in a pool out of red's sight", withUnit(t, e, st, "blue", hidden, true), true)
	same("a blue unit in red's sight", withUnit(t, e, st, "blue", seenHex, false), false)
	// The GM's and observers' picture ("") shows every unit on the board.
	obs := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "")))
	onBoard := map[string]int{}
	for _, u := range g.Units {
		if !u.Pooled {
			onBoard[letterOf(u.Owner)]++
		}
	}
	if got := tokenCounts(t, obs); !maps.Equal(got, onBoard) {
		t.Errorf("the GM's and observers' picture under fog shows units %v, the board holds %v", got, onBoard)
	}
	// Its key has no "your units": the GM owns none.
	if strings.Contains(obs, ">your units<") || !strings.Contains(obs, ">a power's units<") {
		t.Errorf("the GM's and observers' key should read \"a power's units\", not \"your units\"")
	}
	if red := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "red"))); !strings.Contains(red, ">your units<") {
		t.Errorf("a player's key should read \"your units\"")
	}
}

// svgGroup is the body of the SVG group id (groups of marks hold no groups).
func svgGroup(t *testing.T, svg, id string) string {
	t.Helper()
	open := `<g id="` + id + `">`
	i := strings.Index(svg, open)
	if i < 0 {
		t.Fatalf("no group %s in the SVG", id)
	}
	body := svg[i+len(open):]
	return body[:strings.Index(body, "</g>")]
}

var tokenRE = regexp.MustCompile(`>([A-Z])([0-9]+)</text>`)

// tokenCounts adds up the units the tokens of a picture show, by power
// letter.
func tokenCounts(t *testing.T, svg string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, m := range tokenRE.FindAllStringSubmatch(svgGroup(t, svg, "units"), -1) {
		n, _ := strconv.Atoi(m[2])
		got[m[1]] += n
	}
	return got
}

// A results picture marks what its phases did, each kind of event where
// it happened: moves, a battle and its losses, units perished, sacrificed,
// disabled and restored, units built and placed, a headquarters
// transformed, a power eliminated; under fog another power's event out of
// the viewer's sight leaves no mark.
func TestPictureMarksEvents(t *testing.T) {
	e := engine(t, "empire")
	st, err := e.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	prs := []PhaseResult{
		{Title: "Round 1 deployment", Deploy: &DeployResult{Transformed: []string{"red AGHQ4 -> FAC4 in C4"},
			Supply: []SupplyEvent{{Power: "red", Unit: "RID9", Hex: "C5", What: "disabled"}}}},
		{Title: "Round 1 production", Build: &BuildResult{Production: []Production{{Power: "red", Bought: []string{"RID7 in D3", "RID8 in D3"}}},
			Placed: []string{"red RID6 -> E3"}}},
		{Title: "Round 1 tactical turn 1", Turn: &TurnResult{
			Moves:   []Move{{Power: "red", Unit: "RAD2", From: "C4", To: "D4-E4"}},
			Battles: []*Battle{{Hexes: []string{"D5"}, Before: map[string]int{"red": 3, "green": 1}, Lost: map[string]int{"red": 1, "green": 1}}},
			Supply: []SupplyEvent{{Power: "red", Unit: "TD5", Hex: "B4", What: "perished"}, {Power: "red", Unit: "RID4", Hex: "B5", What: "sacrificed"},
				{Power: "red", Unit: "RIC2", Hex: "C3", What: "restored"}}},
			Eliminated: []string{"green"}},
	}
	res, err := json.Marshal(prs)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "red")))
	if !strings.Contains(svgGroup(t, svg, "moved"), "<path") {
		t.Error("no trail of the move C4 → D4-E4")
	}
	if !strings.Contains(svgGroup(t, svg, "battles"), "<path") {
		t.Error("no burst where the battle was")
	}
	containsAll(t, svgGroup(t, svg, "losses"), ">R −1 G −1</text>")
	containsAll(t, svgGroup(t, svg, "supply-events"), ">TD5</text>", ">RID4</text>", `fill="#b35900" stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke">RID9</text>`, `fill="#1b7f3b" stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke">RIC2</text>`)
	if n := strings.Count(svgGroup(t, svg, "supply-events"), "<path"); n != 2 {
		t.Errorf("%d crosses, want 2 (one perished, one sacrificed)", n)
	}
	containsAll(t, svgGroup(t, svg, "supply-events"), ">→FAC4</text>")
	containsAll(t, svgGroup(t, svg, "built"), ">+2</text>", ">+1</text>")
	containsAll(t, svg, "Out this phase: Green")

	// Under fog, blue's picture shows none of red's events out of its sight.
	fogSt, err := e.New(map[string]string{"fog": "1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	plain := string(picturetest.SVG(t, picturetest.MustDraw(t, e, fogSt, nil, "blue")))
	withEvents := string(picturetest.SVG(t, picturetest.MustDraw(t, e, fogSt, res, "blue")))
	for _, id := range []string{"moved", "battles", "losses", "supply-events", "built"} {
		if svgGroup(t, withEvents, id) != svgGroup(t, plain, id) {
			t.Errorf("blue's picture under fog marks red's %s out of its sight", id)
		}
	}
}

func containsAll(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in\n%s", w, text)
		}
	}
}

// Without fog the board is public, but a unit pool's contents are not:
// moving blue's pooled unit to another territory changes nothing in red's
// picture (the number of pooled units is public and stays).
func TestPicturePoolsHidden(t *testing.T) {
	e := engine(t, "empire")
	st, _ := e.New(nil, 1)
	g, _ := e.decode(st)
	var blue []int
	for _, u := range g.unitsOf("blue") {
		blue = append(blue, u.At)
	}
	a := withUnit(t, e, st, "blue", blue[0], true)
	b := withUnit(t, e, st, "blue", blue[len(blue)-1], true)
	if blue[0] == blue[len(blue)-1] {
		t.Fatal("blue's units stand in one hex")
	}
	pa, pb := picturetest.MustDraw(t, e, a, nil, "red"), picturetest.MustDraw(t, e, b, nil, "red")
	if !bytes.Equal(picturetest.SVG(t, pa), picturetest.SVG(t, pb)) || !bytes.Equal(pixels(t, pa), pixels(t, pb)) {
		t.Error("red's picture tells where blue's pooled unit is")
	}
	if !strings.Contains(string(picturetest.SVG(t, pa)), "1 pooled") {
		t.Error("the public number of pooled units is not shown")
	}
	// Blue sees its own pool.
	if !strings.Contains(string(picturetest.SVG(t, picturetest.MustDraw(t, e, a, nil, "blue"))), "pools: RID") {
		t.Error("blue's own picture does not list its pool")
	}
}

// PNGs decode at the picture's size, are wide enough for a phone and every
// text is legible; a bigger generated world gives a wider picture.
func TestPicturePNG(t *testing.T) {
	e, st, res := fogGame(t)
	e8 := engine(t, "empire8")
	st8, err := e8.New(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		e      *Engine
		st     []byte
		res    []byte
		viewer string
	}{{e, st, res, "red"}, {e, st, res, ""}, {e8, st8, nil, "olive"}} {
		p := picturetest.MustDraw(t, c.e, c.st, c.res, c.viewer)
		var b bytes.Buffer
		if err := p.WritePNG(&b); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Bounds().Size(); got.X != p.Width || got.Y != p.Height {
			t.Errorf("%s: PNG %v, picture %dx%d", c.e.name, got, p.Width, p.Height)
		}
		if p.Width < 1000 {
			t.Errorf("%s: picture %d px wide, want at least 1000", c.e.name, p.Width)
		}
		picturetest.WalkText(p.Items, func(tx *picture.Text) {
			if tx.Size < picture.MinText {
				t.Errorf("%s: text %q at %v px, want at least %d", c.e.name, tx.S, tx.Size, picture.MinText)
			}
		})
	}
}

// The picture names the columns and rows on the edges of the board, above
// and below, left and right, and no hex inside it; it shows the viewer's
// units where they stand.
func TestPictureShowsBoard(t *testing.T) {
	e := engine(t, "empire")
	st, _ := e.New(nil, 1)
	g, _ := e.decode(st)
	svg := string(picturetest.SVG(t, picturetest.MustDraw(t, e, st, nil, "red")))
	board := svgGroup(t, svg, "board")
	coord := func(s string) int {
		return len(regexp.MustCompile(`font-size="13"[^>]*>`+s+`</text>`).FindAllString(board, -1))
	}
	for c := 0; c < g.World.g.w; c++ {
		if n := coord(string(rune('A' + c))); n != 2 {
			t.Errorf("column %c is named %d times, want 2 (above and below the board)", 'A'+c, n)
		}
	}
	for r := 1; r <= g.World.g.h; r++ {
		if n := coord(strconv.Itoa(r)); n != 2 {
			t.Errorf("row %d is named %d times, want 2 (left and right of the board)", r, n)
		}
	}
	// No text on the map part of the board layer names a hex (the
	// legend's sample tokens may read like one).
	mapH := boardOf(g.World).mapH
	for _, m := range regexp.MustCompile(`<text x="[0-9.]+" y="([0-9.]+)"[^>]*>([A-Z][0-9]+)</text>`).FindAllStringSubmatch(board, -1) {
		if y, _ := strconv.ParseFloat(m[1], 64); y < mapH {
			t.Errorf("hex %s is named inside the board", m[2])
		}
	}
	per := map[int]int{}
	for _, u := range g.unitsOf("red") {
		per[u.At]++
	}
	for h, n := range per {
		if !strings.Contains(svg, fmt.Sprintf(">R%d</text>", n)) {
			t.Errorf("no token for red's %d units in %s", n, g.World.HexName(h))
		}
	}
	for _, want := range []string{">R1</text>", ">B1</text>", ">F</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %s in red's opening picture", want)
		}
	}
	if _, err := e.Draw(st, nil, "purple"); err == nil {
		t.Error("a picture for an unknown power")
	}
	if _, err := e.Draw(st, []byte("{"), "red"); err == nil {
		t.Error("bad results drew a picture")
	}
}

// Pictures of one world drawn at once share its board safely (run with
// -race) and come out the same.
func TestPictureConcurrent(t *testing.T) {
	e, st, res := fogGame(t)
	want := picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, "blue"))
	done := make(chan []byte)
	for i := 0; i < 4; i++ {
		go func() {
			p, err := e.Draw(st, res, "blue")
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

// BenchmarkPicturePNG draws red's fogged mid-game view from state and
// results and encodes it as PNG (what a results mail carries).
func BenchmarkPicturePNG(b *testing.B) {
	e, st, res := fogGame(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		p, err := e.Draw(st, res, "red")
		if err != nil {
			b.Fatal(err)
		}
		if err := p.WritePNG(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// Coasts run along hex edges: the centre of every shoreline hex is land
// (its water wedges are bands along their edges, not triangles to the
// centre) and the middle of an edge whose wedge is water is water. Out of
// sight, land and water still differ clearly, and both from what is seen.
func TestPictureCoastsAndFog(t *testing.T) {
	e, st, res := fogGame(t)
	g, _ := e.decode(st)
	b := boardOf(g.World)
	// The land and water only, without the units and marks over them.
	p := picturetest.MustDraw(t, e, st, res, "red")
	if _, ok := p.Items[0].(*picture.RegionFill); !ok {
		t.Fatalf("the picture begins with %T, not the land and water", p.Items[0])
	}
	p.Items = p.Items[:1]
	pix := pixels(t, p)
	at := func(q picture.Point) picture.Color {
		i := 4 * (int(q.Y)*p.Width + int(q.X))
		return picture.RGB(pix[i], pix[i+1], pix[i+2])
	}
	vis := g.sight("red")
	shore := 0
	for h := 0; h < g.World.Hexes(); h++ {
		m := g.World.land[h]
		if m == 0 || m == allLand {
			continue
		}
		shore++
		land, sea := landColor, seaColor
		if !vis[h] {
			land, sea = fogLandColor, fogSeaColor
		}
		// Off the centre by a pixel: the centre may sit on an antialiased
		// edge of nothing, but not of the coast.
		if got := at(b.centre(h).Add(picture.Pt(0.5, 0.5))); got != land {
			t.Errorf("shoreline hex %s: centre is %v, want land %v", g.World.HexName(h), got, land)
		}
		for d := 0; d < 6; d++ {
			if m.land(d) {
				continue
			}
			edge := b.corner(h, (d+5)%6).Lerp(b.corner(h, d), 0.5)
			if got := at(edge.Lerp(b.centre(h), 0.15)); got != sea {
				t.Errorf("shoreline hex %s: edge %s is %v, want water %v", g.World.HexName(h), dirNames[d], got, sea)
			}
		}
	}
	if shore == 0 {
		t.Fatal("no shoreline hex")
	}
	dist := func(a, b picture.Color) int {
		return abs(int(a.R)-int(b.R)) + abs(int(a.G)-int(b.G)) + abs(int(a.B)-int(b.B))
	}
	for _, c := range []struct {
		name string
		a, b picture.Color
	}{{"land and water out of sight", fogLandColor, fogSeaColor}, {"land in and out of sight", landColor, fogLandColor}, {"water in and out of sight", seaColor, fogSeaColor}} {
		if d := dist(c.a, c.b); d < 80 {
			t.Errorf("%s differ by %d, want at least 80 (sum of RGB differences)", c.name, d)
		}
	}
}
