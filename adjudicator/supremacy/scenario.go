package supremacy

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"pbemd/orders"
)

//go:embed scenarios/*.json
var scenarioFiles embed.FS

// Resource is one of the three commodities.
type Resource int

const (
	Oil Resource = iota
	Minerals
	Grain
	nResources
)

var resourceIDs = [nResources]string{"oil", "minerals", "grain"}

func (r Resource) String() string { return resourceIDs[r] }

// Title is the resource as printed ("Oil").
func (r Resource) Title() string { return strings.ToUpper(resourceIDs[r][:1]) + resourceIDs[r][1:] }

func resourceByID(s string) (Resource, bool) {
	for i, id := range resourceIDs {
		if id == s {
			return Resource(i), true
		}
	}
	return 0, false
}

// Tech is a weapon technology researched from the deck.
type Tech int

const (
	TechICBM Tech = iota + 1
	TechABM
)

// Provenance says where a table's numbers come from: "seed" (the rulebook),
// "invented" (made up for this scenario) or "public: <source>".
type Provenance string

func (p Provenance) check(table string) error {
	switch {
	case p == "seed", p == "invented":
		return nil
	case strings.HasPrefix(string(p), "public: ") && len(strings.TrimSpace(string(p)[8:])) > 0:
		return nil
	case p == "":
		return fmt.Errorf("%s: provenance missing (seed, invented or \"public: <source>\")", table)
	}
	return fmt.Errorf("%s: provenance %q is not seed, invented or \"public: <source>\"", table, p)
}

// Rules are the seed's numbers.
type Rules struct {
	Provenance             Provenance `json:"provenance"`
	Note                   string     `json:"note,omitempty"`
	StartCash              int        `json:"start_cash"`
	StartForces            int        `json:"start_forces"`
	StartCards             int        `json:"start_cards"`
	FastStartCards         int        `json:"fast_start_cards"`
	CompanySalary          int        `json:"company_salary"`
	ForceSalary            int        `json:"force_salary"`
	TradesPerTurn          int        `json:"trades_per_turn"`
	ResearchAttempts       int        `json:"research_attempts"`
	ResearchCardCost       int        `json:"research_card_cost"`
	HitMin                 int        `json:"hit_min"`
	ABMKillMin             int        `json:"abm_kill_min"`
	ABMUncontrolledPenalty int        `json:"abm_uncontrolled_penalty"`
	MinorDieDivisor        int        `json:"minor_die_divisor"`
	AttackActivations      int        `json:"attack_activations"`
	HighTechRerolls        int        `json:"high_tech_rerolls"`
	ArmyRange              int        `json:"army_range"`
	NavyRange              int        `json:"navy_range"`
	AirliftArmies          int        `json:"airlift_armies"`
	TransportPerNavy       int        `json:"transport_per_navy"`
	WinterDetonation       int        `json:"winter_detonation"`
	WinterRoll             int        `json:"winter_roll"`
	LoanUnit               int        `json:"loan_unit"`
	MinorBuyFactor         int        `json:"minor_buy_factor"`
	MinorSellFactor        int        `json:"minor_sell_factor"`
	SlowTechTurn           int        `json:"slow_tech_turn"`
}

// Cost is a price in cash and resources.
type Cost struct {
	Cash     int `json:"cash"`
	Count    int `json:"count,omitempty"`    // forces: how many one purchase builds
	Minerals int `json:"minerals,omitempty"` // weapons: minerals per piece
}

// Costs are the build costs. Forces also cost one set (oil, minerals,
// grain) per purchase.
type Costs struct {
	Provenance Provenance `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	Forces     Cost       `json:"forces"`
	ICBM       Cost       `json:"icbm"`
	ABM        Cost       `json:"abm"`
}

// NetWorthValues value a player's holdings at the end.
type NetWorthValues struct {
	Provenance       Provenance `json:"provenance"`
	Note             string     `json:"note,omitempty"`
	Company          int        `json:"company"`
	BlockadedCompany int        `json:"blockaded_company"`
	Force            int        `json:"force"`
	ICBM             int        `json:"icbm"`
	ABM              int        `json:"abm"`
}

// Market is the commodity price track.
type Market struct {
	Provenance Provenance `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	Track      []int      `json:"track"` // price of each space, lowest first
	Start      int        `json:"start"` // space of every marker at set-up
}

