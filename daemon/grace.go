package daemon

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// Lateness: what happens at a deadline to a power that owes orders and has
// sent none (issue 16 item 1), the game's late= option:
//
//   - process (the default, as before): the phase is processed; the power's
//     units follow the civil disorder rule.
//   - grace: the game waits grace= (24 h) for such powers, once per player
//     every grace_every= (5) phases, and reminds them; at the end of the
//     grace, or as soon as every power waited for has ordered, the phase
//     is processed. A power whose player had their grace too recently is
//     not waited for. This is njudge's grace period, rationed.
//   - extend: the deadline moves on by grace= for everyone while any power
//     owes orders, at most late_limit= (72 h) past the first deadline
//     (DPjudge's "extend until all orders are in", bounded).
//
// Either way the results say who had not ordered at the deadline and who
// the game waited for (DPjudge's late notice, in the results).
const (
	latePolicyProcess = "process"
	latePolicyGrace   = "grace"
	latePolicyExtend  = "extend"

	defaultGrace      = 24 * time.Hour
	defaultGraceEvery = 5 // phases: about one Diplomacy year
	defaultLateLimit  = 72 * time.Hour
	maxGraceEvery     = 1000
)

func init() {
	createOptions["calendar"] = func(o *store.GameOptions, v string) error {
		if v != calendarWeekly && v != calendarRolling {
			return fmt.Errorf("calendar is weekly (the seed's: one game year per week) or rolling")
		}
		o.Calendar = v
		return nil
	}
	createOptions["late"] = func(o *store.GameOptions, v string) error {
		if v != latePolicyProcess && v != latePolicyGrace && v != latePolicyExtend {
			return fmt.Errorf("late is process, grace or extend")
		}
		o.Late = v
		return nil
	}
	createOptions["grace"] = func(o *store.GameOptions, v string) error {
		d, err := parseDuration(v)
		if err != nil {
			return fmt.Errorf("grace is a duration, e.g. 24h: %w", err)
		}
		o.Grace = d
		return nil
	}
	createOptions["late_limit"] = func(o *store.GameOptions, v string) error {
		d, err := parseDuration(v)
		if err != nil {
			return fmt.Errorf("late_limit is a duration, e.g. 72h: %w", err)
		}
		o.LateLimit = d
		return nil
	}
	createOptions["grace_every"] = func(o *store.GameOptions, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxGraceEvery {
			return fmt.Errorf("grace_every is a number of phases from 1 to %d", maxGraceEvery)
		}
		o.GraceEvery = n
		return nil
	}
	createOptions["absence"] = func(o *store.GameOptions, v string) error {
		if v != absenceMove && v != absencePause && v != absenceOff {
			return fmt.Errorf("absence is move (deadlines in an absence move to its end), pause (the clock stops) or off")
		}
		o.Absence = v
		return nil
	}
	createOptions["absence_days"] = func(o *store.GameOptions, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxAbsenceDays {
			return fmt.Errorf("absence_days is a number of days from 0 to %d", maxAbsenceDays)
		}
		o.AbsenceDays = n
		if n == 0 {
			o.Absence = absenceOff
		}
		return nil
	}
}

// checkScheduleOptions checks what the schedule options need of the
// game's engine (applyOptions calls it).
func checkScheduleOptions(o *store.GameOptions, e adjudicator.Engine) error {
	return checkCalendar(o, e)
}

func latePolicy(o store.GameOptions) string {
	if o.Late == "" {
		return latePolicyProcess
	}
	return o.Late
}

func graceOf(o store.GameOptions) time.Duration {
	if o.Grace > 0 {
		return o.Grace
	}
	return defaultGrace
}

func graceEvery(o store.GameOptions) int {
	if o.GraceEvery > 0 {
		return o.GraceEvery
	}
	return defaultGraceEvery
}

func lateLimit(o store.GameOptions) time.Duration {
	if o.LateLimit > 0 {
		return o.LateLimit
	}
	return defaultLateLimit
}

