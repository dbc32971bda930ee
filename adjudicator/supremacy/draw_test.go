package supremacy

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/picture"
	"pbemd/picture/picturetest"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/pictures")

// The picture tests' helpers every engine shares (picturetest), under the
// names this package's tests use.
var (
	svgOf    = picturetest.SVG
	walkText = picturetest.WalkText
)

func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	picturetest.GoldenFile(t, name, got, *update)
}

func mustDraw(t testing.TB, e *Engine, st, res []byte, viewer string) *picture.Picture {
	t.Helper()
	return picturetest.MustDraw(t, e, st, res, viewer)
}

// shipped is the registered six-superpower engine on the shipped scenario.
func shipped(t testing.TB) *Engine {
	t.Helper()
	e, ok := adjudicator.Lookup("supremacy")
	if !ok {
		t.Fatal("supremacy is not registered")
	}
	return e.(*Engine)
}

// midGame plays the shipped engine's seeded bot game to the end of turn
// 4's move phase and returns the state after it and its results.
func midGame(t testing.TB) (e *Engine, state, results []byte) {
	t.Helper()
	e = shipped(t)
	playGame(t, e, map[string]string{"turns": "8"}, 3, 60, func(ph int, st []byte, o *outcomeView) {
		if state == nil && o.status.ID == "T04-5" {
			state, results = st, o.data
		}
	})
	if state == nil {
		t.Fatal("the bot game never reached turn 4's build phase")
	}
	return e, state, results
}

