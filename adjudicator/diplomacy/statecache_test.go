package diplomacy

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// corpusStates returns the stored states of the mid-game corpus: 200
// positions of every phase type, retreats and adjustments included.
func corpusStates(tb testing.TB) [][]byte {
	var out [][]byte
	for _, cp := range readCorpusPhases(tb) {
		out = append(out, encodeState(&gameState{pos: mustRead(tb, cp.State).pos}))
	}
	return out
}

// readCorpusPhases reads the mid-game corpus's phases: state, orders, results.
func readCorpusPhases(tb testing.TB) []corpusPhase {
	f, err := os.Open(corpusFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusPhase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var cp corpusPhase
		if err := json.Unmarshal(sc.Bytes(), &cp); err != nil {
			tb.Fatal(err)
		}
		out = append(out, cp)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func mustRead(tb testing.TB, state []byte) *gameState {
	tb.Helper()
	g, err := readState(state, mapOf("standard"))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestDecodedStatesAreCopies: a state decoded again comes from the map's
// cache and is what reading the JSON gives, however the caller changed
// the copy it got before.
func TestDecodedStatesAreCopies(t *testing.T) {
	m, _ := MapByName("standard")
	states := corpusStates(t)
	for _, st := range states {
		want := mustRead(t, st)
		for round := range 3 {
			g, err := decodeState(st, mapOf("standard"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, want) {
				t.Fatalf("%s, decode %d: %+v, want %+v", want.pos.Phase.ID(), round+1, g.pos, want.pos)
			}
			// What a careless caller might do to its copy.
			g.pos.Units[0].Loc.Province = "xxx"
			g.pos.Units = g.pos.Units[:1]
			for sc := range g.pos.Owners {
				g.pos.Owners[sc] = "nobody"
			}
			for i := range g.pos.Dislodged {
				g.pos.Dislodged[i].Options = append(g.pos.Dislodged[i].Options[:0], "xxx")
			}
			g.winners = append(g.winners, "nobody")
		}
	}
	if n := m.states.len(); n == 0 || n > stateCacheSize {
		t.Errorf("%d states kept for %d decoded, want 1 to %d", n, len(states), stateCacheSize)
	}
}

// TestDecodeStateConcurrently: goroutines decoding the same states at
// once get what reading the JSON gives (run with -race).
func TestDecodeStateConcurrently(t *testing.T) {
	states := corpusStates(t)[:40]
	want := make([]*gameState, len(states))
	for i, st := range states {
		want[i] = mustRead(t, st)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * len(states) {
				i := (k + 5*w) % len(states)
				g, err := decodeState(states[i], mapOf("standard"))
				if err != nil || !reflect.DeepEqual(g, want[i]) {
					errs <- want[i].pos.Phase.ID()
					return
				}
				g.pos.Units[0].Power = "nobody"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for id := range errs {
		t.Errorf("a concurrent decode of %s differs from the JSON", id)
	}
}

// TestBadStateNotKept: a state that fails to decode fails every time.
func TestBadStateNotKept(t *testing.T) {
	bad := []byte(`{"version": 1, "variant": "standard", "phase": {"season": "spring", "year": 1901, "type": "movement"}, "units": [{"power": "prussia", "type": "army", "province": "ber"}], "supply_centers": {}}`)
	for range 2 {
		if _, err := decodeState(bad, mapOf("standard")); err == nil {
			t.Fatal("a unit of an unknown power decoded")
		}
	}
}

// BenchmarkDecodeState: a state read for the first time (the JSON), and
// read again (the map's cache: a copy).
func BenchmarkDecodeState(b *testing.B) {
	st := corpusStates(b)[100]
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readState(st, mapOf("standard")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeState(st, mapOf("standard")); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCheckLeavesTheStateAlone: Check and Merge read the cache's own
// decoded state (viewState), not a copy: after each power's orders of
// every phase of the corpus are checked and merged, what the cache holds
// is still what reading the JSON gives.
func TestCheckLeavesTheStateAlone(t *testing.T) {
	e, ok := NewEngine("standard")
	if !ok {
		t.Fatal("no standard map")
	}
	m, _ := MapByName("standard")
	checked := 0
	for _, cp := range readCorpusPhases(t) {
		st := []byte(cp.State)
		want := mustRead(t, st)
		for power, lines := range cp.Orders {
			ck, err := e.Check(st, power, strings.Join(lines, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			e.Merge(st, ck.Canonical, ck.Canonical[:min(1, len(ck.Canonical))])
			checked++
		}
		got, ok := m.states.view(st)
		if !ok {
			continue // pushed out of the cache by later states
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d %s: the cached state changed under Check", cp.Game, want.pos.Phase.ID())
		}
	}
	if checked == 0 {
		t.Fatal("no orders checked")
	}
}

// TestResolvedStatesKeptAsTheyRead: the state Resolve returns is kept
// decoded, and what the cache holds for it is what reading its JSON gives,
// in every phase of the corpus (so Status and the pictures of the new
// state see what a daemon restarted from the store would see).
func TestResolvedStatesKeptAsTheyRead(t *testing.T) {
	e := engineFor(t, "standard")
	m, _ := MapByName("standard")
	n := 0
	for _, cp := range readCorpusPhases(t) {
		out, err := e.Resolve(cp.State, cp.Orders, 0)
		if err != nil {
			t.Fatal(err)
		}
		kept, ok := m.states.view(out.Next)
		if !ok {
			t.Fatalf("game %d: the resolved state is not kept", cp.Game)
		}
		if want := mustRead(t, out.Next); !reflect.DeepEqual(kept, want) {
			t.Fatalf("game %d: kept %+v, reading the JSON gives %+v", cp.Game, kept.pos, want.pos)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("%d corpus phases", n)
	}
}

// mapOf is the embedded map name, for the tests that decode its states.
func mapOf(name string) *Map {
	m, _ := MapByName(name)
	return m
}
