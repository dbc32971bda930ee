package daemon

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// who may use a command
type access uint8

const (
	anyone   access = iota // no proof needed (JOIN, LIST, HELP, VERIFY, …)
	member                 // a player or observer of the game
	diplomat               // a player with a power
	decider                // a player with a power, or the game's GM (answers to join requests)
	signedUp               // a player of the game, with a power or not yet
	watcher                // an observer of the game
	gmOnly                 // the game's GM
	siteOnly               // the site's GM
)

type commandFunc func(mc *mailCtx, cmd *orders.Command) error

// A commandSpec is everything the game master knows of one command: who
// may use it, what it does, and how HELP shows it.
type commandSpec struct {
	verb orders.Verb
	who  access
	run  commandFunc
	help usage // HELP's line: in the GM's part for gmOnly and siteOnly
	gm   usage // for a command of players the GM uses too: the GM's line (zero: none)
	// needs is what the game's engine must declare for the command to
	// exist there; HELP leaves it out and command refuses it elsewhere.
	needs gameNeed
}

// gameNeed is what a command needs the game's engine to declare.
type gameNeed uint8

const (
	anyGame      gameNeed = iota
	needsJunior           // Info.Diplomats: several players per power, senior and juniors
	needsPreview          // Info.PreviewAlone: one power's orders resolve alone (WHATIF)
	needsConcede          // Info.Agreements has AgreeConcede: a game conceded by vote (draw.go)
)

// lacking says why the game's engine does not offer a command that needs
// n ("" when it does, or when the mail names no game).
func (mc *mailCtx) lacking(n gameNeed) string {
	if mc.game == nil || n == anyGame {
		return ""
	}
	e, err := engineFor(mc.game)
	if err != nil {
		return ""
	}
	switch info := e.Info(); {
	case n == needsJunior && !info.Diplomats:
		return fmt.Sprintf("in %s each power has one player, so there are no junior diplomats.", mc.game.Name)
	case n == needsPreview && !info.PreviewAlone:
		return fmt.Sprintf("I cannot preview orders in %s (%s): only in games where a unit without orders holds and no luck plays a part.", mc.game.Name, info.Title)
	case n == needsConcede && !offers(e, adjudicator.AgreeConcede):
		return fmt.Sprintf("in %s (%s) a game is not conceded by vote.", mc.game.Name, info.Title)
	}
	return ""
}

