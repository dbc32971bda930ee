package supplychain_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	_ "pbemd/adjudicator/supplychain"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// table drives the real daemon through daemontest, with short names for
// the mails this file reads.
type table struct {
	*daemontest.Table
	t *testing.T
}

type mail struct{ to, subject, text, token string }

func newTable(t *testing.T) *table {
	t.Helper()
	return &table{Table: daemontest.New(t), t: t}
}

func (tb *table) send(from, token, text string) { tb.t.Helper(); tb.Send(from, token, text) }

func (tb *table) tick(after time.Duration) { tb.t.Helper(); tb.Wait(after) }

func (tb *table) outbox() []mail {
	tb.t.Helper()
	var out []mail
	for _, m := range tb.Outbox() {
		out = append(out, mail{to: m.To, subject: m.Subject, text: m.Text, token: m.Token})
	}
	return out
}

func (tb *table) game(name string) *store.Game { tb.t.Helper(); return tb.Game(name) }

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
		if p, ok := daemontest.PowerOf(m.subject); ok {
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
