package supplychain

import (
	"fmt"
	"strings"
)

// Verb is what an order line asks for.
type Verb uint8

const (
	VerbBuy     Verb = iota + 1 // Purchase from one of the five areas
	VerbBlind                   // Blind Purchase
	VerbTrade                   // Buy-Sell-Trade with another player
	VerbSwap                    // Swap a hand card for a listed one
	VerbPlace                   // Place (own tableau)
	VerbAttach                  // Place a derelict on another player's property
	VerbMove                    // Reorganize: move (and turn) a placed card
	VerbRemove                  // Reorganize: take an unnecessary card out
	VerbToken                   // lay the link/3VP token on an edge (or take it back)
	VerbRevenue                 // Revenue
	VerbClose                   // Close: a placed card back into the hand
	VerbDiscard                 // free: abandon a card
	VerbSpin                    // free: turn a placed card
	VerbAsk                     // law E: a question, answered at once
	VerbHand                    // a question: show me my hand
	VerbAccept                  // answer to a Buy-Sell-Trade offer
	VerbDecline                 // answer to a Buy-Sell-Trade offer
	VerbPass                    // take no action this turn
	VerbPick                    // solo: take a contract or vehicle
	VerbReturn                  // solo: put a contract or vehicle back
	VerbFinish                  // solo: end the game
)

// cardRef is a card as the player wrote it: a code (card >= 0) or a name
// (name >= 0, an entry of the deck's name matcher).
type cardRef struct {
	card int
	name int
	text string
	main bool // "main office": the player's own main office
}

func codeRef(i int) cardRef { return cardRef{card: i, name: -1} }

// spot is where a card goes: x,y, or a direction from a placed card.
type spot struct {
	set  bool
	x, y int
	rel  bool
	dir  int // 0..3: N E S W of `of`
	of   cardRef
}

// Order is one order, typed. A line may hold several (CLOSE A, B).
type Order struct {
	Verb   Verb
	Card   cardRef
	Area   Area
	Power  string // trade partner, derelict's victim, ASK's player
	At     spot
	Rot    int
	HasRot bool
	Edge   edgeRef
	Off    bool // TOKEN OFF
	Give   []cardRef
	Get    []cardRef
	GiveM  int
	GetM   int
	Ask    string // OFFICES | CONTRACTS | VEHICLES
	N      int    // SPIN: quarter turns
	From   *cardRef
}

// line is what the grammar returns for one line.
type line struct {
	orders []Order
}

func (o *Order) isQuery() bool { return o.Verb == VerbAsk || o.Verb == VerbHand }

// format writes the canonical line of an order whose cards are resolved.
func (o *Order) format(d *Deck) string {
	code := func(r cardRef) string {
		switch {
		case r.card >= 0:
			return d.Cards[r.card].Code
		case r.main:
			return "main office"
		}
		return `"` + r.text + `"`
	}
	rot := func() string {
		if !o.HasRot {
			return "" // the engine chooses the turn when it carries the order out
		}
		return fmt.Sprintf(" TURN %d", o.Rot&3)
	}
	where := func() string {
		if o.At.rel {
			return fmt.Sprintf(" %s OF %s", dirWords[o.At.dir&3], code(o.At.of))
		}
		return fmt.Sprintf(" %d,%d", o.At.x, o.At.y)
	}
	switch o.Verb {
	case VerbBuy:
		return "BUY " + code(o.Card) + " FROM " + o.Area.String()
	case VerbBlind:
		return "BLIND"
	case VerbTrade:
		items := func(cs []cardRef, m int) string {
			var xs []string
			for _, c := range cs {
				xs = append(xs, code(c))
			}
			if m > 0 {
				xs = append(xs, fmt.Sprintf("$%d", m))
			}
			return strings.Join(xs, ", ")
		}
		return fmt.Sprintf("TRADE WITH %s GIVE %s GET %s", o.Power, items(o.Give, o.GiveM), items(o.Get, o.GetM))
	case VerbSwap:
		return "SWAP " + code(o.Card) + " FOR " + code(o.Give[0])
	case VerbPlace:
		if o.At.rel {
			return "PLACE " + code(o.Card) + where() + rot()
		}
		return "PLACE " + code(o.Card) + " AT" + where() + rot()
	case VerbAttach:
		return "PLACE " + code(o.Card) + " AT " + o.Power + where() + rot()
	case VerbMove:
		if o.At.rel {
			return "MOVE " + code(o.Card) + where() + rot()
		}
		return "MOVE " + code(o.Card) + " TO" + where() + rot()
	case VerbRemove:
		return "REMOVE " + code(o.Card)
	case VerbToken:
		if o.Off {
			return "TOKEN OFF"
		}
		return fmt.Sprintf("TOKEN AT %d,%d %s", o.Edge.x, o.Edge.y, dirName(o.Edge.dir))
	case VerbRevenue:
		if o.From != nil {
			return "REVENUE FROM " + code(*o.From)
		}
		return "REVENUE"
	case VerbClose:
		return "CLOSE " + code(o.Card)
	case VerbDiscard:
		return "DISCARD " + code(o.Card)
	case VerbSpin:
		return fmt.Sprintf("SPIN %s %d", code(o.Card), o.N&3)
	case VerbAsk:
		return "ASK " + o.Power + " " + o.Ask
	case VerbHand:
		return "HAND"
	case VerbAccept:
		return "ACCEPT"
	case VerbDecline:
		return "DECLINE"
	case VerbPass:
		return "PASS"
	case VerbPick:
		return "PICK " + code(o.Card)
	case VerbReturn:
		return "RETURN " + code(o.Card)
	case VerbFinish:
		return "FINISH"
	}
	return "?"
}

var dirWords = [4]string{"NORTH", "EAST", "SOUTH", "WEST"}

// actionKey names the action an order belongs to ("" for free orders). Two
// actions of a turn must differ (seed, Actions); purchases from different
// areas are different actions.
func (o *Order) actionKey() string {
	switch o.Verb {
	case VerbBuy:
		return "purchase from " + strings.ToLower(o.Area.String())
	case VerbBlind:
		return "blind purchase"
	case VerbTrade:
		return "buy-sell-trade"
	case VerbSwap:
		return "swap"
	case VerbPlace, VerbAttach:
		return "place"
	case VerbMove, VerbRemove:
		return "reorganize"
	case VerbRevenue:
		return "revenue"
	case VerbClose:
		return "close"
	}
	return ""
}
