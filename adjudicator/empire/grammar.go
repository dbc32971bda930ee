package empire

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/orders"
)

// OrderKind is what an order asks for.
type OrderKind uint8

const (
	OrderMove      OrderKind = iota + 1 // tactical: a unit takes a position (standing or on the move)
	OrderHold                           // tactical: a unit keeps its position
	OrderRetreat                        // tactical, retreat rule: retreat when picked to attack
	OrderSacrifice                      // tactical or deployment: use a unit up to supply its group
	OrderCeasefire                      // tactical: done with tactical operations
	OrderFightOn                        // tactical: withdraws a ceasefire
	OrderKeep                           // deployment: the unit stays on the board
	OrderPool                           // deployment: the unit goes to its territory's pool
	OrderTransform                      // deployment: a headquarters becomes a stationary unit
	OrderBid                            // bids: strategic turns of production
	OrderBuy                            // production: buy units placed in a hex
	OrderPlace                          // production: place a pooled unit
	OrderSave                           // production: save points in a factory
)

// Order is one typed order of the Empire grammar.
//
//	RID3 C4-D4        OrderMove: Unit takes Pos{C4, D4}   (RID3 C4: stands in C4)
//	RID3 HOLD         OrderHold
//	RETREAT RAD2 C4   OrderRetreat (Hex: the hex it keeps, -1 if not named)
//	SACRIFICE TD5     OrderSacrifice
//	CEASEFIRE         OrderCeasefire        NO CEASEFIRE   OrderFightOn
//	KEEP RAD2 C4      OrderKeep (Hex: where a unit on the move settles, -1 if not named)
//	POOL RID3         OrderPool
//	TRANSFORM AGHQ4   OrderTransform
//	BID 3             OrderBid (N)
//	BUY 2 RID C4      OrderBuy (N units of Type in Hex)
//	PLACE RID3 C4     OrderPlace
//	SAVE 5 FAC1       OrderSave (N points in Unit)
type Order struct {
	Kind OrderKind
	Unit string // unit name as the game writes it ("RID3"), "" for none
	Type string // OrderBuy: unit type code ("RID")
	N    int
	Pos  Pos // OrderMove: the position; other orders: Pos.At is the hex (-1 none)
}

// keywords of the grammar: a misspelt unit name never swallows them.
var keywords = map[string]bool{
	"hold": true, "holds": true, "h": true, "stay": true, "stays": true, "stand": true, "stands": true,
	"move": true, "moves": true, "m": true, "to": true, "at": true, "in": true, "into": true, "on": true, "and": true,
	"retreat": true, "retreats": true, "sacrifice": true, "sacrifices": true, "cannibalise": true, "cannibalize": true,
	"ceasefire": true, "cease": true, "fire": true, "no": true, "fight": true,
	"keep": true, "keeps": true, "pool": true, "pools": true, "transform": true, "transforms": true, "convert": true,
	"bid": true, "buy": true, "buys": true, "purchase": true, "place": true, "deploy": true, "save": true,
}

// grammar reads one power's orders. units names the power's units; types
// the unit types in play.
type grammar struct {
	w     *World
	units *orders.Names
	types *orders.Names
}

// newGrammar builds the grammar for a power of g.
func (g *Game) newGrammar(power string) (*grammar, error) {
	var un []orders.Name
	for _, u := range g.unitsOf(power) {
		n := u.Name()
		un = append(un, orders.Name{ID: strings.ToLower(n), Abbrev: n,
			Full: u.Type.Name + " " + strconv.Itoa(u.Serial), Aliases: []string{u.Type.Code + "-" + strconv.Itoa(u.Serial)}})
	}
	units, err := orders.NewNames("unit", un)
	if err != nil {
		return nil, err
	}
	var tn []orders.Name
	for _, t := range g.Types {
		if t.Mobile() {
			tn = append(tn, orders.Name{ID: strings.ToLower(t.Code), Abbrev: t.Code, Full: t.Name})
		}
	}
	types, err := orders.NewNames("unit type", tn)
	if err != nil {
		return nil, err
	}
	return &grammar{w: g.World, units: units, types: types}, nil
}

