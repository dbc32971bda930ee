package daemon

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"pbemd/orders"
	"pbemd/store"
)

// The tests of this file are the "fair play" items of the trust issue:
// who may order for a power, and whether the GM's hand shows.

var standardPowers = []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}

// startStandard creates a standard game and fills it with one player per
// power (<power>@example.test, each getting the power they ask for); it
// returns the GM token and the players by power.
func (h *harness) startStandard(name string) (string, map[string]player) {
	h.t.Helper()
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE "+name+" standard")
	created := h.only(h.outbox(), harnessGM)
	mustContain(h.t, created.Text, "created")
	for _, p := range standardPowers {
		h.send(p+"@example.test", "", "JOIN "+name+" prefer "+p)
	}
	pl := map[string]player{}
	ms := h.outbox()
	for _, p := range standardPowers {
		m := h.subject(ms, p+"@example.test", "You are")
		pl[p] = player{m.To, m.Token}
	}
	return created.Token, pl
}

// addJunior has addr ask to join power as a junior and the power's senior
// accept; it returns the new junior with its reply token.
func (h *harness) addJunior(game, power string, senior player, addr string) player {
	h.t.Helper()
	h.send(addr, "", "JOIN "+game+" as junior of "+power)
	h.outbox()
	h.as(senior, "ACCEPT "+addr)
	for _, m := range to(h.outbox(), addr) {
		if strings.Contains(m.Subject, "You are") {
			return player{addr, m.Token}
		}
	}
	h.t.Fatalf("%s got no power mail after the senior's ACCEPT", addr)
	return player{}
}

// phaseRecord reads the history record of one processed phase.
func (h *harness) phaseRecord(game string, phase int) *store.PhaseRecord {
	h.t.Helper()
	var rec *store.PhaseRecord
	if err := h.db.View(func(tx *store.Tx) (err error) { rec, err = tx.Phase(game, phase); return err }); err != nil {
		h.t.Fatal(err)
	}
	return rec
}

