package daemon

import (
	"strings"
	"testing"
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
