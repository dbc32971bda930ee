package store

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	bucketGames     = registerBucket([]byte("games"))        // name → Game
	bucketStates    = registerBucket([]byte("states"))       // name → engine state of the current phase
	bucketTokens    = registerBucket([]byte("tokens"))       // sha256(token) → TokenRef
	bucketOrders    = registerBucket([]byte("orders"))       // name 0 phase(8) 0 seq(8) → OrderSet
	bucketHistory   = registerBucket([]byte("history"))      // name 0 phase(8) → PhaseRecord
	bucketDeadlines = registerBucket([]byte("deadlines"))    // unix(8) name → nothing: the due-game index
	bucketDueKey    = registerBucket([]byte("duekey"))       // name → its key in deadlines
	bucketAudit     = registerGrowingBucket([]byte("audit")) // seq(8) → AuditEntry
	bucketPress     = registerBucket([]byte("press"))        // name 0 seq(8) → Press
	bucketCodes     = registerBucket([]byte("codes"))        // code → Code
	bucketSent      = registerGrowingBucket([]byte("sent"))  // Message-ID → code
)

// GameStatus is where a game is in its life.
type GameStatus string

const (
	Forming  GameStatus = "forming"  // taking sign-ups
	Active   GameStatus = "active"   // playing
	Finished GameStatus = "finished" // over (solo, draw or ended by the GM)
)

// Game is everything the daemon knows about one game except its engine
// state (kept beside it, see State) and its history.
type Game struct {
	Name    string `json:"name"`
	Variant string `json:"variant"` // engine registry name
	// Map is, for a game on a variant added as a file, the hash of the
	// file's text when the game was created; the text is kept in the
	// store (PutMapText) and the game is played on it, whatever the file
	// says now. Empty for an engine compiled in.
	Map     string      `json:"map,omitempty"`
	Created time.Time   `json:"created"`
	Status  GameStatus  `json:"status"`
	Options GameOptions `json:"options"`
	Seed    int64       `json:"seed"` // master seed; each phase's seed derives from it

	// OpenPhase is the phase now open, one value (its fields are stored
	// at the top level of the game record, as they always were).
	OpenPhase

	Players   []Player   `json:"players,omitempty"`
	Observers []Observer `json:"observers,omitempty"`
	GM        []string   `json:"gm,omitempty"` // GM addresses
	GMToken   string     `json:"gm_token"`
	// Requests are the JOIN … as junior requests waiting for (or refused
	// by) the senior diplomat of their power.
	Requests []JoinRequest `json:"requests,omitempty"`

	Paused      bool      `json:"paused,omitempty"`
	PausedAt    time.Time `json:"paused_at,omitzero"`
	PauseReason string    `json:"pause_reason,omitempty"`
	PausedUntil time.Time `json:"paused_until,omitzero"`
	HouseRules  string    `json:"house_rules,omitempty"`

	Winners []string `json:"winners,omitempty"`
	EndedAs string   `json:"ended_as,omitempty"` // "solo", "draw", "gm"
	// Autopilot holds the GM's AUTOPILOT <power> ON|OFF, per power, over
	// Options.Autopilot; a power's player clears an ON with a mail of
	// orders (taking back control).
	Autopilot map[string]bool `json:"autopilot,omitempty"`
	// Scores are each power's points at the end under Options.Scoring, as
	// the engine scored them (nil: the game is not scored or not over).
	Scores map[string]float64 `json:"scores,omitempty"`

	// Pending holds results the GM previews before PUBLISH.
	Pending *Pending `json:"pending,omitempty"`
	// PrizeCommit is the hash of the draw-prize seed, published before
	// the final phase (see the daemon's draw prize).
	PrizeCommit string `json:"prize_commit,omitempty"`
	PrizeSeed   string `json:"prize_seed,omitempty"`

	// Seniors is who was the senior diplomat of which power, from when to
	// when (the prize of a power that had several goes to the longest
	// serving). Ended is when the game ended.
	Seniors []SeniorTerm `json:"seniors,omitempty"`
	Ended   time.Time    `json:"ended,omitzero"`
	// GraceUsed is, per player address, the number of the phase in which
	// the game last waited for them with their grace (daemon/grace.go).
	GraceUsed map[string]int `json:"grace_used,omitempty"`
	// Absences are the players' SET ABSENCE announcements (daemon/absence.go).
	Absences []Absence `json:"absences,omitempty"`
	// WeeklyFrom is the calendar year (OpenPhase.CalYear) in which the
	// weekly calendar began: 0 for a game created weekly, later when the
	// GM switched a running game to it. The seed's pace-vote weeks count
	// from it (daemon/calendar.go).
	WeeklyFrom int `json:"weekly_from,omitempty"`
}

// SeniorTerm is one diplomat's time as the senior diplomat of a power;
// To is zero while it lasts.
type SeniorTerm struct {
	Power   string    `json:"power"`
	Address string    `json:"address"`
	From    time.Time `json:"from"`
	To      time.Time `json:"to,omitzero"`
}

// Absence is one player's announced absence, From to To (both whole
// days, UTC: From 00:00 to the end of To).
type Absence struct {
	Address string    `json:"address"`
	Power   string    `json:"power"`
	From    time.Time `json:"from"`
	To      time.Time `json:"to"`
}

