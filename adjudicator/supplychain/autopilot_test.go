package supplychain

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/orders"
)

// The autopilot's orders, case by case in the DATC's manner: a position,
// the power the autopilot plays, the orders it gives. Every order it gives
// is one the engine accepts from a player.
func TestAutopilotPlaysSteadily(t *testing.T) {
	e, _ := NewEngine("supplychain-3")
	turn := func(setup func(g *game)) func(t *testing.T) *game {
		return func(t *testing.T) *game {
			g := newTestGame(t, Options{Players: 3})
			g.clearHands()
			setup(g)
			return g
		}
	}
	// solo deals the solitaire game a hand; its first card is the Starter.
	solo := func(codes ...string) func(t *testing.T) *game {
		return func(t *testing.T) *game {
			g := newTestGame(t, Options{Players: 1, Short: true})
			g.clearHands()
			g.giveHand(t, 0, codes...)
			g.players[0].starter = g.idx(t, codes[0])
			return g
		}
	}
	for _, tc := range []struct {
		name, power string
		game        func(t *testing.T) *game
		want        []string
	}{
		{"its turn: an office of the hand beside the main office (north first), then revenue; the derelict stays in the hand", "red",
			turn(func(g *game) { g.giveHand(t, 0, "DR3", "SO1", "ST8") }),
			[]string{"PLACE SO1 AT 0,-1 TURN 0", "REVENUE"}},
		{"its turn: the card worth the most VP first, with the contract of the hand that supplies it", "red",
			turn(func(g *game) { g.giveHand(t, 0, "SO1", "KWH1", "IC1", "FM1") }),
			[]string{"PLACE FM1 AT 0,-1 TURN 0", "PLACE KWH1 AT 0,-2 TURN 0", "REVENUE"}},
		{"its turn: a property that supplies the card before a contract", "red",
			turn(func(g *game) { g.giveHand(t, 0, "KIC1", "ST8", "IH1") }),
			[]string{"PLACE ST8 AT 0,-1 TURN 0", "PLACE IH1 AT 0,-2 TURN 1", "REVENUE"}},
		{"its turn, nothing fits: revenue alone; no purchase, no discard", "red",
			turn(func(g *game) { g.giveHand(t, 0, "FF1", "DR3"); g.players[0].money = 1900 }),
			[]string{"REVENUE"}},
		{"its turn with a Blind Purchase waiting: the revenue that pays it", "red",
			turn(func(g *game) {
				g.giveHand(t, 0, "FF1")
				c := g.idx(t, "BB1")
				g.pull(c)
				g.players[0].blind, g.players[0].forced, g.players[0].money = c, true, 0
			}),
			[]string{"REVENUE"}},
		{"another's turn: nothing", "blue",
			turn(func(g *game) { g.giveHand(t, 1, "SO1") }),
			nil},
		{"an offer to answer: declined", "blue",
			turn(func(g *game) {
				g.giveHand(t, 0, "SO1")
				g.giveHand(t, 1, "SO2")
				g.mustPlay(t, "TRADE SO1 FOR SO2 WITH Blue")
				if g.phase != phaseOffer {
					t.Fatalf("phase %v", g.phase)
				}
			}),
			[]string{"DECLINE"}},
		{"the solitaire game: every card that fits, then FINISH once the Starter is placed", "red",
			solo("ST8", "WF1", "IH1", "FF1"),
			[]string{"PLACE ST8 AT 0,-1 TURN 0", "PLACE IH1 AT 0,-2 TURN 1", "PLACE WF1 AT -1,0 TURN 0", "FINISH"}},
		{"the solitaire game, the Starter fits nowhere: what fits, no FINISH", "red",
			solo("ST8", "WF1"),
			[]string{"PLACE WF1 AT 0,-1 TURN 1"}},
		{"the solitaire game, nothing fits and the Starter in hand: nothing (the game ends at the deadline)", "red",
			solo("ST8", "FF1"),
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := tc.game(t).encode()
			text, err := e.AutopilotOrders(state, tc.power, 1)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if text != "" {
				got = strings.Split(text, "\n")
			}
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("autopilot for %s:\n got %q\nwant %q", tc.power, got, tc.want)
			}
			again, err := e.AutopilotOrders(state, tc.power, 99)
			if err != nil || again != text {
				t.Errorf("another seed: %q, %v; want the same orders", again, err)
			}
			if text != "" {
				if _, err := accepted(e, state, tc.power, text); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// accepted is what the engine stores of the autopilot's text for power,
// as of a player's mail; an error when it refuses a line or stores nothing.
func accepted(e *Engine, state []byte, power, text string) ([]string, error) {
	ck, err := e.Check(state, power, text)
	if err != nil {
		return nil, err
	}
	for _, l := range ck.Lines {
		if l.Kind != orders.OrderLine || hasDiagError(l.Diags) {
			return nil, fmt.Errorf("the engine refuses %s's autopilot line %q: %v (all: %q)", power, l.Text, l.Diags, text)
		}
	}
	if len(ck.Canonical) == 0 {
		return nil, fmt.Errorf("the engine stores nothing of %s's autopilot orders %q", power, text)
	}
	return ck.Canonical, nil
}

// Every order the autopilot gives is accepted by the engine's own check,
// in every phase of games played by the seeded Bot (and, every third
// phase, by the autopilot itself, so that its own tableaux are tried too):
// 2 and 3 players, the co-op game, the solitaire games, Laissez-faire. A
// game the autopilot plays alone ends.
func TestAutopilotOrdersAreAccepted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		seeds int64
	}{{"supplychain-3", 1}, {"supplychain-2", 1}, {"supplychain-coop", 1}, {"supplychain-solo", 12}, {"supplychain-solo2", 6}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, ok := NewEngine(tc.name)
			if !ok {
				t.Fatal(tc.name)
			}
			for seed := int64(1); seed <= tc.seeds; seed++ {
				playWithAutopilot(t, e, seed, func(phase int) bool { return phase%3 == 2 })
			}
		})
	}
	t.Run("laissez-faire", func(t *testing.T) {
		t.Parallel()
		e, _ := NewEngine("supplychain-3")
		e.opt.Laissez = true
		playWithAutopilot(t, e, 3, func(phase int) bool { return phase%2 == 0 })
	})
	t.Run("the autopilot alone", func(t *testing.T) {
		t.Parallel()
		e, _ := NewEngine("supplychain-3")
		playWithAutopilot(t, e, 4, func(int) bool { return true })
	})
}

