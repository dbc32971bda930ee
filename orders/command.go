package orders

import (
	"fmt"
	"strings"
)

// commandWords maps the first word of a command line to its verb.
var commandWords = map[string]Verb{
	"join": VerbJoin, "signon": VerbSignon, "resign": VerbResign, "list": VerbList,
	"status": VerbStatus, "history": VerbHistory, "help": VerbHelp, "rules": VerbRules,
	"observe": VerbObserve, "unobserve": VerbUnobserve, "press": VerbPress,
	"broadcast": VerbBroadcast, "psa": VerbPSA, "draw": VerbDraw, "pace": VerbPace,
	"ready": VerbReady, "lock": VerbLockJunior, "unlock": VerbLockJunior, "verify": VerbVerify,
	"zone": VerbSetZone, "password": VerbPassword, "create": VerbCreate, "start": VerbStart,
	"process": VerbProcess, "pause": VerbPause, "resume": VerbResume, "deadline": VerbDeadline,
	"extend": VerbExtend, "rollback": VerbRollback, "set": VerbSet, "preview": VerbPreview,
	"publish": VerbPublish, "replace": VerbReplace, "promote": VerbPromote, "eject": VerbEject,
	"end": VerbEnd, "silent": VerbSilent, "accept": VerbAccept, "refuse": VerbRefuse,
	"release": VerbRelease, "map": VerbMap, "whatif": VerbWhatIf, "concede": VerbConcede,
	"autopilot": VerbAutopilot, "ratings": VerbRatings,
}

// isWhatIf reports the line WHAT IF, in any case and with a question mark
// or full stop after it: the two-word spelling of WHATIF ("what" alone is
// no command word, so "What do you think?" stays prose).
func isWhatIf(t string) bool {
	f := strings.Fields(strings.TrimRight(t, " \t.!?"))
	return len(f) == 2 && strings.EqualFold(f[0], "what") && strings.EqualFold(f[1], "if")
}

