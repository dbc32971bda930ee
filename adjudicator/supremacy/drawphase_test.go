package supremacy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pbemd/picture"
)

// everyEvent plays, on one board of the six superpowers, one phase with
// each kind of event the picture draws, through the engine's rules, and
// returns the position after them and a phase's results carrying all
// their marks.
func everyEvent(t *testing.T) (state, results []byte, marks []mark) {
	t.Helper()
	f := newFixture(t, "usa,commonwealth,eu,russia,china,japan", nil)
	take := func() { marks = append(marks, f.r.rep.marks...) }
	// Russia takes Ukraine from the EU (the seed's example).
	f.order("russia", "eu").armies("russia", "mos", 2).armies("russia", "vol", 1).armies("russia", "cau", 1).res("russia", 1, 1, 1)
	f.armies("eu", "ukr", 2)
	f.resolve(map[string][]string{"russia": {"ATTACK Ukraine FROM Moscow, Volgograd and the Caucasus"}}, 6, 4, 1, 2, 1, 5)
	take()
	// The US fails against Mexico: it raises 1 army, the US misses, Mexico hits.
	f.phase(PhaseAttack, 1).order("usa").armies("usa", "tex", 1).res("usa", 1, 1, 1)
	f.resolve(map[string][]string{"usa": {"ATTACK mex FROM tex"}}, 2, 3, 6)
	take()
	// Japan sinks China's fleet in the East China Sea.
	f.phase(PhaseAttack, 1).order("japan").navies("japan", "ecs", 3).navies("china", "ecs", 2).res("japan", 1, 1, 1)
	f.resolve(map[string][]string{"japan": {"ATTACK china IN ecs FROM ecs"}}, 6, 6, 1, 4, 1)
	take()
	// Japan lands in Korea from the Sea of Japan: Korea raises 1 army, the
	// three landed armies and two escorts score one hit, Korea misses.
	f.phase(PhaseAttack, 1).order("japan").armies("japan", "jap", 3).navies("japan", "soj", 3).res("japan", 2, 1, 1)
	f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj"}}, 2, 6, 1, 1, 1, 1, 1)
	take()
	// The EU's ICBMs: one hits Beijing; China's ABM shoots the other
	// down over Shanghai.
	f.phase(PhaseAttack, 1).order("eu", "china")
	f.player("eu").ICBM = 2
	f.player("china").ABM = 1
	f.resolve(map[string][]string{"eu": {"LAUNCH 1 AT bei, 1 AT sha"}}, 6)
	take()
	// Moves of armies and of navies.
	f.phase(PhaseMove, 1).order("japan", "commonwealth").armies("japan", "jap", 2).res("japan", 1, 0, 1).navies("commonwealth", "ino", 1).res("commonwealth", 1, 0, 0)
	f.resolve(map[string][]string{"japan": {"MOVE jap - kyu"}, "commonwealth": {"MOVE ino - ars"}})
	take()
	// A blockade of Russia's Brazilian company that holds, and one of
	// Japan's Australian one that fails.
	f.phase(PhaseSalaries, 1).order("usa", "commonwealth", "russia", "japan").give("russia", "paulista").give("japan", "ozmin")
	f.navies("usa", "car", 1).navies("commonwealth", "moa", 2).navies("commonwealth", "drk", 1)
	f.player("russia").Grain, f.player("japan").Minerals = 0, 0
	f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista", "BLOCKADE ozmin"}})
	take()
	// China seizes Siberian Oil from Russia in the Siberia it holds.
	f.phase(PhaseMove, 1).order("china").give("russia", "siboil").armies("china", "sib", 1)
	f.resolve(map[string][]string{"china": {"SEIZE siboil"}})
	take()
	data, err := json.Marshal(map[string]any{"phase": "Turn 1 Attack", "marks": marks})
	if err != nil {
		t.Fatal(err)
	}
	return f.w.encode(), data, marks
}