// The golden pictures: the set-up and a mid-game position of the shipped
// scenario, drawn through the engine's Drawer.
func TestPictureGolden(t *testing.T) {
	t.Run("opening", func(t *testing.T) {
		e := shipped(t)
		st, err := e.New(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := mustDraw(t, e, st, nil, "")
		goldenFile(t, "supremacy-opening.svg", svgOf(t, p))
		picturetest.GoldenPNG(t, "supremacy-opening.png", p)
	})
	t.Run("events", func(t *testing.T) {
		// Every kind of event, in China's picture (its own events
		// numbered and listed).
		e := shipped(t)
		st, res, _ := everyEvent(t)
		p := mustDraw(t, e, st, res, "china")
		goldenFile(t, "supremacy-events-china.svg", svgOf(t, p))
		picturetest.GoldenPNG(t, "supremacy-events-china.png", p)
	})
	t.Run("midgame", func(t *testing.T) {
		e, st, res := midGame(t)
		p := mustDraw(t, e, st, res, "")
		if !strings.Contains(p.Title, "Turn 4 Move — results") {
			t.Errorf("title %q does not name the phase", p.Title)
		}
		goldenFile(t, "supremacy-midgame.svg", svgOf(t, p))
		picturetest.GoldenPNG(t, "supremacy-midgame.png", p)
	})
}

// PNGs decode at the picture's size, are wide enough for a phone and every
// text is legible.
func TestPicturePNG(t *testing.T) {
	e, st, res := midGame(t)
	p := mustDraw(t, e, st, res, "")
	var b bytes.Buffer
	if err := p.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	bd, _ := e.sc.drawing()
	if got := img.Bounds().Size(); got.X != p.Width || got.Y != p.Height || p.Width != bd.w || p.Height != bd.h+legendHeight {
		t.Errorf("PNG %v, picture %dx%d, want %dx%d", got, p.Width, p.Height, bd.w, bd.h+legendHeight)
	}
	if p.Width < 1000 {
		t.Errorf("picture %d px wide, want at least 1000", p.Width)
	}
	walkText(p.Items, func(tx *picture.Text) {
		if tx.Size < picture.MinText {
			t.Errorf("text %q at %v px, want at least %d", tx.S, tx.Size, picture.MinText)
		}
	})
}

// Supremacy's board is public: every viewer gets the same picture of a
// position. A phase's picture differs per player (its own events are drawn
// larger and listed, drawphase.go), so the engine does not declare a
// public picture: the daemon draws one per player and one for the rest.
func TestPictureSameForEveryViewer(t *testing.T) {
	e, st, res := midGame(t)
	if e.Info().PublicPicture {
		t.Error("the engine declares one picture for every viewer, but a player's picture of a phase lists its own events")
	}
	pub := svgOf(t, mustDraw(t, e, st, nil, ""))
	for _, v := range e.Info().Powers {
		if !bytes.Equal(svgOf(t, mustDraw(t, e, st, nil, v)), pub) {
			t.Errorf("%s's picture of the position differs from the public one", v)
		}
	}
	// With the results, a player's picture adds its strip; the rest is
	// the public picture's.
	pub = svgOf(t, mustDraw(t, e, st, res, ""))
	for _, v := range []string{"observer", "nobody"} {
		if !bytes.Equal(svgOf(t, mustDraw(t, e, st, res, v)), pub) {
			t.Errorf("%s's picture of the phase differs from the public one", v)
		}
	}
}

// The picture shows the position: a player's armies and navies as tokens
// with its code and count, a minor's bought armies, contaminated land,
// destroyed cities and companies, and each player's control.
func TestPictureShowsPosition(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	w, err := decodeWorld(st)
	if err != nil {
		t.Fatal(err)
	}
	sc := w.sc
	area := func(id string) int { return sc.areaByID[id] }
	usa, japan := sc.powerByID["usa"], sc.powerByID["japan"]
	w.army[area("mex")][usa] = 7
	w.navy[area("npo")][japan] = 4
	w.minorA[area("arg")] = 5
	jap := area("jap")
	for k := range w.cities[jap] {
		w.cities[jap][k] = true
	}
	w.dead[jap] = true
	texoil := sc.cardByID["texoil"]
	w.cardAt[texoil], w.cardDed[texoil] = cardDeck, true
	p := mustDraw(t, e, w.encode(), nil, "")
	svg := string(svgOf(t, p))
	b, _ := sc.drawing()
	for _, want := range []string{">US7</text>", ">JA4</text>", ">+5</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no token %s", want)
		}
	}
	// The fill of each area, by its title in the SVG.
	fillOf := func(id string) string {
		i := strings.Index(svg, "<title>"+id+" ")
		if i < 0 {
			t.Fatalf("area %s not in the picture", id)
		}
		j := strings.LastIndex(svg[:i], `fill="`)
		return svg[j+6 : j+13]
	}
	hex := func(c picture.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
	if got := fillOf("jap"); got != hex(deadColor) {
		t.Errorf("contaminated jap filled %s", got)
	}
	if got := fillOf("mex"); got != hex(b.tints[usa]) {
		t.Errorf("mex, held by US armies, filled %s, want the US tint %s", got, hex(b.tints[usa]))
	}
	if got := fillOf("arg"); got != hex(landColor) {
		t.Errorf("minor arg filled %s", got)
	}
	// Crosses: two destroyed cities in jap, one destroyed company.
	at := b.cityAt[jap][0]
	if !strings.Contains(svg, fmt.Sprintf("M%s %sL", fmtNum(at.X-citySide/2), fmtNum(at.Y-citySide/2))) {
		t.Errorf("no cross on Tokyo at %v", at)
	}
	at = b.coAt[texoil]
	if !strings.Contains(svg, fmt.Sprintf("M%s %sL", fmtNum(at.X-5), fmtNum(at.Y-5))) {
		t.Errorf("no cross on the destroyed Texas Oil at %v", at)
	}
}