// OpenPhase is everything the open phase of a game owns: which phase it
// is, its deadline and seed, the votes, ready flags, locks and reminders of
// the phase. The daemon opens a phase by writing one whole value, and the
// value as it stood when the phase was processed goes into the phase's
// history record, so ROLLBACK restores exactly what was processed. The
// orders of the phase live in their own bucket under the phase's number.
type OpenPhase struct {
	Phase        int       `json:"phase"`    // number of phases processed so far
	PhaseID      string    `json:"phase_id"` // engine phase id of the open phase
	PhaseTitle   string    `json:"phase_title"`
	PhaseKind    string    `json:"phase_kind"`
	PhaseStarted time.Time `json:"phase_started"`
	Deadline     time.Time `json:"deadline"`
	// PhaseSeed is the seed of the phase's dice and shuffles (0 in a
	// record written before it was kept: the daemon derives it then).
	PhaseSeed int64 `json:"phase_seed,omitempty"`
	// LastOrdersEnd is when the last main order phase ended (fast pace
	// counts the next order deadline from it).
	LastOrdersEnd time.Time `json:"last_orders_end,omitzero"`
	Waiting       []string  `json:"waiting,omitempty"` // powers with something to order
	Alive         []string  `json:"alive,omitempty"`
	Reminded      Offsets   `json:"reminded,omitempty"` // reminder offsets already sent this phase

	DrawVotes map[string]bool `json:"draw_votes,omitempty"` // power → yes, this phase
	PaceVotes map[string]Pace `json:"pace_votes,omitempty"` // power → its PACE vote (carried from phase to phase)
	Ready     map[string]bool `json:"ready,omitempty"`      // power → ready, this phase
	// Locks are the seniors' LOCK JUNIORS, by power.
	Locks map[string]Lock `json:"locks,omitempty"`
	// Dropped lists the diplomats whose orders for this phase, up to the
	// moment they were released by their senior or ejected by the GM, no
	// longer count.
	Dropped []Drop `json:"dropped,omitempty"`

	// Proposals are the votes for an ending other than a draw of every
	// survivor, this phase: power → the ending ("draw greece rome",
	// "concede rome").
	Proposals map[string]string `json:"proposals,omitempty"`
	// The weekly calendar (daemon/calendar.go): CalStart is when game
	// year 0 began on it (moved on by whole weeks when the game fell a
	// week behind), CalYear the game years played since, YearStep the
	// phase's place in its year as the engine declares it.
	CalStart time.Time `json:"cal_start,omitzero"`
	CalYear  int       `json:"cal_year,omitempty"`
	YearStep int       `json:"year_step,omitempty"`
	// Lateness (daemon/grace.go): the deadline that passed first (zero
	// until one has), the powers that had not ordered then, and those the
	// game waited for after it.
	FirstDeadline time.Time `json:"first_deadline,omitzero"`
	ProcessNow    bool      `json:"process_now,omitempty"` // the GM's PROCESS: no late policy waits
	Late          []string  `json:"late,omitempty"`
	Graced        []string  `json:"graced,omitempty"`
}

// Offsets are lengths of time before a deadline (the reminders sent for
// it). They are stored as Go writes a duration ("24h0m0s"), as they were
// when they were strings.
type Offsets []time.Duration

// MarshalJSON writes each offset as a duration string.
func (o Offsets) MarshalJSON() ([]byte, error) {
	s := make([]string, len(o))
	for i, d := range o {
		s[i] = d.String()
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads duration strings.
func (o *Offsets) UnmarshalJSON(b []byte) error {
	var s []string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		*o = nil
		return nil
	}
	out := make(Offsets, len(s))
	for i, x := range s {
		d, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("reminder offset %q: %w", x, err)
		}
		out[i] = d
	}
	*o = out
	return nil
}

// Drop is one diplomat's orders struck from the open phase: those they
// sent up to At.
type Drop struct {
	Address string    `json:"address"`
	At      time.Time `json:"at"`
}

// Struck tells whether a version of orders is struck from the phase.
func (p *OpenPhase) Struck(s OrderSet) bool {
	if s.GM {
		return false
	}
	for _, d := range p.Dropped {
		if d.Address == s.Address && !s.Received.After(d.At) {
			return true
		}
	}
	return false
}

// Lock is a senior diplomat's LOCK JUNIORS: the senior's orders (and the
// GM's) are applied after the juniors', so they win.
type Lock struct {
	By string `json:"by"` // the senior who set it: it lapses when the power has another senior
	// Always: LOCK JUNIORS ALWAYS, carried into every later phase; else
	// for this phase only.
	Always bool `json:"always,omitempty"`
}

// Clone returns a copy of p that shares no slice or map with it.
func (p OpenPhase) Clone() OpenPhase {
	p.Waiting = slices.Clone(p.Waiting)
	p.Alive = slices.Clone(p.Alive)
	p.Reminded = slices.Clone(p.Reminded)
	p.Dropped = slices.Clone(p.Dropped)
	p.DrawVotes = maps.Clone(p.DrawVotes)
	p.Proposals = maps.Clone(p.Proposals)
	p.PaceVotes = maps.Clone(p.PaceVotes)
	p.Ready = maps.Clone(p.Ready)
	p.Locks = maps.Clone(p.Locks)
	p.Late = slices.Clone(p.Late)
	p.Graced = slices.Clone(p.Graced)
	return p
}

