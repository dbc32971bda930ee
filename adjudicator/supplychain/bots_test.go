package supplychain

import "testing"

func TestBotGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"solo", Options{Players: 1, Short: true}},
		{"two solitaire games side by side", Options{Players: 2, Short: true, Solo: true}},
		{"3 players", Options{Players: 3}},
		{"6 players", Options{Players: 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for seed := int64(1); seed <= 3; seed++ {
				g, n := botGame(t, tc.opt, seed)
				t.Logf("seed %d: %d phases, %d rounds, winners %v", seed, n, g.round, g.winners)
				if seed == 1 && testing.Verbose() {
					t.Log(finalPicture(g))
				}
			}
		})
	}
}