// name is the command as a player writes it ("SET ORDERS", "LOCK
// JUNIORS", "DRAW"), for the sentences that refuse it: the leading
// keywords of its help line that all its written forms share.
func (c *commandSpec) name() string {
	var common []string
	for i, form := range strings.Split(c.help.use, " / ") {
		var words []string
		for _, w := range strings.Fields(form) {
			if strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
				break
			}
			words = append(words, w)
		}
		if i == 0 {
			common = words
			continue
		}
		n := 0
		for n < len(common) && n < len(words) && common[n] == words[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 {
		return string(c.verb)
	}
	return strings.Join(common, " ")
}

// usage is one line of HELP: how to write a command, and what it does
// (a does of several lines is indented under the first).
type usage struct{ use, does string }

// commandTable is the one table of commands, in the order HELP lists
// them: first what a newcomer needs, then a player's, then the GM's. It is
// filled by init (HELP reads it), and commands indexes it by verb.
var (
	commandTable []commandSpec
	commands     map[orders.Verb]*commandSpec
)

func init() {
	commandTable = []commandSpec{
		{orders.VerbHelp, anyone, cmdHelp, usage{"HELP", "this help: examples of orders and commands"}, usage{}, anyGame},
		{orders.VerbList, anyone, cmdList, usage{"LIST [<game>|VARIANTS]", "the games here, one of them, or the variants"}, usage{}, anyGame},
		{orders.VerbJoin, anyone, cmdJoin, usage{"JOIN <game> prefer A > B > C", "sign up, ranking the powers you want; or\nJOIN <game> as junior of <power>: once the\ngame runs, asks that power's senior; or\nJOIN <game> as <power>: take over a power\nwithout a player (LIST shows open seats)"}, usage{}, anyGame},
		{orders.VerbObserve, anyone, cmdObserve, usage{"OBSERVE <game>", "follow a game's results and public press"}, usage{}, anyGame},
		{orders.VerbUnobserve, watcher, cmdUnobserve, usage{"UNOBSERVE", "stop following it"}, usage{}, anyGame},
		{orders.VerbSignon, anyone, cmdSignon, usage{"SIGNON <power> <game> <password>", "first line of a mail not sent as a reply"}, usage{"SIGNON GM <game> <password>", "first line of a GM mail not sent as a reply"}, anyGame},
		{orders.VerbPassword, diplomat, cmdPassword, usage{"PASSWORD <new password>", fmt.Sprintf("choose your own password for SIGNON\n(%d to %d characters)", minPassword, maxPassword)}, usage{}, anyGame},
		{orders.VerbStatus, member, cmdStatus, usage{"STATUS", "the phase, deadline and who has sent orders"}, usage{}, anyGame},
		{orders.VerbHistory, member, cmdHistory, usage{"HISTORY [phase]", "earlier results (with your own part of\nthem, and public press)"}, usage{}, anyGame},
		{orders.VerbMap, member, cmdMap, usage{"MAP [phase]", "a picture of the board now, or after a phase\nof HISTORY (and the board in text where\norders name its places)"}, usage{}, anyGame},
		{orders.VerbRules, anyone, cmdRules, usage{"RULES", "the game's rules and house rules"}, usage{"RULES [(text) ENDRULES]", "the rules; with a text, new house rules"}, anyGame},
		{orders.VerbPress, member, cmdPress, usage{"PRESS TO <power>, <power>", "private press: your text on the next lines,\nended by ENDPRESS; TO GM writes to the GM;\nTO <power> FROM <power>: grey press in its\nname, marked unverified (if the game allows)"}, usage{"PRESS TO <power>", "private press from the GM (the answer to\nPRESS TO GM), ended by ENDPRESS"}, anyGame},
		{orders.VerbBroadcast, member, cmdBroadcast, usage{"BROADCAST ... ENDPRESS", "public press, signed with your power (an\nobserver's comment: with its address)"}, usage{"BROADCAST ... ENDPRESS", "public press from the GM"}, anyGame},
		{orders.VerbPSA, member, cmdPSA, usage{"PSA ... ENDPRESS", "anonymous public announcement"}, usage{}, anyGame},
		{orders.VerbDraw, diplomat, cmdDraw, usage{"DRAW YES|NO / DRAW <powers>", "secret vote, this phase: a draw of\nevery survivor; or, where the game\nhas them, a smaller draw of the\npowers named"}, usage{}, anyGame},
		{orders.VerbConcede, diplomat, cmdConcede, usage{"CONCEDE <power>", "secret vote, for this phase: the game\nconceded to that power"}, usage{}, needsConcede},
		{orders.VerbPace, diplomat, cmdPace, usage{"PACE FAST / PACE SLOW", "vote on the game's pace"}, usage{}, anyGame},
		{orders.VerbReady, diplomat, cmdReady, usage{"READY", "you are done for this phase"}, usage{}, anyGame},
		{orders.VerbLockJunior, diplomat, cmdLock, usage{"LOCK JUNIORS [ALWAYS|OFF]", "(senior diplomat) your orders override\nyour juniors'"}, usage{}, needsJunior},
		{orders.VerbAccept, decider, cmdAccept, usage{"ACCEPT <address>", "(senior diplomat) take someone who asks to\njoin your power (or reply ACCEPT to the\nrequest)"}, usage{"ACCEPT <address>", "a request to join a power that has no senior"}, needsJunior},
		{orders.VerbRefuse, decider, cmdRefuse, usage{"REFUSE <address> [note]", "(senior diplomat) decline such a request"}, usage{"REFUSE <address> [note]", "decline such a request"}, needsJunior},
		{orders.VerbRelease, diplomat, cmdRelease, usage{"RELEASE <address>", "(senior diplomat) a junior leaves your power"}, usage{}, needsJunior},
		{orders.VerbSetZone, signedUp, cmdZone, usage{"SET ZONE Europe/Paris", "show deadlines in your time zone too"}, usage{}, anyGame},
		{verbAbsence, diplomat, cmdAbsence, usage{"SET ABSENCE from <date> to <date>", "days you will be away (UTC dates such as\n2026-12-20), within the game's allowance:\ndeadlines wait for you (RULES says how);\nSET ABSENCE OFF withdraws"}, usage{}, anyGame},
		{orders.VerbRatings, anyone, cmdRatings, usage{"RATINGS", "the best-rated players here, and your rating"}, usage{}, anyGame},
		{orders.VerbVerify, anyone, cmdVerify, usage{"VERIFY <code>", "check that a mail really came from me (its last\nline gives the code)"}, usage{}, anyGame},
		{orders.VerbResign, diplomat, cmdResign, usage{"RESIGN", "leave the game"}, usage{}, anyGame},
		{orders.VerbWhatIf, diplomat, cmdWhatIf, usage{"WHATIF (or PREVIEW)", "what your standing orders would do if\nevery other unit held; shows nothing of\nthe others' orders"}, usage{}, needsPreview},

		{orders.VerbCreate, siteOnly, cmdCreate, usage{"CREATE <game> <variant> [options]", "a new game, taking sign-ups; options:\npace=slow|fast press=all|white|none\npsa=on|off press_in_adj=on|off preview=on|off\nobserver_press=on|off grey=on|off\nearly=on|off prize=on|off seed=N\nturn_time=6h (the turns and steps of\nsequential games) calendar=weekly|rolling\nlate=process|grace|extend grace=24h\ngrace_every=5 late_limit=72h\nabsence=move|pause|off absence_days=14\nseats=approve|open|closed\nmin_ontime=80 (percent of phases ordered)\nmin_rating=1600 (RATINGS)\nfirst_pick=previous|<address>,…\nautopilot=on|off (the game's autopilot\norders for a power that sends none)\nscoring=dss|sos|ppsc|tribute (Diplomacy);\nother keys go to the game"}, usage{}, anyGame},
		{orders.VerbStart, gmOnly, gmStart, usage{"START", "start the game with the players it has"}, usage{}, anyGame},
		{orders.VerbProcess, gmOnly, gmProcess, usage{"PROCESS", "process the phase now (no mail of its own: the\nresults say you processed it early)"}, usage{}, anyGame},
		{orders.VerbPause, gmOnly, gmPause, usage{"PAUSE <reason>", "stop the clock (PAUSE again to renew)"}, usage{}, anyGame},
		{orders.VerbResume, gmOnly, gmResume, usage{"RESUME", "start the clock again"}, usage{}, anyGame},
		{orders.VerbDeadline, gmOnly, gmDeadline, usage{"DEADLINE 2026-12-24 21:00", "move the deadline (or +36h; within a year)"}, usage{}, anyGame},
		{orders.VerbExtend, gmOnly, gmExtend, usage{"EXTEND 24h", "give the phase more time (a minute to 90 days)"}, usage{}, anyGame},
		{orders.VerbRollback, gmOnly, gmRollback, usage{"ROLLBACK", "reopen the last processed phase, its\norders as they were"}, usage{}, anyGame},
		{orders.VerbPreview, gmOnly, gmPreview, usage{"PREVIEW ON|OFF", "results come to you first"}, usage{}, anyGame},
		{orders.VerbPublish, gmOnly, gmPublish, usage{"PUBLISH", "send the results you previewed"}, usage{}, anyGame},
		{orders.VerbSetOrders, gmOnly, gmSetOrders, usage{"SET ORDERS <power> ... ENDORDERS", "orders for a power; they count as its\nown: its later mail changes them"}, usage{}, anyGame},
		{orders.VerbReplace, gmOnly, gmReplace, usage{"REPLACE <power> WITH <address>", "a new senior diplomat for a power"}, usage{}, anyGame},
		{orders.VerbPromote, gmOnly, gmPromote, usage{"PROMOTE <address>", "make a junior the senior diplomat"}, usage{}, anyGame},
		{orders.VerbEject, gmOnly, gmEject, usage{"EJECT <power>|<address>", "remove a power's diplomats, or one of them"}, usage{}, anyGame},
		{orders.VerbAutopilot, gmOnly, gmAutopilot, usage{"AUTOPILOT <power> ON|OFF", "the autopilot orders for the power when it\nsends none (ON), or never (OFF)"}, usage{}, anyGame},
		{orders.VerbEnd, gmOnly, gmEnd, usage{"END DRAW / END SOLO <power>", "end the game"}, usage{}, anyGame},
		{orders.VerbSet, gmOnly, gmSet, usage{"SET <option>=<value>", "change an option (CREATE's)"}, usage{}, anyGame},
		{orders.VerbSilent, gmOnly, gmSilent, usage{"SILENT", "(first line) do not announce this mail's\nchanges"}, usage{}, anyGame},
	}
	commands = make(map[orders.Verb]*commandSpec, len(commandTable))
	for i := range commandTable {
		c := &commandTable[i]
		if commands[c.verb] != nil {
			panic("daemon: command " + string(c.verb) + " twice in the table")
		}
		commands[c.verb] = c
	}
}

// execute carries out the commands and orders of a mail, in the order they
// were written, and writes the reply.
func (mc *mailCtx) execute(lines []orders.Line, check *adjudicator.Check) error {
	if err := mc.otherGameNote(); err != nil {
		return err
	}
	var problems []string
	hasOrders, whatIf := false, false
	for i := range lines {
		l := &lines[i]
		if mc.deferWhatIf(l) {
			whatIf = true // after the orders of the mail, which it previews
			continue
		}
		switch l.Kind {
		case orders.CommandLine:
			if err := mc.command(l.Command); err != nil {
				return err
			}
		case orders.OrderLine:
			hasOrders = true
		case orders.ErrorLine:
			problems = append(problems, describeLine(l))
		}
	}
	if mc.overNote(hasOrders || len(problems) > 0) {
		hasOrders, problems = false, nil
	}
	if check != nil && len(check.Answers) > 0 {
		answers := check.Answers
		if len(answers) > maxAnswers { // bounded reply (limits.go)
			answers = append(answers[:maxAnswers:maxAnswers], fmt.Sprintf("(%d more questions not answered: ask at most %d in one mail.)", len(check.Answers)-maxAnswers, maxAnswers))
		}
		mc.say("%s", strings.Join(answers, "\n\n"))
	}
	if hasOrders && (check == nil || len(check.Canonical) > 0 || len(check.Answers) == 0) {
		if err := mc.orders(lines, check); err != nil {
			return err
		}
	} else if len(problems) > 0 && mc.observer && mc.player == nil && !mc.gm {
		mc.say("You observe %s: observers cannot send orders, and these lines are not commands:\n%s", mc.game.Name, listProblems(problems))
	} else if len(problems) > 0 {
		mc.say("I could not understand these lines:\n%s", listProblems(problems))
		if mc.player == nil && !mc.gm && !mc.siteGM && !mc.observer {
			mc.say("%s", mc.introduction())
		}
	}
	if whatIf {
		if err := mc.command(&orders.Command{Verb: orders.VerbWhatIf}); err != nil {
			return err
		}
	}
	if len(mc.reply) == 0 {
		mc.say("%s", mc.introduction())
	}
	return nil
}

// describeLine writes one problem line for a reply: number, text, what is
// wrong and an example.
func describeLine(l *orders.Line) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  line %d: %s", l.No, shownText(l.Text))
	for _, d := range l.Diags {
		fmt.Fprintf(&b, "\n      %s", d.Message)
		if d.Suggestion != "" {
			fmt.Fprintf(&b, " (for example: %s)", d.Suggestion)
		}
	}
	return b.String()
}