// Verbs lists every verb a mail command can have, in no set order (the
// daemon checks that it handles each).
func Verbs() []Verb {
	seen := map[Verb]bool{VerbSetOrders: true}
	out := []Verb{VerbSetOrders} // SET ORDERS, written as SET
	for _, v := range commandWords {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// softCommands are verbs that a game's own grammar may also use for an
// order (Supply Chain's ACCEPT and REFUSE of an offer, Supremacy's ACCEPT
// <power> <offer>): with a grammar, the order reading of such a line wins
// when it works, so the command needs its address there (ACCEPT
// ann@example.org).
var softCommands = map[Verb]bool{VerbAccept: true, VerbRefuse: true, VerbRelease: true}

// endWord recognises the line that closes a block: ENDPRESS, END PRESS,
// ENDRULES, ENDORDERS (any case, spaces, hyphens or underscores inside).
func endWord(t string) blockEnd {
	if len(t) < 7 || len(t) > 16 || (t[0] != 'e' && t[0] != 'E') {
		return endNone
	}
	var b [16]byte
	n := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == ' ' || c == '-' || c == '_' || c == '\t' || c == '.':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b[n] = c
		n++
	}
	switch string(b[:n]) {
	case "endpress", "endbroadcast", "endpsa":
		return endPress
	case "endrules":
		return endRules
	case "endorders", "endset":
		return endOrders
	}
	return endNone
}

func endExample(e blockEnd) string {
	switch e {
	case endRules:
		return "RULES … ENDRULES"
	case endOrders:
		return "SET ORDERS <power> … ENDORDERS"
	}
	return "PRESS TO <powers> … ENDPRESS"
}

// findEnd returns the index of the first end line of kind k after line i,
// or -1.
func (m *mailState) findEnd(i int, k blockEnd) int {
	if i+1 >= m.noEndFrom[k] {
		return -1
	}
	for j := i + 1; j < len(m.lines); j++ {
		m.p.sc.work++
		if endWord(strings.TrimSpace(m.lines[j])) == k {
			return j
		}
	}
	m.noEndFrom[k] = i + 1
	return -1
}

// cmdParse reads the arguments of one command line.
type cmdParse struct {
	m     *mailState
	i     int
	c     *Command
	args  []string // words after the verb, as written
	diags []Diagnostic
	bad   bool
}

func (cp *cmdParse) fail(msg, suggestion string) {
	cp.bad = true
	cp.diags = append(cp.diags, Diagnostic{Severity: Error, Message: msg, Suggestion: suggestion})
}

func (cp *cmdParse) warn(msg string) {
	cp.diags = append(cp.diags, Diagnostic{Severity: Warning, Message: msg})
}

// command reads command line i (text t) and, for a block command, its
// block. It returns the index of the last line used.
func (m *mailState) command(i int, t string, verb Verb) int {
	fields := strings.Fields(t)
	cp := &cmdParse{m: m, i: i, c: &Command{Verb: verb}, args: fields[1:]}
	last := i
	switch verb {
	case VerbJoin:
		cp.join()
	case VerbSignon:
		cp.signon()
	case VerbResign, VerbList, VerbStatus, VerbUnobserve, VerbStart:
		cp.optionalGame()
	case VerbObserve:
		if cp.need(1, "OBSERVE <game>", "OBSERVE ancmed-7") {
			cp.c.Game = cp.args[0]
			cp.noMore(1)
		}
	case VerbHistory, VerbMap, VerbRollback, VerbPause:
		cp.c.Arg = strings.Join(cp.args, " ")
	case VerbHelp:
		cp.c.Arg = strings.ToUpper(strings.Join(cp.args, " "))
	case VerbVerify:
		if cp.need(1, "VERIFY <code>", "VERIFY K7QX2M") {
			cp.c.Arg = cp.args[0]
			cp.noMore(1)
		}
	case VerbDeadline:
		if cp.need(1, "DEADLINE <time>", "DEADLINE 2026-01-13 21:00") {
			cp.c.Arg = strings.Join(cp.args, " ")
		}
	case VerbExtend:
		if cp.need(1, "EXTEND <duration>", "EXTEND 24h") {
			cp.c.Arg = strings.Join(cp.args, " ")
		}
	case VerbRules:
		if end := m.findEnd(i, endRules); end >= 0 {
			cp.noMore(0)
			last = m.block(cp, end, endRules)
		} else {
			cp.noMore(0)
		}
	case VerbPress:
		// A press block opens with PRESS TO, or with any PRESS line that an
		// ENDPRESS follows; prose such as "Press on!" opens nothing.
		end := m.findEnd(i, endPress)
		if end < 0 && (len(cp.args) == 0 || !strings.EqualFold(cp.args[0], "to")) {
			cp.fail("write PRESS TO <powers>, the message, then ENDPRESS", "PRESS TO England, France")
			break
		}
		cp.press()
		// even with a bad recipient, the message is never read as orders
		last = m.block(cp, end, endPress)
	case VerbBroadcast, VerbPSA:
		end := m.findEnd(i, endPress)
		if len(cp.args) > 0 {
			// text on the command line itself is the (first line of the) message
			cp.c.Body = append(cp.c.Body, strings.TrimSpace(t[len(fields[0]):]))
			if end < 0 {
				break // a one-line message
			}
		}
		last = m.block(cp, end, endPress)
	case VerbDraw:
		cp.draw()
	case VerbConcede:
		if cp.need(1, "CONCEDE <power>", "CONCEDE Rome") {
			if id, ok := cp.power(strings.Join(cp.args, " ")); ok {
				cp.c.Power = id
			}
		}
	case VerbPace:
		cp.choice("PACE FAST or PACE SLOW", map[string]string{"fast": "FAST", "slow": "SLOW"})
	case VerbPreview:
		if len(cp.args) == 0 {
			// PREVIEW alone is a player's WHATIF; the GM's PREVIEW takes ON or
			// OFF (the daemon answers a GM's bare PREVIEW so).
			cp.c.Verb, cp.c.Arg = VerbWhatIf, "PREVIEW"
			break
		}
		cp.choice("PREVIEW ON or PREVIEW OFF", map[string]string{"on": "ON", "off": "OFF", "yes": "ON", "no": "OFF"})
	case VerbWhatIf:
		if !strings.EqualFold(strings.TrimRight(fields[0], "?!."), "whatif") {
			break // WHAT IF: isWhatIf read the whole line
		}
		cp.noMore(0)
	case VerbEnd:
		cp.end()
	case VerbLockJunior:
		cp.lock(strings.EqualFold(fields[0], "unlock"))
	case VerbSetZone:
		if cp.need(1, "ZONE <zone>", "SET ZONE Europe/Paris") {
			cp.c.Arg = cp.args[0]
			cp.noMore(1)
		}
	case VerbPassword:
		if cp.need(1, "PASSWORD <password>", "PASSWORD s3cret") {
			cp.c.Arg = cp.args[0]
			cp.noMore(1)
		}
	case VerbCreate:
		cp.create()
	case VerbReady, VerbProcess, VerbResume, VerbPublish, VerbSilent:
		cp.noMore(0)
	case VerbReplace:
		cp.replace()
	case VerbPromote:
		if cp.need(1, "PROMOTE <address> or PROMOTE <power>", "PROMOTE ann@example.org") {
			if strings.Contains(cp.args[0], "@") {
				cp.c.Address = cp.args[0]
				cp.noMore(1)
			} else if id, ok := cp.power(cp.args[0]); ok {
				cp.c.Power = id
				cp.c.Arg = strings.Join(cp.args[1:], " ")
			}
		}
	case VerbEject:
		if cp.need(1, "EJECT <power> or EJECT <address>", "EJECT Persia") {
			if strings.Contains(cp.args[0], "@") {
				cp.c.Address = trimAddress(cp.args[0])
				cp.noMore(1)
			} else if id, ok := cp.power(strings.Join(cp.args, " ")); ok {
				cp.c.Power = id
			}
		}
	case VerbRatings:
		cp.noMore(0)
	case VerbAutopilot:
		if cp.need(2, "AUTOPILOT <power> ON or AUTOPILOT <power> OFF", "AUTOPILOT Russia ON") {
			last := len(cp.args) - 1
			onOff := strings.ToUpper(strings.Trim(cp.args[last], ".!,;"))
			if onOff != "ON" && onOff != "OFF" {
				cp.fail(fmt.Sprintf("%q is not understood: write AUTOPILOT <power> ON or AUTOPILOT <power> OFF", cp.args[last]), "AUTOPILOT Russia ON")
				break
			}
			if id, ok := cp.power(strings.Join(cp.args[:last], " ")); ok {
				cp.c.Power, cp.c.Arg = id, onOff
			}
		}
	case VerbAccept, VerbRefuse:
		// ACCEPT alone answers the request mail it replies to.
		if len(cp.args) == 0 {
			break
		}
		if !strings.Contains(cp.args[0], "@") {
			cp.fail(fmt.Sprintf("write %s <address> (or %s alone, in a reply to my mail that asks you)", verb, verb), string(verb)+" ann@example.org")
			break
		}
		cp.c.Address = trimAddress(cp.args[0])
		if verb == VerbAccept {
			cp.noMore(1)
		} else {
			cp.c.Arg = strings.Join(cp.args[1:], " ") // a note for the candidate
		}
	case VerbRelease:
		if cp.need(1, "RELEASE <address>", "RELEASE ann@example.org") {
			if !strings.Contains(cp.args[0], "@") {
				cp.fail("write RELEASE <address> of one of your juniors", "RELEASE ann@example.org")
				break
			}
			cp.c.Address = trimAddress(cp.args[0])
			cp.noMore(1)
		}
	case VerbSet:
		last = cp.set(t)
	}
	l := &m.out[i]
	l.Command = cp.c
	l.Diags = cp.diags
	if cp.bad {
		if last == i && len(fields) > 2 && m.chatter(t) {
			// prose that happens to start with a command word ("List of my
			// orders:"); two words are too few to call prose
			l.Kind, l.Command, l.Diags = Ignored, nil, nil
			return i
		}
		// A refused command has no effect: its line and its block's lines
		// carry no Command.
		l.Kind, l.Command = ErrorLine, nil
		for j := i + 1; j <= last; j++ {
			m.out[j].Command = nil
		}
		return last
	}
	l.Kind = CommandLine
	return last
}

// need checks that at least n arguments follow.
func (cp *cmdParse) need(n int, form, example string) bool {
	if len(cp.args) < n {
		cp.fail("write "+form, example)
		return false
	}
	return true
}

// noMore checks that nothing follows the first n arguments.
func (cp *cmdParse) noMore(n int) {
	if len(cp.args) > n {
		cp.fail(fmt.Sprintf("%s does not take %q", cp.c.Verb, strings.Join(cp.args[n:], " ")), "")
	}
}

func (cp *cmdParse) optionalGame() {
	if len(cp.args) > 0 {
		cp.c.Game = cp.args[0]
	}
	cp.noMore(1)
}

// choice reads a single keyword argument.
func (cp *cmdParse) choice(form string, words map[string]string) {
	if len(cp.args) == 0 {
		cp.fail("write "+form, strings.SplitN(form, " or ", 2)[0])
		return
	}
	v, ok := words[strings.ToLower(strings.Trim(cp.args[0], ".!,;"))]
	if !ok {
		cp.fail(fmt.Sprintf("%q is not understood: write %s", cp.args[0], form), strings.SplitN(form, " or ", 2)[0])
		return
	}
	cp.c.Arg = v
	cp.noMore(1)
}

// power resolves one power name; without a lexicon it is kept as written.
func (cp *cmdParse) power(s string) (string, bool) {
	s = strings.TrimSpace(strings.Trim(s, ".,;:!"))
	pow := cp.m.p.pow
	if pow == nil {
		if s == "" {
			cp.fail("a power is missing", "")
			return "", false
		}
		return s, true
	}
	sc := &cp.m.p.sc
	toks := tokenize(s, nil, pow)
	sc.reset(s, toks, cp.m.p.opts.Strict)
	m, err := sc.Name(pow)
	if err == nil && sc.Done() {
		cp.diags = append(cp.diags, sc.diags...)
		return m.ID, true
	}
	if len(toks) == 1 && len(toks[0].Norm) == 1 {
		// njudge style: a power's initial
		if id, ok := powerInitial(pow, toks[0].Norm[0]); ok {
			return id, true
		}
	}
	msg := fmt.Sprintf("%q is not a power of this game", s)
	if ne, ok := err.(*NameError); ok && len(ne.Candidates) > 0 {
		msg = ne.Error()
	}
	cp.fail(msg, "the powers are "+powerList(pow))
	return "", false
}

// powerInitial finds the one power whose name starts with letter.
func powerInitial(pow *Names, letter byte) (string, bool) {
	found := ""
	for _, n := range pow.list {
		name := n.Full
		if name == "" {
			name = n.ID
		}
		if w := normWord(name); w != "" && w[0] == letter {
			if found != "" {
				return "", false
			}
			found = strings.ToLower(n.ID)
		}
	}
	return found, found != ""
}

func powerList(pow *Names) string {
	var names []string
	for _, n := range pow.list {
		if n.Full != "" {
			names = append(names, n.Full)
		} else {
			names = append(names, n.ID)
		}
	}
	return strings.Join(names, ", ")
}

// powers reads a list of powers separated by commas, ">", "and", "then" or
// spaces ("England, France", "Rome > Greece > Persia", "E F").
func (cp *cmdParse) powers(s string) []string {
	s = strings.TrimSpace(s)
	var parts []string
	if strings.ContainsAny(s, ",;>&+/") {
		parts = strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(",;>&+/", r) })
	} else {
		parts = []string{s}
	}
	var out []string
	for _, part := range parts {
		words := strings.Fields(part)
		// drop joining words
		var kept []string
		for _, w := range words {
			if lw := strings.ToLower(w); lw == "and" || lw == "then" || lw == "or" {
				if len(kept) > 0 {
					out = cp.appendPowers(out, kept)
					kept = nil
				}
				continue
			}
			kept = append(kept, w)
		}
		if len(kept) > 0 {
			out = cp.appendPowers(out, kept)
		}
	}
	return out
}

