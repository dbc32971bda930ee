package daemon

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// Orders sent ahead (issue 15 item 16). Where the engine is an
// adjudicator.Aheader, a player's mail may hold the orders of later phases
// of the turn, each group under a section line naming its phase (the
// engine reads the sections: Check.Held). The daemon keeps each power's
// orders for each such phase in the store (store.AheadOrders, one set per
// power and phase, a newer mail replacing it, written in the transaction
// that records the mail) and, when a phase opens with that ID, hands them
// to the engine's Check against the position then and stores what it
// accepts as the power's orders, as if the player had mailed them at that
// moment; the player is told what was accepted and what was refused.
// Orders stored that way count like any other: when every power the
// phase waits for has sent some, the phase ends early by the rule of
// maybeEarly. The engine declares the turn's phases (Turn); the daemon
// compares phase IDs only and guesses nothing.

// holdAhead keeps the orders a mail gave for later phases of the turn and
// returns the part of the reply that says so ("" when it gave none).
func (mc *mailCtx) holdAhead(lines []orders.Line, check *adjudicator.Check) (string, error) {
	if check == nil || len(check.Held) == 0 {
		return "", nil
	}
	if _, ok := mc.engine.(adjudicator.Aheader); !ok {
		return "", nil // only an engine that declares its turn's phases
	}
	p, g := mc.player, mc.game
	var b strings.Builder
	if len(check.Canonical) == 0 {
		var problems []string
		for i := range lines {
			if len(lines[i].Diags) > 0 && (lines[i].Kind == orders.OrderLine || lines[i].Kind == orders.ErrorLine) {
				problems = append(problems, describeLine(&lines[i]))
			}
		}
		fmt.Fprintf(&b, "No orders for %s were stored from this mail; your standing orders for it are unchanged.\n", g.PhaseTitle)
		if len(problems) > 0 {
			fmt.Fprintf(&b, "Please look again at these lines (not stored):\n%s\n", listProblems(dedupe(problems)))
		}
		b.WriteString("\n")
	}
	for i, h := range check.Held {
		if i > 0 {
			b.WriteString("\n")
		}
		if len(h.Lines) == 0 {
			if err := mc.tx.DeleteAhead(g.Name, h.Phase.ID, p.Power); err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "Nothing is held for %s any more: the section for it in your mail has no orders.\n", h.Phase.Title)
			continue
		}
		err := mc.tx.PutAhead(g.Name, store.AheadOrders{
			Power: p.Power, PhaseID: h.Phase.ID, Title: h.Phase.Title, Address: p.Address, Rank: p.Rank,
			MsgID: mc.in.MsgID, Received: mc.now.UTC(), Lines: h.Lines,
		})
		if err != nil {
			return "", err
		}
		if err := mc.audit("ahead", fmt.Sprintf("%s: %s: %d lines", p.Power, h.Phase.ID, len(h.Lines))); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "Held for %s until it opens, then read against the position as if you mailed them then (a later mail with a section for %s replaces them):\n", h.Phase.Title, h.Phase.Key)
		for _, l := range h.Lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// openAhead runs when a phase of g opens to the players (after the
// results of the last one are out): the orders held for it become the
// powers' orders, checked against state, and each power's players are
// told what was accepted; held sets whose phase has passed are dropped.
// Then the phase may end at once, if every power it waits for has orders.
func (d *Daemon) openAhead(tx *txn, g *store.Game, e adjudicator.Engine, state []byte, now time.Time) error {
	ah, ok := e.(adjudicator.Aheader)
	if !ok || g.Status != store.Active || g.Pending != nil {
		return nil
	}
	all, err := tx.Ahead(g.Name)
	if err != nil || len(all) == 0 {
		return err
	}
	turn, err := ah.Turn(state)
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, tp := range turn {
		keep[tp.ID] = tp.Open || tp.Ahead
	}
	type applied struct {
		h     store.AheadOrders
		check adjudicator.Check
	}
	var opened []applied
	for _, h := range all {
		switch {
		case !keep[h.PhaseID]:
			// Its phase is over (or never comes): nothing to hold it for.
			if err := tx.DeleteAhead(g.Name, h.PhaseID, h.Power); err != nil {
				return err
			}
			continue
		case h.PhaseID != g.PhaseID:
			continue // a later phase
		}
		// Kept while its phase is open: a ROLLBACK of the phase before
		// opens it again, and the orders are applied again.
		c, err := e.Check(state, h.Power, strings.Join(h.Lines, "\n"))
		if err != nil {
			// An engine that cannot read its own lines is a bug: the
			// phase opens without them rather than stalling every tick.
			d.log.Error("orders sent ahead not read; dropped", "game", g.Name, "phase", h.PhaseID, "power", h.Power, "err", err)
			if err := tx.DeleteAhead(g.Name, h.PhaseID, h.Power); err != nil {
				return err
			}
			continue
		}
		if len(c.Canonical) > 0 {
			set := store.OrderSet{Power: h.Power, Address: h.Address, Rank: h.Rank, MsgID: h.MsgID, Received: now.UTC(), Lines: c.Canonical}
			if err := tx.AddOrderSet(g.Name, g.Phase, set); err != nil {
				return err
			}
			if err := tx.Audit(store.AuditEntry{Time: now.UTC(), Game: g.Name, Actor: "daemon", Action: "orders ahead", Detail: fmt.Sprintf("%s: %s: %d lines", h.Power, h.PhaseID, len(c.Canonical)), MsgID: h.MsgID}); err != nil {
				return err
			}
		}
		opened = append(opened, applied{h, c})
	}
	if len(opened) == 0 {
		return nil
	}
	deadline := g.Deadline
	if err := d.maybeEarly(tx, g, e, state, now); err != nil {
		return err
	}
	st, err := loadStanding(tx.Tx, g)
	if err != nil {
		return err
	}
	ps, err := e.Status(state)
	if err != nil {
		return err
	}
	for _, a := range opened {
		for i := range g.Players {
			p := &g.Players[i]
			if p.Left || p.Power != a.h.Power {
				continue
			}
			mc := &mailCtx{d: d, tx: tx, game: g, player: p, engine: e, state: state, now: now}
			err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: fmt.Sprintf("[%s] %s — your orders sent ahead", g.Name, g.PhaseTitle),
				Text: mc.aheadText(a.h, a.check, ps, st), ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID})
			if err != nil {
				return err
			}
		}
	}
	if g.Deadline.Equal(deadline) {
		return nil
	}
	return tx.PutGame(g)
}

