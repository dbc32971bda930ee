package supplychain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/orders"
)

func engine(t testing.TB, name string) *Engine {
	t.Helper()
	e, ok := NewEngine(name)
	if !ok {
		t.Fatalf("no engine %s", name)
	}
	return e
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"supplychain", "supplychain-solo", "supplychain-2", "supplychain-3", "supplychain-5", "supplychain-6", "supplychain-coop"} {
		e, ok := adjudicator.Lookup(name)
		if !ok {
			t.Errorf("%s is not registered", name)
			continue
		}
		info := e.Info()
		if info.Simultaneous || info.Game != "supplychain" || len(info.Powers) == 0 || info.Rules == "" || len(info.Examples) == 0 {
			t.Errorf("%s: %+v", name, info)
		}
		st, err := e.New(nil, 3)
		if err != nil {
			t.Errorf("%s: New: %v", name, err)
			continue
		}
		s, err := e.Status(st)
		if err != nil || s.Kind != adjudicator.PhaseTurn || len(s.Waiting) != 1 || s.Waiting[0] != "red" {
			t.Errorf("%s: status %+v %v", name, s, err)
		}
	}
}

func TestNewOptions(t *testing.T) {
	e := engine(t, "supplychain")
	for _, tc := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"colour": "red"}, "unknown option"},
		{map[string]string{"players": "9"}, "1 to 6"},
		{map[string]string{"players": "5"}, "preset with more seats"},
		{map[string]string{"deck": "huge"}, "full or short"},
		{map[string]string{"coop": "maybe"}, "on or off"},
		{map[string]string{"default": "sleep"}, "revenue or pass"},
		{map[string]string{"cards": "nosuch"}, "no deck"},
		{map[string]string{"players": "3", "deck": "short"}, ""},
		{map[string]string{"laissez_faire": "on", "fire_sale": "on", "default": "pass"}, ""},
		{map[string]string{"coop": "on"}, ""},
	} {
		st, err := e.New(tc.opts, 1)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: %v, want %q", tc.opts, err, tc.want)
		}
		if err == nil {
			if _, err := e.Status(st); err != nil {
				t.Errorf("%v: %v", tc.opts, err)
			}
		}
	}
}

