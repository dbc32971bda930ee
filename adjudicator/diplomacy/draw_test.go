package diplomacy

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbemd/internal/proccpu"
	"pbemd/picture"
	"pbemd/picture/picturetest"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/pictures")

// midGame plays a seeded random game through the engine (Check, then
// Resolve) until a movement phase has a successful move, a support, a
// convoy, a failed order, a dislodged unit and a standoff, and returns the
// state after that phase and its results.
func midGame(t testing.TB, e *Engine) (state, results []byte, phase string) {
	t.Helper()
	m := e.Map()
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		state, err := e.New(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 40; step++ {
			pos, err := e.Position(state)
			if err != nil {
				t.Fatal(err)
			}
			ords := RandomOrders(pos, r, RandomOptions{Aggressive: true})
			sent := map[string][]string{}
			for _, p := range m.Powers {
				var text strings.Builder
				for _, o := range OrdersOf(ords, p.ID) {
					text.WriteString(m.FormatOrder(o) + "\n")
				}
				ck, err := e.Check(state, p.ID, text.String())
				if err != nil {
					t.Fatal(err)
				}
				sent[p.ID] = ck.Canonical
			}
			out, err := e.Resolve(state, sent, 0)
			if err != nil {
				t.Fatal(err)
			}
			if pos.Phase.Type == Movement && hasEverything(t, m, out.Report.Data) {
				return out.Next, out.Report.Data, pos.Phase.ID()
			}
			if st, _ := e.Status(out.Next); st.Over {
				break
			}
			state = out.Next
		}
	}
	t.Fatal("no random game of 60 seeds had a phase with every kind of order")
	return nil, nil, ""
}

func hasEverything(t testing.TB, m *Map, data []byte) bool {
	dr, err := m.parseResults(data)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dr.orders {
		switch {
		case d.order.Kind == Move && d.outcome == Succeeded:
			seen["move"] = true
		case d.order.Kind == SupportMove && d.outcome == Succeeded:
			seen["support"] = true
		case d.order.Kind == Convoy && d.outcome == Succeeded:
			seen["convoy"] = true
		}
		if d.outcome == Failed {
			seen["failed"] = true
		}
	}
	return len(seen) == 4 && len(dr.dislodged) > 0 && len(dr.standoffs) > 0
}

// The golden pictures: an opening and a mid-game phase of each map, drawn
// from the shipped maps through the engine's Drawer.
func TestPictureGolden(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		e, _ := NewEngine(name)
		t.Run(name+"/opening", func(t *testing.T) {
			st, _ := e.New(nil, 0)
			p, err := e.Draw(st, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			picturetest.GoldenFile(t, name+"-opening.svg", picturetest.SVG(t, p), *update)
			picturetest.GoldenPNG(t, name+"-opening.png", p)
		})
		t.Run(name+"/midgame", func(t *testing.T) {
			st, res, phase := midGame(t, e)
			p, err := e.Draw(st, res, "")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Title, e.Map().PhaseTitle(mustPhase(t, phase))+" — results") {
				t.Errorf("title %q does not name the phase %s", p.Title, phase)
			}
			picturetest.GoldenFile(t, name+"-midgame.svg", picturetest.SVG(t, p), *update)
			picturetest.GoldenPNG(t, name+"-midgame.png", p)
		})
	}
}

func mustPhase(t *testing.T, id string) Phase {
	p, err := parsePhaseID(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every viewer sees the same Diplomacy picture: nothing is hidden.
func TestPictureSameForEveryViewer(t *testing.T) {
	e, _ := NewEngine("standard")
	st, res, _ := midGame(t, e)
	pub, _ := e.Draw(st, res, "")
	eng, _ := e.Draw(st, res, "england")
	if !bytes.Equal(picturetest.SVG(t, pub), picturetest.SVG(t, eng)) {
		t.Error("England's picture differs from the public one")
	}
}

// PNGs decode at the picture's size, are wide and legible enough for a
// phone, and stay within the mail budget.
func TestPicturePNG(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			e, _ := NewEngine(name)
			st, res, _ := midGame(t, e)
			p, err := e.Draw(st, res, "")
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := p.WritePNG(&b); err != nil {
				t.Fatal(err)
			}
			size := b.Len()
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
			if size > 200<<10 {
				t.Errorf("PNG of %d bytes, budget 200 KB", size)
			}
			picturetest.WalkText(p.Items, func(tx *picture.Text) {
				if tx.Size < picture.MinText {
					t.Errorf("text %q at %v px, want at least %d", tx.S, tx.Size, picture.MinText)
				}
			})
		})
	}
}