// ParseOrder implements orders.Grammar.
func (gr *grammar) ParseOrder(sc *orders.Scanner) any {
	sc.SetStop(func(w string) bool { return keywords[w] })
	o := gr.order(sc)
	if o == nil || sc.Failed() {
		return nil
	}
	sc.Accept(".", ";", "!", ",")
	if !sc.Done() {
		sc.Fail(fmt.Sprintf("%q after the order is not understood", sc.Rest()), gr.format(*o))
		return nil
	}
	return o
}

func (gr *grammar) order(sc *orders.Scanner) *Order {
	switch {
	case sc.Accept("bid"):
		n, ok := gr.number(sc, "BID 3")
		if !ok {
			return nil
		}
		return &Order{Kind: OrderBid, N: n, Pos: Pos{-1, -1}}
	case sc.Accept("buy", "buys", "purchase"):
		n := 1
		if t := sc.Peek(); t.Kind == orders.Word && isDigits(t.Norm) {
			var ok bool
			if n, ok = gr.number(sc, "BUY 2 RID C4"); !ok {
				return nil
			}
		}
		m, err := sc.Name(gr.types)
		if err != nil {
			sc.Fail(err.Error(), "BUY RID C4 (unit types: "+gr.typeList()+")")
			return nil
		}
		sc.Accept("at", "in", "on")
		h, ok := gr.hex(sc, "BUY "+gr.types.At(m.Index).Abbrev+" C4")
		if !ok {
			return nil
		}
		return &Order{Kind: OrderBuy, Type: gr.types.At(m.Index).Abbrev, N: n, Pos: Pos{h, -1}}
	case sc.Accept("save"):
		if t := sc.Peek(); t.Kind == orders.Word && isDigits(t.Norm) {
			n, _ := gr.number(sc, "")
			sc.Accept("in", "at", "to")
			u, ok := gr.unit(sc, "SAVE 5 FAC1")
			if !ok {
				return nil
			}
			return &Order{Kind: OrderSave, Unit: u, N: n, Pos: Pos{-1, -1}}
		}
		u, ok := gr.unit(sc, "SAVE 5 FAC1")
		if !ok {
			return nil
		}
		n, ok := gr.number(sc, "SAVE 5 "+u)
		if !ok {
			return nil
		}
		return &Order{Kind: OrderSave, Unit: u, N: n, Pos: Pos{-1, -1}}
	case sc.Accept("place", "deploy"):
		u, ok := gr.unit(sc, "PLACE RID3 C4")
		if !ok {
			return nil
		}
		sc.Accept("at", "in", "on", "to")
		h, ok := gr.hex(sc, "PLACE "+u+" C4")
		if !ok {
			return nil
		}
		return &Order{Kind: OrderPlace, Unit: u, Pos: Pos{h, -1}}
	case sc.Accept("ceasefire"):
		return &Order{Kind: OrderCeasefire, Pos: Pos{-1, -1}}
	case sc.Accept("cease"):
		if !sc.Accept("fire") {
			sc.Fail("did you mean CEASEFIRE?", "CEASEFIRE")
			return nil
		}
		return &Order{Kind: OrderCeasefire, Pos: Pos{-1, -1}}
	case sc.Accept("no"):
		if sc.Accept("ceasefire") || sc.Accept("cease") && sc.Accept("fire") {
			return &Order{Kind: OrderFightOn, Pos: Pos{-1, -1}}
		}
		sc.Fail("did you mean NO CEASEFIRE?", "NO CEASEFIRE")
		return nil
	case sc.Accept("fight"):
		sc.Accept("on")
		return &Order{Kind: OrderFightOn, Pos: Pos{-1, -1}}
	}
	if k, ok := gr.unitVerb(sc); ok {
		u, ok := gr.unit(sc, verbExample(k))
		if !ok {
			return nil
		}
		return gr.afterVerb(sc, k, u)
	}
	// A line that starts with a unit: "RID3 C4-D4", "RID3 HOLD", "RID3 POOL".
	u, ok := gr.unit(sc, "RID3 C4-D4")
	if !ok {
		return nil
	}
	if k, ok := gr.unitVerb(sc); ok {
		return gr.afterVerb(sc, k, u)
	}
	if sc.Accept("hold", "holds", "h", "stand", "stands") {
		return &Order{Kind: OrderHold, Unit: u, Pos: Pos{-1, -1}}
	}
	sc.Accept("move", "moves", "m", "to", "stay", "stays", "-", "->", "=", ":")
	if sc.Done() {
		sc.Fail("say where "+u+" goes", u+" C4-D4 (on the move), "+u+" C4 (standing) or "+u+" HOLD")
		return nil
	}
	a, ok := gr.hex(sc, u+" C4-D4")
	if !ok {
		return nil
	}
	if !sc.Accept("-", "->", "to", "/", "and", ",") {
		return &Order{Kind: OrderMove, Unit: u, Pos: Pos{a, -1}}
	}
	b, ok := gr.hex(sc, u+" "+gr.w.HexName(a)+"-D4")
	if !ok {
		return nil
	}
	return &Order{Kind: OrderMove, Unit: u, Pos: Pos{a, b}}
}

