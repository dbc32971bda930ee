package supremacy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// stateVersion is the version of the stored state encoding. Decoding
// accepts every version up to this one; add fields, never rename them.
const stateVersion = 1

// Phase is a phase of a turn.
type Phase int

const (
	PhaseNone Phase = iota - 1
	PhaseSetup
	PhaseSalaries
	PhaseTrade
	PhaseAttack
	PhaseMove
	PhaseBuild
	PhaseOver
)

var phaseNames = [...]string{"setup", "salaries", "trade", "attack", "move", "build", "over"}
var phaseTitles = [...]string{"Set-up", "Salaries", "Trade", "Attack", "Move", "Build", "Game over"}

func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return "none"
	}
	return phaseNames[p]
}

// Title is the phase as players read it.
func (p Phase) Title() string {
	if p < 0 || int(p) >= len(phaseTitles) {
		return "?"
	}
	return phaseTitles[p]
}

func phaseByName(s string) (Phase, bool) {
	for i, n := range phaseNames {
		if n == s {
			return Phase(i), true
		}
	}
	return PhaseNone, false
}

// Steps says which phases are played one player's step at a time.
const (
	StepsNone   = "none"   // every phase is one mail round, run in the drawn order
	StepsAttack = "attack" // the attack phase is played step by step
	StepsAll    = "all"    // trade, attack, move and build are played step by step
)

// Options are a game's settings, fixed at its start.
type Options struct {
	Scenario string   `json:"scenario"`
	Powers   []string `json:"powers"` // the superpowers that have players
	Turns    int      `json:"turns"`  // the game ends after this turn
	Fast     bool     `json:"fast,omitempty"`
	Slow     bool     `json:"slow,omitempty"`
	Steps    string   `json:"steps"`
	// BuildTogether: with steps=all, the build phase is still one mail
	// round (the seed's "simultaneous phase" when all players agree).
	BuildTogether bool `json:"build_together,omitempty"`
}

// Player status.
const (
	statusPlaying   = "playing"
	statusBankrupt  = "bankrupt"
	statusConquered = "conquered"
	statusDestroyed = "destroyed" // every home city destroyed; net worth saved
)

// player is one superpower with a player.
type player struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Cash     int    `json:"cash"`
	Loans    int    `json:"loans,omitempty"`
	LoanPeak int    `json:"loan_peak,omitempty"` // highest loan since the last salaries
	Bonds    int    `json:"bonds,omitempty"`
	Oil      int    `json:"oil,omitempty"`
	Minerals int    `json:"minerals,omitempty"`
	Grain    int    `json:"grain,omitempty"`
	ICBM     int    `json:"icbm,omitempty"`
	ABM      int    `json:"abm,omitempty"`
	TechICBM bool   `json:"tech_icbm,omitempty"`
	TechABM  bool   `json:"tech_abm,omitempty"`
	// NewICBM/NewABM: the technology was researched this turn: one piece
	// may be built, for minerals only.
	NewICBM  bool `json:"new_icbm,omitempty"`
	NewABM   bool `json:"new_abm,omitempty"`
	Cards    int  `json:"reserve_cards"` // Strategic Reserve cards (two after a conquest)
	Misdealt bool `json:"misdealt,omitempty"`
	SavedNW  int  `json:"saved_net_worth,omitempty"`
	NukedAt  int  `json:"nuked_at,omitempty"` // sequence number of the last ICBM on a home city
	OutTurn  int  `json:"out_turn,omitempty"`
	// this turn
	Trades   int   `json:"trades,omitempty"`
	Bought   int   `json:"bought,omitempty"` // bit per resource bought this turn
	Sold     int   `json:"sold,omitempty"`   // bit per resource sold this turn
	Research int   `json:"research,omitempty"`
	Built    built `json:"built"`
	// standing orders (canonical lines)
	Reactions []string `json:"reactions,omitempty"`
	Contests  []string `json:"contests,omitempty"`
	Permits   []string `json:"permits,omitempty"` // "power choke" pairs, "*" for all
	ABMPolicy string   `json:"abm_policy"`
	ABMPowers []string `json:"abm_powers,omitempty"`
	// Losses is the standing order in which the player's attacking pieces
	// are removed for hits: area ids (armies attacking from a land area,
	// navies firing from a sea) and "afloat" (armies carried by sea).
	Losses []string `json:"losses,omitempty"`

	idx int // superpower index in the scenario
}

// built counts what a player built this turn (arms sales sell these).
type built struct {
	Armies map[string]int `json:"armies,omitempty"` // area id ⇒ armies built there
	Navies map[string]int `json:"navies,omitempty"`
	ICBM   int            `json:"icbm,omitempty"`
	ABM    int            `json:"abm,omitempty"`
}

