package demo

import "pbemd/adjudicator"

// offersOpen tells whether an offer in a phase's orders (ords: each
// power's lines) awaits its answer, as the engine declares
// (adjudicator.Offerer): the daemon then does not end the phase on
// receipt of the last orders but at its deadline. A bot's offer to
// another bot is answered only by chance.
func offersOpen(e adjudicator.Engine, state []byte, ords map[string][]string) (bool, error) {
	of, ok := e.(adjudicator.Offerer)
	if !ok {
		return false, nil
	}
	offers, err := of.Offers(state, ords)
	if err != nil {
		return false, err
	}
	for _, o := range offers {
		if o.Answer == adjudicator.OfferOpen {
			return true, nil
		}
	}
	return false, nil
}
