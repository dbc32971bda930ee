package supplychain

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"pbemd/orders"
)

// grammar reads Supply Chain order lines (see the package comment for the
// order reference). Card names go through the deck's name matcher (with
// its typo tolerance); a card code is always read exactly.
type grammar struct {
	d       *Deck
	players *orders.Names
}

var grammars sync.Map // deck name + powers ⇒ *grammar

func newGrammar(d *Deck, powers []string) (*grammar, error) {
	key := d.Name + "\x00" + strings.Join(powers, ",")
	if gr, ok := grammars.Load(key); ok {
		return gr.(*grammar), nil
	}
	var list []orders.Name
	for _, p := range powers {
		list = append(list, orders.Name{ID: p, Full: titleCase(p)})
	}
	names, err := orders.NewNames("player", list)
	if err != nil {
		return nil, err
	}
	gr := &grammar{d: d, players: names}
	grammars.Store(key, gr)
	return gr, nil
}

var stopWords = map[string]bool{
	"at": true, "to": true, "for": true, "from": true, "with": true, "give": true, "get": true,
	"turn": true, "rot": true, "and": true, "of": true, "on": true, "plus": true,
	"n": true, "e": true, "s": true, "w": true, "north": true, "east": true, "south": true, "west": true,
}

var verbWords = map[string]Verb{
	"buy": VerbBuy, "purchase": VerbBuy, "blind": VerbBlind, "sell": VerbTrade, "trade": VerbTrade,
	"swap": VerbSwap, "exchange": VerbSwap, "place": VerbPlace, "lay": VerbPlace, "attach": VerbAttach,
	"move": VerbMove, "remove": VerbRemove, "token": VerbToken, "revenue": VerbRevenue, "collect": VerbRevenue,
	"close": VerbClose, "discard": VerbDiscard, "abandon": VerbDiscard, "spin": VerbSpin, "rotate": VerbSpin,
	"ask": VerbAsk, "hand": VerbHand, "show": VerbHand, "view": VerbHand, "cards": VerbHand,
	"accept": VerbAccept, "decline": VerbDecline, "reject": VerbDecline, "refuse": VerbDecline,
	"pass": VerbPass, "skip": VerbPass, "pick": VerbPick, "claim": VerbPick, "borrow": VerbPick, "return": VerbReturn, "finish": VerbFinish, "done": VerbFinish,
}

const orderHelp = "BUY <card> FROM LISTING, BLIND, SELL <card> TO <player> FOR $<n>, TRADE <card> FOR <card> WITH <player>, SWAP <card> FOR <listed card>, PLACE <card> AT x,y, MOVE <card> TO x,y, REMOVE <card>, REVENUE, CLOSE <card>, DISCARD <card>, SPIN <card>, ASK <player> OFFICES, HAND, PASS"

