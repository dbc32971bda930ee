package empire

import (
	"strings"
	"testing"
)

// eightBoard is an 8×6 all-land board.
var eightBoard = []string{
	"# # # # # # # #",
	"# # # # # # # #",
	"# # # # # # # #",
	"# # # # # # # #",
	"# # # # # # # #",
	"# # # # # # # #",
}

// Without fog the world board is public: every move and every shot.
func TestPublicReport(t *testing.T) {
	e := engine(t, "empire3")
	g := testGame(t, eightBoard, "red FAC1 A1\nred RAD2 B1\nblue FAC1 H6\nblue RID3 C1\nblue TD4 C1\ngreen FAC1 H1")
	out, err := e.Resolve(g.encode("empire3"), map[string][]string{"red": {"RAD2 B1-C1"}, "blue": {"RID3 HOLD"}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	pub := out.Report.Public
	for _, want := range []string{"Red moves: RAD2 B1 → B1-C1", "Battle 1 in C1 (Red 1 v Blue 2):", "destroys", "lost", "The world after these results:", "Production per strategic turn:"} {
		if !strings.Contains(pub, want) {
			t.Errorf("public lacks %q:\n%s", want, pub)
		}
	}
	if strings.Contains(pub, "Green moves") {
		// green has no mobile unit: it owes no orders
		t.Errorf("green reported silent although it has nothing to move:\n%s", pub)
	}
	if !strings.Contains(out.Report.Private["red"], "Supply group 1") {
		t.Errorf("private:\n%s", out.Report.Private["red"])
	}
}

// With fog of war a power sees only hexes near its units: nothing else
// reaches its report, and the public report shows no position.
func TestFogOfWar(t *testing.T) {
	e := engine(t, "empire3")
	g := testGame(t, eightBoard, `
red FAC1 A1
red RAD2 B1
blue RID3 C1
blue EAC9 H6
blue FAC1 H5
green FAC1 H1
green RAD4 G1`)
	g.Opts.Fog = 1
	st := g.encode("empire3")
	s, _ := e.Status(st)
	for _, secret := range []string{"EAC9", "RAD2", "H6", "FAC1"} {
		if strings.Contains(s.Summary, secret) {
			t.Errorf("summary shows %q:\n%s", secret, s.Summary)
		}
	}
	out, err := e.Resolve(st, map[string][]string{
		"red":   {"RAD2 B1-C1"},
		"blue":  {"EAC9 H6-G6"},
		"green": {"RAD4 G1-F1"},
	}, 3)
	if err != nil {
		t.Fatal(err)
	}
	pub := out.Report.Public
	for _, secret := range []string{"RAD2", "RID3", "EAC9", "RAD4", "B1", "C1", "G6", "Battle"} {
		if strings.Contains(pub, secret) {
			t.Errorf("public report shows %q:\n%s", secret, pub)
		}
	}
	red, blue, green := out.Report.Private["red"], out.Report.Private["blue"], out.Report.Private["green"]
	// Red fought RID3 next to it; it never sees blue's far armor or green.
	if !strings.Contains(red, "Battle 1 in C1") || strings.Contains(red, "EAC9") || strings.Contains(red, "RAD4") || strings.Contains(red, "Green") && strings.Contains(red, "G1") {
		t.Errorf("red's report:\n%s", red)
	}
	// Blue lost or won the battle in C1, and sees its own armor move.
	if !strings.Contains(blue, "Battle 1 in C1") || !strings.Contains(blue, "EAC9 H6 → H6-G6") {
		t.Errorf("blue's report:\n%s", blue)
	}
	// Green's armor moved next to blue's factory: green sees blue's EAC9
	// in G6 (one hex from F1? no: G6 is far) but not the battle in C1.
	if strings.Contains(green, "Battle") || strings.Contains(green, "RAD2") {
		t.Errorf("green's report:\n%s", green)
	}
	// Each private map shows " ? " for hexes out of sight.
	if !strings.Contains(red, " ? ") {
		t.Errorf("red's map shows no hidden hexes:\n%s", red)
	}
}

// Pools, savings and bids are private even without fog.
func TestPrivateStrategicInformation(t *testing.T) {
	e := engine(t, "empire3")
	g := testGame(t, eightBoard, "red FAC1 A1 saved=7\nred RID2 B1\nblue FAC1 H6\ngreen FAC1 H1")
	g.Step = stepDeploy
	out, err := e.Resolve(g.encode("empire3"), map[string][]string{"red": {"POOL RID2"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.Report.Public, "RID2") || strings.Contains(out.Report.Public, "saved") {
		t.Errorf("public:\n%s", out.Report.Public)
	}
	if !strings.Contains(out.Report.Private["red"], "RID2") || !strings.Contains(out.Report.Private["red"], "7 saved") {
		t.Errorf("red:\n%s", out.Report.Private["red"])
	}
	if strings.Contains(out.Report.Private["blue"], "RID2") || strings.Contains(out.Report.Private["blue"], "7 saved") {
		t.Errorf("blue:\n%s", out.Report.Private["blue"])
	}
}
