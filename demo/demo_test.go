package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/adjudicator/diplomacy"
	"pbemd/orders"
	"pbemd/store"
	"pbemd/store/storetest"
)

// testSeed plays a game that ends in a solo victory (Persia, Fall 469 AUC)
// within testYears, so the test sees the end of a game too.
const (
	testSeed  = 9
	testYears = 20
)

// mailTimeout bounds the wait for one mail in the tests' games: a mail
// that does not come within it is lost, not late, even under -race on a
// loaded machine.
const mailTimeout = 2 * time.Minute

// demoContext bounds a test's demo game by the test binary's deadline
// (go test -timeout), less a minute to report what the game waited for.
// A bound of the game's own would fail it on a loaded machine, where
// -race slows a whole game many times over.
func demoContext(t *testing.T) context.Context {
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Minute))
		t.Cleanup(cancel)
	}
	return ctx
}

// testLogger logs to t.Log (debug with -v) until the test ends.
func testLogger(t *testing.T) *slog.Logger {
	level := slog.LevelWarn
	if testing.Verbose() {
		level = slog.LevelDebug
	}
	w := &tWriter{t: t}
	t.Cleanup(func() { w.done.Store(true) })
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

type tWriter struct {
	t    *testing.T
	done atomic.Bool
}

func (w *tWriter) Write(p []byte) (int, error) {
	if !w.done.Load() {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// game is a demo game played once for all the checks of the test.
type game struct {
	res     *Result
	out     string
	db      *store.DB
	g       *store.Game
	records []*store.PhaseRecord
	e       *diplomacy.Engine
}

func playDemo(t *testing.T, seed int64, years int) *game {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	res, err := Run(demoContext(t), Options{Seed: seed, Years: years, Out: &out, Logger: testLogger(t), DataDir: dir, Timeout: mailTimeout})
	if err != nil {
		t.Fatalf("demo: %v\noutput so far:\n%s", err, out.String())
	}
	db := storetest.OpenFile(t, filepath.Join(dir, "pbemd.db"))
	gm := &game{res: res, out: out.String(), db: db}
	gm.e, _ = diplomacy.NewEngine(res.Variant)
	err = db.View(func(tx *store.Tx) error {
		var err error
		if gm.g, err = tx.Game(res.Game); err != nil {
			return err
		}
		for i := 0; i < gm.g.Phase; i++ {
			rec, err := tx.Phase(res.Game, i)
			if err != nil {
				return err
			}
			gm.records = append(gm.records, rec)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return gm
}

// TestDemoGameMatchesAdjudicator plays a whole demo game by mail and checks
// it against the adjudicator run directly and against every mail sent and
// read.
func TestDemoGameMatchesAdjudicator(t *testing.T) {
	t.Parallel()
	gm := playDemo(t, testSeed, testYears)
	res := gm.res
	t.Logf("%d phases\n%s", len(res.Phases), gm.out)

	t.Run("game", func(t *testing.T) {
		if len(gm.records) != len(res.Phases) {
			t.Fatalf("the store holds %d processed phases, the demo played %d", len(gm.records), len(res.Phases))
		}
		for i, ph := range res.Phases {
			if ph.Number != i || gm.records[i].PhaseID != ph.ID || gm.records[i].Title != ph.Title {
				t.Errorf("phase %d: demo played %d %s %q, store has %s %q", i, ph.Number, ph.ID, ph.Title, gm.records[i].PhaseID, gm.records[i].Title)
			}
		}
		if res.Over != (gm.g.Status == store.Finished) {
			t.Errorf("demo says over=%v, the store says %s", res.Over, gm.g.Status)
		}
		if res.Over && (len(gm.g.Winners) != 1 || gm.g.Winners[0] != res.Winner || gm.g.EndedAs != "solo") {
			t.Errorf("winner: demo %q, store %v (%s)", res.Winner, gm.g.Winners, gm.g.EndedAs)
		}
		if !res.Over {
			last, err := gm.e.Position(gm.records[len(gm.records)-1].StateAfter)
			if err != nil {
				t.Fatal(err)
			}
			if last.Phase.Year != res.StartYear+res.Years {
				t.Errorf("the game stopped at %s without a winner, not at the start of year %d", last.Phase.ID(), res.StartYear+res.Years)
			}
		}
		lines := strings.Split(strings.TrimRight(gm.out, "\n"), "\n")
		if len(lines) != len(res.Phases)+2 || !reflect.DeepEqual(lines, res.Lines) {
			t.Errorf("output has %d lines for %d phases (want a header, one per phase and a final line)", len(lines), len(res.Phases))
		}
		for i, ph := range res.Phases {
			if !strings.HasPrefix(lines[i+1], ph.ID+" ") || !strings.Contains(lines[i+1], ph.Title) {
				t.Errorf("line %d does not show %s: %q", i+2, ph.Title, lines[i+1])
			}
		}
	})

	t.Run("history replays", func(t *testing.T) {
		start, err := gm.e.New(nil, gm.g.Seed)
		if err != nil {
			t.Fatal(err)
		}
		before := start
		for _, rec := range gm.records {
			if !bytes.Equal(rec.StateBefore, before) {
				t.Fatalf("%s: the state before is not the state after the previous phase", rec.Title)
			}
			out, err := gm.e.Resolve(rec.StateBefore, rec.Orders, rec.Seed)
			if err != nil {
				t.Fatalf("%s: %v", rec.Title, err)
			}
			if !bytes.Equal(out.Next, rec.StateAfter) {
				t.Errorf("%s: the adjudicator gives another state\n got %s\nwant %s", rec.Title, out.Next, rec.StateAfter)
			}
			if out.Report.Public != rec.Public {
				t.Errorf("%s: the adjudicator gives another public report\n got %s\nwant %s", rec.Title, out.Report.Public, rec.Public)
			}
			if !reflect.DeepEqual(out.Report.Private, rec.Private) && (len(out.Report.Private) > 0 || len(rec.Private) > 0) {
				t.Errorf("%s: private reports differ: %v, stored %v", rec.Title, out.Report.Private, rec.Private)
			}
			if !bytes.Equal(out.Report.Data, rec.Data) {
				t.Errorf("%s: result data differ", rec.Title)
			}
			before = rec.StateAfter
		}
		var state []byte
		if err := gm.db.View(func(tx *store.Tx) (err error) { state, err = tx.State(gm.res.Game); return err }); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(state, before) {
			t.Error("the game's current state is not the state after its last phase")
		}
	})

	t.Run("stored orders are what was sent", func(t *testing.T) {
		for i, ph := range res.Phases {
			got := gm.records[i].Orders
			if len(got) == 0 && len(ph.Orders) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, ph.Orders) {
				t.Errorf("%s: stored orders differ from what the players sent\n got %v\nwant %v", ph.Title, got, ph.Orders)
			}
		}
	})

	t.Run("results mails", func(t *testing.T) {
		for _, p := range append(slices.Clone(res.Players), res.GM) {
			for i, ph := range res.Phases {
				rec := gm.records[i]
				var got []Received
				for _, m := range p.Inbox {
					if m.Subject == resultsSubject(ph.Title) {
						got = append(got, m)
					}
				}
				if len(got) != 1 {
					t.Errorf("%s got %d results mails for %s, want 1", p.Address, len(got), ph.Title)
					continue
				}
				text := got[0].Text
				if !strings.Contains(text, strings.TrimRight(rec.Public, "\n")) {
					t.Errorf("%s: the results of %s lack the public report:\n%s\n--- want within ---\n%s", p.Address, ph.Title, text, rec.Public)
				}
				if priv := rec.Private[p.Power]; p.Power != "" && priv != "" && !strings.Contains(text, "--- for you only ---\n"+strings.TrimRight(priv, "\n")) {
					t.Errorf("%s: the results of %s lack the private part %q", p.Address, ph.Title, priv)
				}
				// Another power's private part must not show, unless the
				// same words are also in what this reader may see.
				mine := rec.Public + rec.Private[p.Power]
				for _, q := range res.Players {
					other := strings.TrimRight(rec.Private[q.Power], "\n")
					if q.Power != p.Power && other != "" && strings.Contains(text, other) && !strings.Contains(mine, other) {
						t.Errorf("%s: the results of %s show %s's private part", p.Address, ph.Title, q.Power)
					}
				}
			}
		}
	})

	t.Run("every mail answered once", func(t *testing.T) {
		for _, p := range append(slices.Clone(res.Players), res.GM) {
			for _, s := range p.Sent {
				n := count(p.Inbox, func(r Received) bool { return r.InReplyTo == s.MessageID })
				if n != 1 {
					t.Errorf("%s: %s mail %s answered %d times, want once", p.Address, s.Kind, s.MessageID, n)
				}
			}
		}
	})

	t.Run("acknowledgements", func(t *testing.T) {
		for _, p := range res.Players {
			for _, s := range p.Sent {
				if s.Kind != "orders" && s.Kind != "correction" {
					continue
				}
				ack, ok := answerTo(p.Inbox, s.MessageID)
				if !ok {
					continue // reported above
				}
				check := func(cond bool, what string) {
					if !cond {
						t.Errorf("%s, phase %d, %s mail: %s; the acknowledgement:\n%s\n--- the mail ---\n%s", p.Power, s.Phase, s.Kind, what, ack.Text, s.Text)
					}
				}
				check(strings.Contains(ack.Text, "Orders received for "+gm.e.Map().PowerName(p.Power)), "not an acknowledgement of its orders")
				check(!s.Typo || strings.Contains(ack.Text, "read as"), "the typo is not pointed out")
				check(!s.Unknown || strings.Contains(ack.Text, "is not a province"), "the unknown province is not pointed out")
				check(!s.Impossible || strings.Contains(ack.Text, "will fail"), "the impossible move is not pointed out")
				clean := !s.Typo && !s.Unknown && !s.Impossible
				check(!clean || !strings.Contains(ack.Text, "Please look again") && !strings.Contains(ack.Text, "could not understand"), "a clean mail drew complaints")
				check(!s.Password || strings.Contains(ack.Text, "Signed on as"), "SIGNON was not confirmed")
			}
		}
	})

	t.Run("no other mail", func(t *testing.T) {
		for _, p := range res.Players {
			want := map[string]int{"power": 1, "started": 1, "results": len(res.Phases), "answer": len(p.Sent)}
			if res.Over {
				want["over"] = 1
			}
			if n := paceVoteMails(res); n > 0 {
				want["pace vote"] = n
			}
			for _, ph := range res.Phases {
				if slices.Contains(ph.Forgot, p.Power) {
					want["reminder"]++
				}
			}
			got := map[string]int{}
			for _, m := range p.Inbox {
				got[kindOf(&p, m)]++
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (%s) received %v, want %v", p.Address, p.Power, got, want)
			}
		}
		checkGMInbox(t, res)
	})

	t.Run("civil disorder of the forgetful power", func(t *testing.T) {
		fp := res.Forgetful
		for i, ph := range res.Phases {
			if !slices.Contains(ph.Forgot, fp) {
				continue
			}
			rec := gm.records[i]
			if _, ok := rec.Orders[fp]; ok {
				t.Errorf("%s: %s forgot, yet orders are stored: %v", ph.Title, fp, rec.Orders[fp])
			}
			checkDisorder(t, gm.e, fp, rec)
		}
	})

	t.Run("exercised", func(t *testing.T) {
		seen := map[string]int{}
		for i, ph := range res.Phases {
			pos, _ := gm.e.Position(gm.records[i].StateBefore)
			var rd diplomacy.ResultData
			json.Unmarshal(gm.records[i].Data, &rd)
			kind := pos.Phase.Type.String()
			seen[kind]++
			seen["dislodged"] += len(rd.Dislodged)
			seen["built"] += len(rd.Built)
			if len(ph.Forgot) > 0 {
				seen["forgot in "+kind]++
			}
			for _, o := range rd.Orders {
				switch {
				case strings.Contains(o.Text, " C ") && o.Outcome == diplomacy.Succeeded:
					seen["convoy"]++
				case strings.Contains(o.Text, " S ") && o.Outcome == diplomacy.Succeeded:
					seen["support"]++
				case strings.Contains(o.Text, " R ") && o.Outcome == diplomacy.Succeeded:
					seen["retreat"]++
				case strings.HasSuffix(o.Text, " D"):
					seen["disband"]++
				case o.Text == "Waive":
					seen["waive"]++
				}
			}
		}
		for _, p := range res.Players {
			for _, s := range p.Sent {
				for k, on := range map[string]bool{"typo": s.Typo, "unknown province": s.Unknown, "impossible move": s.Impossible, "password": s.Password, "correction": s.Kind == "correction"} {
					if on {
						seen[k]++
					}
				}
			}
		}
		t.Logf("%v", seen)
		for _, k := range []string{"Movement", "Retreats", "Adjustments", "dislodged", "built", "convoy", "support", "retreat", "disband", "waive",
			"typo", "unknown province", "impossible move", "password", "correction", "forgot in Movement", "forgot in Adjustments"} {
			if seen[k] == 0 {
				t.Errorf("the game never exercised %s", k)
			}
		}
	})

	t.Run("same seed, same game", func(t *testing.T) {
		short := playDemo(t, testSeed, 1)
		n := len(short.res.Phases)
		if n == 0 || n >= len(res.Phases) {
			t.Fatalf("the 1-year game played %d phases", n)
		}
		if !reflect.DeepEqual(short.res.Lines[:n+1][1:], res.Lines[1:n+1]) {
			t.Errorf("the same seed played another game:\n%s\n--- the first run ---\n%s", strings.Join(short.res.Lines, "\n"), strings.Join(res.Lines[:n+1], "\n"))
		}
		for i := 0; i < n; i++ {
			if !bytes.Equal(short.records[i].StateAfter, gm.records[i].StateAfter) {
				t.Errorf("%s: another position in the second run", short.records[i].Title)
			}
		}
	})
}

// checkDisorder verifies what became of a power that sent nothing: its
// units held, its dislodged units were disbanded, its builds were waived
// and its owed disbands were chosen for it.
func checkDisorder(t *testing.T, e *diplomacy.Engine, power string, rec *store.PhaseRecord) {
	t.Helper()
	before, err := e.Position(rec.StateBefore)
	if err != nil {
		t.Fatal(err)
	}
	after, err := e.Position(rec.StateAfter)
	if err != nil {
		t.Fatal(err)
	}
	var rd diplomacy.ResultData
	if err := json.Unmarshal(rec.Data, &rd); err != nil {
		t.Fatal(err)
	}
	m := e.Map()
	name := m.PowerName(power)
	switch before.Phase.Type {
	case diplomacy.Movement:
		if !strings.Contains(rec.Public, "\n"+name+": (no orders received)\n") {
			t.Errorf("%s: the report does not say %s sent nothing", rec.Title, name)
		}
		for _, u := range before.Units {
			if u.Power != power {
				continue
			}
			if !slices.Contains(rd.Unordered, power+": "+m.UnitName(u)) {
				t.Errorf("%s: %s is not listed as unordered", rec.Title, m.UnitName(u))
			}
			stayed := slices.ContainsFunc(after.Units, func(v diplomacy.Unit) bool { return v == u })
			dislodged := slices.ContainsFunc(after.Dislodged, func(d diplomacy.Dislodged) bool { return d.Unit == u })
			if !stayed && !dislodged {
				t.Errorf("%s: %s did not hold", rec.Title, m.UnitName(u))
			}
		}
	case diplomacy.Retreats:
		for _, d := range before.Dislodged {
			if d.Power != power {
				continue
			}
			if slices.ContainsFunc(after.Units, func(v diplomacy.Unit) bool {
				loc := v.Loc.Province
				if v.Loc.Coast != "" {
					loc += "/" + v.Loc.Coast
				}
				return v.Power == power && v.Type == d.Type && slices.Contains(d.Options, loc) && !slices.Contains(before.Units, v)
			}) {
				t.Errorf("%s: %s retreated without an order", rec.Title, m.UnitName(d.Unit))
			}
		}
		if got, want := after.UnitCount()[power], before.UnitCount()[power]; got != want {
			t.Errorf("%s: %s has %d units after its retreats were disbanded, want %d", rec.Title, name, got, want)
		}
	case diplomacy.Adjustments:
		owed := diplomacy.Owed(before)[power]
		units := after.UnitCount()[power]
		switch {
		case owed > 0:
			if units != before.UnitCount()[power] {
				t.Errorf("%s: %s owed %d builds and sent nothing, yet has %d units (had %d)", rec.Title, name, owed, units, before.UnitCount()[power])
			}
			if !strings.Contains(rec.Public, "not ordered: waived") {
				t.Errorf("%s: the report does not say %s's builds were waived", rec.Title, name)
			}
		case owed < 0:
			if units != before.UnitCount()[power]+owed {
				t.Errorf("%s: %s owed %d disbands, has %d units (had %d)", rec.Title, name, -owed, units, before.UnitCount()[power])
			}
			if !strings.Contains(rec.Public, "civil disorder: disbanded") {
				t.Errorf("%s: the report does not show the civil disorder disbands", rec.Title)
			}
		}
	}
}

func answerTo(in []Received, id string) (Received, bool) {
	for _, r := range in {
		if r.InReplyTo == id {
			return r, true
		}
	}
	return Received{}, false
}

// kindOf names what a mail to p is.
func kindOf(p *Player, m Received) string {
	prefix := "[" + GameName + "] "
	for _, s := range p.Sent {
		if m.InReplyTo == s.MessageID {
			return "answer"
		}
	}
	switch {
	case strings.HasPrefix(m.Subject, prefix+"You are "):
		return "power"
	case strings.HasPrefix(m.Subject, prefix+"The game has started"):
		return "started"
	case strings.HasPrefix(m.Subject, prefix) && strings.HasSuffix(m.Subject, " — results"):
		return "results"
	case strings.HasPrefix(m.Subject, prefix+"Reminder: "):
		return "reminder"
	case m.Subject == prefix+"Game over":
		return "over"
	case strings.HasPrefix(m.Subject, prefix+"Offer from "):
		return "offer" // adjudicator.Offerer: an offer told its receiver
	case strings.Contains(m.Subject, " your offer "):
		return "offer answer"
	case m.Subject == prefix+"Pace vote":
		return "pace vote"
	}
	return "other: " + m.Subject
}

// paceVoteMails is how many "Pace vote" announcements each reader of a
// Diplomacy game on the weekly calendar gets (daemon/calendar.go): when
// its third game year opens (the vote), its fourth (the second vote, the
// demo's players never voting) and its fifth (slow for good).
func paceVoteMails(res *Result) int {
	if res.Family != "" && res.Family != "diplomacy" {
		return 0 // the other games are on the rolling schedule: no pace vote
	}
	var years []string
	for _, ph := range res.Phases {
		if f := strings.Fields(ph.Title); len(f) > 1 && !slices.Contains(years, f[1]) && strings.HasPrefix(ph.ID, "S") {
			years = append(years, f[1])
		}
	}
	return max(0, min(len(years), 5)-2)
}

// TestPlanMisorders: the brain's spoilt lines read as it expects — an
// unknown province is not understood, an impossible move is read as
// written, a typo is read as the order meant, with a warning — and a
// correction puts back what was meant.
func TestPlanMisorders(t *testing.T) {
	e, _ := diplomacy.NewEngine(Variant)
	m := e.Map()
	pos := m.NewPosition()
	state, _ := e.New(nil, 0)
	full := diplomacy.RandomOrders(pos, newRand(1, 1), diplomacy.RandomOptions{Aggressive: true})
	kinds := map[string]int{}
	for seed := uint64(0); seed < 300; seed++ {
		for _, p := range m.Powers {
			pl := planOrders(m, pos, diplomacy.OrdersOf(full, p.ID), newRand(seed, 7))
			ck, err := e.Check(state, p.ID, pl.text(p.Name, "test", "Test"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ck.Canonical, pl.canonical()) {
				t.Fatalf("seed %d %s: stored %v, planned %v\n%s", seed, p.ID, ck.Canonical, pl.canonical(), pl.text(p.Name, "test", "Test"))
			}
			for _, l := range pl.lines {
				switch {
				case l.canonical == "":
					kinds["unknown"]++
				case l.meant != "":
					kinds["impossible"]++
				case l.text != l.canonical:
					kinds["typo"]++
				}
			}
			if c := pl.correction(); c != nil {
				kinds["correction"]++
				ck2, err := e.Check(state, p.ID, c.text(p.Name, "test", "Test"))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(e.Merge(state, ck.Canonical, ck2.Canonical), merge(pl, c)) {
					t.Errorf("seed %d %s: the engine merges the correction into %v, the plan expects %v", seed, p.ID, e.Merge(state, ck.Canonical, ck2.Canonical), merge(pl, c))
				}
				for _, l := range ck2.Lines {
					for _, d := range l.Diags {
						if d.Severity == orders.Error {
							t.Errorf("seed %d %s: the correction %q draws %q", seed, p.ID, l.Text, d.Message)
						}
					}
				}
			}
		}
	}
	t.Logf("%v", kinds)
	for _, k := range []string{"unknown", "impossible", "typo", "correction"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in 300 plans", k)
		}
	}
}

func TestMerge(t *testing.T) {
	line := func(text, canonical, unit string) planLine {
		return planLine{text: text, canonical: canonical, unit: unit}
	}
	for _, tc := range []struct {
		name          string
		standing, new []planLine
		want          []string
	}{
		{"replace one", []planLine{line("A Rom - Nea", "A Rom - Nea", "rom"), line("F Nea H", "F Nea H", "nea")},
			[]planLine{line("A Rom H", "A Rom H", "rom")}, []string{"F Nea H", "A Rom H"}},
		{"fill an unreadable line", []planLine{line("A Rom - Xanadu", "", "rom"), line("F Nea H", "F Nea H", "nea")},
			[]planLine{line("A Rom - Apu", "A Rom - Apu", "rom")}, []string{"F Nea H", "A Rom - Apu"}},
		{"nothing standing", nil, []planLine{line("A Rom H", "A Rom H", "rom")}, []string{"A Rom H"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := merge(&plan{lines: tc.standing}, &plan{lines: tc.new}); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSignature(t *testing.T) {
	for in, want := range map[string]string{"dido@pbemd.localhost": "Dido", "x@y": "X", "@y": ""} {
		t.Run(in, func(t *testing.T) {
			if got := signature(in); got != want {
				t.Errorf("signature(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func newRand(a, b uint64) *rand.Rand { return rand.New(rand.NewPCG(a, b)) }

// checkGMInbox: the GM gets the welcome, the answer to CREATE, the start,
// a copy of every result and of the end, and nothing else (no alert).
func checkGMInbox(t *testing.T, res *Result) {
	t.Helper()
	want := map[string]int{"welcome": 1, "answer": 1, "started": 1, "results": len(res.Phases)}
	if res.Over {
		want["over"] = 1
	}
	if n := paceVoteMails(res); n > 0 {
		want["pace vote"] = n
	}
	got := map[string]int{}
	for _, m := range res.GM.Inbox {
		k := kindOf(&res.GM, m)
		if k != "answer" && strings.Contains(m.Subject, "Welcome to pbemd") {
			k = "welcome"
		}
		got[k]++
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the GM received %v, want %v", got, want)
	}
}

// Issue 28 item 13: the demo plays the standard map too (-variant
// standard): seven players, one a power, and the phases are the standard
// map's years.
func TestDemoStandardVariant(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	res, err := Run(demoContext(t), Options{Variant: "standard", Seed: testSeed, Years: 1, Out: &out, Logger: testLogger(t), Timeout: mailTimeout})
	if err != nil {
		t.Fatalf("demo: %v\noutput so far:\n%s", err, out.String())
	}
	if res.Variant != "standard" || len(res.Players) != 7 {
		t.Fatalf("played %s with %d players, want standard with 7", res.Variant, len(res.Players))
	}
	for _, want := range []string{"Diplomacy (standard map) by mail", "S1901M Spring 1901 Movement", "W1901A Winter 1901 Adjustments"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := Run(demoContext(t), Options{Variant: "chess"}); err == nil || !strings.Contains(err.Error(), `"chess" is not a Diplomacy variant`) {
		t.Errorf("an unknown variant: %v", err)
	}
}