// ParseOrder implements orders.Grammar. It returns *line.
func (gr *grammar) ParseOrder(sc *orders.Scanner) any {
	sc.SetStop(func(w string) bool { return stopWords[w] })
	t := sc.Next()
	v, ok := verbWords[t.Norm]
	if !ok {
		if t.Norm == "my" && sc.Accept("hand", "cards") {
			v, ok = VerbHand, true
		} else if t.Norm == "yes" && sc.Done() {
			v, ok = VerbAccept, true
		} else if t.Norm == "no" && sc.Done() {
			v, ok = VerbDecline, true
		}
	}
	if !ok {
		sc.Fail(fmt.Sprintf("%q does not start an order", t.Text), orderHelp)
		return nil
	}
	o := Order{Verb: v, Card: cardRef{card: -1, name: -1}}
	var more []Order
	switch v {
	case VerbBuy:
		if sc.Accept("blind") {
			sc.Accept("purchase")
			o = Order{Verb: VerbBlind}
			break
		}
		c, ok := gr.card(sc)
		if !ok {
			return nil
		}
		o.Card = c
		if sc.Accept("from") {
			sc.Accept("the")
			if a, ok := gr.area(sc); ok {
				o.Area = a
				sc.Accept("pile", "deck", "area")
				break
			}
			p, ok := gr.player(sc)
			if !ok {
				return nil
			}
			// BUY <card> FROM <player> FOR <items>: a Buy-Sell-Trade.
			if !sc.Accept("for") {
				sc.Fail("say what you pay", "BUY "+gr.refText(c)+" FROM "+titleCase(p)+" FOR $300")
				return nil
			}
			cards, m, ok := gr.items(sc)
			if !ok {
				return nil
			}
			o = Order{Verb: VerbTrade, Power: p, Give: cards, GiveM: m, Get: []cardRef{c}}
		}
	case VerbBlind:
		sc.Accept("purchase", "buy")
		o = Order{Verb: VerbBlind}
	case VerbTrade:
		o = Order{Verb: VerbTrade}
		if t.Norm == "sell" {
			cards, m, ok := gr.items(sc)
			if !ok {
				return nil
			}
			o.Give, o.GiveM = cards, m
			if !sc.Accept("to") {
				sc.Fail("say whom you sell to", "SELL <card> TO <player> FOR $300")
				return nil
			}
			p, ok := gr.player(sc)
			if !ok {
				return nil
			}
			o.Power = p
			if !sc.Accept("for") {
				sc.Fail("say what you get", "SELL <card> TO "+titleCase(p)+" FOR $300")
				return nil
			}
			if o.Get, o.GetM, ok = gr.items(sc); !ok {
				return nil
			}
			break
		}
		if sc.Accept("with") {
			p, ok := gr.player(sc)
			if !ok {
				return nil
			}
			o.Power = p
			if sc.Accept("give") {
				if o.Give, o.GiveM, ok = gr.items(sc); !ok {
					return nil
				}
				if !sc.Accept("get") {
					sc.Fail("write TRADE WITH <player> GIVE <items> GET <items>", "TRADE WITH Blue GIVE LM1 GET $300")
					return nil
				}
				if o.Get, o.GetM, ok = gr.items(sc); !ok {
					return nil
				}
				break
			}
			if o.Give, o.GiveM, ok = gr.items(sc); !ok {
				return nil
			}
			if !sc.Accept("for") {
				sc.Fail("write TRADE <your items> FOR <their items> WITH <player>", "TRADE LM1 FOR FM1 WITH Blue")
				return nil
			}
			if o.Get, o.GetM, ok = gr.items(sc); !ok {
				return nil
			}
			break
		}
		var ok bool
		if o.Give, o.GiveM, ok = gr.items(sc); !ok {
			return nil
		}
		if !sc.Accept("for") {
			sc.Fail("write TRADE <your items> FOR <their items> WITH <player>", "TRADE LM1 FOR FM1 WITH Blue")
			return nil
		}
		if o.Get, o.GetM, ok = gr.items(sc); !ok {
			return nil
		}
		if !sc.Accept("with") {
			sc.Fail("say whom you trade with", "TRADE LM1 FOR FM1 WITH Blue")
			return nil
		}
		p, ok := gr.player(sc)
		if !ok {
			return nil
		}
		o.Power = p
	case VerbSwap:
		c, ok := gr.card(sc)
		if !ok {
			return nil
		}
		if !sc.Accept("for", "with") {
			sc.Fail("write SWAP <hand card> FOR <listed card>", "SWAP SO3 FOR LM1")
			return nil
		}
		l, ok := gr.card(sc)
		if !ok {
			return nil
		}
		o.Card, o.Give = c, []cardRef{l}
	case VerbPlace, VerbAttach, VerbMove:
		c, ok := gr.card(sc)
		if !ok {
			return nil
		}
		o.Card = c
		if !gr.where(sc, &o) {
			return nil
		}
		if sc.Accept("turn", "rot", "rotation", "turned", "rotated") {
			r, ok := gr.rotation(sc)
			if !ok {
				return nil
			}
			o.Rot, o.HasRot = r, true
		}
		if v == VerbAttach && o.Power == "" {
			sc.Fail("say whose property the derelict goes next to", "ATTACH DR1 TO Blue 1,0")
			return nil
		}
		if o.Power != "" {
			o.Verb = VerbAttach
			if v == VerbMove {
				sc.Fail("MOVE works on your own placed cards", "MOVE LM1 TO 1,0")
				return nil
			}
		}
	case VerbRemove, VerbClose, VerbDiscard:
		for {
			c, ok := gr.card(sc)
			if !ok {
				return nil
			}
			oc := o
			oc.Card = c
			more = append(more, oc)
			if !sc.Accept(",", "and", "+") {
				break
			}
		}
	case VerbToken:
		switch {
		case sc.Accept("off", "back", "home", "3vp"):
			o.Off = true
		default:
			sc.Accept("at", "on")
			x, y, ok := gr.coords(sc)
			if !ok {
				return nil
			}
			k, ok := gr.direction(sc)
			if !ok {
				sc.Fail("say which edge of the cell: N, E, S or W", "TOKEN AT 0,0 E")
				return nil
			}
			o.Edge = edgeOf(x, y, k)
		}
	case VerbRevenue:
		sc.Accept("revenue", "money")
		if sc.Accept("from") {
			c, ok := gr.card(sc)
			if !ok {
				return nil
			}
			o.From = &c
		}
	case VerbSpin:
		c, ok := gr.card(sc)
		if !ok {
			return nil
		}
		o.Card, o.N = c, 1
		if !sc.Done() {
			sc.Accept("by", "turn")
			n, ok := gr.rotation(sc)
			if !ok {
				return nil
			}
			o.N = n
		}
	case VerbAsk:
		p, ok := gr.player(sc)
		if !ok {
			return nil
		}
		o.Power = p
		sc.Accept("about", "for", "how", "many")
		switch {
		case sc.Accept("offices", "office"):
			o.Ask = "OFFICES"
		case sc.Accept("contracts", "contract"):
			o.Ask = "CONTRACTS"
		case sc.Accept("vehicles", "vehicle", "trucks", "truck", "boats"):
			o.Ask = "VEHICLES"
		default:
			sc.Fail("ask about OFFICES, CONTRACTS or VEHICLES in hand (law E)", "ASK "+titleCase(p)+" OFFICES")
			return nil
		}
	case VerbHand:
		sc.Accept("hand", "cards", "my")
		sc.Accept("hand", "cards")
	case VerbPick, VerbReturn:
		c, ok := gr.card(sc)
		if !ok {
			return nil
		}
		o.Card = c
	}
	if !sc.Done() {
		sc.Fail(fmt.Sprintf("%q is not understood", sc.Rest()), "")
		return nil
	}
	if more == nil {
		more = []Order{o}
	}
	return &line{orders: more}
}