// appendPowers resolves words that may be one power ("Great Britain") or
// several ("England France").
func (cp *cmdParse) appendPowers(out, words []string) []string {
	if cp.m.p.pow == nil {
		if len(words) == 1 {
			return append(out, words[0])
		}
		return append(out, words...)
	}
	joined := strings.Join(words, " ")
	if n, ok := cp.m.p.pow.Lookup(joined); ok {
		return append(out, strings.ToLower(n.ID))
	}
	for _, w := range words {
		if id, ok := cp.power(w); ok {
			out = append(out, id)
		}
	}
	return out
}

// drawWords are the answers of DRAW YES and DRAW NO.
var drawWords = map[string]string{"yes": "YES", "y": "YES", "on": "YES", "accept": "YES", "no": "NO", "n": "NO", "off": "NO", "decline": "NO"}

// draw reads DRAW YES, DRAW NO and DRAW <power> <power> …, a draw shared
// by the powers named (Powers).
func (cp *cmdParse) draw() {
	if len(cp.args) > 0 {
		if _, yesNo := drawWords[strings.ToLower(strings.Trim(cp.args[0], ".!,;"))]; !yesNo {
			cp.c.Powers = cp.powers(strings.Join(cp.args, " "))
			if len(cp.c.Powers) == 0 && !cp.bad {
				cp.fail("say which powers share the draw", "DRAW Rome Greece")
			}
			return
		}
	}
	cp.choice("DRAW YES or DRAW NO", drawWords)
}

