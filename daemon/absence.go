package daemon

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pbemd/orders"
	"pbemd/store"
)

// Absence (issue 16 item 3): a player announces ahead that they will be
// away, SET ABSENCE from <date> to <date> (whole days, UTC; njudge's SET
// ABSENCE), within an allowance of absence_days= (14) days per player per
// game. What it does is the game's absence= option:
//
//   - move (the default): a deadline that falls in the absence, while the
//     absent player's power owes orders, moves to 21:00 (the deadline hour)
//     of the day after it ends: the game waits for them.
//   - pause: the clock stops for the absence: a phase open during it gets
//     the time the absence took from it added to its deadline.
//   - off: absences are not taken.
//
// Everyone in the game is told of the absence and of any deadline it moves.
// SET ABSENCE OFF withdraws the player's absences that have not begun
// (their days return to the allowance).
const (
	absenceMove  = "move"
	absencePause = "pause"
	absenceOff   = "off"

	defaultAbsenceDays = 14
	maxAbsenceDays     = 365
	maxAbsences        = 20 // per player per game: the list stays small
)

// verbAbsence is SET ABSENCE, which the parser reads as a SET option
// (command turns it into this verb: a player's command, not the GM's).
const verbAbsence orders.Verb = "ABSENCE"

func absencePolicy(o store.GameOptions) string {
	if o.Absence == "" {
		return absenceMove
	}
	return o.Absence
}

func absenceAllowance(o store.GameOptions) int {
	if o.AbsenceDays > 0 {
		return o.AbsenceDays
	}
	return defaultAbsenceDays
}

// absenceEnd is when absence a is over: the end of its last day.
func absenceEnd(a store.Absence) time.Time { return a.To.AddDate(0, 0, 1) }

func absenceDays(a store.Absence) int { return int(absenceEnd(a).Sub(a.From) / (24 * time.Hour)) }

// usedAbsence is the days of absence addr has announced in g.
func usedAbsence(g *store.Game, addr string) int {
	n := 0
	for _, a := range g.Absences {
		if a.Address == addr {
			n += absenceDays(a)
		}
	}
	return n
}

// parseAbsence reads "from 2026-12-20 to 2026-12-27" (or "2026-12-20 to
// 2026-12-27", "from 2026-12-20 until 2026-12-27", one date alone).
func parseAbsence(s string) (from, to time.Time, err error) {
	f := strings.Fields(strings.ToLower(s))
	var dates []string
	for _, w := range f {
		switch w {
		case "from", "to", "until", "till", "-":
			continue
		}
		dates = append(dates, w)
	}
	if len(dates) == 0 || len(dates) > 2 {
		return from, to, fmt.Errorf("write SET ABSENCE from 2026-12-20 to 2026-12-27 (whole days, UTC)")
	}
	if from, err = time.Parse("2006-01-02", dates[0]); err != nil {
		return from, to, fmt.Errorf("%q is not a date I can read; write it as 2026-12-20", dates[0])
	}
	to = from
	if len(dates) == 2 {
		if to, err = time.Parse("2006-01-02", dates[1]); err != nil {
			return from, to, fmt.Errorf("%q is not a date I can read; write it as 2026-12-27", dates[1])
		}
	}
	if to.Before(from) {
		return from, to, fmt.Errorf("the absence ends (%s) before it begins (%s)", dates[1], dates[0])
	}
	return from, to, nil
}

