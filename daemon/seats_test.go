package daemon_test

import (
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
)

// reply is the one reply the daemon sent to addr.
func reply(t *testing.T, ms []daemontest.Mail, addr string) daemontest.Mail {
	t.Helper()
	return daemontest.One(t, ms, addr, "Re:")
}

// startStandard creates a standard game with one player per power and
// processes its first phase (nobody orders), so the game has a history.
func startStandardPlayed(tb *daemontest.Table, name, options string) (string, map[string]daemontest.Player) {
	tb.T.Helper()
	gm := tb.Create(name, "standard", options)
	pl := tb.SignUp(name, standardPowers)
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	return gm, pl
}

// Issue 16 item 2: a power whose player resigned is an open seat: LIST
// advertises it, JOIN <game> as <power> asks the GM (the default,
// seats=approve), the GM's ACCEPT gives the newcomer the power with the
// position, the open phase and deadline, the last results and how to read
// the rest; everyone else is told that the power has a new player.
func TestOpenSeatTakenOverWithTheGMsApproval(t *testing.T) {
	tb := daemontest.New(t)
	gm, pl := startStandardPlayed(tb, "seat1", "")
	tb.As(pl["england"], "RESIGN")
	tb.Outbox()

	tb.Send("new@example.test", "", "LIST")
	daemontest.Contains(t, reply(t, tb.Outbox(), "new@example.test").Text, "Fall 1901 Movement", "open seat: England (JOIN seat1 as <power>)")

	tb.Send("new@example.test", "", "JOIN seat1 as England")
	ms := tb.Outbox()
	daemontest.Contains(t, reply(t, ms, "new@example.test").Text, "I have asked the GM of seat1 to let you take over England")
	ask := daemontest.One(t, ms, daemontest.GM, "new@example.test asks to take over England")
	daemontest.Contains(t, ask.Text, "Their record on this game master: nothing counted yet", "REPLACE England WITH new@example.test", "ACCEPT new@example.test")
	if len(ms) != 2 {
		t.Errorf("the request is between the candidate and the GM; %d mails went out", len(ms))
	}

	tb.Send(daemontest.GM, gm, "ACCEPT new@example.test")
	ms = tb.Outbox()
	welcome := daemontest.One(t, ms, "new@example.test", "You are England")
	daemontest.Contains(t, welcome.Text,
		"You take over England in seat1 (an open seat, approved by the GM)",
		"Your password:",
		"The game is in Fall 1901 Movement; orders are due by Fri 11 Dec 2026",
		"England owes orders this phase",
		"The position now:\nFall 1901 Movement\n",
		"England: 3 centres (Edi Lon Lvp)",
		"The last results (Spring 1901 Movement):",
		"The game so far: 1 phase processed. Reply HISTORY for the list")
	told := daemontest.One(t, ms, "france@example.test", "New player for England")
	daemontest.Contains(t, told.Text, "England has a new player, who took over the open seat (approved by the GM)")
	daemontest.Lacks(t, told.Text, "new@example.test")
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "new@example.test now plays England in seat1")

	// The new player plays: their orders are stored for England.
	eng := daemontest.Player{Addr: "new@example.test", Token: welcome.Token}
	tb.As(eng, "F Lon - Nth")
	daemontest.Contains(t, reply(t, tb.Outbox(), eng.Addr).Text, "Orders received for England, Fall 1901 Movement", "F Lon - Nth")

	tb.Send("other@example.test", "", "LIST")
	daemontest.Lacks(t, reply(t, tb.Outbox(), "other@example.test").Text, "open seat")
	tb.Send("other@example.test", "", "JOIN seat1 as England")
	daemontest.Contains(t, reply(t, tb.Outbox(), "other@example.test").Text, "JOIN seat1 as England: that is not an open seat (a surviving power nobody plays; none is open now)")
}