// playWithAutopilot plays a game through the engine's interface: at every
// phase each waiting power's autopilot orders must be accepted; they are
// the orders given when auto says so, else the Bot's. The invariants hold
// after every phase, and the game ends.
func playWithAutopilot(t *testing.T, e *Engine, seed int64, auto func(phase int) bool) {
	checked := 0
	defer func() { t.Logf("%s seed %d: the autopilot's orders checked in %d positions", e.name, seed, checked) }()
	t.Helper()
	state, err := e.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	for phase := 0; ; phase++ {
		if phase > 3000 {
			t.Fatalf("%s seed %d: no end after %d phases", e.name, seed, phase)
		}
		st, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over {
			return
		}
		ords := map[string][]string{}
		for _, p := range st.Waiting {
			text, err := e.AutopilotOrders(state, p, seed)
			if err != nil {
				t.Fatalf("%s seed %d phase %s: %v", e.name, seed, st.ID, err)
			}
			if text != "" {
				checked++
				canon, err := accepted(e, state, p, text)
				if err != nil {
					t.Fatalf("%s seed %d phase %s: %v", e.name, seed, st.ID, err)
				}
				if auto(phase) {
					ords[p] = canon
					continue
				}
			}
			if auto(phase) {
				continue // the autopilot sends nothing: the engine's default
			}
			bot, err := e.BotOrders(state, p, seed+int64(phase))
			if err != nil {
				t.Fatal(err)
			}
			if ck, err := e.Check(state, p, bot); err == nil && len(ck.Canonical) > 0 {
				ords[p] = ck.Canonical
			}
		}
		out, err := e.Resolve(state, ords, seed+int64(phase))
		if err != nil {
			t.Fatalf("%s seed %d phase %s: %v", e.name, seed, st.ID, err)
		}
		state = out.Next
		g, err := e.decode(state)
		if err != nil {
			t.Fatal(err)
		}
		if err := invariants(g); err != nil {
			t.Fatalf("%s seed %d after %s: %v", e.name, seed, st.ID, err)
		}
	}
}
