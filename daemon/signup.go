package daemon

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// gameNameRE is compiled at its first use, not by every start of pbemd.
var gameNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`) })

// createOptions maps CREATE option keys to setters; unknown keys are refused.
var createOptions = map[string]func(o *store.GameOptions, v string) error{
	"pace": func(o *store.GameOptions, v string) error {
		pace := store.Pace(v)
		if pace != store.PaceSlow && pace != store.PaceFast {
			return fmt.Errorf("pace is slow or fast")
		}
		o.Pace = pace
		return nil
	},
	"press": func(o *store.GameOptions, v string) error {
		press := store.PressRule(v)
		if press != store.PressAll && press != store.PressWhite && press != store.PressNone {
			return fmt.Errorf("press is all, white (public only) or none")
		}
		o.Press = press
		return nil
	},
	"turn_time": func(o *store.GameOptions, v string) error {
		d, err := parseDuration(v)
		if err != nil {
			return fmt.Errorf("turn_time is a duration from a minute to 90 days, e.g. 6h or 2 days: %w", err)
		}
		o.TurnTime = d
		return nil
	},
	"psa":          boolOption(func(o *store.GameOptions) *bool { return &o.PSA }),
	"press_in_adj": boolOption(func(o *store.GameOptions) *bool { return &o.PressInAdj }),
	"preview":      boolOption(func(o *store.GameOptions) *bool { return &o.Preview }),
	"early":        boolOption(func(o *store.GameOptions) *bool { return &o.ProcessEarly }),
	"prize":        boolOption(func(o *store.GameOptions) *bool { return &o.DrawPrize }),
	// press.go
	"observer_press": boolOption(func(o *store.GameOptions) *bool { return &o.ObserverPress }),
	"grey":           boolOption(func(o *store.GameOptions) *bool { return &o.GreyPress }),
	"seats": func(o *store.GameOptions, v string) error {
		switch s := store.Seats(v); s {
		case "approve", store.SeatsOpen, store.SeatsClosed:
			o.Seats = s
			if s == "approve" {
				o.Seats = store.SeatsApprove
			}
			return nil
		}
		return fmt.Errorf("seats is approve (the GM decides who takes over a power nobody plays), open or closed")
	},
	"min_ontime": func(o *store.GameOptions, v string) error {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("min_ontime is a percentage from 0 to 100 (of the phases a player ordered on time in earlier games)")
		}
		o.MinOnTime = n
		return nil
	},
	"web": webOption, // web.go
	"first_pick": func(o *store.GameOptions, v string) error {
		picks, err := parseFirstPick(v)
		if err != nil {
			return err
		}
		o.FirstPick = picks
		return nil
	},
}

func boolOption(field func(*store.GameOptions) *bool) func(*store.GameOptions, string) error {
	return func(o *store.GameOptions, v string) error {
		switch strings.ToLower(v) {
		case "on", "yes", "true", "1":
			*field(o) = true
		case "off", "no", "false", "0":
			*field(o) = false
		default:
			return fmt.Errorf("%q is not on or off", v)
		}
		return nil
	}
}

func defaultOptions() store.GameOptions {
	// Observers' press is on as the seed has it: "People who are not
	// playing are allowed ... to PM with the players". Grey press is the
	// engine's to declare (Info.ForgedPress; see createGame).
	return store.GameOptions{Pace: store.PaceSlow, Press: store.PressAll, PSA: true, PressInAdj: true, ObserverPress: true}
}

// applyOptions sets options from a CREATE or SET command: the daemon's own
// keys, and any other key as an option of the game's engine, which New
// checks (forming is true while the game takes sign-ups: the engine's
// options are fixed once it starts).
//
// variant, at CREATE, is the game's variant: the engine's Setup may pick
// another one for the options (players=5). nil elsewhere: the seat count
// is not changed by SET.
func applyOptions(o *store.GameOptions, e adjudicator.Engine, forming bool, opts map[string]string, variant *string) error {
	engine := map[string]string{}
	for k, v := range o.Engine {
		engine[k] = v
	}
	changed := false
	scoringBefore := o.Scoring
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		key := strings.ToLower(k)
		if set, ok := createOptions[key]; ok {
			if err := set(o, strings.ToLower(opts[k])); err != nil {
				return fmt.Errorf("option %s: %w", k, err)
			}
			continue
		}
		engine[key] = opts[k]
		changed = true
	}
	if err := checkScheduleOptions(o, e); err != nil { // calendar.go, grace.go
		return err
	}
	if err := checkScoring(o, e, scoringBefore, forming); err != nil { // scoring.go
		return err
	}
	if err := checkAutopilot(o, e); err != nil { // autopilot.go
		return err
	}
	if !changed {
		return nil
	}
	if !forming {
		return fmt.Errorf("the game's own options (%s) are fixed once it has started", strings.Join(slices.Sorted(maps.Keys(engine)), ", "))
	}
	setup, err := setupOf(e, engine)
	if err != nil {
		return fmt.Errorf("%v (the pbemd options are: %s)", err, strings.Join(slices.Sorted(maps.Keys(createOptions)), ", "))
	}
	if setup.Engine != e.Info().Name {
		if variant == nil {
			return fmt.Errorf("the number of players is chosen at CREATE (%s plays %s)", e.Info().Name, strings.Join(e.Info().Powers, ", "))
		}
		*variant = setup.Engine
	}
	o.Engine = setup.Options
	return nil
}

// setupOf checks a game's own options as its engine declares (Setuper:
// without building a state; else by a trial New) and returns the engine
// that plays them with the options to store.
func setupOf(e adjudicator.Engine, options map[string]string) (adjudicator.Setup, error) {
	if s, ok := e.(adjudicator.Setuper); ok {
		setup, err := s.Setup(options)
		if err == nil && setup.Engine == "" {
			setup.Engine = e.Info().Name
		}
		return setup, err
	}
	if _, err := e.New(options, 0); err != nil {
		return adjudicator.Setup{}, err
	}
	return adjudicator.Setup{Engine: e.Info().Name, Options: options}, nil
}

func randomSeed() int64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return int64(binary.BigEndian.Uint64(b[:]) >> 1)
}

// CreateGame makes a new game taking sign-ups (CREATE by mail, or
// `pbemd game create`). gm is the GM's address.
func (d *Daemon) CreateGame(tx *store.Tx, name, variant, gm string, opts map[string]string) (*store.Game, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if !gameNameRE().MatchString(name) {
		return nil, fmt.Errorf("game name %q: use 1 to 32 letters, digits, - or _", name)
	}
	if tx.HasGame(name) {
		return nil, fmt.Errorf("a game called %s exists already", name)
	}
	e, ok := adjudicator.Lookup(variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (known: %s)", variant, strings.Join(adjudicator.Names(), ", "))
	}
	g := &store.Game{
		Name: name, Variant: variant, Created: d.now().UTC(), Status: store.Forming,
		Options: defaultOptions(), Seed: randomSeed(), GMToken: newToken(),
	}
	// A variant added as a file: the game keeps the file's text, and is
	// played on it whatever becomes of the file.
	if hash, file, text, ok := adjudicator.VariantText(variant); ok {
		if err := tx.PutMapText(hash, store.MapFile{File: file, Text: string(text)}); err != nil {
			return nil, err
		}
		g.Map = hash
		if be, ok := adjudicator.Built(hash); ok {
			e = be
		}
	}
	// seed=N replays a game exactly (the site GM's demos and tests): every
	// phase's dice and shuffles derive from the game's seed.
	if v, ok := opts["seed"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("seed %q is not a non-negative number", v)
		}
		g.Seed = n
		rest := map[string]string{}
		for k, v := range opts {
			if k != "seed" {
				rest[k] = v
			}
		}
		opts = rest
	}
	if gm != "" {
		g.GM = []string{strings.ToLower(gm)}
	}
	g.Options.Calendar = defaultCalendar(e) // calendar.go
	g.Options.GreyPress = e.Info().ForgedPress
	d.webDefault(&g.Options) // web.go
	if err := applyOptions(&g.Options, e, true, opts, &g.Variant); err != nil {
		return nil, err
	}
	if err := tx.PutToken(g.GMToken, store.TokenRef{Game: name, GM: true}); err != nil {
		return nil, err
	}
	if err := tx.PutGame(g); err != nil {
		return nil, err
	}
	return g, tx.Audit(store.AuditEntry{Time: d.now().UTC(), Game: name, Actor: "gm:" + gm, Action: "create", Detail: variant})
}

// CreateRequest is a game creation from the command line.
type CreateRequest struct {
	Name    string            `json:"name"`
	Variant string            `json:"variant"`
	GM      string            `json:"gm"`
	Options map[string]string `json:"options"`
}

// CreateAndAnnounce creates a game and mails its GM the GM address.
func (d *Daemon) CreateAndAnnounce(req CreateRequest) (string, error) {
	gm := req.GM
	if gm == "" && len(d.opt.GM) > 0 {
		gm = d.opt.GM[0]
	}
	var msg string
	err := d.update(func(tx *txn) error {
		g, err := d.CreateGame(tx.Tx, req.Name, req.Variant, gm, req.Options)
		if err != nil {
			return err
		}
		msg = fmt.Sprintf("game %s (%s) created; players JOIN %s by mail to %s", g.Name, g.Variant, g.Name, d.opt.Address)
		return d.alertGM(tx, g, "Game created", fmt.Sprintf("Game %s (%s) was created from the command line and takes sign-ups.\nPlayers join by writing to %s: JOIN %s\nReply to this mail with GM commands for %s.", g.Name, g.Variant, d.opt.Address, g.Name, g.Name))
	})
	return msg, err
}

// Welcome mails the site GM(s) their site GM address, once per store.
func (d *Daemon) Welcome() error {
	return d.update(func(tx *txn) error {
		if tok, err := tx.SiteToken(); err != nil || tok != "" {
			return err
		}
		tok := newToken()
		if err := tx.PutSiteToken(tok); err != nil {
			return err
		}
		if err := tx.PutToken(tok, store.TokenRef{GM: true}); err != nil {
			return err
		}
		return d.alertGM(tx, nil, "Welcome to pbemd", fmt.Sprintf(
			"pbemd is running at %s.\n\nReply to this mail to create a game, for example:\n  CREATE rome1 ancientmed\n  CREATE europe standard pace=fast press=white\n\nThe reply address of this mail is your site GM address: keep it to yourself.\nVariants here: %s.\n",
			d.opt.Address, strings.Join(adjudicator.Names(), ", ")))
	})
}

func cmdCreate(mc *mailCtx, cmd *orders.Command) error {
	variant := strings.ToLower(strings.TrimSpace(cmd.Arg))
	g, err := mc.d.CreateGame(mc.tx.Tx, cmd.Game, variant, mc.sender, cmd.Options)
	if err != nil {
		mc.say("CREATE: %v. Nothing was created. Example: CREATE rome1 ancientmed pace=slow press=all", err)
		return nil
	}
	mc.game, mc.gm = g, true
	e, _ := engineFor(g)
	names := powerNames(e)
	mc.say("Game %s (%s) created; it takes sign-ups now (%d powers: %s).\n"+
		"Players join by writing to %s (not to this mail's reply address):\n  JOIN %s (optionally ranking the powers: prefer %s)\n"+
		"This mail's reply address is your GM address for %s: reply to it with GM commands (START, PAUSE, DEADLINE, SET ORDERS, …). Keep it to yourself.",
		g.Name, g.Variant, len(names), strings.Join(names, ", "),
		mc.d.opt.Address, g.Name, strings.Join(names[:min(3, len(names))], " > "), g.Name)
	return nil
}

// powerWithID names a power and, when its name is not simply its id
// capitalised, the id that SIGNON and PRESS TO accept: "England",
// "United States (usa)".
func powerWithID(g *store.Game, id string) string {
	if n := powerName(g, id); n != titleCase(id) {
		return n + " (" + id + ")"
	}
	return titleCase(id)
}

// powerNames lists an engine's powers as players read them.
func powerNames(e adjudicator.Engine) []string {
	var names []string
	for _, p := range e.Info().Powers {
		names = append(names, nameFrom(e.Info(), p))
	}
	return names
}

// matchPower reads a power a player wrote: its id or name in any case, or
// an unambiguous beginning of at least three letters.
func matchPower(e adjudicator.Engine, written string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(written))
	if w == "" {
		return "", false
	}
	var prefix []string
	for _, p := range e.Info().Powers {
		lp := strings.ToLower(p)
		if lp == w {
			return p, true
		}
		if len(w) >= 3 && strings.HasPrefix(lp, w) {
			prefix = append(prefix, p)
		}
	}
	if len(prefix) == 1 {
		return prefix[0], true
	}
	return "", false
}

func cmdJoin(mc *mailCtx, cmd *orders.Command) error {
	name := strings.ToLower(cmd.Game)
	if name == "" && mc.game != nil {
		name = mc.game.Name
	}
	g, err := mc.tx.Game(name)
	if err != nil {
		mc.say("JOIN %s: there is no such game. Send LIST for the games.", cmd.Game)
		return nil
	}
	e, err := engineFor(g)
	if err != nil {
		return err
	}
	if p := findPlayer(g, mc.sender); p != nil && (g.Status != store.Active || p.Power == "" || isAlive(g, p.Power)) {
		mc.say("You are in %s already.", g.Name)
		return nil
	}
	var prefs []string
	for _, w := range cmd.Powers {
		p, ok := matchPower(e, w)
		if !ok {
			mc.say("JOIN %s: %q is not a power of %s (powers: %s). You were not signed up; please JOIN again.", g.Name, w, g.Variant, strings.Join(powerNames(e), ", "))
			return nil
		}
		prefs = append(prefs, p)
	}
	if why := recordBars(mc.tx.Tx, g, mc.sender) + ratingBars(mc.tx.Tx, g, mc.sender); why != "" && g.Status != store.Finished { // record.go, ratings.go
		mc.say("JOIN %s: %s You were not signed up.", g.Name, why)
		return nil
	}
	if cmd.Arg == "SEAT" {
		if g.Status != store.Active {
			mc.say("JOIN %s as %s: %s is %s, so no seat is open. To sign up, write JOIN %s prefer %s.", g.Name, cmd.Power, g.Name, g.Status, g.Name, cmd.Power)
			return nil
		}
		return mc.joinSeat(g, cmd.Power) // seats.go
	}
	if !e.Info().Diplomats && (g.Status == store.Active || cmd.Power != "") {
		// The engine says a power has one player: no juniors to join.
		mc.say("JOIN %s: in %s each power has one player, so a running game takes no one else (there are no junior diplomats). The GM can REPLACE a power's player.", g.Name, e.Info().Title)
		return nil
	}
	switch g.Status {
	case store.Finished:
		mc.say("JOIN %s: that game is over.", g.Name)
		return nil
	case store.Active:
		// A running game takes juniors, each accepted by the senior
		// diplomat of the power (see askToJoin).
		power := ""
		if cmd.Power != "" {
			pw, ok := matchPower(e, cmd.Power)
			if !ok || !isAlive(g, pw) {
				mc.say("JOIN %s as junior of %s: there is no surviving power of that name (surviving: %s).", g.Name, cmd.Power, strings.Join(g.Alive, ", "))
				return nil
			}
			power = pw
		} else {
			power = fewestDiplomats(g, g.Alive, append(prefs, g.Alive...))
		}
		return mc.askToJoin(g, power)
	}
	if cmd.Power != "" {
		mc.say("JOIN %s as junior of %s: %s has not started, so no power has a senior diplomat yet. Sign up with JOIN %s prefer %s, or ask again once the game runs.",
			g.Name, cmd.Power, g.Name, g.Name, cmd.Power)
		return nil
	}
	p := store.Player{Address: mc.sender, Token: newToken(), Prefs: prefs, Joined: mc.now.UTC()}
	g.Players = append(g.Players, p)
	if err := mc.tx.PutToken(p.Token, store.TokenRef{Game: g.Name, Address: p.Address}); err != nil {
		return err
	}
	if err := mc.tx.Audit(store.AuditEntry{Time: mc.now.UTC(), Game: g.Name, Actor: mc.sender, Action: "join", Detail: p.Power, MsgID: mc.in.MsgID}); err != nil {
		return err
	}
	mc.game = g
	mc.player = &g.Players[len(g.Players)-1]
	n, need := countPlayers(g), len(e.Info().Powers)
	mc.say("You are signed up for %s (%d of %d players). %s Your power is assigned when the game starts; you will get a private mail with it.", g.Name, n, need, prefsRead(g, prefs))
	if n >= need {
		if err := mc.d.startGame(mc.tx, g); err != nil {
			return err
		}
		mc.player = findPlayer(g, mc.sender)
	}
	return nil
}

func nextRank(g *store.Game, power string) int {
	rank := 0
	for _, q := range g.Players {
		if q.Power == power && !q.Left && q.Rank >= rank {
			rank = q.Rank + 1
		}
	}
	return rank
}

// fewestDiplomats picks, of the candidates (in order) that are among the
// powers given (the surviving ones; at the start, every power), one with
// the fewest diplomats.
func fewestDiplomats(g *store.Game, among, candidates []string) string {
	count := map[string]int{}
	for _, q := range g.Players {
		if !q.Left {
			count[q.Power]++
		}
	}
	best, bestN := "", 1<<30
	for _, c := range candidates {
		if slices.Contains(among, c) && count[c] < bestN {
			best, bestN = c, count[c]
		}
	}
	return best
}

// mailSecrets gives a player a password and mails it with their power,
// their reply address and (for engines with hidden information) their
// private view; intro, when not empty, opens the mail.
func (d *Daemon) mailSecrets(tx *txn, g *store.Game, p *store.Player, intro string) error {
	return d.mailSecretsWith(tx, g, p, intro, "")
}

// mailSecretsWith is mailSecrets with more after the secrets and the
// private view (a taken-over seat's welcome: seats.go).
func (d *Daemon) mailSecretsWith(tx *txn, g *store.Game, p *store.Player, intro, outro string) error {
	pw := strings.ToLower(newCode())
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), d.passwordCost())
	if err != nil {
		return err
	}
	p.PassHash = hash
	role := ", as the senior diplomat"
	switch {
	case !d.diplomats(g):
		role = "" // one player per power: no seniority to speak of
	case p.Rank > 0:
		role = fmt.Sprintf(", as a junior diplomat (seniority %d)", p.Rank)
	}
	text := intro + fmt.Sprintf("You play %s in %s%s.\n\n"+
		"To send orders, reply to this mail (or to any mail I send you about %s): the reply address\n"+
		"  %s\n"+
		"proves it is you. Keep it private.\n\n"+
		"From another mailbox, write to %s and start your mail with\n"+
		"  SIGNON %s %s %s\n\n"+
		"Your password: %s\n",
		powerName(g, p.Power), g.Name, role, g.Name, d.replyAddress(p.Token), d.opt.Address,
		p.Power, g.Name, pw, pw)
	if view, err := d.privateView(tx.Tx, g, p.Power); err != nil {
		return err
	} else if view != "" {
		text += "\n--- for you only ---\n" + view
	}
	text += outro
	return d.send(tx, &Outgoing{
		To: []string{p.Address}, Subject: fmt.Sprintf("[%s] You are %s", g.Name, powerWithID(g, p.Power)),
		Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID,
	})
}

// startGame assigns the powers, sets the engine's start position and tells
// everyone.
func (d *Daemon) startGame(tx *txn, g *store.Game) error {
	e, err := engineFor(g)
	if err != nil {
		return err
	}
	var active []*store.Player
	for i := range g.Players {
		if !g.Players[i].Left {
			active = append(active, &g.Players[i])
		}
	}
	powers := e.Info().Powers
	if len(active) > len(powers) {
		active = active[:len(powers)] // the first to join; later ones become juniors below
	}
	pickers, from, err := firstPickers(tx.Tx, g) // firstpick.go
	if err != nil {
		return err
	}
	picks, pickNote := firstPicks(active, pickers, from, g)
	var rest []*store.Player
	var prefs [][]string
	picked := map[string]bool{}
	for i, p := range active {
		if pw, ok := picks[i]; ok {
			p.Power, p.Rank = pw, 0
			picked[pw] = true
			continue
		}
		rest = append(rest, p)
		prefs = append(prefs, p.Prefs)
	}
	remaining := slices.DeleteFunc(slices.Clone(powers), func(pw string) bool { return picked[pw] })
	assign := AssignPowers(remaining, prefs, g.Seed)
	for i, p := range rest {
		p.Power = assign[i]
		p.Rank = 0
	}
	for i := range g.Players {
		p := &g.Players[i]
		if !p.Left && p.Power == "" {
			p.Power = fewestDiplomatsOf(g, powers, p.Prefs)
			p.Rank = nextRank(g, p.Power)
		}
	}
	state, err := e.New(g.Options.Engine, g.Seed)
	if err != nil {
		return fmt.Errorf("start %s: %w", g.Name, err)
	}
	st, err := e.Status(state)
	if err != nil {
		return err
	}
	now := d.now().UTC()
	if err := tx.PutState(g.Name, state); err != nil {
		return err
	}
	g.Status = store.Active
	d.openPhase(g, nextPhase(g, st, 0, time.Time{}), now)
	for i := range g.Players {
		if !g.Players[i].Left {
			if err := d.mailSecrets(tx, g, &g.Players[i], ""); err != nil {
				return err
			}
		}
	}
	if err := tx.Audit(store.AuditEntry{Time: now, Game: g.Name, Actor: "daemon", Action: "start"}); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s has started. The powers are assigned (each player has a private mail with theirs).\n\n", g.Name)
	if pickNote != "" {
		b.WriteString(pickNote + "\n")
	}
	fmt.Fprintf(&b, "First phase: %s\nDeadline: %s\n\n%s", st.Title, d.showTime(g.Deadline, nil), st.Summary)
	if g.Options.DrawPrize && g.PrizeCommit == "" {
		fmt.Fprintf(&b, "\nDraw prize: if the game ends in a draw, one survivor wins the prize, drawn with probability proportional to its supply centres, from a secret whose SHA-256 is\n  %s\nIt is revealed at the end so anyone can check the draw.\n", commitPrize(g))
	}
	if unfilled := unfilledPowers(g, powers); len(unfilled) > 0 {
		fmt.Fprintf(&b, "\nPowers without a player (in civil disorder until the GM fills them): %s\n", strings.Join(unfilled, ", "))
	}
	// Each reader's first view of the board: the opening picture, as
	// results mails carry one (pictures.go).
	opening := func(power string) []*mailPicture { return pics(tx.picture(g, st.ID, -1, state, nil, power)) }
	return d.publishPictured(tx, g, fmt.Sprintf("[%s] The game has started: %s", g.Name, st.Title), b.String(), nil, "", opening)
}

func fewestDiplomatsOf(g *store.Game, powers, prefs []string) string {
	return fewestDiplomats(g, powers, append(slices.Clone(prefs), powers...))
}

func unfilledPowers(g *store.Game, powers []string) []string {
	has := map[string]bool{}
	for _, p := range g.Players {
		if !p.Left {
			has[p.Power] = true
		}
	}
	var out []string
	for _, p := range powers {
		if !has[p] {
			out = append(out, powerName(g, p))
		}
	}
	return out
}

// AssignPowers gives each player (with a preference ranking, possibly
// partial or empty) a different power so as to satisfy the rankings as well
// as possible: it minimises the sum over players of the square of the
// position their power has in their ranking (1st choice costs 0, 2nd 1,
// 3rd 4, …; an unranked power costs as much as the last place). Squaring
// makes one player's 5th choice worse than two players' 2nd choices, so the
// assignment is fair rather than merely popular. Among equally good
// assignments the game's seed chooses, so the draw is reproducible. With at
// most a handful of powers every assignment is examined.
func AssignPowers(powers []string, prefs [][]string, seed int64) []string {
	n := len(prefs)
	cost := make([][]int, n)
	for i, pr := range prefs {
		cost[i] = make([]int, len(powers))
		for j, pw := range powers {
			rank := len(powers)
			for k, want := range pr {
				if want == pw {
					rank = k
					break
				}
			}
			cost[i][j] = rank * rank
		}
	}
	best := -1
	var optimal [][]int
	used := make([]bool, len(powers))
	cur := make([]int, n)
	var walk func(i, sum int)
	walk = func(i, sum int) {
		if best >= 0 && sum > best {
			return
		}
		if i == n {
			if best < 0 || sum < best {
				best, optimal = sum, nil
			}
			optimal = append(optimal, append([]int(nil), cur...))
			return
		}
		for j := range powers {
			if !used[j] {
				used[j] = true
				cur[i] = j
				walk(i+1, sum+cost[i][j])
				used[j] = false
			}
		}
	}
	walk(0, 0)
	out := make([]string, n)
	if len(optimal) == 0 {
		return out
	}
	sort.Slice(optimal, func(a, b int) bool { // walk order is already stable; keep it explicit
		for k := range optimal[a] {
			if optimal[a][k] != optimal[b][k] {
				return optimal[a][k] < optimal[b][k]
			}
		}
		return false
	})
	pick := optimal[uint64(seed)%uint64(len(optimal))]
	for i, j := range pick {
		out[i] = powers[j]
	}
	return out
}

// privateView is what only power may see of g's position now, for engines
// with hidden information ("" otherwise).
func (d *Daemon) privateView(tx *store.Tx, g *store.Game, power string) (string, error) {
	e, err := engineFor(g)
	if err != nil || g.Status != store.Active {
		return "", err
	}
	v, ok := e.(adjudicator.Viewer)
	if !ok {
		return "", nil
	}
	state, err := tx.State(g.Name)
	if err != nil {
		return "", err
	}
	return v.View(state, power)
}
