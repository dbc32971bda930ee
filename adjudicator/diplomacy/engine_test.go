package diplomacy

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

func engineFor(t *testing.T, name string) adjudicator.Engine {
	t.Helper()
	e, ok := adjudicator.Lookup(name)
	if !ok {
		t.Fatalf("engine %q not registered", name)
	}
	return e
}

// stateOf encodes a position written like a case file: units "england: F Lon".
func stateOf(t *testing.T, variant string, ph Phase, units []string, owners map[string]string, dislodged []Dislodged) []byte {
	t.Helper()
	m, _ := MapByName(variant)
	pos := &Position{Map: m, Phase: ph, Owners: owners, Dislodged: dislodged}
	for _, s := range units {
		pw, us, _ := strings.Cut(s, ": ")
		u, err := readUnit(m, us)
		if err != nil {
			t.Fatal(err)
		}
		u.Power = pw
		pos.Units = append(pos.Units, u)
	}
	if err := pos.Validate(); err != nil {
		t.Fatal(err)
	}
	fillRetreatOptions(pos)
	pos.SortUnits()
	return encodeState(&gameState{pos: pos})
}

func TestEngineInfoAndNew(t *testing.T) {
	for _, tc := range []struct {
		name, id, title string
		powers          int
	}{
		{"standard", "S1901M", "Spring 1901 Movement", 7},
		{"ancientmed", "S450M", "Spring 450 AUC Movement", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := engineFor(t, tc.name)
			info := e.Info()
			if info.Name != tc.name || info.Game != "diplomacy" || !info.Simultaneous || len(info.Powers) != tc.powers || info.Rules == "" {
				t.Errorf("info %+v", info)
			}
			if _, err := e.New(map[string]string{"press": "none"}, 1); err == nil || !strings.Contains(err.Error(), "press") {
				t.Errorf("unknown option accepted: %v", err)
			}
			state, err := e.New(nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			st, err := e.Status(state)
			if err != nil {
				t.Fatal(err)
			}
			if st.ID != tc.id || st.Title != tc.title || st.Kind != adjudicator.PhaseOrders || len(st.Waiting) != tc.powers || len(st.Alive) != tc.powers || st.Over {
				t.Errorf("status %+v", st)
			}
			if !strings.Contains(st.Summary, "centres") {
				t.Errorf("summary %q", st.Summary)
			}
		})
	}
	st, _ := engineFor(t, "standard").Status(mustNew(t, "standard"))
	if st.Scores["russia"] != 4 || st.Scores["england"] != 3 {
		t.Errorf("scores %v", st.Scores)
	}
}

