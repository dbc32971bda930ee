package orders_test

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/orders"
)

// cardGrammar is a toy grammar for a card game: "PLAY <card>" and
// "BUY <card> FROM <player>". It shows how another game plugs into the
// tokenizer, the name matcher and the diagnostics.
type cardGrammar struct {
	cards, players *orders.Names
}

type play struct{ Card string }

type buy struct{ Card, From string }

type acceptOffer struct{}

func (g cardGrammar) ParseOrder(sc *orders.Scanner) any {
	sc.SetStop(func(w string) bool { return w == "play" || w == "buy" || w == "from" })
	switch {
	case sc.Accept("accept"): // an offer made to this player
		if !sc.Done() {
			sc.Fail("ACCEPT takes nothing more", "ACCEPT")
			return nil
		}
		return acceptOffer{}
	case sc.Accept("play"):
		card, ok := g.name(sc, g.cards)
		if !ok {
			return nil
		}
		if !sc.Done() {
			sc.Fail(fmt.Sprintf("%q after the card is not understood", sc.Rest()), "PLAY "+card)
			return nil
		}
		return play{Card: card}
	case sc.Accept("buy"):
		card, ok := g.name(sc, g.cards)
		if !ok {
			return nil
		}
		if !sc.Accept("from") {
			sc.Fail("say whom you buy from", "BUY "+card+" FROM <player>")
			return nil
		}
		from, ok := g.name(sc, g.players)
		if !ok {
			return nil
		}
		return buy{Card: card, From: from}
	}
	sc.Fail("an order starts with PLAY or BUY", "PLAY Steel Mill")
	return nil
}

func (g cardGrammar) name(sc *orders.Scanner, set *orders.Names) (string, bool) {
	m, err := sc.Name(set)
	if err != nil {
		sc.Fail(err.Error(), "")
		return "", false
	}
	return m.ID, true
}

