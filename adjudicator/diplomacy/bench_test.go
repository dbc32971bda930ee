package diplomacy

import (
	"strings"
	"testing"
	"unsafe"

	"pbemd/internal/proccpu"
)

// opening is the standard start with the 22 usual opening moves.
var opening = map[string][]string{
	"england": {"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"},
	"france":  {"F Bre - Mao", "A Par - Bur", "A Mar - Spa"},
	"germany": {"F Kie - Den", "A Ber - Kie", "A Mun - Ruh"},
	"italy":   {"F Nap - Ion", "A Rom - Apu", "A Ven H"},
	"austria": {"F Tri - Alb", "A Vie - Gal", "A Bud - Ser"},
	"russia":  {"F StP/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"},
	"turkey":  {"F Ank - Bla", "A Con - Bul", "A Smy - Arm"},
}

// midgameUnits and midgameOrders: Fall 1905, 34 units, supports, cuts, a
// head-to-head battle and two convoys.
var midgameUnits = map[string]string{
	"england": "F Nth, F Nwy, F Eng, A Bel, A Yor, F Ska",
	"france":  "A Bur, A Pic, F Mao, A Spa, A Mar",
	"germany": "A Mun, A Ruh, A Hol, F Den, F Kie",
	"italy":   "A Tyr, A Ven, F Tys, F Ion, A Tun",
	"austria": "A Vie, A Bud, A Ser, A Gal",
	"russia":  "A War, A Mos, F Sev, A Ukr, A Rum",
	"turkey":  "F Aeg, A Bul, A Con, F Bla",
}

var midgameOwners = map[string]string{
	"england": "lon edi lvp nwy swe", "france": "bre par mar bel spa por", "germany": "ber kie mun hol den",
	"italy": "rom ven nap tun", "austria": "vie bud tri ser", "russia": "mos war sev stp rum", "turkey": "con ank smy bul gre",
}

var midgameOrders = map[string][]string{
	"england": {"F Nth C A Yor - Hol", "A Yor - Hol", "F Eng S A Bel", "A Bel S A Yor - Hol", "F Nwy H", "F Ska - Den"},
	"france":  {"A Bur S A Pic - Bel", "A Pic - Bel", "F Mao - Eng", "A Spa - Gas", "A Mar S A Bur"},
	"germany": {"A Hol S A Ruh - Bel", "A Ruh - Bel", "F Den - Ska", "F Kie - Hel", "A Mun - Bur"},
	"italy":   {"A Tyr - Vie", "A Ven - Tri", "F Tys C A Tun - Nap", "F Ion C A Tun - Nap", "A Tun - Nap"},
	"austria": {"A Vie H", "A Bud S A Vie", "A Ser - Bul", "A Gal - Rum"},
	"russia":  {"A War - Gal", "A Ukr S A War - Gal", "A Rum S A Ser - Bul", "F Sev - Arm", "A Mos - Sev"},
	"turkey":  {"A Bul H", "A Con S A Bul", "F Bla S A Bul", "F Aeg - Gre"},
}

func midgamePosition(tb testing.TB) *Position {
	m, _ := MapByName("standard")
	pos := &Position{Map: m, Phase: Phase{Fall, 1905, Movement}, Owners: map[string]string{}}
	for _, p := range sortedKeys(midgameUnits) {
		for _, s := range strings.Split(midgameUnits[p], ", ") {
			u, err := readUnit(m, s)
			if err != nil {
				tb.Fatal(err)
			}
			u.Power = p
			pos.Units = append(pos.Units, u)
		}
		for _, sc := range strings.Fields(midgameOwners[p]) {
			pos.Owners[sc] = p
		}
	}
	if len(pos.Units) != 34 || len(pos.Owners) != 34 {
		tb.Fatalf("midgame: %d units, %d owned centres", len(pos.Units), len(pos.Owners))
	}
	pos.SortUnits()
	return pos
}

