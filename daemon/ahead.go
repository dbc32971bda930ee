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
			if lines[i].Noted() {
				problems = append(problems, describeLine(&lines[i]))
			}
		}
		fmt.Fprintf(&b, "No orders for %s were stored from this mail; your standing orders for it are unchanged.\n", g.PhaseTitle)
		if len(problems) > 0 {
			fmt.Fprintf(&b, "Please look again at these lines (not stored):\n%s\n", listProblems(dedupe(problems)))
		}
		b.WriteString("\n")
	}
	changes, err := mc.keepHeld(p.Power, p.Address, p.Rank, check.Held)
	if err != nil {
		return "", err
	}
	for i, h := range changes {
		if i > 0 {
			b.WriteString("\n")
		}
		if len(h.lines) == 0 {
			fmt.Fprintf(&b, "Nothing is held for %s any more: the section for it in your mail has no orders.\n", h.phase.Title)
			continue
		}
		fmt.Fprintf(&b, "Held for %s until it opens, then read against the position as if you mailed them then (a later mail with a section for %s replaces them):\n", h.phase.Title, h.phase.Key)
		for _, l := range h.lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// heldChange is what a mail did to the orders a power holds for one later
// phase of the turn: lines are the orders held now (none: withdrawn).
type heldChange struct {
	phase adjudicator.TurnPhase
	lines []string
}

// keepHeld stores the sections of a mail (held, from Check.Held) as the
// orders power holds for their phases, sent by address (rank): a section
// replaces what was held for its phase, an empty one withdraws it. The
// GM's SET ORDERS holds with address "" (store.OrderSet's mark of the
// GM's orders, which they become when their phase opens).
func (mc *mailCtx) keepHeld(power, address string, rank int, held []adjudicator.Held) ([]heldChange, error) {
	g := mc.game
	out := make([]heldChange, 0, len(held))
	for _, h := range held {
		out = append(out, heldChange{h.Phase, h.Lines})
		if len(h.Lines) == 0 {
			if err := mc.tx.DeleteAhead(g.Name, h.Phase.ID, power); err != nil {
				return nil, err
			}
			continue
		}
		err := mc.tx.PutAhead(g.Name, store.AheadOrders{
			Power: power, PhaseID: h.Phase.ID, Title: h.Phase.Title, Address: address, Rank: rank,
			MsgID: mc.in.MsgID, Received: mc.now.UTC(), Lines: h.Lines,
		})
		if err != nil {
			return nil, err
		}
		if err := mc.audit("ahead", fmt.Sprintf("%s: %s: %d lines", power, h.Phase.ID, len(h.Lines))); err != nil {
			return nil, err
		}
	}
	return out, nil
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
		told  []string // whom its offers were told to (offers.go)
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
		var told []string
		if len(c.Canonical) > 0 {
			// The offers the orders make, change or answer are told as
			// if the power had mailed them now (offers.go); the notice
			// says whom they were told to: the power's ("your offer"),
			// or, for orders the GM set, the GM's too (its name).
			fw := &mailCtx{d: d, tx: tx, game: g, engine: e, state: state, now: now, log: d.log}
			if h.Address != "" {
				fw.player = &store.Player{Power: h.Power}
			}
			offers, _, err := fw.standingOffers()
			if err != nil {
				return err
			}
			// Held by the GM's SET ORDERS (no address): the GM's orders.
			set := store.OrderSet{Power: h.Power, Address: h.Address, Rank: h.Rank, GM: h.Address == "", MsgID: h.MsgID, Received: now.UTC(), Lines: c.Canonical}
			if err := tx.AddOrderSet(g.Name, g.Phase, set); err != nil {
				return err
			}
			if err := tx.Audit(store.AuditEntry{Time: now.UTC(), Game: g.Name, Actor: "daemon", Action: "orders ahead", Detail: fmt.Sprintf("%s: %s: %d lines", h.Power, h.PhaseID, len(c.Canonical)), MsgID: h.MsgID}); err != nil {
				return err
			}
			if err := fw.forwardOffers(offers); err != nil {
				return err
			}
			told = fw.reply
		}
		opened = append(opened, applied{h, c, told})
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
				Text: mc.aheadText(a.h, a.check, a.told, ps, st), ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID})
			if err != nil {
				return err
			}
		}
		if a.h.Address == "" { // the GM set them: the GM hears what became of them
			mc := &mailCtx{d: d, tx: tx, game: g, engine: e, state: state, now: now}
			err := d.gmCopy(tx, g, fmt.Sprintf("[%s] %s — orders the GM set ahead for %s", g.Name, g.PhaseTitle, powerName(g, a.h.Power)),
				mc.aheadText(a.h, a.check, a.told, ps, st))
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

// aheadText tells a player (mc.player; nil: the GM, of orders the GM set
// ahead) what became of the orders held for the phase that has just
// opened; told is whom the offers in them were told to.
func (mc *mailCtx) aheadText(h store.AheadOrders, c adjudicator.Check, told []string, ps adjudicator.Status, st *standing) string {
	g := mc.game
	pn := powerName(g, h.Power)
	var b strings.Builder
	at := h.Received.UTC().Format("Mon 2 Jan 15:04 UTC")
	intro := fmt.Sprintf("The orders you sent ahead for it (%s) have been read against the position now, as if you mailed them at this moment.", at)
	if h.Address == "" { // held by the GM's SET ORDERS
		who := "you"
		if mc.player == nil {
			who = "its diplomats"
		}
		intro = fmt.Sprintf("The orders the GM set ahead for %s (SET ORDERS, %s) have been read against the position now, as if %s mailed them at this moment.", pn, at, who)
	}
	fmt.Fprintf(&b, "%s has opened. %s\n", g.PhaseTitle, intro)
	whose := "your orders"
	if mc.player == nil {
		whose = "the orders of " + pn
	}
	if len(c.Canonical) > 0 {
		fmt.Fprintf(&b, "\nAccepted: %s for %s now stand as:\n", whose, g.PhaseTitle)
		for _, l := range c.Canonical {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	} else if mc.player == nil {
		fmt.Fprintf(&b, "\nNone of them could be accepted: %s has no orders for %s from them.\n", pn, g.PhaseTitle)
	} else {
		fmt.Fprintf(&b, "\nNone of them could be accepted: you have no orders for %s yet.\n", g.PhaseTitle)
	}
	if len(told) > 0 {
		b.WriteString("\n" + strings.Join(told, "\n") + "\n")
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
		if mc.player == nil {
			fmt.Fprintf(&b, "Notes to %s:\n", pn)
		}
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	if mc.player == nil { // the GM's copy: the power's diplomats are told what comes next
		return b.String()
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
	held, err := mc.heldList(mc.player.Power, nil)
	if err != nil || len(held) == 0 {
		return err
	}
	b.WriteString("Sent ahead, held until their phase opens:\n" + strings.Join(held, ""))
	return nil
}

// stillHeld is the part of an acknowledgement that lists what the
// sender's power still holds for later phases its mail had no section
// for (sections: Check.Held), "" when nothing: a mail without a section
// for a phase leaves what is held for it as it was.
func (mc *mailCtx) stillHeld(sections []adjudicator.Held) (string, error) {
	skip := map[string]bool{}
	for _, h := range sections {
		skip[h.Phase.ID] = true
	}
	held, err := mc.heldList(mc.player.Power, skip)
	if err != nil || len(held) == 0 {
		return "", err
	}
	return "Still held for later phases (this mail has no section for them):\n" + strings.TrimRight(strings.Join(held, ""), "\n"), nil
}

// heldList is what power holds for the later phases of the open turn but
// those in skip, a line for each phase ("  Turn 1 Trade: BUY 1 GRAIN;
// ..."); nil where the engine takes no orders ahead.
func (mc *mailCtx) heldList(power string, skip map[string]bool) ([]string, error) {
	ah, ok := mc.engine.(adjudicator.Aheader)
	if !ok {
		return nil, nil
	}
	turn, err := ah.Turn(mc.state)
	if err != nil {
		return nil, err
	}
	ahead := map[string]bool{}
	for _, tp := range turn {
		ahead[tp.ID] = tp.Ahead
	}
	all, err := mc.tx.Ahead(mc.game.Name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range all {
		if h.Power != power || !ahead[h.PhaseID] || skip[h.PhaseID] {
			continue
		}
		out = append(out, fmt.Sprintf("  %s: %s\n", h.Title, strings.Join(h.Lines, "; ")))
	}
	return out, nil
}
