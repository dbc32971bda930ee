package daemon

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
	"pbemd/store/storetest"
)

// TestOrderMailCostDoesNotGrowWithVersions: the 300th order mail of a
// phase makes the engine merge as often as the 2nd did (it used to fold
// every version again: 299 merges), and its acknowledgement and the
// deadline still apply the latest order.
func TestOrderMailCostDoesNotGrowWithVersions(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("cost", "")
	red := tok["red"]
	h.outbox()
	var merges []int64
	for i := 1; i <= 300; i++ {
		before := toyMerges.Load()
		h.as(red, fmt.Sprintf("score %d", i%9+1))
		merges = append(merges, toyMerges.Load()-before)
		if i == 19 {
			h.outbox()
		}
		if i == 20 { // later ones are processed but not answered (rate limit)
			mustContain(t, h.reply(h.outbox(), red.addr).Text, "Your orders now stand as:\n  score 3\n")
		}
	}
	if merges[299] != merges[1] || merges[299] > 2 {
		t.Errorf("engine merges per order mail: 2nd mail %d, 300th mail %d (want the same, at most 2)", merges[1], merges[299])
	}
	h.outbox()
	h.as(tok["blue"], "score 1")
	h.outbox()
	h.clock.Add(48 * time.Hour)
	h.tick()
	mustContain(t, h.only(h.outbox(), red.addr).Text, "red: score 4")
}

// withoutMerge is an engine with its Merge hidden.
type withoutMerge struct{ adjudicator.Engine }

// referenceOrders is the fold done the plain way: every version again,
// struck ones left out, sorted so that under a senior's LOCK JUNIORS the
// senior's versions and the GM's come after everyone else's, then merged
// oldest first.
func referenceOrders(e adjudicator.Engine, state []byte, g *store.Game, sets []store.OrderSet) map[string][]string {
	byPower := map[string][]store.OrderSet{}
	for _, s := range sets {
		if !g.Struck(s) {
			byPower[s.Power] = append(byPower[s.Power], s)
		}
	}
	merger, _ := e.(adjudicator.Merger)
	out := map[string][]string{}
	for power, vs := range byPower {
		holder := lockHolder(g, power)
		weight := func(s store.OrderSet) int {
			if holder != "" && (s.GM || s.Address == holder) {
				return 1
			}
			return 0
		}
		sort.SliceStable(vs, func(i, j int) bool { return weight(vs[i]) < weight(vs[j]) })
		standing := append([]string(nil), vs[0].Lines...)
		for _, s := range vs[1:] {
			if merger == nil {
				standing = append(standing[:0:0], s.Lines...)
				continue
			}
			standing = merger.Merge(state, standing, s.Lines)
		}
		out[power] = standing
	}
	return out
}

// TestStandingFoldsEqualEveryVersionFolded: after each of hundreds of
// random versions (players of both ranks, the GM, seniors locking and
// unlocking their juniors out), the orders kept one version at a time
// equal every version folded again in the old way — for an engine that
// merges per unit (Diplomacy), one that keeps the last line (toy) and
// one without Merge, whose newer set replaces the standing one whole.
func TestStandingFoldsEqualEveryVersionFolded(t *testing.T) {
	newHarness(t) // registers the toy engine
	cases := []struct {
		variant        string
		versions, each int // versions sent; compared after every each-th
		powers         []string
		lines          []string
	}{
		// Diplomacy's Merge decodes the state: the reference, which folds
		// every version again, is slow, so fewer versions.
		{"standard", 60, 3, []string{"england", "france"}, []string{"F Lon - Nth", "F Lon H", "F Edi - Nwg", "F Edi S F Lon - Nth", "A Lvp - Yor", "A Lvp - Edi", "A Par - Bur", "F Bre - Mao", "A Mar H"}},
		{"toy", 400, 1, []string{"red", "blue"}, []string{"score 1", "score 2", "score 3"}},
		{"toy-without-merge", 400, 1, []string{"red", "blue"}, []string{"score 1", "score 2\nscore 3", "score 4"}},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			e, ok := adjudicator.Lookup(strings.TrimSuffix(c.variant, "-without-merge"))
			if !ok {
				t.Fatalf("no engine %s", c.variant)
			}
			if strings.HasSuffix(c.variant, "-without-merge") {
				e = withoutMerge{e}
			}
			state, err := e.New(nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			db := storetest.Open(t)
			g := &store.Game{Name: "fold", Variant: c.variant, Status: store.Active}
			g.PhaseID = "P"
			for _, p := range c.powers {
				g.Players = append(g.Players, store.Player{Address: p + "0@x", Power: p, Rank: 0}, store.Player{Address: p + "1@x", Power: p, Rank: 1})
			}
			r := rand.New(rand.NewPCG(7, uint64(len(c.variant))))
			at := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
			var sets []store.OrderSet
			for i := 0; i < c.versions; i++ {
				power := c.powers[r.IntN(len(c.powers))]
				n := 1 + r.IntN(3)
				var lines []string
				for k := 0; k < n; k++ {
					lines = append(lines, c.lines[r.IntN(len(c.lines))])
				}
				at = at.Add(time.Minute)
				rank := r.IntN(2)
				set := store.OrderSet{Power: power, Address: fmt.Sprintf("%s%d@x", power, rank), Rank: rank, Received: at, Lines: lines, MsgID: fmt.Sprint(i)}
				if r.IntN(10) == 0 {
					set = store.OrderSet{Power: power, GM: true, Received: at, Lines: lines, MsgID: fmt.Sprint(i)}
				}
				switch r.IntN(16) {
				case 0, 1: // a senior locks or unlocks
					lp := c.powers[r.IntN(len(c.powers))]
					if g.Locks == nil {
						g.Locks = map[string]store.Lock{}
					}
					if _, on := g.Locks[lp]; on {
						delete(g.Locks, lp)
					} else {
						g.Locks[lp] = store.Lock{By: lp + "0@x", Always: true}
					}
				case 2: // a junior's orders so far are struck (RELEASE, EJECT)
					g.Dropped = append(g.Dropped, store.Drop{Address: c.powers[r.IntN(len(c.powers))] + "1@x", At: at})
				}
				sets = append(sets, set)
				var got map[string][]string
				err := db.Update(func(tx *store.Tx) error {
					if err := tx.AddOrderSet(g.Name, 0, set); err != nil {
						return err
					}
					if r.IntN(5) == 0 {
						return nil // as GM SET ORDERS does: folded by the next mail
					}
					got, err = currentOrders(tx, e, state, g)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				if got == nil || i%c.each != 0 {
					continue
				}
				want := referenceOrders(e, state, g, sets)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("after version %d (%s rank %d gm %v: %s):\nkept: %v\nwant: %v", i, set.Power, set.Rank, set.GM, strings.Join(set.Lines, "; "), got, want)
				}
				if all := effectiveOrders(e, state, g, sets); !reflect.DeepEqual(all, want) {
					t.Fatalf("effectiveOrders after version %d: %v, want %v", i, all, want)
				}
			}
		})
	}
}
