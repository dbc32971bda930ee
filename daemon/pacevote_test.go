package daemon

import (
	"strings"
	"testing"
	"time"
)

// The seed, "The Deadline and Turn Phases": "Thus after the first two weeks
// there will be a vote where players can decide whether to keep the slow
// pace or move to a simple 24-hour-per phase with no specific retreat
// phases system. If the vote is rejected at first, another one will be
// held the week after. If it is rejected again, the slow pace will be kept
// for the whole game."
//
// Each game year here is quiet (everyone holds): Spring due Tuesday, Fall
// Friday, the next year's Spring the Tuesday after.
func TestPaceVoteAsTheSeedRunsIt(t *testing.T) {
	// playWeek runs the game's open year to its next Spring.
	playWeek := func(h *harness, game string) []sent {
		h.t.Helper()
		var all []sent
		for range 2 {
			all = append(all, h.until(h.game(game).Deadline)...)
		}
		return all
	}
	vote := func(h *harness, pl map[string]player, pace string, powers ...string) []sent {
		h.t.Helper()
		var all []sent
		for _, p := range powers {
			h.as(pl[p], "PACE "+pace)
			all = append(all, h.outbox()...)
		}
		return all
	}

	t.Run("not before two weeks", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("early", "")
		ms := vote(h, pl, "FAST", "carthage", "egypt", "greece", "persia", "rome")
		mustContain(t, h.reply(to(ms, "rome@example.test"), "rome@example.test").Text, "PACE: the pace vote is held after the first two weeks, in week 3 of the game's weekly calendar; until then the game keeps the slow pace.")
		if text := h.reply(to(ms, "rome@example.test"), "rome@example.test").Text; strings.Contains(text, "game year") {
			t.Errorf("the refusal counts game years, which are not the game's own (450 AUC):\n%s", text) // issue 28 item 8
		}
		if g := h.game("early"); g.Options.Pace != "slow" {
			t.Fatalf("a vote on day one changed the pace to %s", g.Options.Pace)
		}
		playWeek(h, "early")
		ms = vote(h, pl, "FAST", "rome")
		mustContain(t, h.reply(ms, "rome@example.test").Text, "held after the first two weeks")
	})

	t.Run("passed in the third week", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("pass", "")
		playWeek(h, "pass")
		ms := playWeek(h, "pass")
		for _, p := range pl { // every player is told the vote is open
			mustContain(t, h.subject(ms, p.addr, "Pace vote").Text, "The first two weeks are over: the pace vote is open this week", "PACE FAST")
		}
		if g := h.game("pass"); !g.Deadline.Equal(at(22)) {
			t.Fatalf("the third week's Spring is due %s, want Tuesday 22 December", g.Deadline)
		}
		ms = vote(h, pl, "FAST", "rome", "greece")
		mustContain(t, h.reply(to(ms, "greece@example.test"), "greece@example.test").Text, "2 of 5 surviving powers agree")
		h.as(pl["persia"], "STATUS")
		mustContain(t, h.reply(h.outbox(), "persia@example.test").Text, "Pace vote 1 of 2 is open this week: 2 of 5 surviving powers for FAST.")
		ms = vote(h, pl, "FAST", "egypt")
		mustContain(t, h.subject(ms, "persia@example.test", "Pace changed").Text, "fast pace")
		// From the next phase on: 24 hours, with no separate retreat days.
		ms = h.until(at(22))
		mustContain(t, h.results(ms, "rome@example.test"), "Fall 452 AUC Movement: orders due by Wed 23 Dec 2026 21:00 UTC")
		ms = vote(h, pl, "SLOW", "carthage", "persia", "rome")
		mustContain(t, h.reply(to(ms, "rome@example.test"), "rome@example.test").Text, "already runs at the fast pace, for the rest of the game")
		if g := h.game("pass"); g.Options.Pace != "fast" {
			t.Fatalf("a majority for SLOW switched back: pace %s", g.Options.Pace)
		}
	})

	t.Run("rejected twice", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("keep", "")
		playWeek(h, "keep")
		playWeek(h, "keep")
		vote(h, pl, "FAST", "rome", "greece")
		vote(h, pl, "SLOW", "persia")
		ms := playWeek(h, "keep")
		mustContain(t, h.subject(ms, "rome@example.test", "Pace vote").Text, "The pace vote was rejected. The second and last pace vote is open this week")
		if g := h.game("keep"); g.Options.Pace != "slow" || len(g.PaceVotes) != 0 {
			t.Fatalf("after the first vote failed: pace %s, votes %v (the second vote starts afresh)", g.Options.Pace, g.PaceVotes)
		}
		ms = vote(h, pl, "FAST", "rome")
		mustContain(t, h.reply(ms, "rome@example.test").Text, "1 of 5 surviving powers agree")
		ms = playWeek(h, "keep")
		mustContain(t, h.subject(ms, "carthage@example.test", "Pace vote").Text, "the slow pace (one game year per week) is kept for the whole game")
		ms = vote(h, pl, "FAST", "carthage", "egypt", "greece", "persia", "rome")
		mustContain(t, h.reply(to(ms, "egypt@example.test"), "egypt@example.test").Text, "rejected twice, so the slow pace is kept for the whole game")
		if g := h.game("keep"); g.Options.Pace != "slow" {
			t.Fatalf("a majority after the second rejection changed the pace to %s", g.Options.Pace)
		}
		// Still a year per week: Fall of the fifth week due Friday.
		ms = h.until(h.game("keep").Deadline)
		text := h.results(ms, "rome@example.test")
		if !strings.Contains(text, "Fall 454 AUC Movement: orders due by Fri 8 Jan 2027 21:00 UTC") {
			t.Errorf("the fifth week is not at the slow pace:\n%s", text)
		}
	})

	// The weeks are the weekly calendar's: a game the GM moves to it
	// after three rolling years holds its votes two weeks after that.
	t.Run("weeks counted from the GM's switch to the weekly calendar", func(t *testing.T) {
		h := newHarness(t)
		gm, pl := h.startAncient("late", "calendar=rolling")
		for range 3 {
			playWeek(h, "late")
		}
		h.send(harnessGM, gm, "SET calendar=weekly")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "calendar weekly")
		ms := vote(h, pl, "FAST", "rome")
		mustContain(t, h.reply(ms, "rome@example.test").Text, "held after the first two weeks")
		playWeek(h, "late")
		ms = playWeek(h, "late")
		mustContain(t, h.subject(ms, "egypt@example.test", "Pace vote").Text, "The first two weeks are over: the pace vote is open this week")
		ms = vote(h, pl, "FAST", "rome", "greece", "egypt")
		mustContain(t, h.subject(ms, "persia@example.test", "Pace changed").Text, "fast pace")
	})

	t.Run("the rolling schedule keeps the free vote", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("free", "calendar=rolling")
		ms := vote(h, pl, "FAST", "rome", "greece", "egypt")
		mustContain(t, h.subject(ms, "persia@example.test", "Pace changed").Text, "fast pace")
		h.clock.Add(time.Minute)
		ms = vote(h, pl, "SLOW", "rome", "greece", "egypt")
		mustContain(t, h.subject(ms, "persia@example.test", "Pace changed").Text, "slow pace")
	})
}