// join reads JOIN <game> [as junior of <power> | as <power>] [prefer <power> > <power> …].
func (cp *cmdParse) join() {
	if !cp.need(1, "JOIN <game> [prefer <power> > <power> …]", "JOIN ancmed-7 prefer Rome > Greece") {
		return
	}
	cp.c.Game = cp.args[0]
	rest := cp.args[1:]
	var before, prefs []string
	for j, w := range rest {
		switch strings.ToLower(strings.TrimRight(w, ":")) {
		case "prefer", "prefers", "preferring", "preference", "preferences", "ranking", "rank":
			before, prefs = rest[:j], rest[j+1:]
			if len(prefs) == 0 {
				cp.fail("the preference list is empty", "JOIN "+cp.c.Game+" prefer Rome > Greece")
				return
			}
			goto split
		}
	}
	before = rest
split:
	if len(before) > 0 {
		lw := strings.ToLower(strings.Join(before, " "))
		junior := ""
		for _, pre := range []string{"as a junior of ", "as junior of ", "as junior for ", "as junior ", "junior of ", "junior "} {
			if strings.HasPrefix(lw, pre) {
				junior = strings.Join(before, " ")[len(pre):]
				break
			}
		}
		seat := ""
		if junior == "" && strings.HasPrefix(lw, "as ") {
			seat = strings.Join(before, " ")[len("as "):]
		}
		switch {
		case junior != "":
			if id, ok := cp.power(junior); ok {
				cp.c.Power = id
				cp.c.Arg = "JUNIOR"
			}
		case seat != "":
			if id, ok := cp.power(seat); ok {
				cp.c.Power = id
				cp.c.Arg = "SEAT"
			}
		case prefs == nil:
			prefs = before // a bare ranking: JOIN ancmed-7 Rome > Greece
		default:
			cp.fail(fmt.Sprintf("%q is not understood", strings.Join(before, " ")), "JOIN "+cp.c.Game+" as junior of Rome")
			return
		}
	}
	if len(prefs) > 0 {
		cp.c.Powers = cp.powers(strings.Join(prefs, " "))
	}
}

