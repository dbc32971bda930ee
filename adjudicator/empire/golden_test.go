package empire

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden report files in testdata/golden")

// TestGoldenReports keeps the mail text of a few phases in testdata/golden:
// the public report and each power's private part. Run with -update after
// a deliberate change and read the diff.
func TestGoldenReports(t *testing.T) {
	battle := "red FAC1 A1\nred RAD2 B1\nred RID3 B2\nred TD4 A2\nblue FAC1 H6\nblue RID3 C1\nblue TD4 C1\nblue RIC5 D2\ngreen FAC1 H1\ngreen EAD2 G2"
	cases := []struct {
		name   string
		units  string
		setup  func(g *Game)
		orders map[string][]string
	}{
		{"tactical-battle", battle, nil, map[string][]string{
			"red":  {"RAD2 B1-C1", "RID3 B2-C2", "SACRIFICE TD4"},
			"blue": {"RIC5 D2-C2", "CEASEFIRE"},
		}},
		{"tactical-fog", battle, func(g *Game) { g.Opts.Fog = 1 }, map[string][]string{
			"red":  {"RAD2 B1-C1", "RID3 B2-C2"},
			"blue": {"RIC5 D2-C2"},
		}},
		{"deployment", "red FAC1 A1\nred AGHQ2 B1\nred RAD3 C1-D1\nred RID4 A2\nred TD5 F4\nblue FAC1 H6\ngreen FAC1 H1", func(g *Game) { g.Step = stepDeploy }, map[string][]string{
			"red": {"TRANSFORM AGHQ2", "POOL RID4", "KEEP RAD3 D1"},
		}},
		{"production", "red FAC1 A1 saved=3\nred RID2 B1\nred RAD3 A1 pooled\nblue FAC1 H6\ngreen FAC1 H1", func(g *Game) { g.Step, g.Turns, g.Callers = stepBuild, 2, []string{"red"} }, map[string][]string{
			"red": {"BUY 2 RID B1", "BUY TD A1", "PLACE RAD3 B1"},
		}},
	}
	e := engine(t, "empire3")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGame(t, eightBoard, c.units)
			if c.setup != nil {
				c.setup(g)
			}
			st := g.encode("empire3")
			for p, ls := range c.orders {
				ck, err := e.Check(st, p, strings.Join(ls, "\n"))
				if err != nil || len(ck.Canonical) != len(ls) {
					t.Fatalf("%s orders %v: %v %+v", p, ls, err, ck.Lines)
				}
			}
			out, err := e.Resolve(st, c.orders, 7)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString("=== public\n" + out.Report.Public)
			for _, p := range g.Powers {
				b.WriteString("\n=== private " + p + "\n" + out.Report.Private[p])
			}
			path := filepath.Join("testdata", "golden", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("report differs from %s (run with -update after a deliberate change):\n%s", path, b.String())
			}
		})
	}
}
