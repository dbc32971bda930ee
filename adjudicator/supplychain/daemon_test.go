package supplychain_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

func only(t testing.TB, ms []daemontest.Mail, to string) daemontest.Mail {
	t.Helper()
	var got []daemontest.Mail
	for _, m := range ms {
		if m.To == to {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		var subs []string
		for _, m := range ms {
			subs = append(subs, m.To+": "+m.Subject)
		}
		t.Fatalf("want one mail to %s, got %d:\n%s", to, len(got), strings.Join(subs, "\n"))
	}
	return got[0]
}

var specialRE = regexp.MustCompile(`\b(SO\d+) `)

// A game of three players through the daemon: sign-up, STATUS with the
// hand, a question that does not end the turn, a refused turn, a turn,
// a Buy-Sell-Trade offer and its answer, a missed deadline.
func TestThroughTheDaemon(t *testing.T) {
	tb := daemontest.New(t)
	tb.Send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE sc1 supplychain-3")
	daemontest.Contains(t, only(t, tb.Outbox(), "gm-boss@example.test").Text, "created")
	who := map[string]string{} // power ⇒ address
	tokens := map[string]string{}
	for _, addr := range []string{"ann@example.test", "bob@example.test", "cid@example.test"} {
		tb.Send(addr, "", "JOIN sc1")
	}
	for _, m := range tb.Outbox() {
		if p, ok := daemontest.PowerOf(m.Subject); ok {
			who[p], tokens[p] = m.To, m.Token
		}
	}
	if len(who) != 3 {
		t.Fatalf("powers %v", who)
	}
	g := tb.Game("sc1")
	if g.Status != store.Active || g.PhaseID != "R001-1" || len(g.Waiting) != 1 || g.Waiting[0] != "red" {
		t.Fatalf("game %s %s waiting %v", g.Status, g.PhaseID, g.Waiting)
	}
	as := func(p, text string) { tb.Send(who[p], tokens[p], text) }

	// STATUS shows the whole board, and the hand to its owner only.
	as("blue", "STATUS")
	status := only(t, tb.Outbox(), who["blue"]).Text
	daemontest.Contains(t, status, "Listed cards (age in taps", "Contracts for sale", "== Red:", "== Green:", "--- for you only ---", "Your hand (3 cards", "Your business plan")
	secrets := specialRE.FindAllStringSubmatch(status[strings.Index(status, "--- for you only ---"):], -1)
	if len(secrets) != 2 {
		t.Fatalf("blue's special offices: %v\n%s", secrets, status)
	}
	blueSO := secrets[0][1]
	as("green", "STATUS")
	status = only(t, tb.Outbox(), who["green"]).Text
	greenSO := specialRE.FindStringSubmatch(status[strings.Index(status, "--- for you only ---"):])[1]

	// A question is answered and does not end red's turn.
	as("red", "HAND")
	daemontest.Contains(t, only(t, tb.Outbox(), who["red"]).Text, "Your hand", "It is your turn")
	tb.Wait(time.Minute)
	if g := tb.Game("sc1"); g.PhaseID != "R001-1" {
		t.Fatalf("a question ended the turn: %s", g.PhaseID)
	}
	// A turn with an error is refused whole and the turn stays open.
	as("red", "REVENUE\nBUY ZZ9 FROM LISTING")
	daemontest.Contains(t, only(t, tb.Outbox(), who["red"]).Text, "not stored")
	tb.Wait(time.Minute)
	if g := tb.Game("sc1"); g.PhaseID != "R001-1" {
		t.Fatalf("a refused turn ended the turn: %s", g.PhaseID)
	}
	// A good turn ends it at once.
	as("red", "Revenue")
	daemontest.Contains(t, only(t, tb.Outbox(), who["red"]).Text, "Orders received", "REVENUE")
	tb.Wait(time.Minute)
	ms := tb.Outbox()
	for p, addr := range who {
		m := only(t, ms, addr)
		// what changed and what to do; the whole board is on STATUS
		daemontest.Contains(t, m.Text, "Red collects revenue: $100", "Standing:", "Your hand", "send STATUS")
		daemontest.Lacks(t, m.Text, "Listed cards (age in taps", "Contracts for sale")
		if has := regexp.MustCompile(`\b` + blueSO + `\b`).MatchString(m.Text); has != (p == "blue") {
			t.Errorf("%s's results mail and blue's secret %s: %v\n%s", p, blueSO, has, m.Text)
		}
	}
	daemontest.Contains(t, only(t, ms, who["blue"]).Text, "It is your turn")
	if g := tb.Game("sc1"); g.PhaseID != "R001-2" || g.Waiting[0] != "blue" {
		t.Fatalf("after red: %s %v", g.PhaseID, g.Waiting)
	}

	// Blue offers green a swap of special offices; green accepts.
	as("blue", "TRADE "+blueSO+" FOR "+greenSO+" WITH Green")
	daemontest.Contains(t, only(t, tb.Outbox(), who["blue"]).Text, "Orders received")
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	daemontest.Contains(t, only(t, ms, who["green"]).Text, "Reply ACCEPT or DECLINE")
	if g := tb.Game("sc1"); g.PhaseID != "R001-2-offer" || g.Waiting[0] != "green" {
		t.Fatalf("offer phase: %s %v", g.PhaseID, g.Waiting)
	}
	as("green", "accept")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	daemontest.Contains(t, only(t, ms, who["red"]).Text, "Green accepts")
	if m := only(t, ms, who["blue"]).Text; !regexp.MustCompile(`\b` + greenSO + `\b`).MatchString(m) {
		t.Errorf("blue's hand lacks %s:\n%s", greenSO, m)
	}
	if g := tb.Game("sc1"); g.PhaseID != "R001-3" {
		t.Fatalf("after the offer: %s", g.PhaseID)
	}

	// Green misses the deadline: Revenue.
	tb.Wait(72 * time.Hour)
	ms = tb.Outbox()
	daemontest.Contains(t, only(t, ms, who["green"]).Text, "Green sent no orders: Revenue")
	if g := tb.Game("sc1"); g.PhaseID != "R002-1" {
		t.Fatalf("after green: %s", g.PhaseID)
	}
}

// Seed (1-player solo game): "there are enough cards in the Short Deck for
// 2 people to each play a solitaire game at the same time" — the
// supplychain-solo2 variant through the daemon: each player sees his own
// cards only, one player's mail does not end the phase for the other, and
// a deadline without orders finishes both games.
func TestTwoSolitaireGamesThroughTheDaemon(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sol2", "supplychain-solo2", "")
	ps := tb.SignUp("sol2", []string{"red", "blue"})
	g := tb.Game("sol2")
	if g.Status != store.Active || strings.Join(g.Waiting, ",") != "red,blue" {
		t.Fatalf("game %s waiting %v", g.Status, g.Waiting)
	}
	tb.As(ps["red"], "STATUS")
	status := only(t, tb.Outbox(), ps["red"].Addr).Text
	daemontest.Contains(t, status, "== Red (playing)", "== Blue (playing)", "Cards left to place (16)", "Cards left to place: 16.")
	// Red cannot finish with the Starter in hand; the refusal keeps the
	// phase open for both.
	tb.As(ps["red"], "FINISH")
	daemontest.Contains(t, only(t, tb.Outbox(), ps["red"].Addr).Text, "you must place your Starter business")
	tb.Wait(time.Minute)
	if g := tb.Game("sol2"); g.PhaseID != "S001" {
		t.Fatalf("phase %s after a refused mail", g.PhaseID)
	}
	tb.Wait(72 * time.Hour)
	ms := tb.Outbox()
	for _, p := range []string{"red", "blue"} {
		m := daemontest.One(t, ms, ps[p].Addr, "results")
		daemontest.Contains(t, m.Text, "Red sent no orders by the deadline: that solitaire game ends here.",
			"Blue sent no orders by the deadline", "Final scores", "Winner")
		daemontest.One(t, ms, ps[p].Addr, "Game over")
	}
	if g := tb.Game("sol2"); g.Status == store.Active {
		t.Fatalf("the game goes on: %s %s", g.Status, g.PhaseID)
	}
}

// Issue 14: what a Supply Chain player reads in the mail says what the
// engine declares. A question (HAND, ASK) is answered and is no misorder;
// orders that end the turn say so, and do not invite new orders "until
// the deadline"; a player whose turn it is not may change the orders of
// his mail until the turn ends.
func TestMailSaysWhatTheOrdersDo(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sc2", "supplychain-3", "")
	ps := tb.SignUp("sc2", []string{"red", "blue", "green"})
	if g := tb.Game("sc2"); g.PhaseID != "R001-1" || strings.Join(g.Waiting, ",") != "red" {
		t.Fatalf("phase %s waiting %v", g.PhaseID, g.Waiting)
	}

	tb.As(ps["red"], "HAND\nASK Blue OFFICES")
	reply := only(t, tb.Outbox(), ps["red"].Addr).Text
	daemontest.Contains(t, reply, "HAND:", "Your hand", "ASK Blue OFFICES:")
	daemontest.Lacks(t, reply, "could not understand", "No orders were stored")

	// A question beside a misorder: only the misorder is listed.
	tb.As(ps["blue"], "HAND\nFROBNICATE the widget")
	reply = only(t, tb.Outbox(), ps["blue"].Addr).Text
	daemontest.Contains(t, reply, "Your hand", "line 2: FROBNICATE")
	daemontest.Lacks(t, reply, "line 1: HAND")

	// Green's free order, out of turn, stands until red has moved.
	tb.As(ps["green"], "DISCARD "+firstCard(t, tb, ps["green"]))
	ack := only(t, tb.Outbox(), ps["green"].Addr).Text
	daemontest.Contains(t, ack, "Orders received", "Round 1: Red's turn ends as soon as Red has sent orders (or at the deadline); until then a new set of orders replaces the whole standing set.")
	daemontest.Lacks(t, ack, "until the deadline:")

	// Red's turn: his orders end it.
	tb.As(ps["red"], "REVENUE")
	ack = only(t, tb.Outbox(), ps["red"].Addr).Text
	daemontest.Contains(t, ack, "Orders received", "These orders end Round 1: Red's turn: it is processed now")
	daemontest.Lacks(t, ack, "You may send new orders", "until the deadline")
	tb.Wait(time.Minute)
	if g := tb.Game("sc2"); g.PhaseID != "R001-2" {
		t.Fatalf("red's orders did not end the turn: %s", g.PhaseID)
	}
}

// firstCard is the id of the first card of a player's hand, read from
// his STATUS reply.
func firstCard(t *testing.T, tb *daemontest.Table, p daemontest.Player) string {
	t.Helper()
	tb.As(p, "STATUS")
	status := only(t, tb.Outbox(), p.Addr).Text
	m := regexp.MustCompile(`Your hand \(\d+ cards?[^\n]*\n\s*-?\s*([A-Z]+\d+)`).FindStringSubmatch(status)
	if m == nil {
		t.Fatalf("no card in the hand:\n%s", status)
	}
	return m[1]
}

// Seats from options: supplychain players=N picks the preset with N seats.
func TestSeatsFromOptions(t *testing.T) {
	tb := daemontest.New(t)
	reply := func(text string) string {
		tb.Send(daemontest.GM, "", "SIGNON GM - "+daemontest.GMPassword+"\n"+text)
		return daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text
	}
	daemontest.Contains(t, reply("CREATE c5 supplychain-3 players=5"), "Game c5 (supplychain-5) created", "(5 powers: ")
	daemontest.Contains(t, reply("CREATE c2 supplychain-3 players=2 fire_sale=on"), "Game c2 (supplychain-2) created", "(2 powers: ")
	daemontest.Contains(t, reply("CREATE cx supplychain-3 fire_sale=maybe"), "Nothing was created")
}

// Issue 14: Supply Chain has no diplomats (Info.Diplomats is false): the
// power mail names no seniority, nobody joins a running game as a junior,
// and LOCK JUNIORS says there are none.
func TestNoDiplomatsInSupplyChain(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sc9", "supplychain-2", "")
	tb.Send("red@example.test", "", "JOIN sc9 as junior of red")
	daemontest.Contains(t, only(t, tb.Outbox(), "red@example.test").Text, "each power has one player", "no junior diplomats")
	for _, p := range []string{"red", "blue"} {
		tb.Send(p+"@example.test", "", "JOIN sc9 prefer "+p)
	}
	ms := tb.Outbox()
	powerMail := daemontest.One(t, ms, "red@example.test", "You are Red")
	daemontest.Contains(t, powerMail.Text, "You play Red in sc9.")
	daemontest.Lacks(t, powerMail.Text, "diplomat")
	tb.Send("late@example.test", "", "JOIN sc9")
	late := only(t, tb.Outbox(), "late@example.test").Text
	daemontest.Contains(t, late, "each power has one player")
	daemontest.Lacks(t, late, "senior")
	tb.Send("red@example.test", powerMail.Token, "LOCK JUNIORS")
	lock := only(t, tb.Outbox(), "red@example.test").Text
	daemontest.Contains(t, lock, "LOCK JUNIORS: in", "there are no junior diplomats")
	daemontest.Lacks(t, lock, "senior diplomat")
	// HELP offers no command about juniors, and says whose orders stand
	// without speaking of diplomats.
	tb.Send("red@example.test", powerMail.Token, "HELP")
	help := only(t, tb.Outbox(), "red@example.test").Text
	daemontest.Contains(t, help, "Your latest orders stand.", "PASSWORD <new password>")
	for _, w := range []string{"LOCK JUNIORS", "RELEASE <address>", "ACCEPT <address>", "REFUSE <address>", "WHATIF", "diplomat"} {
		daemontest.Lacks(t, help, w)
	}
}
