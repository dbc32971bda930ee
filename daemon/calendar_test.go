package daemon

import (
	"strings"
	"testing"
	"time"
)

var ancientPowers = []string{"carthage", "egypt", "greece", "persia", "rome"}

// startAncient creates an Ancient Mediterranean game (the seed's map, as
// it ships) with CREATE's options opts, signs up one player per power
// and returns the GM token and the players. The harness clock stands at
// Sunday 6 December 2026, 21:00 GMT: the seed's "The game will start at
// 21:00 GMT this Sunday".
func (h *harness) startAncient(name, opts string) (string, map[string]player) {
	h.t.Helper()
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE "+name+" ancientmed "+opts)
	created := h.only(h.outbox(), harnessGM)
	mustContain(h.t, created.Text, "created")
	for _, p := range ancientPowers {
		h.send(p+"@example.test", "", "JOIN "+name+" prefer "+p)
	}
	pl := map[string]player{}
	ms := h.outbox()
	for _, p := range ancientPowers {
		m := h.subject(ms, p+"@example.test", "You are")
		pl[p] = player{m.To, m.Token}
	}
	return created.Token, pl
}

// until moves the clock to t and ticks; it returns the mails sent.
func (h *harness) until(t time.Time) []sent {
	h.t.Helper()
	if d := t.Sub(h.clock.Now()); d > 0 {
		h.clock.Add(d)
	}
	h.tick()
	return h.outbox()
}

// at is a time of December 2026 at 21:00 GMT (or, with a year, of that
// year's January).
func at(day int) time.Time { return time.Date(2026, 12, day, 21, 0, 0, 0, time.UTC) }

// results finds the one results mail to addr in ms.
func (h *harness) results(ms []sent, addr string) string {
	h.t.Helper()
	return h.subject(ms, addr, "results").Text
}

// The seed, "The Deadline and Turn Phases": "The deadline for all phases
// will fall at 21:00 GMT of the appropriate day. The game will advance at a
// pace of 1 year-per-week originally. The game will start at 21:00 GMT
// this Sunday(January 6). The first Spring phase will be resolved by
// Tuesday. 24 hours will then be allowed for disbands/retreats. The fall
// orders are due Friday. An extra 24 hours will then be given for fall
// retreats/disbands, ending on Saturday. Finally the first build phase will
// be over on 21:00 GMT Sunday January 13. Rinse and repeat."
//
// A quiet year (nobody dislodged, no centre changes hands) has no retreat
// and no build phase: on the weekly calendar, the default of the seed's
// game, Fall orders are still due on Friday and the next Spring on the
// next Tuesday; on the rolling schedule a GM may choose instead, the same
// year takes four days.
func TestWeeklyCalendarKeepsTheSeedsDays(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startAncient("week", "")
	rome := pl["rome"].addr
	if g := h.game("week"); !g.Deadline.Equal(at(8)) {
		t.Fatalf("Spring 450 is due %s, want the seed's Tuesday 21:00 GMT", g.Deadline)
	}

	// Nobody orders: every unit holds, nobody is dislodged.
	ms := h.until(at(8))
	mustContain(t, h.results(ms, rome), "Spring 450 AUC Movement", "Fall 450 AUC Movement: orders due by Fri 11 Dec 2026 21:00 UTC")

	// Thursday, when the rolling schedule would end Fall: nothing happens.
	for _, m := range h.until(at(10)) {
		if strings.Contains(m.Subject, "results") {
			t.Fatalf("on Thursday the weekly calendar processed Fall (due Friday): %s", m.Subject)
		}
		mustContain(t, m.Subject, "Reminder: Fall 450 AUC Movement") // a day before Friday's deadline
	}
	ms = h.until(at(11))
	mustContain(t, h.results(ms, rome), "Fall 450 AUC Movement", "Spring 451 AUC Movement: orders due by Tue 15 Dec 2026 21:00 UTC")
	// "Rinse and repeat": the next year's Fall is due Friday again.
	ms = h.until(at(15))
	mustContain(t, h.results(ms, rome), "Fall 451 AUC Movement: orders due by Fri 18 Dec 2026 21:00 UTC")

	t.Run("rolling", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("roll", "calendar=rolling")
		ms := h.until(at(8))
		mustContain(t, h.results(ms, pl["rome"].addr), "Fall 450 AUC Movement: orders due by Thu 10 Dec 2026 21:00 UTC")
		ms = h.until(at(10))
		mustContain(t, h.results(ms, pl["rome"].addr), "Spring 451 AUC Movement: orders due by Sat 12 Dec 2026 21:00 UTC")
	})

	t.Run("the GM chooses", func(t *testing.T) {
		h := newHarness(t)
		gm, _ := h.startAncient("set", "calendar=rolling")
		h.send(harnessGM, gm, "SET calendar=weekly")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "calendar weekly")
		h.send(harnessGM, gm, "SET calendar=monthly")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "SET refused", "calendar is weekly")
		h.send(harnessGM, gm, "RULES")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "calendar=weekly: one game year per week")
	})

	t.Run("STATUS and LIST name it", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("wk", "")
		h.startAncient("roll", "calendar=rolling")
		h.as(pl["rome"], "STATUS")
		mustContain(t, h.reply(h.outbox(), pl["rome"].addr).Text, "calendar weekly, pace slow")
		h.as(pl["rome"], "LIST")
		text := h.reply(h.outbox(), pl["rome"].addr).Text
		mustContain(t, text, "(weekly calendar)")
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "roll ") && strings.Contains(line, "weekly") {
				t.Errorf("the rolling game is listed as weekly: %q", line)
			}
		}
		h.as(pl["rome"], "LIST roll")
		mustContain(t, h.reply(h.outbox(), pl["rome"].addr).Text, "calendar rolling, pace slow")
	})

	t.Run("a game with no fixed year", func(t *testing.T) {
		h := newHarness(t)
		h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE toy1 toy calendar=weekly")
		mustContain(t, h.only(h.outbox(), harnessGM).Text, "Nothing was created", "no fixed game year")
	})
}