// introduction answers a mail that asked for nothing we understood.
func (mc *mailCtx) introduction() string {
	switch {
	case mc.player != nil:
		return fmt.Sprintf("I received your mail for %s but found no orders or commands in it. Send HELP for examples.", mc.game.Name)
	case mc.gm:
		return fmt.Sprintf("I received your mail for %s but found no commands in it. Send HELP for the GM commands.", mc.game.Name)
	default:
		return "Hello! I am the pbemd game master. I do not know you yet, so I have not acted on your mail.\n" +
			"- To see the games: LIST\n" +
			"- To join one: JOIN <game> (optionally: prefer Rome > Greece > Persia)\n" +
			"- If you play already, reply to a mail I sent you, or start your mail with\n" +
			"  SIGNON <power> <game> <password>\n" +
			"- HELP shows examples of orders and commands."
	}
}

// command runs one command after checking who may use it.
func (mc *mailCtx) command(cmd *orders.Command) error {
	if cmd.Verb == orders.VerbSet && cmd.Arg == "absence" && !mc.gm { // a player's SET ABSENCE (absence.go); the GM's is the option
		cmd = &orders.Command{Verb: verbAbsence, Game: cmd.Game, Arg: cmd.Options["absence"]}
	}
	spec, ok := commands[cmd.Verb]
	if !ok {
		mc.say("%s: I know this command but it is not available here.", cmd.Verb)
		return nil
	}
	// Commands that name a game act on it when the sender has no game yet.
	if mc.game == nil && cmd.Game != "" && spec.who != anyone && spec.who != siteOnly {
		mc.say("%s %s: I do not know who you are in that game. Reply to a mail I sent you about it, or start with SIGNON.", spec.name(), cmd.Game)
		return nil
	}
	if why := mc.refusal(spec); why != "" {
		mc.say("%s: %s", spec.name(), why)
		if spec.who == gmOnly {
			mc.log.Warn("GM command refused", "verb", cmd.Verb)
		}
		return nil
	}
	return spec.run(mc, cmd)
}

// refusal says why the sender of the mail may not use a command ("" when
// they may): command refuses with it, and HELP lists only the commands
// with none.
func (mc *mailCtx) refusal(spec *commandSpec) string {
	if why := mc.lacking(spec.needs); why != "" {
		return why
	}
	switch spec.who {
	case member:
		if mc.player == nil && !mc.observer && !mc.gm {
			return "only players and observers of a game can do that; I could not tell which game you mean. Reply to a mail I sent you."
		}
	case diplomat:
		if mc.player == nil || mc.player.Power == "" {
			return "only a player with a power can do that."
		}
	case decider:
		if !mc.gm && (mc.player == nil || mc.player.Power == "") {
			return "only the senior diplomat of a power (or the GM) can answer a request to join it."
		}
	case signedUp:
		if mc.player == nil {
			return "only a player of a game can do that; reply to a mail I sent you about it."
		}
	case watcher:
		if !mc.observer {
			return "only an observer of a game can do that; reply to a mail I sent you about it."
		}
	case gmOnly:
		if !mc.gm {
			return "only the game's GM can do that, by replying to a GM mail or with SIGNON GM <game> <password>. Nothing was changed."
		}
	case siteOnly:
		if !mc.siteGM {
			return "only the site's GM can do that. Nothing was changed."
		}
	}
	return ""
}

func (mc *mailCtx) audit(action, detail string) error {
	actor := mc.sender
	if mc.gm {
		actor = "gm:" + mc.sender
	}
	return mc.tx.Audit(store.AuditEntry{
		Time: mc.now.UTC(), Game: gameName(mc.game), Actor: actor, Action: action, Detail: detail, MsgID: mc.in.MsgID,
	})
}

// ---- orders ----