// unitVerb reads a verb that takes a unit.
func (gr *grammar) unitVerb(sc *orders.Scanner) (OrderKind, bool) {
	switch {
	case sc.Accept("keep", "keeps"):
		return OrderKeep, true
	case sc.Accept("pool", "pools"):
		return OrderPool, true
	case sc.Accept("transform", "transforms", "convert"):
		return OrderTransform, true
	case sc.Accept("sacrifice", "sacrifices", "cannibalise", "cannibalize"):
		return OrderSacrifice, true
	case sc.Accept("retreat", "retreats"):
		return OrderRetreat, true
	}
	return 0, false
}

func verbExample(k OrderKind) string {
	switch k {
	case OrderKeep:
		return "KEEP RID3"
	case OrderPool:
		return "POOL RID3"
	case OrderTransform:
		return "TRANSFORM AGHQ4"
	case OrderSacrifice:
		return "SACRIFICE TD5"
	}
	return "RETREAT RAD2 C4"
}

// afterVerb reads what follows "KEEP RAD2", "RETREAT RAD2", …
func (gr *grammar) afterVerb(sc *orders.Scanner, k OrderKind, u string) *Order {
	o := &Order{Kind: k, Unit: u, Pos: Pos{-1, -1}}
	switch k {
	case OrderKeep, OrderRetreat:
		sc.Accept("to", "at", "in", "into", "on")
		if !sc.Done() && gr.looksLikeHex(sc.Peek()) {
			h, ok := gr.hex(sc, verbExample(k))
			if !ok {
				return nil
			}
			o.Pos.At = h
		}
	case OrderTransform:
		if sc.Accept("into", "to") {
			sc.Next() // the stationary type named is what the HQ becomes anyway
		}
	}
	return o
}