// signon reads SIGNON <power> <game> <password>, or njudge's SIGNON
// <initial><game> <password>.
func (cp *cmdParse) signon() {
	a := cp.args
	switch {
	case len(a) == 3:
		if strings.EqualFold(a[0], "gm") {
			cp.c.Power = "GM" // the game master signing on, not a power
		} else if id, ok := cp.power(a[0]); ok {
			cp.c.Power = id
		}
		cp.c.Game, cp.c.Password = a[1], a[2]
	case len(a) == 2:
		if cp.m.p.pow != nil {
			if n, ok := cp.m.p.pow.Lookup(a[0]); ok {
				cp.c.Power, cp.c.Password = strings.ToLower(n.ID), a[1]
				return
			}
		}
		if len(a[0]) < 2 {
			cp.fail("write SIGNON <power> <game> <password>", "SIGNON Rome ancmed-7 s3cret")
			return
		}
		if id, ok := cp.power(a[0][:1]); ok {
			cp.c.Power = id
		}
		cp.c.Game, cp.c.Password = a[0][1:], a[1]
	default:
		cp.fail("write SIGNON <power> <game> <password>", "SIGNON Rome ancmed-7 s3cret")
	}
}

// press reads PRESS TO <recipients> [FROM <power>]: recipients are
// powers, GM, or addresses (someone observing the game); FROM (or AS)
// names the sender grey press claims.
func (cp *cmdParse) press() {
	a := cp.args
	if len(a) > 0 && strings.EqualFold(a[0], "to") {
		a = a[1:]
	}
	for j, w := range a {
		if lw := strings.ToLower(w); lw == "from" || lw == "as" {
			claimed := strings.TrimRight(strings.Join(a[j+1:], " "), ":")
			a = a[:j]
			switch {
			case strings.TrimSpace(claimed) == "":
				cp.fail("say which power the press claims to be from", "PRESS TO England FROM France")
				return
			case isGM(claimed):
				cp.c.As = "GM"
			default:
				if id, ok := cp.power(claimed); ok {
					cp.c.As = id
				}
			}
			break
		}
	}
	if len(a) == 0 {
		cp.fail("say who the press is for", "PRESS TO England, France")
		return
	}
	if len(a) == 1 && strings.EqualFold(strings.Trim(a[0], ".:"), "all") {
		cp.c.Verb = VerbBroadcast
		return
	}
	// GM and addresses are taken out; the rest are powers.
	var rest []string
	for _, part := range strings.FieldsFunc(strings.TrimRight(strings.Join(a, " "), ":"), func(r rune) bool { return strings.ContainsRune(",;&+/", r) }) {
		var kept []string
		words := strings.Fields(part)
		for k, w := range words {
			switch lw := strings.ToLower(strings.Trim(w, ".:")); {
			case lw == "gm" || lw == "the" && k+1 < len(words) && strings.EqualFold(strings.Trim(words[k+1], ".:"), "gm"):
				cp.c.ToGM = cp.c.ToGM || lw == "gm"
			case strings.Contains(lw, "@"):
				cp.c.ToAddresses = append(cp.c.ToAddresses, strings.ToLower(trimAddress(w)))
			default:
				kept = append(kept, w)
			}
		}
		if len(kept) > 0 {
			rest = append(rest, strings.Join(kept, " "))
		}
	}
	if len(rest) > 0 {
		cp.c.Powers = cp.powers(strings.Join(rest, ", "))
	}
	if len(cp.c.Powers) == 0 && !cp.c.ToGM && len(cp.c.ToAddresses) == 0 && !cp.bad {
		cp.fail("say who the press is for", "PRESS TO England, France")
	}
}

