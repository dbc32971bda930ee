package supplychain

import (
	"bytes"
	"strings"
	"testing"
)

// Seed, "Set up": main offices, business plans, two special offices and a
// Starter into each hand, leftover Starters into the Deck, one derelict
// per player, $1,500, the token 3VP side up, six listed cards; the Short
// Deck without codes ending in 2, 3, 4.
func TestSetUp(t *testing.T) {
	for _, tc := range []struct {
		players int
		short   bool
	}{{2, true}, {3, true}, {3, false}, {4, false}, {5, false}, {6, false}} {
		name := map[bool]string{true: "short", false: "full"}[tc.short]
		t.Run(strings.Join([]string{string(rune('0' + tc.players)), name}, " players, "), func(t *testing.T) {
			g := newTestGame(t, Options{Players: tc.players, Short: tc.short})
			d := g.d
			if err := invariants(g); err != nil {
				t.Fatal(err)
			}
			if len(g.teams) != tc.players {
				t.Fatalf("%d teams", len(g.teams))
			}
			mains := 0
			for ti, tm := range g.teams {
				if len(tm.placed) != 1 || g.card(tm.placed[0].card).Kind != KindMainOffice || tm.main != tm.placed[0].card {
					t.Errorf("team %d placed %v, want its main office", ti, tm.placed)
				}
				if tm.plan < 0 || g.card(tm.plan).Kind != KindPlan {
					t.Errorf("team %d has no business plan", ti)
				}
				if tm.token != nil {
					t.Errorf("team %d: token not on its 3VP side", ti)
				}
				if v := g.vp(ti, false); v != g.card(tm.main).VP+d.Rules.TokenVP {
					t.Errorf("team %d starts with %d VP", ti, v)
				}
			}
			for _, p := range g.players {
				if p.money != 1500 {
					t.Errorf("%s has %d", p.power, p.money)
				}
				kinds := map[Kind]int{}
				for _, h := range p.hand {
					kinds[g.card(h.card).Kind]++
				}
				if kinds[KindSpecialOffice] != 2 || kinds[KindStarter] != 1 || len(p.hand) != 3 {
					t.Errorf("%s's hand %v", p.power, kinds)
				}
				if p.starter < 0 || g.card(p.starter).Kind != KindStarter {
					t.Errorf("%s has no dealt Starter", p.power)
				}
			}
			inDeck := map[Kind]int{}
			all := append(append([]int{}, g.draw...), func() []int {
				var xs []int
				for _, s := range g.listing {
					xs = append(xs, s.card)
				}
				return xs
			}()...)
			for _, c := range all {
				inDeck[g.card(c).Kind]++
				if code := g.card(c).Code; tc.short && g.card(c).Kind == KindProperty && strings.ContainsAny(code[len(code)-1:], "234") {
					t.Errorf("%s is in the Short Deck", code)
				}
			}
			wantProps := 74
			if tc.short {
				wantProps = 31
			}
			if inDeck[KindProperty] != wantProps || inDeck[KindStarter] != 8-tc.players || inDeck[KindDerelict] != tc.players || inDeck[KindSpecialOffice] != 0 {
				t.Errorf("Deck and listing hold %v", inDeck)
			}
			for _, c := range g.offices {
				if g.card(c).Kind == KindMainOffice {
					mains++
				}
			}
			if mains != 6-tc.players || len(g.offices) != 9+6-tc.players {
				t.Errorf("Offices area: %d main offices of %d cards", mains, len(g.offices))
			}
			if len(g.contracts) != 58 || len(g.vehicles) != 16 {
				t.Errorf("%d contracts, %d vehicles for sale", len(g.contracts), len(g.vehicles))
			}
			for i, s := range g.listing {
				if s.card < 0 || s.age != 0 {
					t.Errorf("listing slot %d: %+v", i, s)
				}
			}
			if g.round != 1 || g.seat != 0 || g.phase != phaseTurn {
				t.Errorf("starts at round %d seat %d phase %d", g.round, g.seat, g.phase)
			}
		})
	}
}

