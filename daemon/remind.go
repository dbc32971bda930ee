package daemon

import (
	"fmt"
	"slices"
	"time"

	"pbemd/store"
)

// Before a deadline: the reminders Tick sends to the powers that still
// owe orders.

// remind mails the powers that still owe orders when a deadline comes
// within one of the schedule's reminder offsets.
func (d *Daemon) remind(now time.Time) error {
	var horizon time.Duration
	for _, r := range d.opt.Schedule.Reminders {
		horizon = max(horizon, r)
	}
	if horizon == 0 {
		return nil
	}
	// Not the games due already (before now's second): their deadline
	// has passed, so nobody is reminded of it (remindGame), and a burst of
	// deadlines would read each of them once more for nothing.
	var names []string
	if err := d.db.View(func(tx *store.Tx) error {
		names = tx.DueBetween(now, now.Add(horizon))
		return nil
	}); err != nil {
		return err
	}
	if len(names) == 0 {
		return nil
	}
	for start := 0; start < len(names); start += tickBatch {
		batch := names[start:min(start+tickBatch, len(names))]
		err := d.update(func(tx *txn) error {
			for _, name := range batch {
				if err := d.remindGame(tx, name, now); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *Daemon) remindGame(tx *txn, name string, now time.Time) error {
	g, err := tx.Game(name)
	if err != nil || g.Status != store.Active || g.Paused || g.Pending != nil || !g.Deadline.After(now) {
		return err
	}
	left := g.Deadline.Sub(now)
	length := g.Deadline.Sub(g.PhaseStarted)
	var due store.Offsets
	send := false
	for _, r := range d.opt.Schedule.Reminders {
		if left <= r && !slices.Contains(g.Reminded, r) {
			due = append(due, r)
			// A phase hardly longer than the offset gets no reminder for
			// it: the players have just had the results.
			send = send || length > r+r/4
		}
	}
	if len(due) == 0 {
		return nil
	}
	g.Reminded = append(g.Reminded, due...)
	if !send {
		return tx.PutGame(g)
	}
	st, err := loadStanding(tx.Tx, g)
	if err != nil {
		return err
	}
	for _, power := range g.Waiting {
		if st.sent(power) {
			continue
		}
		for i := range g.Players {
			p := &g.Players[i]
			if p.Power != power || p.Left {
				continue
			}
			text := fmt.Sprintf("Reminder: I have no orders from %s for %s of %s.\nDeadline: %s (in %s).\n\nReply to this mail with your orders. What you do not order follows the civil disorder rule (RULES explains it).",
				powerName(g, power), g.PhaseTitle, g.Name, d.showTime(g.Deadline, p), humanDuration(left))
			if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: fmt.Sprintf("[%s] Reminder: %s orders due", g.Name, g.PhaseTitle), Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
				return err
			}
		}
	}
	if err := d.remindOffers(tx, g, now); err != nil { // offers.go
		return err
	}
	return tx.PutGame(g)
}