// JoinRequest is someone's JOIN <game> as junior of <power>, waiting for
// the power's senior diplomat (or, when the power has none, the GM).
type JoinRequest struct {
	Address string    `json:"address"`
	Power   string    `json:"power"`
	Asked   time.Time `json:"asked"`
	// AskedOf is the address asked to decide ("" = the GM); MsgID is the
	// mail that asked, so a reply to it answers this request.
	AskedOf string `json:"asked_of,omitempty"`
	MsgID   string `json:"msgid,omitempty"`
	// Refused: the senior said no; the record stays so that the same
	// address cannot ask the same power again and again.
	Refused bool `json:"refused,omitempty"`
	// Seat: a request to take over a power that has no player (JOIN
	// <game> as <power>), decided by the GM.
	Seat bool `json:"seat,omitempty"`
}

// Pace is how fast a game's phases follow one another.
type Pace string

const (
	PaceSlow Pace = "slow" // the seed's schedule
	PaceFast Pace = "fast" // short order phases, retreats and builds folded into them
)

// PressRule is which press a game relays.
type PressRule string

const (
	PressAll   PressRule = "all"   // private and public
	PressWhite PressRule = "white" // public only (BROADCAST)
	PressNone  PressRule = "none"  // none
)

// GameOptions are the settings a GM chooses at creation (and may change).
type GameOptions struct {
	Pace         Pace      `json:"pace"`
	Press        PressRule `json:"press"`
	PSA          bool      `json:"psa"`           // anonymous announcements allowed
	PressInAdj   bool      `json:"press_in_adj"`  // press during retreat and build phases
	Preview      bool      `json:"preview"`       // results go to the GM first
	ProcessEarly bool      `json:"process_early"` // process when all are READY (off: the seed forbids cutting phases short)
	DrawPrize    bool      `json:"draw_prize"`    // the seed's prize lottery on a draw
	// ObserverPress lets observers comment (BROADCAST) and write to
	// powers and the GM (PRESS), and players answer them; GreyPress lets
	// a player send press in another power's name, marked unverified.
	ObserverPress bool `json:"observer_press,omitempty"`
	GreyPress     bool `json:"grey_press,omitempty"`
	// TurnTime is the deadline of each turn or step of a sequential game
	// (0: the schedule's turn length), so a GM can keep steps short.
	TurnTime time.Duration `json:"turn_time,omitempty"`
	// Calendar is "weekly" (the seed's: one game year per week, each
	// phase on its day even when an earlier one was skipped) or
	// "rolling" (each deadline counted from when its phase opened); ""
	// in a game created before the option existed is rolling.
	Calendar string `json:"calendar,omitempty"`
	// Late is what happens at a deadline to a power that has not ordered:
	// "process" ("": process anyway), "grace" (wait Grace for it, once per
	// player every GraceEvery phases) or "extend" (extend for everyone by
	// Grace at a time, at most LateLimit past the first deadline).
	Late       string        `json:"late,omitempty"`
	Grace      time.Duration `json:"grace,omitempty"`
	GraceEvery int           `json:"grace_every,omitempty"`
	LateLimit  time.Duration `json:"late_limit,omitempty"`
	// Absence is what a player's SET ABSENCE does: "move" ("": a deadline
	// falling in the absence moves to its end), "pause" (the clock stops
	// for the absence) or "off" (not allowed); AbsenceDays is each
	// player's allowance per game (0: the daemon's default).
	Absence     string `json:"absence,omitempty"`
	AbsenceDays int    `json:"absence_days,omitempty"`
	// Autopilot lets the engine order for a power that sent no orders by
	// the deadline (adjudicator.Autopilot, else its Bot); the GM's
	// AUTOPILOT <power> ON|OFF overrides it per power (Game.Autopilot).
	Autopilot bool `json:"autopilot,omitempty"`
	// Scoring is the system the game is scored by at its end, a name its
	// engine knows (adjudicator.Scorer; "": not scored).
	Scoring string `json:"scoring,omitempty"`
	// Engine holds the options the game's engine reads (its New), as the
	// GM wrote them; the daemon only passes them on.
	Engine map[string]string `json:"engine,omitempty"`

	// Seats is how a power without a player is taken over by JOIN <game>
	// as <power>: SeatsApprove (the GM decides), SeatsOpen or SeatsClosed.
	Seats Seats `json:"seats,omitempty"`
	// MinOnTime is the share of phases (percent) a player's record must
	// show ordered in time to join (0: anyone).
	MinOnTime int `json:"min_ontime,omitempty"`
	// MinRating is the rating (package rating) a player needs to join (0:
	// anyone; a newcomer counts as rated 1500).
	MinRating int `json:"min_rating,omitempty"`
	// FirstPick names who chooses a power before the others at the start:
	// addresses, or FirstPickPrevious (the seniors of the last game's
	// winners and its GM).
	FirstPick []string `json:"first_pick,omitempty"`
	// Web is who may read the game's web pages: WebPublic, WebUnlisted
	// or WebOff ("": the site's default, web.go); WebKey is the
	// unguessable folder name of an unlisted game's pages.
	Web    string `json:"web,omitempty"`
	WebKey string `json:"web_key,omitempty"`
}

// Seats is how an open seat is taken over.
type Seats string

const (
	SeatsApprove Seats = ""       // the GM decides (the default)
	SeatsOpen    Seats = "open"   // the first to ask takes it
	SeatsClosed  Seats = "closed" // only the GM's REPLACE fills it
)

// FirstPickPrevious in GameOptions.FirstPick reads the first pickers from
// the game that ended last on this daemon.
const FirstPickPrevious = "previous"

