package supremacy

import (
	"strings"
	"testing"
)

// fixture is a hand-made position for one rule test: an empty board, the
// players given, every card in the deck, and dice the test chooses.
type fixture struct {
	t *testing.T
	w *world
	r *run // the last resolve
	// the phase and turn the last resolve played
	lastPhase Phase
	lastTurn  int
}

func newFixture(t *testing.T, powers string, opts map[string]string) *fixture {
	t.Helper()
	all := map[string]string{"powers": powers}
	for k, v := range opts {
		all[k] = v
	}
	opt, err := parseOptions(all, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := ScenarioByName(opt.Scenario)
	w := newGame(sc, opt, 1)
	for a := range w.army {
		for p := range w.army[a] {
			w.army[a][p], w.navy[a][p] = 0, 0
		}
	}
	for c := range w.cardAt {
		w.cardAt[c], w.cardOpn[c] = cardDeck, false
	}
	f := &fixture{t: t, w: w}
	f.phase(PhaseAttack, 1)
	return f
}

func (f *fixture) idx(power string) int {
	f.t.Helper()
	i := f.w.playerIndex(power)
	if i < 0 {
		f.t.Fatalf("no player %s", power)
	}
	return i
}

func (f *fixture) area(id string) int {
	f.t.Helper()
	a, ok := f.w.sc.areaByID[id]
	if !ok {
		f.t.Fatalf("no area %s", id)
	}
	return a
}

func (f *fixture) card(id string) int {
	f.t.Helper()
	c, ok := f.w.sc.cardByID[id]
	if !ok {
		f.t.Fatalf("no card %s", id)
	}
	return c
}

// phase sets the phase and turn; the order of play is the players' order
// given to newFixture (scenario order) unless order is called.
func (f *fixture) phase(ph Phase, turn int) *fixture {
	f.w.phase, f.w.turn, f.w.slot, f.w.step = ph, turn, 0, 0
	f.w.order = f.w.alivePlayers()
	f.w.attack = nil
	if ph == PhaseAttack && f.w.stepped(ph) {
		f.w.attack = &attackJSON{Stage: "attack"}
	}
	return f
}

func (f *fixture) order(powers ...string) *fixture {
	f.w.order = nil
	for _, p := range powers {
		f.w.order = append(f.w.order, f.idx(p))
	}
	return f
}

func (f *fixture) armies(power, area string, n int) *fixture {
	f.w.army[f.area(area)][f.w.players[f.idx(power)].idx] = n
	return f
}

func (f *fixture) navies(power, area string, n int) *fixture {
	f.w.navy[f.area(area)][f.w.players[f.idx(power)].idx] = n
	return f
}

// cash sets a player's cash, keeping the bank's books.
func (f *fixture) cash(power string, n int) *fixture {
	p := f.w.players[f.idx(power)]
	f.w.bank += p.Cash - n
	p.Cash = n
	return f
}

func (f *fixture) res(power string, oil, minerals, grain int) *fixture {
	p := f.w.players[f.idx(power)]
	p.Oil, p.Minerals, p.Grain = oil, minerals, grain
	return f
}

func (f *fixture) give(power string, cards ...string) *fixture {
	for _, c := range cards {
		f.w.cardAt[f.card(c)] = f.idx(power)
	}
	return f
}

func (f *fixture) player(power string) *player { return f.w.players[f.idx(power)] }

func (f *fixture) armyIn(power, area string) int { return f.w.armies(f.idx(power), f.area(area)) }

func (f *fixture) navyIn(power, area string) int { return f.w.navies(f.idx(power), f.area(area)) }

// resolve runs the phase with these orders (read as a player writes them)
// and exactly these dice: a missing or unused die fails the test.
func (f *fixture) resolve(ords map[string][]string, dice ...int) *fixture {
	f.t.Helper()
	parsed := make([][]*Order, len(f.w.players))
	for power, lines := range ords {
		i := f.idx(power)
		for _, line := range lines {
			canon, err := readLine(f.w.sc, line)
			if err != "" {
				f.t.Fatalf("%s: %q: %s", power, line, err)
			}
			o, perr := f.w.sc.parseLine(canon)
			if perr != nil {
				f.t.Fatal(perr)
			}
			parsed[i] = append(parsed[i], o)
		}
	}
	f.lastPhase, f.lastTurn = f.w.phase, f.w.turn
	r := newRun(f.w, 1)
	r.fixed = append([]int(nil), dice...)
	r.strictDice = true
	f.r = r
	func() {
		defer func() {
			if e := recover(); e != nil {
				f.t.Fatalf("%v\nreport so far:\n%s", e, strings.Join(r.rep.pub, "\n"))
			}
		}()
		r.resolve(parsed)
	}()
	if len(r.fixed) > 0 {
		f.t.Errorf("dice not used: %v\n%s", r.fixed, f.public())
	}
	if err := invariants(f.w); err != nil {
		f.t.Fatalf("invariants: %v\n%s", err, f.public())
	}
	return f
}

func (f *fixture) public() string { return strings.Join(f.r.rep.pub, "\n") }

func (f *fixture) private(power string) string { return strings.Join(f.r.rep.priv[power], "\n") }

// says fails unless the public report holds every want.
func (f *fixture) says(wants ...string) {
	f.t.Helper()
	for _, w := range wants {
		if !strings.Contains(f.public(), w) {
			f.t.Errorf("report lacks %q:\n%s", w, f.public())
		}
	}
}

func (f *fixture) tells(power string, wants ...string) {
	f.t.Helper()
	for _, w := range wants {
		if !strings.Contains(f.private(power), w) {
			f.t.Errorf("%s's report lacks %q:\n%s", power, w, f.private(power))
		}
	}
}

func (f *fixture) eq(what string, got, want int) {
	f.t.Helper()
	if got != want {
		f.t.Errorf("%s = %d, want %d\n%s", what, got, want, f.public())
	}
}

// check runs Check for one line and returns its diagnostics' messages.
func (f *fixture) check(power, line string) (errs, warns []string) {
	f.t.Helper()
	e := &Engine{sc: f.w.sc}
	ck, err := e.Check(f.w.encode(), power, line)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, l := range ck.Lines {
		for _, d := range l.Diags {
			if d.Severity == 2 {
				errs = append(errs, d.Message)
			} else {
				warns = append(warns, d.Message)
			}
		}
	}
	return errs, warns
}
