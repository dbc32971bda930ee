package supremacy

import (
	"fmt"
	"testing"

	"pbemd/adjudicator"
)

// Answers to offers as players write them (issue 15 item 15).
func TestOfferAnswerGrammar(t *testing.T) {
	sc := defaultScenario(t)
	for _, c := range []struct{ in, want string }{
		{"accept usa 1: $1,000 for 2 oil", "ACCEPT usa 1: $1000 FOR 2 OIL"},
		{"ACCEPT usa 1: $1000 FOR 2 OIL", "ACCEPT usa 1: $1000 FOR 2 OIL"},
		{"accept offer 2 from Russia: $500", "ACCEPT russia 2: $500"},
		{"accept japan 1 place tex: 3 armies in usw for $2000", "ACCEPT japan 1 PLACE tex: 3 ARMIES IN usw FOR $2000"},
		{"accept usa", "ACCEPT usa 1"},
		{"refuse usa 1", "REFUSE usa 1"},
		{"refuse usa", "REFUSE usa 1"},
		{"decline offer 2 from Russia", "REFUSE russia 2"},
		{"reject china 3", "REFUSE china 3"},
	} {
		got, err := readLine(sc, c.in)
		if got != c.want {
			t.Errorf("%q: got %q (%s), want %q", c.in, got, err, c.want)
		}
	}
	if _, err := readLine(sc, "accept usa 1:"); err == "" {
		t.Error("ACCEPT with a colon and no terms is read")
	}
}

// Offers declares what settleOffers will carry out: each standing offer
// with its receiver's answer, as the lines stand.
func TestOffersDeclared(t *testing.T) {
	f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
	offers, err := (&Engine{}).Offers(f.w.encode(), map[string][]string{
		"russia": {"OFFER 1 TO usa: 3 OIL FOR $1500", "OFFER 1 TO china: $100", "OFFER 2 TO usa: $50", "OFFER 3 TO usa: $70", "OFFER 1 TO russia: $1"},
		"usa":    {"ACCEPT russia 1: 3 OIL FOR $1500", "ACCEPT russia 2: $60", "REFUSE russia 3", "OFFER 1 TO china: $5 FOR 1 GRAIN", "OFFER 1 TO china: $9 FOR 1 GRAIN"},
		"china":  {"ACCEPT russia 1", "IF CASH AT LEAST 100: OFFER 4 TO usa: $20"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range offers {
		got = append(got, fmt.Sprintf("%s>%s %s [%s] %s | %s | %d", o.From, o.To, o.ID, o.Terms, o.Accept, o.Refuse, o.Answer))
	}
	want := []string{
		"china>usa 4 [$20 (a gift or personal loan), made on a condition: IF CASH AT LEAST 100] ACCEPT china 4: $20 | REFUSE china 4 | 0",
		"russia>usa 1 [3 oil for $1500] ACCEPT russia 1: 3 OIL FOR $1500 | REFUSE russia 1 | 1",
		"russia>china 1 [$100 (a gift or personal loan)] ACCEPT russia 1: $100 | REFUSE russia 1 | 1",
		"russia>usa 2 [$50 (a gift or personal loan)] ACCEPT russia 2: $50 | REFUSE russia 2 | 0",
		"russia>usa 3 [$70 (a gift or personal loan)] ACCEPT russia 3: $70 | REFUSE russia 3 | 2",
		"usa>china 1 [$9 for 1 grain] ACCEPT usa 1: $9 FOR 1 GRAIN | REFUSE usa 1 | 0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("offers:\n%q\nwant\n%q", got, want)
	}
	if adjudicator.OfferOpen != 0 || adjudicator.OfferAccepted != 1 || adjudicator.OfferRefused != 2 {
		t.Fatal("the answers' numbers in want changed")
	}
}

// Seed: Private Trade — "players may privately trade with each other for
// any mutually agreeable terms": only the terms accepted are carried out,
// a refused offer is not.
func TestOfferTermsAndRefusal(t *testing.T) {
	t.Run("terms quoted", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
		f.res("russia", 5, 0, 0)
		f.resolve(map[string][]string{"russia": {"OFFER 1 TO usa: 3 OIL FOR $1500"}, "usa": {"ACCEPT russia 1: 3 OIL FOR $1500"}})
		f.eq("usa oil", f.player("usa").Oil, 3)
		f.tells("usa", "Offer 1 of Russian Federation carried out")
	})
	t.Run("other terms quoted", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
		f.res("russia", 5, 0, 0)
		f.resolve(map[string][]string{"russia": {"OFFER 1 TO usa: 3 OIL FOR $2500"}, "usa": {"ACCEPT russia 1: 3 OIL FOR $1500"}})
		f.eq("usa oil", f.player("usa").Oil, 0)
		f.eq("usa cash", f.player("usa").Cash, 7000)
		f.tells("usa", "You accepted offer 1 of russia on the terms 3 OIL FOR $1500, but it now reads 3 OIL FOR $2500: not carried out.")
		f.tells("russia", "Your offer 1 to usa was not accepted as it stands")
	})
	t.Run("refused", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseAttack, 1)
		f.resolve(map[string][]string{"russia": {"OFFER 1 TO usa: $3000"}, "usa": {"ACCEPT russia 1", "REFUSE russia 1"}})
		f.eq("usa cash", f.player("usa").Cash, 7000)
		f.eq("russia cash", f.player("russia").Cash, 7000)
		f.tells("usa", "You refuse offer 1 of russia.")
		f.tells("russia", "Your offer 1 to usa was refused: OFFER 1 TO usa: $3000")
	})
	t.Run("unanswered", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseAttack, 1)
		f.resolve(map[string][]string{"russia": {"OFFER 1 TO usa: $3000"}})
		f.tells("usa", "Russian Federation offered you (offer 1): $3000 (a gift or personal loan).", "Offer 1 of russia lapsed: you did not answer it.")
	})
}