// "The first Spring phase will be resolved by Tuesday. 24 hours will then
// be allowed for disbands/retreats. The fall orders are due Friday": a
// Spring with a dislodgement has its retreats due on Wednesday, and Fall
// is still due on Friday (the standard map, whose games are on the seed's
// calendar too).
func TestWeeklyCalendarWithASpringRetreat(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startStandard("ret")
	ms := h.until(at(8)) // Spring 1901: everyone holds
	mustContain(t, h.results(ms, "italy@example.test"), "Fall 1901 Movement: orders due by Fri 11 Dec 2026 21:00 UTC")
	h.as(pl["germany"], "A Mun - Tyr")
	h.outbox()
	ms = h.until(at(11)) // no centre changes hands: no builds
	mustContain(t, h.results(ms, "italy@example.test"), "Spring 1902 Movement: orders due by Tue 15 Dec 2026 21:00 UTC")
	h.as(pl["germany"], "A Tyr - Ven")
	h.as(pl["austria"], "F Tri S A Tyr - Ven")
	h.outbox()
	ms = h.until(at(15))
	mustContain(t, h.results(ms, "italy@example.test"), "dislodged", "Spring 1902 Retreats: orders due by Wed 16 Dec 2026 21:00 UTC")
	ms = h.until(at(16))
	mustContain(t, h.results(ms, "italy@example.test"), "Spring 1902 Retreats", "Fall 1902 Movement: orders due by Fri 18 Dec 2026 21:00 UTC")
}

// A pause of ten days puts the game more than a week behind its calendar:
// the phase after the pause gets its time, and the next year's deadlines
// fall on the seed's days again (a week later).
func TestWeeklyCalendarAfterALongPause(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startAncient("late", "")
	h.clock.Add(time.Hour)
	h.send(harnessGM, gm, "PAUSE the GM is away")
	h.outbox()
	h.clock.Add(10 * 24 * time.Hour) // Wednesday 16 December, 22:00
	h.send(harnessGM, gm, "RESUME")
	h.outbox()
	g := h.game("late")
	ms := h.until(g.Deadline) // Spring 450, its 47 hours left
	text := h.results(ms, pl["rome"].addr)
	mustContain(t, text, "Spring 450 AUC Movement")
	// Fall gets its two days at least, on Friday's slot of a later week
	// or by the rolling rule; then Spring 451 falls on a Tuesday.
	g = h.game("late")
	ms = h.until(g.Deadline)
	text = h.results(ms, pl["rome"].addr)
	g = h.game("late")
	if g.Deadline.Weekday() != time.Tuesday || g.Deadline.Hour() != 21 || g.PhaseID != "S451M" {
		t.Fatalf("after the pause Spring 451 is due %s (%s), want a Tuesday at 21:00:\n%s", g.Deadline, g.PhaseID, text)
	}
	if g.Deadline.Sub(h.clock.Now()) < 24*time.Hour {
		t.Errorf("Spring 451 gets only %s", g.Deadline.Sub(h.clock.Now()))
	}
	if g.CalStart.Weekday() != time.Sunday {
		t.Errorf("the calendar's week now begins on %s, want Sunday", g.CalStart.Weekday())
	}
}
