package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/rating"
	"pbemd/store"
)

// Reliability records (issue 16 item 4): per address, across every game
// on this daemon, the phases its power ordered in time or missed, the games
// it finished and those it resigned from or was removed from. A power's
// senior diplomat (the one player of a power, in games with one player per
// power) answers for it: a phase in which the power owed orders counts for
// its senior as on time when the power had orders at processing (its own
// or the GM's SET ORDERS) and was not late at the deadline, as late when
// they came after it (in a grace or an extension: the results' "Ordered
// after the deadline"), as missed when it had none; juniors are not
// counted, nor is a power without a player. Each event is written by the
// transaction that caused it, under a key of its own (store/records.go),
// so a phase processed again after ROLLBACK counts once.

// countPhase counts the phase of g being processed (g still holds it as
// its open phase) for the seniors of the powers that owed orders; ords
// are the orders the phase was resolved with.
func countPhase(tx *store.Tx, g *store.Game, ords map[string][]string) error {
	for _, power := range g.Waiting {
		senior := seniorOf(g, power)
		if senior == "" {
			continue
		}
		ev := store.EventMissed
		if _, ok := ords[power]; ok {
			ev = store.EventOnTime
			if slices.Contains(g.Late, power) { // late at the first deadline (grace.go)
				ev = store.EventLate
			}
		}
		if err := tx.CountPhase(senior, g.Name, g.Phase, ev); err != nil {
			return fmt.Errorf("reliability record of %s: %w", senior, err)
		}
	}
	return nil
}

// countFinished counts g's end for everyone still playing in it.
func countFinished(tx *store.Tx, g *store.Game) error {
	for _, p := range g.Players {
		if p.Left || p.Power == "" {
			continue
		}
		if err := tx.CountGame(p.Address, g.Name, store.EventFinished); err != nil {
			return fmt.Errorf("reliability record of %s: %w", p.Address, err)
		}
	}
	return nil
}

// countLeft counts a RESIGN, or the GM's EJECT, of p from a running game.
func countLeft(tx *store.Tx, g *store.Game, p *store.Player, how store.Departure) error {
	if g.Status != store.Active {
		return nil
	}
	ev := store.EventResigned
	switch how {
	case store.LeftResigned:
	case store.LeftEjected:
		ev = store.EventEjected
	default:
		return nil
	}
	return tx.CountGame(p.Address, g.Name, ev)
}

// recordText is an address's record in one line, for STATUS and the GM.
func recordText(r store.Record) string {
	if r.Games == 0 {
		return "nothing counted yet"
	}
	s := fmt.Sprintf("%d phase%s ordered on time, %d late, %d missed", r.OnTime, plural(r.OnTime), r.Late, r.Missed)
	if r.Phases() > 0 {
		s += fmt.Sprintf(" (%d%% on time)", r.OnTimePercent())
	}
	s += fmt.Sprintf("; %d game%s finished, %d resigned", r.Finished, plural(r.Finished), r.Resigned)
	if r.Ejected > 0 {
		s += fmt.Sprintf(", %d removed by the GM", r.Ejected)
	}
	return s
}

// recordBars says why addr may not join g by the game's minimum record
// ("" when they may). An address with no counted phase may join: a
// newcomer has no record to fall short of.
func recordBars(tx *store.Tx, g *store.Game, addr string) string {
	min := g.Options.MinOnTime
	if min <= 0 {
		return ""
	}
	r := tx.RecordOf(addr)
	if r.Phases() == 0 || r.OnTimePercent() >= min {
		return ""
	}
	return fmt.Sprintf("%s takes players who ordered on time in at least %d%% of their phases on this game master; your record: %s.", g.Name, min, recordText(r))
}

// statusRecord is what STATUS shows of records: a player their own, the
// GM every player's and sign-up's (the GM decides on sign-ups with them;
// a senior diplomat sees only the record of whoever asks to be their
// junior, in the request: diplomats.go).
func (mc *mailCtx) statusRecord() string {
	switch {
	case mc.player != nil:
		return "\nYour record on this game master: " + recordText(mc.tx.RecordOf(mc.player.Address)) + ".\n"
	case !mc.gm:
		return ""
	}
	var b strings.Builder
	rs, err := ratings(mc.tx.Tx) // ratings.go
	if err != nil {
		mc.d.log.Warn("no ratings in STATUS", "err", err)
	}
	for _, p := range mc.game.Players {
		if p.Left {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\nThe players' records and ratings on this game master (for you, the GM):\n")
		}
		role := "signed up"
		if p.Power != "" {
			role = powerName(mc.game, p.Power)
		}
		r, ok := rs[strings.ToLower(p.Address)]
		if !ok {
			r = rating.New()
		}
		fmt.Fprintf(&b, "  %s (%s): %s; rating %s\n", p.Address, role, recordText(mc.tx.RecordOf(p.Address)), ratingText(r))
	}
	return b.String()
}
