package daemon

import (
	"fmt"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// The weekly calendar is the seed's (diplomacy-ancient-mediterranean.txt,
// "The Deadline and Turn Phases"): "The game will advance at a pace of 1
// year-per-week", Spring orders due two days after the start, its
// retreats a day later, Fall orders two days after that, Fall retreats a
// day later and the builds a day after those, every deadline at 21:00 GMT.
// The rolling schedule counts each deadline from when its phase opened, so
// a year whose retreat and build phases are skipped takes four days; on
// the weekly calendar every phase keeps its day in the week, whether or
// not the phases before it were played.
//
// The week is the engine's declared year (Info.Year) laid end to end with
// the schedule's lengths for each kind of phase (48 h + 24 h + 48 h + 24 h
// + 24 h = 7 days), starting where the game's first deadline puts it.
// A phase whose day leaves it less than half its length (a deadline the
// GM moved, a pause) gets its length counted from when it opened, as on
// the rolling schedule; the next phases go back to their days. A game a
// week or more behind (a long pause) moves its calendar on by whole weeks.
//
// It is the default of every game whose engine declares a fixed year
// (Diplomacy, standard and Ancient Mediterranean, whose house rules are
// the seed's); a GM may choose calendar=rolling at CREATE or with SET.
const (
	calendarWeekly  = "weekly"
	calendarRolling = "rolling"
)

// defaultCalendar is the calendar a new game of e gets.
func defaultCalendar(e adjudicator.Engine) string {
	if len(e.Info().Year) > 0 {
		return calendarWeekly
	}
	return calendarRolling
}

// weekly reports whether g's phases follow the weekly calendar now: it is
// chosen, the engine declares a year, and the pace is slow (the fast pace
// is "a simple 24-hour-per phase with no specific retreat phases system").
func weekly(g *store.Game, e adjudicator.Engine) bool {
	return g.Options.Calendar == calendarWeekly && g.Options.Pace != store.PaceFast && len(e.Info().Year) > 0
}

// kindLength is the schedule's length of a phase of kind k.
func (s Schedule) kindLength(k adjudicator.PhaseKind) time.Duration {
	switch k {
	case adjudicator.PhaseRetreat:
		return s.Retreats
	case adjudicator.PhaseBuild:
		return s.Builds
	case adjudicator.PhaseTurn:
		return s.Turn
	}
	return s.Orders
}

// yearOffsets are the ends of each step of year after the start of the
// week; the last is the week's length.
func (s Schedule) yearOffsets(year []adjudicator.PhaseKind) []time.Duration {
	off := make([]time.Duration, len(year))
	var sum time.Duration
	for i, k := range year {
		sum += s.kindLength(k)
		off[i] = sum
	}
	return off
}

// advanceCalendar carries the calendar from the phase just played (prev)
// into the one the engine has opened (p): a step at or before the last
// one begins a new game year.
func advanceCalendar(prev store.OpenPhase, st adjudicator.Status, p *store.OpenPhase, first bool) {
	p.CalStart, p.CalYear, p.YearStep = prev.CalStart, prev.CalYear, st.YearStep
	if !first && st.YearStep <= prev.YearStep {
		p.CalYear++
	}
}

// calendarDeadline is the deadline of phase p of g on the weekly calendar,
// opened at now; it sets p.CalStart when the calendar starts (or moves on).
func (s Schedule) calendarDeadline(year []adjudicator.PhaseKind, p *store.OpenPhase, now time.Time) time.Time {
	step := min(max(p.YearStep, 0), len(year)-1)
	length := s.kindLength(year[step])
	rolling := s.due(now, length)
	off := s.yearOffsets(year)
	week := off[len(off)-1]
	if p.CalStart.IsZero() {
		// The calendar starts with this phase: its week begins where
		// the rolling schedule puts this phase's deadline.
		p.CalStart = rolling.Add(-off[step] - time.Duration(p.CalYear)*week).UTC()
	}
	slot := func() time.Time { return p.CalStart.Add(time.Duration(p.CalYear)*week + off[step]) }
	// A game a week or more behind its calendar moves it on by weeks
	// (bounded: at most the weeks between the two times).
	if behind := rolling.Sub(slot()); behind >= week {
		p.CalStart = p.CalStart.Add(behind / week * week).UTC()
	}
	if dl := slot(); dl.Sub(now) >= length/2 {
		return dl
	}
	return rolling
}

// phaseDeadline is when phase p of g, opened now, ends: on the weekly
// calendar its day in the week, else the schedule's (gameDeadline).
// Announced absences then move it as the game's policy says (absence.go).
func (d *Daemon) phaseDeadline(g *store.Game, p *store.OpenPhase, now time.Time) time.Time {
	s := d.opt.Schedule
	var dl time.Time
	if e, err := engineFor(g); err == nil && weekly(g, e) && adjudicator.PhaseKind(p.PhaseKind) != adjudicator.PhaseTurn {
		dl = s.calendarDeadline(e.Info().Year, p, now)
	} else {
		dl = s.gameDeadline(g.Options, adjudicator.PhaseKind(p.PhaseKind), now, p.LastOrdersEnd)
	}
	if len(g.Absences) > 0 {
		dl = d.absenceDeadline(g, p, g.Absences, dl)
	}
	return dl
}

// checkCalendar refuses the weekly calendar for an engine with no fixed year.
func checkCalendar(o *store.GameOptions, e adjudicator.Engine) error {
	if o.Calendar == calendarWeekly && len(e.Info().Year) == 0 {
		return fmt.Errorf("option calendar: %s has no fixed game year, so it plays on the rolling schedule only", e.Info().Title)
	}
	return nil
}

// The pace vote as the seed runs it, on the weekly calendar: "after the
// first two weeks there will be a vote where players can decide whether to
// keep the slow pace or move to a simple 24-hour-per phase with no
// specific retreat phases system. If the vote is rejected at first,
// another one will be held the week after. If it is rejected again, the
// slow pace will be kept for the whole game."
//
// The first vote runs through the third week (game year 2 of the
// calendar, counted from 0), the second through the fourth. A majority of
// the surviving powers voting PACE FAST passes it at once, from the next
// phase on; a vote that has no such majority when its week ends is
// rejected. Once the pace is fast it stays fast; after two rejections it
// stays slow. The GM may still SET pace= (the seed's GM "reserves the
// right to edit these rules"). On the rolling schedule the vote is free,
// as before: a majority switches the pace either way at any time.
const (
	paceVoteFirst  = 2 // calendar year of the first vote
	paceVoteSecond = 3 // of the second
)

// paceVoteOpen reports whether the seed's pace vote is open in g's phase
// and which one it is (1 or 2).
func paceVoteOpen(g *store.Game) (int, bool) {
	switch weeklyYear(g) {
	case paceVoteFirst:
		return 1, true
	case paceVoteSecond:
		return 2, true
	}
	return 0, false
}

// weeklyYear is how many game years g has played on the weekly calendar
// before the open one: its weeks count from when the calendar began, at
// CREATE or when the GM switched the game to it.
func weeklyYear(g *store.Game) int {
	return g.CalYear - g.WeeklyFrom
}

// startWeekly records that g, running, moves to the weekly calendar now:
// its pace-vote weeks count from here. The year now open counts as its
// first week only if it has just begun (its first step is open).
func startWeekly(g *store.Game) {
	g.WeeklyFrom = g.CalYear
	if g.YearStep > 0 {
		g.WeeklyFrom++
	}
	g.PaceVotes = nil
	g.CalStart = time.Time{} // the next phase starts the calendar's week afresh
}

// seedPaceVote reports whether g's pace votes follow the seed (the weekly
// calendar).
func seedPaceVote(g *store.Game) bool {
	return g.Options.Calendar == calendarWeekly
}

// paceRefusal says why PACE is not taken in g now ("" when it is).
func paceRefusal(g *store.Game) string {
	if !seedPaceVote(g) {
		return ""
	}
	if g.Options.Pace == store.PaceFast {
		return "the game already runs at the fast pace, for the rest of the game."
	}
	if _, open := paceVoteOpen(g); open {
		return ""
	}
	if weeklyYear(g) < paceVoteFirst {
		return fmt.Sprintf("the pace vote is held after the first two weeks, in week %d of the game's weekly calendar; until then the game keeps the slow pace.", paceVoteFirst+1)
	}
	return "the pace vote was rejected twice, so the slow pace is kept for the whole game."
}

// paceVoteNews tells everyone in g what the phase just opened means for
// the seed's pace vote: a vote opens, or the last one was rejected.
// prevYear is the calendar year of the phase just processed.
func (d *Daemon) paceVoteNews(tx *txn, g *store.Game, prevYear int) error {
	if !seedPaceVote(g) || g.Options.Pace == store.PaceFast || g.CalYear == prevYear || g.Status != store.Active {
		return nil
	}
	var text string
	switch weeklyYear(g) {
	case paceVoteFirst:
		text = "The first two weeks are over: the pace vote is open this week.\n" +
			"Reply PACE FAST to move to 24 hours per phase with no separate retreat and build deadlines, or PACE SLOW to keep one game year per week.\n" +
			"A majority of the surviving powers for FAST passes it; without one by the end of the week the vote is rejected and a second vote is held the week after."
	case paceVoteSecond:
		text = "The pace vote was rejected. The second and last pace vote is open this week: reply PACE FAST or PACE SLOW.\n" +
			"If it is rejected again, the slow pace is kept for the whole game."
	case paceVoteSecond + 1:
		text = "The second pace vote was rejected: the slow pace (one game year per week) is kept for the whole game."
	default:
		return nil
	}
	g.PaceVotes = nil // each vote starts afresh
	if err := tx.PutGame(g); err != nil {
		return err
	}
	return d.publish(tx, g, fmt.Sprintf("[%s] Pace vote", g.Name), text+"\n", nil)
}

// scheduleStatus is STATUS's lines on the pace vote and the absences to
// come ("" when there is nothing to say).
func scheduleStatus(g *store.Game, now time.Time) string {
	var b strings.Builder
	if s := paceVoteWeek(g); s != "" {
		b.WriteString("  " + s + "\n")
	}
	for _, a := range g.Absences {
		if absenceEnd(a).After(now) {
			fmt.Fprintf(&b, "  Away: the player of %s, %s to %s.\n", powerName(g, a.Power), a.From.Format("Mon 2 Jan"), a.To.Format("Mon 2 Jan 2006"))
		}
	}
	return b.String()
}

// paceVoteWeek is a line for STATUS about the pace vote ("" when there is
// nothing to say).
func paceVoteWeek(g *store.Game) string {
	if !seedPaceVote(g) || g.Options.Pace == store.PaceFast {
		return ""
	}
	if n, open := paceVoteOpen(g); open {
		votes := 0
		for _, p := range g.Alive {
			if g.PaceVotes[p] == store.PaceFast {
				votes++
			}
		}
		return fmt.Sprintf("Pace vote %d of 2 is open this week: %d of %d surviving powers for FAST.", n, votes, len(g.Alive))
	}
	return ""
}

// calendarName is how HELP and SET's reply name g's calendar.
func calendarName(o store.GameOptions) string {
	if o.Calendar == "" {
		return calendarRolling
	}
	return o.Calendar
}

// scheduleOptions is the line SET's reply gives for the options of when
// phases end.
func scheduleOptions(o store.GameOptions) string {
	return fmt.Sprintf("Schedule: calendar %s, late %s (grace %s, grace_every %d, late_limit %s), absence %s (absence_days %d).",
		calendarName(o), latePolicy(o), humanDuration(graceOf(o)), graceEvery(o), humanDuration(lateLimit(o)), absencePolicy(o), absenceAllowance(o))
}

// scheduleRules is RULES' part on when phases end in g.
func scheduleRules(g *store.Game) string {
	var b strings.Builder
	b.WriteString("When phases end (this game's options):\n")
	if g.Options.Calendar == calendarWeekly {
		b.WriteString("- calendar=weekly: one game year per week, every deadline on its day at the\n" +
			"  deadline hour: Spring orders two days after the week begins, Spring retreats a\n" +
			"  day later, Fall orders two days after, Fall retreats a day later, builds a day\n" +
			"  after those. A phase nobody has to order in is skipped but keeps its day, so\n" +
			"  the next phase's deadline does not move. The pace vote follows the seed: it is\n" +
			"  held in the third week (PACE FAST or PACE SLOW; a majority of the surviving\n" +
			"  powers for FAST passes it: then 24 hours per phase, retreats and builds\n" +
			"  folded in); if it is rejected, a second vote the week after; rejected again,\n" +
			"  the slow pace is kept for the whole game.\n")
	} else {
		b.WriteString("- calendar=rolling: each deadline is counted from when its phase opened; a\n" +
			"  majority of the surviving powers may change the pace with PACE at any time.\n")
	}
	b.WriteString(bullet(lateRules(g.Options)+". The results name the powers that had not ordered at the deadline.") + "\n")
	b.WriteString(bullet(absenceRule(g.Options) + "; SET ABSENCE from <date> to <date> announces one."))
	return b.String()
}

// bullet writes text as a list item of lines under 80 columns ("- " and
// an indent of two).
func bullet(text string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
			b.WriteString("- " + w)
			n = 2 + len(w)
		case n+1+len(w) > 78:
			b.WriteString("\n  " + w)
			n = 2 + len(w)
		default:
			b.WriteString(" " + w)
			n += 1 + len(w)
		}
	}
	return b.String()
}
