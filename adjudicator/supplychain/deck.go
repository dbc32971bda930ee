package supplychain

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"pbemd/orders"
)

//go:embed decks/*.json
var deckFiles embed.FS

// Kind is what sort of card a card is (seed, set-up step 2).
type Kind uint8

const (
	KindMainOffice    Kind = iota + 1 // green, one dealt face up to each player
	KindOffice                        // green, bought from the Offices area
	KindSpecialOffice                 // blue, two dealt into each hand
	KindStarter                       // the family business, one dealt into each hand
	KindProperty                      // producer, supplier or business of the deck
	KindContract                      // stands in for a producer of one product
	KindVehicle                       // truck or boat
	KindDerelict                      // pink, attached to another player's property
	KindPlan                          // business plan: two streets
)

var kindNames = map[Kind]string{
	KindMainOffice: "main office", KindOffice: "office", KindSpecialOffice: "special office",
	KindStarter: "starter business", KindProperty: "property", KindContract: "contract",
	KindVehicle: "vehicle", KindDerelict: "derelict", KindPlan: "business plan",
}

func (k Kind) String() string { return kindNames[k] }

// IsOffice reports whether cards of this kind are offices.
func (k Kind) IsOffice() bool {
	return k == KindMainOffice || k == KindOffice || k == KindSpecialOffice
}

// Edge bits of a card's four sides, in its printed orientation.
const (
	North uint8 = 1 << iota
	East
	South
	West
)

// EffectKind names what a special office does while it is placed.
type EffectKind string

const (
	EffectNone       EffectKind = ""
	EffectHandLimit  EffectKind = "hand_limit"  // hand limit + Amount
	EffectRouteBonus EffectKind = "route_bonus" // + $Amount per business on a route starting here
	EffectStreetVP   EffectKind = "street_vp"   // + Amount VP per placed property on Street
	EffectDiscount   EffectKind = "discount"    // purchases from Area cost $Amount less
)

// Area is one of the five places a Purchase takes a card from (seed,
// Actions: Purchase).
type Area uint8

const (
	AreaNone Area = iota
	AreaListing
	AreaContracts
	AreaVehicles
	AreaOffices
	AreaStale
)

var areaNames = []string{"", "LISTING", "CONTRACTS", "VEHICLES", "OFFICES", "STALE"}

func (a Area) String() string { return areaNames[a] }

func areaByName(s string) (Area, bool) {
	for i, n := range areaNames {
		if i > 0 && strings.EqualFold(n, s) {
			return Area(i), true
		}
	}
	return AreaNone, false
}

// Effect is a special office's trait.
type Effect struct {
	Kind   EffectKind
	Amount int
	Street int // EffectStreetVP; -1 otherwise
	Area   Area
}

// Card is one physical card. Copies of one property are separate cards with
// their own codes.
type Card struct {
	Index   int // position in Deck.Cards
	Code    string
	Name    string
	Kind    Kind
	Price   int
	VP      int
	Revenue int
	Street  int    // index into Deck.Streets, -1 for none
	Makes   uint64 // bit i: the card makes Deck.Goods[i]
	Needs   uint64 // bit i: the card requires Deck.Goods[i]
	Links   uint8  // North|East|South|West as printed
	Effect  Effect
	Plan    [2]int // KindPlan: its two streets
}

// IsBusiness reports whether a property earns money (seed: a property
// that both earns and produces is a business).
func (c *Card) IsBusiness() bool {
	return (c.Kind == KindProperty || c.Kind == KindStarter) && c.Revenue > 0
}

// Role is "business", "supplier" (makes something and needs something) or
// "producer" for property cards, else the kind.
func (c *Card) Role() string {
	switch {
	case c.Kind != KindProperty && c.Kind != KindStarter:
		return c.Kind.String()
	case c.IsBusiness():
		return "business"
	case c.Needs != 0:
		return "supplier"
	}
	return "producer"
}

