package daemon

import (
	"fmt"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// helpText is the answer to HELP: what this sender can do, with examples
// that work. Its lists of commands are commandTable's help lines, in the
// table's order: the commands the sender may use (mailCtx.refusal), and
// for a GM the GM's part (the GM's own commands and the GM's line of the
// commands players use too).
func helpText(mc *mailCtx) string {
	var b strings.Builder
	b.WriteString("pbemd game master — help\n\n")
	if mc.game != nil && mc.engine != nil {
		info := mc.engine.Info()
		fmt.Fprintf(&b, "Game %s: %s.\n\n", mc.game.Name, info.Title)
		examples, combine := mc.helpOrders(info)
		if len(examples) > 0 {
			b.WriteString("Orders (one per line; any case; full names or abbreviations):\n")
			for _, ex := range examples {
				fmt.Fprintf(&b, "  %s\n", ex)
			}
			b.WriteString(combine + "Your reply lists your standing orders and anything I could not read.\n" +
				"Each results mail opens with what the phase did to your power and what you\nowe next, by when; the full results follow.\n\n")
		}
	}
	b.WriteString("Commands (one per line, any case):\n")
	gmPart := mc.gm || mc.siteGM
	for i := range commandTable {
		c := &commandTable[i]
		if c.who >= gmOnly || mc.refusal(c) != "" || (gmPart && mc.player == nil && c.gm.use != "") {
			continue // the GM's line says it for a GM
		}
		if u, muted := mc.mutedObserverUsage(c.verb); muted {
			if u.use != "" {
				writeUsage(&b, u)
			}
			continue
		}
		writeUsage(&b, c.help)
	}
	if !gmPart || mc.player != nil {
		b.WriteString("\nReply to a mail I sent you: its reply address proves who you are.\n")
		if mc.game == nil || mc.d.diplomats(mc.game) {
			b.WriteString("The latest orders of any diplomat of your power stand (the senior may LOCK\nJUNIORS). Orders the GM sets (SET ORDERS) count as your power's own: your\nnext mail changes them as it would change yours. RULES says more.\n")
		} else {
			b.WriteString("Your latest orders stand. Orders the GM sets (SET ORDERS) count as your\npower's own: your next mail changes them as it would change yours. RULES\nsays more.\n")
		}
	}
	if gmPart {
		b.WriteString("\nGM commands (reply to a GM mail, or SIGNON GM <game> <password>):\n")
		for i := range commandTable {
			c := &commandTable[i]
			switch {
			case c.who == siteOnly && mc.siteGM, c.who == gmOnly:
				writeUsage(&b, c.help)
			case c.gm.use != "" && mc.lacking(c.needs) == "":
				writeUsage(&b, c.gm)
			}
		}
		if mc.game != nil && mc.helpAhead() != "" { // ahead.go, gmSetOrders
			b.WriteString("SET ORDERS may carry orders for later phases of the turn too, each group\nunder a PHASE line: they are held for the power as its diplomats' would be.\n")
		}
	}
	if mc.siteGM && mc.game == nil {
		// compiled in, and those of the map files read at start
		fmt.Fprintf(&b, "\nVariants for CREATE: %s.\n", strings.Join(adjudicator.Names(), ", "))
	}
	return b.String()
}

// helpOrders is the order part of HELP, as the engine declares it: the
// examples for the reader's power in the open phase (an Exampler's), else
// the game's; and how a mail of orders combines with the standing ones
// now ("" before the game runs).
func (mc *mailCtx) helpOrders(info adjudicator.Info) (examples []string, combine string) {
	examples = info.Examples
	if mc.state == nil {
		return examples, ""
	}
	if ex, ok := mc.engine.(adjudicator.Exampler); ok && mc.player != nil && mc.player.Power != "" {
		if own := ex.Examples(mc.state, mc.player.Power); len(own) > 0 {
			examples = own
		}
	}
	ps, err := mc.engine.Status(mc.state)
	if err != nil || ps.Over {
		return examples, ""
	}
	text := ps.CombineText
	if text == "" {
		text = ps.Combine.Sentence()
	}
	combine = fmt.Sprintf("Now, in %s: %s.\n", ps.Title, text)
	if ps.EndsTurn {
		combine += "Orders from a player the phase waits for end it when they arrive.\n"
		if _, ok := mc.engine.(adjudicator.Offerer); ok { // offers.go
			combine += "An offer to another player holds the phase until it is answered (or the deadline):\nits receiver is mailed it at once, with the orders that accept or refuse it.\n"
		}
	}
	combine += mc.helpAhead() // ahead.go
	return examples, combine
}

// usageColumn is where HELP writes what a command does.
const usageColumn = 31

// writeUsage writes one command of HELP: how to write it and, from
// usageColumn on, what it does (each further line of it indented there).
func writeUsage(b *strings.Builder, u usage) {
	line := "  " + u.use
	if len(line) < usageColumn-1 {
		line += strings.Repeat(" ", usageColumn-len(line))
	} else {
		line += "  "
	}
	for i, does := range strings.Split(u.does, "\n") {
		if i > 0 {
			line = strings.Repeat(" ", usageColumn)
		}
		b.WriteString(line + does + "\n")
	}
}

// mutedObserverUsage is the help line an observer of a game with
// observer_press=off gets for a press command instead of the players'
// (ok false for any other reader or command; a zero usage drops the
// line): they may write to the GM, and nothing else reaches the players
// but an anonymous announcement (press.go, observersMuted).
func (mc *mailCtx) mutedObserverUsage(v orders.Verb) (usage, bool) {
	if !mc.observer || mc.player != nil || mc.game == nil || mc.game.Options.ObserverPress {
		return usage{}, false
	}
	switch v {
	case orders.VerbPress:
		return usage{"PRESS TO GM", "write to the GM: your text on the next\nlines, ended by ENDPRESS (in this game\nobservers do not write to the players)"}, true
	case orders.VerbBroadcast:
		return usage{}, true
	}
	return usage{}, false
}
