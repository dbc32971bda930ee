package daemon

import (
	"fmt"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// deferWhatIf says whether line l is a player's WHATIF (orders.VerbWhatIf:
// WHATIF, WHAT IF, or PREVIEW alone), which execute runs after the
// orders of the mail, as it previews them. A GM's bare PREVIEW is the
// GM's PREVIEW without its ON or OFF: the line is then a problem of the
// mail, as any command missing its argument.
func (mc *mailCtx) deferWhatIf(l *orders.Line) bool {
	if l.Kind != orders.CommandLine || l.Command == nil || l.Command.Verb != orders.VerbWhatIf {
		return false
	}
	if l.Command.Arg == "PREVIEW" && (mc.player == nil || mc.gm) {
		l.Kind, l.Command = orders.ErrorLine, nil
		l.Diags = []orders.Diagnostic{{Severity: orders.Error, Message: "write PREVIEW ON or PREVIEW OFF", Suggestion: "PREVIEW ON"}}
		return false
	}
	return true
}

// cmdWhatIf resolves a copy of the open phase with only the sender's
// power's standing orders (every other power sends none: its units hold)
// and replies with the engine's results for that power. Nothing is
// stored, and no other power's orders are read: the preview can tell a
// player nothing of what the others ordered.
func cmdWhatIf(mc *mailCtx, _ *orders.Command) error {
	g, power := mc.game, mc.player.Power
	switch {
	case g.Status != store.Active || mc.state == nil:
		mc.say("WHATIF: the game %s is not running.", g.Name)
		return nil
	case adjudicator.PhaseKind(g.PhaseKind) != adjudicator.PhaseOrders:
		mc.say("WHATIF: %s is not a movement phase; WHATIF previews movement orders.", g.PhaseTitle)
		return nil
	case g.Pending != nil:
		mc.say("WHATIF: the results of %s are with the GM before publication.", g.PhaseTitle)
		return nil
	}
	all, err := currentOrders(mc.tx.Tx, mc.engine, mc.state, g)
	if err != nil {
		return err
	}
	own := map[string][]string{}
	if lines, ok := all[power]; ok {
		own[power] = lines
	}
	// Seed 0, not the phase's: a preview must not show the luck of the
	// real adjudication (Diplomacy draws none).
	out, err := mc.engine.Resolve(mc.state, own, 0)
	if err != nil {
		return fmt.Errorf("whatif %s: %w", g.Name, err)
	}
	text := sectionOf(out.Report.Public, powerName(g, power))
	if text == "" {
		text = strings.TrimSpace(out.Report.Public)
	}
	mc.say("WHATIF for %s, %s: what your standing orders would do if every other unit held. This is not a result: nothing was stored, and the other powers' orders play no part in it.\n\n%s",
		powerName(g, power), g.PhaseTitle, text)
	return nil
}

// sectionOf is the part of a results text about one power: from the line
// that starts with its name and a colon to the next blank line ("" when
// there is none).
func sectionOf(text, name string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case !in && (l == name+":" || strings.HasPrefix(l, name+": ")):
			in = true
		case in && strings.TrimSpace(l) == "":
			return strings.TrimRight(b.String(), "\n")
		case !in:
			continue
		}
		b.WriteString(l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