// card reads a card: its code, or its name (quoted or not).
func (gr *grammar) card(sc *orders.Scanner) (cardRef, bool) {
	sc.Accept("the", "my", "a", "an", "card")
	if sc.Peek().Norm == "main" && (sc.PeekAt(1).Norm == "office" || sc.PeekAt(1).Norm == "hq") {
		sc.Next()
		sc.Next()
		return cardRef{card: -1, name: -1, text: "main office", main: true}, true
	}
	quoted := sc.EnterQuote()
	t := sc.Peek()
	if t.Kind == orders.Word {
		if i, ok := gr.d.CardByCode(t.Norm); ok {
			sc.Next()
			if quoted && !sc.LeaveQuote() {
				sc.Fail("more than a card code inside the quotes", "")
				return cardRef{}, false
			}
			return codeRef(i), true
		}
	}
	m, err := sc.Name(gr.d.names)
	if err != nil {
		sc.Fail(err.Error(), "write the card's code (as in your hand or the listing) or its name")
		return cardRef{}, false
	}
	if quoted && !sc.LeaveQuote() {
		sc.Fail("more than a card name inside the quotes", "")
		return cardRef{}, false
	}
	return cardRef{card: -1, name: m.Index, text: gr.d.Cards[gr.d.nameCards[m.Index][0]].Name}, true
}