// orders stores the order lines of a mail as a new version of the power's
// orders and acknowledges the whole standing set.
func (mc *mailCtx) orders(lines []orders.Line, check *adjudicator.Check) error {
	switch {
	case mc.observer && mc.player == nil:
		mc.say("You observe %s: observers cannot send orders.", mc.game.Name)
		return nil
	case mc.player == nil:
		if mc.gm {
			mc.say("To order for a power, write SET ORDERS <power> followed by its orders.")
			return nil
		}
		mc.say("I found orders in your mail, but I do not know who you are, so nothing was stored.\n%s", mc.introduction())
		return nil
	case mc.player.Power == "":
		mc.say("The game %s has not started yet; you will get your power when it does. Orders are not stored before that.", mc.game.Name)
		return nil
	case mc.game.Status != store.Active || check == nil:
		mc.say("The game %s is %s: orders are not accepted.", mc.game.Name, mc.game.Status)
		return nil
	case mc.game.Pending != nil:
		mc.say("The results of %s are with the GM before publication; please wait for them before sending new orders.", mc.game.PhaseTitle)
		return nil
	case mc.owesNothing():
		return nil
	}
	// A reply to a mail of another phase (the power mail, an old
	// acknowledgement) is read for the open phase: every mail says "reply
	// to any mail I send you". Only when nothing in it is a valid order
	// now is it refused, as meant for the phase it answered.
	if sent, ok := mc.tx.SentMail(mc.in.InReplyTo); ok && sent.Game == mc.game.Name && sent.Phase != "" && sent.Phase != mc.game.PhaseID {
		then, now := mc.phaseTitle(sent.Phase), mc.game.PhaseTitle
		if validOrders(lines) == 0 {
			var problems []string
			for i := range lines {
				if lines[i].Kind == orders.OrderLine || lines[i].Kind == orders.ErrorLine {
					problems = append(problems, describeLine(&lines[i]))
				}
			}
			mc.say("You replied to a mail I sent during %s; the game is now in %s. None of the orders in your mail is valid for %s, so I take them to be meant for %s, which is over, and did not store them; your standing orders are unchanged.\n%s",
				then, now, now, then, strings.Join(problems, "\n"))
			return nil
		}
		mc.say("You replied to a mail I sent during %s, but the game is now in %s: I have read the orders in your mail as orders for %s.", then, now, now)
	}
	held, err := mc.holdAhead(lines, check) // ahead.go: orders for later phases of the turn
	if err != nil {
		return err
	}
	still, err := mc.stillHeld(check.Held) // ahead.go: what the mail left held
	if err != nil {
		return err
	}
	if len(check.Canonical) == 0 && held != "" {
		mc.say("%s", held)
		if still != "" {
			mc.say("%s", still)
		}
		return nil
	}
	if len(check.Canonical) == 0 {
		// Nothing understood as an order: store nothing (a stored empty set
		// would count as "orders sent" and could end a turn).
		var problems []string
		for i := range lines {
			if lines[i].Noted() {
				problems = append(problems, describeLine(&lines[i]))
			}
		}
		mc.say("No orders were stored from this mail; your standing orders for %s are unchanged.\n%s", mc.game.PhaseTitle, listProblems(problems))
		return nil
	}
	offers, _, err := mc.standingOffers() // offers.go: told to their receivers
	if err != nil {
		return err
	}
	set := store.OrderSet{
		Power: mc.player.Power, Address: mc.player.Address, Rank: mc.player.Rank,
		MsgID: mc.in.MsgID, Received: mc.now.UTC(), Lines: check.Canonical,
	}
	if err := mc.tx.AddOrderSet(mc.game.Name, mc.game.Phase, set); err != nil {
		return err
	}
	if err := mc.audit("orders", fmt.Sprintf("%s: %d lines", set.Power, len(set.Lines))); err != nil {
		return err
	}
	ack, err := mc.acknowledge(mc.player.Power, lines, check.Canonical)
	if err != nil {
		return err
	}
	mc.say("%s", ack)
	mc.takeBackControl(mc.player.Power) // autopilot.go
	if held != "" {
		mc.say("%s", held)
	}
	if still != "" {
		mc.say("%s", still)
	}
	if err := mc.forwardOffers(offers); err != nil {
		return err
	}
	return mc.maybeEarly()
}

// validOrders counts the lines of a mail that are orders with no error.
func validOrders(lines []orders.Line) int {
	n := 0
	for i := range lines {
		if lines[i].Kind == orders.OrderLine && !hasError(lines[i].Diags) {
			n++
		}
	}
	return n
}

// phaseTitle is how players read a phase id of the game: the title of its
// history record, when one of the last phases has it.
func (mc *mailCtx) phaseTitle(id string) string {
	g := mc.game
	for n := g.Phase - 1; n >= 0 && n >= g.Phase-50; n-- {
		if rec, err := mc.tx.Phase(g.Name, n); err == nil && rec.PhaseID == id {
			return rec.Title
		}
	}
	return id
}

