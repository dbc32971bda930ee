package empire

import "testing"

// Seed, "Movement": positions a unit may take in one tactical turn.
func TestMovementRules(t *testing.T) {
	cases := []struct {
		name  string
		unit  string // testGame unit line
		legal []string
		bad   []string
	}{
		{"armor standing", "red RAD1 C2", []string{"C2", "C2-D2", "C2-B2", "D2-C2", "C2-C1"}, []string{"D2", "D2-E2", "E2"}},
		{"armor on the move", "red RAD1 C2-D2", []string{"C2", "D2", "C2-D2", "D2-C2", "D2-E2", "C2-B2", "C1-C2"}, []string{"E2", "E2-F2", "B2"}},
		{"infantry standing", "red RID1 C2", []string{"C2", "C2-D2", "C2-B2", "C2-C3"}, []string{"D2", "D2-C2", "B2-C2"}},
		{"infantry on the move", "red RID1 C2-D2", []string{"C2", "D2", "C2-D2", "C2-B2", "D2-C2"}, []string{"D2-E2", "E2", "B2", "E2-D2"}},
		{"headquarters like infantry", "red CHQ1 C2", []string{"C2", "C2-D2"}, []string{"D2"}},
		{"transport like infantry", "red TD1 C2-D2", []string{"D2-C2", "D2"}, []string{"D2-E2"}},
		{"stationary", "red FAC1 C2", []string{"C2"}, []string{"C2-D2", "D2"}},
		{"disabled", "red RIC1 C2-D2 disabled", []string{"C2-D2"}, []string{"C2", "D2", "D2-C2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGame(t, openBoard, c.unit)
			u := g.Units[0]
			parse := func(s string) Pos {
				p := Pos{-1, -1}
				if len(s) > 2 && s[2] == '-' {
					p.At, p.To = hex(t, g, s[:2]), hex(t, g, s[3:])
				} else {
					p.At = hex(t, g, s)
				}
				return p
			}
			for _, s := range c.legal {
				if err := g.canTake(u, parse(s)); err != nil {
					t.Errorf("%s refused: %v", s, err)
				}
			}
			for _, s := range c.bad {
				if err := g.canTake(u, parse(s)); err == nil {
					t.Errorf("%s allowed", s)
				}
			}
			// options lists exactly the legal positions.
			for _, p := range g.options(u) {
				if err := g.canTake(u, p); err != nil {
					t.Errorf("option %s illegal: %v", g.posName(p), err)
				}
			}
		})
	}
}

// Seed: armor moves one hex a turn, infantry, headquarters and transports
// half a hex. Standing in a hex three steps away takes armor 4 turns (three
// moves and a stop) and slower units 6.
func TestMovementSpeed(t *testing.T) {
	for _, c := range []struct {
		unit  string
		turns int
	}{{"red RAD1 A1", 4}, {"red EAD1 A1", 4}, {"red RID1 A1", 6}, {"red AGHQ1 A1", 6}, {"red TD1 A1", 6}} {
		t.Run(c.unit, func(t *testing.T) {
			g := testGame(t, []string{"# # # # # #", " . . . . . ."}, c.unit)
			u := g.Units[0]
			goal := Pos{hex(t, g, "D1"), -1}
			// Breadth-first search over positions.
			seenPos := map[Pos]bool{u.pos(): true}
			frontier := []Pos{u.pos()}
			for turn := 1; turn <= 10; turn++ {
				var next []Pos
				for _, p := range frontier {
					u.At, u.To = p.At, p.To
					for _, q := range g.options(u) {
						if !seenPos[q] {
							seenPos[q] = true
							next = append(next, q)
						}
					}
				}
				if seenPos[goal] {
					if turn != c.turns {
						t.Errorf("reached D1 in %d turns, want %d", turn, c.turns)
					}
					return
				}
				frontier = next
			}
			t.Errorf("D1 never reached")
		})
	}
}

// A unit on the move is present in both hexes it covers (1.5 or 2 hexes):
// it has contact with enemies in either.
func TestMovingUnitIsInBothHexes(t *testing.T) {
	g := testGame(t, openBoard, "red RID1 C2-D2\nblue RAD1 D2")
	u := g.find("red", "RID1")
	if !u.in(hex(t, g, "C2")) || !u.in(hex(t, g, "D2")) || u.in(hex(t, g, "E2")) {
		t.Error("presence")
	}
	bs := g.combat(newRand(1), nil)
	if len(bs) != 1 || len(g.Units) != 1 {
		t.Errorf("half presence gave no battle: %d battles, units %s", len(bs), unitsText(g))
	}
}