func (gr *grammar) refText(r cardRef) string {
	if r.card >= 0 {
		return gr.d.Cards[r.card].Code
	}
	return r.text
}

func (gr *grammar) player(sc *orders.Scanner) (string, bool) {
	m, err := sc.Name(gr.players)
	if err != nil {
		sc.Fail(err.Error(), "")
		return "", false
	}
	return m.ID, true
}

func (gr *grammar) area(sc *orders.Scanner) (Area, bool) {
	switch {
	case sc.Accept("listing", "listed", "list", "listings", "market"):
		return AreaListing, true
	case sc.Accept("contracts", "contract"):
		return AreaContracts, true
	case sc.Accept("vehicles", "vehicle", "trucks"):
		return AreaVehicles, true
	case sc.Accept("offices", "office"):
		return AreaOffices, true
	case sc.Accept("stale"):
		sc.Accept("sale")
		return AreaStale, true
	}
	return AreaNone, false
}

// items reads cards and at most one sum of money: "LM1", "LM1 and FM1",
// "$300", "LM1 + $100".
func (gr *grammar) items(sc *orders.Scanner) ([]cardRef, int, bool) {
	var cards []cardRef
	m := 0
	for {
		if n, ok, isMoney := gr.money(sc); isMoney {
			if !ok {
				return nil, 0, false
			}
			if m > 0 {
				sc.Fail("one sum of money per side", "")
				return nil, 0, false
			}
			m = n
		} else {
			c, ok := gr.card(sc)
			if !ok {
				return nil, 0, false
			}
			cards = append(cards, c)
		}
		if !sc.Accept(",", "and", "+", "plus") {
			return cards, m, true
		}
	}
}

// money reads "$300", "300", "$1,500" or "300$"; isMoney is false when
// the next token is no amount.
func (gr *grammar) money(sc *orders.Scanner) (n int, ok, isMoney bool) {
	start := sc.Pos()
	dollar := sc.Accept("$")
	t := sc.Peek()
	v, err := strconv.Atoi(t.Norm)
	if t.Kind != orders.Word || err != nil {
		if dollar {
			sc.Fail("a sum of money is written $300", "")
			return 0, false, true
		}
		sc.Seek(start)
		return 0, false, false
	}
	sc.Next()
	for sc.Peek().Norm == "," {
		nx := sc.PeekAt(1)
		if len(nx.Norm) != 3 {
			break
		}
		w, err := strconv.Atoi(nx.Norm)
		if err != nil {
			break
		}
		sc.Next()
		sc.Next()
		v = v*1000 + w
	}
	sc.Accept("$", "dollars")
	if v <= 0 {
		sc.Fail("a sum of money must be more than $0", "")
		return 0, false, true
	}
	return v, true, true
}

func (gr *grammar) integer(sc *orders.Scanner) (int, bool) {
	neg := sc.Accept("-")
	t := sc.Peek()
	v, err := strconv.Atoi(t.Norm)
	if t.Kind != orders.Word || err != nil {
		return 0, false
	}
	sc.Next()
	if neg {
		v = -v
	}
	return v, true
}

// coords reads "x,y", "x y", "(x,y)" or "x/y".
func (gr *grammar) coords(sc *orders.Scanner) (int, int, bool) {
	paren := sc.Accept("(")
	x, ok := gr.integer(sc)
	if !ok {
		sc.Fail("a cell is written x,y (x grows to the east, y to the south; your main office starts at 0,0)", "PLACE LM1 AT 1,0")
		return 0, 0, false
	}
	sc.Accept(",", "/", ";")
	y, ok := gr.integer(sc)
	if !ok {
		sc.Fail("a cell is written x,y", "PLACE LM1 AT 1,0")
		return 0, 0, false
	}
	if paren {
		sc.Accept(")")
	}
	if x < -1000 || x > 1000 || y < -1000 || y > 1000 {
		sc.Fail("that cell is too far away", "")
		return 0, 0, false
	}
	return x, y, true
}