// acknowledge writes the standing orders of a power, with the misorders of
// the mail just received and the notes of the engine.
func (mc *mailCtx) acknowledge(power string, lines []orders.Line, fresh []string) (string, error) {
	// The folds of the phase, before and after this mail's version
	// (standing.go): no re-merge of every version.
	st, err := loadStanding(mc.tx.Tx, mc.game)
	if err != nil {
		return "", err
	}
	merge := mergeFor(mc.engine, mc.state)
	var before store.Fold
	if n := len(st.pending); n > 0 && st.pending[n-1].MsgID == mc.in.MsgID {
		mine := st.pending[n-1]
		st.pending = st.pending[:n-1]
		st.fold(merge)
		before = st.standingFold(merge, power)
		st.pending = []store.OrderSet{mine}
	}
	st.fold(merge)
	if err := st.save(mc.tx.Tx); err != nil {
		return "", err
	}
	standing, from := st.linesOf(merge, power)
	full, err := mc.engine.Check(mc.state, power, strings.Join(standing, "\n"))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Orders received for %s, %s (deadline %s).\n", powerName(mc.game, power), mc.game.PhaseTitle, mc.d.showTime(mc.game.Deadline, mc.player))
	mc.writeStanding(&b, power, standing, from)
	mc.writeGMOrders(&b, before, standing, from)
	var warn []string
	for i := range lines {
		l := &lines[i]
		if l.Noted() {
			warn = append(warn, describeLine(l))
		}
	}
	for i := range full.Lines {
		l := &full.Lines[i]
		if slices.Contains(fresh, strings.TrimSpace(l.Text)) {
			continue // reported above with its line number
		}
		for _, d := range l.Diags {
			if d.Severity == orders.Error {
				warn = append(warn, fmt.Sprintf("  %s: %s", strings.TrimSpace(l.Text), d.Message))
			}
		}
	}
	if len(warn) > 0 {
		b.WriteString("\nPlease look again at these (at the deadline your orders are carried out exactly as they stand):\n")
		b.WriteString(listProblems(dedupe(warn)))
		b.WriteString("\n")
	}
	if len(full.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range full.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	ps, err := mc.status()
	if err != nil {
		return "", err
	}
	b.WriteString("\n" + mc.whatNext(ps, power, st))
	return b.String(), nil
}

// whatNext is the last line of an acknowledgement: whether power's orders
// ended the phase and, if not, how a new mail would combine with them, as
// the engine declares for the open phase (ps).
func (mc *mailCtx) whatNext(ps adjudicator.Status, power string, st *standing) string {
	combine := ps.CombineText
	if combine == "" {
		combine = ps.Combine.Sentence()
	}
	if waiting, done := waitingLate(mc.game, st); waiting { // grace.go: past the deadline, waiting for late orders
		if done {
			return fmt.Sprintf("The deadline of %s has passed and the game waited only for late orders: with these it is processed now (within the minute), and no new orders for it are taken.", mc.game.PhaseTitle)
		}
		var late []string
		for _, p := range mc.game.Graced {
			if slices.Contains(mc.game.Waiting, p) && !st.sent(p) {
				late = append(late, powerName(mc.game, p))
			}
		}
		return fmt.Sprintf("The deadline of %s has passed; the game waits for late orders from %s (now until %s) and is processed as soon as they come; until then %s.",
			mc.game.PhaseTitle, strings.Join(late, " and "), mc.d.showTime(mc.game.Deadline, mc.player), combine)
	}
	if !ps.EndsTurn {
		return fmt.Sprintf("You may send new orders until the deadline: %s.", combine)
	}
	var others []string
	for _, p := range mc.game.Waiting {
		if !st.sent(p) {
			others = append(others, powerName(mc.game, p))
		}
	}
	if len(others) == 0 {
		if wait := mc.offersWait(power); wait != "" { // offers.go
			return wait
		}
	}
	switch {
	case len(others) == 0 && slices.Contains(mc.game.Waiting, power):
		return fmt.Sprintf("These orders end %s: it is processed now (within the minute), and no new orders for it are taken.", mc.game.PhaseTitle)
	case len(others) == 0:
		return fmt.Sprintf("%s ends now (within the minute).", mc.game.PhaseTitle)
	}
	return fmt.Sprintf("%s ends as soon as %s %s sent orders (or at the deadline); until then %s.",
		mc.game.PhaseTitle, strings.Join(others, " and "), map[bool]string{true: "has", false: "have"}[len(others) == 1], combine)
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// writeStanding writes a power's standing orders for its diplomat (or the
// GM) reading them. When anyone but the reader has a hand in them (another
// diplomat of the power, the GM) each line says who sent it and when.
func (mc *mailCtx) writeStanding(b *strings.Builder, power string, lines []string, from []store.Source) {
	g := mc.game
	reader := ""
	if mc.player != nil {
		reader = mc.player.Address
	}
	show := diplomatsOf(g, power) > 1 || reader == ""
	for _, f := range from {
		show = show || f.GM || f.Address != reader
	}
	if !show || len(lines) == 0 {
		b.WriteString("\nYour orders now stand as:\n")
		if len(lines) == 0 {
			b.WriteString("  (none)\n")
		}
		for _, l := range lines {
			fmt.Fprintf(b, "  %s\n", l)
		}
	} else {
		fmt.Fprintf(b, "\nThe orders of %s now stand as (who sent each):\n", powerName(g, power))
		width := 0
		for _, l := range lines {
			width = max(width, min(len(l), 36))
		}
		for i, l := range lines {
			fmt.Fprintf(b, "  %-*s  %s\n", width, l, mc.orderSender(power, from[i]))
		}
	}
	if seniorLocked(g, power) {
		how := "for " + g.PhaseTitle
		if g.Locks[power].Always {
			how = "for every phase"
		}
		fmt.Fprintf(b, "LOCK JUNIORS is on %s: the senior's orders (and the GM's) win over the juniors'.\n", how)
	}
}

// writeGMOrders tells a diplomat who has just sent orders what became of
// the orders the GM set for the power this phase (SET ORDERS): which
// lines the mail replaced and which still stand as the GM set them.
// before is the power's standing fold just before the mail; standing and
// from are the power's orders now.
func (mc *mailCtx) writeGMOrders(b *strings.Builder, before store.Fold, standing []string, from []store.Source) {
	var set time.Time // when the GM last set orders that stood before the mail
	var replaced, still []string
	for i, l := range before.Lines {
		if i < len(before.From) && before.From[i].GM {
			set = maxTime(set, before.From[i].Received)
			if !slices.Contains(standing, l) {
				replaced = append(replaced, l)
			}
		}
	}
	for i, l := range standing {
		if from[i].GM {
			still = append(still, l)
		}
	}
	if set.IsZero() {
		return
	}
	fmt.Fprintf(b, "\nThe GM set orders for %s this phase (SET ORDERS, %s). They count as the power's own, so your mail changed them as it would change yours:\n",
		powerName(mc.game, mc.player.Power), set.UTC().Format("Mon 2 Jan 15:04 UTC"))
	if len(replaced) > 0 {
		fmt.Fprintf(b, "  replaced by your mail: %s\n", strings.Join(replaced, "; "))
	} else {
		b.WriteString("  your mail replaced none of them\n")
	}
	if len(still) > 0 {
		fmt.Fprintf(b, "  still standing as the GM set them: %s\n", strings.Join(still, "; "))
	} else {
		b.WriteString("  none of them stands any more\n")
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// orderSender names who sent a version of a power's orders, and when.
func (mc *mailCtx) orderSender(power string, s store.Source) string {
	if s.Received.IsZero() && s.Address == "" && !s.GM {
		return ""
	}
	at := s.Received.UTC().Format("Mon 2 Jan 15:04 UTC")
	switch {
	case s.GM:
		return "the GM (SET ORDERS), " + at
	case mc.player != nil && s.Address == mc.player.Address:
		return "you, " + at
	}
	role := "junior"
	if s.Address == seniorOf(mc.game, power) {
		role = "senior"
	} else if p := findPlayer(mc.game, s.Address); p == nil || p.Power != power {
		role = "no longer a diplomat of " + powerName(mc.game, power)
	}
	return fmt.Sprintf("%s (%s), %s", s.Address, role, at)
}

// ---- player commands ----

func cmdHelp(mc *mailCtx, _ *orders.Command) error {
	mc.say("%s", helpText(mc))
	return nil
}

// cmdVerify says whether the daemon sent a mail with a code, its subject,
// time and Message-ID. It names the mail's recipients only to one of them
// (the answer goes to the asker's address, so its reader had the mail)
// and to the GM of its game or the site's: a code found on a mail shown
// around would otherwise name a player's address, which players of a game
// need not know.
func cmdVerify(mc *mailCtx, cmd *orders.Command) error {
	code := strings.ToUpper(strings.TrimSpace(cmd.Arg))
	c, ok := mc.tx.Code(code)
	if !ok {
		mc.say("VERIFY %s: I never sent a mail with that code. If a mail shows it, the mail is forged.", code)
		return nil
	}
	sent := c.Sent.UTC().Format("2006-01-02 15:04 MST")
	if mayNameRecipients(mc, c) {
		mc.say("VERIFY %s: yes, I sent that mail.\n  To: %s\n  Subject: %s\n  Sent: %s\n  Message-ID: <%s>\nIf the mail you have says anything else in these fields, it is a forgery that reused the code.",
			code, strings.Join(c.To, ", "), c.Subject, sent, c.MsgID)
	} else {
		mc.say("VERIFY %s: yes, I sent that mail, but not to %s.\n  Subject: %s\n  Sent: %s\n  Message-ID: <%s>\nI name a mail's recipients only to them and to the GM. If the mail you have came to you straight from me, or says anything else in these fields, it is a forgery that reused the code.",
			code, mc.sender, c.Subject, sent, c.MsgID)
	}
	if c.Grey != "" {
		mc.say("It is grey press: I relayed it, but I do not vouch for its sender. It says it comes from %s; any player of the game may have written it.", c.Grey)
	}
	return nil
}

// mayNameRecipients reports whether VERIFY may tell the asker whom the
// mail with code c went to: when the answer goes to one of them, or the
// asker proved to be the site's GM or the GM of the mail's game.
func mayNameRecipients(mc *mailCtx, c store.Code) bool {
	if mc.siteGM || (mc.gm && mc.game != nil && c.Game != "" && mc.game.Name == c.Game) {
		return true
	}
	for _, to := range c.To {
		if strings.EqualFold(to, mc.sender) {
			return true
		}
	}
	return false
}

func cmdList(mc *mailCtx, cmd *orders.Command) error {
	if cmd.Game != "" {
		g, err := mc.tx.Game(cmd.Game)
		if err != nil && strings.EqualFold(cmd.Game, "variants") {
			mc.say("%s", variantList()) // LIST VARIANTS, when no game has that name
			return nil
		}
		if err != nil {
			mc.say("LIST %s: there is no such game. Send LIST for all games.", cmd.Game)
			return nil
		}
		mc.say("%s", describeGame(mc.d, g))
		return nil
	}
	var b strings.Builder
	b.WriteString("Games on this game master:\n")
	n := 0
	err := mc.tx.EachGame(func(g *store.Game) error {
		n++
		line := gameLine(mc.d, g, true)
		fmt.Fprintf(&b, "  %-16s %-12s %-9s %s\n", g.Name, g.Variant, g.Status, line)
		return nil
	})
	if err != nil {
		return err
	}
	if n == 0 {
		b.WriteString("  (none yet)\n")
	}
	b.WriteString("\nJOIN <game> to sign up; OBSERVE <game> to follow one.")
	mc.say("%s", b.String())
	return nil
}

// gameLine is a game in one line, for LIST; calendar adds its weekly
// calendar, if it has one, beside the deadline it sets (not after the
// open seats' own parentheses).
func gameLine(d *Daemon, g *store.Game, calendar bool) string {
	weekly := ""
	if calendar && g.Options.Calendar == calendarWeekly {
		weekly = " (weekly calendar)"
	}
	switch g.Status {
	case store.Forming:
		e, err := engineFor(g)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("%d of %d players%s", countPlayers(g), len(e.Info().Powers), weekly)
	case store.Active:
		return fmt.Sprintf("%s, deadline %s%s", g.PhaseTitle, d.showTime(g.Deadline, nil), weekly) + seatsNote(g) // seats.go
	}
	if len(g.Winners) > 0 {
		return g.EndedAs + ": " + strings.Join(g.Winners, ", ")
	}
	return g.EndedAs
}

func describeGame(d *Daemon, g *store.Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Game %s (%s): %s\n", g.Name, g.Variant, g.Status)
	fmt.Fprintf(&b, "  %s\n", gameLine(d, g, false))
	fmt.Fprintf(&b, "  calendar %s, pace %s, press %s, anonymous announcements %s, observers' press %s, grey press %s\n",
		calendarName(g.Options), g.Options.Pace, g.Options.Press, onOff(g.Options.PSA), onOff(g.Options.ObserverPress), onOff(g.Options.GreyPress))
	if g.Paused {
		fmt.Fprintf(&b, "  PAUSED: %s\n", g.PauseReason)
	}
	switch {
	case len(g.Scores) > 0:
		b.WriteString(indent(scoreLines(g))) // scoring.go
	case g.Options.Scoring != "":
		fmt.Fprintf(&b, "  scored at the end by %s\n", g.Options.Scoring)
	}
	powers := map[string][]string{}
	for _, p := range g.Players {
		if !p.Left && p.Power != "" {
			powers[p.Power] = append(powers[p.Power], "")
		}
	}
	for _, pw := range slices.Sorted(maps.Keys(powers)) {
		n := len(powers[pw])
		fmt.Fprintf(&b, "  %s: %d diplomat%s\n", powerName(g, pw), n, plural(n))
	}
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func cmdStatus(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	var b strings.Builder
	b.WriteString(describeGame(mc.d, g))
	if g.Status == store.Active && mc.state != nil {
		st, err := mc.engine.Status(mc.state)
		if err != nil {
			return err
		}
		orders, merge, err := openStanding(mc.tx.Tx, mc.engine, mc.state, g)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n%s — deadline %s\n", g.PhaseTitle, mc.d.showTime(g.Deadline, mc.player))
		b.WriteString(scheduleStatus(g, mc.now)) // calendar.go: the pace vote, absences
		for _, p := range st.Waiting {
			mark := "no orders yet"
			if orders.sent(p) {
				mark = "orders received"
			}
			fmt.Fprintf(&b, "  %-10s %s\n", powerName(g, p), mark)
		}
		if mc.player != nil && mc.player.Power != "" {
			lines, from := orders.linesOf(merge, mc.player.Power)
			mc.writeStanding(&b, mc.player.Power, lines, from)
			if err := mc.statusAhead(&b); err != nil { // ahead.go
				return err
			}
		}
		b.WriteString("\n" + st.Summary)
		if mc.player != nil && mc.player.Power != "" {
			private, err := mc.d.privateView(mc.tx.Tx, g, mc.player.Power)
			if err != nil {
				return err
			}
			if private != "" {
				b.WriteString("\n--- for you only ---\n" + private)
			}
		}
		if err := mc.statusPicture(); err != nil {
			return err
		}
	}
	b.WriteString(mc.statusRecord()) // record.go
	for _, r := range g.Requests {
		if !r.Refused && (mc.player != nil || mc.gm) && mc.decides(r.Power) {
			fmt.Fprintf(&b, "\nWaiting for your answer: %s asks to join %s as a junior diplomat (since %s). Reply ACCEPT %s or REFUSE %s.\n",
				r.Address, powerName(g, r.Power), mc.d.showTime(r.Asked, mc.player), r.Address, r.Address)
		}
	}
	mc.say("%s", b.String())
	return nil
}

func cmdHistory(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	if g.Phase == 0 {
		if sc := scoreLines(g); sc != "" { // scoring.go
			mc.say("%s has no processed phases yet.\n%s", g.Name, sc)
			return nil
		}
		mc.say("%s has no processed phases yet.", g.Name)
		return nil
	}
	want := strings.ToUpper(strings.TrimSpace(cmd.Arg))
	var b strings.Builder
	press, err := mc.tx.PressLog(g.Name)
	if err != nil {
		return err
	}
	limit := g.Phase
	if g.Pending != nil {
		limit = g.Pending.Phase // unpublished results stay with the GM
	}
	for i := 0; i < limit; i++ {
		rec, err := mc.tx.Phase(g.Name, i)
		if err != nil {
			return err
		}
		if want != "" && !strings.EqualFold(rec.PhaseID, want) && !strings.EqualFold(rec.Title, want) {
			continue
		}
		if want == "" {
			fmt.Fprintf(&b, "  %-8s %s (processed %s)\n", rec.PhaseID, rec.Title, rec.Processed.UTC().Format("2006-01-02 15:04"))
			continue
		}
		fmt.Fprintf(&b, "=== %s ===\n%s\n", rec.Title, rec.Public+rec.Position)
		b.WriteString(historyPrivate(mc, rec))
		for _, p := range press {
			if p.PhaseID == rec.PhaseID && p.Kind != store.PressPrivate {
				fmt.Fprintf(&b, "--- press (%s) from %s ---\n%s\n", p.Kind, pressFrom(g, p), p.Body)
			}
		}
	}
	if b.Len() == 0 {
		mc.say("HISTORY %s: no such phase. Send HISTORY for the list.", want)
		return nil
	}
	if want == "" {
		if sc := scoreLines(g); sc != "" { // scoring.go
			b.WriteString("\n" + sc)
		}
		mc.say("Phases of %s (send HISTORY <phase> for one in full, with its public press):\n%s", g.Name, b.String())
		return nil
	}
	mc.say("%s", b.String())
	return nil
}

// historyPrivate is the part of a phase's results that only some readers
// got (a fog of war game's board, a hidden hand): a player reads their
// power's again, the GM every power's, observers none.
func historyPrivate(mc *mailCtx, rec *store.PhaseRecord) string {
	var b strings.Builder
	switch {
	case mc.gm:
		for _, p := range slices.Sorted(maps.Keys(rec.Private)) {
			if rec.Private[p] != "" {
				fmt.Fprintf(&b, "--- for %s only ---\n%s\n", powerName(mc.game, p), strings.TrimRight(rec.Private[p], "\n"))
			}
		}
	case mc.player != nil && mc.player.Power != "" && rec.Private[mc.player.Power] != "":
		fmt.Fprintf(&b, "--- for you only ---\n%s\n", strings.TrimRight(rec.Private[mc.player.Power], "\n"))
	}
	return b.String()
}

func pressFrom(g *store.Game, p store.Press) string {
	switch {
	case p.As != "":
		return claimedName(g, p.As) + " (grey press: unverified)"
	case p.Observer:
		return "observer " + p.From
	}
	switch p.From {
	case "":
		return "anonymous"
	case "GM":
		return "the GM"
	}
	return powerName(g, p.From)
}

func cmdZone(mc *mailCtx, cmd *orders.Command) error {
	zone := strings.TrimSpace(cmd.Arg)
	if _, err := time.LoadLocation(zone); err != nil || zone == "" {
		mc.say("SET ZONE %s: I do not know that time zone. Use a name like Europe/Paris, America/New_York or UTC.", zone)
		return nil
	}
	mc.player.Zone = zone
	mc.say("Your deadlines will now be shown in %s as well as UTC. Next deadline: %s.", zone, mc.d.showTime(mc.game.Deadline, mc.player))
	return nil
}

func cmdSignon(mc *mailCtx, cmd *orders.Command) error {
	if mc.player != nil && mc.authBy == "password" {
		mc.say("Signed on as %s in %s.", powerName(mc.game, mc.player.Power), mc.game.Name)
	} else if mc.gm && mc.authBy == "GM password" {
		mc.say("Signed on as the GM of %s.", mc.game.Name)
	} else if mc.siteGM && mc.authBy == "GM password" {
		mc.say("Signed on as the site GM.")
	}
	return nil
}

// ordersRules is what the game master itself rules about whose orders
// stand (RULES; HELP says it shorter).
const ordersRules = `Whose orders stand (this game master's rules):
- A power's diplomats are its senior and the juniors the senior accepted. The
  latest orders of any of them stand, unless the senior sends LOCK JUNIORS (this
  phase) or LOCK JUNIORS ALWAYS: then the senior's orders win. A diplomat the
  senior RELEASEs, or the GM EJECTs, no longer counts, nor do their orders.
- Orders the GM sets with SET ORDERS count as the power's own: they stand until
  the power sends others, and a mail from the power changes them as it would
  change its own orders. Acknowledgements and STATUS show who sent each order.
- In a retreat or build phase only the powers the game lists as owing
  retreats or adjustments order; another power's mail is told so and stores
  nothing. Orders sent after the game ended are answered that it is over.
- WHATIF (or PREVIEW, from a player) shows what your standing orders would do
  if every other unit held, in games where a unit without orders holds
  (Diplomacy): a preview of your own orders only, never of anyone else's.`

func cmdRules(mc *mailCtx, cmd *orders.Command) error {
	if mc.gm && len(cmd.Body) > 0 {
		mc.game.HouseRules = strings.TrimSpace(strings.Join(cmd.Body, "\n"))
		if err := mc.audit("rules", fmt.Sprintf("%d lines", len(cmd.Body))); err != nil {
			return err
		}
		mc.say("House rules of %s replaced (%d lines). Players get them with RULES.", mc.game.Name, len(cmd.Body))
		return mc.announce("House rules changed", "The GM has changed the house rules of this game:\n\n"+mc.game.HouseRules)
	}
	if mc.game == nil {
		mc.say("RULES: which game? Reply to a mail I sent you about it.")
		return nil
	}
	var b strings.Builder
	e, err := engineFor(mc.game)
	if err == nil && e.Info().Rules != "" {
		b.WriteString(e.Info().Rules + "\n\n")
	}
	b.WriteString(ordersRules + "\n\n")
	b.WriteString(scheduleRules(mc.game) + "\n\n") // calendar.go
	b.WriteString(pressRules(mc.game) + "\n\n")
	if err == nil {
		b.WriteString(playRules(mc.game, e) + "\n") // endrules.go
	}
	if ap := autopilotRules(mc.game, e); ap != "" { // autopilot.go
		b.WriteString(ap + "\n")
	}
	if mc.game.HouseRules != "" {
		b.WriteString("House rules of " + mc.game.Name + ":\n" + mc.game.HouseRules)
	} else {
		b.WriteString("The GM has set no house rules for " + mc.game.Name + ".")
	}
	mc.say("%s", b.String())
	return nil
}

func cmdResign(mc *mailCtx, _ *orders.Command) error {
	p := mc.player
	g := mc.game
	wasSenior := p.Rank == 0
	if err := mc.d.removeDiplomat(mc.tx, g, p, store.LeftResigned, mc.now, ""); err != nil {
		return err
	}
	if err := mc.audit("resign", p.Power); err != nil {
		return err
	}
	mc.say("You have left %s. Thank you for playing.", g.Name)
	pn := powerName(g, p.Power)
	if err := mc.d.tellPower(mc.tx, g, p.Power, fmt.Sprintf("%s left %s", p.Address, pn), leftNote(g, p)); err != nil {
		return err
	}
	var juniors, asking []string
	for _, q := range g.Players {
		if q.Power == p.Power && !q.Left {
			juniors = append(juniors, q.Address)
		}
	}
	for _, r := range g.Requests {
		if r.Power == p.Power && !r.Refused {
			asking = append(asking, r.Address)
		}
	}
	note := fmt.Sprintf("%s (%s) has resigned from %s.", p.Address, pn, g.Name)
	if wasSenior && len(juniors) > 0 {
		note += fmt.Sprintf(" Juniors of %s: %s. Reply PROMOTE <address> to choose the new senior.", pn, strings.Join(juniors, ", "))
	} else if len(juniors) == 0 && g.Status == store.Active {
		note += fmt.Sprintf(" %s now has no player and will be in civil disorder; REPLACE %s WITH <address> to fill it.", pn, commandPower(g, p.Power))
	}
	if wasSenior && len(asking) > 0 {
		note += fmt.Sprintf(" Waiting to join %s as juniors: %s; until it has a senior again, you decide (ACCEPT or REFUSE <address>).", pn, strings.Join(asking, ", "))
	}
	return mc.d.alertGM(mc.tx, g, "Player resigned", note)
}

func cmdPace(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	pace := store.Pace(strings.ToLower(cmd.Arg))
	if pace != store.PaceFast && pace != store.PaceSlow {
		mc.say("PACE: write PACE FAST or PACE SLOW.")
		return nil
	}
	if why := paceRefusal(g); why != "" { // calendar.go: the seed's pace vote
		mc.say("PACE: %s", why)
		return nil
	}
	if g.PaceVotes == nil {
		g.PaceVotes = map[string]store.Pace{}
	}
	g.PaceVotes[mc.player.Power] = pace
	n := 0
	for _, p := range g.Alive {
		if g.PaceVotes[p] == pace {
			n++
		}
	}
	mc.say("Your vote for %s: pace %s (%d of %d surviving powers agree).", powerName(g, mc.player.Power), pace, n, len(g.Alive))
	if 2*n > len(g.Alive) && g.Options.Pace != pace && (pace == store.PaceFast || !seedPaceVote(g)) {
		g.Options.Pace = pace
		g.PaceVotes = nil
		if err := mc.audit("pace", string(pace)); err != nil {
			return err
		}
		return mc.announce("Pace changed", fmt.Sprintf("A majority of the surviving powers voted: from the next phase on, the game runs at the %s pace.", pace))
	}
	return nil
}

func cmdReady(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	if g.Ready == nil {
		g.Ready = map[string]bool{}
	}
	g.Ready[mc.player.Power] = true
	if g.Options.ProcessEarly {
		mc.say("%s is ready. The phase is processed early once every power that must order is ready.", powerName(g, mc.player.Power))
	} else {
		mc.say("%s is ready. (This game does not end phases early: it waits for the deadline.)", powerName(g, mc.player.Power))
	}
	return mc.maybeEarly()
}

func cmdLock(mc *mailCtx, cmd *orders.Command) error {
	p, g := mc.player, mc.game
	if p.Rank != 0 {
		mc.say("LOCK JUNIORS: only the senior diplomat of %s can do that.", powerName(g, p.Power))
		return nil
	}
	arg := strings.ToUpper(cmd.Arg)
	switch arg {
	case "", "TURN":
		arg = "TURN"
		setLock(g, p.Power, &store.Lock{By: p.Address})
		mc.say("Your orders override those of your juniors for %s.", g.PhaseTitle)
	case "ALWAYS":
		setLock(g, p.Power, &store.Lock{By: p.Address, Always: true})
		mc.say("Your orders override those of your juniors from now on (LOCK JUNIORS OFF to undo).")
	case "OFF":
		setLock(g, p.Power, nil)
		mc.say("The latest orders from any diplomat of %s apply again.", powerName(g, p.Power))
	default:
		mc.say("LOCK JUNIORS: write LOCK JUNIORS, LOCK JUNIORS ALWAYS or LOCK JUNIORS OFF.")
		return nil
	}
	return mc.audit("lock", p.Power+": "+arg)
}

// setLock sets (or, with nil, lifts) the LOCK JUNIORS of a power in the
// open phase.
func setLock(g *store.Game, power string, l *store.Lock) {
	if l == nil {
		delete(g.Locks, power)
		return
	}
	if g.Locks == nil {
		g.Locks = map[string]store.Lock{}
	}
	g.Locks[power] = *l
}

func cmdObserve(mc *mailCtx, cmd *orders.Command) error {
	name := cmd.Game
	if name == "" && mc.game != nil {
		name = mc.game.Name
	}
	g := mc.game
	if g == nil || g.Name != name {
		var err error
		if g, err = mc.tx.Game(name); err != nil {
			mc.say("OBSERVE %s: there is no such game. Send LIST for the games.", name)
			return nil
		}
	}
	if p := findPlayer(g, mc.sender); p != nil && p.Power != "" && g.Status == store.Active && isAlive(g, p.Power) {
		mc.say("You play %s in %s already.", powerName(g, p.Power), g.Name)
		return nil
	}
	if o := findObserver(g, mc.sender); o != nil {
		mc.say("You already observe %s.", g.Name)
		return nil
	}
	o := store.Observer{Address: mc.sender, Token: newToken()}
	g.Observers = append(g.Observers, o)
	if err := mc.tx.PutToken(o.Token, store.TokenRef{Game: g.Name, Address: o.Address}); err != nil {
		return err
	}
	switch {
	case mc.game == nil:
		// The mail is now about this game: its reply carries the
		// observer's token.
		mc.game, mc.observer, mc.obs = g, true, &g.Observers[len(g.Observers)-1]
	case mc.game != g:
		if err := mc.tx.PutGame(g); err != nil {
			return err
		}
	}
	mc.say("You now observe %s: you will get its results and public press. UNOBSERVE to stop.", g.Name)
	return nil
}

func cmdUnobserve(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	for i, o := range g.Observers {
		if o.Address == mc.sender {
			if err := mc.tx.DeleteToken(o.Token); err != nil {
				return err
			}
			g.Observers = append(g.Observers[:i], g.Observers[i+1:]...)
			mc.say("You no longer observe %s.", g.Name)
			return nil
		}
	}
	mc.say("You do not observe %s.", g.Name)
	return nil
}
