package daemon_test

import (
	"bytes"
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
)

// mailsTo is the mails of a batch to one address.
func mailsTo(ms []daemontest.Mail, addr string) []daemontest.Mail {
	var out []daemontest.Mail
	for _, m := range ms {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

func subjects(ms []daemontest.Mail) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Subject)
	}
	return strings.Join(s, "; ")
}

// Issue 28 item 2: the GM's PROCESS sends no mail of its own. Each player
// gets one mail, the results, which say the GM processed the phase early;
// the GM gets the answer to PROCESS and the results. With preview on, the
// answer says the results come to the GM first, and the players get
// nothing until PUBLISH.
func TestProcessIsSaidInTheResults(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("pe", "standard", "")
	pl := tb.SignUp("pe", standardPowers)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	ms := tb.Outbox()
	for _, power := range standardPowers {
		got := mailsTo(ms, pl[power].Addr)
		if len(got) != 1 || !strings.Contains(got[0].Subject, "Spring 1901 Movement — results") {
			t.Fatalf("%s got %d mails (%s), want the results only", power, len(got), subjects(got))
		}
		daemontest.Contains(t, got[0].Text, "Processed early by the GM.")
	}
	got := mailsTo(ms, daemontest.GM)
	if len(got) != 2 {
		t.Fatalf("the GM got %d mails (%s), want the answer and the results", len(got), subjects(got))
	}
	daemontest.Contains(t, reply(t, ms, daemontest.GM).Text, "will be processed now (within the minute); the results, which say you processed it early, go to everyone.")

	tb.Send(daemontest.GM, gm, "PREVIEW ON")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "Preview is on: the results come to you first; PUBLISH sends them to the players.")
	tb.Tick()
	ms = tb.Outbox()
	if got := mailsTo(ms, pl["france"].Addr); len(got) != 0 {
		t.Fatalf("with preview on, France got %s before PUBLISH", subjects(got))
	}
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Preview").Text, "Processed early by the GM.")
}

// Issue 28 item 3: the mail that says the game has started carries the
// opening picture, for every reader (players, an observer, the GM), and
// the position. (Each reader gets the picture of their class, as in
// results mails: tx.picture.)
func TestStartedMailCarriesTheOpeningPicture(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("op", "standard", "")
	tb.Send("watcher@example.test", "", "OBSERVE op")
	for _, p := range standardPowers {
		tb.Send(p+"@example.test", "", "JOIN op prefer "+p)
	}
	ms := tb.Outbox()
	want := daemontest.Drawn(t, "standard", tb.State("op"), nil, "")
	for _, p := range append(standardPowers, "watcher", "gm-boss") {
		m := daemontest.One(t, ms, p+"@example.test", "The game has started")
		if got := daemontest.OnePicture(t, m, "op-S1901M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's opening picture is not the start position", p)
		}
		daemontest.Contains(t, m.Text, "First phase: Spring 1901 Movement", "A Par", "F Lon")
	}

}

// Issue 28 item 6: the power mail of a player put in by REPLACE says what
// is true of the orders sent for the power: after an EJECT they no longer
// count (STATUS shows none, and the ejected player was told so); after a
// plain REPLACE they stand until the newcomer sends their own.
func TestNewPlayerIsToldWhatOrdersStand(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ej", "standard", "")
	pl := tb.SignUp("ej", standardPowers)
	tb.As(pl["turkey"], "F Ank - Bla")
	tb.As(pl["italy"], "A Ven - Tyr")
	tb.Outbox()

	tb.Send(daemontest.GM, gm, "EJECT Turkey")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["turkey"].Addr, "You no longer play").Text, "Orders you sent for Spring 1901 Movement no longer count.")
	tb.Send(daemontest.GM, gm, "REPLACE turkey WITH sultan@example.test")
	power := daemontest.One(t, tb.Outbox(), "sultan@example.test", "You are Turkey")
	daemontest.Contains(t, power.Text, "Turkey owes orders this phase and has none: send yours by the deadline, or its units follow the civil disorder rule.")
	daemontest.Lacks(t, power.Text, "stand until you send your own")
	tb.As(daemontest.Player{Addr: "sultan@example.test", Token: power.Token}, "STATUS")
	daemontest.Contains(t, reply(t, tb.Outbox(), "sultan@example.test").Text, "Your orders now stand as:\n  (none)")

	tb.Send(daemontest.GM, gm, "REPLACE italy WITH doge@example.test")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "doge@example.test", "You are Italy").Text,
		"Italy owes orders this phase. Orders its last player sent for it stand until you send your own (STATUS shows them).")
}

