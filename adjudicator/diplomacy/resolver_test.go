package diplomacy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A position may carry its own retreat options (pbemd adjudicate reads
// them as given). A retreat to a given option is carried out even where a
// unit stands; the resolver keeps both units, in province order as
// SortUnits leaves them, rather than losing one.
func TestRetreatToGivenOptionKeepsEveryUnit(t *testing.T) {
	m, _ := MapByName("standard")
	pos := &Position{Map: m, Phase: Phase{Fall, 1901, Retreats}, Owners: map[string]string{},
		Units: []Unit{
			{Power: "england", Type: Army, Loc: Location{Province: "lon"}},
			{Power: "germany", Type: Army, Loc: Location{Province: "yor"}},
		},
		Dislodged: []Dislodged{{Unit: Unit{Power: "france", Type: Army, Loc: Location{Province: "wal"}}, Options: []string{"lon"}}},
	}
	ords := []PowerOrder{{Power: "france", Order: Order{Kind: Retreat, Unit: Army, Loc: Location{Province: "wal"}, Target: Location{Province: "lon"}}}}
	res, err := Adjudicate(pos, ords)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(res.Next.Units), "[{england 1 {lon }} {france 1 {lon }} {germany 1 {yor }}]"; got != want {
		t.Errorf("units after the retreat: %s, want %s", got, want)
	}
}

// TestValidateRefusesBrokenPositions: Validate (and so Adjudicate) names
// what is wrong with a position that does not fit its map.
func TestValidateRefusesBrokenPositions(t *testing.T) {
	m, _ := MapByName("standard")
	army := func(power, prov string) Unit {
		return Unit{Power: power, Type: Army, Loc: Location{Province: prov}}
	}
	fleet := func(power, prov, coast string) Unit {
		return Unit{Power: power, Type: Fleet, Loc: Location{Province: prov, Coast: coast}}
	}
	for _, tc := range []struct {
		name string
		edit func(p *Position)
		want string
	}{
		{"winter movement", func(p *Position) { p.Phase = Phase{Winter, 1901, Movement} }, "adjustments happen in winter only"},
		{"no phase", func(p *Position) { p.Phase = Phase{} }, "bad phase"},
		{"unknown power", func(p *Position) { p.Units = append(p.Units, army("prussia", "boh")) }, `unit of unknown power "prussia"`},
		{"unknown province", func(p *Position) { p.Units = append(p.Units, army("austria", "bohx")) }, `unit in unknown province "bohx"`},
		{"army at sea", func(p *Position) { p.Units = append(p.Units, army("austria", "adr")) }, "an army cannot stand in adr"},
		{"army with a coast", func(p *Position) {
			p.Units = append(p.Units, Unit{"russia", Army, Location{Province: "fin", Coast: "nc"}})
		}, "an army has no coast"},
		{"fleet inland", func(p *Position) { p.Units = append(p.Units, fleet("austria", "boh", "")) }, "a fleet cannot stand in boh"},
		{"fleet without its coast", func(p *Position) { p.Units = append(p.Units, fleet("france", "spa", "")) }, "a fleet in spa needs one of the coasts"},
		{"fleet on a coast that is none", func(p *Position) { p.Units = append(p.Units, fleet("france", "gas", "nc")) }, `gas has no coast "nc"`},
		{"no unit type", func(p *Position) {
			p.Units = append(p.Units, Unit{Power: "france", Loc: Location{Province: "gas"}})
		}, "unit type missing"},
		{"two units", func(p *Position) { p.Units = append(p.Units, army("germany", "par")) }, "two units in par"},
		{"dislodged in spring", func(p *Position) { p.Dislodged = []Dislodged{{Unit: army("france", "bur")}} }, "dislodged units outside a retreat phase"},
		{"two dislodged", func(p *Position) {
			p.Phase.Type = Retreats
			p.Dislodged = []Dislodged{{Unit: army("france", "bur")}, {Unit: army("germany", "bur")}}
		}, "two dislodged units in bur"},
		{"unknown attacker", func(p *Position) {
			p.Phase.Type = Retreats
			p.Dislodged = []Dislodged{{Unit: army("france", "bur"), AttackerFrom: "xyz"}}
		}, `unknown attacker province "xyz"`},
		{"unknown standoff", func(p *Position) { p.Standoffs = []string{"xyz"} }, `unknown standoff province "xyz"`},
		{"owner of a sea", func(p *Position) { p.Owners["nth"] = "england" }, `"nth" is not a supply centre`},
		{"owner of nothing", func(p *Position) { p.Owners["LON"] = "england" }, `"LON" is not a supply centre`},
		{"owner unknown", func(p *Position) { p.Owners["bel"] = "prussia" }, `centre bel owned by unknown power "prussia"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := m.NewPosition()
			tc.edit(p)
			err := p.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want %q", err, tc.want)
			}
			if _, err2 := Adjudicate(p, nil); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("Adjudicate = %v, want the error of Validate", err2)
			}
		})
	}
	if err := m.NewPosition().Validate(); err != nil {
		t.Errorf("the start position: %v", err)
	}
}

// TestCheckedOrderText: the resolver prints a legal movement order from
// the provinces its check found; that text is what Format gives,
// for the orders of random games on both maps and for orders that name
// the wrong unit type or coast, or none (legal: DATC 4.B.5, 4.C.2).
func TestCheckedOrderText(t *testing.T) {
	n := 0
	try := func(pos *Position, po PowerOrder) {
		b := getResolver()
		defer b.release()
		if err := b.load(pos); err != nil {
			t.Fatal(err)
		}
		b.chk = moveCheck{m: pos.Map, unitAt: b.unitAt, units: pos.Units}
		for i, u := range pos.Units {
			if u.Type == Fleet && pos.Map.convoyable(b.unitProv[i]) {
				b.chk.fleets.set(b.unitProv[i])
			}
		}
		ck, why := b.chk.check(&po)
		if why != "" || len(po.Order.Path) > 0 {
			return
		}
		n++
		if got, want := string(b.appendChecked(nil, &po.Order, ck)), Format(po.Order, pos.Map.Lexicon()); got != want {
			t.Errorf("%s: %q, Format gives %q", pos.Phase.ID(), got, want)
		}
	}
	for _, name := range MapNames() {
		m, _ := MapByName(name)
		r := rand.New(rand.NewPCG(5, 8))
		pos := m.NewPosition()
		for pos.Phase.Year < m.StartYear+6 {
			ords := RandomOrders(pos, r, RandomOptions{Aggressive: true})
			if pos.Phase.Type == Movement {
				for _, po := range ords {
					try(pos, po)
				}
			}
			res, err := Adjudicate(pos, ords)
			if err != nil {
				t.Fatal(err)
			}
			pos = res.Next
		}
	}
	m, _ := MapByName("standard")
	pos := m.NewPosition()
	for _, tc := range []struct{ power, line string }{
		{"france", "Par - Bur"}, {"france", "F Par - Bur"}, {"france", "A Mar S F Par - Bur"}, {"france", "Mar S Par"},
		{"russia", "F StP/nc - Bot"}, {"russia", "F StP - Bot"}, {"england", "F Lon C A Lvp - Bel"}, {"england", "A Lvp - Edi via convoy"},
		{"france", "F Bre - Mao"}, {"italy", "A Ven H"}, {"turkey", "A Con S F Ank - Bla"},
	} {
		o, err := parseCaseOrder(m, tc.line, Movement)
		if err != nil {
			t.Fatal(err)
		}
		try(pos, PowerOrder{tc.power, o})
	}
	if n < 200 {
		t.Errorf("only %d legal orders printed", n)
	}
}

// TestMovementAllocations: a movement phase allocates its Result with the
// next Position, the order results, the next units, one string for every
// order's text and reason, and, when there are any, one list of standoffs,
// one of dislodged units and one of retreat options per dislodged unit
// (each list counted or gathered as a set first, not appended to).
func TestMovementAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes a sync.Pool drop resolvers")
	}
	m, _ := MapByName("standard")
	start := m.NewPosition()
	mid := midgamePosition(t)
	for _, c := range []struct {
		name string
		pos  *Position
		ords []PowerOrder
	}{
		{"Spring 1901", start, typedOrders(t, start, opening)},
		{"midgame", mid, typedOrders(t, mid, midgameOrders)},
	} {
		res, err := Adjudicate(c.pos, c.ords)
		if err != nil {
			t.Fatal(err)
		}
		want := 4
		if len(res.Standoffs) > 0 {
			want++
		}
		if len(res.Dislodged) > 0 {
			want++
		}
		for _, d := range res.Dislodged {
			if len(d.Options) > 0 {
				want++
			}
		}
		got := testing.AllocsPerRun(20, func() { Adjudicate(c.pos, c.ords) })
		if got != float64(want) {
			t.Errorf("%s: %v allocations a phase, want %d (%d standoffs, %d dislodged)", c.name, got, want, len(res.Standoffs), len(res.Dislodged))
		}
	}
}
