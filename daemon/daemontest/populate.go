package daemontest

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// openingOrders are the 22 usual Spring 1901 moves of the standard map.
var openingOrders = map[string][]string{
	"austria": {"A Vie - Gal", "A Bud - Ser", "F Tri - Alb"},
	"england": {"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"},
	"france":  {"F Bre - Mao", "A Par - Bur", "A Mar S A Par - Bur"},
	"germany": {"F Kie - Den", "A Ber - Kie", "A Mun - Ruh"},
	"italy":   {"F Nap - Ion", "A Rom - Apu", "A Ven H"},
	"russia":  {"F StP/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Bla"},
	"turkey":  {"F Ank - Bla", "A Con - Bul", "A Smy - Arm"},
}

// ordersOf are the Spring 1901 orders of game i for power: each unit moves
// as in openingOrders or holds, by the bits of i, so that games differ
// (and so do the pictures of their results) as real games do.
func ordersOf(i int, power string, k int) []string {
	out := make([]string, len(openingOrders[power]))
	for u, o := range openingOrders[power] {
		if (i*2654435761>>(k*3+u))&1 == 1 {
			f := strings.Fields(o)
			o = f[0] + " " + f[1] + " H"
		}
		out[u] = o
	}
	return out
}

// Populate writes n active standard games, each with seven players and
// their Spring 1901 orders stored (each unit moving as usual or holding,
// varied from game to game), all due at deadline. It bypasses mail (and
// bcrypt) so that setting up 10,000 games takes seconds (for the
// benchmarks of many games). The standard map's engine must be registered
// (import pbemd/adjudicator/diplomacy).
func Populate(tb testing.TB, db *store.DB, n int, deadline time.Time) {
	tb.Helper()
	e, ok := adjudicator.Lookup("standard")
	if !ok {
		tb.Fatal("daemontest.Populate: the standard map is not registered (import pbemd/adjudicator/diplomacy)")
	}
	state, err := e.New(nil, 1)
	if err != nil {
		tb.Fatal(err)
	}
	st, _ := e.Status(state)
	for start := 0; start < n; start += 500 {
		err := db.Update(func(tx *store.Tx) error {
			for i := start; i < min(start+500, n); i++ {
				g := &store.Game{
					Name: fmt.Sprintf("g%05d", i), Variant: "standard", Created: deadline.Add(-48 * time.Hour),
					Status: store.Active, Options: store.GameOptions{Pace: store.PaceSlow, Press: store.PressAll, PSA: true, PressInAdj: true}, Seed: int64(i), GMToken: token(),
					OpenPhase: store.OpenPhase{PhaseID: st.ID, PhaseTitle: st.Title, PhaseKind: string(st.Kind),
						PhaseStarted: deadline.Add(-48 * time.Hour), Deadline: deadline,
						Waiting: st.Waiting, Alive: st.Alive},
					GM: []string{"gm@bench.test"},
				}
				for k, p := range e.Info().Powers {
					pl := store.Player{Address: fmt.Sprintf("p%d-%d@bench.test", i, k), Power: p, Token: token(), Joined: g.Created}
					g.Players = append(g.Players, pl)
					if err := tx.PutToken(pl.Token, store.TokenRef{Game: g.Name, Address: pl.Address}); err != nil {
						return err
					}
					if err := tx.AddOrderSet(g.Name, 0, store.OrderSet{Power: p, Address: pl.Address, MsgID: g.Name + p, Received: g.Created, Lines: ordersOf(i, p, k)}); err != nil {
						return err
					}
				}
				if err := tx.PutState(g.Name, state); err != nil {
					return err
				}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// token is a reply token as the daemon makes them.
func token() string { return strings.ToLower(rand.Text()) }