func fmtNum(v float64) string {
	v = math.Round(v*100) / 100
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

// areaRaster labels each pixel of the map with the area whose drawn shape
// covers it (-1 for none), scanning the shapes' rings as the picture
// holds them (even-odd), independently of the layout's cells.
func areaRaster(b *board) (lab []int, w, h int) {
	w, h = b.w, b.h
	lab = make([]int, w*h)
	for i := range lab {
		lab[i] = -1
	}
	for a := 0; a < len(b.sc.areas); a++ {
		rings := b.regions.Shape(a)
		var xs []float64
		for y := 0; y < h; y++ {
			cy := float64(y) + 0.5
			xs = xs[:0]
			for _, r := range rings {
				for i := range r {
					p, q := r[i], r[(i+1)%len(r)]
					if (p.Y > cy) != (q.Y > cy) {
						xs = append(xs, p.X+(cy-p.Y)*(q.X-p.X)/(q.Y-p.Y))
					}
				}
			}
			sort.Float64s(xs)
			for k := 0; k+1 < len(xs); k += 2 {
				for x := max(0, int(math.Ceil(xs[k]-0.5))); x <= min(w-1, int(math.Ceil(xs[k+1]-0.5))-1); x++ {
					if lab[y*w+x] >= 0 {
						lab[y*w+x] = -2 // overlapping shapes: never a partition
					} else {
						lab[y*w+x] = a
					}
				}
			}
		}
	}
	return lab, w, h
}

// lineRE matches a link's dashed line or a strait's grey line.
var lineRE = regexp.MustCompile(`<path d="M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)" fill="none" stroke="(?:#1f4e79" stroke-width="2" stroke-linejoin="round" stroke-dasharray|#7a7a7a" stroke-width=("3.5"))`)

// minBorder is the length in pixels of a shared border a player sees.
const minBorder = 6

// adjacencyProblems compares the picture with the scenario: areas drawn
// touching must border each other, every border must be drawn (touching,
// a link or a chokepoint's strait), and no shapes overlap.
func adjacencyProblems(b *board, svg string) []string {
	sc := b.sc
	lab, w, h := areaRaster(b)
	n := len(sc.areas)
	contact := make([]int, n*n)
	var out []string
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := lab[y*w+x]
			if a == -2 {
				return []string{fmt.Sprintf("shapes overlap at %d,%d", x, y)}
			}
			if a < 0 {
				continue
			}
			for _, d := range [][2]int{{1, 0}, {0, 1}} {
				if xx, yy := x+d[0], y+d[1]; xx < w && yy < h {
					if c := lab[yy*w+xx]; c >= 0 && c != a {
						contact[a*n+c]++
						contact[c*n+a]++
					}
				}
			}
		}
	}
	// Links and straits: dashed link lines and grey strait lines in the
	// SVG, each joining the two areas its ends lie in.
	drawnLink := map[[2]int]bool{}
	for _, m := range lineRE.FindAllStringSubmatch(svg, -1) {
		var v [4]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		p, q := picture.Pt(v[0], v[1]), picture.Pt(v[2], v[3])
		in := func(pt picture.Point) int {
			x, y := int(pt.X), int(pt.Y)
			if x < 0 || y < 0 || x >= w || y >= h {
				return -1
			}
			return lab[y*w+x]
		}
		// A link runs from cell centre to cell centre; a strait from
		// the edge of one sea to the edge of the other: look 3 px
		// inside the link's ends, 3 px beyond the strait's.
		k := 3 / q.Sub(p).Len()
		if m[5] != "" {
			k = -k
		}
		a, c := in(p.Lerp(q, k)), in(p.Lerp(q, 1-k))
		if a >= 0 && c >= 0 && a != c {
			drawnLink[pair(a, c)] = true
		}
	}
	for a := 0; a < n; a++ {
		for c := a + 1; c < n; c++ {
			touch := contact[a*n+c] >= minBorder
			adj := sc.adjacent(a, c)
			switch {
			case touch && !adj:
				out = append(out, fmt.Sprintf("%s and %s are drawn sharing a border (%d px) but do not border each other", sc.areas[a].ID, sc.areas[c].ID, contact[a*n+c]))
			case adj && !touch && !drawnLink[pair(a, c)]:
				out = append(out, fmt.Sprintf("%s and %s border each other but share no drawn border and no link", sc.areas[a].ID, sc.areas[c].ID))
			}
		}
	}
	return out
}