// Player is one diplomat: a person (address) serving one power of a game.
type Player struct {
	Address  string    `json:"address"`
	Power    string    `json:"power,omitempty"` // "" until powers are assigned
	Rank     int       `json:"rank"`            // seniority within the power: 0 is the senior
	Token    string    `json:"token"`
	PassHash []byte    `json:"pass_hash,omitempty"`
	Zone     string    `json:"zone,omitempty"`
	Prefs    []string  `json:"prefs,omitempty"` // power preference at sign-up
	Joined   time.Time `json:"joined"`
	// Lock is the LOCK JUNIORS of a store written before OpenPhase.Locks
	// ("turn:<phase id>" or "always"): read once, moved there, never
	// written again.
	Lock string `json:"lock,omitempty"`
	Left bool   `json:"left,omitempty"` // no longer plays: keeps history, gets nothing
	// LeftHow says how the player left (LeftResigned, …) and LeftAt when,
	// so a later mail from them gets one clear sentence.
	LeftHow Departure `json:"left_how,omitempty"`
	LeftAt  time.Time `json:"left_at,omitzero"`
}

// Departure is how a player left a game (Player.LeftHow).
type Departure string

const (
	LeftResigned Departure = "resigned" // RESIGN
	LeftReplaced Departure = "replaced" // the GM's REPLACE
	LeftReleased Departure = "released" // the senior's RELEASE
	LeftEjected  Departure = "ejected"  // the GM's EJECT
	LeftMoved    Departure = "moved"    // joined another power of the game (eliminated, then junior elsewhere)
)

// Observer follows a game's results and public press.
type Observer struct {
	Address string `json:"address"`
	Token   string `json:"token"`
}

// Pending is a processed phase whose results wait for the GM's PUBLISH.
type Pending struct {
	Phase int `json:"phase"` // the history record that holds it
}

// TokenRef is what a reply token stands for. It is stored under the
// token's SHA-256 hash and holds no token: finding it is the proof.
type TokenRef struct {
	Game    string `json:"game"`
	Address string `json:"address,omitempty"` // the player or observer; "" for the GM
	GM      bool   `json:"gm,omitempty"`
}

// OrderSet is one received version of a power's orders.
type OrderSet struct {
	Power    string    `json:"power"`
	Address  string    `json:"address"` // who sent it ("" for the GM)
	Rank     int       `json:"rank"`    // sender's seniority when received
	GM       bool      `json:"gm,omitempty"`
	MsgID    string    `json:"msgid"`
	Received time.Time `json:"received"`
	Lines    []string  `json:"lines"`
}

// PhaseRecord is the history of one processed phase.
type PhaseRecord struct {
	Phase       int                 `json:"phase"`
	PhaseID     string              `json:"phase_id"`
	Title       string              `json:"title"`
	Seed        int64               `json:"seed"`
	Deadline    time.Time           `json:"deadline"`
	Processed   time.Time           `json:"processed"`
	Late        bool                `json:"late,omitempty"`
	StateBefore []byte              `json:"state_before"`
	StateAfter  []byte              `json:"state_after"`
	Orders      map[string][]string `json:"orders"`
	Public      string              `json:"public"` // the engine's public report, as it gave it
	// Position is what the daemon adds after Public in results mails and
	// HISTORY (the position after the phase, where the engine declares its
	// summary fit for that); kept apart so Public stays the engine's own.
	Position string            `json:"position,omitempty"`
	Private  map[string]string `json:"private,omitempty"`
	Data     []byte            `json:"data,omitempty"`
	// Autopilot lists the powers whose Orders the autopilot gave (they
	// sent none by the deadline).
	Autopilot []string `json:"autopilot,omitempty"`
	// Open is the phase's value as it stood when it was processed (for
	// ROLLBACK).
	Open *OpenPhase `json:"open,omitempty"`
	// Game is the whole game record before the phase, as stores written
	// before Open kept it (read by Reopen, no longer written).
	Game []byte `json:"game,omitempty"`
}

// Reopen returns the phase's value as it stood when it was processed,
// from Open or, in an older record, from the game record kept beside it.
func (rec *PhaseRecord) Reopen() (OpenPhase, error) {
	if rec.Open != nil {
		return rec.Open.Clone(), nil
	}
	if len(rec.Game) == 0 {
		return OpenPhase{}, fmt.Errorf("phase %d (%s): the record keeps no open phase", rec.Phase, rec.PhaseID)
	}
	var g Game
	if err := json.Unmarshal(rec.Game, &g); err != nil {
		return OpenPhase{}, fmt.Errorf("phase %d (%s): stored game record: %w", rec.Phase, rec.PhaseID, err)
	}
	g.upgrade()
	return g.OpenPhase, nil
}

// AuditEntry records who changed what.
type AuditEntry struct {
	Time   time.Time `json:"time"`
	Game   string    `json:"game,omitempty"`
	Actor  string    `json:"actor"` // address, "gm", or "daemon"
	Action string    `json:"action"`
	Detail string    `json:"detail,omitempty"`
	MsgID  string    `json:"msgid,omitempty"`
}

// Press is one relayed message, archived with its game.
type Press struct {
	Time    time.Time `json:"time"`
	PhaseID string    `json:"phase_id"`
	Kind    PressKind `json:"kind"`
	From    string    `json:"from"`         // power, "GM", "" for anonymous, or an observer's address (Observer)
	To      []string  `json:"to,omitempty"` // powers, "GM", observers' addresses
	// Observer: From is an observer's address. As: the sender grey press
	// claims (a power or "GM"); From is then who really sent it, for the
	// record only: no reader is told.
	Observer bool   `json:"observer,omitempty"`
	As       string `json:"as,omitempty"`
	Body     string `json:"body"`
}

