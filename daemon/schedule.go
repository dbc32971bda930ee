package daemon

import (
	"fmt"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// Schedule is when phases end. The defaults are the seed's: Spring orders
// 48 h, retreats 24 h, Fall orders 48 h, Fall retreats 24 h, builds 24 h,
// every deadline at 21:00 GMT.
//
// A deadline is the first DeadlineHour:00 (in DeadlineZone) that is at least
// the phase's duration minus Slack after the phase opened: a phase opened a
// few minutes after 21:00 still ends at 21:00 two days later, and a game
// created at breakfast gets its first 21:00 that leaves the full time.
//
// The fast pace (chosen by a PACE vote or the GM) gives order phases Fast
// each; retreat and build phases are folded into the next order phase: they
// end as soon as every power that owes orders has sent them, at the latest
// FastAdjust after they open, and the next order deadline is still counted
// from the end of the last order phase, so a whole year takes two days.
//
// That is the rolling schedule. On the weekly calendar (calendar.go, the
// default of games whose engine declares a fixed year) the same lengths,
// laid end to end over the engine's year, give each phase its day in the
// week, and a skipped phase keeps its day. What a deadline does to a power
// without orders is the game's late policy (grace.go); announced absences
// move deadlines (absence.go).
type Schedule struct {
	Orders       time.Duration   `toml:"orders"`
	Retreats     time.Duration   `toml:"retreats"`
	Builds       time.Duration   `toml:"builds"`
	Turn         time.Duration   `toml:"turn"` // a sequential game's turn
	Fast         time.Duration   `toml:"fast"`
	FastAdjust   time.Duration   `toml:"fast_adjust"`
	DeadlineHour int             `toml:"deadline_hour"`
	DeadlineZone string          `toml:"deadline_zone"`
	Slack        time.Duration   `toml:"slack"`
	Reminders    []time.Duration `toml:"reminders"`  // before a deadline, to powers with missing orders
	PauseCap     time.Duration   `toml:"pause_cap"`  // a longer pause must be renewed
	LateGrace    time.Duration   `toml:"late_grace"` // processed later than this after its deadline = late
}

// DefaultSchedule is the seed's schedule.
func DefaultSchedule() Schedule {
	return Schedule{
		Orders:       48 * time.Hour,
		Retreats:     24 * time.Hour,
		Builds:       24 * time.Hour,
		Turn:         48 * time.Hour,
		Fast:         24 * time.Hour,
		FastAdjust:   4 * time.Hour,
		DeadlineHour: 21,
		DeadlineZone: "UTC",
		Slack:        6 * time.Hour,
		Reminders:    []time.Duration{24 * time.Hour, 2 * time.Hour},
		PauseCap:     7 * 24 * time.Hour,
		LateGrace:    15 * time.Minute,
	}
}

// Validate checks every length of the schedule: positive (0 is the
// default) and at most 90 days, the bound of a GM's own durations; a
// longer one would put deadlines or the end of a pause past any sane date.
// Lengths under a minute are allowed here (tests and demos run whole games
// in seconds); a GM's EXTEND and turn_time are not.
func (s Schedule) Validate() error {
	lengths := []struct {
		key string
		d   time.Duration
	}{
		{"orders", s.Orders}, {"retreats", s.Retreats}, {"builds", s.Builds}, {"turn", s.Turn},
		{"fast", s.Fast}, {"fast_adjust", s.FastAdjust}, {"slack", s.Slack}, {"pause_cap", s.PauseCap},
		{"late_grace", s.LateGrace},
	}
	for _, r := range s.Reminders {
		lengths = append(lengths, struct {
			key string
			d   time.Duration
		}{"reminders", r})
	}
	for _, l := range lengths {
		if l.d < 0 || l.d > maxDuration {
			return fmt.Errorf("schedule.%s %s: it must be positive and at most 90 days (2160h)", l.key, l.d)
		}
	}
	return nil
}

func (s Schedule) withDefaults() Schedule {
	d := DefaultSchedule()
	if s.Orders == 0 {
		s.Orders = d.Orders
	}
	if s.Retreats == 0 {
		s.Retreats = d.Retreats
	}
	if s.Builds == 0 {
		s.Builds = d.Builds
	}
	if s.Turn == 0 {
		s.Turn = d.Turn
	}
	if s.Fast == 0 {
		s.Fast = d.Fast
	}
	if s.FastAdjust == 0 {
		s.FastAdjust = d.FastAdjust
	}
	if s.DeadlineZone == "" {
		s.DeadlineZone = d.DeadlineZone
	}
	if s.Slack == 0 {
		s.Slack = d.Slack
	}
	if s.Reminders == nil {
		s.Reminders = d.Reminders
	}
	if s.PauseCap == 0 {
		s.PauseCap = d.PauseCap
	}
	if s.LateGrace == 0 {
		s.LateGrace = d.LateGrace
	}
	return s
}

// atSlot returns the first DeadlineHour:00 at or after t. A negative
// DeadlineHour means deadlines fall exactly, with no slot (tests, demo).
func (s Schedule) atSlot(t time.Time) time.Time {
	if s.DeadlineHour < 0 {
		return t
	}
	loc, err := loadZone(s.DeadlineZone)
	if err != nil {
		loc = time.UTC
	}
	lt := t.In(loc)
	slot := time.Date(lt.Year(), lt.Month(), lt.Day(), s.DeadlineHour, 0, 0, 0, loc)
	for slot.Before(t) {
		slot = slot.AddDate(0, 0, 1)
	}
	return slot.UTC()
}

func (s Schedule) due(start time.Time, d time.Duration) time.Time {
	if s.DeadlineHour < 0 {
		return start.Add(d)
	}
	return s.atSlot(start.Add(d - s.Slack))
}

// gameDeadline is Deadline with a game's own turn length for the turns
// and steps of sequential games (the GM's turn_time option).
func (s Schedule) gameDeadline(o store.GameOptions, kind adjudicator.PhaseKind, start, lastOrdersEnd time.Time) time.Time {
	if kind == adjudicator.PhaseTurn && o.TurnTime > 0 {
		return start.Add(o.TurnTime)
	}
	return s.Deadline(kind, o.Pace, start, lastOrdersEnd)
}

// Deadline is when a phase of the given kind, opened at start, ends.
// lastOrdersEnd is when the previous order phase ended (fast pace).
func (s Schedule) Deadline(kind adjudicator.PhaseKind, pace store.Pace, start, lastOrdersEnd time.Time) time.Time {
	if pace == store.PaceFast {
		switch kind {
		case adjudicator.PhaseRetreat, adjudicator.PhaseBuild:
			return start.Add(s.FastAdjust)
		case adjudicator.PhaseOrders:
			if !lastOrdersEnd.IsZero() && start.Sub(lastOrdersEnd) < s.Fast/2 {
				// Folded: the year's retreats and builds came out of this
				// order phase's time.
				return s.due(lastOrdersEnd, s.Fast)
			}
			return s.due(start, s.Fast)
		}
		return s.due(start, s.Fast)
	}
	switch kind {
	case adjudicator.PhaseRetreat:
		return s.due(start, s.Retreats)
	case adjudicator.PhaseBuild:
		return s.due(start, s.Builds)
	case adjudicator.PhaseTurn:
		return s.due(start, s.Turn)
	}
	return s.due(start, s.Orders)
}