// TestPictureAdjacencyTruthful: on every shipped map, what the picture
// shows as neighbours are neighbours, and every border of the map data is
// visible (a shared border, or a drawn link where geometry cannot show it:
// the Baleares, a strait, a four-sea corner).
func TestPictureAdjacencyTruthful(t *testing.T) {
	for _, name := range MapNames() {
		t.Run(name, func(t *testing.T) {
			m, _ := MapByName(name)
			g, err := m.Geometry()
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range m.geometryProblems(g) {
				t.Error(p)
			}
			// Each link is drawn.
			st, _ := (&Engine{m: m}).New(nil, 0)
			p, err := (&Engine{m: m}).Draw(st, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			svg := string(picturetest.SVG(t, p))
			b, _ := m.board()
			for _, l := range g.Links {
				at := l.From.Scale(b.scale)
				if l.From.Sub(l.To).Len()*b.scale < 4 {
					at = l.From.Lerp(l.To, 0.5).Scale(b.scale)
				}
				if !strings.Contains(svg, fmt.Sprintf(`cx="%s" cy="%s"`, fmtNum(at.X), fmtNum(at.Y))) {
					t.Errorf("link %s–%s is not drawn at %v", l.A, l.B, at)
				}
			}
		})
	}
}

func fmtNum(v float64) string {
	v = math.Round(v*100) / 100
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

// The check above can fail: a shape drawn over a province it does not
// border is caught, and so is a border drawn away.
func TestAdjacencyCheckCatchesLies(t *testing.T) {
	m, _ := MapByName("standard")
	g, err := m.Geometry()
	if err != nil {
		t.Fatal(err)
	}
	bad := *g
	bad.Shapes = append([][][]picture.Point(nil), g.Shapes...)
	// Give Paris Munich's shape: Paris now borders Bohemia, Berlin ….
	bad.Shapes[m.provIdx["par"]] = g.Shapes[m.provIdx["mun"]]
	probs := strings.Join(m.geometryProblems(&bad), "\n")
	for _, want := range []string{"boh and par are drawn sharing a border", "bre and par are adjacent but share no drawn border"} {
		if !strings.Contains(probs, want) {
			t.Errorf("doctored geometry: want %q among\n%s", want, probs)
		}
	}
}

// Results of a retreat and an adjustment phase draw too (a retreat arrow,
// a disband cross, a build ring), and a bad results blob is an error.
func TestPictureOtherPhases(t *testing.T) {
	e, _ := NewEngine("standard")
	m := e.Map()
	st, _, _ := midGame(t, e)
	pos, _ := e.Position(st)
	if pos.Phase.Type != Retreats {
		t.Fatalf("after the mid-game phase: %s, want a retreat phase", pos.Phase.ID())
	}
	var lines []string
	for i, d := range pos.Dislodged {
		o := Order{Kind: Disband, Unit: d.Type, Loc: d.Loc}
		if i == 0 && len(d.Options) > 0 {
			prov, coast, _ := strings.Cut(d.Options[0], "/")
			o = Order{Kind: Retreat, Unit: d.Type, Loc: d.Loc, Target: Location{Province: prov, Coast: coast}}
		}
		lines = append(lines, d.Power+": "+m.FormatOrder(o))
	}
	sent := map[string][]string{}
	for _, l := range lines {
		p, o, _ := strings.Cut(l, ": ")
		sent[p] = append(sent[p], o)
	}
	out, err := e.Resolve(st, sent, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Draw(out.Next, out.Report.Data, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Title, "Retreats — results") {
		t.Errorf("title %q", p.Title)
	}
	var rd ResultData
	json.Unmarshal(out.Report.Data, &rd)
	if len(rd.Orders) == 0 {
		t.Fatal("no retreat results")
	}
	if _, err := e.Draw(out.Next, []byte("{not json"), ""); err == nil {
		t.Error("bad results drew a picture")
	}
	if _, err := e.Draw([]byte("{}"), nil, ""); err == nil {
		t.Error("a bad state drew a picture")
	}
}

// BenchmarkPicturePNG is the mail budget: one standard-map picture of a
// mid-game phase, drawn from state and results and PNG-encoded (≤ 20 ms,
// ≤ 200 KB), the same picture again and again; BenchmarkPictureBurst is
// the burst's budget, a picture of another game each time.
func BenchmarkPicturePNG(b *testing.B) {
	for _, name := range []string{"standard", "ancientmed"} {
		b.Run(name, func(b *testing.B) {
			e, _ := NewEngine(name)
			st, res, _ := midGame(b, e)
			var buf bytes.Buffer
			if picturetest.MustDraw(b, e, st, res, "").WritePNG(&buf) != nil { // the map's caches
				b.Fatal("the first picture failed")
			}
			b.ReportAllocs()
			cpu0 := proccpu.Used()
			for b.Loop() {
				buf.Reset()
				p, err := e.Draw(st, res, "")
				if err != nil {
					b.Fatal(err)
				}
				if err := p.WritePNG(&buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

// A fleet on a coast of a multi-coast province stands at that coast's
// point, not at the province's.
func TestFleetOnCoastDrawnAtCoast(t *testing.T) {
	p, err := DrawJSON(strings.NewReader(`{"variant": "standard", "units": [
	    {"power": "France", "type": "fleet", "province": "spa", "coast": "nc"},
	    {"power": "Russia", "type": "fleet", "province": "stp", "coast": "sc"},
	    {"power": "Turkey", "type": "army", "province": "bul"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := MapByName("standard")
	b, _ := m.board()
	units := section(string(picturetest.SVG(t, p)), "units")
	for _, l := range []Location{{Province: "spa", Coast: "nc"}, {Province: "stp", Coast: "sc"}, {Province: "bul"}} {
		c := b.point(l)
		if l.Coast != "" && c == b.point(Location{Province: l.Province}) {
			t.Fatalf("%v: the coast point is the province's", l)
		}
		var want string
		if l.Coast != "" { // the hull's first corner
			want = fmt.Sprintf(`M%s %s`, fmtNum(c.X-14*unitK), fmtNum(c.Y-3*unitK))
		} else {
			want = fmt.Sprintf(`cx="%s" cy="%s"`, fmtNum(c.X), fmtNum(c.Y))
		}
		if !strings.Contains(units, want) {
			t.Errorf("%v: no unit drawn at %v (%s)", l, c, want)
		}
	}
}

// Pictures of one map drawn at once share the map's caches safely (run
// with -race) and come out the same.
func TestPictureConcurrent(t *testing.T) {
	e, _ := NewEngine("ancientmed")
	st, res, _ := midGame(t, e)
	want := picturetest.SVG(t, picturetest.MustDraw(t, e, st, res, ""))
	done := make(chan []byte)
	for i := 0; i < 4; i++ {
		go func() {
			p, err := e.Draw(st, res, "")
			if err != nil {
				done <- nil
				return
			}
			var b, svg bytes.Buffer
			if p.WritePNG(&b) != nil || p.WriteSVG(&svg) != nil {
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

// BenchmarkPicturePNGParallel is the deadline burst's view: pictures drawn
// and encoded on every core at once.
func BenchmarkPicturePNGParallel(b *testing.B) {
	e, _ := NewEngine("standard")
	st, res, _ := midGame(b, e)
	if picturetest.MustDraw(b, e, st, res, "").WritePNG(io.Discard) != nil { // the map's caches
		b.Fatal("the first picture failed")
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := proccpu.Used()
	defer func() {
		b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}()
	b.RunParallel(func(pb *testing.PB) {
		var buf bytes.Buffer
		for pb.Next() {
			buf.Reset()
			p, err := e.Draw(st, res, "")
			if err != nil {
				b.Error(err)
				return
			}
			if err := p.WritePNG(&buf); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
