package supremacy

// Private trades and personal loans between players (seed: "After all
// players have traded on the market, players may privately trade with each
// other for any mutually agreeable terms"; Personal Loans: "Players may
// borrow money at any time from other players").
//
// An OFFER is made by an order; its receiver answers it by an order of the
// same phase: ACCEPT <power> <n> [PLACE …]: <terms> accepts those terms
// only (an offer changed since no longer matches), a bare ACCEPT <power>
// <n> accepts whatever offer n reads at the end of the phase (a deal
// arranged beforehand in press), REFUSE <power> <n> refuses it. Offers
// (adjudicator.Offerer) declares every standing offer with its answer, so
// the daemon tells the receiver at once and waits for the answer; the
// engine carries the accepted ones out at the end of the phase.

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/adjudicator"
)

// terms reads the terms an ACCEPT quotes, after a colon ("ACCEPT usa 1:
// $1000 FOR 2 OIL"); none is fine.
func (p *parser) terms(o *Order) bool {
	if !p.accept(":") {
		return true
	}
	var ok bool
	if o.Give, ok = p.items(); !ok {
		return false
	}
	if p.accept("for") {
		if o.Get, ok = p.items(); !ok {
			return false
		}
	}
	if len(o.Give) == 0 && len(o.Get) == 0 {
		p.fail("quote the offer's terms after the colon, or leave the colon out", "ACCEPT usa 1: $1000 FOR 2 OIL")
		return false
	}
	return true
}

// refuseOffer reads REFUSE [OFFER] [n] [FROM|OF] <power> [n].
func (p *parser) refuseOffer() *Order { return p.offerRef(KRefuse) }

// formatTerms writes the terms an ACCEPT quotes, if any.
func (sc *Scenario) formatTerms(b *strings.Builder, o *Order) {
	if len(o.Give) == 0 && len(o.Get) == 0 {
		return
	}
	b.WriteString(": ")
	sc.termsOf(b, o)
}

// termsOf writes an offer's (or a quoting ACCEPT's) items canonically:
// what the offerer gives, then FOR what it asks.
func (sc *Scenario) termsOf(b *strings.Builder, o *Order) {
	sc.formatItems(b, o.Give)
	if len(o.Get) > 0 {
		b.WriteString(" FOR ")
		sc.formatItems(b, o.Get)
	}
}

func (sc *Scenario) terms(o *Order) string {
	var b strings.Builder
	sc.termsOf(&b, o)
	return b.String()
}

// termsText is an offer's terms for players.
func (sc *Scenario) termsText(o *Order) string {
	items := func(its []Item) string {
		if len(its) == 0 {
			return "nothing"
		}
		parts := make([]string, len(its))
		for k, it := range its {
			parts[k] = sc.itemText(it, true)
		}
		return strings.Join(parts, ", ")
	}
	t := items(o.Give)
	if len(o.Get) == 0 {
		t += " (a gift or personal loan)"
	} else {
		t += " for " + items(o.Get)
	}
	if len(o.Conds) > 0 {
		var b strings.Builder
		sc.formatConds(&b, o.Conds)
		t += ", made on a condition: " + strings.TrimSuffix(strings.TrimSpace(b.String()), ":")
	}
	return t
}

// offerMade tells the receiver of an offer in the report: in step play
// the phase goes on and the offer may still be answered in a later step;
// otherwise it was made at the phase's end (the daemon told the receiver
// when it was sent).
func (r *run) offerMade(i int, o *Order) {
	w := r.w
	if w.stepped(w.phase) {
		r.rep.private(o.Power, "  %s offers you (offer %d): %s — reply ACCEPT %s %d: %s or REFUSE %s %d before the end of the %s phase.",
			w.pname(i), o.N, r.offerText(o), w.pid(i), o.N, r.sc.terms(o), w.pid(i), o.N, w.phase.Title())
		return
	}
	r.rep.private(o.Power, "  %s offered you (offer %d): %s.", w.pname(i), o.N, r.offerText(o))
}

// acceptOffer records an answer (ACCEPT or REFUSE) to be matched with the
// offer at the end of the phase.
func (r *run) acceptOffer(i int, o *Order) {
	w := r.w
	if o.Kind == KRefuse {
		w.offers = append(w.offers, offer{From: o.Power, To: w.pid(i), N: o.N, Taken: true, Refused: true})
		r.rep.private(w.pid(i), "  You refuse offer %d of %s.", o.N, o.Power)
		return
	}
	var places []string
	for _, a := range o.Place {
		places = append(places, r.sc.areas[a].ID)
	}
	an := offer{From: o.Power, To: w.pid(i), N: o.N, Taken: true, Place: places}
	if len(o.Give) > 0 || len(o.Get) > 0 {
		an.Terms = r.sc.terms(o)
	}
	w.offers = append(w.offers, an)
	r.rep.private(w.pid(i), "  You accept offer %d of %s (it is carried out at the end of the phase, if it stands).", o.N, o.Power)
}

