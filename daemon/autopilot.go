package daemon

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// The autopilot (issue 34): with autopilot=on, or after the GM's AUTOPILOT
// <power> ON, a power that sent no orders by the deadline is ordered by
// its engine (adjudicator.Autopilot: a steady, defensive play; a game whose
// engine has none refuses the option). The results say whose orders it gave; the
// reliability record counts the phase as missed; any mail of orders from
// the power's player takes back control.

func init() {
	createOptions["autopilot"] = boolOption(func(o *store.GameOptions) *bool { return &o.Autopilot })
}

// checkAutopilot refuses autopilot=on for a game whose engine has no
// steady play to give (adjudicator.Autopilot).
func checkAutopilot(o *store.GameOptions, e adjudicator.Engine) error {
	if _, ok := e.(adjudicator.Autopilot); o.Autopilot && !ok {
		return fmt.Errorf("option autopilot: %s has no autopilot (a power without orders is in civil disorder)", e.Info().Title)
	}
	return nil
}

// autopilotOn reports whether the autopilot orders for power in g when it
// sends nothing: the GM's word for the power, else the game's option.
func autopilotOn(g *store.Game, power string) bool {
	if on, ok := g.Autopilot[power]; ok {
		return on
	}
	return g.Options.Autopilot
}

// autopilot gives the orders of every waiting power of the job's game that
// sent none and is on autopilot: it adds them to j.ords and returns the
// powers, in the phase's order. Run where the phase is resolved (no store).
func (j *phaseJob) autopilot() ([]string, error) {
	var botted []string
	for _, p := range j.g.Waiting {
		if _, sent := j.ords[p]; sent || !autopilotOn(j.g, p) {
			continue
		}
		a, ok := j.e.(adjudicator.Autopilot)
		if !ok {
			return botted, nil // the engine has no steady play: civil disorder
		}
		text, err := a.AutopilotOrders(j.state, p, j.seed)
		if err != nil {
			return nil, fmt.Errorf("autopilot for %s: %w", p, err)
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		ck, err := j.e.Check(j.state, p, text)
		if err != nil {
			return nil, fmt.Errorf("autopilot for %s: %w", p, err)
		}
		if len(ck.Canonical) == 0 {
			continue
		}
		if j.ords == nil {
			j.ords = map[string][]string{}
		}
		j.ords[p] = ck.Canonical
		botted = append(botted, p)
	}
	return botted, nil
}

// playersOrders is ords without the autopilot's: what the players sent,
// for the reliability record.
func playersOrders(ords map[string][]string, botted []string) map[string][]string {
	if len(botted) == 0 {
		return ords
	}
	out := maps.Clone(ords)
	for _, p := range botted {
		delete(out, p)
	}
	return out
}

// autopilotNote is the results' line naming the powers the autopilot
// ordered for ("" when none).
func autopilotNote(g *store.Game, rec *store.PhaseRecord) string {
	if len(rec.Autopilot) == 0 {
		return ""
	}
	whose := "their"
	if len(rec.Autopilot) == 1 {
		whose = "its"
	}
	return fmt.Sprintf("\nAutopilot: %s sent no orders by the deadline; the autopilot gave %s orders (a steady, defensive play). Any mail of orders takes back control.\n",
		joinPowers(g, rec.Autopilot), whose)
}

// gmAutopilot is AUTOPILOT <power> ON|OFF.
func gmAutopilot(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	power, ok := matchPower(mc.engine, cmd.Power)
	if !ok {
		mc.say("AUTOPILOT refused: %q is not a power of %s.", cmd.Power, g.Name)
		return nil
	}
	pn := powerName(g, power)
	on := cmd.Arg == "ON"
	a, ok := mc.engine.(adjudicator.Autopilot)
	if on && !ok {
		mc.say("AUTOPILOT refused: %s has no autopilot; a power without orders is in civil disorder.", mc.engine.Info().Title)
		return nil
	}
	if g.Autopilot == nil {
		g.Autopilot = map[string]bool{}
	}
	g.Autopilot[power] = on
	if err := mc.audit("autopilot", power+" "+cmd.Arg); err != nil {
		return err
	}
	if on {
		mc.say("AUTOPILOT %s ON: when %s sends no orders by a deadline, the autopilot gives them (a steady, defensive play), and the results say so. Its player takes back control with any mail of orders.", pn, pn)
		return mc.d.tellPower(mc.tx, g, power, "The autopilot plays for you",
			fmt.Sprintf("The GM has put the autopilot on for %s in %s: when you send no orders by a deadline, the autopilot orders for you: it %s. Those phases still count as missed in your record. Send orders, as any mail of orders takes back control.", pn, g.Name, a.AutopilotPlay()))
	}
	mc.say("AUTOPILOT %s OFF: when %s sends no orders by a deadline, the game's rule for a power without orders applies (civil disorder), whatever the game's autopilot option says.", pn, pn)
	return nil
}

// takeBackControl ends the GM's AUTOPILOT ON for power when its player
// sends orders, and says so.
func (mc *mailCtx) takeBackControl(power string) {
	if !mc.game.Autopilot[power] {
		return
	}
	delete(mc.game.Autopilot, power)
	mc.say("You have taken back control of %s: the autopilot the GM put on for it is off.", powerName(mc.game, power))
}

// autopilotRules is what RULES says of the game's autopilot ("" when it
// is off for every power); what the autopilot does is the engine's word.
func autopilotRules(g *store.Game, e adjudicator.Engine) string {
	a, ok := e.(adjudicator.Autopilot)
	if !ok {
		return ""
	}
	var on []string
	for _, p := range slices.Sorted(maps.Keys(g.Autopilot)) {
		if g.Autopilot[p] {
			on = append(on, p)
		}
	}
	switch {
	case g.Options.Autopilot:
		return fmt.Sprintf("Autopilot: a power that sends no orders by a deadline is ordered by the autopilot: it %s. The results name the powers it ordered for, the phase counts as missed in the player's record, and any mail of orders takes back control.\n", a.AutopilotPlay())
	case len(on) > 0:
		return fmt.Sprintf("Autopilot: the GM has put the autopilot on for %s: when it sends no orders by a deadline, the autopilot orders for it: it %s.\n", joinPowers(g, on), a.AutopilotPlay())
	}
	return ""
}