// isGM reports the game master written as a press recipient or sender.
func isGM(s string) bool {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), ".:"))
	return s == "gm" || s == "the gm"
}

// lock reads LOCK JUNIORS [THIS TURN | ALWAYS | OFF] and UNLOCK JUNIORS.
func (cp *cmdParse) lock(unlock bool) {
	a := cp.args
	if len(a) == 0 || !strings.HasPrefix(strings.ToLower(a[0]), "junior") {
		cp.fail("write LOCK JUNIORS [THIS TURN | ALWAYS | OFF]", "LOCK JUNIORS THIS TURN")
		return
	}
	if unlock {
		cp.c.Arg = "OFF"
		cp.noMore(1)
		return
	}
	switch strings.ToLower(strings.Join(a[1:], " ")) {
	case "", "this turn", "turn", "for this turn", "once":
		cp.c.Arg = "TURN"
	case "always", "for good", "permanently":
		cp.c.Arg = "ALWAYS"
	case "off", "never":
		cp.c.Arg = "OFF"
	default:
		cp.fail(fmt.Sprintf("%q is not understood", strings.Join(a[1:], " ")), "LOCK JUNIORS ALWAYS")
	}
}

// end reads END DRAW and END SOLO <power>.
func (cp *cmdParse) end() {
	a := cp.args
	if len(a) == 0 {
		cp.fail("write END DRAW or END SOLO <power>", "END DRAW")
		return
	}
	switch strings.ToLower(a[0]) {
	case "draw":
		cp.c.Arg = "DRAW"
		cp.noMore(1)
	case "solo":
		cp.c.Arg = "SOLO"
		if len(a) < 2 {
			cp.fail("say which power wins", "END SOLO Rome")
			return
		}
		if id, ok := cp.power(strings.Join(a[1:], " ")); ok {
			cp.c.Power = id
		}
	default:
		cp.fail(fmt.Sprintf("%q is not understood: write END DRAW or END SOLO <power>", a[0]), "END DRAW")
	}
}

// create reads CREATE <game> [<variant>] [key=value …].
func (cp *cmdParse) create() {
	if !cp.need(1, "CREATE <game> <variant> [key=value …]", "CREATE ancmed-7 ancientmed") {
		return
	}
	cp.c.Game = cp.args[0]
	for _, a := range cp.args[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			if cp.c.Options == nil {
				cp.c.Options = map[string]string{}
			}
			cp.c.Options[strings.ToLower(k)] = v
			continue
		}
		if cp.c.Arg != "" {
			cp.fail(fmt.Sprintf("%q is not understood: options are written key=value", a), "CREATE "+cp.c.Game+" "+cp.c.Arg+" press=on")
			return
		}
		cp.c.Arg = strings.ToLower(a)
	}
}

// trimAddress drops the brackets and punctuation around a written address.
func trimAddress(s string) string {
	return strings.Trim(s, "<>.,;:()\"'")
}

