package daemon

import (
	"testing"
)

// Issue 16 item 3: a player announces an absence ahead, within the game's
// allowance; the game waits (the deadline moves) or the clock stops, as
// the game's policy says; everyone in the game is told the schedule.
func TestAbsence(t *testing.T) {
	t.Run("move: a deadline in the absence moves to its end", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("away", "")
		h.as(pl["rome"], "SET ABSENCE from 2026-12-08 to 2026-12-09")
		ms := h.outbox()
		mustContain(t, h.reply(ms, "rome@example.test").Text,
			"Your absence from Tue 8 Dec 2026 to Wed 9 Dec 2026 (2 days) is noted; 12 of your 14 days of absence in away are left.")
		for _, addr := range []string{"greece@example.test", "carthage@example.test", harnessGM} {
			mustContain(t, h.subject(ms, addr, "Schedule: an absence").Text,
				"The player of Rome will be away from Tue 8 Dec 2026 to Wed 9 Dec 2026",
				"The deadline of Spring 450 AUC Movement moves from Tue 8 Dec 2026 21:00 UTC to Thu 10 Dec 2026 21:00 UTC.")
		}
		if g := h.game("away"); !g.Deadline.Equal(at(10)) {
			t.Fatalf("deadline %s, want Thursday 10 December 21:00", g.Deadline)
		}
		h.as(pl["greece"], "STATUS")
		mustContain(t, h.reply(h.outbox(), "greece@example.test").Text, "deadline Thu 10 Dec 2026 21:00 UTC", "Away: the player of Rome, Tue 8 Dec to Wed 9 Dec 2026.")
		// Nothing is processed on Tuesday; on Thursday it is.
		for _, m := range h.until(at(8)) {
			mustContain(t, m.Subject, "Reminder")
		}
		ms = h.until(at(10))
		mustContain(t, h.results(ms, "rome@example.test"), "Spring 450 AUC Movement", "Fall 450 AUC Movement: orders due by Fri 11 Dec 2026 21:00 UTC")

		// An absence announced ahead moves a later phase's deadline
		// when that phase opens: Fall's Friday falls in it.
		h.as(pl["rome"], "SET ABSENCE from 2026-12-18 to 2026-12-18")
		ms = h.outbox()
		mustContain(t, h.reply(ms, "rome@example.test").Text, "11 of your 14 days")
		h.until(at(11))
		h.until(at(15))
		if g := h.game("away"); g.PhaseID != "F451M" || !g.Deadline.Equal(at(19)) {
			t.Fatalf("Fall 451 (%s) is due %s, want Saturday 19 December 21:00 (the day after the absence)", g.PhaseID, g.Deadline)
		}

		// The allowance, the past, a bad date.
		h.as(pl["rome"], "SET ABSENCE from 2027-01-04 to 2027-01-15")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "SET ABSENCE refused: that is 12 days, and you have 11 of your 14 days of absence in away left.")
		h.as(pl["rome"], "SET ABSENCE from 2026-12-01 to 2026-12-02")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "SET ABSENCE refused: 2026-12-01 is in the past")
		h.as(pl["rome"], "SET ABSENCE from next week")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "SET ABSENCE refused: \"next\" is not a date I can read; write it as 2026-12-20")
		// SET ABSENCE OFF withdraws what has not begun (18 December and
		// this one); the deadline it moved stays.
		h.as(pl["rome"], "SET ABSENCE from 2027-01-04 to 2027-01-05")
		h.outbox()
		h.as(pl["rome"], "SET ABSENCE OFF")
		ms = h.outbox()
		mustContain(t, h.reply(ms, "rome@example.test").Text, "2 absences withdrawn", "Deadlines already moved stay as they are")
		mustContain(t, h.subject(ms, "egypt@example.test", "absence withdrawn").Text, "The player of Rome has withdrawn 2 announced absences.")
		h.as(pl["rome"], "SET ABSENCE from 2026-12-20 to 2026-12-31")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "(12 days) is noted; 0 of your 14 days")
	})

	t.Run("a junior's absence holds nothing up", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("jun", "")
		junior := h.addJunior("jun", "rome", pl["rome"], "deputy@example.test")
		h.as(junior, "SET ABSENCE from 2026-12-08 to 2026-12-08")
		ms := h.outbox()
		mustContain(t, h.reply(ms, "deputy@example.test").Text, "is noted")
		mustContain(t, h.subject(ms, "greece@example.test", "Schedule: an absence").Text, "A junior diplomat of Rome will be away")
		if g := h.game("jun"); !g.Deadline.Equal(at(8)) {
			t.Fatalf("a junior's absence moved the deadline to %s", g.Deadline)
		}
	})

	t.Run("at most 20 absences, within a year", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("many", "absence_days=60")
		var text string
		for i := range maxAbsences + 1 {
			day := at(10).AddDate(0, 0, 2*i).Format("2006-01-02")
			h.as(pl["egypt"], "SET ABSENCE from "+day+" to "+day)
			text = h.reply(h.outbox(), "egypt@example.test").Text
		}
		mustContain(t, text, "SET ABSENCE refused: you have announced 20 absences in many already.")
		if g := h.game("many"); len(g.Absences) != maxAbsences {
			t.Fatalf("%d absences stored, want %d", len(g.Absences), maxAbsences)
		}
		h.as(pl["rome"], "SET ABSENCE from 2028-01-01 to 2028-01-02")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "SET ABSENCE refused: 2028-01-01 is more than a year ahead.")
	})

	t.Run("pause: the clock stops for the absence", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("stop", "absence=pause")
		h.as(pl["egypt"], "SET ABSENCE from 2026-12-07 to 2026-12-07")
		ms := h.outbox()
		mustContain(t, h.subject(ms, "rome@example.test", "Schedule: an absence").Text,
			"absence=pause: the clock stops", "moves from Tue 8 Dec 2026 21:00 UTC to Wed 9 Dec 2026 21:00 UTC")
	})

	t.Run("off: no absences", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("none", "absence=off")
		h.as(pl["egypt"], "SET ABSENCE from 2026-12-07 to 2026-12-07")
		mustContain(t, h.reply(h.outbox(), "egypt@example.test").Text, "takes no absences")
		if g := h.game("none"); !g.Deadline.Equal(at(8)) || len(g.Absences) != 0 {
			t.Fatalf("absence=off: deadline %s, absences %v", g.Deadline, g.Absences)
		}
	})

	t.Run("the GM's allowance and HELP", func(t *testing.T) {
		h := newHarness(t)
		gm, pl := h.startAncient("few", "absence_days=3")
		h.as(pl["persia"], "SET ABSENCE from 2026-12-20 to 2026-12-23")
		mustContain(t, h.reply(h.outbox(), "persia@example.test").Text, "that is 4 days, and you have 3 of your 3 days")
		h.as(pl["persia"], "HELP")
		mustContain(t, h.reply(h.outbox(), "persia@example.test").Text, "SET ABSENCE from <date> to <date>")
		h.send(harnessGM, gm, "SET absence=pause")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "absence pause (absence_days 3)")
		// From the GM, SET ABSENCE is the game's option.
		h.send(harnessGM, gm, "SET ABSENCE from 2026-12-20 to 2026-12-21")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "SET refused: option absence: absence is move")
	})
}