func (p *player) res(r Resource) *int {
	switch r {
	case Oil:
		return &p.Oil
	case Minerals:
		return &p.Minerals
	}
	return &p.Grain
}

func (p *player) alive() bool { return p.Status == statusPlaying }

// stackJSON is the pieces of one owner in one area.
type stackJSON struct {
	Area   string `json:"area"`
	Owner  string `json:"owner"`
	Armies int    `json:"armies,omitempty"`
	Navies int    `json:"navies,omitempty"`
}

// areaJSON is what differs in an area from the start of the game.
type areaJSON struct {
	Area        string `json:"area"`
	Destroyed   []int  `json:"destroyed_cities,omitempty"` // city indexes hit by ICBMs
	MinorArmies int    `json:"minor_armies,omitempty"`     // armies a minor power bought
	MinorICBM   int    `json:"minor_icbm,omitempty"`
	MinorABM    int    `json:"minor_abm,omitempty"`
	MinorNavies int    `json:"minor_navies,omitempty"` // navies a minor power bought
	CapturedBy  string `json:"captured_by,omitempty"`
	CapturedAt  int    `json:"captured_at,omitempty"`
}

// cardJSON is where one card is.
type cardJSON struct {
	Card      string `json:"card"`
	At        string `json:"at"` // deck | loose (open to seizure) | a superpower id
	Destroyed bool   `json:"destroyed,omitempty"`
	Open      bool   `json:"open,omitempty"`
	Blockaded bool   `json:"blockaded,omitempty"`
}

// offer is a private trade, arms sale or personal loan offered this phase.
type offer struct {
	From  string   `json:"from"`
	To    string   `json:"to"`
	N     int      `json:"n"`
	Line  string   `json:"line"`            // the canonical OFFER line
	Place []string `json:"place,omitempty"` // set by the ACCEPT
	Taken bool     `json:"accepted,omitempty"`
	// An answer (Taken): the terms its ACCEPT quoted ("" for any), or a
	// REFUSE (offers.go).
	Terms   string `json:"terms,omitempty"`
	Refused bool   `json:"refused,omitempty"`
}

// attackJSON is the attack phase played step by step: whose step it is.
type attackJSON struct {
	Stage     string   `json:"stage"` // attack | counter | confirm
	Defenders []string `json:"defenders,omitempty"`
	Launch    string   `json:"launch,omitempty"` // the declared launch awaiting CONFIRM
	Attacks   int      `json:"attacks,omitempty"`
}

// stateJSON is the stored state.
type stateJSON struct {
	Version     int         `json:"version"`
	Options     Options     `json:"options"`
	Turn        int         `json:"turn"`
	Phase       string      `json:"phase"`
	Order       []string    `json:"order"` // drawn player order of the phase
	Slot        int         `json:"slot"`  // steps: whose step, an index into Order
	Step        int         `json:"step"`  // counts the phase's steps, for phase ids
	Attack      *attackJSON `json:"attack,omitempty"`
	Players     []*player   `json:"players"`
	Units       []stackJSON `json:"units"`
	Areas       []areaJSON  `json:"areas,omitempty"`
	Cards       []cardJSON  `json:"cards"`
	Market      [3]int      `json:"market"` // track space of oil, minerals, grain
	Bank        int         `json:"bank"`   // what the bank has paid out, negated: bank + Σ cash = 0
	Detonations int         `json:"detonations,omitempty"`
	Seq         int         `json:"seq,omitempty"`
	Offers      []offer     `json:"offers,omitempty"`
	Winter      bool        `json:"nuclear_winter,omitempty"`
	WinterBy    string      `json:"winter_by,omitempty"`
	Over        bool        `json:"over,omitempty"`
	Winners     []string    `json:"winners,omitempty"`
	Ranking     []string    `json:"ranking,omitempty"`
}

// world is the state being played: dense arrays over the scenario.
type world struct {
	sc      *Scenario
	opt     Options
	turn    int
	phase   Phase
	order   []int // player indexes (into players)
	slot    int
	step    int
	attack  *attackJSON
	players []*player
	byPower []int // superpower index ⇒ player index, -1 when unplayed
	army    [][]int
	navy    [][]int
	minorA  []int
	minorI  []int
	minorB  []int
	minorN  []int // navies a minor power bought, kept off its coast
	capBy   []int // area ⇒ player index of the last capture, -1
	capAt   []int
	cities  [][]bool // area ⇒ city destroyed
	dead    []bool   // area contaminated (every city destroyed)
	cardAt  []int    // card ⇒ player index, or cardDeck / cardLoose
	cardDed []bool
	cardOpn []bool
	cardBlk []bool
	market  [3]int
	bank    int
	deton   int
	seq     int
	offers  []offer
	winter  bool
	winBy   string
	over    bool
	winners []string
	ranking []string
}