// PressKind is how a piece of press was sent.
type PressKind string

const (
	PressPrivate   PressKind = "private"   // PRESS TO: to some powers
	PressBroadcast PressKind = "broadcast" // BROADCAST: to everyone, signed (by a power or the GM)
	PressPSA       PressKind = "psa"       // PSA: to everyone, anonymous
)

// Code is the record behind a verification code printed on every mail the
// daemon sends.
type Code struct {
	Code    string    `json:"code"`
	MsgID   string    `json:"msgid"`
	To      []string  `json:"to"`
	Subject string    `json:"subject"`
	Sent    time.Time `json:"sent"`
	Game    string    `json:"game,omitempty"`
	Phase   string    `json:"phase,omitempty"` // the game's open phase when it was sent
	Grey    string    `json:"grey,omitempty"`  // grey press: the sender it claims, not vouched for
}

// ---- games ----

// Game reads one game.
func (tx *Tx) Game(name string) (*Game, error) {
	if g, ok := tx.cachedGame(name); ok {
		return g, nil
	}
	var g Game
	if err := getJSON(tx.bucket(bucketGames), []byte(name), &g); err != nil {
		return nil, fmt.Errorf("game %q: %w", name, err)
	}
	if err := tx.openGame(&g); err != nil {
		return nil, err
	}
	g.upgrade()
	tx.keepGame(&g, false)
	return &g, nil
}

// upgrade moves what an older release stored elsewhere to where it lives
// now: the seniors' LOCK JUNIORS from the player records to the open phase.
func (g *Game) upgrade() {
	for i := range g.Players {
		p := &g.Players[i]
		if p.Lock == "" {
			continue
		}
		lock, keep := Lock{By: p.Address, Always: p.Lock == "always"}, p.Lock == "always" || p.Lock == "turn:"+g.PhaseID
		if keep && !p.Left && p.Rank == 0 && p.Power != "" {
			if g.Locks == nil {
				g.Locks = map[string]Lock{}
			}
			g.Locks[p.Power] = lock
		}
		p.Lock = ""
	}
}

// HasGame tells whether a game of that name exists.
func (tx *Tx) HasGame(name string) bool {
	if _, ok := tx.games[name]; ok {
		return true
	}
	return tx.bucket(bucketGames).Get([]byte(name)) != nil
}

// PutGame writes a game and keeps the deadline index in step: an active,
// unpaused game with a deadline is due at that deadline; a paused game is
// due when its pause runs out. The record holds its tokens sealed
// (seal.go); g keeps them as they are. The record itself is written when
// the transaction commits (gamecache.go); later reads in the transaction
// see it.
func (tx *Tx) PutGame(g *Game) error {
	if err := tx.writable(); err != nil {
		return err
	}
	if _, err := tx.reindex(g); err != nil {
		return err
	}
	tx.keepGame(g, true)
	return nil
}

// Reindex puts g's entry in the due index in step with g without writing
// the record, and reports whether it had to change it: false when the
// entry was already right (a game listed by Due whose deadline falls
// later in now's second), true when it was stale (an entry of an older
// release, or of a game that is no longer active) and is rewritten or
// dropped.
func (tx *Tx) Reindex(g *Game) (bool, error) {
	if err := tx.writable(); err != nil {
		return false, err
	}
	return tx.reindex(g)
}

func (tx *Tx) reindex(g *Game) (bool, error) {
	dl, dk := tx.bucket(bucketDeadlines), tx.bucket(bucketDueKey)
	name := []byte(g.Name)
	var want []byte
	due := g.Deadline
	if g.Paused {
		due = g.PausedUntil
	}
	if g.Status == Active && !due.IsZero() {
		want = deadlineKey(due, g.Name)
	}
	old := dk.Get(name)
	if bytes.Equal(old, want) {
		return false, nil
	}
	if old != nil {
		if err := dl.Delete(bytes.Clone(old)); err != nil {
			return false, err
		}
		if err := dk.Delete(name); err != nil {
			return false, err
		}
	}
	if want != nil {
		if err := dl.Put(want, nil); err != nil {
			return false, err
		}
		if err := dk.Put(name, want); err != nil {
			return false, err
		}
	}
	return true, nil
}

// deadlineKey is a game's key in the due index: its due time in whole
// seconds, rounded up, so that the index never holds a game under a
// second before its deadline, then its name. (Releases before this one
// rounded down; such an entry is rewritten when its game is next put or
// reindexed, and meanwhile it only lists the game up to a second early.)
func deadlineKey(t time.Time, name string) []byte {
	k := make([]byte, 8, 8+len(name))
	binary.BigEndian.PutUint64(k, uint64(secondAtOrAfter(t)))
	return append(k, name...)
}

// secondAtOrAfter is t in Unix seconds, rounded up.
func secondAtOrAfter(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// Due lists the names of active games due by the end of now's second,
// earliest first, at most max (0 = all): every game whose deadline is at
// or before now, and those whose deadline falls later in that second (the
// index holds whole seconds): the caller compares the exact deadline, and
// leaves those for a later tick (Reindex tells an entry in step from a
// stale one).
func (tx *Tx) Due(now time.Time, max int) []string {
	var names []string
	c := tx.bucket(bucketDeadlines).Cursor()
	limit := uint64(secondAtOrAfter(now))
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if binary.BigEndian.Uint64(k[:8]) > limit {
			break
		}
		names = append(names, string(k[8:]))
		if max > 0 && len(names) == max {
			break
		}
	}
	return names
}