func TestStateRoundTrip(t *testing.T) {
	e := engine(t, "supplychain")
	st, _ := e.New(nil, 5)
	g, err := decodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g.encode(), st) {
		t.Error("decode ⇒ encode changed the state")
	}
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"unknown field", func(m map[string]any) { m["extra"] = 1 }, "unknown field"},
		{"future version", func(m map[string]any) { m["version"] = 99 }, "version"},
		{"unknown card", func(m map[string]any) { m["draw"] = append(m["draw"].([]any), "ZZ9") }, "unknown card"},
		{"card twice", func(m map[string]any) { m["stale"] = []any{m["draw"].([]any)[0]} }, "two places"},
		{"bad phase", func(m map[string]any) { m["phase"] = "lunch" }, "phase"},
	} {
		var m map[string]any
		json.Unmarshal(st, &m)
		tc.edit(m)
		b, _ := json.Marshal(m)
		if _, err := decodeState(b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Check: the active player's turn is checked by carrying it out on a copy;
// a turn with an error is refused whole; questions are answered and never
// stored; other players cannot order.
func TestCheck(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	st := g.encode()
	kinds := func(c adjudicator.Check) string {
		var s []string
		for _, l := range c.Lines {
			s = append(s, fmt.Sprint(l.Kind))
		}
		return strings.Join(s, " ")
	}
	t.Run("a legal turn", func(t *testing.T) {
		c, err := e.Check(st, "red", "Hello,\nbuy lumber mill from the listing\nrevenue\nThanks")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(c.Canonical, "|"); got != "BUY LM1 FROM LISTING|REVENUE" {
			t.Errorf("canonical %q", got)
		}
		if !strings.Contains(strings.Join(c.Notes, "\n"), "Red buys Lumber Mill (LM1)") {
			t.Errorf("notes %v", c.Notes)
		}
	})
	t.Run("an illegal line refuses the turn", func(t *testing.T) {
		c, _ := e.Check(st, "red", "REVENUE\nBUY GS2 FROM LISTING")
		if len(c.Canonical) != 0 || kinds(c) != "4 4" {
			t.Errorf("canonical %v, kinds %s", c.Canonical, kinds(c))
		}
		if !strings.Contains(fmt.Sprint(c.Lines[0].Diags), "not stored") || !strings.Contains(fmt.Sprint(c.Lines[1].Diags), "not in the listing") {
			t.Errorf("diagnostics %v / %v", c.Lines[0].Diags, c.Lines[1].Diags)
		}
	})
	t.Run("a misread order line refuses the turn", func(t *testing.T) {
		c, _ := e.Check(st, "red", "REVENUE\nBUY")
		if len(c.Canonical) != 0 {
			t.Errorf("canonical %v", c.Canonical)
		}
	})
	t.Run("prose is reported, not fatal", func(t *testing.T) {
		c, _ := e.Check(st, "red", "REVENUE\nI hope this works out")
		if len(c.Canonical) != 1 {
			t.Errorf("canonical %v", c.Canonical)
		}
	})
	t.Run("HAND is answered, not stored", func(t *testing.T) {
		g2 := g.clone()
		g2.giveHand(t, 0, "SO3")
		c, _ := e.Check(g2.encode(), "red", "HAND")
		if len(c.Canonical) != 0 || len(c.Answers) != 1 || !strings.Contains(c.Answers[0], "SO3") {
			t.Errorf("%+v", c)
		}
		for _, l := range c.Lines {
			for _, d := range l.Diags {
				if d.Severity == orders.Error {
					t.Errorf("a question is no error: %v", d)
				}
			}
		}
	})
	t.Run("ASK is answered truthfully (law E)", func(t *testing.T) {
		g2 := g.clone()
		g2.giveHand(t, 1, "OF1", "SO3", "KLG1")
		c, _ := e.Check(g2.encode(), "red", "ASK Blue OFFICES\nASK blue contracts\nask blue vehicles")
		want := []string{"Blue has 2 offices in hand", "Blue has 1 contracts in hand", "Blue has 0 vehicles in hand"}
		if len(c.Answers) != len(want) {
			t.Fatalf("answers %q", c.Answers)
		}
		for i, w := range want {
			if !strings.Contains(c.Answers[i], w) {
				t.Errorf("answer %d: %q, want %q", i, c.Answers[i], w)
			}
		}
	})
	t.Run("not your turn", func(t *testing.T) {
		c, _ := e.Check(st, "blue", "REVENUE")
		if len(c.Canonical) != 0 || !strings.Contains(fmt.Sprint(c.Lines[0].Diags), "not your turn") {
			t.Errorf("%+v", c)
		}
	})
	t.Run("canonical lines read back strictly", func(t *testing.T) {
		g2 := g.clone()
		g2.giveHand(t, 0, "WF2", "SO3")
		c, _ := e.Check(g2.encode(), "red", "place wheat farm east of the main office\nsell SO3 to blue for $1,200")
		if len(c.Canonical) != 2 {
			t.Fatalf("%+v", c.Lines)
		}
		os, errs := g2.parseCanonical(c.Canonical)
		if len(errs) > 0 || len(os) != 2 {
			t.Fatalf("strict read: %v", errs)
		}
		for i, o := range os {
			if got := o.format(g2.d); got != c.Canonical[i] {
				t.Errorf("read back %q as %q", c.Canonical[i], got)
			}
		}
	})
}

// Resolve: the default action is Revenue; results name the next player.
func TestResolveDefault(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	out, err := e.Resolve(g.encode(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Report.Public, "Red sent no orders: Revenue") || !strings.Contains(out.Report.Private["blue"], "It is your turn") {
		t.Errorf("public:\n%s\nblue:\n%s", out.Report.Public, out.Report.Private["blue"])
	}
	g2, _ := decodeState(out.Next)
	if g2.players[0].money != 1600 || g2.seat != 1 {
		t.Errorf("money %d seat %d", g2.players[0].money, g2.seat)
	}
	e2 := engine(t, "supplychain-3")
	e2.opt.Default = "pass"
	st, _ := e2.New(nil, 1)
	out, _ = e2.Resolve(st, nil, 1)
	g3, _ := decodeState(out.Next)
	if g3.players[0].money != 1500 {
		t.Errorf("default=pass collected money")
	}
}

// engineGame plays a bot game through Check and Resolve (the daemon's
// path): every bot order must pass Check unchanged. visit sees every
// phase's outcome.
func engineGame(t testing.TB, e *Engine, seed int64, visit func(before []byte, out adjudicator.Outcome, ords map[string][]string)) []byte {
	t.Helper()
	st, err := e.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	for phase := 0; ; phase++ {
		if phase > 3000 {
			t.Fatalf("seed %d: no end", seed)
		}
		s, err := e.Status(st)
		if err != nil {
			t.Fatal(err)
		}
		if s.Over {
			return st
		}
		ords := map[string][]string{}
		for _, p := range s.Waiting {
			lines, err := e.BotLines(st, p, seed*1000+int64(phase))
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				continue
			}
			c, err := e.Check(st, p, strings.Join(lines, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(c.Canonical, "\n") != strings.Join(lines, "\n") {
				t.Fatalf("seed %d phase %s: Check of the bot's orders\n%s\ngave %v\n%+v", seed, s.ID, strings.Join(lines, "\n"), c.Canonical, c.Lines)
			}
			ords[p] = c.Canonical
		}
		out, err := e.Resolve(st, ords, seed)
		if err != nil {
			t.Fatal(err)
		}
		if visit != nil {
			visit(st, out, ords)
		}
		st = out.Next
	}
}

// Same state, orders and seed: byte-identical results.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	e := engine(t, "supplychain")
	var a, b [][]byte
	engineGame(t, e, 11, func(_ []byte, out adjudicator.Outcome, _ map[string][]string) {
		a = append(a, out.Next, []byte(out.Report.Public), out.Report.Data)
	})
	engineGame(t, e, 11, func(_ []byte, out adjudicator.Outcome, _ map[string][]string) {
		b = append(b, out.Next, []byte(out.Report.Public), out.Report.Data)
	})
	if len(a) != len(b) {
		t.Fatalf("%d and %d phases", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("phase %d differs", i/3)
		}
	}
}

// Hidden information never leaks: a card dealt into a hand, bought blind
// or a business plan appears in no public text, no summary and no other
// player's private text until it has been seen at the table (placed,
// listed, discarded, offered); business plans not before the end.
func TestHiddenInformation(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"supplychain", "supplychain-coop"} {
		for seed := int64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s seed %d", name, seed), func(t *testing.T) {
				t.Parallel() // each a game of its own
				e := engine(t, name)
				secret := map[string]int{} // code ⇒ owning team
				first := true
				engineGame(t, e, seed, func(before []byte, out adjudicator.Outcome, _ map[string][]string) {
					g, _ := decodeState(before)
					if first {
						first = false
						for _, p := range g.players {
							for _, h := range p.hand {
								secret[g.card(h.card).Code] = p.team
							}
						}
						for ti, tm := range g.teams {
							secret[g.card(tm.plan).Code] = ti
						}
					}
					n, _ := decodeState(out.Next)
					// Cards seen at the table are no longer secret.
					for _, c := range n.seenAtTable(g) {
						if c >= 0 {
							delete(secret, n.card(c).Code)
						}
					}
					st := n.status()
					public := words(out.Report.Public + "\n" + st.Summary)
					private := map[string]map[string]bool{}
					for _, p := range n.players {
						private[p.power] = words(out.Report.Private[p.power])
					}
					for code, owner := range secret {
						if n.card(n.idx(t, code)).Kind == KindPlan && n.phase == phaseOver {
							continue
						}
						if public[code] {
							t.Fatalf("seed %d: secret %s in public text:\n%s", seed, code, out.Report.Public)
						}
						for _, p := range n.players {
							if p.team != owner && private[p.power][code] {
								t.Fatalf("seed %d: %s's secret %s in %s's private text", seed, n.teamName(owner), code, p.power)
							}
						}
					}
				})
			})
		}
	}
}

// words is the set of words (letters and digits) of a text.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		out[w] = true
	}
	return out
}

// seenAtTable lists the cards that are face up now or were just moved in
// public (offered, bought from an open area, abandoned).
func (g *game) seenAtTable(before *game) []int {
	var out []int
	for _, s := range g.listing {
		out = append(out, s.card)
	}
	out = append(out, g.stale...)
	for _, tm := range g.teams {
		for _, p := range tm.placed {
			out = append(out, p.card)
		}
		for _, th := range tm.thorns {
			out = append(out, th.card)
		}
	}
	for _, x := range []*game{before, g} {
		if x.offer != nil {
			out = append(out, x.offer.give...)
			out = append(out, x.offer.get...)
		}
	}
	return out
}
