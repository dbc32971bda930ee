package diplomacy

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"pbemd/internal/proccpu"
)

// The mid-game corpus, testdata/corpus/midgame.jsonl, is the input of
// BenchmarkResolveCorpus and a golden record of the resolver: 200 phases
// (movement, retreat and adjustment phases as they come) of random play on
// the standard map. It is generated, never edited by hand:
//
//	go test -run TestCorpus -update-corpus ./adjudicator/diplomacy
//
// The generator (writeCorpus) plays game after game from the start, game g
// drawing its orders with RandomOrders(pos, rand.New(rand.NewPCG(g,
// corpusStream)), corpusOptions) — aggressive play, a silent power now and
// then, gaps left to civil disorder. Each drawn order is printed in canonical
// form and read back, and the read-back orders are adjudicated. Every phase
// from corpusFirstYear up to corpusLastYear is kept, until there are
// corpusPhases. One JSON object a line:
//
//	{"game": 1, "state": <the stored engine state before the phase>,
//	 "orders": {"austria": ["A Vie - Gal", …], …},
//	 "results": ["austria: A Vie - Gal => failed: standoff with A War (1 against 1)", …],
//	 "next": "<first 16 bytes of the SHA-256 of the stored state after, hex>"}
//
// TestCorpus regenerates the corpus in memory and wants the file byte for
// byte: a change of any order's outcome, reason or the next position fails it.
const (
	corpusFile      = "testdata/corpus/midgame.jsonl"
	corpusPhases    = 200
	corpusStream    = 2026
	corpusFirstYear = 1903
	corpusLastYear  = 1908
)

var corpusOptions = RandomOptions{Aggressive: true, SilentOdds: 12, Gaps: true}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite "+corpusFile)

type corpusPhase struct {
	Game    int                 `json:"game"`
	State   json.RawMessage     `json:"state"`
	Orders  map[string][]string `json:"orders"`
	Results []string            `json:"results"`
	Next    string              `json:"next"`
}

// resultLines prints every order's outcome (and reason) in input order.
func resultLines(res *Result) []string {
	out := make([]string, 0, len(res.Orders))
	for _, r := range res.Orders {
		s := fmt.Sprintf("%s: %s => %s", r.Power, r.Text, r.Outcome)
		if r.Reason != "" {
			s += ": " + r.Reason
		}
		out = append(out, s)
	}
	return out
}

func stateDigest(pos *Position, res *Result) string {
	st := encodeState(&gameState{pos: pos, over: res.Winner != "", winners: winners(res)})
	sum := sha256.Sum256(st)
	return hex.EncodeToString(sum[:16])
}

// writeCorpus generates the corpus (see the comment above).
func writeCorpus(tb testing.TB) []byte {
	m, _ := MapByName("standard")
	var buf bytes.Buffer
	n := 0
	for game := 1; n < corpusPhases; game++ {
		r := rand.New(rand.NewPCG(uint64(game), corpusStream))
		pos := m.NewPosition()
		for pos.Phase.Year <= corpusLastYear && n < corpusPhases {
			lines := map[string][]string{}
			for _, po := range RandomOrders(pos, r, corpusOptions) {
				lines[po.Power] = append(lines[po.Power], m.FormatOrder(po.Order))
			}
			ords := typedOrders(tb, pos, lines)
			res, err := Adjudicate(pos, ords)
			if err != nil {
				tb.Fatalf("game %d %s: %v", game, pos.Phase.ID(), err)
			}
			if pos.Phase.Year >= corpusFirstYear {
				var st bytes.Buffer
				if err := json.Compact(&st, encodeState(&gameState{pos: pos})); err != nil {
					tb.Fatal(err)
				}
				line, err := json.Marshal(corpusPhase{Game: game, State: st.Bytes(), Orders: lines, Results: resultLines(res), Next: stateDigest(res.Next, res)})
				if err != nil {
					tb.Fatal(err)
				}
				buf.Write(line)
				buf.WriteByte('\n')
				n++
			}
			if res.Winner != "" {
				break
			}
			pos = res.Next
		}
	}
	return buf.Bytes()
}

// TestCorpus: the corpus is what its generator writes, so the resolver still
// gives every recorded outcome, reason and next position.
func TestCorpus(t *testing.T) {
	got := writeCorpus(t)
	if *updateCorpus {
		if err := os.WriteFile(corpusFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatalf("%v (generate it with -update-corpus)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			t.Fatalf("%s line %d differs:\n got %s\nwant %s", corpusFile, i+1, g[i], w[i])
		}
	}
	t.Fatalf("%s: %d lines generated, %d in the file", corpusFile, len(g), len(w))
}

type corpusCase struct {
	pos  *Position
	ords []PowerOrder
}

// loadCorpus reads the corpus file into positions and typed orders, and
// checks each phase against its recorded results.
func loadCorpus(tb testing.TB) []corpusCase {
	f, err := os.Open(corpusFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var cp corpusPhase
		if err := json.Unmarshal(sc.Bytes(), &cp); err != nil {
			tb.Fatal(err)
		}
		g, err := decodeState(cp.State, mapOf("standard"))
		if err != nil {
			tb.Fatal(err)
		}
		c := corpusCase{pos: g.pos, ords: typedOrders(tb, g.pos, cp.Orders)}
		res, err := Adjudicate(c.pos, c.ords)
		if err != nil {
			tb.Fatal(err)
		}
		if got := resultLines(res); strings.Join(got, "\n") != strings.Join(cp.Results, "\n") {
			tb.Fatalf("game %d %s: results differ from the corpus", cp.Game, c.pos.Phase.ID())
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) != corpusPhases {
		tb.Fatalf("%d phases in %s, want %d", len(out), corpusFile, corpusPhases)
	}
	return out
}

// BenchmarkResolveCorpus adjudicates the 200 phases of the mid-game corpus
// (all: as they come; movement: its movement phases only) and reports the
// time per phase.
func BenchmarkResolveCorpus(b *testing.B) {
	all := loadCorpus(b)
	var moves []corpusCase
	for _, c := range all {
		if c.pos.Phase.Type == Movement {
			moves = append(moves, c)
		}
	}
	for _, set := range []struct {
		name   string
		phases []corpusCase
	}{{"all", all}, {"movement", moves}} {
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := proccpu.Used()
			for i := 0; i < b.N; i++ {
				for _, c := range set.phases {
					if _, err := Adjudicate(c.pos, c.ords); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set.phases)), "ns/phase")
			b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(b.N*len(set.phases)), "cpu-ns/phase")
			b.ReportMetric(float64(len(set.phases)), "phases")
		})
	}
}

// TestAdjudicateLeavesPositionAlone: adjudicating any phase of the corpus
// leaves the position as it was (the next position shares the owners map
// with it only while no centre changes hands), however often it is
// adjudicated.
func TestAdjudicateLeavesPositionAlone(t *testing.T) {
	captures := 0
	for _, c := range loadCorpus(t) {
		before := c.pos.Clone()
		for range 2 {
			res, err := Adjudicate(c.pos, c.ords)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.pos, before) {
				t.Fatalf("%s: Adjudicate changed the position", c.pos.Phase.ID())
			}
			if !maps.Equal(res.Next.Owners, before.Owners) {
				captures++
			}
		}
	}
	if captures == 0 {
		t.Fatal("no phase of the corpus changed a centre's owner")
	}
}