// Issue 28 item 7: the results tell a standoff (equal strength: neither
// moves in) from a move beaten by a stronger one, with the strengths, in
// the mail of each power concerned.
func TestResultsTellAStandoffFromADefeat(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("so", "standard", "")
	pl := tb.SignUp("so", standardPowers)
	tb.As(pl["france"], "A Par - Bur\nA Mar S A Par - Bur")
	tb.As(pl["germany"], "A Mun - Bur")
	tb.As(pl["austria"], "A Vie - Gal")
	tb.As(pl["russia"], "A War - Gal")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["germany"].Addr, "results").Text, "A Mun - Bur", "failed: beaten by A Par (1 against 2)")
	daemontest.Contains(t, daemontest.One(t, ms, pl["france"].Addr, "results").Text, "A Par - Bur")
	for _, p := range []string{"austria", "russia"} {
		text := daemontest.One(t, ms, pl[p].Addr, "results").Text
		daemontest.Contains(t, text, "failed: standoff with A War (1 against 1)", "failed: standoff with A Vie (1 against 1)")
		daemontest.Lacks(t, text, "bounced with")
	}
}

// Issue 28 item 9: a misorder names what the unit can do, for a player
// with no map at hand: the moves an army can make by land, a fleet from
// its coast.
func TestMisorderNamesTheMovesTheUnitHas(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("mo", "standard", "")
	pl := tb.SignUp("mo", standardPowers)
	tb.As(pl["england"], "A Lvp - Nwy\nF Lon - Bel")
	ack := reply(t, tb.Outbox(), pl["england"].Addr).Text
	daemontest.Contains(t, ack,
		"A Lvp cannot reach Nwy (from Liverpool an army can move to Cly, Edi, Wal, Yor)",
		"a fleet in Lon cannot reach Bel (from London a fleet can move to Eng, Nth, Wal, Yor)")
}

// Issue 28 item 11: the verification footer is one line on every mail,
// the VERIFY command to copy as it is.
func TestVerificationFooterIsOneLine(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ft", "standard", "")
	for _, p := range standardPowers {
		tb.Send(p+"@example.test", "", "JOIN ft prefer "+p)
	}
	ms := tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	ms = append(ms, tb.Outbox()...)
	if len(ms) < 20 {
		t.Fatalf("only %d mails", len(ms))
	}
	for _, m := range ms {
		i := strings.LastIndex(m.Text, "\n-- \n")
		if i < 0 {
			t.Fatalf("mail to %s %q has no signature", m.To, m.Subject)
		}
		footer := strings.TrimSuffix(m.Text[i+len("\n-- \n"):], "\n")
		if strings.Contains(footer, "\n") || !strings.HasPrefix(footer, "Is this mail mine? Send VERIFY ") || !strings.HasSuffix(footer, " to gm@example.test") {
			t.Errorf("mail to %s %q: footer\n%s\nwant one line, Is this mail mine? Send VERIFY <code> to gm@example.test", m.To, m.Subject, footer)
		}
	}
}

// Issue 28 item 10: each player's results mail opens with their power's
// story, as the engine tells it (adjudicator.Briefer): its orders that
// succeeded and those that failed, with why; the centres gained or lost;
// then what they owe next and by when. The full results follow. The GM's
// and an observer's copies open with the results.
func TestResultsOpenWithTheReadersPower(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("br", "standard", "")
	tb.Send("watcher@example.test", "", "OBSERVE br")
	pl := tb.SignUp("br", standardPowers)
	tb.As(pl["france"], "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao")
	tb.As(pl["germany"], "A Mun - Bur")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	ms := tb.Outbox()
	opening := func(addr string) string {
		t.Helper()
		text := daemontest.One(t, ms, addr, "results").Text
		head, _, _ := strings.Cut(text, "\n\n")
		return head
	}
	due := "due by Fri 11 Dec 2026 21:00 UTC."
	if got, want := opening(pl["germany"].Addr), "Germany: 0 of 1 order succeeded; A Mun - Bur failed (beaten by A Par (1 against 2)).\nNext: your orders for Fall 1901 Movement, "+due; got != want {
		t.Errorf("Germany's mail opens\n%s\nwant\n%s", got, want)
	}
	if got, want := opening(pl["france"].Addr), "France: 3 of 3 orders succeeded.\nNext: your orders for Fall 1901 Movement, "+due; got != want {
		t.Errorf("France's mail opens\n%s\nwant\n%s", got, want)
	}
	if got, want := opening(pl["italy"].Addr), "Next: your orders for Fall 1901 Movement, "+due; got != want {
		t.Errorf("Italy's mail (no orders) opens\n%s\nwant\n%s", got, want)
	}
	for _, addr := range []string{daemontest.GM, "watcher@example.test"} {
		if got := opening(addr); !strings.HasPrefix(got, "Processed early by the GM.") {
			t.Errorf("%s's copy opens\n%s\nwant the results", addr, got)
		}
	}
	daemontest.Contains(t, daemontest.One(t, ms, pl["germany"].Addr, "results").Text, "Spring 1901 Movement — results", "Germany:\n  A Mun - Bur")

	tb.As(pl["france"], "A Bur - Bel\nF Mao - Por")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	ms = tb.Outbox()
	daemontest.Contains(t, opening(pl["france"].Addr), "France: 2 of 2 orders succeeded.\nSupply centres: 5 (gained Bel, Por).\nNext: your orders for Winter 1901 Adjustments, due by")
	daemontest.Contains(t, opening(pl["italy"].Addr), "Next: Winter 1901 Adjustments, in which Italy owes no orders (it ends by")
}