// Placeable reports whether the card can lie in a tableau.
func (c *Card) placeable() bool { return c.Kind != KindPlan }

// isProperty: offices are property cards too in the seed's words, but the
// rules about streets, blocks and the Stale Sale pile speak of these.
func (c *Card) isProperty() bool {
	return c.Kind == KindProperty || c.Kind == KindStarter
}

// Named is an id with a printed name (a street or a good).
type Named struct {
	ID   string
	Name string
}

// Good is a product or a vehicle kind.
type Good struct {
	Named
	Vehicle bool
}

// Rules are the numbers of the seed's rules, kept with the deck so that an
// owner of the printed game can check them against the box.
type Rules struct {
	MaxPlayers          int
	StartMoney          int
	MoneyCap            int
	HandLimit           int
	Listed              int
	ListingRounds       int
	PriceStep           int
	BlindDiscount       int
	StreetBonus         int
	TokenVP             int
	SpecialOfficesDealt int
	OfficeLead          int
	FullDeckMinPlayers  int
	ShortDeckMaxPlayers int
	ShortDeckOut        string
	SoloProperties      int
	PlanVP              int
}

// Deck is a validated deck file.
type Deck struct {
	Name        string
	Title       string
	Rules       Rules
	Streets     []Named
	Goods       []Good
	Cards       []Card
	SoloExclude []int
	Provenance  map[string]string // table ⇒ provenance

	byCode    map[string]int
	names     *orders.Names
	nameCards [][]int // names entry ⇒ cards with that name, in deck order
}

// CardByCode returns the index of the card with that code (any case).
func (d *Deck) CardByCode(code string) (int, bool) {
	i, ok := d.byCode[strings.ToUpper(code)]
	return i, ok
}

// ---- the file format ----