// resultsBody is a results mail as a reader compares two of them: without
// the verification footer (a new code each time) and the next deadline.
func resultsBody(text string) string {
	text, _, _ = strings.Cut(text, "\n-- \n")
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.Contains(l, "orders due by") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// ROLLBACK brings back the phase whole: processing it again, with nothing
// sent in between, gives the same position, the same public and private
// reports and the same results mails, byte for byte. The senior's
// LOCK JUNIORS of the phase (which decides whose order for F Lon stands)
// is part of what comes back.
func TestRollbackThenReprocessGivesIdenticalResults(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startStandard("rb")
	h.send(harnessGM, gm, "SET calendar=rolling") // a pace vote on day one: the free vote of the rolling schedule
	eng := pl["england"]
	junior := h.addJunior("rb", "england", eng, "deputy@example.test")
	h.send("watcher@example.test", "", "OBSERVE rb")
	h.as(eng, "F Lon - Eng\nLOCK JUNIORS")
	h.as(junior, "F Lon - Nth\nA Lvp - Yor")
	h.as(pl["france"], "A Par - Bur\nF Bre - Mao")
	h.as(pl["germany"], "A Mun - Bur")
	h.as(pl["russia"], "DRAW YES\nPACE FAST")
	h.as(pl["italy"], "READY")
	h.outbox()

	process := func() (*store.PhaseRecord, map[string]string) {
		t.Helper()
		h.send(harnessGM, gm, "PROCESS")
		h.outbox()
		h.tick()
		mails := map[string]string{}
		for _, m := range h.outbox() {
			if strings.Contains(m.Subject, "results") {
				mails[m.To] = resultsBody(m.Text)
			}
		}
		return h.phaseRecord("rb", 0), mails
	}
	first, firstMails := process()
	mustContain(t, first.Public, "F Lon - Eng", "A Lvp - Yor")
	h.clock.Add(3 * time.Hour)
	h.send(harnessGM, gm, "ROLLBACK")
	mustContain(t, h.subject(h.outbox(), eng.addr, "reopened").Text, "the position and your orders are as they were")
	g := h.game("rb")
	if lock := g.Locks["england"]; lock.By != eng.addr || lock.Always {
		t.Errorf("after ROLLBACK England's lock for the phase is %+v, want the senior's, for this phase", lock)
	}
	if !g.DrawVotes["russia"] || g.PaceVotes["russia"] != "fast" || !g.Ready["italy"] {
		t.Errorf("after ROLLBACK votes and ready flags are not as they were: draw %v pace %v ready %v", g.DrawVotes, g.PaceVotes, g.Ready)
	}
	second, secondMails := process()

	if string(first.StateAfter) != string(second.StateAfter) {
		t.Errorf("the position after reprocessing differs:\nfirst  %s\nsecond %s", first.StateAfter, second.StateAfter)
	}
	if first.Public != second.Public {
		t.Errorf("the public report differs:\n--- first\n%s\n--- second\n%s", first.Public, second.Public)
	}
	if !reflect.DeepEqual(first.Private, second.Private) {
		t.Errorf("the private reports differ:\n%v\n%v", first.Private, second.Private)
	}
	if first.Seed != second.Seed || !reflect.DeepEqual(first.Orders, second.Orders) {
		t.Errorf("seed or orders differ: %d %v / %d %v", first.Seed, first.Orders, second.Seed, second.Orders)
	}
	if len(firstMails) < 8 || !reflect.DeepEqual(firstMails, secondMails) {
		for addr, m := range firstMails {
			if secondMails[addr] != m {
				t.Errorf("results mail to %s differs:\n--- first\n%s\n--- second\n%s", addr, m, secondMails[addr])
			}
		}
		if len(firstMails) < 8 || len(firstMails) != len(secondMails) {
			t.Errorf("results mails: %d the first time, %d the second", len(firstMails), len(secondMails))
		}
	}
}

// Every duration and date the GM writes is bounded (a minute to 90 days;
// deadlines within a year): EXTEND 9999999h once overflowed to a deadline
// in 1734, and the game was never processed. A refused command changes
// nothing and tells the players nothing; the game still runs to its
// deadline.
func TestGMDatesAndDurationsAreBounded(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("bounds", "")
	deadline := h.game("bounds").Deadline
	for _, c := range []struct{ cmd, want string }{
		{"EXTEND 9999999h", "EXTEND refused: 9999999h is too long: a duration runs from a minute to 90 days"},
		{"EXTEND 2562048h", "EXTEND refused: 2562048h is too long"},
		{"EXTEND 91 days", "EXTEND refused: 91 days is too long"},
		{"EXTEND 100000000000 weeks", "too long"},
		{"EXTEND 10000000000000 weeks", "is not a duration I can read"},
		{"EXTEND 10s", "EXTEND refused: 10s is too short"},
		{"EXTEND -5h", "EXTEND refused: -5h is too short"},
		{"DEADLINE +9999999h", "DEADLINE refused: 9999999h is too long"},
		{"DEADLINE 9999-12-31 21:00", "DEADLINE refused: 9999-12-31 21:00 UTC is more than a year ahead"},
		{"DEADLINE 2028-01-01", "more than a year ahead"},
	} {
		h.send(harnessGM, gm, c.cmd)
		ms := h.outbox()
		mustContain(t, h.only(ms, harnessGM).Text, c.want, "Nothing was changed")
		if n := len(to(ms, tok["red"].addr)); n != 0 {
			t.Errorf("%s: the players got %d mails", c.cmd, n)
		}
		if g := h.game("bounds"); !g.Deadline.Equal(deadline) {
			t.Fatalf("%s moved the deadline to %v", c.cmd, g.Deadline)
		}
	}
	// Within the bounds, the GM may go up to a year ahead, and no further.
	for i := 0; i < 4; i++ {
		h.send(harnessGM, gm, "EXTEND 90 days")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "The deadline of Phase 0 is now")
	}
	h.send(harnessGM, gm, "EXTEND 90 days")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "EXTEND refused: the deadline would be", "more than a year ahead")
	h.send(harnessGM, gm, "DEADLINE +36h")
	h.outbox()
	h.clock.Add(36 * time.Hour)
	h.tick()
	mustContain(t, h.subject(h.outbox(), tok["red"].addr, "results").Text, "Results of phase 0")

	// The site GM's CREATE bounds turn_time the same way.
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE seqlong toyseq turn_time=9999999h")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "Nothing was created", "turn_time is a duration from a minute to 90 days")
}

// orderSets reads the order versions stored for a phase.
func (h *harness) orderSets(game string, phase int) []store.OrderSet {
	h.t.Helper()
	var sets []store.OrderSet
	if err := h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets(game, phase); return err }); err != nil {
		h.t.Fatal(err)
	}
	return sets
}

