package supplychain_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "pbemd/adjudicator/supplychain"
	"pbemd/daemon"
	"pbemd/mailer"
	"pbemd/store"
)

// table drives the real daemon: mail in through HandleMail, mail out read
// from the store's outbox, a virtual clock.
type table struct {
	t   *testing.T
	d   *daemon.Daemon
	db  *store.DB
	now time.Time
	seq int
}

type mail struct{ to, subject, text, token string }

func newTable(t *testing.T) *table {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("bbolt check: %v", err)
		}
		db.Close()
	})
	tb := &table{t: t, db: db, now: time.Date(2026, 3, 1, 21, 0, 0, 0, time.UTC)}
	tb.d, err = daemon.New(db, daemon.Options{Address: "gm@example.test", GM: []string{"gm-boss@example.test"},
		GMPassword: "pw", PasswordCost: 4, Now: func() time.Time { return tb.now }})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *table) send(from, token, text string) {
	tb.t.Helper()
	tb.seq++
	in := &daemon.Incoming{MsgID: fmt.Sprintf("m%d@test", tb.seq), From: from, Token: token, Subject: "orders", Text: text, Date: tb.now}
	if err := tb.d.HandleMail(context.Background(), in); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *table) tick(after time.Duration) {
	tb.t.Helper()
	tb.now = tb.now.Add(after)
	if err := tb.d.Tick(context.Background()); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *table) outbox() []mail {
	tb.t.Helper()
	var out []mail
	err := tb.db.Update(func(tx *store.Tx) error {
		ms, err := tx.DueMail(tb.now.Add(1000*time.Hour), 1<<20)
		if err != nil {
			return err
		}
		for _, m := range ms {
			pm, err := mailer.ParseMail(m.Raw, "gm@example.test")
			if err != nil {
				return err
			}
			ml := mail{to: strings.Join(m.To, ","), subject: pm.Subject, text: pm.Text}
			if len(pm.ReplyTo) > 0 {
				addr := pm.ReplyTo[0].Address
				if i, j := strings.Index(addr, "+"), strings.Index(addr, "@"); i >= 0 && j > i {
					ml.token = addr[i+1 : j]
				}
			}
			out = append(out, ml)
			if err := tx.MailSent(m.ID, tb.now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	return out
}

func (tb *table) game(name string) *store.Game {
	tb.t.Helper()
	var g *store.Game
	if err := tb.db.View(func(tx *store.Tx) (err error) { g, err = tx.Game(name); return err }); err != nil {
		tb.t.Fatal(err)
	}
	return g
}

func only(t *testing.T, ms []mail, to string) mail {
	t.Helper()
	var got []mail
	for _, m := range ms {
		if m.to == to {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		var subs []string
		for _, m := range ms {
			subs = append(subs, m.to+": "+m.subject)
		}
		t.Fatalf("want one mail to %s, got %d:\n%s", to, len(got), strings.Join(subs, "\n"))
	}
	return got[0]
}

func contains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
}

var specialRE = regexp.MustCompile(`\b(SO\d+) `)

// A game of three players through the daemon: sign-up, STATUS with the
// hand, a question that does not end the turn, a refused turn, a turn,
// a Buy-Sell-Trade offer and its answer, a missed deadline.
func TestThroughTheDaemon(t *testing.T) {
	tb := newTable(t)
	tb.send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE sc1 supplychain-3")
	contains(t, only(t, tb.outbox(), "gm-boss@example.test").text, "created")
	who := map[string]string{} // power ⇒ address
	tokens := map[string]string{}
	for _, addr := range []string{"ann@example.test", "bob@example.test", "cid@example.test"} {
		tb.send(addr, "", "JOIN sc1")
	}
	for _, m := range tb.outbox() {
		if i := strings.Index(m.subject, "You are "); i >= 0 {
			p := strings.ToLower(m.subject[i+len("You are "):])
			who[p], tokens[p] = m.to, m.token
		}
	}
	if len(who) != 3 {
		t.Fatalf("powers %v", who)
	}
	g := tb.game("sc1")
	if g.Status != store.Active || g.PhaseID != "R001-1" || len(g.Waiting) != 1 || g.Waiting[0] != "red" {
		t.Fatalf("game %s %s waiting %v", g.Status, g.PhaseID, g.Waiting)
	}
	as := func(p, text string) { tb.send(who[p], tokens[p], text) }

	// STATUS shows the hand to its owner only.
	as("blue", "STATUS")
	status := only(t, tb.outbox(), who["blue"]).text
	contains(t, status, "--- for you only ---", "Your hand (3 cards", "Your business plan")
	secrets := specialRE.FindAllStringSubmatch(status[strings.Index(status, "--- for you only ---"):], -1)
	if len(secrets) != 2 {
		t.Fatalf("blue's special offices: %v\n%s", secrets, status)
	}
	blueSO := secrets[0][1]
	as("green", "STATUS")
	status = only(t, tb.outbox(), who["green"]).text
	greenSO := specialRE.FindStringSubmatch(status[strings.Index(status, "--- for you only ---"):])[1]

	// A question is answered and does not end red's turn.
	as("red", "HAND")
	contains(t, only(t, tb.outbox(), who["red"]).text, "Your hand", "It is your turn")
	tb.tick(time.Minute)
	if g := tb.game("sc1"); g.PhaseID != "R001-1" {
		t.Fatalf("a question ended the turn: %s", g.PhaseID)
	}
	// A turn with an error is refused whole and the turn stays open.
	as("red", "REVENUE\nBUY ZZ9 FROM LISTING")
	contains(t, only(t, tb.outbox(), who["red"]).text, "not stored")
	tb.tick(time.Minute)
	if g := tb.game("sc1"); g.PhaseID != "R001-1" {
		t.Fatalf("a refused turn ended the turn: %s", g.PhaseID)
	}
	// A good turn ends it at once.
	as("red", "Revenue")
	contains(t, only(t, tb.outbox(), who["red"]).text, "Orders received", "REVENUE")
	tb.tick(time.Minute)
	ms := tb.outbox()
	for p, addr := range who {
		m := only(t, ms, addr)
		contains(t, m.text, "Red collects revenue: $100", "Listed cards", "Your hand")
		if has := regexp.MustCompile(`\b` + blueSO + `\b`).MatchString(m.text); has != (p == "blue") {
			t.Errorf("%s's results mail and blue's secret %s: %v\n%s", p, blueSO, has, m.text)
		}
	}
	contains(t, only(t, ms, who["blue"]).text, "It is your turn")
	if g := tb.game("sc1"); g.PhaseID != "R001-2" || g.Waiting[0] != "blue" {
		t.Fatalf("after red: %s %v", g.PhaseID, g.Waiting)
	}

	// Blue offers green a swap of special offices; green accepts.
	as("blue", "TRADE "+blueSO+" FOR "+greenSO+" WITH Green")
	contains(t, only(t, tb.outbox(), who["blue"]).text, "Orders received")
	tb.tick(time.Minute)
	ms = tb.outbox()
	contains(t, only(t, ms, who["green"]).text, "Reply ACCEPT or DECLINE")
	if g := tb.game("sc1"); g.PhaseID != "R001-2-offer" || g.Waiting[0] != "green" {
		t.Fatalf("offer phase: %s %v", g.PhaseID, g.Waiting)
	}
	as("green", "accept")
	tb.outbox()
	tb.tick(time.Minute)
	ms = tb.outbox()
	contains(t, only(t, ms, who["red"]).text, "Green accepts")
	if m := only(t, ms, who["blue"]).text; !regexp.MustCompile(`\b` + greenSO + `\b`).MatchString(m) {
		t.Errorf("blue's hand lacks %s:\n%s", greenSO, m)
	}
	if g := tb.game("sc1"); g.PhaseID != "R001-3" {
		t.Fatalf("after the offer: %s", g.PhaseID)
	}

	// Green misses the deadline: Revenue.
	tb.tick(72 * time.Hour)
	ms = tb.outbox()
	contains(t, only(t, ms, who["green"]).text, "Green sent no orders: Revenue")
	if g := tb.game("sc1"); g.PhaseID != "R002-1" {
		t.Fatalf("after green: %s", g.PhaseID)
	}
}