type fileTable struct {
	Provenance string     `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	Cards      []fileCard `json:"cards"`
}

type fileCard struct {
	Code    string      `json:"code"`
	Name    string      `json:"name"`
	Price   int         `json:"price"`
	VP      int         `json:"vp,omitempty"`
	Revenue int         `json:"revenue,omitempty"`
	Street  string      `json:"street,omitempty"`
	Makes   []string    `json:"makes,omitempty"`
	Needs   []string    `json:"needs,omitempty"`
	Links   string      `json:"links,omitempty"`
	Effect  *fileEffect `json:"effect,omitempty"`
	Streets []string    `json:"streets,omitempty"`
}

type fileEffect struct {
	Kind   string `json:"kind"`
	Amount int    `json:"amount"`
	Street string `json:"street,omitempty"`
	Area   string `json:"area,omitempty"`
}

type fileNamed struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Vehicle bool   `json:"vehicle,omitempty"`
}

type fileNamedTable struct {
	Provenance string      `json:"provenance"`
	Note       string      `json:"note,omitempty"`
	Items      []fileNamed `json:"items"`
}

type fileComposition struct {
	Provenance    string `json:"provenance"`
	Note          string `json:"note,omitempty"`
	MainOffice    int    `json:"main_office"`
	Office        int    `json:"office"`
	Vehicle       int    `json:"vehicle"`
	Contract      int    `json:"contract"`
	SpecialOffice int    `json:"special_office"`
	Starter       int    `json:"starter"`
	Derelict      int    `json:"derelict"`
	BusinessPlan  int    `json:"business_plan"`
	Property      int    `json:"property"`
}

type fileRules struct {
	Provenance          string `json:"provenance"`
	Note                string `json:"note,omitempty"`
	MaxPlayers          int    `json:"max_players"`
	StartMoney          int    `json:"start_money"`
	MoneyCap            int    `json:"money_cap"`
	HandLimit           int    `json:"hand_limit"`
	Listed              int    `json:"listed"`
	ListingRounds       int    `json:"listing_rounds"`
	PriceStep           int    `json:"price_step"`
	BlindDiscount       int    `json:"blind_discount"`
	StreetBonus         int    `json:"street_bonus"`
	TokenVP             int    `json:"token_vp"`
	SpecialOfficesDealt int    `json:"special_offices_dealt"`
	OfficeLead          int    `json:"office_lead"`
	FullDeckMinPlayers  int    `json:"full_deck_min_players"`
	ShortDeckMaxPlayers int    `json:"short_deck_max_players"`
	ShortDeckOut        string `json:"short_deck_out"`
	SoloProperties      int    `json:"solo_properties"`
	PlanVP              int    `json:"plan_vp"`
}

type fileSolo struct {
	Provenance string   `json:"provenance"`
	Note       string   `json:"note,omitempty"`
	Exclude    []string `json:"exclude"`
}

type deckFile struct {
	Format         int             `json:"format"`
	Name           string          `json:"name"`
	Title          string          `json:"title"`
	Note           string          `json:"note,omitempty"`
	Composition    fileComposition `json:"composition"`
	Rules          fileRules       `json:"rules"`
	Solo           fileSolo        `json:"solo"`
	Streets        fileNamedTable  `json:"streets"`
	Goods          fileNamedTable  `json:"goods"`
	MainOffices    fileTable       `json:"main_offices"`
	Offices        fileTable       `json:"offices"`
	SpecialOffices fileTable       `json:"special_offices"`
	Starters       fileTable       `json:"starters"`
	Properties     fileTable       `json:"properties"`
	Contracts      fileTable       `json:"contracts"`
	Vehicles       fileTable       `json:"vehicles"`
	Derelicts      fileTable       `json:"derelicts"`
	BusinessPlans  fileTable       `json:"business_plans"`
}

// keywords may not be words of a card name: the order grammar reads them
// as the end of a name.
var keywords = map[string]bool{
	"at": true, "to": true, "for": true, "from": true, "with": true, "give": true, "get": true,
	"turn": true, "rot": true, "and": true, "of": true, "on": true, "plus": true,
}

// ParseDeck reads and validates a deck file: unknown fields are refused,
// every table has a provenance, every reference resolves, and the cards
// of each kind add up to the composition table.
func ParseDeck(data []byte) (*Deck, error) {
	var f deckFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("deck: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("deck: data after the deck object")
	}
	if f.Format != 1 {
		return nil, fmt.Errorf("deck: format %d, want 1", f.Format)
	}
	if f.Name == "" {
		return nil, fmt.Errorf("deck: no name")
	}
	d := &Deck{Name: f.Name, Title: f.Title, byCode: map[string]int{}, Provenance: map[string]string{}}
	prov := func(table, p string) error {
		if err := checkProvenance(p); err != nil {
			return fmt.Errorf("deck %s: table %s: %w", f.Name, table, err)
		}
		d.Provenance[table] = p
		return nil
	}
	for _, t := range []struct{ name, p string }{
		{"composition", f.Composition.Provenance}, {"rules", f.Rules.Provenance}, {"solo", f.Solo.Provenance},
		{"streets", f.Streets.Provenance}, {"goods", f.Goods.Provenance},
		{"main_offices", f.MainOffices.Provenance}, {"offices", f.Offices.Provenance},
		{"special_offices", f.SpecialOffices.Provenance}, {"starters", f.Starters.Provenance},
		{"properties", f.Properties.Provenance}, {"contracts", f.Contracts.Provenance},
		{"vehicles", f.Vehicles.Provenance}, {"derelicts", f.Derelicts.Provenance},
		{"business_plans", f.BusinessPlans.Provenance},
	} {
		if err := prov(t.name, t.p); err != nil {
			return nil, err
		}
	}
	r := f.Rules
	d.Rules = Rules{
		MaxPlayers: r.MaxPlayers, StartMoney: r.StartMoney, MoneyCap: r.MoneyCap, HandLimit: r.HandLimit,
		Listed: r.Listed, ListingRounds: r.ListingRounds, PriceStep: r.PriceStep, BlindDiscount: r.BlindDiscount,
		StreetBonus: r.StreetBonus, TokenVP: r.TokenVP, SpecialOfficesDealt: r.SpecialOfficesDealt,
		OfficeLead: r.OfficeLead, FullDeckMinPlayers: r.FullDeckMinPlayers, ShortDeckMaxPlayers: r.ShortDeckMaxPlayers,
		ShortDeckOut: r.ShortDeckOut, SoloProperties: r.SoloProperties, PlanVP: r.PlanVP,
	}
	if err := d.Rules.validate(); err != nil {
		return nil, fmt.Errorf("deck %s: rules: %w", f.Name, err)
	}
	streets := map[string]int{}
	for i, s := range f.Streets.Items {
		if s.ID == "" || s.Name == "" || s.Vehicle {
			return nil, fmt.Errorf("deck %s: street #%d needs an id and a name (and is no vehicle)", f.Name, i+1)
		}
		if _, dup := streets[s.ID]; dup {
			return nil, fmt.Errorf("deck %s: street %q twice", f.Name, s.ID)
		}
		streets[s.ID] = i
		d.Streets = append(d.Streets, Named{ID: s.ID, Name: s.Name})
	}
	goods := map[string]int{}
	for i, g := range f.Goods.Items {
		if g.ID == "" || g.Name == "" {
			return nil, fmt.Errorf("deck %s: good #%d needs an id and a name", f.Name, i+1)
		}
		if _, dup := goods[g.ID]; dup {
			return nil, fmt.Errorf("deck %s: good %q twice", f.Name, g.ID)
		}
		goods[g.ID] = i
		d.Goods = append(d.Goods, Good{Named: Named{ID: g.ID, Name: g.Name}, Vehicle: g.Vehicle})
	}
	if len(d.Goods) > 64 {
		return nil, fmt.Errorf("deck %s: %d goods, at most 64", f.Name, len(d.Goods))
	}
	tables := []struct {
		name string
		kind Kind
		t    *fileTable
		want int
	}{
		{"main_offices", KindMainOffice, &f.MainOffices, f.Composition.MainOffice},
		{"offices", KindOffice, &f.Offices, f.Composition.Office},
		{"special_offices", KindSpecialOffice, &f.SpecialOffices, f.Composition.SpecialOffice},
		{"starters", KindStarter, &f.Starters, f.Composition.Starter},
		{"properties", KindProperty, &f.Properties, f.Composition.Property},
		{"contracts", KindContract, &f.Contracts, f.Composition.Contract},
		{"vehicles", KindVehicle, &f.Vehicles, f.Composition.Vehicle},
		{"derelicts", KindDerelict, &f.Derelicts, f.Composition.Derelict},
		{"business_plans", KindPlan, &f.BusinessPlans, f.Composition.BusinessPlan},
	}
	for _, tb := range tables {
		if len(tb.t.Cards) != tb.want {
			return nil, fmt.Errorf("deck %s: table %s has %d cards, the composition says %d", f.Name, tb.name, len(tb.t.Cards), tb.want)
		}
		for _, fc := range tb.t.Cards {
			c, err := d.card(fc, tb.kind, streets, goods)
			if err != nil {
				return nil, fmt.Errorf("deck %s: %s %s: %w", f.Name, tb.name, fc.Code, err)
			}
			c.Index = len(d.Cards)
			d.byCode[c.Code] = c.Index
			d.Cards = append(d.Cards, c)
		}
	}
	for _, code := range f.Solo.Exclude {
		i, ok := d.CardByCode(code)
		if !ok || d.Cards[i].Kind != KindProperty {
			return nil, fmt.Errorf("deck %s: solo exclude %q is not a property card", f.Name, code)
		}
		d.SoloExclude = append(d.SoloExclude, i)
	}
	if err := d.checkEconomy(); err != nil {
		return nil, fmt.Errorf("deck %s: %w", f.Name, err)
	}
	if err := d.indexNames(); err != nil {
		return nil, fmt.Errorf("deck %s: %w", f.Name, err)
	}
	return d, nil
}

func checkProvenance(p string) error {
	switch {
	case p == "seed" || p == "invented":
		return nil
	case strings.HasPrefix(p, "public: ") && len(strings.TrimSpace(p[len("public: "):])) > 0:
		return nil
	case p == "":
		return fmt.Errorf("no provenance (want \"seed\", \"invented\" or \"public: <source>\")")
	}
	return fmt.Errorf("provenance %q: want \"seed\", \"invented\" or \"public: <source>\"", p)
}

func (r Rules) validate() error {
	for _, v := range []struct {
		name string
		n    int
	}{
		{"max_players", r.MaxPlayers}, {"start_money", r.StartMoney}, {"money_cap", r.MoneyCap},
		{"hand_limit", r.HandLimit}, {"listed", r.Listed}, {"listing_rounds", r.ListingRounds},
		{"price_step", r.PriceStep}, {"full_deck_min_players", r.FullDeckMinPlayers},
		{"short_deck_max_players", r.ShortDeckMaxPlayers}, {"office_lead", r.OfficeLead},
	} {
		if v.n <= 0 {
			return fmt.Errorf("%s must be positive", v.name)
		}
	}
	for _, v := range []struct {
		name string
		n    int
	}{
		{"blind_discount", r.BlindDiscount}, {"street_bonus", r.StreetBonus}, {"token_vp", r.TokenVP},
		{"special_offices_dealt", r.SpecialOfficesDealt}, {"solo_properties", r.SoloProperties}, {"plan_vp", r.PlanVP},
	} {
		if v.n < 0 {
			return fmt.Errorf("%s must not be negative", v.name)
		}
	}
	if r.StartMoney > r.MoneyCap {
		return fmt.Errorf("start_money above money_cap")
	}
	for _, c := range r.ShortDeckOut {
		if c < '0' || c > '9' {
			return fmt.Errorf("short_deck_out %q: digits only", r.ShortDeckOut)
		}
	}
	return nil
}

func (d *Deck) card(fc fileCard, kind Kind, streets, goods map[string]int) (Card, error) {
	c := Card{Code: strings.ToUpper(fc.Code), Name: strings.TrimSpace(fc.Name), Kind: kind, Price: fc.Price, VP: fc.VP,
		Revenue: fc.Revenue, Street: -1, Effect: Effect{Street: -1}}
	if c.Code == "" || c.Name == "" {
		return c, fmt.Errorf("a card needs a code and a name")
	}
	for _, r := range c.Code {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return c, fmt.Errorf("code %q: letters and digits only", fc.Code)
		}
	}
	if c.Code[0] < 'A' || c.Code[0] > 'Z' {
		return c, fmt.Errorf("code %q must start with a letter", fc.Code)
	}
	if _, dup := d.byCode[c.Code]; dup {
		return c, fmt.Errorf("code %s twice", c.Code)
	}
	if kind != KindPlan {
		for _, w := range strings.Fields(strings.ToLower(c.Name)) {
			if keywords[w] {
				return c, fmt.Errorf("name %q: %q is an order keyword and may not be a word of a card name", c.Name, w)
			}
		}
	}
	if c.Price < 0 || c.Revenue < 0 {
		return c, fmt.Errorf("negative price or revenue")
	}
	if fc.Street != "" {
		s, ok := streets[fc.Street]
		if !ok {
			return c, fmt.Errorf("unknown street %q", fc.Street)
		}
		c.Street = s
	}
	for _, g := range fc.Makes {
		i, ok := goods[g]
		if !ok {
			return c, fmt.Errorf("makes unknown good %q", g)
		}
		c.Makes |= 1 << i
	}
	for _, g := range fc.Needs {
		i, ok := goods[g]
		if !ok {
			return c, fmt.Errorf("needs unknown good %q", g)
		}
		c.Needs |= 1 << i
	}
	if c.Makes&c.Needs != 0 {
		return c, fmt.Errorf("makes what it needs")
	}
	for _, r := range fc.Links {
		var e uint8
		switch r {
		case 'N', 'n':
			e = North
		case 'E', 'e':
			e = East
		case 'S', 's':
			e = South
		case 'W', 'w':
			e = West
		default:
			return c, fmt.Errorf("links %q: use the letters N, E, S, W", fc.Links)
		}
		if c.Links&e != 0 {
			return c, fmt.Errorf("links %q: an edge twice", fc.Links)
		}
		c.Links |= e
	}
	vehicleMask := d.vehicleMask()
	switch kind {
	case KindPlan:
		if len(fc.Streets) != 2 {
			return c, fmt.Errorf("a business plan names two streets")
		}
		for k, s := range fc.Streets {
			i, ok := streets[s]
			if !ok {
				return c, fmt.Errorf("unknown street %q", s)
			}
			c.Plan[k] = i
		}
		if c.Plan[0] == c.Plan[1] {
			return c, fmt.Errorf("a business plan names two different streets")
		}
		if c.Makes|c.Needs != 0 || c.Links != 0 || c.Revenue != 0 || c.Street >= 0 {
			return c, fmt.Errorf("a business plan has only streets")
		}
		return c, nil
	case KindContract, KindVehicle:
		if bits.OnesCount64(c.Makes) != 1 || c.Needs != 0 || c.Revenue != 0 || c.VP != 0 || c.Street >= 0 {
			return c, fmt.Errorf("a %s makes exactly one good, needs nothing, earns nothing, has no VP and no street", kind)
		}
		if (kind == KindVehicle) != (c.Makes&vehicleMask != 0) {
			return c, fmt.Errorf("a vehicle card makes a vehicle, a contract a product")
		}
	case KindProperty, KindStarter:
		if c.Makes == 0 && c.Revenue == 0 {
			return c, fmt.Errorf("a property makes something or earns money")
		}
		if c.Street < 0 {
			return c, fmt.Errorf("a property lies on a street")
		}
		if kind == KindStarter && c.Revenue == 0 {
			return c, fmt.Errorf("a starter is a business (earns money)")
		}
	case KindMainOffice, KindOffice, KindSpecialOffice:
		if c.Makes|c.Needs != 0 {
			return c, fmt.Errorf("an office makes and needs nothing")
		}
	case KindDerelict:
		if c.Makes|c.Needs != 0 || c.Revenue != 0 {
			return c, fmt.Errorf("a derelict makes, needs and earns nothing")
		}
		if c.Links == 0 {
			return c, fmt.Errorf("a derelict attaches by a link: it needs one")
		}
	}
	if len(fc.Streets) > 0 {
		return c, fmt.Errorf("only business plans list streets")
	}
	if fc.Effect != nil {
		if !kind.IsOffice() {
			return c, fmt.Errorf("only offices have effects")
		}
		e := Effect{Kind: EffectKind(fc.Effect.Kind), Amount: fc.Effect.Amount, Street: -1}
		switch e.Kind {
		case EffectHandLimit, EffectRouteBonus:
		case EffectStreetVP:
			s, ok := streets[fc.Effect.Street]
			if !ok {
				return c, fmt.Errorf("effect street %q unknown", fc.Effect.Street)
			}
			e.Street = s
		case EffectDiscount:
			a, ok := areaByName(fc.Effect.Area)
			if !ok {
				return c, fmt.Errorf("effect area %q: want listing, contracts, vehicles, offices or stale", fc.Effect.Area)
			}
			e.Area = a
		default:
			return c, fmt.Errorf("effect kind %q unknown (hand_limit, route_bonus, street_vp, discount)", fc.Effect.Kind)
		}
		if e.Amount <= 0 {
			return c, fmt.Errorf("effect amount must be positive")
		}
		if (e.Kind != EffectStreetVP && fc.Effect.Street != "") || (e.Kind != EffectDiscount && fc.Effect.Area != "") {
			return c, fmt.Errorf("effect %s takes no street or area", e.Kind)
		}
		c.Effect = e
	}
	return c, nil
}

// vehicleMask is the set of goods that are vehicles.
func (d *Deck) vehicleMask() uint64 {
	var m uint64
	for i, g := range d.Goods {
		if g.Vehicle {
			m |= 1 << i
		}
	}
	return m
}

// checkEconomy: every good is made by some card, every needed product has
// a contract, every needed vehicle a vehicle card.
func (d *Deck) checkEconomy() error {
	var made, needed, contracted uint64
	for i := range d.Cards {
		c := &d.Cards[i]
		made |= c.Makes
		needed |= c.Needs
		if c.Kind == KindContract || c.Kind == KindVehicle {
			contracted |= c.Makes
		}
	}
	for i, g := range d.Goods {
		bit := uint64(1) << i
		if made&bit == 0 {
			return fmt.Errorf("good %s is made by no card", g.ID)
		}
		if needed&bit != 0 && contracted&bit == 0 {
			return fmt.Errorf("good %s is needed but has no contract or vehicle card", g.ID)
		}
	}
	return nil
}

// indexNames builds the card-name matcher: one entry per distinct name.
func (d *Deck) indexNames() error {
	byName := map[string]int{}
	var list []orders.Name
	for i := range d.Cards {
		c := &d.Cards[i]
		if c.Kind == KindPlan {
			continue
		}
		key := strings.ToLower(c.Name)
		k, ok := byName[key]
		if !ok {
			k = len(list)
			byName[key] = k
			list = append(list, orders.Name{ID: "card_" + strings.ReplaceAll(key, " ", "_"), Full: c.Name})
			d.nameCards = append(d.nameCards, nil)
		}
		d.nameCards[k] = append(d.nameCards[k], i)
	}
	for _, n := range list {
		if _, clash := d.byCode[strings.ToUpper(n.Full)]; clash {
			return fmt.Errorf("card name %q is also a code", n.Full)
		}
	}
	names, err := orders.NewNames("card", list)
	if err != nil {
		return err
	}
	d.names = names
	return nil
}

var (
	decksOnce sync.Once
	decks     map[string]*Deck
	decksErr  error
	deckLoads atomic.Int32 // loads of the embedded decks (tests read it)
)

// Decks returns the embedded decks by name, read and validated at the
// first use (never by the package's init). A deck that fails validation is
// a build defect, caught by the tests.
func Decks() (map[string]*Deck, error) {
	decksOnce.Do(func() {
		deckLoads.Add(1)
		decks = map[string]*Deck{}
		entries, err := deckFiles.ReadDir("decks")
		if err != nil {
			decksErr = err
			return
		}
		for _, e := range entries {
			data, err := deckFiles.ReadFile("decks/" + e.Name())
			if err != nil {
				decksErr = err
				return
			}
			d, err := ParseDeck(data)
			if err != nil {
				decksErr = fmt.Errorf("%s: %w", e.Name(), err)
				return
			}
			decks[d.Name] = d
		}
	})
	return decks, decksErr
}

// DeckByName returns an embedded deck.
func DeckByName(name string) (*Deck, error) {
	ds, err := Decks()
	if err != nil {
		return nil, err
	}
	d, ok := ds[name]
	if !ok {
		names := make([]string, 0, len(ds))
		for n := range ds {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no deck %q (known: %s)", name, strings.Join(names, ", "))
	}
	return d, nil
}

// goodNames lists the names of the goods in mask.
func (d *Deck) goodNames(mask uint64) []string {
	var out []string
	for i := range d.Goods {
		if mask&(1<<i) != 0 {
			out = append(out, d.Goods[i].Name)
		}
	}
	return out
}

// ceilStep rounds a price up to the deck's step ($50 in the seed).
func (d *Deck) ceilStep(p int) int {
	if p <= 0 {
		return 0
	}
	s := d.Rules.PriceStep
	return (p + s - 1) / s * s
}
