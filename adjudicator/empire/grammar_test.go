package empire

import (
	"strings"
	"testing"

	"pbemd/orders"
)

func grammarGame(t testing.TB) *Game {
	return testGame(t, openBoard, `
red FAC1 A1
red RAD2 C4-D4
red RID3 C4
red AGHQ4 B2
red TD5 B2
blue RID3 F1`)
}

func TestGrammar(t *testing.T) {
	g := grammarGame(t)
	cases := []struct {
		line, want string // want: canonical line, or "error: <part of the message>"
		warn       bool
	}{
		{"RAD2 C4-D4", "RAD2 C4-D4", false},
		{"rad2 c4 - d4", "RAD2 C4-D4", false},
		{"RAD2 -> C4-D4", "RAD2 C4-D4", false},
		{"RAD2 move C4 to D4", "RAD2 C4-D4", false},
		{"Regular Armored Division 2 C4-D4", "RAD2 C4-D4", false},
		{"RAD-2 C4-D4", "RAD2 C4-D4", false},
		{"RAD 2 C4 D4", "error: not understood", false},
		{"RAD 2 C4-D4", "RAD2 C4-D4", false},
		{"RID3 C4", "RID3 C4", false},
		{"RID3 stays C4", "RID3 C4", false},
		{"RID3 hold", "RID3 HOLD", false},
		{"RID3 H", "RID3 HOLD", false},
		{"RDI3 C4", "RID3 C4", true},
		{"RID C4", "RID3 C4", true},
		{"RID5 C4", "error: not one of your units", false},
		{"RID4 C4", "error: not one of your units", false},
		{"XYZ9 C4", "error: is not a unit I know", false},
		{"RID3 Z9", "error: not on the board", false},
		{"RID3 north", "error: is not a hex", false},
		{"RID3 C44", "error: not on the board", false},
		{"RID3 G2", "error: not on the board", false},
		{"RID3", "error: say where", false},
		{"RID3 C4 please", "error: not understood", false},
		{"CEASEFIRE", "CEASEFIRE", false},
		{"cease fire", "CEASEFIRE", false},
		{"No ceasefire", "NO CEASEFIRE", false},
		{"fight on", "NO CEASEFIRE", false},
		{"BID 3", "BID 3", false},
		{"bid three", "error: a number is missing", false},
		{"BUY 2 RID C4", "BUY 2 RID C4", false},
		{"buy rid at c4", "BUY RID C4", false},
		{"BUY 2 Regular Infantry Division in C4", "BUY 2 RID C4", false},
		{"BUY 1 RID C4", "BUY RID C4", false},
		{"BUY XYZ C4", "error: is not a unit type I know", false},
		{"BUY FAC A1", "error: is not a unit type I know", false},
		{"SAVE 5 FAC1", "SAVE 5 FAC1", false},
		{"SAVE FAC1 5", "SAVE 5 FAC1", false},
		{"save 5 in fac1", "SAVE 5 FAC1", false},
		{"PLACE RID3 C4", "PLACE RID3 C4", false},
		{"deploy RID3 at C4", "PLACE RID3 C4", false},
		{"KEEP RAD2 D4", "KEEP RAD2 D4", false},
		{"KEEP RAD2", "KEEP RAD2", false},
		{"RAD2 keep", "KEEP RAD2", false},
		{"POOL RID3", "POOL RID3", false},
		{"RID3 pool", "POOL RID3", false},
		{"TRANSFORM AGHQ4", "TRANSFORM AGHQ4", false},
		{"transform AGHQ4 into factory", "TRANSFORM AGHQ4", false},
		{"SACRIFICE TD5", "SACRIFICE TD5", false},
		{"cannibalize TD5", "SACRIFICE TD5", false},
		{"RETREAT RAD2 C4", "RETREAT RAD2 C4", false},
		{"RAD2 retreat to C4", "RETREAT RAD2 C4", false},
		{"RETREAT RID3", "RETREAT RID3", false},
	}
	gr, err := g.newGrammar("red")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			sc := orders.NewScanner(c.line, false)
			v := gr.ParseOrder(sc)
			o, _ := v.(*Order)
			var errs, warns []string
			for _, d := range sc.Diagnostics() {
				if d.Severity == orders.Error {
					errs = append(errs, d.Message)
				} else {
					warns = append(warns, d.Message)
				}
			}
			if msg, isErr := strings.CutPrefix(c.want, "error: "); isErr {
				if o != nil && !sc.Failed() {
					t.Fatalf("read as %q", formatOrder(g.World, *o))
				}
				if !strings.Contains(strings.Join(errs, "; "), msg) && !(msg == "not understood" && len(errs) > 0) {
					t.Errorf("errors %q, want one containing %q", errs, msg)
				}
				return
			}
			if o == nil || sc.Failed() {
				t.Fatalf("not read: %v", sc.Diagnostics())
			}
			got := formatOrder(g.World, *o)
			if got != c.want {
				t.Errorf("read as %q, want %q", got, c.want)
			}
			if (len(warns) > 0) != c.warn {
				t.Errorf("warnings %q, want some: %v", warns, c.warn)
			}
			// The canonical line reads back strictly as the same order.
			sc2 := orders.NewScanner(got, true)
			o2, _ := gr.ParseOrder(sc2).(*Order)
			if o2 == nil || *o2 != *o {
				t.Errorf("canonical %q reads back as %+v (%v)", got, o2, sc2.Diagnostics())
			}
		})
	}
}

// Whole mails: orders among greetings, commands and signatures.
func TestMailOrders(t *testing.T) {
	g := grammarGame(t)
	body := "Hi GM,\n\nRAD2 C4-D4\nRID3 hold\nPRESS TO blue\nRID3 C4-C5 ha\nENDPRESS\nCEASEFIRE\nThanks\nAnna\n-- \nRID3 C5"
	res, err := g.parseOrders("red", body, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range res.Values() {
		got = append(got, formatOrder(g.World, *v.(*Order)))
	}
	if strings.Join(got, "|") != "RAD2 C4-D4|RID3 HOLD|CEASEFIRE" {
		t.Errorf("orders %v", got)
	}
	if len(res.Errors()) != 0 {
		t.Errorf("errors %+v", res.Errors())
	}
}

func FuzzGrammar(f *testing.F) {
	for _, s := range []string{"RAD2 C4-D4", "BUY 2 RID C4", "SAVE FAC1 5", "RETREAT RAD2 C4", "KEEP RAD2 D4", "rid3 h", "cease fire", "RID 3 -> C4 / D4", "BUY 9999 RID C4", "PLACE RID3 Z99"} {
		f.Add(s)
	}
	g := grammarGame(f)
	gr, err := g.newGrammar("red")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\r\n") {
			return
		}
		sc := orders.NewScanner(line, false)
		o, _ := gr.ParseOrder(sc).(*Order)
		if o == nil || sc.Failed() {
			return
		}
		canon := formatOrder(g.World, *o)
		sc2 := orders.NewScanner(canon, true)
		o2, _ := gr.ParseOrder(sc2).(*Order)
		if o2 == nil || *o2 != *o || formatOrder(g.World, *o2) != canon {
			t.Fatalf("%q -> %q -> %+v", line, canon, o2)
		}
		// Whatever was read, validation never panics.
		for _, step := range []string{stepTactical, stepDeploy, stepBid, stepBuild} {
			g.Step = step
			g.collect("red", []Order{*o})
		}
		g.Step = stepTactical
	})
}