// The GM may refuse a request for an open seat (REFUSE, in a game with
// juniors); the candidate is told and the seat stays open.
func TestOpenSeatRefused(t *testing.T) {
	tb := daemontest.New(t)
	gm, pl := startStandardPlayed(tb, "seat2", "")
	tb.As(pl["italy"], "RESIGN")
	tb.Send("new@example.test", "", "JOIN seat2 as Italy")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "REFUSE new@example.test not this time")
	ms := tb.Outbox()
	daemontest.Contains(t, reply(t, ms, daemontest.GM).Text, "You have refused new@example.test the open seat of Italy")
	daemontest.Contains(t, daemontest.One(t, ms, "new@example.test", "Your request").Text, "The GM has declined your request to take over Italy in seat2.", "Their note: not this time")
	tb.Send("new@example.test", "", "JOIN seat2 as Italy")
	daemontest.Contains(t, reply(t, tb.Outbox(), "new@example.test").Text, "the GM declined your request to take it over")
	tb.Send("other@example.test", "", "LIST seat2")
	daemontest.Contains(t, reply(t, tb.Outbox(), "other@example.test").Text, "open seat: Italy")
	// A junior's request for a power with no senior goes to the GM, with
	// the candidate's record too.
	tb.Send("jr@example.test", "", "JOIN seat2 as junior of Italy")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "jr@example.test asks to join Italy").Text,
		"Italy has no senior diplomat now, so you decide.\nTheir record on this game master: nothing counted yet.")
}

// seats=open: the first to ask takes an open seat at once; seats=closed:
// only the GM fills it, and the REPLACE mail carries the position too.
// Issue 28 item 8: the welcome says "first to ask" once; the stranger
// refused is told to write to the GM, at their address; the GM's
// suggested line names the power as LIST does; LIST puts the weekly
// calendar beside the deadline, not after the seats' parentheses.
func TestOpenSeatOpenAndClosed(t *testing.T) {
	tb := daemontest.New(t)
	gm, _ := startStandardPlayed(tb, "open1", "seats=open")
	tb.Send(daemontest.GM, gm, "EJECT Turkey")
	tb.Outbox()
	tb.Send("new@example.test", "", "JOIN open1 as Turkey")
	ms := tb.Outbox()
	daemontest.Contains(t, reply(t, ms, "new@example.test").Text, "You take over Turkey in open1")
	daemontest.Contains(t, daemontest.One(t, ms, "new@example.test", "You are Turkey").Text, "You take over Turkey in open1 (an open seat, first to ask).", "Turkey: 3 centres (Ank Con Smy)")
	daemontest.Contains(t, daemontest.One(t, ms, "russia@example.test", "New player for Turkey").Text, "Turkey has a new player, who took over the open seat (first to ask).")
	if len(to(ms, daemontest.GM)) != 1 {
		t.Errorf("the GM gets a copy of the announcement only; got %d mails", len(to(ms, daemontest.GM)))
	}

	gm, _ = startStandardPlayed(tb, "closed1", "seats=closed")
	tb.Send(daemontest.GM, gm, "EJECT Turkey")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "its units are in civil disorder until REPLACE Turkey WITH <address>.")
	tb.Send("new@example.test", "", "LIST closed1")
	daemontest.Contains(t, reply(t, tb.Outbox(), "new@example.test").Text, "open seat: Turkey (the GM fills them)")
	tb.Send("new@example.test", "", "LIST")
	daemontest.Contains(t, reply(t, tb.Outbox(), "new@example.test").Text, "UTC (weekly calendar); open seat: Turkey (the GM fills them)\n")
	tb.Send("new@example.test", "", "JOIN closed1 as Turkey")
	ms = tb.Outbox()
	daemontest.Contains(t, reply(t, ms, "new@example.test").Text, "JOIN closed1 as Turkey: in closed1 only the GM fills open seats, so this mail has not made you a player. To ask for the seat, write to the GM of closed1 (gm-boss@example.test); to follow the game meanwhile, send OBSERVE closed1.")
	if len(ms) != 1 {
		t.Errorf("a refused JOIN sends nothing but the reply; got %d mails", len(ms))
	}
	tb.Send(daemontest.GM, gm, "REPLACE Turkey WITH new@example.test")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "new@example.test", "You are Turkey").Text,
		"The position now:", "The last results (Spring 1901 Movement):", "Reply HISTORY for the list")
}

func to(ms []daemontest.Mail, addr string) []daemontest.Mail {
	var out []daemontest.Mail
	for _, m := range ms {
		if m.To == addr || strings.Contains(m.To, addr) {
			out = append(out, m)
		}
	}
	return out
}