// Seed: the Full Deck is for 3–6 players, the Short Deck for 1–3.
func TestSetUpDeckChoice(t *testing.T) {
	d := defaultDeck(t)
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Players: 2}, "Full Deck is for 3 to 6"},
		{Options{Players: 4, Short: true}, "Short Deck is for 1 to 3"},
		{Options{Players: 7}, "1 to 6"},
		{Options{Players: 0}, "1 to 6"},
		{Options{Players: 3, Coop: true}, "even number"},
		{Options{Players: 1, Short: true, FireSale: true}, "solo"},
		{Options{Players: 3, Short: true}, ""},
		{Options{Players: 3}, ""},
	} {
		_, err := newGame(d, tc.opt, allPowers, 1)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.opt, err, tc.want)
		}
	}
}

func TestSetUpIsSeeded(t *testing.T) {
	d := defaultDeck(t)
	a, _ := newGame(d, Options{Players: 4, Deck: "default", Default: "revenue"}, allPowers, 7)
	b, _ := newGame(d, Options{Players: 4, Deck: "default", Default: "revenue"}, allPowers, 7)
	c, _ := newGame(d, Options{Players: 4, Deck: "default", Default: "revenue"}, allPowers, 8)
	if !bytes.Equal(a.encode(), b.encode()) {
		t.Error("the same seed dealt two different games")
	}
	if bytes.Equal(a.encode(), c.encode()) {
		t.Error("two seeds dealt the same game")
	}
}

// Seed, Co-op: partners share one main office, plan and token, have their
// own money and hands, and never take successive turns.
func TestSetUpCoop(t *testing.T) {
	g := newTestGame(t, Options{Players: 4, Coop: true})
	if len(g.teams) != 2 {
		t.Fatalf("%d teams", len(g.teams))
	}
	for s := 0; s < 4; s++ {
		if g.players[s].team == g.players[(s+1)%4].team {
			t.Errorf("seats %d and %d are partners and play in a row", s, s+1)
		}
		if g.players[s].money != 1500 || len(g.players[s].hand) != 3 {
			t.Errorf("seat %d: %d, %d cards", s, g.players[s].money, len(g.players[s].hand))
		}
	}
	if len(g.offices) != 9+4 {
		t.Errorf("%d offices for sale: two main offices are dealt", len(g.offices))
	}
	if err := invariants(g); err != nil {
		t.Fatal(err)
	}
}

// Fire Sale: the special offices go into the Deck instead of the hands.
func TestSetUpFireSale(t *testing.T) {
	g := newTestGame(t, Options{Players: 3, FireSale: true})
	n := 0
	for _, c := range append(append([]int{}, g.draw...), g.listing[0].card, g.listing[1].card, g.listing[2].card, g.listing[3].card, g.listing[4].card, g.listing[5].card) {
		if g.card(c).Kind == KindSpecialOffice {
			n++
		}
	}
	if n != 27 {
		t.Errorf("%d special offices in the Deck, want 27", n)
	}
	for _, p := range g.players {
		if len(p.hand) != 1 {
			t.Errorf("%s holds %d cards, want only the Starter", p.power, len(p.hand))
		}
	}
}

// Seed, 1-player game: the Short Deck without Starters and with one Ad
// Agency; fifteen properties, one Starter, one plan, a token; no money.
func TestSetUpSolo(t *testing.T) {
	g := newTestGame(t, Options{Players: 1, Short: true})
	if g.phase != phaseSolo {
		t.Fatalf("phase %d", g.phase)
	}
	pl := g.players[0]
	props, starters := 0, 0
	for _, h := range pl.hand {
		switch g.card(h.card).Kind {
		case KindProperty:
			props++
			if g.card(h.card).Code == "AD5" {
				t.Error("the solo game keeps one Ad Agency")
			}
		case KindStarter:
			starters++
		}
	}
	if props != 15 || starters != 1 || pl.money != 0 || len(g.draw) != 0 || g.teams[0].plan < 0 {
		t.Errorf("solo set-up: %d properties, %d starters, %d money, deck %d", props, starters, pl.money, len(g.draw))
	}
	if err := invariants(g); err != nil {
		t.Fatal(err)
	}
}