// TestLayoutTruthful: on the shipped scenario, areas the picture shows as
// neighbours are neighbours, and every border of the scenario is visible:
// on the world map the scenario ships (geometry.go), and on its layout's
// grid (what a scenario without a geometry file is drawn on).
func TestLayoutTruthful(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	t.Run("world map", func(t *testing.T) {
		svg := string(svgOf(t, mustDraw(t, e, st, nil, "")))
		b, err := e.sc.drawing()
		if err != nil {
			t.Fatal(err)
		}
		if b.l != nil {
			t.Fatal("the shipped scenario is drawn on its grid, not on its world map")
		}
		for _, p := range adjacencyProblems(b, svg) {
			t.Error(p)
		}
	})
	t.Run("grid", func(t *testing.T) {
		b, svg := gridPicture(t, e, st)
		for _, p := range adjacencyProblems(b, svg) {
			t.Error(p)
		}
	})
}

// gridPicture draws state on the scenario's layout grid instead of its
// world map.
func gridPicture(t *testing.T, e *Engine, st []byte) (*board, string) {
	t.Helper()
	w, err := decodeWorld(st)
	if err != nil {
		t.Fatal(err)
	}
	b := newGridBoard(e.sc)
	return b, string(svgOf(t, b.draw(w, w.phaseTitle(), nil, false, "")))
}

// The check above can fail: a picture whose shapes lie is caught.
func TestAdjacencyCheckCatchesLies(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	svg := string(svgOf(t, mustDraw(t, e, st, nil, "")))
	good, _ := e.sc.drawing()
	bad := *good
	shapes := make([][][]picture.Point, good.regions.Len())
	for i := range shapes {
		shapes[i] = good.regions.Shape(i)
	}
	sc := e.sc
	// Draw the UK where Iberia is: it now touches France and not the North Sea.
	uk, ibe := sc.areaByID["uk"], sc.areaByID["ibe"]
	shapes[uk], shapes[ibe] = shapes[ibe], shapes[uk]
	bad.regions = picture.NewRegions("areas", shapes, nil)
	probs := strings.Join(adjacencyProblems(&bad, svg), "\n")
	for _, want := range []string{"uk and fra are drawn sharing a border", "uk and nth border each other but share no drawn border"} {
		if !strings.Contains(probs, want) {
			t.Errorf("doctored picture: want %q among\n%s", want, probs)
		}
	}
	// A picture without its links hides borders.
	noLinks := regexp.MustCompile(`<path d="[^"]*" fill="none" stroke="#1f4e79"[^>]*>`).ReplaceAllString(svg, "")
	probs = strings.Join(adjacencyProblems(good, noLinks), "\n")
	if !strings.Contains(probs, "bra and car border each other but share no drawn border and no link") {
		t.Errorf("a picture without links: got\n%s", probs)
	}
}