const (
	cardDeck  = -1
	cardLoose = -2
)

func newWorld(sc *Scenario, opt Options) *world {
	w := &world{sc: sc, opt: opt}
	na, np, nc := len(sc.areas), len(sc.powers), len(sc.cards)
	// one allocation for the pieces, one for the per-area and per-card
	// numbers, one for the flags
	pieces := make([]int, 2*na*np)
	w.army, w.navy = make([][]int, na), make([][]int, na)
	for a := range w.army {
		w.army[a] = pieces[2*a*np : (2*a+1)*np : (2*a+1)*np]
		w.navy[a] = pieces[(2*a+1)*np : (2*a+2)*np : (2*a+2)*np]
	}
	nums := make([]int, 6*na+nc+np)
	w.minorA, w.minorI, w.minorB = nums[:na:na], nums[na:2*na:2*na], nums[2*na:3*na:3*na]
	w.capBy, w.capAt = nums[3*na:4*na:4*na], nums[4*na:5*na:5*na]
	w.minorN = nums[5*na : 6*na : 6*na]
	w.cardAt, w.byPower = nums[6*na:6*na+nc:6*na+nc], nums[6*na+nc:]
	for a := range w.capBy {
		w.capBy[a] = -1
	}
	ncity := 0
	for a := range sc.areas {
		ncity += sc.cityCount(a)
	}
	flags := make([]bool, ncity+na+3*nc)
	w.cities = make([][]bool, na)
	k := 0
	for a := range w.cities {
		n := sc.cityCount(a)
		w.cities[a] = flags[k : k+n : k+n]
		k += n
	}
	w.dead = flags[k : k+na : k+na]
	k += na
	w.cardDed, w.cardOpn, w.cardBlk = flags[k:k+nc:k+nc], flags[k+nc:k+2*nc:k+2*nc], flags[k+2*nc:]
	for c := range w.cardAt {
		w.cardAt[c] = cardDeck
	}
	for i := range w.byPower {
		w.byPower[i] = -1
	}
	return w
}

// playerOf returns the player of a power id, or nil.
func (w *world) playerOf(id string) *player {
	if i, ok := w.sc.powerByID[id]; ok && w.byPower[i] >= 0 {
		return w.players[w.byPower[i]]
	}
	return nil
}