// Nobody takes over a power by asking: JOIN … as junior of a running
// game's power is a request to its senior diplomat, who accepts or
// refuses; until then the candidate has no reply address and no orders.
// Everyone on the power hears who joined and who left, acknowledgements
// and STATUS say whose orders stand, and the senior can let a junior go.
func TestJoiningAPowerNeedsItsSenior(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startStandard("jr")
	eng := pl["england"]

	// Mallory asks; England's senior is asked, nobody else hears of it.
	h.send("mallory@example.test", "", "JOIN jr as junior of England")
	ms := h.outbox()
	ack := h.only(ms, "mallory@example.test")
	mustContain(t, ack.Text, "I have asked the senior diplomat of England to accept you", "no reply address and no say")
	if ack.Token != "" {
		t.Errorf("the candidate got a reply address before being accepted: %s", ack.Token)
	}
	ask := h.only(ms, eng.addr)
	mustContain(t, ask.Subject, "mallory@example.test asks to join England")
	mustContain(t, ask.Text, "As its senior diplomat, you decide", "Their record on this game master: nothing counted yet.", "ACCEPT mallory@example.test", "REFUSE mallory@example.test", "LOCK JUNIORS")
	if len(ms) != 2 {
		t.Errorf("a request mailed %d people, want the candidate and the senior", len(ms))
	}
	// A candidate's orders go nowhere.
	h.send("mallory@example.test", "", "F Lon - Nth")
	h.outbox()
	if sets := h.orderSets("jr", 0); len(sets) != 0 {
		t.Fatalf("a candidate's orders were stored: %+v", sets)
	}
	// Neither a junior-to-be, the GM nor another power's senior can accept.
	h.as(pl["france"], "ACCEPT mallory@example.test")
	mustContain(t, h.only(h.outbox(), pl["france"].addr).Text, "only the senior diplomat of England can answer that request")
	h.send(harnessGM, gm, "ACCEPT mallory@example.test")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "England has a senior diplomat, who decides")

	// The senior refuses, with a note; Mallory is told without the
	// senior's address and cannot ask again.
	h.as(eng, "REFUSE mallory@example.test we play alone")
	ms = h.outbox()
	mustContain(t, h.only(ms, eng.addr).Text, "You have refused mallory@example.test")
	no := h.only(ms, "mallory@example.test")
	mustContain(t, no.Text, "The senior diplomat of England has declined your request", "Their note: we play alone")
	if strings.Contains(no.Text, eng.addr) {
		t.Errorf("the refusal shows the senior's address:\n%s", no.Text)
	}
	h.send("mallory@example.test", "", "JOIN jr as junior of England")
	ms = h.outbox()
	mustContain(t, h.only(ms, "mallory@example.test").Text, "your request to join England was declined")
	if len(to(ms, eng.addr)) != 0 {
		t.Error("a refused candidate could ask the senior again")
	}

	// Deputy asks; the senior answers by replying ACCEPT to the request.
	h.send("deputy@example.test", "", "JOIN jr as junior of England")
	ask = h.subject(h.outbox(), eng.addr, "asks to join")
	h.sendMail(&Incoming{MsgID: "accept@test", From: eng.addr, Token: eng.token, Subject: "Re: " + ask.Subject, Text: "ACCEPT", InReplyTo: ask.Parsed.MessageID})
	ms = h.outbox()
	mustContain(t, h.reply(ms, eng.addr).Text, "deputy@example.test is now a junior diplomat of England (seniority 1)")
	welcome := h.subject(ms, "deputy@example.test", "You are England")
	mustContain(t, welcome.Text, "Your request to join England was accepted by its senior diplomat.", "a junior diplomat (seniority 1)", "Your password:")
	mustContain(t, h.subject(ms, harnessGM, "deputy@example.test joined England").Text, "accepted by its senior diplomat")
	if n := len(to(ms, pl["france"].addr)); n != 0 {
		t.Errorf("France heard of England's new junior (%d mails)", n)
	}
	deputy := player{"deputy@example.test", welcome.Token}

	// Whose orders stand, line by line, for each reader.
	h.as(eng, "F Lon - Nth\nF Edi - Nwg")
	h.clock.Add(time.Minute)
	h.as(deputy, "F Lon - Eng\nA Lvp - Yor")
	ack = h.only(h.outbox(), deputy.addr)
	mustContain(t, ack.Text, "The orders of England now stand as (who sent each):",
		"F Lon - Eng  you, Sun 6 Dec 21:01 UTC",
		"F Edi - Nwg  england@example.test (senior), Sun 6 Dec 21:00 UTC",
		"A Lvp - Yor  you, Sun 6 Dec 21:01 UTC")
	h.as(eng, "STATUS")
	status := h.only(h.outbox(), eng.addr).Text
	mustContain(t, status, "F Lon - Eng  deputy@example.test (junior), Sun 6 Dec 21:01 UTC", "F Edi - Nwg  you, Sun 6 Dec 21:00 UTC")

	// LOCK JUNIORS: the senior's orders win, and every acknowledgement says so.
	h.as(eng, "LOCK JUNIORS")
	h.outbox()
	h.as(deputy, "F Lon - Eng")
	ack = h.only(h.outbox(), deputy.addr)
	mustContain(t, ack.Text, "F Lon - Nth  england@example.test (senior)", "LOCK JUNIORS is on for Spring 1901 Movement: the senior's orders (and the GM's) win over the juniors'.")

	// The senior releases the junior: the junior is told once, the rest of
	// the power and the GM hear of it, the junior's orders stop counting,
	// and a later mail from the junior gets one sentence.
	h.as(eng, "LOCK JUNIORS OFF")
	h.as(deputy, "A Lvp - Wal")
	h.outbox()
	h.as(eng, "RELEASE deputy@example.test")
	ms = h.outbox()
	mustContain(t, h.only(ms, eng.addr).Text, "deputy@example.test is no longer a diplomat of England")
	gone := h.only(ms, deputy.addr)
	mustContain(t, gone.Subject, "You no longer play England")
	mustContain(t, gone.Text, "The senior diplomat of England has released you", "Orders you sent for Spring 1901 Movement no longer count", "reply address and password for jr no longer work")
	mustContain(t, h.subject(ms, harnessGM, "deputy@example.test left England").Text, "released by the senior diplomat")
	h.as(eng, "STATUS")
	status = h.only(h.outbox(), eng.addr).Text
	mustContain(t, status, "Your orders now stand as:\n  F Lon - Nth\n  F Edi - Nwg\n")
	if strings.Contains(status, "A Lvp - ") {
		t.Errorf("a released junior's orders still stand:\n%s", status)
	}
	h.as(deputy, "A Lvp - Yor")
	later := h.only(h.outbox(), deputy.addr)
	body, _, _ := strings.Cut(later.Text, "\n-- \n")
	if want := "The senior diplomat released you from jr on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."; strings.TrimSpace(body) != want {
		t.Errorf("a released junior's later mail got:\n%s\nwant the one sentence:\n%s", body, want)
	}
	if sets := h.orderSets("jr", 0); sets[len(sets)-1].Address == deputy.addr && sets[len(sets)-1].Lines[0] == "A Lvp - Yor" {
		t.Error("a released junior's mail was stored")
	}
}