// midgame returns the midgame as engine state and canonical order lines.
func midgame(tb testing.TB) ([]byte, map[string][]string) {
	return encodeState(&gameState{pos: midgamePosition(tb)}), midgameOrders
}

func typedOrders(tb testing.TB, pos *Position, lines map[string][]string) []PowerOrder {
	var out []PowerOrder
	for _, p := range sortedKeys(lines) {
		for _, l := range lines[p] {
			o, err := parseCaseOrder(pos.Map, l, pos.Phase.Type)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, PowerOrder{Power: p, Order: o})
		}
	}
	return out
}

func TestMidgameResolves(t *testing.T) {
	pos := midgamePosition(t)
	res, err := Adjudicate(pos, typedOrders(t, pos, midgameOrders))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	for _, r := range res.Orders {
		if r.Outcome == Illegal {
			t.Errorf("%s %s illegal: %s", r.Power, r.Text, r.Reason)
		}
		got[r.Text] = r.Outcome
	}
	want := map[string]Outcome{
		"A Yor - Hol": Failed,                        // convoyed; Bel's support is cut by Ruh and Pic
		"A Ruh - Bel": Failed, "A Pic - Bel": Failed, // Bel holds with Eng's support
		"A Bur S A Pic - Bel": Failed, // cut by Mun
		"F Ska - Den":         Failed, "F Den - Ska": Failed,
		"A Tun - Nap": Succeeded,
		"A Tyr - Vie": Failed, // Vie holds with Bud
		"A Ser - Bul": Failed,
		"A War - Gal": Succeeded, "A Gal - Rum": Failed,
		"A Mos - Sev": Succeeded, "F Sev - Arm": Succeeded,
		"A Mun - Bur":         Failed,
		"A Hol S A Ruh - Bel": Failed, // cut by the convoyed army
		"F Kie - Hel":         Succeeded, "A Ven - Tri": Succeeded,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s", k, got[k], v)
		}
	}
	var dis []string
	for _, d := range res.Dislodged {
		dis = append(dis, unitText(pos.Map, d.Unit))
	}
	if !sameSet(dis, []string{"Austria: A Gal"}) {
		t.Errorf("dislodged %q", dis)
	}
}

func BenchmarkResolveSpring1901(b *testing.B) {
	m, _ := MapByName("standard")
	pos := m.NewPosition()
	ords := typedOrders(b, pos, opening)
	if len(ords) != 22 {
		b.Fatalf("%d orders", len(ords))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := proccpu.Used()
	for i := 0; i < b.N; i++ {
		if _, err := Adjudicate(pos, ords); err != nil {
			b.Fatal(err)
		}
	}
	// The processor time (the process's, garbage collector included) says
	// better than the wall clock what a phase costs on a shared machine.
	b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkResolveMidgame(b *testing.B) {
	pos := midgamePosition(b)
	ords := typedOrders(b, pos, midgameOrders)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Adjudicate(pos, ords); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEngineResolveSpring1901 measures the whole engine call the daemon
// makes: decode state, parse the canonical lines, adjudicate, encode the
// next state and render the reports.
func BenchmarkEngineResolveSpring1901(b *testing.B) {
	e, _ := NewEngine("standard")
	state, err := e.New(nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Resolve(state, opening, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate reads the mid-game position as Adjudicate does first.
func BenchmarkValidate(b *testing.B) {
	pos := midgamePosition(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := pos.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOrderPacks: an Order keeps its one-byte fields together (144 bytes
// on 64-bit machines, not 160), and an OrderResult, made for every order of
// every phase, points at its order instead of holding a copy, and its
// Outcome is a byte (64 bytes, not 208: result.go says so).
func TestOrderPacks(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the figure is for 64-bit machines")
	}
	if n := unsafe.Sizeof(Order{}); n > 144 {
		t.Errorf("an Order takes %d bytes, want 144", n)
	}
	if n := unsafe.Sizeof(OrderResult{}); n > 64 {
		t.Errorf("an OrderResult takes %d bytes, want 64", n)
	}
}