// scenarioJSON is the shipped scenario file as a generic JSON value.
func scenarioJSON(t *testing.T) map[string]any {
	t.Helper()
	data, err := scenarioFiles.ReadFile("scenarios/default.json")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A layout that would mislead is refused when the scenario loads, with a
// message that says what to fix.
func TestLayoutValidated(t *testing.T) {
	cases := []struct {
		name string
		edit func(l map[string]any)
		want string
	}{
		{"a false border", func(l map[string]any) {
			rows := l["rows"].([]any)
			// The UK's first cell becomes French: France would touch the
			// North Atlantic there (it does) and the UK (it does not).
			rows[3] = strings.Replace(rows[3].(string), "UK", "FR", 1)
		}, "share a cell edge"},
		{"a border not drawn", func(l map[string]any) {
			l["links"] = l["links"].([]any)[1:]
		}, "the border ama–moa is not drawn"},
		{"a link across a shared edge", func(l map[string]any) {
			l["links"] = append(l["links"].([]any), []any{"usw", "usc"})
		}, "share a cell edge already"},
		{"an unknown code", func(l map[string]any) {
			rows := l["rows"].([]any)
			rows[0] = strings.Replace(rows[0].(string), "ar", "zz", 1)
		}, `code "zz" is not in layout.key`},
		{"an area without a cell", func(l map[string]any) {
			rows := l["rows"].([]any)
			for i, r := range rows {
				rows[i] = strings.ReplaceAll(r.(string), "NZ", "sp")
			}
		}, "area nzl has no cell"},
		{"a ragged row", func(l map[string]any) {
			rows := l["rows"].([]any)
			rows[5] = rows[5].(string) + " np"
		}, "row 1 has 48"},
		{"no provenance", func(l map[string]any) { delete(l, "provenance") }, "layout: provenance missing"},
		{"an unknown field", func(l map[string]any) { l["colour"] = "red" }, "unknown field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := scenarioJSON(t)
			c.edit(v["layout"].(map[string]any))
			data, _ := json.Marshal(v)
			_, err := ParseScenario(data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	// Without a layout the scenario plays but cannot be drawn.
	v := scenarioJSON(t)
	delete(v, "layout")
	data, _ := json.Marshal(v)
	sc, err := ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.drawing(); err == nil || !strings.Contains(err.Error(), "no layout") {
		t.Errorf("drawing a scenario without a layout: %v", err)
	}
}

// Bad input is an error, not a picture.
func TestPictureBadInput(t *testing.T) {
	e := shipped(t)
	st, _ := e.New(nil, 1)
	if _, err := e.Draw(st, []byte("{not json"), ""); err == nil {
		t.Error("bad results drew a picture")
	}
	if _, err := e.Draw([]byte("{}"), nil, ""); err == nil {
		t.Error("a bad state drew a picture")
	}
}

// Pictures of one scenario drawn at once share its caches safely (run with
// -race) and come out the same.
func TestPictureConcurrent(t *testing.T) {
	e, st, res := midGame(t)
	want := svgOf(t, mustDraw(t, e, st, res, ""))
	done := make(chan []byte)
	for i := 0; i < 4; i++ {
		go func() {
			p, err := e.Draw(st, res, "")
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

// BenchmarkPicturePNG draws the mid-game position from state and results
// and encodes it as PNG (what a results mail carries): the public picture,
// and a player's, with its own events larger and listed.
func BenchmarkPicturePNG(b *testing.B) {
	e, st, res := midGame(b)
	var rd struct{ Marks []mark }
	if err := json.Unmarshal(res, &rd); err != nil || len(rd.Marks) == 0 {
		b.Fatalf("no marks in the mid-game results (%v)", err)
	}
	for _, v := range []struct{ name, viewer string }{{"public", ""}, {"player", rd.Marks[0].Power}} {
		b.Run(v.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				p, err := e.Draw(st, res, v.viewer)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.WritePNG(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

// Where four cells meet at a point and one diagonal pair borders each
// other, the other pair does not even touch at that point: no pixel of one
// is next to a pixel of the other, diagonally included. Only where neither
// pair borders each other may two areas that do not border meet at a point.
func TestCornersDoNotMislead(t *testing.T) {
	e := shipped(t)
	b := newGridBoard(e.sc)
	sc, l := e.sc, b.l
	lab, w, h := areaRaster(b)
	corner := map[[2]int]bool{}
	for y := 0; y+1 < h; y++ {
		for x := 0; x < w; x++ {
			a := lab[y*w+x]
			if a < 0 {
				continue
			}
			for _, dx := range []int{-1, 1} {
				if xx := x + dx; xx >= 0 && xx < w {
					if c := lab[(y+1)*w+xx]; c >= 0 && c != a && !sc.adjacent(a, c) {
						corner[pair(a, c)] = true
					}
				}
			}
		}
	}
	allowed := map[[2]int]bool{}
	for r := 1; r < l.h; r++ {
		for c := 1; c < l.w; c++ {
			tl, tr, bl, br := l.at(r-1, c-1), l.at(r-1, c), l.at(r, c-1), l.at(r, c)
			if tl >= 0 && br >= 0 && tr >= 0 && bl >= 0 && tl != br && tr != bl && !sc.adjacent(tl, br) && !sc.adjacent(tr, bl) {
				allowed[pair(tl, br)], allowed[pair(tr, bl)] = true, true
			}
		}
	}
	for k := range corner {
		if !allowed[k] {
			t.Errorf("%s and %s do not border each other but meet at a corner", sc.areas[k[0]].ID, sc.areas[k[1]].ID)
		}
	}
	for k := range corner {
		t.Logf("%s %s", sc.areas[k[0]].ID, sc.areas[k[1]].ID)
	}
	t.Logf("%d pairs meet at a point where neither diagonal borders", len(corner))
}