// replace reads REPLACE <power> WITH <address>.
func (cp *cmdParse) replace() {
	a := cp.args
	w := -1
	for j, x := range a {
		if strings.EqualFold(x, "with") || strings.EqualFold(x, "by") {
			w = j
			break
		}
	}
	if w < 1 || w != len(a)-2 {
		cp.fail("write REPLACE <power> WITH <address>", "REPLACE Persia WITH ann@example.org")
		return
	}
	if id, ok := cp.power(strings.Join(a[:w], " ")); ok {
		cp.c.Power = id
	}
	cp.c.Address = strings.Trim(a[w+1], "<>")
}

// set reads SET ORDERS <power> (a block), SET ZONE, SET PASSWORD, njudge's
// SET DRAW / SET NODRAW, and SET <key> <value> game options.
func (cp *cmdParse) set(t string) int {
	m, i := cp.m, cp.i
	a := cp.args
	if len(a) == 0 {
		cp.fail("write SET <option> <value>", "SET ORDERS Persia")
		return i
	}
	switch key := strings.ToLower(a[0]); key {
	case "orders", "order":
		cp.c.Verb = VerbSetOrders
		cp.args = a[1:]
		if !cp.need(1, "SET ORDERS <power>", "SET ORDERS Persia") {
			return i
		}
		if id, ok := cp.power(strings.Join(a[1:], " ")); ok {
			cp.c.Power = id
		}
		// even for an unknown power, the order lines are this block's
		return m.block(cp, m.findEnd(i, endOrders), endOrders)
	case "zone", "timezone", "tz":
		cp.c.Verb = VerbSetZone
		cp.args = a[1:]
		if cp.need(1, "SET ZONE <zone>", "SET ZONE Europe/Paris") {
			cp.c.Arg = cp.args[0]
			cp.noMore(1)
		}
	case "password":
		cp.c.Verb = VerbPassword
		cp.args = a[1:]
		if cp.need(1, "SET PASSWORD <password>", "SET PASSWORD s3cret") {
			cp.c.Arg = cp.args[0]
			cp.noMore(1)
		}
	case "draw", "nodraw":
		cp.c.Verb = VerbDraw
		cp.c.Arg = "YES"
		if key == "nodraw" {
			cp.c.Arg = "NO"
		}
		cp.args = a[1:]
		cp.noMore(0)
	default:
		k, v, ok := strings.Cut(a[0], "=")
		if !ok {
			if len(a) < 2 {
				cp.fail(fmt.Sprintf("SET %s needs a value", a[0]), "SET "+a[0]+" on")
				return i
			}
			v = strings.Join(a[1:], " ")
		} else if len(a) > 1 {
			v = strings.TrimSpace(v + " " + strings.Join(a[1:], " "))
		}
		k = strings.ToLower(k)
		cp.c.Arg = k
		cp.c.Options = map[string]string{k: v}
	}
	return i
}

// block gives command line cp.i the lines up to end (exclusive) as its body;
// end < 0 means the block has no end line: it then runs to the signature,
// the quoted original or the end of the mail.
func (m *mailState) block(cp *cmdParse, end int, k blockEnd) int {
	i := cp.i
	last := end
	if end < 0 {
		last = len(m.lines) - 1
		for j := i + 1; j < len(m.lines); j++ {
			m.p.sc.work++
			t := strings.TrimSpace(m.lines[j])
			if isSignature(t) || isOriginalMessage(t) || isQuoteHeader(t) {
				last = j - 1
				break
			}
		}
		for last > i && strings.TrimSpace(m.lines[last]) == "" {
			last--
		}
		if k != endOrders {
			msg := fmt.Sprintf("%s has no %s: the message runs to the end of the mail", cp.c.Verb, endName(k))
			if m.p.opts.Strict {
				cp.fail(msg, endName(k)+" on a line of its own after the message")
			} else {
				cp.warn(msg)
			}
		}
	}
	for j := i + 1; j <= last; j++ {
		l := &m.out[j]
		l.Kind = BodyLine
		l.Command = cp.c
		if j != end {
			cp.c.Body = append(cp.c.Body, m.lines[j])
		}
	}
	return last
}

func endName(k blockEnd) string {
	switch k {
	case endRules:
		return "ENDRULES"
	case endOrders:
		return "ENDORDERS"
	}
	return "ENDPRESS"
}
