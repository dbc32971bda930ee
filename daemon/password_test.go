package daemon

import (
	"strings"
	"testing"
)

// TestPasswordChosenByThePlayer: a player replies PASSWORD <new>; the
// answer confirms without echoing it, the old password stops working and
// the new one signs on from any mailbox. Too short a password, and a
// PASSWORD from a stranger, change nothing and say why.
func TestPasswordChosenByThePlayer(t *testing.T) {
	h := newHarness(t)
	old, logs := signonGame(t, h, "pw")
	g := h.game("pw")
	var carolTok string
	for _, p := range g.Players {
		if p.Address == "carol@example.test" {
			carolTok = p.Token
		}
	}
	carol := player{addr: "carol@example.test", token: carolTok}

	h.as(carol, "PASSWORD abc")
	short := h.only(h.outbox(), carol.addr).Text
	mustContain(t, short, "your password is not changed", "6 to 64 characters")

	h.as(carol, "PASSWORD correct-horse")
	m := h.only(h.outbox(), carol.addr).Text
	mustContain(t, m, "your password for Blue in pw is changed", "SIGNON blue pw <your password>")
	if strings.Contains(m, "correct-horse") || strings.Contains(logs.String(), "correct-horse") {
		t.Errorf("the new password is echoed in the reply or the log:\n%s", m)
	}

	h.send("carol@elsewhere.test", "", "SIGNON blue pw "+old+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "SIGNON failed")
	h.send("carol@elsewhere.test", "", "SIGNON blue pw correct-horse\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "Signed on as Blue", "Orders received for Blue")

	h.send("mallory@example.test", "", "PASSWORD mallorys-choice")
	h.outbox()
	h.send("carol@elsewhere2.test", "", "SIGNON blue pw correct-horse\nscore 3")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere2.test").Text, "Signed on as Blue")
}