// The engine records a mark for each thing a phase did, and the picture
// draws each with its outcome: attacks won and lost, a naval battle,
// moves, ICBMs that hit and were shot down, a blockade that held and one
// that failed, a seizure.
func TestPictureDrawsEveryEvent(t *testing.T) {
	e := shipped(t)
	state, results, marks := everyEvent(t)
	var got []string
	for _, m := range marks {
		via := ""
		if m.Via != "" {
			via = " via " + m.Via
		}
		got = append(got, m.Kind+"/"+m.Result+"/"+m.Power+"/"+strings.Join(m.From, ",")+">"+m.To+"/"+m.Against+via)
	}
	want := []string{
		"attack/won/russia/mos,vol,cau>ukr/eu",
		"attack/lost/usa/tex>mex/",
		"naval/won/japan/ecs>ecs/china",
		"attack/won/japan/jap>kor/ via soj",
		"icbm/stopped/eu/>bei/china",
		"icbm/hit/eu/>sha/china",
		"move/done/japan/jap>kyu/",
		"move/done/commonwealth/ino>ars/",
		"blockade/failed/commonwealth/>aus/japan",
		"blockade/held/usa/car,moa,drk>bra/russia",
		"seize/done/china/>sib/russia",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	svg := string(svgOf(t, mustDraw(t, e, state, results, "")))
	b, _ := e.sc.drawing()
	hex := func(c picture.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
	dark := func(power string) string { return hex(b.darks[e.sc.powerByID[power]]) }
	// group returns the SVG of a mark's group (its arrows) and of its top
	// group (bursts, crosses, rings).
	group := func(k int, m mark) (under, over string) {
		id := fmt.Sprintf("mark-%d-%s-%s-%s", k+1, m.Kind, m.Result, m.To)
		for _, part := range []struct {
			id  string
			out *string
		}{{id, &under}, {id + "-top", &over}} {
			i := strings.Index(svg, `<g id="`+part.id+`">`)
			if i < 0 {
				t.Fatalf("no group %s in the picture", part.id)
			}
			j := strings.Index(svg[i:], "</g>")
			*part.out = svg[i : i+j]
		}
		return under, over
	}
	crossed := func(s string) bool { return strings.Contains(s, `stroke="`+hex(crossColor)+`"`) }
	for k, m := range marks {
		under, over := group(k, m)
		name := m.Kind + "/" + m.Result
		switch name {
		case "attack/won", "naval/won", "move/done":
			if m.Via != "" && !strings.Contains(under, "Q") {
				t.Errorf("%s via %s: want an arrow bent through the sea:\n%s", name, m.Via, under)
			}
			// (a battle in the attacker's own sea has no arrow)
			if len(m.From) > 0 && m.From[0] != m.To && !strings.Contains(under, `stroke="`+dark(m.Power)+`"`) || strings.Contains(under, `stroke="`+hex(failColor)) {
				t.Errorf("%s: want an arrow in %s's colour:\n%s", name, m.Power, under)
			}
			if strings.Count(under, `stroke="`+dark(m.Power)+`"`) != strings.Count(under, `fill="`+dark(m.Power)+`"`) {
				t.Errorf("%s: want filled heads:\n%s", name, under)
			}
			if wantBurst := m.Kind != "move"; strings.Contains(over, `fill="`+dark(m.Power)+`"`) != wantBurst || crossed(over) {
				t.Errorf("%s: burst %v wanted, no cross:\n%s", name, wantBurst, over)
			}
		case "attack/lost":
			if !strings.Contains(under, `stroke="`+hex(failColor)+`"`) || strings.Contains(under, `fill="`+hex(failColor)) || !crossed(over) {
				t.Errorf("%s: want a grey arrow with a hollow head and a red cross:\n%s\n%s", name, under, over)
			}
		case "icbm/hit":
			if !strings.Contains(under, "stroke-dasharray") || !strings.Contains(over, `fill="`+hex(crossColor)+`"`) {
				t.Errorf("%s: want a dashed arc and a red burst:\n%s\n%s", name, under, over)
			}
		case "icbm/stopped":
			if !strings.Contains(under, `stroke="`+hex(failColor)+`"`) || !crossed(over) {
				t.Errorf("%s: want a grey arc and a cross:\n%s\n%s", name, under, over)
			}
		case "blockade/held", "blockade/failed":
			failed := m.Result == "failed"
			ring := `stroke="` + dark(m.Power) + `"`
			if failed {
				ring = `stroke="` + hex(failColor) + `"`
			}
			if !strings.Contains(over, "<circle") || !strings.Contains(over, ring) || crossed(over) != failed {
				t.Errorf("%s: want a ring (%s), a cross only when failed:\n%s", name, ring, over)
			}
			if lines := strings.Count(under, "stroke-dasharray"); lines != len(m.From) {
				t.Errorf("%s: %d dashed lines from the seas, want %d", name, lines, len(m.From))
			}
		case "seize/done":
			if !strings.Contains(over, "<circle") || !strings.Contains(over, `stroke="`+dark(m.Power)+`"`) {
				t.Errorf("%s: want a ring in %s's colour:\n%s", name, m.Power, over)
			}
		default:
			t.Errorf("unexpected mark %s", name)
		}
	}
	// The legend names every kind.
	for _, want := range []string{"move", "attack won", "attack failed (on land or at sea)", "ICBM hit", "ICBM shot down", "blockade", "company seized"} {
		if !strings.Contains(svg, ">"+want+"</text>") {
			t.Errorf("the legend lacks %q", want)
		}
	}
}

// A player's own picture (item 10 of issue 31): its own events, what it
// did and what was done to it, are drawn larger, numbered, and listed in
// large type under the legend; others' events and the public picture are
// not.
func TestPictureShowsTheViewersOwnEvents(t *testing.T) {
	e := shipped(t)
	state, results, marks := everyEvent(t)
	pub := mustDraw(t, e, state, results, "")
	china := mustDraw(t, e, state, results, "china")
	if china.Height <= pub.Height || china.Width != pub.Width {
		t.Errorf("China's picture %dx%d, the public one %dx%d: want the strip below", china.Width, china.Height, pub.Width, pub.Height)
	}
	var lines []string
	walkText(china.Items, func(tx *picture.Text) {
		if tx.Size >= stripText {
			lines = append(lines, tx.S)
		}
	})
	want := []string{"China this phase:", "fleet in East China Sea sunk by Japan", "European Union's ICBM on Beijing shot down", "European Union's ICBM hit Shanghai", "seized Siberian Oil"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("China's strip:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Shown at 390 px wide, the strip's text is at least 11 px high and a
	// badge at least 11 px across.
	if got := stripText * 390 / float64(china.Width); got < picture.MinText {
		t.Errorf("the strip's text is %.1f px on a 390 px screen, want at least %d", got, picture.MinText)
	}
	if got := 2 * badgeRadius * 390 / float64(china.Width); got < picture.MinText {
		t.Errorf("a badge is %.1f px across on a 390 px screen, want at least %d", got, picture.MinText)
	}
	svgPub, svgChina := string(svgOf(t, pub)), string(svgOf(t, china))
	// firstItem is the first element of a group: an arrow's casing, or a
	// burst or ring.
	firstItem := func(svg, id string) string {
		i := strings.Index(svg, `<g id="`+id+`">`)
		if i < 0 {
			t.Fatalf("no group %s", id)
		}
		lines := strings.SplitN(svg[i:], "\n", 3)
		return lines[1]
	}
	for k, m := range marks {
		id := fmt.Sprintf("mark-%d-%s-%s-%s", k+1, m.Kind, m.Result, m.To)
		own := m.Power == "china" || m.Against == "china"
		for _, g := range []string{id, id + "-top"} {
			a, b := firstItem(svgChina, g), firstItem(svgPub, g)
			if bigger := a != b; bigger != own && a != "</g>" {
				t.Errorf("%s: China's picture draws it larger: %v, want %v\n%s\n%s", g, bigger, own, a, b)
			}
		}
	}
	// Badges 1 to 4 on China's map, none on the public one.
	for n := 1; n <= 4; n++ {
		if !strings.Contains(svgChina, fmt.Sprintf(`font-size="%d" text-anchor="middle" font-weight="bold" fill="#ffffff">%d</text>`, badgeText, n)) {
			t.Errorf("no badge %d on China's picture", n)
		}
	}
	if strings.Contains(svgPub, `id="yours"`) || strings.Contains(svgPub, fmt.Sprintf(`font-size="%d"`, badgeText)) {
		t.Error("the public picture has a strip or badges")
	}
	// A position without results has no strip, whoever looks.
	if p := mustDraw(t, e, state, nil, "china"); p.Height != pub.Height {
		t.Errorf("a position's picture for China is %d high, want %d", p.Height, pub.Height)
	}
}
