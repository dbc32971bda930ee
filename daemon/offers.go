package daemon

import (
	"fmt"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// Offers between players (adjudicator.Offerer: Supremacy's private trades
// and personal loans). The engine declares the offers standing in a phase
// and their answers; the daemon forwards them while the phase is open: a
// mail of orders that makes, changes or withdraws an offer is told to its
// receiver at once, an answer given or taken back to its offerer, and a
// phase that would end early waits for every offer to be answered (at the
// deadline the engine lets the unanswered ones lapse). An offer to a power
// nobody plays holds nothing up, and one sent when the phase already had
// every order and is due is told to be too late. Only the two powers of an
// offer hear of it; another player whose orders the held phase has learns
// only that an offer is unanswered. The daemon reads no offer itself and
// carries none out.

// offerKey is an offer's identity in a phase.
type offerKey struct{ from, to, id string }

func keyOf(o adjudicator.Offer) offerKey { return offerKey{o.From, o.To, o.ID} }

// standingOffers lists the offers of g's open phase (engine e, state
// state) as the orders stand now, with those orders; nil when the engine
// has none.
func standingOffers(tx *store.Tx, e adjudicator.Engine, state []byte, g *store.Game) ([]adjudicator.Offer, map[string][]string, error) {
	of, ok := e.(adjudicator.Offerer)
	if !ok || g == nil || g.Status != store.Active {
		return nil, nil, nil
	}
	ords, err := currentOrders(tx, e, state, g)
	if err != nil {
		return nil, nil, err
	}
	offers, err := of.Offers(state, ords)
	if err != nil {
		return nil, nil, fmt.Errorf("offers of %s: %w", g.Name, err)
	}
	return offers, ords, nil
}

func (mc *mailCtx) standingOffers() ([]adjudicator.Offer, map[string][]string, error) {
	return standingOffers(mc.tx.Tx, mc.engine, mc.state, mc.game)
}

// unanswered is the offers of offers that have no answer and that a
// player could still answer: an offer to a power nobody plays (an open
// seat) holds nothing up.
func unanswered(g *store.Game, offers []adjudicator.Offer) []adjudicator.Offer {
	var out []adjudicator.Offer
	for _, o := range offers {
		if o.Answer == adjudicator.OfferOpen && diplomatsOf(g, o.To) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// offersHold tells whether g's open phase must wait for an answer to an
// offer before it may end early.
func offersHold(tx *store.Tx, e adjudicator.Engine, state []byte, g *store.Game) (bool, error) {
	offers, _, err := standingOffers(tx, e, state, g)
	return len(unanswered(g, offers)) > 0, err
}

// offersWait is the last line of an acknowledgement when every power the
// phase waits for has ordered but an offer is unanswered ("" when none
// is). It names only the offers the reader's power makes or receives:
// the others are private to their two players.
func (mc *mailCtx) offersWait(power string) string {
	offers, _, err := mc.standingOffers()
	if err != nil {
		mc.log.Warn("offers not read", "err", err)
		return ""
	}
	open := unanswered(mc.game, offers)
	if len(open) == 0 {
		return ""
	}
	var mine []string
	for _, o := range open {
		switch power {
		case o.From:
			mine = append(mine, fmt.Sprintf("your offer %s to %s", o.ID, powerName(mc.game, o.To)))
		case o.To:
			mine = append(mine, fmt.Sprintf("offer %s of %s to you (%s or %s)", o.ID, powerName(mc.game, o.From), o.Accept, o.Refuse))
		}
	}
	what := "an offer between players is still unanswered"
	if len(mine) > 0 {
		what = strings.Join(mine, " and ") + " " + map[bool]string{true: "is", false: "are"}[len(mine) == 1] + " still unanswered"
	}
	return fmt.Sprintf("Every order %s waits for is in, but %s: it ends as soon as every offer made in it is answered, or at the deadline, when unanswered offers lapse.",
		mc.game.PhaseTitle, what)
}

// forwardOffers tells the players concerned what the mail just stored
// changed in the offers of the phase: before is the offers as they stood
// before it. The sender's reply says whom it told.
func (mc *mailCtx) forwardOffers(before []adjudicator.Offer) error {
	after, ords, err := mc.standingOffers()
	if err != nil || (len(before) == 0 && len(after) == 0) {
		return err
	}
	g := mc.game
	was := make(map[offerKey]adjudicator.Offer, len(before))
	for _, o := range before {
		was[keyOf(o)] = o
	}
	now := make(map[offerKey]bool, len(after))
	whose := func(power string) string { // the GM's SET ORDERS reply names the power
		if mc.player != nil && mc.player.Power == power {
			return "your"
		}
		return powerName(g, power) + "'s"
	}
	var told []string
	for _, o := range after {
		now[keyOf(o)] = true
		old, seen := was[keyOf(o)]
		switch {
		case (!seen || old.Terms != o.Terms) && diplomatsOf(g, o.To) == 0:
			told = append(told, fmt.Sprintf("Nobody plays %s now: %s offer %s cannot be answered, and lapses at the end of the phase.", powerName(g, o.To), whose(o.From), o.ID))
		case !seen:
			if err := mc.tellOffer(o, ords[o.To], "Offer from "+powerName(g, o.From),
				fmt.Sprintf("%s makes you an offer (offer %s) in %s:\n  %s\n", powerName(g, o.From), o.ID, g.PhaseTitle, o.Terms)); err != nil {
				return err
			}
			told = append(told, fmt.Sprintf("I have told %s of %s offer %s now.", powerName(g, o.To), whose(o.From), o.ID))
			if o.Answer != adjudicator.OfferOpen {
				// Its receiver's orders answer it already (orders sent
				// ahead, read as its phase opens): the offerer hears so.
				if err := mc.tellAnswer(o); err != nil {
					return err
				}
				answer := map[adjudicator.OfferAnswer]string{adjudicator.OfferAccepted: "accept", adjudicator.OfferRefused: "refuse"}[o.Answer]
				if mc.player != nil && mc.player.Power == o.From {
					told = append(told, fmt.Sprintf("The orders of %s already %s your offer %s (I have mailed you its answer).", powerName(g, o.To), answer, o.ID))
				} else {
					told = append(told, fmt.Sprintf("The orders of %s already %s %s offer %s; I have told %s.", powerName(g, o.To), answer, whose(o.From), o.ID, powerName(g, o.From)))
				}
			}
		case old.Terms != o.Terms || old.Accept != o.Accept:
			if err := mc.tellOffer(o, ords[o.To], fmt.Sprintf("Offer from %s changed", powerName(g, o.From)),
				fmt.Sprintf("%s has changed its offer %s in %s. It read:\n  %s\nIt now reads:\n  %s\n", powerName(g, o.From), o.ID, g.PhaseTitle, old.Terms, o.Terms)); err != nil {
				return err
			}
			told = append(told, fmt.Sprintf("I have told %s that %s offer %s changed.", powerName(g, o.To), whose(o.From), o.ID))
		case old.Answer != o.Answer:
			if err := mc.tellAnswer(o); err != nil {
				return err
			}
			told = append(told, fmt.Sprintf("I have told %s of %s answer to its offer %s.", powerName(g, o.From), whose(o.To), o.ID))
		}
	}
	for _, o := range before {
		if now[keyOf(o)] || diplomatsOf(g, o.To) == 0 {
			continue
		}
		text := fmt.Sprintf("%s has withdrawn its offer %s in %s:\n  %s\nIt will not be carried out; an answer to it in your orders does nothing.\n",
			powerName(g, o.From), o.ID, g.PhaseTitle, o.Terms)
		if err := mc.d.tellPower(mc.tx, g, o.To, fmt.Sprintf("Offer from %s withdrawn", powerName(g, o.From)), text); err != nil {
			return err
		}
		told = append(told, fmt.Sprintf("I have told %s that %s offer %s is withdrawn.", powerName(g, o.To), whose(o.From), o.ID))
	}
	if len(told) > 0 {
		mc.say("%s", strings.Join(told, "\n"))
	}
	return nil
}

// tellOffer mails an offer's receiver what it now reads (head), how to
// answer and the answer its orders give now.
func (mc *mailCtx) tellOffer(o adjudicator.Offer, standing []string, subject, head string) error {
	g := mc.game
	var b strings.Builder
	b.WriteString(head)
	if !g.Deadline.After(mc.now) {
		// Every order was in and the phase is due: it is processed at
		// the next tick, too soon for an answer.
		fmt.Fprintf(&b, "\n%s had all its orders and is being processed now, so there is no time left to answer: the offer lapses unless your orders already answer it.\n", g.PhaseTitle)
		return mc.d.tellPower(mc.tx, g, o.To, subject, b.String())
	}
	switch o.Answer {
	case adjudicator.OfferAccepted:
		fmt.Fprintf(&b, "\nYour orders as they stand accept it as it now reads. To refuse it, send:\n  %s\n", o.Refuse)
	case adjudicator.OfferRefused:
		fmt.Fprintf(&b, "\nYour orders as they stand refuse it. To accept it as it now reads, send:\n  %s\n", o.Accept)
	default:
		fmt.Fprintf(&b, "\nTo accept it, send this order before the deadline (%s):\n  %s\nTo refuse it:\n  %s\n",
			mc.d.showTime(g.Deadline, nil), o.Accept, o.Refuse)
	}
	mc.writeAnswerNote(&b, standing)
	return mc.d.tellPower(mc.tx, g, o.To, subject, b.String())
}

// writeAnswerNote ends a mail that asks a power to answer an offer: the
// answer is one of its orders, combined with those that stand as the
// engine declares (a new mail may replace them all), and those orders.
func (mc *mailCtx) writeAnswerNote(b *strings.Builder, standing []string) {
	g := mc.game
	combine := ""
	if ps, err := mc.engine.Status(mc.state); err == nil {
		combine = ps.CombineText
		if combine == "" {
			combine = ps.Combine.Sentence()
		}
	}
	fmt.Fprintf(b, "\nYour answer is one of your orders for %s (%s). %s does not end before its deadline while an offer made in it is unanswered; at the deadline an unanswered offer lapses.\n",
		g.PhaseTitle, combine, g.PhaseTitle)
	b.WriteString("\nYour orders for this phase now stand as:\n")
	if len(standing) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, l := range standing {
		fmt.Fprintf(b, "  %s\n", l)
	}
}

// remindOffers is the deadline reminder's part on offers (remindGame,
// remind.go, calls it when a reminder goes out): each diplomat of a power
// that has an offer it has not answered is told which, its terms and the
// orders that answer it, whether or not the power's orders are in. Only
// the receiver is reminded: an offer is private to its two powers, and
// the offerer has nothing left to do. An offer to a power nobody plays
// is no one's to answer (unanswered).
func (d *Daemon) remindOffers(tx *txn, g *store.Game, now time.Time) error {
	e, err := engineFor(g)
	if err != nil {
		return nil // the game's own tick reports it; the orders reminders go
	}
	if _, ok := e.(adjudicator.Offerer); !ok {
		return nil
	}
	state, err := tx.State(g.Name)
	if err != nil {
		return err
	}
	mc := &mailCtx{d: d, tx: tx, game: g, engine: e, state: state, now: now, log: d.log}
	offers, ords, err := mc.standingOffers()
	if err != nil {
		// An engine that cannot list its offers is a bug; the reminders
		// of orders still go, as offersWait does without the offers.
		d.log.Warn("offers not read for the reminder", "game", g.Name, "err", err)
		return nil
	}
	byPower := map[string][]adjudicator.Offer{}
	var powers []string // in the engine's order of the offers
	for _, o := range unanswered(g, offers) {
		if byPower[o.To] == nil {
			powers = append(powers, o.To)
		}
		byPower[o.To] = append(byPower[o.To], o)
	}
	for _, power := range powers {
		open := byPower[power]
		subject := fmt.Sprintf("[%s] Reminder: offer %s of %s awaits your answer", g.Name, open[0].ID, powerName(g, open[0].From))
		if len(open) > 1 {
			subject = fmt.Sprintf("[%s] Reminder: %d offers await your answer", g.Name, len(open))
		}
		for i := range g.Players {
			p := &g.Players[i]
			if p.Left || p.Power != power {
				continue
			}
			var b strings.Builder
			if len(open) == 1 {
				fmt.Fprintf(&b, "Reminder: you have not answered offer %s of %s in %s of %s:\n  %s\n", open[0].ID, powerName(g, open[0].From), g.PhaseTitle, g.Name, open[0].Terms)
			} else {
				fmt.Fprintf(&b, "Reminder: you have not answered %d offers in %s of %s.\n", len(open), g.PhaseTitle, g.Name)
			}
			fmt.Fprintf(&b, "Deadline: %s (in %s).\n", d.showTime(g.Deadline, p), humanDuration(g.Deadline.Sub(now)))
			for _, o := range open {
				b.WriteString("\n")
				if len(open) > 1 {
					fmt.Fprintf(&b, "Offer %s of %s:\n  %s\n", o.ID, powerName(g, o.From), o.Terms)
				}
				fmt.Fprintf(&b, "To accept it, send this order:\n  %s\nTo refuse it:\n  %s\n", o.Accept, o.Refuse)
			}
			mc.writeAnswerNote(&b, ords[power])
			if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: b.String(), ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
				return err
			}
		}
	}
	return nil
}

// tellAnswer mails an offerer the answer its offer has now.
func (mc *mailCtx) tellAnswer(o adjudicator.Offer) error {
	g := mc.game
	to := powerName(g, o.To)
	var subject, text string
	switch o.Answer {
	case adjudicator.OfferAccepted:
		subject = fmt.Sprintf("%s accepts your offer %s", to, o.ID)
		text = fmt.Sprintf("%s has accepted your offer %s in %s:\n  %s\nIt is carried out at the end of the phase if it still stands then and both sides can deliver. If you change or withdraw it, %s is told.\n",
			to, o.ID, g.PhaseTitle, o.Terms, to)
	case adjudicator.OfferRefused:
		subject = fmt.Sprintf("%s refuses your offer %s", to, o.ID)
		text = fmt.Sprintf("%s has refused your offer %s in %s:\n  %s\nIt will not be carried out unless %s accepts it before the deadline. You may change it (%s is told) or withdraw it.\n",
			to, o.ID, g.PhaseTitle, o.Terms, to, to)
	default:
		subject = fmt.Sprintf("%s no longer answers your offer %s", to, o.ID)
		text = fmt.Sprintf("The orders of %s no longer answer your offer %s in %s:\n  %s\nUnless it is answered by the deadline, it lapses.\n",
			to, o.ID, g.PhaseTitle, o.Terms)
	}
	return mc.d.tellPower(mc.tx, g, o.From, subject, text)
}
