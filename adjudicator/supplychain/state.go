package supplychain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// stateVersion is the version of the stored state encoding. Decoding
// accepts every version up to this one; add fields, never rename them.
const stateVersion = 1

// Options are a game's settings, fixed at New.
type Options struct {
	Players  int    // 1–6
	Short    bool   // the Short Deck (codes ending in 2, 3, 4 out)
	Coop     bool   // co-op: partners share a main office, plan and token
	Laissez  bool   // Laissez-faire supply (variation)
	FireSale bool   // Fire Sale: special offices go into the deck (variation)
	Default  string // action of a turn not played by its deadline: "revenue" or "pass"
	Deck     string // embedded deck name
	// Solo: the solitaire game of the seed, played by each player on his
	// own tableau; with 2 players, two solitaire games side by side from
	// one Short Deck (the seed: "there are enough cards in the Short Deck
	// for 2 people to each play a solitaire game at the same time").
	// Always set for 1 player.
	Solo bool
}

type phase uint8

const (
	phaseTurn  phase = iota + 1 // the seat's player takes up to two actions
	phaseOffer                  // the partner of a Buy-Sell-Trade answers
	phaseSolo                   // the solitaire game: one open placement phase for every player
	phaseOver
)

var phaseNames = map[phase]string{phaseTurn: "turn", phaseOffer: "offer", phaseSolo: "solo", phaseOver: "over"}

// game is the whole position. Cards are deck indexes.
type game struct {
	d   *Deck
	opt Options

	players []player // in seat order: players[0] is Player 1, the Listing Agent
	teams   []team   // one per player, or one per partnership in co-op

	round int // 1-based
	seat  int // index of the active player
	phase phase
	step  int // phases played so far (part of the phase id)

	draw      []int  // the Deck, top first
	listing   []slot // the listed cards (card -1: empty slot)
	stale     []int  // the Stale Sale pile, oldest first
	contracts []int  // the Contract deck, sorted
	vehicles  []int  // the Vehicle deck, sorted
	offices   []int  // the Offices area, sorted
	out       []int  // out of play, sorted

	offer *offer   // phaseOffer: the Buy-Sell-Trade waiting for an answer
	acted []string // actions used in the active turn so far

	winners []string

	rep  *report     // what happened (not stored)
	hook func(*game) // tests: called after every action carried out
	// sim: a trial run for Check or a bot; it must not learn what the
	// player cannot see (the Deck's order, other players' hands).
	sim bool
}

type slot struct {
	card int
	age  int // taps so far (seed: a card goes stale at its fourth tap)
}

type player struct {
	power     string
	team      int
	money     int
	hand      []handCard
	starter   int  // the dealt Starter business (never sold nor abandoned), -1 if none
	derelicts int  // derelicts possessed this game (law F)
	blind     int  // Blind Purchase set aside, waiting to be paid for; -1 if none
	forced    bool // this turn must include Revenue (a Blind Purchase was waiting at its start)
	done      bool // solitaire: this player's game is finished
}

type handCard struct {
	card  int
	stale bool // bought from the Stale Sale pile: may not be swapped
}

type team struct {
	placed []placed
	thorns []thorn  // derelicts other players attached here
	token  *edgeRef // nil: 3VP side up on the main office
	plan   int      // business plan, -1 if none
	main   int      // main office card, -1 if none
	seats  []int    // members, in seat order (derived)
}

type placed struct {
	card int
	x, y int
	rot  int // quarter turns clockwise from the printed orientation
	// stale: bought from the Stale Sale pile; the mark stays while the
	// card is placed, so a Close brings it back unswappable (seed: Swap).
	stale bool
}

type thorn struct {
	card   int
	x, y   int
	rot    int
	target int    // the property it is attached to
	from   string // the power that attached it
}

// edgeRef is the edge east (East) or south (South) of cell x,y.
type edgeRef struct {
	x, y int
	dir  uint8
}

type offer struct {
	from, to  int // player indexes
	give, get []int
	hidden    []cardRef // sim only: cards asked for that may be in the partner's hand
	giveMoney int
	getMoney  int
	rest      []string // the actor's order lines after the offer
}