// latePowers are the powers that owe orders in g's open phase and have
// sent none, sorted: who is late at a deadline. (One helper for every use:
// the results' late note, the grace policy, reliability records.)
func latePowers(g *store.Game, st *standing) []string {
	var late []string
	for _, p := range g.Waiting {
		if !st.sent(p) {
			late = append(late, p)
		}
	}
	slices.Sort(late)
	return late
}

// lateAtDeadline is who had not ordered when a processed phase's deadline
// passed, and who the game waited for after it, as recorded in rec.
func lateAtDeadline(rec *store.PhaseRecord) (late, waited []string) {
	if rec.Open == nil {
		return nil, nil
	}
	return rec.Open.Late, rec.Open.Graced
}

// atDeadline runs when g's deadline has passed, before the phase is
// processed: the first time it records who is late; then the game's late
// policy may move the deadline (true: do not process now). st is the
// standing orders of g's open phase (loadDue reads them once, for this
// and for the adjudication); atDeadline only reads them.
func (d *Daemon) atDeadline(tx *txn, g *store.Game, st *standing, now time.Time) (bool, error) {
	if g.ProcessNow {
		return false, nil // the GM's PROCESS before the deadline: nobody is late
	}
	// A power that said READY is done, even without orders.
	missing := slices.DeleteFunc(latePowers(g, st), func(p string) bool { return g.Ready[p] })
	if g.FirstDeadline.IsZero() {
		g.FirstDeadline, g.Late = g.Deadline, missing
	}
	if len(missing) == 0 {
		return false, nil
	}
	base := g.Deadline
	if base.Before(now) {
		base = now
	}
	var wait []string
	var until time.Time
	switch latePolicy(g.Options) {
	case latePolicyGrace:
		if len(g.Graced) > 0 {
			return false, nil // the grace has run out: once per phase
		}
		for _, p := range missing {
			if d.hasGrace(g, p) {
				wait = append(wait, p)
			}
		}
		if len(wait) == 0 {
			return false, nil
		}
		if g.GraceUsed == nil {
			g.GraceUsed = map[string]int{}
		}
		for _, p := range wait {
			if a := seniorOf(g, p); a != "" {
				g.GraceUsed[a] = g.Phase
			}
		}
		until = wholeSecondAfter(base.Add(graceOf(g.Options)))
	case latePolicyExtend:
		limit := g.FirstDeadline.Add(lateLimit(g.Options))
		if !base.Before(limit) {
			return false, nil
		}
		wait = missing
		until = wholeSecondAfter(base.Add(graceOf(g.Options)))
		if until.After(limit) {
			until = limit
		}
	default:
		return false, nil
	}
	for _, p := range wait {
		if !slices.Contains(g.Graced, p) {
			g.Graced = append(g.Graced, p)
		}
	}
	slices.Sort(g.Graced)
	g.Deadline = until.UTC()
	// The late notice is this moment's reminder: only the offsets still
	// ahead in the new time are sent (the 2 hours before its end).
	g.Reminded = nil
	for _, r := range d.opt.Schedule.Reminders {
		if r >= until.Sub(now) {
			g.Reminded = append(g.Reminded, r)
		}
	}
	return true, d.tellLate(tx, g, wait, missing)
}

// wholeSecondAfter is t rounded up to a whole second: a deadline a late
// policy counts from the tick's clock (which has no reason to fall on a
// second) is as whole as the due index's seconds and the times players
// are shown.
func wholeSecondAfter(t time.Time) time.Time {
	if t.Nanosecond() == 0 {
		return t
	}
	return t.Truncate(time.Second).Add(time.Second)
}

// hasGrace reports whether the player of power (its senior diplomat) may
// be waited for now: not within grace_every phases of their last grace.
func (d *Daemon) hasGrace(g *store.Game, power string) bool {
	a := seniorOf(g, power)
	if a == "" {
		return false
	}
	last, used := g.GraceUsed[a]
	return !used || g.Phase-last >= graceEvery(g.Options)
}