// aheadText tells a player what became of the orders held for the phase
// that has just opened.
func (mc *mailCtx) aheadText(h store.AheadOrders, c adjudicator.Check, ps adjudicator.Status, st *standing) string {
	g := mc.game
	var b strings.Builder
	fmt.Fprintf(&b, "%s has opened. The orders you sent ahead for it (%s) have been read against the position now, as if you mailed them at this moment.\n",
		g.PhaseTitle, h.Received.UTC().Format("Mon 2 Jan 15:04 UTC"))
	if len(c.Canonical) > 0 {
		b.WriteString("\nAccepted: your orders for " + g.PhaseTitle + " now stand as:\n")
		for _, l := range c.Canonical {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	} else {
		fmt.Fprintf(&b, "\nNone of them could be accepted: you have no orders for %s yet.\n", g.PhaseTitle)
	}
	var refused, warned []string
	for i := range c.Lines {
		l := &c.Lines[i]
		for _, dg := range l.Diags {
			line := fmt.Sprintf("  %s: %s", strings.TrimSpace(l.Text), dg.Message)
			if dg.Severity == orders.Error {
				refused = append(refused, line)
			} else {
				warned = append(warned, line)
			}
		}
	}
	if len(refused) > 0 {
		b.WriteString("\nRefused (not stored), as the position is now:\n" + listProblems(dedupe(refused)) + "\n")
	}
	if len(warned) > 0 {
		b.WriteString("\nPlease look again at these (they are carried out exactly as they stand):\n" + listProblems(dedupe(warned)) + "\n")
	}
	if len(c.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	b.WriteString("\n" + mc.whatNext(ps, h.Power, st))
	if !slices.Contains(g.Waiting, h.Power) || !g.Deadline.After(mc.now) {
		return b.String() + "\n"
	}
	return b.String() + fmt.Sprintf("\nDeadline: %s.\n", mc.d.showTime(g.Deadline, mc.player))
}

// helpAhead is HELP's sentence on orders sent ahead, for an engine that
// lets the open turn's later phases be ordered now ("" otherwise).
func (mc *mailCtx) helpAhead() string {
	ah, ok := mc.engine.(adjudicator.Aheader)
	if !ok || mc.state == nil {
		return ""
	}
	turn, err := ah.Turn(mc.state)
	if err != nil {
		return ""
	}
	var later []string
	key := ""
	for _, tp := range turn {
		if tp.Ahead {
			later = append(later, tp.Title)
			if key == "" {
				key = tp.Key
			}
		}
	}
	if len(later) == 0 {
		return ""
	}
	return fmt.Sprintf("The same mail may carry orders for %s, each group under a line naming its phase (PHASE %s).\nThey are held until that phase opens, then read as if you mailed them then (RULES: ORDERS AHEAD).\n", adjudicator.List(later), key)
}

// statusAhead writes, for STATUS, what the reader's power holds for later
// phases of the turn.
func (mc *mailCtx) statusAhead(b *strings.Builder) error {
	ah, ok := mc.engine.(adjudicator.Aheader)
	if !ok {
		return nil
	}
	turn, err := ah.Turn(mc.state)
	if err != nil {
		return err
	}
	ahead := map[string]bool{}
	for _, tp := range turn {
		ahead[tp.ID] = tp.Ahead
	}
	all, err := mc.tx.Ahead(mc.game.Name)
	if err != nil {
		return err
	}
	first := true
	for _, h := range all {
		if h.Power != mc.player.Power || !ahead[h.PhaseID] {
			continue
		}
		if first {
			b.WriteString("Sent ahead, held until their phase opens:\n")
			first = false
		}
		fmt.Fprintf(b, "  %s: %s\n", h.Title, strings.Join(h.Lines, "; "))
	}
	return nil
}