func cmdAbsence(mc *mailCtx, cmd *orders.Command) error {
	g, p := mc.game, mc.player
	if g.Status == store.Finished {
		mc.say("SET ABSENCE: %s is over.", g.Name)
		return nil
	}
	if absencePolicy(g.Options) == absenceOff {
		mc.say("SET ABSENCE: %s takes no absences (the GM's absence option is off). Write to the GM if you must be away.", g.Name)
		return nil
	}
	arg := strings.TrimSpace(cmd.Arg)
	if strings.EqualFold(arg, "off") || strings.EqualFold(arg, "none") {
		return withdrawAbsence(mc)
	}
	from, to, err := parseAbsence(arg)
	if err != nil {
		mc.say("SET ABSENCE refused: %v. Nothing was changed.", err)
		return nil
	}
	today := time.Date(mc.now.Year(), mc.now.Month(), mc.now.Day(), 0, 0, 0, 0, time.UTC)
	a := store.Absence{Address: p.Address, Power: p.Power, From: from, To: to}
	left := absenceAllowance(g.Options) - usedAbsence(g, p.Address)
	n := 0
	for _, x := range g.Absences {
		if x.Address == p.Address {
			n++
		}
	}
	switch {
	case from.Before(today):
		mc.say("SET ABSENCE refused: %s is in the past; announce an absence ahead. Nothing was changed.", from.Format("2006-01-02"))
		return nil
	case from.After(mc.now.Add(maxAhead)):
		mc.say("SET ABSENCE refused: %s is more than a year ahead. Nothing was changed.", from.Format("2006-01-02"))
		return nil
	case absenceDays(a) > left:
		mc.say("SET ABSENCE refused: that is %d days, and you have %d of your %d days of absence in %s left. Nothing was changed.", absenceDays(a), max(left, 0), absenceAllowance(g.Options), g.Name)
		return nil
	case n >= maxAbsences:
		mc.say("SET ABSENCE refused: you have announced %d absences in %s already. Nothing was changed.", n, g.Name)
		return nil
	}
	for _, x := range g.Absences {
		if x.Address == p.Address && !from.After(x.To) && !x.From.After(to) {
			mc.say("SET ABSENCE refused: it overlaps your absence from %s to %s. Nothing was changed.", x.From.Format("2006-01-02"), x.To.Format("2006-01-02"))
			return nil
		}
	}
	g.Absences = append(g.Absences, a)
	old := g.Deadline
	if g.Status == store.Active && !g.Paused && g.Pending == nil && !g.Deadline.IsZero() {
		g.Deadline = mc.d.absenceDeadline(g, &g.OpenPhase, []store.Absence{a}, g.Deadline)
	}
	if err := mc.audit("absence", a.From.Format("2006-01-02")+" to "+a.To.Format("2006-01-02")); err != nil {
		return err
	}
	mc.say("Your absence from %s to %s (%d day%s) is noted; %d of your %d days of absence in %s are left.",
		a.From.Format("Mon 2 Jan 2006"), a.To.Format("Mon 2 Jan 2006"), absenceDays(a), plural(absenceDays(a)), left-absenceDays(a), absenceAllowance(g.Options), g.Name)
	who := "The player of " + powerName(g, p.Power)
	if p.Rank > 0 {
		who = "A junior diplomat of " + powerName(g, p.Power) // the senior's absence is the one that moves deadlines
	}
	text := fmt.Sprintf("%s will be away from %s to %s (whole days, UTC).\n%s\n",
		who, a.From.Format("Mon 2 Jan 2006"), a.To.Format("Mon 2 Jan 2006"), absenceRule(g.Options))
	if !g.Deadline.Equal(old) {
		g.Reminded = nil
		text += fmt.Sprintf("The deadline of %s moves from %s to %s.\n", g.PhaseTitle, mc.d.showTime(old, nil), mc.d.showTime(g.Deadline, nil))
	}
	return mc.announce("Schedule: an absence", text)
}

func withdrawAbsence(mc *mailCtx) error {
	g, p := mc.game, mc.player
	kept := g.Absences[:0:0]
	n := 0
	for _, a := range g.Absences {
		if a.Address == p.Address && a.From.After(mc.now) {
			n++
			continue
		}
		kept = append(kept, a)
	}
	g.Absences = kept
	if n == 0 {
		mc.say("SET ABSENCE OFF: you have no absence that has not begun.")
		return nil
	}
	mc.say("SET ABSENCE OFF: %d absence%s withdrawn. Deadlines already moved stay as they are.", n, plural(n))
	return mc.announce("Schedule: an absence withdrawn", fmt.Sprintf("The player of %s has withdrawn %d announced absence%s.\n", powerName(g, p.Power), n, plural(n)))
}

// absenceDeadline is deadline dl of phase p of g after the absences as
// (sorted by their start; each once, so the work is linear in them),
// under the game's absence policy. Only the absences of powers that owe
// orders in the phase count.
func (d *Daemon) absenceDeadline(g *store.Game, p *store.OpenPhase, as []store.Absence, dl time.Time) time.Time {
	as = slices.Clone(as)
	slices.SortFunc(as, func(a, b store.Absence) int { return a.From.Compare(b.From) })
	policy := absencePolicy(g.Options)
	for _, a := range as {
		if policy == absenceOff || !slices.Contains(p.Waiting, a.Power) || seniorOf(g, a.Power) != a.Address {
			continue
		}
		end := absenceEnd(a)
		switch policy {
		case absenceMove:
			if !dl.Before(a.From) && dl.Before(end) {
				dl = d.opt.Schedule.atSlot(end)
			}
		case absencePause:
			start := a.From
			if p.PhaseStarted.After(start) {
				start = p.PhaseStarted
			}
			if dl.After(start) && end.After(start) {
				dl = dl.Add(end.Sub(start))
			}
		}
	}
	return dl.UTC()
}

// absenceRule is the sentence about absences under o.
func absenceRule(o store.GameOptions) string {
	switch absencePolicy(o) {
	case absencePause:
		return fmt.Sprintf("absence=pause: the clock stops while a player whose power owes orders is away (up to %d days per player per game)", absenceAllowance(o))
	case absenceOff:
		return "absence=off: absences are not taken"
	}
	return fmt.Sprintf("absence=move: a deadline falling in the absence of a player whose power owes orders moves to the deadline hour of the day after it (up to %d days per player per game)", absenceAllowance(o))
}
