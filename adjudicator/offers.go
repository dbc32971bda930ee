package adjudicator

// Offerer is implemented by engines whose players make each other offers
// (a trade, a loan) that the receiver answers with an order of the same
// phase (Supremacy: private trades and personal loans). The engine alone
// reads offers and answers in orders and carries them out at Resolve; the
// daemon only forwards what Offers declares: when a mail of orders is
// stored it tells the receiver at once of an offer made, changed or
// withdrawn, and the offerer of an answer given or taken back; and a
// phase that would end before its deadline (every power it waits for has
// ordered) waits until every offer has an answer, so a receiver always
// has the phase to answer in. Engines without offers do not implement it.
type Offerer interface {
	// Offers lists the offers that stand in the open phase of state:
	// those made earlier in the phase (a step before) and those in
	// orders (each power's standing lines, as Resolve would get them),
	// in a deterministic order, with the receiver's answer as its
	// orders stand. It never fails on player input: a line it cannot
	// read makes no offer.
	Offers(state []byte, orders map[string][]string) ([]Offer, error)
}

// Offer is one offer between two powers.
type Offer struct {
	From, To string // the offering and the receiving power
	// ID names the offer among those From makes To ("1"); the pair
	// (From, To, ID) is unique in a phase and stays while the offer
	// stands, also when its terms change.
	ID string
	// Terms are what is offered, in the engine's words for both sides
	// ("$1,000 BL for 2 oil"), with any condition it is made on.
	Terms string
	// Accept and Refuse are the order lines by which To accepts these
	// terms or refuses the offer.
	Accept, Refuse string
	// Answer is To's answer to these terms as its orders stand.
	Answer OfferAnswer
}

// OfferAnswer is a receiver's answer to an offer.
type OfferAnswer uint8

const (
	// OfferOpen: no answer yet (or an acceptance of other terms).
	OfferOpen OfferAnswer = iota
	// OfferAccepted: carried out at the end of the phase if it still
	// stands and both sides can deliver.
	OfferAccepted
	// OfferRefused: not carried out.
	OfferRefused
)