func newCardGrammar(t testing.TB) cardGrammar {
	cards, err := orders.NewNames("card", []orders.Name{
		{ID: "steel", Full: "Steel Mill"},
		{ID: "saw", Full: "Sawmill"},
		{ID: "port", Full: "Harbour Port", Aliases: []string{"Port"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	players, err := orders.NewNames("player", []orders.Name{{ID: "ann", Full: "Ann"}, {ID: "bob", Full: "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	return cardGrammar{cards: cards, players: players}
}

func TestOtherGameGrammar(t *testing.T) {
	g := newCardGrammar(t)
	body := strings.Join([]string{
		"Hi all,",
		"PLAY Steel Mil",
		"play sawmill",
		"BUY Harbour Port FROM Ann",
		"PLAY Gizmo",
		"BUY Port",
		"JOIN supplychain-2",
		"PRESS TO Bob",
		"PLAY Steel Mill",
		"ENDPRESS",
		"-- ",
		"PLAY Sawmill",
	}, "\n")
	r := orders.Parse(body, orders.Options{Grammar: g})
	want := []any{play{Card: "steel"}, play{Card: "saw"}, buy{Card: "port", From: "ann"}}
	if got := r.Values(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Values() = %v, want %v", got, want)
	}
	kinds := []orders.LineKind{orders.Ignored, orders.OrderLine, orders.OrderLine, orders.OrderLine, orders.ErrorLine,
		orders.ErrorLine, orders.CommandLine, orders.CommandLine, orders.BodyLine, orders.BodyLine, orders.Ignored, orders.Ignored}
	for i, l := range r.Lines {
		if l.Kind != kinds[i] {
			t.Errorf("line %d %q: kind %d, want %d (%+v)", l.No, l.Text, l.Kind, kinds[i], l.Diags)
		}
	}
	if d := r.Lines[1].Diags; len(d) != 1 || d[0].Severity != orders.Warning || d[0].Message != `"Steel Mil" read as Steel Mill (steel)` {
		t.Errorf("line 2 diagnostics = %+v, want the typo warning", d)
	}
	if d := r.Lines[4].Diags; len(d) != 1 || d[0].Message != `"Gizmo" is not a card I know` {
		t.Errorf("line 5 diagnostics = %+v", d)
	}
	if d := r.Lines[5].Diags; len(d) != 1 || d[0].Message != "say whom you buy from" || d[0].Suggestion != "BUY port FROM <player>" {
		t.Errorf("line 6 diagnostics = %+v", d)
	}
	// Strict mode turns the typo matcher off for other games too.
	r = orders.Parse("PLAY Steel Mil", orders.Options{Grammar: g, Strict: true})
	if r.Lines[0].Kind != orders.ErrorLine {
		t.Errorf("strict: %+v, want an error", r.Lines[0])
	}
}

// A short line after a closing formula is the sender's name only when the
// game's grammar cannot read it: the mail reader knows no game's order
// words, so it asks the grammar.
func TestOrderAfterClosingFormula(t *testing.T) {
	g := newCardGrammar(t)
	r := orders.Parse("PLAY Steel Mill\nThanks,\nPLAY Sawmill\nAnn", orders.Options{Grammar: g})
	kinds := []orders.LineKind{orders.OrderLine, orders.Ignored, orders.OrderLine, orders.Ignored}
	for i, l := range r.Lines {
		if l.Kind != kinds[i] {
			t.Errorf("line %d %q: kind %d, want %d (%+v)", l.No, l.Text, l.Kind, kinds[i], l.Diags)
		}
	}
	if got := r.Values(); len(got) != 2 || got[1] != (play{Card: "saw"}) {
		t.Errorf("Values() = %v, want both plays", got)
	}
}

// Another game's grammar gets mail structure, commands, the name matcher and
// diagnostics for free.
func ExampleGrammar() {
	cards, _ := orders.NewNames("card", []orders.Name{{ID: "steel", Full: "Steel Mill"}, {ID: "saw", Full: "Sawmill"}})
	players, _ := orders.NewNames("player", []orders.Name{{ID: "ann", Full: "Ann"}})
	g := cardGrammar{cards: cards, players: players}
	r := orders.Parse("Hello,\nPLAY Steel Mil\nREADY\nThanks", orders.Options{Grammar: g})
	for _, l := range r.Lines {
		fmt.Println(l.No, l.Kind, l.Value, l.Diags)
	}
	// Output:
	// 1 0 <nil> []
	// 2 1 {steel} [{1 "Steel Mil" read as Steel Mill (steel) }]
	// 3 2 <nil> []
	// 4 0 <nil> []
}

// ACCEPT, REFUSE and RELEASE are mail commands (a senior's answer to a
// junior's request) that a game may also use for orders: the game's order
// reading wins when it works, the command's form (with an address) is
// always a command, and without a grammar they are commands.
func TestSoftCommandsYieldToTheGamesOrders(t *testing.T) {
	g := newCardGrammar(t)
	r := orders.Parse("accept\nACCEPT ann@example.org\nREFUSE\nRELEASE bob@example.org", orders.Options{Grammar: g})
	want := []struct {
		kind orders.LineKind
		verb orders.Verb
	}{{orders.OrderLine, ""}, {orders.CommandLine, orders.VerbAccept}, {orders.CommandLine, orders.VerbRefuse}, {orders.CommandLine, orders.VerbRelease}}
	for i, l := range r.Lines {
		if l.Kind != want[i].kind || (l.Command != nil) != (want[i].verb != "") || l.Command != nil && l.Command.Verb != want[i].verb {
			t.Errorf("line %d %q: kind %d command %+v, want kind %d verb %q", l.No, l.Text, l.Kind, l.Command, want[i].kind, want[i].verb)
		}
	}
	if v := r.Lines[0].Value; v != (acceptOffer{}) {
		t.Errorf("bare ACCEPT in a game that has the order: %v", v)
	}
	if a := r.Lines[1].Command; a == nil || a.Address != "ann@example.org" {
		t.Errorf("ACCEPT ann@example.org: %+v", a)
	}
	r = orders.Parse("accept", orders.Options{})
	if l := r.Lines[0]; l.Kind != orders.CommandLine || l.Command.Verb != orders.VerbAccept {
		t.Errorf("bare ACCEPT without a grammar: %+v", l)
	}
}
