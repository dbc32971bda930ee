package supremacy

import (
	"strings"
	"testing"
)

// The bot's orders are always accepted by Check, also in step play, where
// a counterattack step takes no reinforcement.
func TestBotOrdersPassCheckInStepPlay(t *testing.T) {
	e, err := NewEngine("supremacy-3-steps", "test", map[string]string{"powers": "usa,russia,china", "turns": "2", "steps": "attack"})
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 3; seed++ {
		state, err := e.New(nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 400; n++ {
			st, err := e.Status(state)
			if err != nil {
				t.Fatal(err)
			}
			if st.Over {
				break
			}
			ords := map[string][]string{}
			for _, p := range st.Waiting {
				lines, err := RandomOrders(state, p, 1000*seed+int64(n))
				if err != nil {
					t.Fatal(err)
				}
				ck, err := e.Check(state, p, strings.Join(lines, "\n"))
				if err != nil {
					t.Fatal(err)
				}
				if len(ck.Canonical) != len(lines) {
					t.Fatalf("seed %d %s %s: the bot wrote %q, Check kept %q", seed, st.ID, p, lines, ck.Canonical)
				}
				ords[p] = ck.Canonical
			}
			out, err := e.Resolve(state, ords, seed+int64(n))
			if err != nil {
				t.Fatal(err)
			}
			state = out.Next
		}
	}
}
