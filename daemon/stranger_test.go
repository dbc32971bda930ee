package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

// TestStrangerHasASmallDailyBudget: a mail that proves nothing from an
// address the daemon never mailed as someone it knows is answered up to
// strangerAnswers times a day (the last answer says so), then not at all
// — durably, so a restart does not reopen the tap — and every answer goes
// to its From address, never to its Reply-To.
func TestStrangerHasASmallDailyBudget(t *testing.T) {
	h := newHarness(t)
	stranger := func(text string) {
		h.seq++
		h.sendMail(&Incoming{MsgID: "s" + strings.Repeat("x", h.seq) + "@test", From: "mallory@example.test", ReplyTo: "victim@example.test", Subject: "hi", Text: text})
	}
	var ms []sent
	for i := 0; i < strangerAnswers; i++ {
		text := "LIST"
		if i == 0 {
			text = "HELP"
		}
		stranger(text)
		got := h.outbox()
		if len(to(got, "victim@example.test")) != 0 {
			t.Fatalf("a stranger's Reply-To was answered (mail %d)", i+1)
		}
		m := h.only(got, "mallory@example.test")
		if i < strangerAnswers-1 && strings.Contains(m.Text, "last answer today") {
			t.Fatalf("answer %d says it is the last", i+1)
		}
		ms = append(ms, m)
	}
	mustContain(t, ms[0].Text, "LIST")
	mustContain(t, ms[1].Text, "Games on this game master")
	mustContain(t, ms[len(ms)-1].Text, "Games on this game master", "at most 10 times a day, and this is the last answer today")
	stranger("HELP")
	stranger("LIST")
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("past its budget a stranger got %d more answers the same day", len(ms))
	}
	// A restart forgets the in-memory rate limit, not this.
	d, err := New(h.db, h.d.opt)
	if err != nil {
		t.Fatal(err)
	}
	h.d = d
	stranger("LIST")
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("after a restart a stranger got %d more answers the same day", len(ms))
	}
	h.clock.Add(strangerDay)
	stranger("LIST")
	h.only(h.outbox(), "mallory@example.test")
}

// TestNewcomerIsAnsweredEachStep: a newcomer who asks for HELP, then
// LIST, then JOINs gets an answer to each, at the From address.
func TestNewcomerIsAnsweredEachStep(t *testing.T) {
	h := newHarness(t)
	h.createToy("open", "")
	h.outbox()
	for i, step := range []struct{ text, want string }{
		{"HELP", "JOIN"},
		{"LIST", "open"},
		{"JOIN open", "You are signed up for open"},
	} {
		h.sendMail(&Incoming{MsgID: fmt.Sprintf("n%d@test", i), From: "newbie@example.test", ReplyTo: "elsewhere@example.test", Text: step.text})
		ms := h.outbox()
		mustContain(t, h.only(ms, "newbie@example.test").Text, step.want)
		if len(to(ms, "elsewhere@example.test")) != 0 {
			t.Fatalf("%s of an unproven mail was answered at its Reply-To", step.text)
		}
	}
}

// TestStrangersShareAnHourlyCap: forged senders cannot make the daemon
// mail many addresses: past strangersPerHour answers to strangers in an
// hour, a stranger's first mail is not answered either, until the hour
// is over.
func TestStrangersShareAnHourlyCap(t *testing.T) {
	h := newHarness(t)
	// One address past its own budget uses up nothing of the shared one.
	for i := 0; i < 3*strangerAnswers; i++ {
		h.sendMail(&Incoming{MsgID: fmt.Sprintf("one%d@test", i), From: "loud@example.test", Text: "LIST"})
	}
	if n := len(h.outbox()); n != strangerAnswers {
		t.Fatalf("one stranger got %d answers, want %d", n, strangerAnswers)
	}
	for i := strangerAnswers; i < strangersPerHour; i++ {
		h.sendMail(&Incoming{MsgID: fmt.Sprintf("cap%d@test", i), From: fmt.Sprintf("forged%d@example.test", i), Text: "LIST"})
	}
	if n := len(h.outbox()); n != strangersPerHour-strangerAnswers {
		t.Fatalf("%d strangers answered, want %d", n, strangersPerHour-strangerAnswers)
	}
	h.sendMail(&Incoming{MsgID: "over@test", From: "late@example.test", Text: "LIST"})
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("past the hourly cap a stranger was answered: %s", ms[0].To)
	}
	h.clock.Add(time.Hour)
	h.sendMail(&Incoming{MsgID: "next@test", From: "late@example.test", Text: "LIST"})
	h.only(h.outbox(), "late@example.test")
}

// TestJoiningIsAlwaysAnswered: the once-a-day rule is for mails that
// prove nothing and change nothing; a stranger who then JOINs is answered
// (and signed up at the From address).
func TestJoiningIsAlwaysAnswered(t *testing.T) {
	h := newHarness(t)
	h.createToy("open", "")
	h.sendMail(&Incoming{MsgID: "j1@test", From: "newbie@example.test", Text: "LIST"})
	h.only(h.outbox(), "newbie@example.test")
	h.sendMail(&Incoming{MsgID: "j2@test", From: "newbie@example.test", ReplyTo: "elsewhere@example.test", Text: "JOIN open"})
	ms := h.outbox()
	mustContain(t, h.only(ms, "newbie@example.test").Text, "You are signed up for open")
	if p := findPlayer(h.game("open"), "newbie@example.test"); p == nil {
		t.Fatal("not signed up at the From address")
	}
	if len(to(ms, "elsewhere@example.test")) != 0 {
		t.Error("the JOIN of an unproven mail was answered at its Reply-To")
	}
}

// TestKnownAddressWithoutTokenIsAnsweredAtFrom: a player who writes from
// their own address without the token is answered every time (within the
// rate limit) — at that address, whatever the Reply-To says; a player who
// proves themselves by token is answered at their Reply-To.
func TestKnownAddressWithoutTokenIsAnsweredAtFrom(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("known", "")
	red := tok["red"]
	h.outbox()
	for i, id := range []string{"k1@test", "k2@test", "k3@test"} {
		h.sendMail(&Incoming{MsgID: id, From: red.addr, ReplyTo: "victim@example.test", Text: "score 3"})
		ms := h.outbox()
		mustContain(t, h.only(ms, red.addr).Text, "do not know you yet")
		if len(to(ms, "victim@example.test")) != 0 {
			t.Fatalf("mail %d: an unproven mail was answered at its Reply-To", i+1)
		}
	}
	h.sendMail(&Incoming{MsgID: "k4@test", From: red.addr, ReplyTo: "red-at-work@example.test", Token: red.token, Text: "score 3"})
	mustContain(t, h.only(h.outbox(), "red-at-work@example.test").Text, "Orders received")
}

// TestAutoMailIsNeverAnswered: a mail the mailer flagged as automatic
// (bounce, auto-reply, list traffic) changes nothing and gets no answer,
// even from a known player's token.
func TestAutoMailIsNeverAnswered(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("auto", "")
	h.outbox()
	h.sendMail(&Incoming{MsgID: "a1@test", From: tok["red"].addr, Token: tok["red"].token, Text: "score 3", Auto: true})
	h.sendMail(&Incoming{MsgID: "a2@test", From: "mailer-daemon@example.test", Text: "LIST", Auto: true})
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("%d answers to automatic mail", len(ms))
	}
	var sets []store.OrderSet
	h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("auto", 0); return err })
	if len(sets) != 0 {
		t.Fatal("automatic mail stored orders")
	}
}