func (w *world) encode() []byte {
	sc := w.sc
	j := stateJSON{
		Version: stateVersion, Options: w.opt, Turn: w.turn, Phase: w.phase.String(), Slot: w.slot, Step: w.step,
		Attack: w.attack, Players: w.players, Units: []stackJSON{}, Market: w.market, Bank: w.bank,
		Detonations: w.deton, Seq: w.seq, Offers: w.offers, Winter: w.winter, WinterBy: w.winBy,
		Over: w.over, Winners: w.winners, Ranking: w.ranking, Order: []string{}, Cards: []cardJSON{},
	}
	for _, i := range w.order {
		j.Order = append(j.Order, w.players[i].ID)
	}
	for a := range sc.areas {
		for p := range sc.powers {
			if w.army[a][p] > 0 || w.navy[a][p] > 0 {
				j.Units = append(j.Units, stackJSON{Area: sc.areas[a].ID, Owner: sc.powers[p].ID, Armies: w.army[a][p], Navies: w.navy[a][p]})
			}
		}
		aj := areaJSON{Area: sc.areas[a].ID, MinorArmies: w.minorA[a], MinorICBM: w.minorI[a], MinorABM: w.minorB[a], MinorNavies: w.minorN[a]}
		for k, d := range w.cities[a] {
			if d {
				aj.Destroyed = append(aj.Destroyed, k)
			}
		}
		if w.capBy[a] >= 0 {
			aj.CapturedBy, aj.CapturedAt = w.players[w.capBy[a]].ID, w.capAt[a]
		}
		if len(aj.Destroyed) > 0 || aj.MinorArmies > 0 || aj.MinorICBM > 0 || aj.MinorABM > 0 || aj.MinorNavies > 0 || aj.CapturedBy != "" {
			j.Areas = append(j.Areas, aj)
		}
	}
	for c, cd := range sc.cards {
		if w.cardAt[c] == cardDeck && !w.cardDed[c] {
			continue
		}
		cj := cardJSON{Card: cd.id, Destroyed: w.cardDed[c], Open: w.cardOpn[c], Blockaded: w.cardBlk[c]}
		switch at := w.cardAt[c]; at {
		case cardDeck:
			cj.At = "deck"
		case cardLoose:
			cj.At = "loose"
		default:
			cj.At = w.players[at].ID
		}
		j.Cards = append(j.Cards, cj)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&j); err != nil {
		panic(fmt.Sprintf("supremacy: encode state: %v", err)) // plain data: cannot fail
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// decodeWorld reads a stored state, refusing unknown fields and
// dangling references.
func decodeWorld(data []byte) (*world, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j stateJSON
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("supremacy: state: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("supremacy: state: data after the state object")
	}
	if j.Version < 1 || j.Version > stateVersion {
		return nil, fmt.Errorf("supremacy: state version %d is not supported (1 to %d)", j.Version, stateVersion)
	}
	sc, ok := ScenarioByName(j.Options.Scenario)
	if !ok {
		return nil, fmt.Errorf("supremacy: state: unknown scenario %q", j.Options.Scenario)
	}
	w := newWorld(sc, j.Options)
	var okPhase bool
	if w.phase, okPhase = phaseByName(j.Phase); !okPhase {
		return nil, fmt.Errorf("supremacy: state: unknown phase %q", j.Phase)
	}
	w.turn, w.slot, w.step, w.attack = j.Turn, j.Slot, j.Step, j.Attack
	w.market, w.bank, w.deton, w.seq = j.Market, j.Bank, j.Detonations, j.Seq
	w.offers, w.winter, w.winBy, w.over, w.winners, w.ranking = j.Offers, j.Winter, j.WinterBy, j.Over, j.Winners, j.Ranking
	w.players = j.Players
	for i, p := range w.players {
		pi, ok := sc.powerByID[p.ID]
		if !ok {
			return nil, fmt.Errorf("supremacy: state: unknown player %q", p.ID)
		}
		if w.byPower[pi] >= 0 {
			return nil, fmt.Errorf("supremacy: state: player %q twice", p.ID)
		}
		p.idx = pi
		w.byPower[pi] = i
	}
	pl := func(id string) (int, error) {
		if pi, ok := sc.powerByID[id]; ok && w.byPower[pi] >= 0 {
			return w.byPower[pi], nil
		}
		return 0, fmt.Errorf("supremacy: state: %q is not a player", id)
	}
	for _, id := range j.Order {
		i, err := pl(id)
		if err != nil {
			return nil, err
		}
		w.order = append(w.order, i)
	}
	area := func(id string) (int, error) {
		if a, ok := sc.areaByID[id]; ok {
			return a, nil
		}
		return 0, fmt.Errorf("supremacy: state: unknown area %q", id)
	}
	for _, u := range j.Units {
		a, err := area(u.Area)
		if err != nil {
			return nil, err
		}
		pi, ok := sc.powerByID[u.Owner]
		if !ok || u.Armies < 0 || u.Navies < 0 {
			return nil, fmt.Errorf("supremacy: state: bad pieces %+v", u)
		}
		w.army[a][pi], w.navy[a][pi] = u.Armies, u.Navies
	}
	for _, aj := range j.Areas {
		a, err := area(aj.Area)
		if err != nil {
			return nil, err
		}
		for _, k := range aj.Destroyed {
			if k < 0 || k >= len(w.cities[a]) {
				return nil, fmt.Errorf("supremacy: state: %s has no city %d", aj.Area, k)
			}
			w.cities[a][k] = true
		}
		w.minorA[a], w.minorI[a], w.minorB[a], w.minorN[a] = aj.MinorArmies, aj.MinorICBM, aj.MinorABM, aj.MinorNavies
		if aj.MinorArmies < 0 || aj.MinorICBM < 0 || aj.MinorABM < 0 || aj.MinorNavies < 0 {
			return nil, fmt.Errorf("supremacy: state: negative minor arms in %s", aj.Area)
		}
		if aj.CapturedBy != "" {
			i, err := pl(aj.CapturedBy)
			if err != nil {
				return nil, err
			}
			w.capBy[a], w.capAt[a] = i, aj.CapturedAt
		}
	}
	for a := range w.dead {
		w.dead[a] = true
		for _, d := range w.cities[a] {
			w.dead[a] = w.dead[a] && d
		}
	}
	for _, cj := range j.Cards {
		c, ok := sc.cardByID[cj.Card]
		if !ok {
			return nil, fmt.Errorf("supremacy: state: unknown card %q", cj.Card)
		}
		switch cj.At {
		case "deck":
			w.cardAt[c] = cardDeck
		case "loose":
			w.cardAt[c] = cardLoose
		default:
			i, err := pl(cj.At)
			if err != nil {
				return nil, err
			}
			w.cardAt[c] = i
		}
		w.cardDed[c], w.cardOpn[c], w.cardBlk[c] = cj.Destroyed, cj.Open, cj.Blockaded
	}
	for _, o := range w.offers {
		if _, err := pl(o.From); err != nil {
			return nil, err
		}
		if _, err := pl(o.To); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// ---- small helpers ----

func sortStrings(xs []string) { sort.Strings(xs) }

func money(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-$" + b.String() + " BL"
	}
	return "$" + b.String() + " BL"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