type offerKey struct {
	from, to string
	n        int
}

// settleOffers carries out, at the end of a phase, every offer its
// receiver accepted on its standing terms, in the order offered; the rest
// lapse. The last answer to an offer counts.
func (r *run) settleOffers() {
	w := r.w
	if len(w.offers) == 0 {
		return
	}
	answers := map[offerKey]offer{}
	made := map[offerKey]bool{}
	for _, of := range w.offers {
		k := offerKey{of.From, of.To, of.N}
		if of.Taken {
			answers[k] = of
		} else {
			made[k] = true
		}
	}
	for _, of := range w.offers {
		if of.Taken {
			continue
		}
		o, err := r.sc.parseLine(of.Line)
		if err != nil {
			continue
		}
		acc, ok := answers[offerKey{of.From, of.To, of.N}]
		switch {
		case !ok:
			r.rep.private(of.From, "  Your offer %d to %s was not accepted (no answer by the end of the phase): %s", of.N, of.To, of.Line)
			r.rep.private(of.To, "  Offer %d of %s lapsed: you did not answer it.", of.N, of.From)
		case acc.Refused:
			r.rep.private(of.From, "  Your offer %d to %s was refused: %s", of.N, of.To, of.Line)
		case acc.Terms != "" && acc.Terms != r.sc.terms(o):
			r.rep.private(of.From, "  Your offer %d to %s was not accepted as it stands (%s accepted other terms: %s): %s", of.N, of.To, of.To, acc.Terms, of.Line)
			r.rep.private(of.To, "  You accepted offer %d of %s on the terms %s, but it now reads %s: not carried out.", of.N, of.From, acc.Terms, r.sc.terms(o))
		default:
			r.trade(w.playerIndex(of.From), w.playerIndex(of.To), o, acc.Place)
		}
	}
	told := map[offerKey]bool{}
	for _, acc := range w.offers {
		k := offerKey{acc.From, acc.To, acc.N}
		if acc.Taken && !made[k] && !told[k] && !answers[k].Refused {
			told[k] = true
			r.rep.private(acc.To, "  You accepted offer %d of %s, but no such offer stands.", acc.N, acc.From)
		}
	}
	w.offers = nil
}

// Offers implements adjudicator.Offerer: the offers made earlier in the
// open phase (a step before) and in ords, with their answers, as
// settleOffers will read them (an offer repeated with the same number to
// the same player replaces it; the last answer counts).
func (e *Engine) Offers(state []byte, ords map[string][]string) ([]adjudicator.Offer, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return nil, err
	}
	sc := w.sc
	var keys []offerKey
	made := map[offerKey]*Order{}
	answers := map[offerKey]*Order{}
	add := func(from string, o *Order) {
		switch o.Kind {
		case KOffer:
			q := w.playerOf(o.Power)
			if q == nil || !q.alive() || o.Power == from {
				return // makeOffer refuses it
			}
			k := offerKey{from, o.Power, o.N}
			if made[k] == nil {
				keys = append(keys, k)
			}
			made[k] = o
		case KAccept, KRefuse:
			answers[offerKey{o.Power, from, o.N}] = o
		}
	}
	for _, of := range w.offers {
		if of.Taken {
			o := newOrder(KAccept)
			if of.Refused {
				o.Kind = KRefuse
			}
			o.Power, o.N = of.From, of.N
			if of.Terms != "" {
				q, err := sc.parseLine("ACCEPT " + of.From + " " + strconv.Itoa(of.N) + ": " + of.Terms)
				if err == nil {
					o = q
				}
			}
			add(of.To, o)
			continue
		}
		if o, err := sc.parseLine(of.Line); err == nil {
			o.Conds = nil // it held when the offer was made
			add(of.From, o)
		}
	}
	for _, power := range sortedMapKeys(ords) {
		if p := w.playerOf(power); p == nil || !p.alive() {
			continue
		}
		for _, line := range ords[power] {
			if o, err := sc.parseLine(line); err == nil {
				add(power, o)
			}
		}
	}
	out := make([]adjudicator.Offer, 0, len(keys))
	for _, k := range keys {
		o := made[k]
		terms := sc.terms(o)
		of := adjudicator.Offer{From: k.from, To: k.to, ID: strconv.Itoa(k.n), Terms: sc.termsText(o),
			Accept: fmt.Sprintf("ACCEPT %s %d: %s", k.from, k.n, terms),
			Refuse: fmt.Sprintf("REFUSE %s %d", k.from, k.n)}
		if a := answers[k]; a != nil {
			switch {
			case a.Kind == KRefuse:
				of.Answer = adjudicator.OfferRefused
			case len(a.Give) == 0 && len(a.Get) == 0 || sc.terms(a) == terms:
				of.Answer = adjudicator.OfferAccepted
			}
		}
		out = append(out, of)
	}
	return out, nil
}
