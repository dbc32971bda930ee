package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
	"pbemd/store/storetest"
)

// toyEngine is a tiny deterministic game for daemon tests: two powers,
// "red" and "blue", each with a score; an order line "score N" adds N to
// the power's score; the first to 10 wins. Every third phase is a "build"
// phase in which only powers with an odd score must order, so the daemon's
// handling of Waiting is exercised. It is registered as "toy".
type toyEngine struct {
	// seq makes it a sequential game ("toyseq"): one power moves per
	// phase, blue on even phases, red on odd ones.
	seq bool
}

type toyState struct {
	Phase  int            `json:"phase"`
	Scores map[string]int `json:"scores"`
	Target int            `json:"target"` // score that wins (option "target")
}

var toyPowers = []string{"blue", "red"}

func (e toyEngine) Info() adjudicator.Info {
	if e.seq {
		return adjudicator.Info{Name: "toyseq", Game: "toy", Title: "Toy game, one player at a time", Powers: toyPowers, Examples: []string{"score 3"},
			PowerNames: map[string]string{"blue": "Azure"}, Diplomats: true}
	}
	return adjudicator.Info{Name: "toy", Game: "toy", Title: "Toy game", Powers: toyPowers, Simultaneous: true,
		Examples: []string{"score 3"}, Diplomats: true}
}

func (toyEngine) New(opts map[string]string, seed int64) ([]byte, error) {
	target := 10
	for k, v := range opts {
		if k != "target" {
			return nil, fmt.Errorf("toy: unknown option %q (known: target)", k)
		}
		if _, err := fmt.Sscan(v, &target); err != nil || target < 1 {
			return nil, fmt.Errorf("toy: target %q is not a positive number", v)
		}
	}
	return json.Marshal(toyState{Scores: map[string]int{"red": 0, "blue": 0}, Target: target})
}

func decodeToy(b []byte) (toyState, error) {
	var s toyState
	err := json.Unmarshal(b, &s)
	return s, err
}

func (toyEngine) kind(s toyState) adjudicator.PhaseKind {
	if s.Phase%3 == 2 {
		return adjudicator.PhaseBuild
	}
	return adjudicator.PhaseOrders
}

func (e toyEngine) Status(state []byte) (adjudicator.Status, error) {
	s, err := decodeToy(state)
	if err != nil {
		return adjudicator.Status{}, err
	}
	st := adjudicator.Status{
		ID: fmt.Sprintf("P%02d", s.Phase), Title: fmt.Sprintf("Phase %d", s.Phase), Kind: e.kind(s),
		Alive: toyPowers, Scores: s.Scores,
		Summary: fmt.Sprintf("blue %d, red %d\n", s.Scores["blue"], s.Scores["red"]),
	}
	for _, p := range toyPowers {
		if s.Scores[p] >= s.Target {
			st.Over, st.Result = true, &adjudicator.Result{Kind: "solo", Winners: []string{p}}
		}
		if st.Kind == adjudicator.PhaseOrders || s.Scores[p]%2 == 1 {
			st.Waiting = append(st.Waiting, p)
		}
	}
	if e.seq {
		st.Kind, st.Waiting, st.EndsTurn = adjudicator.PhaseTurn, []string{toyPowers[s.Phase%2]}, true
	}
	return st, nil
}

var toyOrderRE = regexp.MustCompile(`(?i)^\s*score\s+(-?\d+)\s*$`)

func (toyEngine) Check(state []byte, power, text string) (adjudicator.Check, error) {
	res := orders.Parse(text, orders.Options{})
	var c adjudicator.Check
	for _, l := range res.Lines {
		if m := toyOrderRE.FindStringSubmatch(l.Text); m != nil {
			l.Kind, l.Diags = orders.OrderLine, nil
			if m[1] == "0" {
				l.Diags = []orders.Diagnostic{{Severity: orders.Error, Message: "a score of 0 does nothing"}}
			}
			c.Canonical = append(c.Canonical, "score "+m[1])
		}
		c.Lines = append(c.Lines, l)
	}
	if len(c.Canonical) == 0 {
		c.Notes = append(c.Notes, power+" has no order: it scores nothing")
	}
	return c, nil
}