// clone returns a deep copy.
func (g *game) clone() *game {
	c := *g
	c.players = make([]player, len(g.players))
	for i, p := range g.players {
		p.hand = append([]handCard(nil), p.hand...)
		c.players[i] = p
	}
	c.teams = make([]team, len(g.teams))
	for i, t := range g.teams {
		t.placed = append([]placed(nil), t.placed...)
		t.thorns = append([]thorn(nil), t.thorns...)
		if t.token != nil {
			e := *t.token
			t.token = &e
		}
		t.seats = append([]int(nil), t.seats...)
		c.teams[i] = t
	}
	c.draw = append([]int(nil), g.draw...)
	c.listing = append([]slot(nil), g.listing...)
	c.stale = append([]int(nil), g.stale...)
	c.contracts = append([]int(nil), g.contracts...)
	c.vehicles = append([]int(nil), g.vehicles...)
	c.offices = append([]int(nil), g.offices...)
	c.out = append([]int(nil), g.out...)
	c.acted = append([]string(nil), g.acted...)
	c.winners = append([]string(nil), g.winners...)
	if g.offer != nil {
		o := *g.offer
		o.give = append([]int(nil), o.give...)
		o.get = append([]int(nil), o.get...)
		o.rest = append([]string(nil), o.rest...)
		o.hidden = append([]cardRef(nil), o.hidden...)
		c.offer = &o
	}
	return &c
}

func (g *game) playerIndex(power string) int {
	for i := range g.players {
		if g.players[i].power == power {
			return i
		}
	}
	return -1
}

// ---- JSON ----

type jsonOptions struct {
	Players  int    `json:"players"`
	Deck     string `json:"deck"` // full | short
	Coop     bool   `json:"coop,omitempty"`
	Laissez  bool   `json:"laissez_faire,omitempty"`
	FireSale bool   `json:"fire_sale,omitempty"`
	Default  string `json:"default"`
	Cards    string `json:"cards"`          // deck file name
	Solo     bool   `json:"solo,omitempty"` // solitaire side by side (2 players; implied for 1)
}

type jsonSlot struct {
	Card string `json:"card,omitempty"`
	Age  int    `json:"age"`
}

type jsonHand struct {
	Card  string `json:"card"`
	Stale bool   `json:"stale,omitempty"`
}

type jsonPlayer struct {
	Power     string     `json:"power"`
	Team      int        `json:"team"`
	Money     int        `json:"money"`
	Hand      []jsonHand `json:"hand"`
	Starter   string     `json:"starter,omitempty"`
	Derelicts int        `json:"derelicts,omitempty"`
	Blind     string     `json:"blind,omitempty"`
	Forced    bool       `json:"must_collect,omitempty"`
	Done      bool       `json:"done,omitempty"`
}

type jsonPlaced struct {
	Card  string `json:"card"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
	Rot   int    `json:"rot"`
	Stale bool   `json:"stale,omitempty"`
}

type jsonThorn struct {
	Card   string `json:"card"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Rot    int    `json:"rot"`
	Target string `json:"target"`
	From   string `json:"from"`
}

type jsonEdge struct {
	X   int    `json:"x"`
	Y   int    `json:"y"`
	Dir string `json:"dir"` // E | S
}

type jsonTeam struct {
	Placed []jsonPlaced `json:"placed"`
	Thorns []jsonThorn  `json:"thorns,omitempty"`
	Token  *jsonEdge    `json:"token,omitempty"`
	Plan   string       `json:"plan,omitempty"`
	Main   string       `json:"main,omitempty"`
}

type jsonOffer struct {
	From      string   `json:"from"`
	To        string   `json:"to"`
	Give      []string `json:"give,omitempty"`
	Get       []string `json:"get,omitempty"`
	GiveMoney int      `json:"give_money,omitempty"`
	GetMoney  int      `json:"get_money,omitempty"`
	Rest      []string `json:"rest,omitempty"`
}

type jsonState struct {
	Version   int          `json:"version"`
	Options   jsonOptions  `json:"options"`
	Round     int          `json:"round"`
	Seat      int          `json:"seat"`
	Phase     string       `json:"phase"`
	Step      int          `json:"step"`
	Players   []jsonPlayer `json:"players"`
	Teams     []jsonTeam   `json:"teams"`
	Draw      []string     `json:"draw"`
	Listing   []jsonSlot   `json:"listing"`
	Stale     []string     `json:"stale"`
	Contracts []string     `json:"contracts"`
	Vehicles  []string     `json:"vehicles"`
	Offices   []string     `json:"offices"`
	Out       []string     `json:"out_of_play"`
	Offer     *jsonOffer   `json:"offer,omitempty"`
	Acted     []string     `json:"acted,omitempty"`
	Winners   []string     `json:"winners,omitempty"`
}

func (g *game) code(i int) string {
	if i < 0 {
		return ""
	}
	return g.d.Cards[i].Code
}

func (g *game) codes(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = g.d.Cards[x].Code
	}
	return out
}

func dirName(d uint8) string {
	switch d {
	case North:
		return "N"
	case East:
		return "E"
	case South:
		return "S"
	case West:
		return "W"
	}
	return "?"
}