func mustNew(t *testing.T, name string) []byte {
	s, err := engineFor(t, name).New(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheck(t *testing.T) {
	e := engineFor(t, "standard")
	state := mustNew(t, "standard")
	tests := []struct {
		name, power, text string
		canonical         []string
		diag              string // a diagnostic that must appear
		note              string // a note that must appear
	}{
		{"canonical lines", "england", "F Lon - Nth\nA Lvp - Yor", []string{"F Lon - Nth", "A Lvp - Yor"}, "", "F Edi has no order: it will hold"},
		{"long form", "england", "Fleet London to North Sea\nArmy Liverpool -> Yorkshire", []string{"F Lon - Nth", "A Lvp - Yor"}, "", "F Edi has no order"},
		{"foreign unit", "england", "A Par - Bur", []string{"A Par - Bur"}, "A Par belongs to France", ""},
		{"impossible move", "england", "F Lon - Pic", []string{"F Lon - Pic"}, "cannot reach Pic", ""},
		{"no unit", "england", "A Wal - Lon", []string{"A Wal - Lon"}, "there is no unit in Wal", ""},
		{"later order replaces", "england", "F Lon - Nth\nF Lon - Eng", []string{"F Lon - Eng"}, "replaced by the later order on line 2", ""},
		{"other power's heading", "england", "France: A Par - Bur", nil, "you play England, not France", ""},
		{"support", "france", "A Par - Bur\nA Mar S A Par - Bur", []string{"A Par - Bur", "A Mar S A Par - Bur"}, "", "F Bre has no order"},
		{"own unit named with the wrong coast", "russia", "F StP/nc - Bot", []string{"F StP/sc - Bot"}, "", "A Mos has no order"},
		{"fleet to a split coast it cannot reach", "russia", "F StP/sc - Bar", []string{"F StP/sc - Bar"}, "cannot reach Bar", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ck, err := e.Check(state, tc.power, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ck.Canonical, tc.canonical) {
				t.Errorf("canonical %q, want %q", ck.Canonical, tc.canonical)
			}
			var diags []string
			for _, l := range ck.Lines {
				for _, d := range l.Diags {
					diags = append(diags, d.Message)
				}
			}
			if tc.diag != "" && !strings.Contains(strings.Join(diags, "\n"), tc.diag) {
				t.Errorf("diagnostics %q lack %q", diags, tc.diag)
			}
			if len(tc.canonical) == 0 && len(diags) == 0 {
				t.Errorf("nothing accepted and no diagnostic")
			}
			if tc.note != "" && !strings.Contains(strings.Join(ck.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", ck.Notes, tc.note)
			}
		})
	}
}

func TestPhaseSequence(t *testing.T) {
	e := engineFor(t, "standard")
	state := mustNew(t, "standard")
	step := func(orders map[string][]string, wantID, wantTitle string, wantKind adjudicator.PhaseKind, waiting ...string) adjudicator.Outcome {
		t.Helper()
		out, err := e.Resolve(state, orders, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, err := e.Status(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if st.ID != wantID || st.Title != wantTitle || st.Kind != wantKind {
			t.Fatalf("next phase %s %q %s, want %s %q %s\n%s", st.ID, st.Title, st.Kind, wantID, wantTitle, wantKind, out.Report.Public)
		}
		if waiting != nil && !reflect.DeepEqual(st.Waiting, waiting) {
			t.Fatalf("waiting %v, want %v", st.Waiting, waiting)
		}
		state = out.Next
		return out
	}
	// No dislodgement: no retreat phase.
	step(map[string][]string{"france": {"A Par - Bur", "A Mar - Spa"}, "germany": {"A Mun - Ruh"}}, "F1901M", "Fall 1901 Movement", adjudicator.PhaseOrders)
	// France takes Spain, Germany Holland: adjustments for those two only.
	out := step(map[string][]string{"france": {"A Bur - Bel", "A Spa H"}, "germany": {"A Ruh - Hol"}}, "W1901A", "Winter 1901 Adjustments", adjudicator.PhaseBuild, "france", "germany")
	for _, want := range []string{"Supply centres:", "France: 5 (Bel Bre Mar Par Spa), 3 units: builds 2", "Next phase: Winter 1901 Adjustments"} {
		if !strings.Contains(out.Report.Public, want) {
			t.Errorf("report lacks %q:\n%s", want, out.Report.Public)
		}
	}
	if !strings.Contains(out.Report.Private["france"], "You may build 2 units") {
		t.Errorf("private %q", out.Report.Private)
	}
	ck, err := e.Check(state, "france", "Build A Par\nBuild F Mar")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ck.Canonical, []string{"Build A Par", "Build F Mar"}) {
		t.Errorf("canonical %q, lines %+v", ck.Canonical, ck.Lines)
	}
	step(map[string][]string{"france": ck.Canonical}, "S1902M", "Spring 1902 Movement", adjudicator.PhaseOrders)
	st, _ := e.Status(state)
	if st.Scores["france"] != 5 || st.Scores["germany"] != 4 {
		t.Errorf("scores %v", st.Scores)
	}
	// A dislodgement leads to a retreat phase for its owner only.
	state = stateOf(t, "standard", Phase{Fall, 1902, Movement}, []string{"germany: A Mun", "germany: A Ruh", "france: A Bur"}, map[string]string{"mun": "germany", "par": "france"}, nil)
	step(map[string][]string{"germany": {"A Mun - Bur", "A Ruh S A Mun - Bur"}}, "F1902R", "Fall 1902 Retreats", adjudicator.PhaseRetreat, "france")
}

func TestRetreatPhaseAndReports(t *testing.T) {
	e := engineFor(t, "ancientmed")
	state := stateOf(t, "ancientmed", Phase{Fall, 451, Movement},
		[]string{"rome: A Rom", "rome: A Rav", "carthage: A Apu", "greece: A Nea"},
		map[string]string{"rom": "rome", "rav": "rome", "nea": "rome"}, nil)
	out, err := e.Resolve(state, map[string][]string{
		"rome":   {"A Rom - Apu", "A Rav S A Rom - Apu"},
		"greece": {"A Nea - Apu"},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := e.Status(out.Next)
	if st.ID != "F451R" || st.Title != "Fall 451 AUC Retreats" || st.Kind != adjudicator.PhaseRetreat || !reflect.DeepEqual(st.Waiting, []string{"carthage"}) {
		t.Fatalf("status %+v\n%s", st, out.Report.Public)
	}
	for _, want := range []string{
		"Fall 451 AUC Movement — results",
		"A Rom - Apu", "succeeded",
		"A Nea - Apu", "failed: beaten by A Rom (1 against 2)",
		"Carthage: (no orders received)", "A Apu H", "no order: held, dislodged",
		"Dislodged:", "Carthage A Apu (attacked from Rom): no retreat possible",
		"Next phase: Fall 451 AUC Retreats",
	} {
		if !strings.Contains(out.Report.Public, want) {
			t.Errorf("public report lacks %q:\n%s", want, out.Report.Public)
		}
	}
	if !strings.Contains(out.Report.Private["carthage"], "Your A Apu was dislodged with no retreat possible: it is disbanded in Fall 451 AUC Retreats (order A Apu D, or nothing).") {
		t.Errorf("private %q", out.Report.Private)
	}
	var data ResultData
	if err := json.Unmarshal(out.Report.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Phase != "F451M" || data.Next != "F451R" || len(data.Orders) != 3 || len(data.Dislodged) != 1 || data.Dislodged[0].AttackerFrom != "rom" {
		t.Errorf("data %+v", data)
	}
	// Retreat phase: the unit has nowhere to go; the Fall centre update follows.
	ck, err := e.Check(out.Next, "carthage", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ck.Notes, "\n"), "A Apu has no retreat order: it will be disbanded") {
		t.Errorf("notes %q", ck.Notes)
	}
	out2, err := e.Resolve(out.Next, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ = e.Status(out2.Next)
	// Greece takes Nea, Rome keeps two centres for two units: no
	// adjustments, and Carthage is out of the game.
	if st.ID != "S452M" || !strings.Contains(out2.Report.Public, "A Apu D") || !strings.Contains(out2.Report.Public, "no order: disbanded") ||
		!strings.Contains(out2.Report.Public, "Carthage is eliminated.") || !reflect.DeepEqual(st.Alive, []string{"greece", "rome"}) {
		t.Errorf("%+v\n%s", st, out2.Report.Public)
	}
}

func TestVictoryAndElimination(t *testing.T) {
	e := engineFor(t, "standard")
	m, _ := MapByName("standard")
	owners := map[string]string{"tun": "italy"}
	n := 0
	for _, sc := range m.SupplyCentres() {
		if sc != "tun" && sc != "bel" && n < 17 {
			owners[sc] = "england"
			n++
		}
	}
	state := stateOf(t, "standard", Phase{Fall, 1910, Movement}, []string{"england: A Pic", "england: A Naf"}, owners, nil)
	out, err := e.Resolve(state, map[string][]string{"england": {"A Pic - Bel", "A Naf - Tun"}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Italy is eliminated.", "England has 19 supply centres and wins the game."} {
		if !strings.Contains(out.Report.Public, want) {
			t.Errorf("report lacks %q:\n%s", want, out.Report.Public)
		}
	}
	st, _ := e.Status(out.Next)
	if !st.Over || len(st.Waiting) != 0 || !reflect.DeepEqual(st.Winners(), []string{"england"}) || st.Result.Kind != "solo" || st.Result.Text != "England has won with a solo victory: 19 supply centres (18 were needed)." || reflect.DeepEqual(st.Alive, []string{"england", "italy"}) {
		t.Errorf("status %+v", st)
	}
	if _, err := e.Resolve(out.Next, nil, 0); err == nil {
		t.Error("a finished game was resolved again")
	}
}

func TestStateEncoding(t *testing.T) {
	e := engineFor(t, "standard")
	state := mustNew(t, "standard")
	g, err := decodeState(state, mapOf("standard"))
	if err != nil {
		t.Fatal(err)
	}
	if again := encodeState(g); string(again) != string(state) {
		t.Errorf("state does not round-trip:\n%s\n%s", state, again)
	}
	bad := []struct{ name, state, want string }{
		{"not json", "{", "diplomacy state"},
		{"future version", strings.Replace(string(state), `"version": 1`, `"version": 99`, 1), "version 99 not supported"},
		{"unknown field", strings.Replace(string(state), `"version": 1`, `"version": 1, "colour": "red"`, 1), "unknown field"},
		{"other variant", strings.Replace(string(state), `"variant": "standard"`, `"variant": "ancientmed"`, 1), "variant"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.Status([]byte(tc.state)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestAdjustmentNotes(t *testing.T) {
	e := engineFor(t, "standard")
	state := stateOf(t, "standard", Phase{Winter, 1901, Adjustments}, []string{"france: A Bur", "germany: A Mun", "germany: A Ber", "germany: F Kie"},
		map[string]string{"par": "france", "mar": "france", "bre": "france", "mun": "germany"}, nil)
	ck, err := e.Check(state, "france", "Build A Par\nBuild A Mun")
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(ck.Notes, "\n")
	if !reflect.DeepEqual(ck.Canonical, []string{"Build A Par", "Build A Mun"}) || !strings.Contains(notes, "France may build 2 units in Bre, Mar or Par; 1 ordered") || !strings.Contains(notes, "1 build not ordered will be waived") {
		t.Errorf("canonical %q notes %q", ck.Canonical, ck.Notes)
	}
	ck, _ = e.Check(state, "germany", "")
	if !strings.Contains(strings.Join(ck.Notes, "\n"), "Germany must disband 2 units; 0 ordered") {
		t.Errorf("notes %q", ck.Notes)
	}
	out, err := e.Resolve(state, map[string][]string{"france": {"Build A Par"}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Report.Public, "civil disorder: disbanded") || !strings.Contains(out.Report.Public, "Built: France A Par\n") || !strings.Contains(out.Report.Public, "1 build not ordered: waived") {
		t.Errorf("report:\n%s", out.Report.Public)
	}
	g, _ := decodeState(out.Next, mapOf("standard"))
	if c := g.pos.UnitCount(); c["germany"] != 1 || c["france"] != 2 {
		t.Errorf("units after adjustments %v", c)
	}
	_ = Army
}

// An order that cannot succeed is stored as written and revealed at the
// deadline as illegal, with its reason; the unit holds.
func TestIllegalOrderStoredAndRevealed(t *testing.T) {
	e := engineFor(t, "standard")
	state := mustNew(t, "standard")
	ck, err := e.Check(state, "england", "F Lon - Pic\nA Lvp - Yor")
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Resolve(state, map[string][]string{"england": ck.Canonical}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Report.Public, "F Lon - Pic") || !strings.Contains(out.Report.Public, "illegal") {
		t.Errorf("the illegal order is not revealed:\n%s", out.Report.Public)
	}
	// Issue 16 item 7: the unit appears once, on its illegal order's line,
	// with the reason and what it did instead; not again as "no order".
	if n := strings.Count(out.Report.Public, "F Lon"); n != 1 {
		t.Errorf("F Lon appears %d times in the results, want once:\n%s", n, out.Report.Public)
	}
	for _, l := range strings.Split(out.Report.Public, "\n") {
		if strings.Contains(l, "F Lon - Pic") && !strings.HasSuffix(l, "; the unit held") {
			t.Errorf("the illegal order's line does not say the unit held: %q", l)
		}
	}
	if !strings.Contains(out.Report.Public, "F Edi H") {
		t.Errorf("a unit with no order at all is no longer listed:\n%s", out.Report.Public)
	}
	st, _ := e.Status(out.Next)
	if !strings.Contains(st.Summary, "F Lon") || !strings.Contains(st.Summary, "A Yor") {
		t.Errorf("F Lon must hold and A Lvp move:\n%s", st.Summary)
	}
}

func TestMergeReplacesPerUnitExceptInAdjustments(t *testing.T) {
	e := engineFor(t, "standard").(adjudicator.Merger)
	state := mustNew(t, "standard")
	got := e.Merge(state, []string{"F Lon - Nth", "A Lvp - Yor"}, []string{"A Lvp - Wal", "F Edi - Nwg"})
	want := []string{"F Lon - Nth", "A Lvp - Wal", "F Edi - Nwg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("movement merge %q, want %q", got, want)
	}
	if got := e.Merge(state, want, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("merging nothing changed the set: %q", got)
	}
	adj := stateOf(t, "standard", Phase{Winter, 1901, Adjustments}, []string{"france: A Bur"},
		map[string]string{"par": "france", "mar": "france", "bre": "france"}, nil)
	if got := e.Merge(adj, []string{"Build A Par", "Build A Mar"}, []string{"Build F Bre"}); !reflect.DeepEqual(got, []string{"Build F Bre"}) {
		t.Errorf("adjustment merge %q: the newer set must replace the standing one", got)
	}
}

// HELP shows Info().Examples: every one must be understood by the parser
// on its map (a note in parentheses aside).
func TestExamplesParse(t *testing.T) {
	for _, name := range MapNames() {
		t.Run(name, func(t *testing.T) { checkExamplesParse(t, engineFor(t, name).(*Engine)) })
	}
}

// checkExamplesParse: a map's HELP examples show a move, a hold and a
// build (a map whose powers start with one unit each too, the test board
// of TestCheckMapSound), and every one of them parses on that map.
func checkExamplesParse(t *testing.T, e *Engine) {
	t.Helper()
	ex := e.Info().Examples
	all := strings.Join(ex, "\n")
	for _, kind := range []string{" - ", " H", "Build "} {
		if !strings.Contains(all, kind) {
			t.Errorf("%s: no example with %q among %q", e.m.Name, kind, ex)
		}
	}
	for _, line := range ex {
		if i := strings.Index(line, "   ("); i >= 0 {
			line = line[:i]
		}
		if _, diags, err := ParseOrder(line, ParseOptions{Lexicon: e.m.Lexicon()}); err != nil {
			t.Errorf("%s: example %q: %v %v", e.m.Name, line, err, diags)
		}
	}
}