func (gr *grammar) direction(sc *orders.Scanner) (int, bool) {
	switch {
	case sc.Accept("n", "north", "above", "up", "top"):
		return 0, true
	case sc.Accept("e", "east", "right"):
		return 1, true
	case sc.Accept("s", "south", "below", "down", "bottom"):
		return 2, true
	case sc.Accept("w", "west", "left"):
		return 3, true
	}
	return 0, false
}

// where reads "AT x,y", "AT <player> x,y", "TO x,y" or "<dir> OF <card>".
func (gr *grammar) where(sc *orders.Scanner, o *Order) bool {
	if sc.Accept("at", "to", "on", "in") {
		sc.Accept("cell")
		t := sc.Peek()
		if t.Kind == orders.Word {
			if _, err := strconv.Atoi(t.Norm); err != nil && t.Norm != "" {
				p, ok := gr.player(sc)
				if !ok {
					return false
				}
				o.Power = p
			}
		}
		if o.Power != "" {
			if k, ok := gr.direction(sc); ok {
				return gr.relative(sc, o, k)
			}
		}
		x, y, ok := gr.coords(sc)
		if !ok {
			return false
		}
		o.At = spot{set: true, x: x, y: y}
		return true
	}
	if k, ok := gr.direction(sc); ok {
		return gr.relative(sc, o, k)
	}
	sc.Fail("say where: AT x,y or EAST OF <placed card>", "PLACE LM1 AT 1,0")
	return false
}

func (gr *grammar) relative(sc *orders.Scanner, o *Order, k int) bool {
	if !sc.Accept("of") {
		sc.Fail("write <direction> OF <placed card>", "PLACE LM1 EAST OF MO1")
		return false
	}
	c, ok := gr.card(sc)
	if !ok {
		return false
	}
	o.At = spot{set: true, rel: true, dir: k, of: c}
	return true
}

func (gr *grammar) rotation(sc *orders.Scanner) (int, bool) {
	n, ok := gr.integer(sc)
	if !ok {
		sc.Fail("a turn is 0, 1, 2 or 3 quarter turns clockwise (or 90, 180, 270)", "PLACE LM1 AT 1,0 TURN 1")
		return 0, false
	}
	switch n {
	case 0, 1, 2, 3:
		return n, true
	case 90, 180, 270, 360:
		return n / 90 & 3, true
	case -1, -90:
		return 3, true
	}
	sc.Fail("a turn is 0, 1, 2 or 3 quarter turns clockwise (or 90, 180, 270)", "PLACE LM1 AT 1,0 TURN 1")
	return 0, false
}

// parseCanonical reads stored order lines back, strictly.
func (g *game) parseCanonical(lines []string) ([]Order, []string) {
	gr, err := newGrammar(g.d, g.powers())
	if err != nil {
		return nil, []string{err.Error()}
	}
	var out []Order
	var errs []string
	for _, l := range lines {
		res := orders.Parse(l, orders.Options{Grammar: gr, Strict: true})
		found := false
		for _, ln := range res.Lines {
			if ln.Kind == orders.OrderLine {
				if v, ok := ln.Value.(*line); ok {
					out = append(out, v.orders...)
					found = true
				}
			}
		}
		if !found {
			errs = append(errs, fmt.Sprintf("stored order %q could not be read and is ignored", strings.TrimSpace(l)))
		}
	}
	return out, errs
}

func (g *game) powers() []string {
	var out []string
	for _, p := range g.players {
		out = append(out, p.power)
	}
	return out
}