// tellLate mails the late powers waited for a reminder, and everyone the
// new deadline.
func (d *Daemon) tellLate(tx *txn, g *store.Game, wait, missing []string) error {
	policy := latePolicy(g.Options)
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left || !slices.Contains(wait, p.Power) {
			continue
		}
		why := fmt.Sprintf("The game waits for you until %s: your grace, which each player has once every %d phases.", d.showTime(g.Deadline, p), graceEvery(g.Options))
		if policy == latePolicyExtend {
			why = fmt.Sprintf("The deadline moves to %s for everyone while orders are missing, at most until %s.", d.showTime(g.Deadline, p), d.showTime(g.FirstDeadline.Add(lateLimit(g.Options)), p))
		}
		text := fmt.Sprintf("Your orders for %s of %s are late: the deadline (%s) has passed and I have none from %s.\n%s\n\nReply to this mail with your orders. What you do not order follows the civil disorder rule (RULES explains it).\n",
			g.PhaseTitle, g.Name, d.showTime(g.FirstDeadline, p), powerName(g, p.Power), why)
		if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: fmt.Sprintf("[%s] Late: %s orders", g.Name, g.PhaseTitle), Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
	}
	skip := map[string]bool{}
	for _, p := range g.Players {
		if !p.Left && slices.Contains(wait, p.Power) {
			skip[p.Address] = true
		}
	}
	text := fmt.Sprintf("The deadline of %s has passed with no orders from %s.\nThe game waits for %s until %s (the game's late policy: %s).\n",
		g.PhaseTitle, joinPowers(g, missing), joinPowers(g, wait), d.showTime(g.Deadline, nil), policy)
	return d.publish(tx, g, fmt.Sprintf("[%s] Deadline moved: waiting for late orders", g.Name), text, skip)
}

// waitingLate reports whether g's deadline has passed and the game now
// waits for late powers; done is true when every one of them has ordered
// (the phase is then processed at once).
func waitingLate(g *store.Game, st *standing) (waiting, done bool) {
	if g.FirstDeadline.IsZero() || len(g.Graced) == 0 {
		return false, false
	}
	for _, p := range g.Graced {
		if slices.Contains(g.Waiting, p) && !st.sent(p) {
			return true, false
		}
	}
	return true, true
}

// lateNote is the results' line about lateness ("" when everyone who owed
// orders had sent them by the deadline).
func lateNote(g *store.Game, rec *store.PhaseRecord) string {
	late, waited := lateAtDeadline(rec)
	late = slices.DeleteFunc(slices.Clone(late), func(p string) bool { return slices.Contains(rec.Autopilot, p) }) // autopilotNote says them
	if len(late) == 0 {
		return ""
	}
	at := rec.Open.FirstDeadline.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	var came, never []string
	for _, p := range late {
		if len(rec.Orders[p]) > 0 {
			came = append(came, p)
		} else {
			never = append(never, p)
		}
	}
	if len(waited) == 0 && len(came) == 0 {
		return fmt.Sprintf("\nLate: no orders from %s at the deadline (%s): civil disorder.\n", joinPowers(g, late), at)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nLate: no orders from %s at the deadline (%s).\n", joinPowers(g, late), at)
	if len(waited) > 0 {
		fmt.Fprintf(&b, "  The game waited for %s (late=%s).\n", joinPowers(g, waited), latePolicy(g.Options))
	}
	if len(came) > 0 {
		fmt.Fprintf(&b, "  Ordered after the deadline: %s.\n", joinPowers(g, came))
	}
	if len(never) > 0 {
		fmt.Fprintf(&b, "  Sent no orders (civil disorder): %s.\n", joinPowers(g, never))
	}
	return b.String()
}

// lateRules is the sentence RULES and SET give about g's late policy.
func lateRules(o store.GameOptions) string {
	switch latePolicy(o) {
	case latePolicyGrace:
		return fmt.Sprintf("late=grace: at a deadline the game waits %s for a power with no orders, once per player every %d phases, and reminds it", humanDuration(graceOf(o)), graceEvery(o))
	case latePolicyExtend:
		return fmt.Sprintf("late=extend: while a power has no orders the deadline moves on by %s for everyone, at most %s past the first deadline", humanDuration(graceOf(o)), humanDuration(lateLimit(o)))
	}
	return "late=process: the phase is processed at its deadline; a power without orders follows the civil disorder rule"
}