// A power whose senior has gone has its requests decided by the GM; its
// juniors cannot let anyone in, and hear who joins and who leads.
func TestPowerWithoutSeniorAsksTheGM(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("nos", "")
	red := tok["red"]
	carol := h.addJunior("nos", "red", red, "carol@example.test")
	h.as(red, "RESIGN")
	ms := h.outbox()
	mustContain(t, h.subject(ms, carol.addr, red.addr+" left Red").Text, red.addr+" has left Red (resigned)", "Red has no senior diplomat now: the GM chooses one (PROMOTE), and decides requests to join")
	mustContain(t, h.subject(ms, harnessGM, "resigned").Text, "Juniors of Red: carol@example.test")

	h.send("dave@example.test", "", "JOIN nos as junior of red")
	ms = h.outbox()
	mustContain(t, h.only(ms, "dave@example.test").Text, "I have asked the GM (Red has no senior diplomat now)")
	ask := h.only(ms, harnessGM)
	mustContain(t, ask.Text, "Red has no senior diplomat now, so you decide", "ACCEPT dave@example.test")
	if ask.Token != gm {
		t.Errorf("the GM's request mail does not carry the GM token")
	}
	h.as(carol, "ACCEPT dave@example.test")
	mustContain(t, h.only(h.outbox(), carol.addr).Text, "only the senior diplomat of Red can answer that request")
	h.send(harnessGM, gm, "ACCEPT dave@example.test")
	ms = h.outbox()
	mustContain(t, h.reply(ms, harnessGM).Text, "dave@example.test is now a junior diplomat of Red")
	mustContain(t, h.subject(ms, "dave@example.test", "You are Red").Text, "accepted by the GM")
	mustContain(t, h.only(ms, carol.addr).Text, "dave@example.test has joined Red as a junior diplomat (seniority 2), accepted by the GM")

	h.send(harnessGM, gm, "PROMOTE carol@example.test")
	ms = h.outbox()
	for _, addr := range []string{carol.addr, "dave@example.test"} {
		mustContain(t, h.only(ms, addr).Text, "The GM has made carol@example.test the senior diplomat of Red")
	}
	mustContain(t, h.only(ms, tok["blue"].addr).Text, "The GM has made a new senior diplomat for Red.")
}

