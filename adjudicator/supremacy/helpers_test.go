package supremacy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

// outcomeView is what a test sees of one resolved phase.
type outcomeView struct {
	ords    map[string][]string
	public  string
	private map[string]string
	over    bool
	status  adjudicator.Status
	data    []byte // Report.Data
}

// invariants checks what must hold after every phase.
func invariants(w *world) error {
	sc := w.sc
	sum := w.bank
	for i, p := range w.players {
		sum += p.Cash
		if p.Cash < 0 {
			return fmt.Errorf("%s has negative cash %d", p.ID, p.Cash)
		}
		for r := Resource(0); r < nResources; r++ {
			if v := *p.res(r); v < 0 || v > sc.Reserve.Cap(r)*p.Cards {
				return fmt.Errorf("%s holds %d %s (room %d)", p.ID, v, r, sc.Reserve.Cap(r)*p.Cards)
			}
		}
		if p.ICBM < 0 || p.ICBM > sc.Reserve.ICBM*p.Cards || p.ABM < 0 || p.ABM > sc.Reserve.ABM*p.Cards {
			return fmt.Errorf("%s holds %d ICBM, %d ABM", p.ID, p.ICBM, p.ABM)
		}
		if p.Loans < 0 || p.Bonds < 0 || p.Loans > sc.Loans.Max()*p.Cards || p.Bonds > sc.Bonds.Max()*p.Cards {
			return fmt.Errorf("%s has loans %d, bonds %d", p.ID, p.Loans, p.Bonds)
		}
		if !p.alive() {
			a, n := w.forces(i)
			if a+n > 0 || p.Cash != 0 {
				return fmt.Errorf("%s is out (%s) but has %d pieces and %d cash", p.ID, p.Status, a+n, p.Cash)
			}
		}
	}
	if sum != 0 {
		return fmt.Errorf("money not conserved: bank %d + cash = %d, want 0", w.bank, sum)
	}
	for a := range sc.areas {
		owners := 0
		for p := range sc.powers {
			if w.army[a][p] < 0 || w.navy[a][p] < 0 {
				return fmt.Errorf("negative pieces in %s", sc.areas[a].ID)
			}
			if w.army[a][p] > 0 {
				owners++
				if sc.areas[a].sea {
					return fmt.Errorf("armies at sea in %s", sc.areas[a].ID)
				}
			}
			if w.navy[a][p] > 0 && !sc.areas[a].sea {
				return fmt.Errorf("navies on land in %s", sc.areas[a].ID)
			}
			if w.dead[a] && w.army[a][p] > 0 {
				return fmt.Errorf("armies in contaminated %s", sc.areas[a].ID)
			}
		}
		if owners > 1 {
			return fmt.Errorf("armies of %d players in %s", owners, sc.areas[a].ID)
		}
		if w.minorA[a] < 0 || w.minorI[a] < 0 || w.minorB[a] < 0 || w.minorN[a] < 0 {
			return fmt.Errorf("negative minor arms in %s", sc.areas[a].ID)
		}
		if w.dead[a] && (w.minorA[a] > 0 || w.minorN[a] > 0) {
			return fmt.Errorf("minor armies in contaminated %s", sc.areas[a].ID)
		}
	}
	for c, at := range w.cardAt {
		if at >= 0 && w.cardDed[c] {
			return fmt.Errorf("%s owns destroyed card %s", w.players[at].ID, sc.cards[c].id)
		}
		if a := w.cardArea(c); a >= 0 && w.dead[a] && !w.cardDed[c] {
			return fmt.Errorf("card %s of contaminated %s not destroyed", sc.cards[c].id, sc.areas[a].ID)
		}
	}
	return nil
}

// playGame plays a whole game with the bots: every power's bot orders
// go through Check, then Resolve. It calls each after every phase.
func playGame(t testing.TB, e *Engine, opts map[string]string, seed int64, maxPhases int, each func(phase int, state []byte, out *outcomeView)) []byte {
	t.Helper()
	state, err := e.New(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	for ph := 0; ph < maxPhases; ph++ {
		st, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over {
			return state
		}
		ords := map[string][]string{}
		for _, power := range st.Alive {
			if rng.IntN(10) == 0 {
				continue // a player who sends nothing
			}
			lines, err := RandomOrders(state, power, rng.Int64())
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			for _, l := range lines {
				text += l + "\n"
			}
			ck, err := e.Check(state, power, text)
			if err != nil {
				t.Fatal(err)
			}
			if len(ck.Canonical) > 0 {
				ords[power] = ck.Canonical
				// the daemon checks the stored lines again for its
				// acknowledgement: they must read back the same
				again, err := e.Check(state, power, strings.Join(ck.Canonical, "\n"))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(again.Canonical, "\n") != strings.Join(ck.Canonical, "\n") {
					t.Fatalf("stored lines read back differently:\n%v\n%v", ck.Canonical, again.Canonical)
				}
			}
		}
		out, err := e.Resolve(state, ords, rng.Int64())
		if err != nil {
			t.Fatalf("phase %d (%s): %v", ph, st.ID, err)
		}
		next, err := e.Status(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if next.ID <= st.ID && !next.Over {
			t.Fatalf("phase id did not advance: %s then %s", st.ID, next.ID)
		}
		if each != nil {
			each(ph, out.Next, &outcomeView{ords: ords, public: out.Report.Public, private: out.Report.Private, over: next.Over, status: next, data: out.Report.Data})
		}
		state = out.Next
	}
	return state
}