// View shows a power its own score as if it were secret.
func (toyEngine) View(state []byte, power string) (string, error) {
	s, err := decodeToy(state)
	return fmt.Sprintf("your secret score: %d\n", s.Scores[power]), err
}

// toyMerges counts the calls of toyEngine.Merge, for the tests of the
// work one mail causes.
var toyMerges atomic.Int64

// Merge keeps the latest line only (one order per power).
func (toyEngine) Merge(state []byte, standing, newer []string) []string {
	toyMerges.Add(1)
	if len(newer) == 0 {
		return standing
	}
	return newer[len(newer)-1:]
}

func (e toyEngine) Resolve(state []byte, ords map[string][]string, seed int64) (adjudicator.Outcome, error) {
	s, err := decodeToy(state)
	if err != nil {
		return adjudicator.Outcome{}, err
	}
	var pub strings.Builder
	fmt.Fprintf(&pub, "Results of phase %d (seed %d):\n", s.Phase, seed)
	for _, p := range toyPowers {
		for _, l := range ords[p] {
			m := toyOrderRE.FindStringSubmatch(l)
			if m == nil {
				return adjudicator.Outcome{}, fmt.Errorf("toy: stored order %q unreadable", l)
			}
			var n int
			fmt.Sscan(m[1], &n)
			s.Scores[p] += n
			fmt.Fprintf(&pub, "  %s: %s\n", p, l)
		}
	}
	s.Phase++
	next, _ := json.Marshal(s)
	out := adjudicator.Outcome{Next: next, Report: adjudicator.Report{Public: pub.String(),
		Private: map[string]string{"red": "private note for red", "blue": "private note for blue"}}}
	return out, nil
}

var registerToy sync.Once

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// harness drives a daemon directly: mails in through HandleMail, mails out
// read (and marked sent) from the store's outbox.
type harness struct {
	t     *testing.T
	d     *Daemon
	db    *store.DB
	clock *clock
	seq   int
}

const harnessGM = "master@example.test"

func newHarness(t *testing.T) *harness {
	t.Helper()
	registerToy.Do(func() {
		adjudicator.Register(toyEngine{})
		adjudicator.Register(toyEngine{seq: true})
	})
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, db: db}
	t.Cleanup(func() { // h.db: the store as it is at the end (restart)
		if err := h.db.Check(); err != nil {
			t.Errorf("bbolt check: %v", err)
		}
		h.db.Close()
	})
	h.clock = &clock{t: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)}
	h.d, err = New(db, Options{
		Address: "gm@example.test", GM: []string{harnessGM}, GMPassword: "sesame",
		PasswordCost: 4, Now: h.clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// restart closes the store and opens it again under a new daemon with the
// same options, as a restart of pbemd does.
func (h *harness) restart() {
	h.t.Helper()
	path := h.db.Path()
	if err := h.db.Close(); err != nil {
		h.t.Fatal(err)
	}
	db, err := store.Open(path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.db = db
	if h.d, err = New(db, h.d.opt); err != nil {
		h.t.Fatal(err)
	}
}

// send delivers one mail to the daemon; token is the +token it was sent
// to ("" for the plain address).
func (h *harness) send(from, token, body string) string {
	h.t.Helper()
	h.seq++
	id := fmt.Sprintf("m%d@test", h.seq)
	in := &Incoming{MsgID: id, From: from, Token: token, Subject: "orders", Text: body, Date: h.clock.Now()}
	if err := h.d.HandleMail(context.Background(), in); err != nil {
		h.t.Fatalf("HandleMail: %v", err)
	}
	return id
}

func (h *harness) sendMail(in *Incoming) {
	h.t.Helper()
	if err := h.d.HandleMail(context.Background(), in); err != nil {
		h.t.Fatalf("HandleMail: %v", err)
	}
}

func (h *harness) tick() {
	h.t.Helper()
	if err := h.d.Tick(context.Background()); err != nil {
		h.t.Fatalf("Tick: %v", err)
	}
}

// sent is one mail taken from the outbox.
type sent = storetest.Mail

// outbox takes every queued mail out of the outbox, sorted by recipient
// then subject.
func (h *harness) outbox() []sent {
	h.t.Helper()
	out := storetest.Outbox(h.t, h.db, "gm@example.test")
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].To != out[j].To {
			return out[i].To < out[j].To
		}
		return out[i].Subject < out[j].Subject
	})
	return out
}