// bodyOf is a mail's text without the verification footer.
func bodyOf(m sent) string {
	body, _, _ := strings.Cut(m.Text, "\n-- \n")
	return strings.TrimSpace(body)
}

// Replaced, released and ejected players are told once, at the moment it
// happens, and every later mail to their old reply address gets one
// sentence (it used to get three contradicting paragraphs).
func TestRemovedPlayersAreToldOnce(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startStandard("gone")
	fraJunior := h.addJunior("gone", "france", pl["france"], "aide@example.test")
	h.as(fraJunior, "A Par - Bur")
	h.outbox()

	cases := []struct {
		who      player
		cmd      string
		told     []string
		sentence string
	}{
		{pl["england"], "REPLACE england WITH newcomer@example.test",
			[]string{"The GM has replaced you as the senior diplomat of England in gone: another player takes over.", "Orders you sent for Spring 1901 Movement stand until they send their own."},
			"The GM replaced you in gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{fraJunior, "EJECT aide@example.test",
			[]string{"The GM has removed you from gone: you are no longer a diplomat of France.", "Orders you sent for Spring 1901 Movement no longer count."},
			"The GM removed you from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{pl["turkey"], "EJECT turkey",
			[]string{"The GM has removed the diplomats of Turkey from gone; you no longer play it."},
			"The GM removed you from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{pl["italy"], "",
			[]string{"You have left gone. Thank you for playing."},
			"You resigned from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
	}
	for _, c := range cases {
		if c.cmd == "" {
			h.as(c.who, "RESIGN")
		} else {
			h.send(harnessGM, gm, c.cmd)
		}
		ms := h.outbox()
		got := to(ms, c.who.addr)
		if len(got) != 1 {
			t.Fatalf("%q: %s got %d mails, want one", c.cmd, c.who.addr, len(got))
		}
		mustContain(t, got[0].Text, c.told...)
		if c.who == fraJunior {
			mustContain(t, h.subject(ms, pl["france"].addr, "aide@example.test left France").Text,
				"aide@example.test has left France (removed by the GM).", "Orders they sent for Spring 1901 Movement no longer count.")
		}
		if c.cmd != "" {
			mustContain(t, got[0].Text, "Your reply address and password for gone no longer work", "send OBSERVE gone")
		}
		for i := 0; i < 2; i++ {
			h.as(c.who, "F Lon - Nth\nSTATUS\nPRESS TO Germany\nhello\nENDPRESS")
			ms = h.outbox()
			if len(ms) != 1 || bodyOf(ms[0]) != c.sentence {
				t.Errorf("%q: a later mail of %s got %d mails:\n%v\nwant the one sentence %q", c.cmd, c.who.addr, len(ms), ms, c.sentence)
			}
		}
	}
	// The junior's orders no longer stand for France.
	h.as(pl["france"], "STATUS")
	status := h.only(h.outbox(), pl["france"].addr).Text
	mustContain(t, status, "Your orders now stand as:\n  (none)")
}

// The edges of joining a power: before the start there are no seniors to
// ask; a plain JOIN of a running game asks the senior of the power with
// the fewest diplomats; a power takes at most three waiting requests; the
// power hears who joined and who left even when the GM is SILENT; a
// senior's lock lapses when the power gets another senior.
func TestJoinRequestEdges(t *testing.T) {
	h := newHarness(t)
	h.createToy("early", "")
	h.send("eve@example.test", "", "JOIN early as junior of red")
	mustContain(t, h.only(h.outbox(), "eve@example.test").Text, "early has not started, so no power has a senior diplomat yet", "JOIN early prefer red")
	if g := h.game("early"); len(g.Players) != 0 {
		t.Fatalf("a junior request signed someone up for a forming game: %+v", g.Players)
	}

	gm, tok := h.startToy("edges", "")
	h.addJunior("edges", "red", tok["red"], "r1@example.test")
	h.send("plain@example.test", "", "JOIN edges")
	ms := h.outbox()
	mustContain(t, h.only(ms, tok["blue"].addr).Subject, "plain@example.test asks to join Blue")
	mustContain(t, h.only(ms, "plain@example.test").Text, "I have asked the senior diplomat of Blue")

	for i, want := range []string{"I have asked", "I have asked", "3 requests to join Blue are waiting for an answer already"} {
		addr := fmt.Sprintf("q%d@example.test", i)
		h.send(addr, "", "JOIN edges as junior of blue")
		mustContain(t, h.only(h.outbox(), addr).Text, want)
	}

	// SILENT hides the GM's changes from the game, not from the power.
	h.send(harnessGM, gm, "SILENT\nEJECT r1@example.test")
	ms = h.outbox()
	mustContain(t, h.subject(ms, tok["red"].addr, "r1@example.test left Red").Text, "r1@example.test has left Red (removed by the GM)")
	mustContain(t, h.only(ms, "r1@example.test").Subject, "You no longer play Red")
	if n := len(to(ms, tok["blue"].addr)); n != 0 {
		t.Errorf("SILENT: blue got %d mails", n)
	}
	// Taken back later in the phase, the ejected junior's new orders count
	// (only those sent before the ejection were struck).
	h.clock.Add(time.Minute)
	r1 := h.addJunior("edges", "red", tok["red"], "r1@example.test")
	h.as(r1, "score 4")
	mustContain(t, h.only(h.outbox(), r1.addr).Text, "score 4  you, Sun 6 Dec 21:01 UTC")

	// The senior locks for good; a new senior does not inherit the lock.
	r2 := h.addJunior("edges", "red", tok["red"], "r2@example.test")
	h.as(tok["red"], "LOCK JUNIORS ALWAYS\nscore 1")
	h.as(r2, "score 5")
	mustContain(t, h.only(h.outbox(), r2.addr).Text, "score 1  "+tok["red"].addr+" (senior)", "LOCK JUNIORS is on for every phase")
	h.send(harnessGM, gm, "PROMOTE r2@example.test")
	h.outbox()
	h.as(r2, "STATUS")
	status := h.only(h.outbox(), r2.addr).Text
	mustContain(t, status, "score 5  you,")
	if strings.Contains(status, "LOCK JUNIORS is on") {
		t.Errorf("the old senior's lock outlived their seniority:\n%s", status)
	}
}

// Every verb the mail parser knows has an entry in the dispatch table, so
// none falls through to "I know this command but it is not available".
func TestEveryParsedVerbIsHandled(t *testing.T) {
	notYet := map[orders.Verb]string{}
	for _, v := range orders.Verbs() {
		if _, ok := commands[v]; !ok && notYet[v] == "" {
			t.Errorf("%s is parsed but has no handler in the dispatch table", v)
		}
	}
	for v := range notYet {
		if _, ok := commands[v]; ok {
			t.Errorf("%s is handled now: take it off the list of exceptions", v)
		}
	}
}

// SET ORDERS is never invisible: the power's diplomats get the GM's
// orders, and after the player's next mail her acknowledgement says which
// lines the GM set, which her mail replaced and which still stand; at the
// deadline exactly those orders are carried out.
func TestGMSetOrdersShowInThePlayersAcknowledgement(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startStandard("gmo")
	eng := pl["england"]
	h.send(harnessGM, gm, "SET ORDERS england\nF Lon - Eng\nA Lvp - Yor\nENDORDERS")
	ms := h.outbox()
	mustContain(t, h.reply(ms, harnessGM).Text, "Orders of England for Spring 1901 Movement set by the GM:", "They count as the power's own orders")
	told := h.only(ms, eng.addr)
	mustContain(t, told.Subject, "The GM has set your orders")
	mustContain(t, told.Text, "The GM has set orders for England for Spring 1901 Movement:\n  F Lon - Eng\n  A Lvp - Yor", "a mail\nfrom you changes them as it would change your own")
	mustContain(t, h.only(ms, pl["france"].addr).Text, "The GM has set the orders of England for Spring 1901 Movement.")

	h.clock.Add(10 * time.Minute)
	h.as(eng, "F Lon - Nth\nF Edi - Nwg")
	ack := h.only(h.outbox(), eng.addr).Text
	mustContain(t, ack,
		"The orders of England now stand as (who sent each):",
		"F Lon - Nth  you, Sun 6 Dec 21:10 UTC",
		"A Lvp - Yor  the GM (SET ORDERS), Sun 6 Dec 21:00 UTC",
		"F Edi - Nwg  you, Sun 6 Dec 21:10 UTC",
		"The GM set orders for England this phase (SET ORDERS, Sun 6 Dec 21:00 UTC). They count as the power's own, so your mail changed them as it would change yours:",
		"  replaced by your mail: F Lon - Eng\n",
		"  still standing as the GM set them: A Lvp - Yor\n")
	if strings.Contains(ack, "F Lon - Eng  ") {
		t.Errorf("the acknowledgement shows the GM's replaced order as standing:\n%s", ack)
	}
	h.as(eng, "STATUS")
	mustContain(t, h.only(h.outbox(), eng.addr).Text, "A Lvp - Yor  the GM (SET ORDERS)")

	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	rec := h.phaseRecord("gmo", 0)
	got := append([]string(nil), rec.Orders["england"]...)
	sort.Strings(got)
	if strings.Join(got, "; ") != "A Lvp - Yor; F Edi - Nwg; F Lon - Nth" {
		t.Errorf("England's orders carried out: %v", got)
	}
}

// Under LOCK JUNIORS the GM's orders count as the senior's: a junior's
// later mail does not change them, and the junior is told so.
func TestGMOrdersUnderALockCountAsTheSeniors(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("gmlock", "")
	junior := h.addJunior("gmlock", "red", tok["red"], "aide@example.test")
	h.as(tok["red"], "LOCK JUNIORS")
	h.send(harnessGM, gm, "SET ORDERS red\nscore 3\nENDORDERS")
	h.outbox()
	h.as(junior, "score 5")
	mustContain(t, h.only(h.outbox(), junior.addr).Text, "score 3  the GM (SET ORDERS)", "your mail replaced none of them", "still standing as the GM set them: score 3")
	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	if got := h.phaseRecord("gmlock", 0).Orders["red"]; len(got) != 1 || got[0] != "score 3" {
		t.Errorf("red's orders under the lock: %v", got)
	}
}

// The power mail says "reply to this mail (or to any mail I send you)": a
// reply to it after the first phase is read for the open phase, and the
// acknowledgement says for which; a reply none of whose orders is valid
// now is refused with the reason, never stored for the wrong phase.
func TestReplyToThePowerMailAfterTheFirstPhase(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE pm standard")
	gm := h.only(h.outbox(), harnessGM).Token
	var powerMail sent
	for _, p := range standardPowers {
		h.send(p+"@example.test", "", "JOIN pm prefer "+p)
	}
	powerMail = h.subject(h.outbox(), "england@example.test", "You are England")
	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	h.outbox()
	if g := h.game("pm"); g.PhaseID != "F1901M" {
		t.Fatalf("phase %s", g.PhaseID)
	}
	reply := func(id, text string) string {
		h.sendMail(&Incoming{MsgID: id, From: "england@example.test", Token: powerMail.Token, Subject: "Re: " + powerMail.Subject, Text: text, InReplyTo: powerMail.Parsed.MessageID})
		return h.only(h.outbox(), "england@example.test").Text
	}
	// Orders for France's units: valid for no phase of England's.
	got := reply("pm1@test", "A Par - Bur\nA Mar - Spa")
	mustContain(t, got, "You replied to a mail I sent during Spring 1901 Movement; the game is now in Fall 1901 Movement.",
		"None of the orders in your mail is valid for Fall 1901 Movement", "did not store them")
	if sets := h.orderSets("pm", 1); len(sets) != 0 {
		t.Fatalf("stored: %+v", sets)
	}
	got = reply("pm2@test", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor")
	mustContain(t, got, "You replied to a mail I sent during Spring 1901 Movement, but the game is now in Fall 1901 Movement: I have read the orders in your mail as orders for Fall 1901 Movement.",
		"Orders received for England, Fall 1901 Movement", "  F Lon - Nth\n")
	if sets := h.orderSets("pm", 1); len(sets) != 1 || len(sets[0].Lines) != 3 {
		t.Fatalf("stored for Fall 1901: %+v", sets)
	}
}
