package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// pressAllowed says whether a kind of press may be sent now, and why not.
func (mc *mailCtx) pressAllowed(kind store.PressKind) (bool, string) {
	g := mc.game
	if mc.gm {
		return true, ""
	}
	if g.Status == store.Finished {
		return false, "the game is over"
	}
	k := adjudicator.PhaseKind(g.PhaseKind)
	if g.Status == store.Active && !g.Options.PressInAdj && (k == adjudicator.PhaseRetreat || k == adjudicator.PhaseBuild) {
		return false, "press is closed during retreat and build phases in this game"
	}
	switch kind {
	case store.PressPSA:
		if !g.Options.PSA {
			return false, "anonymous announcements are turned off in this game"
		}
	case store.PressBroadcast:
		if g.Options.Press == store.PressNone {
			return false, "press is turned off in this game"
		}
	case store.PressPrivate:
		if g.Options.Press != store.PressAll {
			return false, "private press is turned off in this game (only public BROADCAST is allowed)"
		}
	}
	return true, ""
}

func pressBody(cmd *orders.Command) string {
	return strings.TrimSpace(strings.Join(cmd.Body, "\n"))
}

// pressRules is what RULES says of the game's press, as its options
// stand.
func pressRules(g *store.Game) string {
	o := g.Options
	var b strings.Builder
	b.WriteString("Press in this game (this game master's rules):\n")
	switch o.Press {
	case store.PressAll:
		b.WriteString("- PRESS TO <powers> … ENDPRESS is private press to those powers' diplomats;\n  BROADCAST … ENDPRESS is public press, signed with your power.\n")
	case store.PressWhite:
		b.WriteString("- Only public press: BROADCAST … ENDPRESS, signed with your power (no\n  private PRESS TO between the powers).\n")
	default:
		b.WriteString("- No press between the powers.\n")
	}
	if o.PSA {
		b.WriteString("- PSA … ENDPRESS is an anonymous announcement to everyone: nobody, not\n  even the GM, is told who sent it. Observers may send them too.\n")
	}
	b.WriteString("- PRESS TO GM … ENDPRESS reaches the GM, with your power and address,\n  whatever the press rules; the GM answers with PRESS TO <power>.\n")
	if o.ObserverPress {
		b.WriteString("- Observers may comment (BROADCAST) and write to powers (PRESS TO), under\n  their address and marked as an observer's; answer one with PRESS TO\n  <its address>.\n")
	} else {
		b.WriteString("- Observers do not write to the players (PSA and PRESS TO GM only).\n")
	}
	if o.GreyPress && o.Press != store.PressNone {
		b.WriteString("- Grey press is on: PRESS TO <powers> FROM <power> (or PRESS TO ALL FROM\n  <power>) is relayed in that power's name, with the subject \"Grey press,\n  said to be from <power> (unverified)\"; nobody, not even the GM, is told\n  who wrote it. Press a power really sent says \"Press from <power>\", and\n  VERIFY of a grey press's code says it is grey press.\n")
	} else {
		b.WriteString("- Grey press (in another power's name) is off.\n")
	}
	if !o.PressInAdj {
		b.WriteString("- Press is closed during retreat and build phases.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// A pressSender is who a PRESS or BROADCAST comes from, as its recipients
// read it: a power, the GM, or an observer (who is named by address: the
// seed's observers comment and PM under their own names, and a player
// answers them at that address).
type pressSender struct {
	from     string // store.Press.From: a power id, "GM", or the observer's address
	observer bool
	label    string // "Rome", "the GM", "bob@example.org (an observer, not a player)"
	thread   string // the sender in a press thread's name
	answer   string // PRESS TO <this> answers the sender
}

// pressSender is the sender of the mail as its press shows it; why says
// why the sender may send none ("" when they may).
func (mc *mailCtx) pressSender(verb string) (s pressSender, why string) {
	g := mc.game
	switch {
	case mc.gm:
		return pressSender{from: "GM", label: "the GM", thread: "gm", answer: "GM"}, ""
	case mc.player != nil && mc.player.Power != "":
		p := mc.player.Power
		return pressSender{from: p, label: powerName(g, p), thread: p, answer: powerName(g, p)}, ""
	case mc.player != nil:
		return s, fmt.Sprintf("%s not sent: %s has not started; press opens when you have your power.", verb, g.Name)
	case mc.observer:
		return pressSender{from: mc.sender, observer: true, label: mc.sender + " (an observer, not a player)",
			thread: observerThread(mc.sender), answer: mc.sender}, ""
	}
	return s, verb + ": only players and observers of a game can do that."
}

// observerThread is an observer in a press thread's name: no address
// inside a Message-ID.
func observerThread(addr string) string {
	sum := sha256.Sum256([]byte(addr))
	return "o" + hex.EncodeToString(sum[:5])
}

// observersMuted says why an observer may not write to the players of
// the game ("" when they may).
func (mc *mailCtx) observersMuted(verb string, s pressSender) string {
	if !s.observer || mc.game.Options.ObserverPress {
		return ""
	}
	return fmt.Sprintf("%s not sent: in %s observers may not write to the players (an anonymous announcement, PSA … ENDPRESS, is open to you if the game allows it; PRESS TO GM reaches the GM).", verb, mc.game.Name)
}

// pressRecipients are the readers of one PRESS.
type pressRecipients struct {
	powers    []string
	gm        bool
	observers []*store.Observer
}

// names lists the recipients for a reply and a press header.
func (r *pressRecipients) names(g *store.Game) []string {
	var out []string
	for _, p := range r.powers {
		out = append(out, powerName(g, p))
	}
	for _, o := range r.observers {
		out = append(out, o.Address+" (observer)")
	}
	if r.gm {
		out = append(out, "the GM")
	}
	return out
}

// ids are the recipients as the press archive keeps them.
func (r *pressRecipients) ids() []string {
	out := slices.Clone(r.powers)
	for _, o := range r.observers {
		out = append(out, o.Address)
	}
	if r.gm {
		out = append(out, "GM")
	}
	return out
}

// recipients reads a PRESS's recipients; why says what is wrong with
// them ("" when nothing).
func (mc *mailCtx) recipients(cmd *orders.Command, s pressSender) (r pressRecipients, why string) {
	g, e := mc.game, mc.engine
	for _, w := range cmd.Powers {
		p, ok := matchPower(e, w)
		if !ok {
			return r, fmt.Sprintf("%q is not a power of this game (powers: %s; PRESS TO GM writes to the GM)", w, strings.Join(powerNames(e), ", "))
		}
		if !slices.Contains(r.powers, p) {
			r.powers = append(r.powers, p)
		}
	}
	for _, a := range cmd.ToAddresses {
		o := findObserver(g, a)
		switch {
		case o == nil:
			return r, fmt.Sprintf("%s does not observe %s: press goes to powers, the GM (PRESS TO GM) and the game's observers", a, g.Name)
		case s.observer:
			return r, "observers write to powers and the GM, not to each other"
		case !g.Options.ObserverPress && !mc.gm:
			return r, fmt.Sprintf("in %s players and observers do not write to each other", g.Name)
		}
		if !slices.Contains(r.observers, o) {
			r.observers = append(r.observers, o)
		}
	}
	r.gm = cmd.ToGM && !mc.gm
	if len(r.powers) == 0 && len(r.observers) == 0 && !r.gm {
		if cmd.ToGM {
			return r, "you are the GM: write to powers (PRESS TO Rome) or to everyone (BROADCAST)"
		}
		return r, "name the recipients, e.g. PRESS TO France, Italy (or PRESS TO GM)"
	}
	return r, ""
}

func cmdPress(mc *mailCtx, cmd *orders.Command) error {
	s, why := mc.pressSender("PRESS")
	if why != "" {
		mc.say("%s", why)
		return nil
	}
	body := pressBody(cmd)
	if body == "" {
		mc.say("PRESS not sent: it has no text. Write PRESS TO <power>, then your message, then ENDPRESS.")
		return nil
	}
	r, why := mc.recipients(cmd, s)
	if why != "" {
		mc.say("PRESS not sent: %s.", why)
		return nil
	}
	claimed, why := mc.greyClaim(cmd, s, r.gm)
	if why != "" {
		mc.say("PRESS not sent: %s.", why)
		return nil
	}
	// Writing to the GM is no diplomacy: it is open whatever the press
	// rules (the seed: "give the GM a private message").
	if len(r.powers) > 0 || len(r.observers) > 0 {
		if why := mc.observersMuted("PRESS", s); why != "" {
			mc.say("%s", why)
			return nil
		}
		if ok, why := mc.pressAllowed(store.PressPrivate); !ok {
			mc.say("PRESS not sent: %s.", why)
			return nil
		}
	}
	g := mc.game
	names := r.names(g)
	n, err := mc.relayPress(s, claimed, &r, body)
	if err != nil {
		return err
	}
	if err := mc.tx.AddPress(g.Name, store.Press{Time: mc.now.UTC(), PhaseID: g.PhaseID, Kind: store.PressPrivate, From: s.from,
		Observer: s.observer, As: claimed, To: r.ids(), Body: body}); err != nil {
		return err
	}
	if claimed != "" {
		mc.say("Grey press relayed to %s (%d reader%s), said to be from %s and marked as unverified. Nobody is told it was you.",
			strings.Join(names, ", "), n, plural(n), claimedName(g, claimed))
		return nil
	}
	mc.say("Press relayed to %s (%d reader%s).", strings.Join(names, ", "), n, plural(n))
	return nil
}

// greyClaim reads the sender a PRESS claims with FROM <power>: "" for
// press in the sender's own name; why says why grey press is refused.
func (mc *mailCtx) greyClaim(cmd *orders.Command, s pressSender, toGM bool) (claimed, why string) {
	if cmd.As == "" || cmd.As == s.from {
		return "", ""
	}
	g := mc.game
	switch {
	case mc.player == nil || s.observer || mc.gm:
		return "", "only the players may send grey press (FROM another power)"
	case !g.Options.GreyPress:
		return "", fmt.Sprintf("grey press, in another power's name, is turned off in %s", g.Name)
	case toGM:
		return "", "write to the GM in your own name: grey press goes to powers and observers"
	case cmd.As == "GM":
		return "GM", ""
	}
	p, ok := matchPower(mc.engine, cmd.As)
	if !ok {
		return "", fmt.Sprintf("%q is not a power of this game (powers: %s)", cmd.As, strings.Join(powerNames(mc.engine), ", "))
	}
	return p, ""
}

// claimedName is the sender grey press claims, as readers see it.
func claimedName(g *store.Game, claimed string) string {
	if claimed == "GM" {
		return "the GM"
	}
	return powerName(g, claimed)
}

// relayPress mails one PRESS to its recipients (but the sender) and
// returns how many got it. claimed is the sender grey press claims ("":
// the press is the sender's own, and says so).
func (mc *mailCtx) relayPress(s pressSender, claimed string, r *pressRecipients, body string) (int, error) {
	g := mc.game
	to := strings.Join(r.names(g), ", ")
	subject := fmt.Sprintf("[%s] Press from %s", g.Name, s.label)
	text := fmt.Sprintf("Press from %s to %s (%s):\n\n%s\n\nReply with PRESS TO %s … ENDPRESS to answer.", s.label, to, g.PhaseTitle, body, s.answer)
	thread := []string{s.thread}
	grey := ""
	if claimed != "" {
		// The thread and the answer are the claimed sender's: nothing in
		// the mail points at who wrote it.
		c := claimedName(g, claimed)
		subject = fmt.Sprintf("[%s] Grey press, said to be from %s (unverified)", g.Name, c)
		text = fmt.Sprintf("Grey press to %s (%s). It says it comes from %s, but I do not vouch for that: in this game any player may send press in another's name. Press that %s really sent has the subject \"Press from %s\".\n\n%s\n\nReply with PRESS TO %s … ENDPRESS to answer %s (who may not have written it).",
			to, g.PhaseTitle, c, c, c, body, pressAnswer(g, claimed), c)
		thread, grey = []string{strings.ToLower(claimed)}, c
	}
	thread = append(thread, r.powers...)
	for _, o := range r.observers {
		thread = append(thread, observerThread(o.Address))
	}
	if r.gm {
		thread = append(thread, "gm")
	}
	refs := []string{mc.d.pressThread(g, thread)}
	n := 0
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left || !slices.Contains(r.powers, p.Power) || p.Address == mc.sender {
			continue
		}
		if err := mc.d.send(mc.tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: text, ReplyToken: p.Token,
			References: refs, Game: g.Name, Phase: g.PhaseID, Grey: grey}); err != nil {
			return 0, err
		}
		n++
	}
	for _, o := range r.observers {
		if err := mc.d.send(mc.tx, &Outgoing{To: []string{o.Address}, Subject: subject, Text: text, ReplyToken: o.Token,
			References: refs, Game: g.Name, Phase: g.PhaseID, Grey: grey}); err != nil {
			return 0, err
		}
		n++
	}
	if r.gm {
		gms := g.GM
		if len(gms) == 0 {
			gms = mc.d.opt.GM
		}
		who := mc.sender
		if mc.player != nil {
			who = fmt.Sprintf("%s, %s diplomat of %s", mc.sender, rankName(mc.player), powerName(g, mc.player.Power))
		}
		gmText := fmt.Sprintf("Press to the GM from %s, by %s (%s):\n\n%s\n\nTo answer, reply with PRESS TO %s … ENDPRESS (only they get it), or with any GM command for %s.",
			s.label, who, g.PhaseTitle, body, s.answer, g.Name)
		if to != "the GM" {
			gmText = fmt.Sprintf("Press to %s from %s, by %s (%s):\n\n%s\n\nTo answer, reply with PRESS TO %s … ENDPRESS (only they get it), or with any GM command for %s.",
				to, s.label, who, g.PhaseTitle, body, s.answer, g.Name)
		}
		if err := mc.d.send(mc.tx, &Outgoing{To: gms, Subject: fmt.Sprintf("[%s] Press to the GM from %s", g.Name, s.label), Text: gmText,
			ReplyToken: g.GMToken, References: refs, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return 0, err
		}
		n += len(gms)
	}
	return n, nil
}

// pressAnswer is how to write the claimed sender of grey press as a
// recipient.
func pressAnswer(g *store.Game, claimed string) string {
	if claimed == "GM" {
		return "GM"
	}
	return powerName(g, claimed)
}

// rankName says whether a diplomat is its power's senior or a junior.
func rankName(p *store.Player) string {
	if p.Rank == 0 {
		return "the senior"
	}
	return "a junior"
}

func cmdBroadcast(mc *mailCtx, cmd *orders.Command) error {
	s, why := mc.pressSender("BROADCAST")
	if why == "" {
		why = mc.observersMuted("BROADCAST", s)
	}
	if why != "" {
		mc.say("%s", why)
		return nil
	}
	if ok, why := mc.pressAllowed(store.PressBroadcast); !ok {
		mc.say("BROADCAST not sent: %s.", why)
		return nil
	}
	body := pressBody(cmd)
	if body == "" {
		mc.say("BROADCAST not sent: it has no text. Write BROADCAST, then your message, then ENDPRESS.")
		return nil
	}
	claimed, why := mc.greyClaim(cmd, s, false)
	if why != "" {
		mc.say("BROADCAST not sent: %s.", why)
		return nil
	}
	g := mc.game
	if err := mc.tx.AddPress(g.Name, store.Press{Time: mc.now.UTC(), PhaseID: g.PhaseID, Kind: store.PressBroadcast, From: s.from,
		Observer: s.observer, As: claimed, Body: body}); err != nil {
		return err
	}
	// A power's or the GM's broadcast reads as it always has ("Broadcast
	// from GM"): mail filters may sort by it.
	subject := fmt.Sprintf("[%s] Broadcast from %s", g.Name, powerName(g, s.from))
	text := fmt.Sprintf("Broadcast from %s (%s):\n\n%s\n", powerName(g, s.from), g.PhaseTitle, body)
	grey := ""
	switch {
	case claimed != "":
		c := claimedName(g, claimed)
		subject = fmt.Sprintf("[%s] Grey broadcast, said to be from %s (unverified)", g.Name, c)
		text = fmt.Sprintf("Grey broadcast (%s). It says it comes from %s, but I do not vouch for that: in this game any player may send press in another's name. A broadcast %s really sent has the subject \"Broadcast from %s\".\n\n%s\n", g.PhaseTitle, c, c, c, body)
		grey = c
		mc.say("Grey broadcast sent to every player and observer of %s, said to be from %s and marked as unverified. Nobody is told it was you (the GM's copy does not say either).", g.Name, c)
	case s.observer:
		subject = fmt.Sprintf("[%s] Comment from observer %s", g.Name, s.from)
		text = fmt.Sprintf("Comment from %s, an observer of %s (not a player) (%s):\n\n%s\n\nTo answer them alone: PRESS TO %s … ENDPRESS.\n", s.from, g.Name, g.PhaseTitle, body, s.from)
		mc.say("Your comment was sent to every player and observer of %s, signed with your address.", g.Name)
	default:
		mc.say("Broadcast sent to every player and observer of %s.", g.Name)
	}
	return mc.d.publishGrey(mc.tx, g, subject, text, map[string]bool{mc.sender: !mc.gm}, mc.d.pressThread(g, nil), grey)
}

func cmdPSA(mc *mailCtx, cmd *orders.Command) error {
	if ok, why := mc.pressAllowed(store.PressPSA); !ok {
		mc.say("PSA not sent: %s.", why)
		return nil
	}
	body := pressBody(cmd)
	if body == "" {
		mc.say("PSA not sent: it has no text. Write PSA, then your announcement, then ENDPRESS.")
		return nil
	}
	g := mc.game
	if err := mc.tx.AddPress(g.Name, store.Press{Time: mc.now.UTC(), PhaseID: g.PhaseID, Kind: store.PressPSA, Body: body}); err != nil {
		return err
	}
	mc.say("Your anonymous announcement was sent to every player and observer of %s. Nobody is told who sent it (not even in the GM's copy).", g.Name)
	return mc.d.publishThread(mc.tx, g, fmt.Sprintf("[%s] Anonymous announcement", g.Name),
		fmt.Sprintf("Anonymous public announcement (%s):\n\n%s\n", g.PhaseTitle, body), nil, mc.d.pressThread(g, nil))
}

// publishGrey is publishThread with every mail marked as grey press
// claiming grey (Outgoing.Grey: VERIFY says so) when grey is not "".
func (d *Daemon) publishGrey(tx *txn, g *store.Game, subject, text string, skip map[string]bool, thread, grey string) error {
	n := len(tx.mails)
	if err := d.publishThread(tx, g, subject, text, skip, thread); err != nil {
		return err
	}
	for _, m := range tx.mails[n:] {
		m.Grey = grey
	}
	return nil
}

// pressThread names the thread a game's press between some powers belongs
// to (nil powers: the public thread), so mail clients show each
// conversation as one thread. The root is never sent; clients thread by
// References anyway.
func (d *Daemon) pressThread(g *store.Game, powers []string) string {
	if len(powers) == 0 {
		return fmt.Sprintf("press.%s.public@%s", g.Name, d.domain)
	}
	ps := slices.Sorted(slices.Values(powers))
	return fmt.Sprintf("press.%s.%s@%s", g.Name, strings.Join(dedupe(ps), "-"), d.domain)
}
