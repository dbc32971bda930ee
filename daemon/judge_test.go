package daemon

import (
	"slices"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// TestJoinReplyEchoesTheRankingItRead: a player who ranks powers sees the
// ranking as it was read, in the game's names (toyseq calls blue Azure),
// so a typo that became another power shows at once.
func TestJoinReplyEchoesTheRankingItRead(t *testing.T) {
	h := newHarness(t)
	h.createToy("g", "seq")
	h.send("alice@example.test", "", "JOIN g prefer blu > red")
	m := h.reply(h.outbox(), "alice@example.test")
	mustContain(t, m.Text, "I read your preference as: Azure > Red.")

	h.send("bob@example.test", "", "JOIN g")
	m = h.reply(h.outbox(), "bob@example.test")
	mustContain(t, m.Text, "You ranked no powers: any power will do.")
}

// TestCreateReplySaysWhereThePlayersWrite: the GM's reply comes from the
// GM's own token address; players must write to the daemon's address.
func TestCreateReplySaysWhereThePlayersWrite(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g toy")
	m := h.only(h.outbox(), harnessGM)
	mustContain(t, m.Text, "Players join by writing to gm@example.test", "JOIN g")
	if strings.Contains(m.Text, m.Token) && strings.Contains(m.Text, "writing to gm+") {
		t.Errorf("CREATE reply sends players to the GM's token address:\n%s", m.Text)
	}
}

// pastDeadline moves the clock past the open phase's deadline and lets
// the daemon process it.
func (h *harness) pastDeadline(game string) {
	h.t.Helper()
	h.clock.Add(h.game(game).Deadline.Sub(h.clock.Now()) + time.Minute)
	h.tick()
}

// TestOrdersAfterTheGameEndedAreToldItIsOver: orders that come after the
// end are answered with one sentence saying so, with the result, not a
// list of lines not understood.
func TestOrdersAfterTheGameEndedAreToldItIsOver(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startToy("g", "target=3")
	h.as(pl["red"], "score 5")
	h.pastDeadline("g")
	h.outbox()
	if g := h.game("g"); g.Status != store.Finished {
		t.Fatalf("game not over: %s", g.Status)
	}
	h.as(pl["red"], "score 1")
	m := h.reply(h.outbox(), pl["red"].addr)
	mustContain(t, m.Text, "The game g is over (solo: Red won); orders are no longer read.")
	if strings.Contains(m.Text, "could not understand") {
		t.Errorf("orders after the end listed as not understood:\n%s", m.Text)
	}
}

// TestPowerThatOwesNothingIsToldSo: in a build phase only the powers the
// engine's Status lists as waiting have something to order (the toy's
// build phase waits for odd scores); another power's mail is told it
// owes nothing, and nothing is stored for it.
func TestPowerThatOwesNothingIsToldSo(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startToy("g", "")
	h.as(pl["red"], "score 1")
	h.as(pl["blue"], "score 2")
	h.pastDeadline("g")
	h.pastDeadline("g")
	h.outbox()
	g := h.game("g")
	if adjudicator.PhaseKind(g.PhaseKind) != adjudicator.PhaseBuild || !slices.Equal(g.Waiting, []string{"red"}) {
		t.Fatalf("want a build phase waiting for red, got %s waiting for %v", g.PhaseKind, g.Waiting)
	}
	h.as(pl["blue"], "score 4")
	m := h.reply(h.outbox(), pl["blue"].addr)
	mustContain(t, m.Text, "Blue owes no orders in Phase 2", "nothing was stored")
	if n := len(h.openOrderSets("g")); n != 0 {
		t.Errorf("%d order sets stored for a power that owes none", n)
	}
	h.as(pl["red"], "score 1")
	mustContain(t, h.reply(h.outbox(), pl["red"].addr).Text, "Orders received for Red")
}

// TestReplyForOneGameNamingAnotherSaysWhichGameItWasReadFor: alice plays
// in g1 and g2 and answers g1's mail with orders she heads "for g2"; the
// reply says the mail was read for g1. A mail naming no other game gets
// no such note.
func TestReplyForOneGameNamingAnotherSaysWhichGameItWasReadFor(t *testing.T) {
	h := newHarness(t)
	_, one := h.startToy("g1", "")
	h.startToy("g2", "")
	h.outbox()
	var alice1 player
	for _, p := range one {
		if p.addr == "alice@example.test" {
			alice1 = p
		}
	}
	h.as(alice1, "Orders for g2:\nscore 3")
	m := h.reply(h.outbox(), alice1.addr)
	mustContain(t, m.Text, "I read this mail for the game g1 (it came as a reply to a mail about g1), though it names g2, where you play too.")

	h.as(alice1, "score 2")
	if m := h.reply(h.outbox(), alice1.addr); strings.Contains(m.Text, "I read this mail for the game") {
		t.Errorf("a mail naming no other game got the note:\n%s", m.Text)
	}
}
