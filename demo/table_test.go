package demo

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/store"
	"pbemd/store/storetest"
)

// tableGame is a demo game of Supremacy, Supply Chain or the Empire
// Boardgame, played once for all the checks of its test.
type tableGame struct {
	res     *Result
	out     string
	db      *store.DB
	g       *store.Game
	records []*store.PhaseRecord
	e       adjudicator.Engine
}

func playTable(t *testing.T, opt Options) *tableGame {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	opt.Out, opt.Logger, opt.DataDir, opt.Timeout = &out, testLogger(t), dir, mailTimeout
	res, err := Run(demoContext(t), opt)
	if err != nil {
		t.Fatalf("demo: %v\noutput so far:\n%s", err, out.String())
	}
	db := storetest.OpenFile(t, filepath.Join(dir, "pbemd.db"))
	tg := &tableGame{res: res, out: out.String(), db: db}
	var ok bool
	if tg.e, ok = adjudicator.Lookup(res.Variant); !ok {
		t.Fatalf("no engine %s", res.Variant)
	}
	err = db.View(func(tx *store.Tx) error {
		var err error
		if tg.g, err = tx.Game(res.Game); err != nil {
			return err
		}
		for i := 0; i < tg.g.Phase; i++ {
			rec, err := tx.Phase(res.Game, i)
			if err != nil {
				return err
			}
			tg.records = append(tg.records, rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d phases\n%s", len(res.Phases), tg.out)
	return tg
}

// gameChecks are what a game's test asks beyond the common checks.
type gameChecks struct {
	// silent is what the public report says of a power that sent
	// nothing ("" when the engine says nothing).
	silent func(power, title string) string
	// exercised lists what the game must have shown at least once:
	// "silent", "two mails", "question", "on receipt", "at deadline".
	exercised []string
}

// TestDemoSupremacy plays a two-turn game of Supremacy 2020 for three by
// mail and checks it against the engine.
func TestDemoSupremacy(t *testing.T) {
	t.Parallel()
	tg := playTable(t, Options{Game: Supremacy, Seed: 3})
	checkTableGame(t, tg, gameChecks{exercised: []string{"silent", "two mails", "on receipt", "at deadline"}})
	if !tg.res.Over {
		t.Errorf("a %d-turn game did not end in %d phases", 2, len(tg.res.Phases))
	}
}

// TestDemoSupplyChain plays a whole game of Supply Chain for three by
// mail and checks it against the engine, and that its results mails are
// short (TestDemoSameSeedSameGame stops a second game at a cap).
func TestDemoSupplyChain(t *testing.T) {
	t.Parallel()
	tg := playTable(t, Options{Game: SupplyChain, Seed: 5})
	checkTableGame(t, tg, gameChecks{silent: supplyChainSilent, exercised: []string{"silent", "question", "on receipt", "at deadline"}})

	// Issue 15, item 19: a results mail tells a player what changed and
	// what he must do; the whole board is on request (STATUS). With the
	// whole board in each, a 3-player game's results mails averaged
	// 8.7 KB. Issue 31, item 5: with its picture, every results mail
	// stays under 100 KB to the end of the game. The figures are logged
	// (go test -v -run TestDemoSupplyChain).
	t.Run("results mails are short", func(t *testing.T) {
		total, sum, n, largest, whole, wholeSubject := 0, 0, 0, 0, 0, ""
		for _, p := range tg.res.Players {
			size := 0
			for _, m := range p.Inbox {
				size += m.Size
				if strings.HasPrefix(m.Subject, "["+GameName+"] ") && strings.HasSuffix(m.Subject, " — results") {
					sum += len(m.Text)
					n++
					largest = max(largest, len(m.Text))
					if m.Size > whole {
						whole, wholeSubject = m.Size, p.Power+": "+m.Subject
					}
				}
			}
			total += size
			t.Logf("%s: %d mails, %d KB", p.Power, len(p.Inbox), size/1024)
		}
		if n == 0 {
			t.Fatal("no results mail")
		}
		t.Logf("%d phases; results mails: %d, text mean %d bytes, largest %d; largest whole mail %d bytes (%s); all mails: %d KB",
			len(tg.res.Phases), n, sum/n, largest, whole, wholeSubject, total/1024)
		if sum/n > 3000 {
			t.Errorf("results mails average %d bytes: more than what changed and what to do", sum/n)
		}
		if whole >= 100_000 {
			t.Errorf("the results mail %s is %d bytes with its picture, want under 100,000", wholeSubject, whole)
		}
	})
}

// supplyChainSilent is what a Supply Chain report says of a power that
// sent nothing.
func supplyChainSilent(power, title string) string {
	if strings.Contains(title, " answers ") {
		return titleCase(power) + " did not answer by the deadline"
	}
	return titleCase(power) + " sent no orders: "
}

// TestDemoEmpire plays a two-round game of the Empire Boardgame for two,
// with fog of war, by mail and checks it against the engine.
func TestDemoEmpire(t *testing.T) {
	t.Parallel()
	tg := playTable(t, Options{Game: Empire, Seed: 4})
	checkTableGame(t, tg, gameChecks{exercised: []string{"silent", "two mails", "at deadline"}})
	if !tg.res.Over {
		t.Errorf("a %d-round game did not end in %d phases", 2, len(tg.res.Phases))
	}
}

// checkTableGame checks a game against the engine run directly and
// against every mail sent and read.
func checkTableGame(t *testing.T, tg *tableGame, want gameChecks) {
	t.Helper()
	res := tg.res
	t.Run("game", func(t *testing.T) {
		if len(tg.records) != len(res.Phases) {
			t.Fatalf("the store holds %d processed phases, the demo played %d", len(tg.records), len(res.Phases))
		}
		for i, ph := range res.Phases {
			rec := tg.records[i]
			if ph.Number != i || rec.PhaseID != ph.ID || rec.Title != ph.Title {
				t.Errorf("phase %d: demo played %d %s %q, store has %s %q", i, ph.Number, ph.ID, ph.Title, rec.PhaseID, rec.Title)
			}
		}
		switch {
		case res.Over != (tg.g.Status == store.Finished):
			t.Errorf("demo says over=%v, the store says %s", res.Over, tg.g.Status)
		case res.Over == res.Capped:
			t.Errorf("over=%v and capped=%v: a game stops for one reason", res.Over, res.Capped)
		case res.Capped && len(res.Phases) != res.MaxPhases:
			t.Errorf("capped after %d phases, the cap is %d", len(res.Phases), res.MaxPhases)
		case res.Over && !reflect.DeepEqual(res.Winners, tg.g.Winners):
			t.Errorf("winners: demo %v, store %v", res.Winners, tg.g.Winners)
		}
		if res.Over {
			st, err := tg.e.Status(tg.records[len(tg.records)-1].StateAfter)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Over {
				t.Error("the store says the game is over, the engine does not")
			}
		}
		lines := strings.Split(strings.TrimRight(tg.out, "\n"), "\n")
		if len(lines) != len(res.Phases)+2 || !reflect.DeepEqual(lines, res.Lines) {
			t.Fatalf("output has %d lines for %d phases (want a header, one per phase and a final line)", len(lines), len(res.Phases))
		}
		for i, ph := range res.Phases {
			if !strings.HasPrefix(lines[i+1], ph.ID+" ") || !strings.Contains(lines[i+1], ph.Title) {
				t.Errorf("line %d does not show %s: %q", i+2, ph.Title, lines[i+1])
			}
		}
		final := lines[len(lines)-1]
		switch {
		case res.Winner != "" && !strings.HasPrefix(final, titleCase(res.Winner)+" wins"):
			t.Errorf("the final line does not name the winner %s: %q", res.Winner, final)
		case res.Capped && !strings.Contains(final, "(the cap)"):
			t.Errorf("the final line does not say the cap stopped the game: %q", final)
		}
	})

	t.Run("history replays", func(t *testing.T) {
		start, err := tg.e.New(tg.g.Options.Engine, tg.g.Seed)
		if err != nil {
			t.Fatal(err)
		}
		before := start
		for _, rec := range tg.records {
			if !bytes.Equal(rec.StateBefore, before) {
				t.Fatalf("%s: the state before is not the state after the previous phase (or the start)", rec.Title)
			}
			out, err := tg.e.Resolve(rec.StateBefore, rec.Orders, rec.Seed)
			if err != nil {
				t.Fatalf("%s: %v", rec.Title, err)
			}
			if !bytes.Equal(out.Next, rec.StateAfter) {
				t.Errorf("%s: the engine gives another state", rec.Title)
			}
			if out.Report.Public != rec.Public {
				t.Errorf("%s: the engine gives another public report\n got %s\nwant %s", rec.Title, out.Report.Public, rec.Public)
			}
			if !reflect.DeepEqual(out.Report.Private, rec.Private) && (len(out.Report.Private) > 0 || len(rec.Private) > 0) {
				t.Errorf("%s: private reports differ", rec.Title)
			}
			if !bytes.Equal(out.Report.Data, rec.Data) {
				t.Errorf("%s: result data differ", rec.Title)
			}
			before = rec.StateAfter
		}
		var state []byte
		if err := tg.db.View(func(tx *store.Tx) (err error) { state, err = tx.State(res.Game); return err }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(state, before) {
			t.Error("the game's current state is not the state after its last phase")
		}
	})

	t.Run("stored orders are what was sent", func(t *testing.T) {
		merger, _ := tg.e.(adjudicator.Merger)
		for i, ph := range res.Phases {
			rec := tg.records[i]
			// What each player's mails leave standing, folded as the
			// engine folds them: a newer set replaces the standing one
			// whole unless the engine merges.
			sent := map[string][]string{}
			for _, p := range res.Players {
				for _, s := range p.Sent {
					if s.Phase != ph.Number || s.Kind != "orders" && s.Kind != "partial" {
						continue
					}
					lines := mailLines(s.Text)
					standing, ok := sent[p.Power]
					switch {
					case !ok:
						sent[p.Power] = lines
					case merger != nil:
						sent[p.Power] = merger.Merge(rec.StateBefore, standing, lines)
					default:
						sent[p.Power] = lines
					}
				}
			}
			if len(rec.Orders) > 0 || len(sent) > 0 {
				if !reflect.DeepEqual(rec.Orders, sent) {
					t.Errorf("%s: stored orders differ from what the players' mails leave standing\n got %v\nwant %v", ph.Title, rec.Orders, sent)
				}
			}
			// And what stands is each bot's whole set, however it was
			// sent.
			if len(rec.Orders) > 0 || len(ph.Orders) > 0 {
				if !reflect.DeepEqual(rec.Orders, ph.Orders) {
					t.Errorf("%s: stored orders differ from the bots' orders\n got %v\nwant %v", ph.Title, rec.Orders, ph.Orders)
				}
			}
			for _, p := range append(slices.Clone(ph.Forgot), ph.Idle...) {
				if _, ok := rec.Orders[p]; ok {
					t.Errorf("%s: %s sent nothing, yet orders are stored: %v", ph.Title, p, rec.Orders[p])
				}
				if want.silent != nil && !strings.Contains(rec.Public, want.silent(p, ph.Title)) {
					t.Errorf("%s: the report does not say %s sent nothing (%q):\n%s", ph.Title, p, want.silent(p, ph.Title), rec.Public)
				}
			}
		}
	})

	t.Run("the end of each phase", func(t *testing.T) {
		for i, ph := range res.Phases {
			rec := tg.records[i]
			if ph.EndedOnReceipt {
				if !rec.Processed.Before(ph.Deadline) {
					t.Errorf("%s ended on receipt of the orders, yet was processed at %v (deadline %v)", ph.Title, rec.Processed, ph.Deadline)
				}
			} else if !rec.Processed.Equal(ph.Deadline) {
				t.Errorf("%s waited for its deadline %v, yet was processed at %v", ph.Title, ph.Deadline, rec.Processed)
			}
			if rec.Late {
				t.Errorf("%s was processed late", ph.Title)
			}
		}
	})

	t.Run("results mails", func(t *testing.T) {
		titles := map[string]int{}
		for _, ph := range res.Phases {
			titles[ph.Title]++
		}
		for _, p := range append(slices.Clone(res.Players), res.GM) {
			seen := map[string]int{}
			for i, ph := range res.Phases {
				rec := tg.records[i]
				var got []Received
				for _, m := range p.Inbox {
					if m.Subject == resultsSubject(ph.Title) {
						got = append(got, m)
					}
				}
				if len(got) != titles[ph.Title] {
					t.Errorf("%s got %d results mails for %s, want %d (one per phase of that title)", p.Address, len(got), ph.Title, titles[ph.Title])
					continue
				}
				text := got[seen[ph.Title]].Text
				seen[ph.Title]++
				if !strings.Contains(text, strings.TrimRight(rec.Public, "\n")) {
					t.Errorf("%s: the results of %s lack the public report", p.Address, ph.Title)
				}
				priv := rec.Private[p.Power]
				switch {
				case p.Power == "" && strings.Contains(text, "--- for you only ---"):
					t.Errorf("the GM's copy of the results of %s has a private part", ph.Title)
				case p.Power != "" && strings.TrimSpace(priv) != "" && !strings.Contains(text, "--- for you only ---\n"+strings.TrimRight(priv, "\n")):
					t.Errorf("%s: the results of %s lack their private part", p.Address, ph.Title)
				}
				checkNoOtherPrivate(t, p, res.Players, text, rec.Public+priv, rec.Private, ph.Title)
			}
		}
	})

	t.Run("power mails", func(t *testing.T) {
		viewer, ok := tg.e.(adjudicator.Viewer)
		if !ok || len(tg.records) == 0 {
			t.Skipf("%s has no private view for the power mail", res.Variant)
		}
		start := tg.records[0].StateBefore
		views := map[string]string{}
		for _, p := range res.Players {
			v, err := viewer.View(start, p.Power)
			if err != nil {
				t.Fatal(err)
			}
			views[p.Power] = v
		}
		for _, p := range res.Players {
			var text string
			for _, m := range p.Inbox {
				if strings.HasPrefix(m.Subject, "["+GameName+"] You are ") && powerOfSubject(strings.TrimPrefix(m.Subject, "["+GameName+"] You are ")) == p.Power {
					text = m.Text
				}
			}
			if v := strings.TrimRight(views[p.Power], "\n"); v != "" && !strings.Contains(text, "--- for you only ---\n"+v) {
				t.Errorf("%s: the power mail lacks the private view", p.Address)
			}
			checkNoOtherPrivate(t, p, res.Players, text, views[p.Power], views, "the power mail")
		}
	})

	t.Run("every mail answered once", func(t *testing.T) {
		for _, p := range append(slices.Clone(res.Players), res.GM) {
			for _, s := range p.Sent {
				if n := count(p.Inbox, func(r Received) bool { return r.InReplyTo == s.MessageID }); n != 1 {
					t.Errorf("%s: %s mail %s answered %d times, want once", p.Address, s.Kind, s.MessageID, n)
				}
			}
		}
	})

	t.Run("no other mail", func(t *testing.T) {
		offered, answered := tableOffers(t, tg)
		for _, p := range res.Players {
			want := map[string]int{"power": 1, "started": 1, "results": len(res.Phases), "answer": len(p.Sent)}
			if res.Over {
				want["over"] = 1
			}
			if n := offered[p.Power]; n > 0 {
				want["offer"] = n
			}
			got := map[string]int{}
			for _, m := range p.Inbox {
				got[kindOf(&p, m)]++
			}
			// An answer is mailed to the offerer when it comes after the
			// offer (the mails of a round arrive in any order).
			if n := got["offer answer"]; n > answered[p.Power] {
				t.Errorf("%s got %d answers to offers, but only %d of its offers were answered", p.Address, n, answered[p.Power])
			}
			delete(got, "offer answer")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (%s) received %v, want %v", p.Address, p.Power, got, want)
			}
		}
		checkGMInbox(t, res)
	})

	t.Run("exercised", func(t *testing.T) {
		seen := map[string]int{}
		for _, ph := range res.Phases {
			seen["silent"] += len(ph.Forgot)
			if ph.EndedOnReceipt {
				seen["on receipt"]++
			} else {
				seen["at deadline"]++
			}
		}
		for _, p := range res.Players {
			for _, s := range p.Sent {
				switch s.Kind {
				case "partial":
					seen["two mails"]++
				case "question":
					seen["question"]++
				}
			}
		}
		t.Logf("%v", seen)
		for _, k := range want.exercised {
			if seen[k] == 0 {
				t.Errorf("the game never exercised %s", k)
			}
		}
	})
}

// checkNoOtherPrivate fails when a mail to p shows a line of another
// power's private text (a card in a hand, a unit seen through the fog)
// that is not also in what p may see (mine: the public report and p's
// own private part): the mail is the daemon's words around those, so
// such a line can only have leaked.
func checkNoOtherPrivate(t *testing.T, p Player, players []Player, text, mine string, private map[string]string, what string) {
	t.Helper()
	for _, q := range players {
		if q.Power == p.Power {
			continue
		}
		if l := leakedLine(text, mine, private[q.Power]); l != "" {
			t.Errorf("%s: %s shows %s's private line %q", p.Address, what, q.Power, l)
		}
	}
}

// leakedLine returns the first line of other that text shows and mine
// lacks ("" for none).
func leakedLine(text, mine, other string) string {
	for _, l := range strings.Split(other, "\n") {
		if l = strings.TrimSpace(l); len(l) >= minPrivateLine && strings.Contains(text, l) && !strings.Contains(mine, l) {
			return l
		}
	}
	return ""
}

// minPrivateLine is the length from which a private line is telling:
// shorter ones ("Your orders:") may well be in anyone's mail.
const minPrivateLine = 12

// mailLines are the order lines of a mail the demo wrote: no comment,
// no blank line, nothing after the signature separator.
func mailLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "-- ":
			return out
		case l == "" || strings.HasPrefix(l, "#"):
		default:
			out = append(out, l)
		}
	}
	return out
}

func TestLeakedLine(t *testing.T) {
	other := "Your hand (3 cards, limit 7):\n  SO17 Listing Buyer — special office\n  ok\n"
	for _, tc := range []struct {
		name, text, mine, want string
	}{
		{"nothing shown", "Round 1\nRed collects revenue", "Round 1\nRed collects revenue", ""},
		{"a card of another hand", "Round 1\n  SO17 Listing Buyer — special office\n", "Round 1\n", "SO17 Listing Buyer — special office"},
		{"the same words in my own part", "Your hand (3 cards, limit 7):\n", "Your hand (3 cards, limit 7):\n", ""},
		{"a card also public", "Listed: SO17 Listing Buyer — special office, $400", "Listed: SO17 Listing Buyer — special office, $400", ""},
		{"too short to tell", "ok", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := leakedLine(tc.text, tc.mine, other); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMailLines(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"orders and signature", "# Red, Round 1\nBID 2\nCEASEFIRE\n\n-- \nAulus\n", []string{"BID 2", "CEASEFIRE"}},
		{"no signature", "REVENUE\n", []string{"REVENUE"}},
		{"nothing", "# comment\n\n-- \nX\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mailLines(tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a, b, c, d", 6, "a, b…"},
		{"Red → Blue and more", 6, "Red →…"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := shorten(tc.in, tc.n); got != tc.want {
				t.Errorf("shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}

// TestRulesFor: every game the demo names has a set-up, the bot writes
// orders the engine stores unchanged (the demo's expectation of what
// stands), and an unknown game is refused.
func TestRulesFor(t *testing.T) {
	for _, game := range Games[1:] {
		t.Run(game, func(t *testing.T) {
			rl, err := rulesFor(game, 2)
			if err != nil {
				t.Fatal(err)
			}
			opts := map[string]string{}
			for _, kv := range strings.Fields(rl.create) {
				k, v, _ := strings.Cut(kv, "=")
				opts[k] = v
			}
			state, err := rl.e.New(opts, 11)
			if err != nil {
				t.Fatal(err)
			}
			st, err := rl.e.Status(state)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range st.Waiting {
				lines, err := rl.bot(state, p, 1)
				if err != nil {
					t.Fatal(err)
				}
				ck, err := rl.e.Check(state, p, strings.Join(lines, "\n"))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(ck.Canonical, lines) {
					t.Errorf("%s: the bot wrote %q, the engine stores %q", p, lines, ck.Canonical)
				}
			}
		})
	}
	if _, err := rulesFor("chess", 2); err == nil {
		t.Error("an unknown game was accepted")
	}
}

// The same seed plays the same game: the players' choices and the game's
// own dice (CREATE … seed=N) both follow it. The Supply Chain game, far
// longer than the cap of 8 phases, stops at the cap, and is checked as
// the whole games are.
func TestDemoSameSeedSameGame(t *testing.T) {
	t.Parallel()
	for _, game := range []string{Supremacy, SupplyChain, Empire} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			var tg [2]*tableGame
			for i := range tg {
				tg[i] = playTable(t, Options{Game: game, Seed: 11, Phases: 8})
			}
			a, b := tg[0].res.Lines, tg[1].res.Lines
			if strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Fatalf("two runs with seed 11 differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			if game != SupplyChain {
				return
			}
			checkTableGame(t, tg[0], gameChecks{silent: supplyChainSilent})
			if res := tg[0].res; !res.Capped || res.Over || len(res.Phases) != 8 {
				t.Errorf("capped at 8: %d phases, capped %v, over %v", len(res.Phases), res.Capped, res.Over)
			}
		})
	}
}

// tableOffers counts, per power, the offers made to it in the game's
// phases and the answered offers it made, as the engine declares them
// (adjudicator.Offerer) for each phase's orders.
func tableOffers(t *testing.T, tg *tableGame) (offered, answered map[string]int) {
	t.Helper()
	offered, answered = map[string]int{}, map[string]int{}
	of, ok := tg.e.(adjudicator.Offerer)
	if !ok {
		return offered, answered
	}
	for i, ph := range tg.res.Phases {
		offers, err := of.Offers(tg.records[i].StateBefore, ph.Orders)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range offers {
			offered[o.To]++
			if o.Answer != adjudicator.OfferOpen {
				answered[o.From]++
			}
		}
	}
	return offered, answered
}