// encode writes the state as JSON; the same game gives the same bytes.
func (g *game) encode() []byte {
	deckKind := "full"
	if g.opt.Short {
		deckKind = "short"
	}
	js := jsonState{
		Version: stateVersion,
		Options: jsonOptions{Players: g.opt.Players, Deck: deckKind, Coop: g.opt.Coop, Laissez: g.opt.Laissez,
			FireSale: g.opt.FireSale, Default: g.opt.Default, Cards: g.opt.Deck, Solo: g.opt.Solo && g.opt.Players > 1},
		Round: g.round, Seat: g.seat, Phase: phaseNames[g.phase], Step: g.step,
		Draw: g.codes(g.draw), Stale: g.codes(g.stale), Contracts: g.codes(g.contracts),
		Vehicles: g.codes(g.vehicles), Offices: g.codes(g.offices), Out: g.codes(g.out),
		Acted: g.acted, Winners: g.winners,
	}
	for _, s := range g.listing {
		js.Listing = append(js.Listing, jsonSlot{Card: g.code(s.card), Age: s.age})
	}
	for _, p := range g.players {
		jp := jsonPlayer{Power: p.power, Team: p.team, Money: p.money, Hand: []jsonHand{}, Starter: g.code(p.starter),
			Derelicts: p.derelicts, Blind: g.code(p.blind), Forced: p.forced, Done: p.done}
		for _, h := range p.hand {
			jp.Hand = append(jp.Hand, jsonHand{Card: g.code(h.card), Stale: h.stale})
		}
		js.Players = append(js.Players, jp)
	}
	for _, t := range g.teams {
		jt := jsonTeam{Placed: []jsonPlaced{}, Plan: g.code(t.plan), Main: g.code(t.main)}
		for _, pl := range t.placed {
			jt.Placed = append(jt.Placed, jsonPlaced{Card: g.code(pl.card), X: pl.x, Y: pl.y, Rot: pl.rot, Stale: pl.stale})
		}
		for _, th := range t.thorns {
			jt.Thorns = append(jt.Thorns, jsonThorn{Card: g.code(th.card), X: th.x, Y: th.y, Rot: th.rot, Target: g.code(th.target), From: th.from})
		}
		if t.token != nil {
			jt.Token = &jsonEdge{X: t.token.x, Y: t.token.y, Dir: dirName(t.token.dir)}
		}
		js.Teams = append(js.Teams, jt)
	}
	if o := g.offer; o != nil {
		js.Offer = &jsonOffer{From: g.players[o.from].power, To: g.players[o.to].power, Give: g.codes(o.give), Get: g.codes(o.get),
			GiveMoney: o.giveMoney, GetMoney: o.getMoney, Rest: o.rest}
	}
	b, err := json.Marshal(js)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// decodeState reads a stored state: unknown fields, unknown cards and
// a card in two places are refused.
func decodeState(b []byte) (*game, error) {
	var js jsonState
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&js); err != nil {
		return nil, fmt.Errorf("supplychain: state: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("supplychain: state: data after the state")
	}
	if js.Version < 1 || js.Version > stateVersion {
		return nil, fmt.Errorf("supplychain: state version %d, this engine reads 1 to %d", js.Version, stateVersion)
	}
	d, err := DeckByName(js.Options.Cards)
	if err != nil {
		return nil, fmt.Errorf("supplychain: state: %w", err)
	}
	g := &game{d: d, round: js.Round, seat: js.Seat, step: js.Step, acted: js.Acted, winners: js.Winners}
	g.opt = Options{Players: js.Options.Players, Short: js.Options.Deck == "short", Coop: js.Options.Coop,
		Laissez: js.Options.Laissez, FireSale: js.Options.FireSale, Default: js.Options.Default, Deck: js.Options.Cards,
		Solo: js.Options.Solo || js.Options.Players == 1}
	if js.Options.Deck != "short" && js.Options.Deck != "full" {
		return nil, fmt.Errorf("supplychain: state: deck %q", js.Options.Deck)
	}
	for p, n := range phaseNames {
		if n == js.Phase {
			g.phase = p
		}
	}
	if g.phase == 0 {
		return nil, fmt.Errorf("supplychain: state: phase %q", js.Phase)
	}
	seen := make([]bool, len(d.Cards))
	var bad error
	card := func(code string) int {
		if code == "" {
			return -1
		}
		i, ok := d.CardByCode(code)
		if !ok {
			bad = fmt.Errorf("unknown card %q", code)
			return -1
		}
		if seen[i] {
			bad = fmt.Errorf("card %s in two places", code)
		}
		seen[i] = true
		return i
	}
	cardsOf := func(xs []string) []int {
		out := make([]int, 0, len(xs))
		for _, x := range xs {
			out = append(out, card(x))
		}
		return out
	}
	g.draw, g.stale, g.contracts = cardsOf(js.Draw), cardsOf(js.Stale), cardsOf(js.Contracts)
	g.vehicles, g.offices, g.out = cardsOf(js.Vehicles), cardsOf(js.Offices), cardsOf(js.Out)
	for _, s := range js.Listing {
		g.listing = append(g.listing, slot{card: card(s.Card), age: s.Age})
	}
	for _, jp := range js.Players {
		p := player{power: jp.Power, team: jp.Team, money: jp.Money, derelicts: jp.Derelicts, blind: card(jp.Blind), starter: -1, forced: jp.Forced, done: jp.Done}
		for _, h := range jp.Hand {
			p.hand = append(p.hand, handCard{card: card(h.Card), stale: h.Stale})
		}
		if jp.Starter != "" {
			i, ok := d.CardByCode(jp.Starter)
			if !ok {
				return nil, fmt.Errorf("supplychain: state: unknown starter %q", jp.Starter)
			}
			p.starter = i
		}
		if p.team < 0 || p.team >= len(js.Teams) {
			return nil, fmt.Errorf("supplychain: state: player %s in team %d of %d", p.power, p.team, len(js.Teams))
		}
		g.players = append(g.players, p)
	}
	for _, jt := range js.Teams {
		t := team{plan: card(jt.Plan), main: -1}
		if jt.Main != "" {
			i, ok := d.CardByCode(jt.Main)
			if !ok {
				return nil, fmt.Errorf("supplychain: state: unknown main office %q", jt.Main)
			}
			t.main = i
		}
		for _, pl := range jt.Placed {
			t.placed = append(t.placed, placed{card: card(pl.Card), x: pl.X, y: pl.Y, rot: pl.Rot & 3, stale: pl.Stale})
		}
		for _, th := range jt.Thorns {
			tc := card(th.Card)
			tg, ok := d.CardByCode(th.Target)
			if !ok {
				return nil, fmt.Errorf("supplychain: state: unknown thorn target %q", th.Target)
			}
			t.thorns = append(t.thorns, thorn{card: tc, x: th.X, y: th.Y, rot: th.Rot & 3, target: tg, from: th.From})
		}
		if jt.Token != nil {
			e := &edgeRef{x: jt.Token.X, y: jt.Token.Y}
			switch jt.Token.Dir {
			case "E":
				e.dir = East
			case "S":
				e.dir = South
			default:
				return nil, fmt.Errorf("supplychain: state: token edge %q", jt.Token.Dir)
			}
			t.token = e
		}
		g.teams = append(g.teams, t)
	}
	if bad != nil {
		return nil, fmt.Errorf("supplychain: state: %w", bad)
	}
	if jo := js.Offer; jo != nil {
		o := &offer{from: g.playerIndex(jo.From), to: g.playerIndex(jo.To), giveMoney: jo.GiveMoney, getMoney: jo.GetMoney, rest: jo.Rest}
		if o.from < 0 || o.to < 0 {
			return nil, fmt.Errorf("supplychain: state: offer between unknown powers")
		}
		for _, c := range jo.Give {
			i, ok := d.CardByCode(c)
			if !ok {
				return nil, fmt.Errorf("supplychain: state: offer card %q", c)
			}
			o.give = append(o.give, i)
		}
		for _, c := range jo.Get {
			i, ok := d.CardByCode(c)
			if !ok {
				return nil, fmt.Errorf("supplychain: state: offer card %q", c)
			}
			o.get = append(o.get, i)
		}
		g.offer = o
	}
	if len(g.players) == 0 || g.seat < 0 || g.seat >= len(g.players) {
		return nil, fmt.Errorf("supplychain: state: seat %d of %d players", g.seat, len(g.players))
	}
	if (g.phase == phaseOffer) != (g.offer != nil) {
		return nil, fmt.Errorf("supplychain: state: offer phase without an offer (or the reverse)")
	}
	g.linkTeams()
	return g, nil
}

// linkTeams fills the derived member lists.
func (g *game) linkTeams() {
	for i := range g.teams {
		g.teams[i].seats = g.teams[i].seats[:0]
	}
	for i, p := range g.players {
		g.teams[p.team].seats = append(g.teams[p.team].seats, i)
	}
}

func (g *game) teamName(t int) string {
	var names []string
	for _, s := range g.teams[t].seats {
		names = append(names, titleCase(g.players[s].power))
	}
	return strings.Join(names, " & ")
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
