package supremacy

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzResolve plays random order sets from positions along a bot game: the
// bots' orders with the fuzzer's text mixed in, through Check, then
// Resolve. Nothing may panic, Check never fails on player input, and the
// invariants hold after every phase.
func FuzzResolve(f *testing.F) {
	e := engineFor(f, "usa,eu,russia,china")
	var states [][]byte
	playGame(f, e, map[string]string{"fast": "yes", "turns": "6", "steps": "attack"}, 3, 400, func(ph int, st []byte, o *outcomeView) {
		if !o.over {
			states = append(states, st)
		}
	})
	for _, s := range []string{"ATTACK ukr FROM mos BLITZ 3", "LAUNCH 2 AT mos", "IF ATTACKED: LAUNCH 9 AT tokyo",
		"OFFER TO usa: 3 ARMIES IN mos FOR $1", "SEIZE ALL", "BUY 99 OIL", "MOVE 9 sib - mos", "CALL OFF", "PASS",
		"TRANSPORT 9 jap - kor VIA soj TO ecs", "ATTACK usa IN npo FROM okh TO npo", "SELL 9 ICBM TO mex",
		"ATTACK ukr FROM mos, vol LEAVE 1 IN mos", "LOSSES AFLOAT, mos, soj", "SELL 3 NAVIES IN blt TO pol",
		"PHASE build\nBUILD 3 ARMIES IN mos", "Move phase:\nMOVE 3 mos - ukr\nPHASE attack", "PHASE lunch\nBUY 1 OIL"} {
		f.Add(uint64(len(s)), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		rng := rand.New(rand.NewPCG(seed, 1))
		state := states[int(seed%uint64(len(states)))]
		st, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		ords := map[string][]string{}
		for _, p := range st.Alive {
			lines, err := RandomOrders(state, p, rng.Int64())
			if err != nil {
				t.Fatal(err)
			}
			if rng.IntN(2) == 0 {
				lines = append(lines, strings.Split(text, "\n")...)
			}
			ck, err := e.Check(state, p, strings.Join(lines, "\n"))
			if err != nil {
				t.Fatalf("Check failed on player input: %v", err)
			}
			ords[p] = ck.Canonical
			for _, h := range ck.Held { // ahead.go: held lines are read back when their phase opens
				for _, l := range h.Lines {
					if _, err := e.sc.parseLine(l); err != nil {
						t.Fatalf("held line does not read back: %v", err)
					}
				}
			}
		}
		out, err := e.Resolve(state, ords, rng.Int64())
		if err != nil {
			t.Fatal(err)
		}
		w, err := decodeWorld(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		if err := invariants(w); err != nil {
			t.Fatalf("%v\n%s", err, out.Report.Public)
		}
	})
}
