package diplomacy

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"pbemd/orders"
)

// TestRandomOrdersComplete plays random games without gaps or silence:
// every order must be accepted by the engine's Check without an error, every
// dislodged unit must get a retreat or a disband, and every power must order
// exactly the adjustments it owes.
func TestRandomOrdersComplete(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			e, _ := NewEngine(name)
			m := e.Map()
			r := rand.New(rand.NewPCG(3, 5))
			opt := RandomOptions{Aggressive: true}
			pos := m.NewPosition()
			var retreats, adjustments int
			for pos.Phase.Year < m.StartYear+10 {
				ords := RandomOrders(pos, r, opt)
				state := encodeState(&gameState{pos: pos})
				for _, p := range m.Powers {
					mine := OrdersOf(ords, p.ID)
					text := ""
					for _, o := range mine {
						text += m.FormatOrder(o) + "\n"
					}
					ck, err := e.Check(state, p.ID, text)
					if err != nil {
						t.Fatal(err)
					}
					for _, l := range ck.Lines {
						for _, d := range l.Diags {
							if d.Severity == orders.Error {
								t.Errorf("%s %s: %q: %s", pos.Phase.ID(), p.ID, l.Text, d.Message)
							}
						}
					}
					if len(ck.Canonical) != len(mine) {
						t.Errorf("%s %s: %d orders drawn, %d stored", pos.Phase.ID(), p.ID, len(mine), len(ck.Canonical))
					}
				}
				switch pos.Phase.Type {
				case Retreats:
					retreats++
					if len(ords) != len(pos.Dislodged) {
						t.Errorf("%s: %d dislodged units, %d retreat orders", pos.Phase.ID(), len(pos.Dislodged), len(ords))
					}
				case Adjustments:
					adjustments++
					for p, n := range Owed(pos) {
						if got := len(OrdersOf(ords, p)); got != max(n, -n) {
							t.Errorf("%s: %s owes %d adjustments, ordered %d", pos.Phase.ID(), p, n, got)
						}
					}
				}
				res, err := Adjudicate(pos, ords)
				if err != nil {
					t.Fatal(err)
				}
				if res.Winner != "" {
					break
				}
				pos = res.Next
			}
			if retreats == 0 || adjustments == 0 {
				t.Errorf("the game had %d retreat and %d adjustment phases: too little exercised", retreats, adjustments)
			}
		})
	}
}

// TestRandomOrdersDeterministic: the same position and random stream give
// the same orders; another stream gives others.
func TestRandomOrdersDeterministic(t *testing.T) {
	m, _ := MapByName("ancientmed")
	pos := m.NewPosition()
	draw := func(seed uint64) []PowerOrder {
		return RandomOrders(pos, rand.New(rand.NewPCG(seed, 1)), RandomOptions{})
	}
	a, b, c := draw(9), draw(9), draw(10)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different orders:\n%v\n%v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 9 and 10 drew the same orders")
	}
}

func TestOrdersOf(t *testing.T) {
	hold := func(p string) Order {
		return Order{Kind: Hold, Unit: Army, Loc: Location{Province: p}}
	}
	all := []PowerOrder{{"rome", hold("rom")}, {"egypt", hold("ale")}, {"rome", hold("nea")}}
	for _, tc := range []struct {
		power string
		want  []Order
	}{
		{"rome", []Order{hold("rom"), hold("nea")}},
		{"egypt", []Order{hold("ale")}},
		{"persia", nil},
	} {
		t.Run(tc.power, func(t *testing.T) {
			if got := OrdersOf(all, tc.power); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEnginePosition: Position decodes what the engine stores, and refuses
// another map's state.
func TestEnginePosition(t *testing.T) {
	e, _ := NewEngine("ancientmed")
	state, err := e.New(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := e.Position(state)
	if err != nil {
		t.Fatal(err)
	}
	if want := e.Map().NewPosition(); fmt.Sprint(pos.Phase, pos.Units, pos.Owners) != fmt.Sprint(want.Phase, want.Units, want.Owners) {
		t.Errorf("decoded start position differs:\n got %v %v\nwant %v %v", pos.Phase, pos.Units, want.Phase, want.Units)
	}
	std, _ := NewEngine("standard")
	if _, err := std.Position(state); err == nil {
		t.Error("the standard engine decoded an ancientmed state")
	}
}

// TestRandomOrdersAggressive: aggressive play dislodges units more often
// than aimless play from the same seeds.
func TestRandomOrdersAggressive(t *testing.T) {
	m, _ := MapByName("ancientmed")
	dislodged := func(opt RandomOptions) int {
		n := 0
		for seed := uint64(1); seed <= 4; seed++ {
			r := rand.New(rand.NewPCG(seed, 5))
			pos := m.NewPosition()
			for pos.Phase.Year < m.StartYear+10 {
				res, err := Adjudicate(pos, RandomOrders(pos, r, opt))
				if err != nil {
					t.Fatal(err)
				}
				n += len(res.Dislodged)
				if res.Winner != "" {
					break
				}
				pos = res.Next
			}
		}
		return n
	}
	aimless, aggressive := dislodged(RandomOptions{}), dislodged(RandomOptions{Aggressive: true})
	t.Logf("dislodged units in 4 games of 10 years: aimless %d, aggressive %d", aimless, aggressive)
	if aggressive < 2*aimless || aggressive < 10 {
		t.Errorf("aggressive play dislodged %d units, aimless %d: want at least twice as many, and 10", aggressive, aimless)
	}
}