// to returns the mails for one recipient from a batch.
func to(ms []sent, addr string) []sent {
	var out []sent
	for _, m := range ms {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

// only returns the single mail to addr, failing otherwise.
func (h *harness) only(ms []sent, addr string) sent {
	h.t.Helper()
	got := to(ms, addr)
	if len(got) != 1 {
		var subs []string
		for _, m := range ms {
			subs = append(subs, m.To+": "+m.Subject)
		}
		h.t.Fatalf("want exactly one mail to %s, got %d; all mails:\n%s", addr, len(got), strings.Join(subs, "\n"))
	}
	return got[0]
}

// reply returns the one answer (subject "Re: …") to addr in a batch.
func (h *harness) reply(ms []sent, addr string) sent {
	h.t.Helper()
	var got []sent
	for _, m := range to(ms, addr) {
		if strings.Contains(m.Subject, "Re: ") {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		h.t.Fatalf("want exactly one reply to %s, got %d", addr, len(got))
	}
	return got[0]
}

func (h *harness) game(name string) *store.Game {
	h.t.Helper()
	var g *store.Game
	if err := h.db.View(func(tx *store.Tx) (err error) { g, err = tx.Game(name); return err }); err != nil {
		h.t.Fatal(err)
	}
	return g
}

func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
}

// createToy makes a toy game as the site GM (by password) and returns the
// GM token.
func (h *harness) createToy(name string, opts string) string {
	h.t.Helper()
	variant := "toy"
	if strings.HasPrefix(opts, "seq ") || opts == "seq" {
		variant, opts = "toyseq", strings.TrimPrefix(opts, "seq")
	}
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE "+name+" "+variant+" "+opts)
	ms := h.outbox()
	m := h.only(ms, harnessGM)
	mustContain(h.t, m.Text, "created")
	if m.Token == "" {
		h.t.Fatalf("CREATE reply has no GM token: %+v", m)
	}
	return m.Token
}

// player is one signed-up player of a test game.
type player struct{ addr, token string }

// startToy creates a toy game and signs up alice and bob; it returns the
// GM token and the players by power.
func (h *harness) startToy(name, opts string) (gmToken string, players map[string]player) {
	h.t.Helper()
	gmToken = h.createToy(name, opts)
	h.send("alice@example.test", "", "JOIN "+name+" prefer red > blue")
	h.send("bob@example.test", "", "JOIN "+name+" prefer red > blue")
	players = map[string]player{}
	for _, m := range h.outbox() {
		if i := strings.Index(m.Subject, "You are "); i >= 0 {
			name := m.Subject[i+len("You are "):]
			if j := strings.LastIndex(name, " ("); j >= 0 {
				name = name[j+2 : len(name)-1] // "Azure (blue)"
			}
			players[strings.ToLower(name)] = player{m.To, m.Token}
		}
	}
	if len(players) != 2 {
		h.t.Fatalf("want two power mails, got %v", players)
	}
	return gmToken, players
}

// as sends a mail from a player by reply token.
func (h *harness) as(p player, body string) string {
	h.t.Helper()
	return h.send(p.addr, p.token, body)
}

// openOrderSets reads every version stored for a game's open phase.
func (h *harness) openOrderSets(game string) []store.OrderSet {
	h.t.Helper()
	g := h.game(game)
	var sets []store.OrderSet
	if err := h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets(game, g.Phase); return err }); err != nil {
		h.t.Fatal(err)
	}
	return sets
}