func (gr *grammar) number(sc *orders.Scanner, example string) (int, bool) {
	t := sc.Peek()
	if t.Kind != orders.Word || !isDigits(t.Norm) || len(t.Norm) > 4 {
		sc.Fail("a number is missing", example)
		return 0, false
	}
	sc.Next()
	n, _ := strconv.Atoi(t.Norm)
	return n, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// looksLikeHex reports a token written like a hex name ("C4").
func (gr *grammar) looksLikeHex(t orders.Token) bool {
	return t.Kind == orders.Word && len(t.Norm) >= 2 && len(t.Norm) <= 3 && t.Norm[0] >= 'a' && t.Norm[0] <= 'z' && isDigits(t.Norm[1:])
}

// hex reads a hex name. Hexes are never guessed: a wrong coordinate is an
// error, never a nearby hex.
func (gr *grammar) hex(sc *orders.Scanner, example string) (int, bool) {
	t := sc.Peek()
	if t.Kind != orders.Word {
		sc.Fail("a hex is missing (hexes are written column letter and row number, like C4)", example)
		return 0, false
	}
	h, ok := gr.w.ParseHex(t.Norm)
	if !ok {
		if gr.looksLikeHex(t) {
			sc.Fail(fmt.Sprintf("%s is not on the board (columns A to %c, rows 1 to %d)", strings.ToUpper(t.Text), 'A'+gr.w.Width()-1, gr.w.Height()), example)
		} else {
			sc.Fail(fmt.Sprintf("%q is not a hex (hexes are written column letter and row number, like C4)", t.Text), example)
		}
		return 0, false
	}
	sc.Next()
	return h, true
}

// unit reads one of the power's unit names. A close spelling is read with
// a warning, but a different number never is: "RID5" is never RID3.
func (gr *grammar) unit(sc *orders.Scanner, example string) (string, bool) {
	start := sc.Pos()
	m, err := sc.Name(gr.units)
	if err != nil {
		if gr.units.Len() == 0 {
			sc.Fail("you have no units", "")
			return "", false
		}
		sc.Fail(err.Error(), example)
		return "", false
	}
	name := gr.units.At(m.Index).Abbrev
	if m.How == orders.MatchTypo || m.How == orders.MatchPrefix {
		if d := digitsOf(m.Text); d != "" && d != digitsOf(name) {
			sc.Seek(start)
			sc.Fail(fmt.Sprintf("%q is not one of your units (did you mean %s?)", m.Text, name), "")
			return "", false
		}
	}
	return name, true
}

func digitsOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func (gr *grammar) typeList() string {
	var out []string
	for i := 0; i < gr.types.Len(); i++ {
		out = append(out, gr.types.At(i).Abbrev)
	}
	return strings.Join(out, " ")
}

// format writes an order in its canonical form, which the grammar reads
// back strictly.
func (gr *grammar) format(o Order) string { return formatOrder(gr.w, o) }

func formatOrder(w *World, o Order) string {
	hex := func(h int) string { return w.HexName(h) }
	switch o.Kind {
	case OrderMove:
		if o.Pos.To >= 0 {
			return o.Unit + " " + hex(o.Pos.At) + "-" + hex(o.Pos.To)
		}
		return o.Unit + " " + hex(o.Pos.At)
	case OrderHold:
		return o.Unit + " HOLD"
	case OrderRetreat:
		if o.Pos.At >= 0 {
			return "RETREAT " + o.Unit + " " + hex(o.Pos.At)
		}
		return "RETREAT " + o.Unit
	case OrderSacrifice:
		return "SACRIFICE " + o.Unit
	case OrderCeasefire:
		return "CEASEFIRE"
	case OrderFightOn:
		return "NO CEASEFIRE"
	case OrderKeep:
		if o.Pos.At >= 0 {
			return "KEEP " + o.Unit + " " + hex(o.Pos.At)
		}
		return "KEEP " + o.Unit
	case OrderPool:
		return "POOL " + o.Unit
	case OrderTransform:
		return "TRANSFORM " + o.Unit
	case OrderBid:
		return "BID " + strconv.Itoa(o.N)
	case OrderBuy:
		if o.N != 1 {
			return fmt.Sprintf("BUY %d %s %s", o.N, o.Type, hex(o.Pos.At))
		}
		return "BUY " + o.Type + " " + hex(o.Pos.At)
	case OrderPlace:
		return "PLACE " + o.Unit + " " + hex(o.Pos.At)
	case OrderSave:
		return fmt.Sprintf("SAVE %d %s", o.N, o.Unit)
	}
	return "?"
}

// parseOrders reads a power's order text with the game's grammar.
func (g *Game) parseOrders(power, text string, strict bool) (*orders.Result, error) {
	gr, err := g.newGrammar(power)
	if err != nil {
		return nil, err
	}
	return orders.Parse(text, orders.Options{Grammar: gr, Strict: strict}), nil
}