// InterestRow is one row of an interest table.
type InterestRow struct {
	Amount     int        `json:"amount"`
	Interest   int        `json:"interest"`
	Provenance Provenance `json:"provenance,omitempty"` // overrides the table's
}

// InterestTable gives the interest per turn on a total amount.
type InterestTable struct {
	Provenance Provenance    `json:"provenance"`
	Note       string        `json:"note,omitempty"`
	Rows       []InterestRow `json:"rows"`
}

// Max is the largest amount the table allows.
func (t *InterestTable) Max() int { return t.Rows[len(t.Rows)-1].Amount }

// Interest is the interest on amount (0 for 0). Amounts beyond the table
// (a conqueror's second Strategic Reserve card doubles the room) are
// charged as whole tables plus the rest.
func (t *InterestTable) Interest(amount int) int {
	top := t.Rows[len(t.Rows)-1]
	total := (amount / top.Amount) * top.Interest
	rest := amount % top.Amount
	for _, r := range t.Rows {
		if r.Amount == rest {
			total += r.Interest
		}
	}
	return total
}

// Reserve is the room of one Strategic Reserve card.
type Reserve struct {
	Provenance Provenance `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	Oil        int        `json:"oil"`
	Minerals   int        `json:"minerals"`
	Grain      int        `json:"grain"`
	ICBM       int        `json:"icbm"`
	ABM        int        `json:"abm"`
}

// Cap is the room for resource r on one card.
func (r *Reserve) Cap(res Resource) int {
	switch res {
	case Oil:
		return r.Oil
	case Minerals:
		return r.Minerals
	}
	return r.Grain
}

// Superpower is a playable power.
type Superpower struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Optional bool     `json:"optional,omitempty"` // Brazil, Middle East: add-on players
	Homes    []string `json:"homes"`

	homes []int
}

// Area is a land or sea area.
type Area struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // land | sea
	Cities  []string `json:"cities,omitempty"`
	Aliases []string `json:"aliases,omitempty"`

	index int
	sea   bool
	home  int   // superpower index, -1 when none
	adj   []int // every neighbouring area, sorted
	land  []int // neighbouring land areas an army may cross into
	seas  []int // neighbouring sea areas
}

// Sea reports whether the area is a sea area.
func (a *Area) Sea() bool { return a.sea }

// Chokepoint is a narrow sea passage controlled from a land area.
type Chokepoint struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Seas    [2]string `json:"seas"`
	Control string    `json:"control"`
	Aliases []string  `json:"aliases,omitempty"`

	seas    [2]int
	control int
}

// Company is a company card.
type Company struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Area     string `json:"area"`
	City     string `json:"city,omitempty"` // in a multi-city area: the city it stands in
	Resource string `json:"resource"`
	Output   int    `json:"output"`

	area int
	city int // index into the area's cities
	res  Resource
}

// TechCard is a technology card of the research deck.
type TechCard struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Tech string `json:"tech"` // icbm | abm
}

// Scenario is one board: map, deck and tables.
type Scenario struct {
	Name       string         `json:"name"`
	Title      string         `json:"title"`
	Rules      Rules          `json:"rules"`
	Costs      Costs          `json:"costs"`
	NetWorth   NetWorthValues `json:"net_worth"`
	Market     Market         `json:"market"`
	Loans      InterestTable  `json:"loans"`
	Bonds      InterestTable  `json:"bonds"`
	Reserve    Reserve        `json:"reserve"`
	PowerTable powerTable     `json:"superpowers"`
	AreaTable  areaTable      `json:"areas"`
	Borders    borderTable    `json:"borders"`
	Chokes     chokeTable     `json:"chokepoints"`
	Deck       deckTable      `json:"deck"`
	// Layout is how the map is drawn (optional; layout.go).
	Layout *Layout `json:"layout,omitempty"`

	areas     []*Area
	areaByID  map[string]int
	powers    []*Superpower
	powerByID map[string]int
	cards     []card // companies first, then technologies
	cardByID  map[string]int
	chokes    []*Chokepoint
	chokeOf   map[[2]int]int // sea pair (low, high) ⇒ chokepoint index
	impass    map[[2]int]bool
	border    map[[2]int]bool

	places    *orders.Names // areas and the cities of multi-city areas
	placeRefs []placeRef    // per place entry
	powerSet  *orders.Names
	cardSet   *orders.Names // companies only
	chokeSet  *orders.Names
	powerCmds *orders.Names          // the powers, as mail commands name them
	boardOnce func() (*board, error) // the picture's fixed part, built at first use (draw.go)
}

type powerTable struct {
	Provenance Provenance    `json:"provenance"`
	Note       string        `json:"note,omitempty"`
	List       []*Superpower `json:"list"`
}

type areaTable struct {
	Provenance Provenance `json:"provenance"`
	Note       string     `json:"note,omitempty"`
	List       []*Area    `json:"list"`
}

type borderTable struct {
	Provenance Provenance  `json:"provenance"`
	Note       string      `json:"note,omitempty"`
	List       [][2]string `json:"list"`
	Impassable [][2]string `json:"impassable,omitempty"`
}

type chokeTable struct {
	Provenance Provenance    `json:"provenance"`
	Note       string        `json:"note,omitempty"`
	List       []*Chokepoint `json:"list"`
}

type deckTable struct {
	Provenance   Provenance  `json:"provenance"`
	Note         string      `json:"note,omitempty"`
	Companies    []*Company  `json:"companies"`
	Technologies []*TechCard `json:"technologies"`
}

// card is one card of the deck: a company or a technology.
type card struct {
	company *Company
	tech    Tech
	id      string
	name    string
}

// placeRef is what a place name means: an area, or a city of a
// multi-city area.
type placeRef struct {
	area int
	city int // -1: the area as a whole
}

// ParseScenario reads and validates a scenario file: unknown fields are
// refused and every reference must resolve.
func ParseScenario(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	sc := &Scenario{}
	if err := dec.Decode(sc); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("scenario: data after the scenario object")
	}
	if err := sc.validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	return sc, nil
}

// scenarios returns the embedded scenarios, loaded (and validated) at the
// first use: a program that never plays Supremacy never reads them.
var scenarios = sync.OnceValue(loadScenarios)

// scenarioLoads counts the loads of the embedded scenarios (tests read it).
var scenarioLoads atomic.Int32

func loadScenarios() map[string]*Scenario {
	scenarioLoads.Add(1)
	out := map[string]*Scenario{}
	ents, err := scenarioFiles.ReadDir("scenarios")
	if err != nil {
		panic(err)
	}
	for _, e := range ents {
		data, err := scenarioFiles.ReadFile("scenarios/" + e.Name())
		if err != nil {
			panic(err)
		}
		sc, err := ParseScenario(data)
		if err != nil {
			panic(fmt.Sprintf("supremacy: embedded %s: %v", e.Name(), err))
		}
		out[sc.Name] = sc
	}
	return out
}

// ScenarioByName returns an embedded scenario.
func ScenarioByName(name string) (*Scenario, bool) {
	sc, ok := scenarios()[name]
	return sc, ok
}

func (sc *Scenario) validate() error {
	if sc.Name == "" || sc.Title == "" {
		return fmt.Errorf("name and title are required")
	}
	for table, p := range map[string]Provenance{
		"rules": sc.Rules.Provenance, "costs": sc.Costs.Provenance, "net_worth": sc.NetWorth.Provenance,
		"market": sc.Market.Provenance, "loans": sc.Loans.Provenance, "bonds": sc.Bonds.Provenance,
		"reserve": sc.Reserve.Provenance, "superpowers": sc.PowerTable.Provenance, "areas": sc.AreaTable.Provenance,
		"borders": sc.Borders.Provenance, "chokepoints": sc.Chokes.Provenance, "deck": sc.Deck.Provenance,
	} {
		if err := p.check(table); err != nil {
			return err
		}
	}
	if err := sc.validateNumbers(); err != nil {
		return err
	}
	if err := sc.validateMap(); err != nil {
		return err
	}
	if err := sc.validateDeck(); err != nil {
		return err
	}
	if err := sc.validateLayout(); err != nil {
		return err
	}
	return sc.buildNames()
}

func (sc *Scenario) validateNumbers() error {
	r := &sc.Rules
	positive := []struct {
		name string
		v    int
	}{
		{"start_cash", r.StartCash}, {"start_forces", r.StartForces}, {"start_cards", r.StartCards},
		{"fast_start_cards", r.FastStartCards}, {"trades_per_turn", r.TradesPerTurn},
		{"research_attempts", r.ResearchAttempts}, {"hit_min", r.HitMin}, {"abm_kill_min", r.ABMKillMin},
		{"minor_die_divisor", r.MinorDieDivisor}, {"attack_activations", r.AttackActivations},
		{"army_range", r.ArmyRange}, {"navy_range", r.NavyRange}, {"airlift_armies", r.AirliftArmies},
		{"transport_per_navy", r.TransportPerNavy}, {"winter_detonation", r.WinterDetonation},
		{"winter_roll", r.WinterRoll}, {"loan_unit", r.LoanUnit}, {"minor_buy_factor", r.MinorBuyFactor},
		{"minor_sell_factor", r.MinorSellFactor},
		{"costs.forces.cash", sc.Costs.Forces.Cash}, {"costs.forces.count", sc.Costs.Forces.Count},
		{"costs.icbm.cash", sc.Costs.ICBM.Cash}, {"costs.abm.cash", sc.Costs.ABM.Cash},
		{"reserve.oil", sc.Reserve.Oil}, {"reserve.minerals", sc.Reserve.Minerals}, {"reserve.grain", sc.Reserve.Grain},
		{"reserve.icbm", sc.Reserve.ICBM}, {"reserve.abm", sc.Reserve.ABM},
	}
	for _, p := range positive {
		if p.v <= 0 {
			return fmt.Errorf("%s must be positive, not %d", p.name, p.v)
		}
	}
	nonNegative := []struct {
		name string
		v    int
	}{
		{"company_salary", r.CompanySalary}, {"force_salary", r.ForceSalary}, {"research_card_cost", r.ResearchCardCost},
		{"abm_uncontrolled_penalty", r.ABMUncontrolledPenalty}, {"high_tech_rerolls", r.HighTechRerolls},
		{"slow_tech_turn", r.SlowTechTurn}, {"costs.icbm.minerals", sc.Costs.ICBM.Minerals}, {"costs.abm.minerals", sc.Costs.ABM.Minerals},
		{"net_worth.company", sc.NetWorth.Company}, {"net_worth.blockaded_company", sc.NetWorth.BlockadedCompany},
		{"net_worth.force", sc.NetWorth.Force}, {"net_worth.icbm", sc.NetWorth.ICBM}, {"net_worth.abm", sc.NetWorth.ABM},
	}
	for _, p := range nonNegative {
		if p.v < 0 {
			return fmt.Errorf("%s must not be negative, not %d", p.name, p.v)
		}
	}
	if r.HitMin > 6 || r.ABMKillMin > 6 || r.WinterRoll > 6 {
		return fmt.Errorf("hit_min, abm_kill_min and winter_roll are die results (1 to 6)")
	}
	m := &sc.Market
	if len(m.Track) < 2 {
		return fmt.Errorf("market.track needs at least two spaces")
	}
	for i, p := range m.Track {
		if p <= 0 {
			return fmt.Errorf("market.track[%d]: price %d is not positive", i, p)
		}
		if i > 0 && p < m.Track[i-1] {
			return fmt.Errorf("market.track[%d]: prices must not fall along the track (%d after %d)", i, p, m.Track[i-1])
		}
	}
	if m.Start < 0 || m.Start >= len(m.Track) {
		return fmt.Errorf("market.start %d is off the track (0 to %d)", m.Start, len(m.Track)-1)
	}
	for _, t := range []struct {
		name string
		tab  *InterestTable
	}{{"loans", &sc.Loans}, {"bonds", &sc.Bonds}} {
		if len(t.tab.Rows) == 0 {
			return fmt.Errorf("%s: no rows", t.name)
		}
		for i, row := range t.tab.Rows {
			if want := (i + 1) * r.LoanUnit; row.Amount != want {
				return fmt.Errorf("%s row %d: amount %d, want %d (one row per %d, from the smallest)", t.name, i+1, row.Amount, want, r.LoanUnit)
			}
			if row.Interest < 0 {
				return fmt.Errorf("%s row %d: negative interest", t.name, i+1)
			}
			if row.Provenance != "" {
				if err := row.Provenance.check(fmt.Sprintf("%s row %d", t.name, i+1)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (sc *Scenario) validateMap() error {
	sc.areaByID = map[string]int{}
	if len(sc.AreaTable.List) == 0 {
		return fmt.Errorf("areas: none")
	}
	for i, a := range sc.AreaTable.List {
		if a == nil || a.ID == "" || a.Name == "" {
			return fmt.Errorf("areas[%d]: id and name are required", i)
		}
		if a.ID != strings.ToLower(a.ID) || strings.ContainsAny(a.ID, " -/.,:;") {
			return fmt.Errorf("area %q: ids are lower case, one word", a.ID)
		}
		if _, dup := sc.areaByID[a.ID]; dup {
			return fmt.Errorf("area %q appears twice", a.ID)
		}
		switch a.Kind {
		case "land":
		case "sea":
			a.sea = true
			if len(a.Cities) > 0 {
				return fmt.Errorf("sea area %q has cities", a.ID)
			}
		default:
			return fmt.Errorf("area %q: kind %q is not land or sea", a.ID, a.Kind)
		}
		a.index = i
		a.home = -1
		sc.areaByID[a.ID] = i
		sc.areas = append(sc.areas, a)
	}
	area := func(what, id string) (*Area, error) {
		i, ok := sc.areaByID[id]
		if !ok {
			return nil, fmt.Errorf("%s: unknown area %q", what, id)
		}
		return sc.areas[i], nil
	}
	sc.border = map[[2]int]bool{}
	for _, b := range sc.Borders.List {
		x, err := area("borders", b[0])
		if err != nil {
			return err
		}
		y, err := area("borders", b[1])
		if err != nil {
			return err
		}
		if x == y {
			return fmt.Errorf("borders: %s borders itself", x.ID)
		}
		k := pair(x.index, y.index)
		if sc.border[k] {
			return fmt.Errorf("borders: %s–%s listed twice", x.ID, y.ID)
		}
		sc.border[k] = true
		x.adj = append(x.adj, y.index)
		y.adj = append(y.adj, x.index)
	}
	sc.impass = map[[2]int]bool{}
	for _, b := range sc.Borders.Impassable {
		x, err := area("impassable", b[0])
		if err != nil {
			return err
		}
		y, err := area("impassable", b[1])
		if err != nil {
			return err
		}
		if x.sea || y.sea || !sc.border[pair(x.index, y.index)] {
			return fmt.Errorf("impassable: %s–%s must be a border between two land areas", x.ID, y.ID)
		}
		sc.impass[pair(x.index, y.index)] = true
	}
	for _, a := range sc.areas {
		sort.Ints(a.adj)
		for _, n := range a.adj {
			switch b := sc.areas[n]; {
			case b.sea:
				a.seas = append(a.seas, n)
			case !a.sea && !sc.impass[pair(a.index, n)]:
				a.land = append(a.land, n)
			}
		}
		if len(a.adj) == 0 {
			return fmt.Errorf("area %s has no neighbours", a.ID)
		}
	}
	sc.powerByID = map[string]int{}
	if len(sc.PowerTable.List) == 0 {
		return fmt.Errorf("superpowers: none")
	}
	for i, p := range sc.PowerTable.List {
		if p == nil || p.ID == "" || p.Name == "" {
			return fmt.Errorf("superpowers[%d]: id and name are required", i)
		}
		if p.ID != strings.ToLower(p.ID) || strings.ContainsAny(p.ID, " -/.,:;") {
			return fmt.Errorf("superpower %q: ids are lower case, one word", p.ID)
		}
		if _, dup := sc.powerByID[p.ID]; dup {
			return fmt.Errorf("superpower %q appears twice", p.ID)
		}
		if len(p.Homes) == 0 {
			return fmt.Errorf("superpower %s has no home areas", p.ID)
		}
		sc.powerByID[p.ID] = i
		coast := false
		for _, h := range p.Homes {
			a, err := area("superpower "+p.ID, h)
			if err != nil {
				return err
			}
			if a.sea {
				return fmt.Errorf("superpower %s: home %s is a sea area", p.ID, h)
			}
			if a.home >= 0 {
				return fmt.Errorf("area %s is a home of two superpowers", h)
			}
			if len(a.Cities) == 0 {
				return fmt.Errorf("home area %s has no city (armies are built in home cities)", h)
			}
			a.home = i
			p.homes = append(p.homes, a.index)
			coast = coast || len(a.seas) > 0
		}
		if !coast {
			return fmt.Errorf("superpower %s has no sea next to a home area (no place for navies)", p.ID)
		}
		sc.powers = append(sc.powers, p)
	}
	if len(sc.powers) > 16 {
		return fmt.Errorf("superpowers: at most 16")
	}
	sc.chokeOf = map[[2]int]int{}
	for i, c := range sc.Chokes.List {
		if c == nil || c.ID == "" || c.Name == "" {
			return fmt.Errorf("chokepoints[%d]: id and name are required", i)
		}
		for k, s := range c.Seas {
			a, err := area("chokepoint "+c.ID, s)
			if err != nil {
				return err
			}
			if !a.sea {
				return fmt.Errorf("chokepoint %s: %s is not a sea area", c.ID, s)
			}
			c.seas[k] = a.index
		}
		k := pair(c.seas[0], c.seas[1])
		if !sc.border[k] {
			return fmt.Errorf("chokepoint %s: %s and %s do not border each other", c.ID, c.Seas[0], c.Seas[1])
		}
		if _, dup := sc.chokeOf[k]; dup {
			return fmt.Errorf("chokepoint %s: that border has a chokepoint already", c.ID)
		}
		ctl, err := area("chokepoint "+c.ID, c.Control)
		if err != nil {
			return err
		}
		if ctl.sea {
			return fmt.Errorf("chokepoint %s: control area %s is a sea area", c.ID, c.Control)
		}
		c.control = ctl.index
		sc.chokeOf[k] = i
		sc.chokes = append(sc.chokes, c)
	}
	return nil
}

func (sc *Scenario) validateDeck() error {
	sc.cardByID = map[string]int{}
	add := func(c card) error {
		if c.id == "" || c.name == "" {
			return fmt.Errorf("deck: a card without id or name")
		}
		if c.id != strings.ToLower(c.id) || strings.ContainsAny(c.id, " -/.,:;") {
			return fmt.Errorf("card %q: ids are lower case, one word", c.id)
		}
		if _, dup := sc.cardByID[c.id]; dup {
			return fmt.Errorf("card %q appears twice", c.id)
		}
		if _, clash := sc.areaByID[c.id]; clash {
			return fmt.Errorf("card %q has the id of an area", c.id)
		}
		sc.cardByID[c.id] = len(sc.cards)
		sc.cards = append(sc.cards, c)
		return nil
	}
	if len(sc.Deck.Companies) == 0 {
		return fmt.Errorf("deck: no companies")
	}
	for _, co := range sc.Deck.Companies {
		if co == nil {
			return fmt.Errorf("deck: empty company")
		}
		i, ok := sc.areaByID[co.Area]
		if !ok {
			return fmt.Errorf("company %s: unknown area %q", co.ID, co.Area)
		}
		a := sc.areas[i]
		if a.sea {
			return fmt.Errorf("company %s: area %s is a sea area", co.ID, co.Area)
		}
		co.area = i
		co.city = -1
		switch {
		case len(a.Cities) > 1 && co.City == "":
			return fmt.Errorf("company %s: %s has several cities; name the company's city", co.ID, a.ID)
		case co.City != "":
			for k, c := range a.Cities {
				if c == co.City {
					co.city = k
				}
			}
			if co.city < 0 {
				return fmt.Errorf("company %s: %q is not a city of %s", co.ID, co.City, a.ID)
			}
		}
		r, ok := resourceByID(co.Resource)
		if !ok {
			return fmt.Errorf("company %s: resource %q is not oil, minerals or grain", co.ID, co.Resource)
		}
		co.res = r
		if co.Output <= 0 {
			return fmt.Errorf("company %s: output must be positive", co.ID)
		}
		if err := add(card{company: co, id: co.ID, name: co.Name}); err != nil {
			return err
		}
	}
	for _, t := range sc.Deck.Technologies {
		if t == nil {
			return fmt.Errorf("deck: empty technology card")
		}
		var tech Tech
		switch t.Tech {
		case "icbm":
			tech = TechICBM
		case "abm":
			tech = TechABM
		default:
			return fmt.Errorf("technology card %s: tech %q is not icbm or abm", t.ID, t.Tech)
		}
		if err := add(card{tech: tech, id: t.ID, name: t.Name}); err != nil {
			return err
		}
	}
	return nil
}

// buildNames prepares the name sets the order grammar reads.
func (sc *Scenario) buildNames() error {
	var places []orders.Name
	taken := map[string]bool{}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	for _, a := range sc.areas {
		taken[norm(a.ID)], taken[norm(a.Name)] = true, true
		for _, al := range a.Aliases {
			taken[norm(al)] = true
		}
	}
	for _, a := range sc.areas {
		n := orders.Name{ID: a.ID, Full: a.Name, Aliases: append([]string(nil), a.Aliases...)}
		if len(a.Cities) == 1 && !taken[norm(a.Cities[0])] {
			n.Aliases = append(n.Aliases, a.Cities[0]) // "LAUNCH 1 AT Paris"
			taken[norm(a.Cities[0])] = true
		}
		places = append(places, n)
		sc.placeRefs = append(sc.placeRefs, placeRef{area: a.index, city: -1})
	}
	for _, a := range sc.areas {
		if len(a.Cities) < 2 {
			continue
		}
		for k, c := range a.Cities {
			id := strings.ToLower(strings.Join(strings.Fields(c), ""))
			if taken[id] || taken[norm(c)] {
				return fmt.Errorf("city %q of %s: its name is taken by another area or city", c, a.ID)
			}
			taken[id], taken[norm(c)] = true, true
			places = append(places, orders.Name{ID: id, Full: c})
			sc.placeRefs = append(sc.placeRefs, placeRef{area: a.index, city: k})
		}
	}
	var err error
	if sc.places, err = orders.NewNames("area", places); err != nil {
		return err
	}
	var pw []orders.Name
	for _, p := range sc.powers {
		pw = append(pw, orders.Name{ID: p.ID, Full: p.Name})
	}
	if sc.powerSet, err = orders.NewNames("superpower", pw); err != nil {
		return err
	}
	var cs []orders.Name
	for _, c := range sc.cards {
		if c.company != nil {
			cs = append(cs, orders.Name{ID: c.id, Full: c.name})
		}
	}
	if sc.cardSet, err = orders.NewNames("company", cs); err != nil {
		return err
	}
	var ch []orders.Name
	for _, c := range sc.chokes {
		ch = append(ch, orders.Name{ID: c.ID, Full: c.Name, Aliases: c.Aliases})
	}
	if sc.chokeSet, err = orders.NewNames("choke point", ch); err != nil {
		return err
	}
	sc.powerCmds, err = orders.NewNames("power", pw)
	return err
}

func pair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// chokeBetween returns the chokepoint on the border of two seas, or -1.
func (sc *Scenario) chokeBetween(a, b int) int {
	if i, ok := sc.chokeOf[pair(a, b)]; ok {
		return i
	}
	return -1
}

// adjacent reports whether two areas border each other.
func (sc *Scenario) adjacent(a, b int) bool { return sc.border[pair(a, b)] }

// armyBorder reports whether an army may cross from a to b (both land,
// bordering, not impassable).
func (sc *Scenario) armyBorder(a, b int) bool {
	return !sc.areas[a].sea && !sc.areas[b].sea && sc.border[pair(a, b)] && !sc.impass[pair(a, b)]
}

// cityCount is the number of cities an area counts for contamination
// (one for an area without named cities).
func (sc *Scenario) cityCount(a int) int { return max(1, len(sc.areas[a].Cities)) }

func (sc *Scenario) areaName(a int) string { return sc.areas[a].Name }

// Areas returns the ids of every area, in file order.
func (sc *Scenario) Areas() []string {
	out := make([]string, len(sc.areas))
	for i, a := range sc.areas {
		out[i] = a.ID
	}
	return out
}

// Powers returns the ids of every superpower, in file order.
func (sc *Scenario) Powers() []string {
	out := make([]string, len(sc.powers))
	for i, p := range sc.powers {
		out[i] = p.ID
	}
	return out
}
