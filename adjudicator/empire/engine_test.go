package empire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/orders"
)

func engine(t testing.TB, name string) *Engine {
	t.Helper()
	e, ok := NewEngine(name)
	if !ok {
		t.Fatalf("no engine %s", name)
	}
	return e
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"empire", "empire2", "empire3", "empire-random"} {
		e, ok := adjudicator.Lookup(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		info := e.Info()
		if !info.Simultaneous || info.Game != "empire" || info.Rules == "" || len(info.Examples) == 0 {
			t.Errorf("%s: %+v", name, info)
		}
	}
	if got := engine(t, "empire3").Info().Powers; strings.Join(got, " ") != "red blue green" {
		t.Errorf("powers %v", got)
	}
}

func TestNewOptions(t *testing.T) {
	e := engine(t, "empire2")
	cases := []struct {
		opts map[string]string
		err  string
	}{
		{nil, ""},
		{map[string]string{"units": "reduced", "fog": "on", "retreat": "on", "max_bid": "3", "max_turns": "5", "max_rounds": "2", "silent_ceasefire": "off"}, ""},
		{map[string]string{"world": "duel"}, ""},
		{map[string]string{"world": "generated", "width": "14", "height": "10"}, ""},
		{map[string]string{"colour": "red"}, "unknown option"},
		{map[string]string{"players": "3"}, "number of players"},
		{map[string]string{"world": "moon"}, "unknown world"},
		{map[string]string{"fog": "9"}, "fog"},
		{map[string]string{"units": "some"}, "units"},
		{map[string]string{"max_bid": "0"}, "max_bid"},
	}
	for _, c := range cases {
		t.Run(strings.Join(sortedKeys(c.opts), ","), func(t *testing.T) {
			st, err := e.New(c.opts, 42)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g, err := e.decode(st)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.opts {
				if k == "units" && g.Opts.Units != v || k == "world" && g.Opts.World != v {
					t.Errorf("option %s not kept", k)
				}
			}
		})
	}
	if _, err := engine(t, "empire3").New(map[string]string{"world": "duel"}, 1); err == nil {
		t.Error("the duel world seated three players")
	}
}

func TestNewGame(t *testing.T) {
	e := engine(t, "empire")
	st, err := e.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Status(st)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "R01S2" || s.Kind != adjudicator.PhaseBuild || len(s.Waiting) != 4 || len(s.Alive) != 4 || s.Over {
		t.Errorf("status %+v", s)
	}
	for _, p := range s.Alive {
		if s.Scores[p] < 18 {
			t.Errorf("%s starts with production %d", p, s.Scores[p])
		}
	}
	if !strings.Contains(s.Summary, "FAC1 D3") || !strings.Contains(s.Summary, " A   B   C") {
		t.Errorf("summary:\n%s", s.Summary)
	}
	g, _ := e.decode(st)
	for _, p := range g.Powers {
		if n := len(g.unitsOf(p)); n != 6 {
			t.Errorf("%s has %d start units", p, n)
		}
	}
	// The state re-encodes byte for byte.
	if again := g.encode("empire"); !bytes.Equal(again, st) {
		t.Error("decode then encode changed the state")
	}
}

