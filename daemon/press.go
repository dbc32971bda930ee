package daemon

import (
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

func cmdPress(mc *mailCtx, cmd *orders.Command) error {
	if ok, why := mc.pressAllowed(store.PressPrivate); !ok {
		mc.say("PRESS not sent: %s.", why)
		return nil
	}
	body := pressBody(cmd)
	if body == "" {
		mc.say("PRESS not sent: it has no text. Write PRESS TO <power>, then your message, then ENDPRESS.")
		return nil
	}
	e := mc.engine
	var to []string
	for _, w := range cmd.Powers {
		p, ok := matchPower(e, w)
		if !ok {
			mc.say("PRESS not sent: %q is not a power of this game (powers: %s).", w, strings.Join(powerNames(e), ", "))
			return nil
		}
		if !slices.Contains(to, p) {
			to = append(to, p)
		}
	}
	if len(to) == 0 {
		mc.say("PRESS not sent: name the recipients, e.g. PRESS TO France, Italy.")
		return nil
	}
	from := mc.player.Power
	names := make([]string, len(to))
	for i, p := range to {
		names[i] = powerName(mc.game, p)
	}
	g := mc.game
	subject := fmt.Sprintf("[%s] Press from %s", g.Name, powerName(g, from))
	text := fmt.Sprintf("Press from %s to %s (%s):\n\n%s\n\nReply with PRESS TO %s … ENDPRESS to answer.",
		powerName(g, from), strings.Join(names, ", "), g.PhaseTitle, body, powerName(g, from))
	n := 0
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left || !slices.Contains(to, p.Power) || p.Address == mc.sender {
			continue
		}
		if err := mc.d.send(mc.tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: text, ReplyToken: p.Token,
			References: []string{mc.d.pressThread(g, append([]string{from}, to...))}, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
		n++
	}
	if err := mc.tx.AddPress(g.Name, store.Press{Time: mc.now.UTC(), PhaseID: g.PhaseID, Kind: store.PressPrivate, From: from, To: to, Body: body}); err != nil {
		return err
	}
	mc.say("Press relayed to %s (%d diplomat%s).", strings.Join(names, ", "), n, plural(n))
	return nil
}

func cmdBroadcast(mc *mailCtx, cmd *orders.Command) error {
	if mc.player == nil && !mc.gm {
		mc.say("BROADCAST: observers cannot broadcast; an anonymous announcement (PSA … ENDPRESS) is open to you if the game allows it.")
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
	from := "GM"
	if !mc.gm {
		from = mc.player.Power
	}
	g := mc.game
	if err := mc.tx.AddPress(g.Name, store.Press{Time: mc.now.UTC(), PhaseID: g.PhaseID, Kind: store.PressBroadcast, From: from, Body: body}); err != nil {
		return err
	}
	mc.say("Broadcast sent to every player and observer of %s.", g.Name)
	return mc.d.publishThread(mc.tx, g, fmt.Sprintf("[%s] Broadcast from %s", g.Name, powerName(g, from)),
		fmt.Sprintf("Broadcast from %s (%s):\n\n%s\n", powerName(g, from), g.PhaseTitle, body), map[string]bool{mc.sender: !mc.gm}, mc.d.pressThread(g, nil))
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