// DueBetween lists the names of active games whose deadline may fall in
// from … until (both included), earliest first: the games that a
// reminder may be owed to, without those due in the seconds before
// from's. The index holds whole seconds, so a game due within from's or
// until's second may be listed although it falls just outside; the
// caller compares the exact deadline.
func (tx *Tx) DueBetween(from, until time.Time) []string {
	var names []string
	c := tx.bucket(bucketDeadlines).Cursor()
	limit := uint64(secondAtOrAfter(until))
	for k, _ := c.Seek(deadlineKey(from, "")); k != nil; k, _ = c.Next() {
		if binary.BigEndian.Uint64(k[:8]) > limit {
			break
		}
		names = append(names, string(k[8:]))
	}
	return names
}

// NextDeadline returns the earliest indexed deadline, rounded up to its
// second, if any.
func (tx *Tx) NextDeadline() (time.Time, bool) {
	k, _ := tx.bucket(bucketDeadlines).Cursor().First()
	if k == nil {
		return time.Time{}, false
	}
	return time.Unix(int64(binary.BigEndian.Uint64(k[:8])), 0).UTC(), true
}

// Games lists every game name in sorted order.
func (tx *Tx) Games() []string {
	var names []string
	tx.bucket(bucketGames).ForEach(func(k, _ []byte) error {
		names = append(names, string(k))
		return nil
	})
	for name, c := range tx.games { // a game created in this transaction (gamecache.go)
		if c.dirty && tx.bucket(bucketGames).Get([]byte(name)) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// EachGame calls fn for every game in name order. fn may write the game it
// is given (PutGame).
func (tx *Tx) EachGame(fn func(*Game) error) error {
	for _, name := range tx.Games() {
		g, ok := tx.cachedGame(name)
		if !ok {
			// read without keeping it: a walk over every game of the
			// site need not hold them all
			g = new(Game)
			if err := getJSON(tx.bucket(bucketGames), []byte(name), g); err != nil {
				return err
			}
			if err := tx.openGame(g); err != nil {
				return err
			}
			g.upgrade()
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// State returns the engine state of a game's open phase.
func (tx *Tx) State(name string) ([]byte, error) {
	raw := tx.bucket(bucketStates).Get([]byte(name))
	if raw == nil {
		return nil, fmt.Errorf("state of %q: %w", name, ErrNotFound)
	}
	return bytes.Clone(raw), nil
}

// SharedState is State for a reader that changes nothing: the bytes it
// returns are the transaction's, the same for every SharedState of the
// game until PutState (one copy of a state a transaction, not one a
// mail, in a poll batch of order mails for one game). They stay as they
// are after PutState, which only stops handing them out; the caller must
// not change them.
func (tx *Tx) SharedState(name string) ([]byte, error) {
	if st, ok := tx.states[name]; ok {
		return st, nil
	}
	st, err := tx.State(name)
	if err != nil {
		return nil, err
	}
	if tx.states == nil {
		tx.states = map[string][]byte{}
	}
	tx.states[name] = st
	return st, nil
}

// PutState replaces a game's engine state.
func (tx *Tx) PutState(name string, state []byte) error {
	delete(tx.states, name)
	return tx.bucket(bucketStates).Put([]byte(name), state)
}

// ---- tokens ----

func tokenKey(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// PutToken indexes a reply token: what it stands for, under its hash.
func (tx *Tx) PutToken(token string, ref TokenRef) error {
	if token == "" {
		return errors.New("index an empty token")
	}
	return putJSON(tx.bucket(bucketTokens), tokenKey(token), ref)
}

// DeleteToken forgets a token (a replaced player's, say).
func (tx *Tx) DeleteToken(token string) error {
	return tx.bucket(bucketTokens).Delete(tokenKey(token))
}

// Token finds what a token stands for, by the token's SHA-256 hash. The
// index holds no token to compare with: the time a lookup takes depends
// on how the guess's hash sorts among the stored hashes, which tells
// nothing about any token.
func (tx *Tx) Token(token string) (TokenRef, bool) {
	var ref TokenRef
	if token == "" {
		return ref, false
	}
	if err := getJSON(tx.bucket(bucketTokens), tokenKey(token), &ref); err != nil {
		return TokenRef{}, false
	}
	return ref, true
}

// SameToken compares two tokens in constant time (a token a mail came
// with and the one a record holds).
func SameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// ---- order sets ----

func phaseKey(game string, phase int) []byte {
	k := make([]byte, 0, len(game)+9)
	k = append(k, game...)
	k = append(k, 0)
	return append(k, u64(uint64(phase))...)
}

// AddOrderSet stores one more received version of a power's orders for a
// phase. Every version is kept; the daemon decides which applies.
func (tx *Tx) AddOrderSet(game string, phase int, set OrderSet) error {
	b := tx.bucket(bucketOrders)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	k := append(phaseKey(game, phase), u64(seq)...)
	if err := putJSON(b, k, set); err != nil {
		return err
	}
	if set, ok := asDecoded(set); ok {
		if tx.sets == nil {
			tx.sets = map[string]OrderSet{}
		}
		tx.sets[string(k)] = set
	}
	return nil
}

// A transaction keeps the order sets it added as they read back (Tx.sets),
// so that reading them again in it (an order mail's acknowledgement folds
// the version it has just stored) decodes nothing. An order set is never
// written over, and one deleted is not under its key to be read, so the
// kept sets need no care but to be handed out as copies.

// asDecoded is set as it reads back from its JSON record, and whether that
// is sure: the record holds its strings as valid UTF-8 (the encoder
// replaces what is not) and its time in UTC as it was (another location
// reads back as a fixed zone; a time in UTC has no monotonic reading).
func asDecoded(set OrderSet) (OrderSet, bool) {
	if set.Received.Location() != time.UTC || !utf8.ValidString(set.Power) || !utf8.ValidString(set.Address) || !utf8.ValidString(set.MsgID) {
		return set, false
	}
	for _, l := range set.Lines {
		if !utf8.ValidString(l) {
			return set, false
		}
	}
	set.Lines = slices.Clone(set.Lines)
	return set, true
}

// orderSet decodes the order set v under key k, or copies the one the
// transaction added there.
func (tx *Tx) orderSet(k, v []byte) (OrderSet, error) {
	if s, ok := tx.sets[string(k)]; ok {
		s.Lines = slices.Clone(s.Lines)
		return s, nil
	}
	var s OrderSet
	err := json.Unmarshal(v, &s)
	return s, err
}

// OrderSets returns every version received for a phase, oldest first.
func (tx *Tx) OrderSets(game string, phase int) ([]OrderSet, error) {
	prefix := phaseKey(game, phase)
	var sets []OrderSet
	c := tx.bucket(bucketOrders).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, v = c.Next() {
		s, err := tx.orderSet(k, v)
		if err != nil {
			return nil, fmt.Errorf("decode %s: %w", k, err)
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// DeleteOrderSets removes every version for a phase (ROLLBACK discards the
// orders of the phase it reopens over).
func (tx *Tx) DeleteOrderSets(game string, phase int) error {
	prefix := phaseKey(game, phase)
	b := tx.bucket(bucketOrders)
	c := b.Cursor()
	var keys [][]byte
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return tx.deleteStanding(game, phase) // what was folded of them goes too (standing.go)
}

// ---- history ----

// PutPhase writes a phase record. It refuses to overwrite one: a phase is
// processed exactly once.
func (tx *Tx) PutPhase(game string, rec PhaseRecord) error {
	ep, err := EncodePhase(rec)
	if err != nil {
		return err
	}
	return tx.PutEncodedPhase(game, ep)
}

// EncodedPhase is a phase record encoded without a transaction
// (EncodePhase): a deadline burst encodes each game's record on the core
// that resolved it, and the transaction only checks and puts it.
type EncodedPhase struct {
	rec PhaseRecord
	raw []byte // rec without its StateBefore
}

// EncodePhase encodes rec for PutEncodedPhase.
func EncodePhase(rec PhaseRecord) (EncodedPhase, error) {
	without := rec
	without.StateBefore = nil
	raw, err := json.Marshal(without)
	if err != nil {
		return EncodedPhase{}, fmt.Errorf("encode phase %d (%s): %w", rec.Phase, rec.PhaseID, err)
	}
	return EncodedPhase{rec: rec, raw: raw}, nil
}

// PutEncodedPhase is PutPhase of a record EncodePhase made.
func (tx *Tx) PutEncodedPhase(game string, ep EncodedPhase) error {
	if ep.raw == nil {
		return errors.New("put phase: not encoded (EncodePhase)")
	}
	rec := ep.rec
	b := tx.bucket(bucketHistory)
	k := phaseKey(game, rec.Phase)
	if b.Get(k) != nil {
		return fmt.Errorf("game %q phase %d (%s) was already processed", game, rec.Phase, rec.PhaseID)
	}
	// The state before a phase is, as a rule, the state after the one
	// before it (phases are processed in turn; ROLLBACK reopens the last
	// one with its state before): then it is not kept twice, and Phase
	// reads it from that record.
	if rec.StateBefore == nil {
		return b.Put(k, ep.raw)
	}
	if rec.Phase > 0 {
		if prev := b.Get(phaseKey(game, rec.Phase-1)); prev != nil {
			if after, ok := stateAfterIn(prev); ok && bytes.Equal(after, rec.StateBefore) {
				return b.Put(k, ep.raw)
			}
		}
	}
	return putJSON(b, k, rec)
}

// stateAfterIn reads the state after a phase from its record's JSON. The
// field is the record's first that is not a number, a time, a flag or a
// string, so its key is the first `"state_after":` in the bytes (a quote
// inside a string is escaped): a base64 string or null follows, read
// here without decoding the whole record. Anything else, a record of
// some other shape, is decoded (ok is false only when that fails).
func stateAfterIn(raw []byte) (after []byte, ok bool) {
	const key = `"state_after":`
	if i := bytes.Index(raw, []byte(key)); i >= 0 {
		v := raw[i+len(key):]
		switch {
		case bytes.HasPrefix(v, []byte("null")):
			return nil, true
		case len(v) > 0 && v[0] == '"':
			if end := bytes.IndexByte(v[1:], '"'); end >= 0 {
				enc := v[1 : 1+end]
				out := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
				if n, err := base64.StdEncoding.Decode(out, enc); err == nil && bytes.IndexByte(enc, '\\') < 0 {
					return out[:n], true
				}
			}
		}
	}
	var p stateAfter
	if json.Unmarshal(raw, &p) != nil {
		return nil, false
	}
	return p.StateAfter, true
}

// stateAfter is the one field of a phase record that the next record's
// state before is read from.
type stateAfter struct {
	StateAfter []byte `json:"state_after"`
}

// Phase reads a phase record, its StateBefore included (from the record
// before it when it is that record's StateAfter).
func (tx *Tx) Phase(game string, phase int) (*PhaseRecord, error) {
	var rec PhaseRecord
	b := tx.bucket(bucketHistory)
	if err := getJSON(b, phaseKey(game, phase), &rec); err != nil {
		return nil, fmt.Errorf("game %q phase %d: %w", game, phase, err)
	}
	if rec.StateBefore == nil && rec.Phase > 0 {
		// (a record without one and without a record before it, as an
		// older store may hold, is read as it is)
		var p stateAfter
		if err := getJSON(b, phaseKey(game, rec.Phase-1), &p); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("game %q phase %d: the state before it, kept as the state after phase %d: %w", game, phase, rec.Phase-1, err)
		}
		rec.StateBefore = p.StateAfter
	}
	return &rec, nil
}

// DeletePhase removes a phase record (ROLLBACK).
func (tx *Tx) DeletePhase(game string, phase int) error {
	return tx.bucket(bucketHistory).Delete(phaseKey(game, phase))
}

// ---- audit ----

// Audit appends an entry to the audit log.
func (tx *Tx) Audit(e AuditEntry) error {
	b := tx.bucket(bucketAudit)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	return putJSON(b, u64(seq), e)
}

// AuditLog returns the entries for a game ("" = all), oldest first.
func (tx *Tx) AuditLog(game string) ([]AuditEntry, error) {
	var out []AuditEntry
	err := tx.bucket(bucketAudit).ForEach(func(k, _ []byte) error {
		var e AuditEntry
		if err := getJSON(tx.bucket(bucketAudit), k, &e); err != nil {
			return err
		}
		if game == "" || e.Game == game {
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// ---- press ----

// AddPress archives a relayed message.
func (tx *Tx) AddPress(game string, p Press) error {
	b := tx.bucket(bucketPress)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	k := append([]byte(game), 0)
	return putJSON(b, append(k, u64(seq)...), p)
}

// PressLog returns a game's archived press, oldest first.
func (tx *Tx) PressLog(game string) ([]Press, error) {
	prefix := append([]byte(game), 0)
	var out []Press
	c := tx.bucket(bucketPress).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, _ = c.Next() {
		var p Press
		if err := getJSON(tx.bucket(bucketPress), k, &p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ---- verification codes ----

// PutCode records the verification code of a sent mail, findable by the
// code and by the mail's Message-ID.
func (tx *Tx) PutCode(c Code) error {
	ec, err := EncodeCode(c)
	if err != nil {
		return err
	}
	return tx.PutEncodedCode(ec)
}

// EncodedCode is a Code record as the store keeps it, made without a
// transaction (EncodeCode): the daemon encodes the codes of a burst's
// mails on every core, and the transaction only puts them.
type EncodedCode struct {
	code, msgid string
	raw         []byte
}

// EncodeCode encodes c for PutEncodedCode.
func EncodeCode(c Code) (EncodedCode, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return EncodedCode{}, fmt.Errorf("encode code %s: %w", c.Code, err)
	}
	return EncodedCode{code: c.Code, msgid: c.MsgID, raw: raw}, nil
}

// PutEncodedCode is PutCode of a record EncodeCode made.
func (tx *Tx) PutEncodedCode(ec EncodedCode) error {
	if ec.raw == nil {
		return errors.New("put code: not encoded (EncodeCode)")
	}
	if err := tx.bucket(bucketSent).Put([]byte(ec.msgid), []byte(ec.code)); err != nil {
		return err
	}
	return tx.bucket(bucketCodes).Put([]byte(ec.code), ec.raw)
}

// SentMail finds the record of a mail we sent, by its Message-ID (with or
// without angle brackets).
func (tx *Tx) SentMail(msgid string) (Code, bool) {
	msgid = strings.Trim(strings.TrimSpace(msgid), "<>")
	code := tx.bucket(bucketSent).Get([]byte(msgid))
	if code == nil {
		return Code{}, false
	}
	return tx.Code(string(code))
}

// CodeGiven reports whether a mail already has the verification code,
// without reading its record.
func (tx *Tx) CodeGiven(code string) bool {
	return tx.bucket(bucketCodes).Get([]byte(code)) != nil
}

// Code looks a verification code up.
func (tx *Tx) Code(code string) (Code, bool) {
	var c Code
	err := getJSON(tx.bucket(bucketCodes), []byte(code), &c)
	return c, err == nil
}

// ---- meta ----

// Meta reads a small site-wide value ("" when unset).
func (tx *Tx) Meta(key string) string {
	return string(tx.bucket(bucketMeta).Get([]byte("m:" + key)))
}

// PutMeta writes a small site-wide value. Secrets do not go here (see
// PutSiteToken).
func (tx *Tx) PutMeta(key, value string) error {
	return tx.bucket(bucketMeta).Put([]byte("m:"+key), []byte(value))
}

// metaSiteToken holds the site GM token, sealed.
var metaSiteToken = []byte("site_token")

// SiteToken returns the site GM token ("" before the first welcome).
func (tx *Tx) SiteToken() (string, error) {
	tok, err := tx.openToken(string(tx.bucket(bucketMeta).Get(metaSiteToken)))
	if err != nil {
		return "", fmt.Errorf("site GM token: %w", err)
	}
	return tok, nil
}

// PutSiteToken stores the site GM token, sealed (index it with PutToken
// too).
func (tx *Tx) PutSiteToken(token string) error {
	sealed, err := tx.sealToken(token)
	if err != nil {
		return fmt.Errorf("site GM token: %w", err)
	}
	return tx.bucket(bucketMeta).Put(metaSiteToken, []byte(sealed))
}