func TestStateDecodeRefuses(t *testing.T) {
	e := engine(t, "empire2")
	st, _ := e.New(nil, 1)
	for name, mutate := range map[string]func(m map[string]any){
		"unknown field":  func(m map[string]any) { m["extra"] = 1 },
		"future version": func(m map[string]any) { m["version"] = 99 },
		"other engine":   func(m map[string]any) { m["engine"] = "empire3" },
		"unknown step":   func(m map[string]any) { m["step"] = "lunch" },
		"bad unit hex": func(m map[string]any) {
			m["units"].([]any)[0] = "red FAC1 Z99"
		},
		"bad unit flag": func(m map[string]any) {
			m["units"].([]any)[0] = "red FAC1 D3 sleepy"
		},
		"unit of unknown type": func(m map[string]any) {
			m["units"].([]any)[0] = "red XYZ1 D3"
		},
		"duplicate unit": func(m map[string]any) {
			us := m["units"].([]any)
			m["units"] = append(us, us[0])
		},
	} {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(st, &m); err != nil {
				t.Fatal(err)
			}
			mutate(m)
			b, _ := json.Marshal(m)
			if _, err := e.Status(b); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// Check reports each line; illegal orders are not kept; a later order for
// a unit replaces an earlier one; the notes say what is left to defaults.
func TestCheck(t *testing.T) {
	e := engine(t, "empire2")
	g := testGame(t, openBoard, "red FAC1 A1\nred RAD2 B1\nred RID3 C1\nblue RID1 F4")
	g.Powers = []string{"red", "blue"}
	st := g.encode("empire2")
	ck, err := e.Check(st, "red", "Hello\nRAD2 B1-C1\nRID3 E1\nRAD2 B1-B2\nBID 3\nnonsense here\nPRESS TO blue\nhi\nENDPRESS")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ck.Canonical, "|") != "RAD2 B1-B2" {
		t.Errorf("canonical %q", ck.Canonical)
	}
	diag := func(no int) string {
		var out []string
		for _, d := range ck.Lines[no-1].Diags {
			out = append(out, d.Message)
		}
		return strings.Join(out, "; ")
	}
	if !strings.Contains(diag(2), "replaced") || !strings.Contains(diag(3), "half a hex") || !strings.Contains(diag(5), "not an order for this phase") {
		t.Errorf("diagnostics:\n2: %s\n3: %s\n5: %s", diag(2), diag(3), diag(5))
	}
	if ck.Lines[5].Kind != orders.ErrorLine || ck.Lines[6].Kind != orders.CommandLine {
		t.Errorf("line kinds %v %v", ck.Lines[5].Kind, ck.Lines[6].Kind)
	}
	notes := strings.Join(ck.Notes, "\n")
	if !strings.Contains(notes, "RID3 has no order: it keeps its position (C1)") || !strings.Contains(notes, "You fight on") {
		t.Errorf("notes:\n%s", notes)
	}
	// An unknown power is the daemon's error, not the player's.
	if _, err := e.Check(st, "purple", "BID 1"); err == nil {
		t.Error("unknown power accepted")
	}
}

func TestMerge(t *testing.T) {
	e := engine(t, "empire2")
	g := testGame(t, openBoard, "red RAD2 B1\nred RID3 C1\nblue RID1 F4")
	g.Powers = []string{"red", "blue"}
	st := g.encode("empire2")
	got := e.Merge(st, []string{"RAD2 B1-C1", "RID3 C1-D1", "CEASEFIRE", "SACRIFICE RID3"}, []string{"RAD2 B1", "NO CEASEFIRE"})
	if strings.Join(got, "|") != "RID3 C1-D1|SACRIFICE RID3|RAD2 B1|NO CEASEFIRE" {
		t.Errorf("tactical merge %q", got)
	}
	g.Step = stepBid
	st = g.encode("empire2")
	if got = e.Merge(st, []string{"BID 2"}, []string{"BID 5"}); strings.Join(got, "|") != "BID 5" {
		t.Errorf("bid merge %q", got)
	}
	g.Step = stepDeploy
	st = g.encode("empire2")
	if got = e.Merge(st, []string{"POOL RID3", "KEEP RAD2"}, []string{"KEEP RID3"}); strings.Join(got, "|") != "KEEP RAD2|KEEP RID3" {
		t.Errorf("deployment merge %q", got)
	}
	g.Step, g.Turns = stepBuild, 1
	st = g.encode("empire2")
	got = e.Merge(st, []string{"BUY RID A1"}, []string{"BUY RAD A1"})
	if strings.Join(got, "|") != "BUY RAD A1" {
		t.Errorf("production merge %q", got)
	}
}

// A whole round through the engine: bids, production, tactical turns to a
// ceasefire, deployment, and the next bids.
func TestRoundThroughEngine(t *testing.T) {
	e := engine(t, "empire2")
	st, err := e.New(map[string]string{"world": "duel"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	step := func(ords map[string][]string, wantNext string) adjudicator.Outcome {
		t.Helper()
		for p, ls := range ords {
			ck, err := e.Check(st, p, strings.Join(ls, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if len(ck.Canonical) != len(ls) {
				t.Fatalf("%s: %v kept of %v: %+v", p, ck.Canonical, ls, ck.Lines)
			}
			ords[p] = ck.Canonical
		}
		out, err := e.Resolve(st, ords, 11)
		if err != nil {
			t.Fatal(err)
		}
		st = out.Next
		s, _ := e.Status(st)
		if s.ID != wantNext {
			t.Fatalf("next phase %s, want %s\n%s", s.ID, wantNext, out.Report.Public)
		}
		return out
	}
	out := step(map[string][]string{"red": {"BID 2"}, "blue": {"BID 3"}}, "R01S3")
	if !strings.Contains(out.Report.Public, "Strategic turns of production: 2. The ceasefire was broken by Red.") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
	if strings.Contains(out.Report.Public, "3") && strings.Contains(out.Report.Public, "bid was") {
		t.Error("a bid leaked into the public report")
	}
	if !strings.Contains(out.Report.Private["blue"], "Your bid was 3.") || strings.Contains(out.Report.Private["red"], "was 3") {
		t.Errorf("private bids: red %q blue %q", out.Report.Private["red"], out.Report.Private["blue"])
	}
	out = step(map[string][]string{"red": {"BUY 2 RID D4", "BUY RAD D4"}}, "R01T01")
	if !strings.Contains(out.Report.Public, "Red built in D4: RID7, RID8, RAD9") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
	if !strings.Contains(out.Report.Private["red"], "spent 20") || strings.Contains(out.Report.Public, "spent") {
		t.Errorf("production account: private %q", out.Report.Private["red"])
	}
	out = step(map[string][]string{"red": {"RAD9 D4-E4", "RID7 D4-E4"}, "blue": {"CEASEFIRE"}}, "R01T02")
	if !strings.Contains(out.Report.Public, "Red moves: RID7 D4 → D4-E4; RAD9 D4 → D4-E4") || !strings.Contains(out.Report.Public, "No ceasefire") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
	if !strings.Contains(out.Report.Private["red"], "RID7 (Regular Infantry Division) on the move in D4, half in E4") {
		t.Errorf("private:\n%s", out.Report.Private["red"])
	}
	out = step(map[string][]string{"red": {"CEASEFIRE"}, "blue": {"CEASEFIRE"}}, "R02S1")
	out = step(map[string][]string{"red": {"POOL RID7"}}, "R02S2")
	if !strings.Contains(out.Report.Public, "Red put 1 unit into unit pools.") || strings.Contains(out.Report.Public, "RID7 pool") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
	if !strings.Contains(out.Report.Private["red"], "Your unit pools: RID7") {
		t.Errorf("private:\n%s", out.Report.Private["red"])
	}
	var data []PhaseResult
	if err := json.Unmarshal(out.Report.Data, &data); err != nil || len(data) != 1 || data[0].Deploy == nil {
		t.Errorf("data %s: %v", out.Report.Data, err)
	}
}

// Phases in which nobody can act are resolved at once.
func TestPhasesWithoutOrdersAreSkipped(t *testing.T) {
	e := engine(t, "empire2")
	g := testGame(t, openBoard, "red FAC1 A1\nblue FAC1 F4")
	g.Powers = []string{"red", "blue"}
	st := g.encode("empire2")
	if s, _ := e.Status(st); len(s.Waiting) != 0 {
		t.Fatalf("waiting %v", s.Waiting)
	}
	out, err := e.Resolve(st, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.Status(out.Next)
	if s.ID != "R02S2" {
		t.Errorf("next %s", s.ID)
	}
	if !strings.Contains(out.Report.Public, "Round 1 tactical turn 1 — results") || !strings.Contains(out.Report.Public, "Round 2 strategic phase: deployment — results") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
}

// The game ends when one power is left, or after the last round with the
// largest production.
func TestGameEnd(t *testing.T) {
	t.Run("last power standing", func(t *testing.T) {
		g := testGame(t, openBoard, "red FAC1 A1\nred RAD2 B1\nblue RID1 B1")
		g.Powers = []string{"red", "blue"}
		for seed := uint64(0); ; seed++ {
			c := g.clone()
			pr := c.resolvePhase(map[string]*orderSet{}, newRand(seed))
			if len(c.Units) == 2 { // red won the battle
				if !pr.Over || strings.Join(pr.Winners, " ") != "red" || strings.Join(pr.Eliminated, " ") != "blue" || c.Step != stepEnd {
					t.Errorf("%+v", pr)
				}
				return
			}
			if seed > 50 {
				t.Fatal("red never won")
			}
		}
	})
	t.Run("no factory and no army group HQ at the end of a tactical phase", func(t *testing.T) {
		g := testGame(t, openBoard, "red FAC1 A1\nblue EID1 F4\ngreen AGHQ1 C3\ngreen FAC2 F1")
		g.Turn = g.Opts.MaxTurns
		pr := g.resolvePhase(map[string]*orderSet{}, newRand(1))
		if strings.Join(pr.Eliminated, " ") != "blue" || len(pr.Surrender) != 1 || pr.Over {
			t.Errorf("%+v", pr)
		}
	})
	t.Run("round limit", func(t *testing.T) {
		g := testGame(t, openBoard, "red FAC1 A1\nred RID2 B1\nblue FAC1 F4\ngreen FAC1 C3\ngreen RID2 D3")
		g.Round, g.Turn = g.Opts.MaxRounds, g.Opts.MaxTurns
		pr := g.resolvePhase(map[string]*orderSet{}, newRand(1))
		if !pr.Over || strings.Join(pr.Winners, " ") != "red green" {
			t.Errorf("%+v", pr)
		}
		if s := g.status(); !s.Over || len(s.Waiting) != 0 {
			t.Errorf("status %+v", s)
		}
	})
}

// Check never fails on player input, and its canonical lines check again to
// themselves.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"RAD5 C3-B3\nCEASEFIRE", "RID2 E3\nRID2 E3-F3", "SACRIFICE TD6\nRETREAT RAD5", "BID 2", "BUY 3 RID D3", "Hello\n> quoted\nRID3 hold\n-- \nsig"} {
		f.Add(s, uint8(0))
	}
	e := engine(f, "empire2")
	base, err := e.New(nil, 5)
	if err != nil {
		f.Fatal(err)
	}
	g, _ := e.decode(base)
	states := map[uint8][]byte{}
	for i, step := range []string{stepTactical, stepDeploy, stepBid, stepBuild} {
		c := g.clone()
		c.Step, c.Turn, c.Turns = step, 1, 2
		states[uint8(i)] = c.encode("empire2")
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		st := states[which%4]
		ck, err := e.Check(st, "red", text)
		if err != nil {
			t.Fatalf("Check failed on player input: %v", err)
		}
		again, err := e.Check(st, "red", strings.Join(ck.Canonical, "\n"))
		if err != nil || strings.Join(again.Canonical, "\n") != strings.Join(ck.Canonical, "\n") {
			t.Fatalf("canonical %q checks to %q (%v)", ck.Canonical, again.Canonical, err)
		}
		if _, err := e.Resolve(st, map[string][]string{"red": ck.Canonical}, 1); err != nil {
			t.Fatalf("resolve: %v", err)
		}
	})
}

// The engine is safe for concurrent use: the daemon resolves games on every
// core. Under -race this also checks the shared caches.
func TestConcurrentResolve(t *testing.T) {
	e := engine(t, "empire-random")
	g := battle500(t)
	g.Powers = []string{"red", "blue", "green", "yellow"}
	st := g.encode("empire-random")
	want, err := e.Resolve(st, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte)
	for i := 0; i < 4; i++ {
		go func() {
			out, err := e.Resolve(st, nil, 9)
			if err != nil {
				done <- nil
				return
			}
			done <- out.Next
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; !bytes.Equal(got, want.Next) {
			t.Error("concurrent resolves differ")
		}
	}
}

// View shows a power its own position and nothing of the other's hidden
// units under fog.
func TestViewIsPrivate(t *testing.T) {
	e, _ := NewEngine("empire2")
	state, err := e.New(map[string]string{"fog": "1"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	red, err := e.View(state, "red")
	if err != nil {
		t.Fatal(err)
	}
	blue, _ := e.View(state, "blue")
	if !strings.Contains(red, "your position (Red)") || !strings.Contains(blue, "your position (Blue)") || red == blue {
		t.Fatalf("views:\n%s\n---\n%s", red, blue)
	}
	if _, err := e.View(state, "green"); err == nil {
		t.Fatal("a view for a power not in the game")
	}
	var _ adjudicator.Viewer = e
}
