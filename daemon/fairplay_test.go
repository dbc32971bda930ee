package daemon

import (
	"reflect"
	"strings"
	"testing"
	"time"

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

// addJunior has addr join power as a junior; it returns the new junior
// with its reply token.
func (h *harness) addJunior(game, power string, senior player, addr string) player {
	h.t.Helper()
	h.send(addr, "", "JOIN "+game+" as junior of "+power)
	for _, m := range to(h.outbox(), addr) {
		if strings.Contains(m.Subject, "You are") {
			return player{addr, m.Token}
		}
	}
	h.t.Fatalf("%s got no power mail", addr)
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
