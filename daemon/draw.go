package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// Endings by agreement: a secret vote of the surviving powers, for this
// phase. Every game offers the draw of every survivor (DRAW YES); a game
// whose engine declares them (Info.Agreements) offers smaller draws named
// in the vote (DRAW Rome Greece) and conceding the game to one power
// (CONCEDE Rome), as njudge's SET DRAW <powers> / SET CONCEDE and DPjudge's
// votes do. A power has one vote at a time: a new one replaces it, DRAW NO
// withdraws it. An ending passes when every surviving power's vote is for
// that same ending; until then nobody learns how anyone voted. The words
// of the result (what a draw or a concession is called) are the engine's
// (adjudicator.Agreer).

func cmdDraw(mc *mailCtx, cmd *orders.Command) error {
	if len(cmd.Powers) > 0 {
		return mc.propose(adjudicator.AgreeNamed, cmd.Powers)
	}
	g := mc.game
	if !mc.mayVote("DRAW") {
		return nil
	}
	me := mc.player.Power
	yes := strings.EqualFold(cmd.Arg, "yes")
	if g.DrawVotes == nil {
		g.DrawVotes = map[string]bool{}
	}
	g.DrawVotes[me] = yes
	delete(g.Proposals, me)
	if !yes {
		mc.say("Your vote for %s: no draw, and no other ending. (Votes are secret until an ending passes.)", powerName(g, me))
		return nil
	}
	mc.say("Your vote for %s: DRAW YES, a draw of every surviving power, for %s. (Votes are secret until an ending passes; they last for this phase only.)", powerName(g, me), g.PhaseTitle)
	for _, p := range g.Alive {
		if !g.DrawVotes[p] {
			return nil
		}
	}
	return mc.agreed(adjudicator.AgreeDraw, g.Alive, "Every surviving power voted for a draw.")
}

func cmdConcede(mc *mailCtx, cmd *orders.Command) error {
	return mc.propose(adjudicator.AgreeConcede, []string{cmd.Power})
}

// mayVote checks that the sender's power may vote on how the game ends.
func (mc *mailCtx) mayVote(verb string) bool {
	g := mc.game
	if g.Status != store.Active {
		mc.say("%s: the game is not running.", verb)
		return false
	}
	if !isAlive(g, mc.player.Power) {
		mc.say("%s: only the surviving powers vote on how %s ends, and %s has no units or centres left.", verb, g.Name, powerName(g, mc.player.Power))
		return false
	}
	return true
}

// offers tells whether e lets the survivors agree on an ending of kind.
func offers(e adjudicator.Engine, kind adjudicator.Agreement) bool {
	_, ok := e.(adjudicator.Agreer)
	return ok && slices.Contains(e.Info().Agreements, kind)
}

// propose records the sender's vote for a smaller draw or a concession
// and ends the game when every survivor has voted for the same.
func (mc *mailCtx) propose(kind adjudicator.Agreement, powers []string) error {
	g := mc.game
	verb := "DRAW " + strings.Join(powers, " ")
	if kind == adjudicator.AgreeConcede {
		verb = "CONCEDE"
	}
	if !offers(mc.engine, kind) {
		if kind == adjudicator.AgreeNamed {
			mc.say("%s: in %s the players cannot agree on a draw of some of the survivors; DRAW YES votes for a draw of every surviving power.", verb, mc.engine.Info().Title)
		} else {
			mc.say("%s: in %s a game is not conceded by vote.", verb, mc.engine.Info().Title)
		}
		return nil
	}
	if !mc.mayVote(verb) {
		return nil
	}
	var named []string
	for _, p := range powers {
		pw, ok := matchPower(mc.engine, p)
		if !ok || !isAlive(g, pw) {
			mc.say("%s: %s is not a surviving power of %s (surviving: %s). Your vote is unchanged.", verb, p, g.Name, survivorNames(g))
			return nil
		}
		if !slices.Contains(named, pw) {
			named = append(named, pw)
		}
	}
	slices.Sort(named)
	if kind == adjudicator.AgreeNamed {
		switch {
		case len(named) == len(g.Alive):
			return cmdDraw(mc, &orders.Command{Verb: orders.VerbDraw, Arg: "YES"}) // all of them: the draw of every survivor
		case len(named) < 2:
			mc.say("%s: a draw is shared by two or more powers; to give the game to one, vote CONCEDE %s. Your vote is unchanged.", verb, powerName(g, named[0]))
			return nil
		}
	}
	me := mc.player.Power
	key := string(kind) + " " + strings.Join(named, " ")
	delete(g.DrawVotes, me)
	if g.Proposals == nil {
		g.Proposals = map[string]string{}
	}
	g.Proposals[me] = key
	mc.say("Your vote for %s: %s, for %s. It passes when every surviving power votes for the same; a new vote replaces this one, DRAW NO withdraws it. (Votes are secret until an ending passes; they last for this phase only.)",
		powerName(g, me), endingName(g, kind, named), g.PhaseTitle)
	for _, p := range g.Alive {
		if g.Proposals[p] != key {
			return nil
		}
	}
	return mc.agreed(kind, named, fmt.Sprintf("Every surviving power voted for %s.", endingName(g, kind, named)))
}

// endingName says an ending in the daemon's words for a vote's answer.
func endingName(g *store.Game, kind adjudicator.Agreement, powers []string) string {
	names := make([]string, len(powers))
	for i, p := range powers {
		names[i] = powerName(g, p)
	}
	if kind == adjudicator.AgreeConcede {
		return "conceding the game to " + names[0]
	}
	return "a draw shared by " + adjudicator.List(names)
}

func survivorNames(g *store.Game) string {
	names := make([]string, len(g.Alive))
	for i, p := range g.Alive {
		names[i] = powerName(g, p)
	}
	return strings.Join(names, ", ")
}

// agreed ends the game as the survivors voted, in the engine's words when
// it has them.
func (mc *mailCtx) agreed(kind adjudicator.Agreement, powers []string, why string) error {
	res := adjudicator.Result{Kind: "draw", Winners: powers}
	if a, ok := mc.engine.(adjudicator.Agreer); ok && mc.state != nil {
		r, err := a.Agreed(mc.state, kind, powers)
		if err != nil {
			return fmt.Errorf("agreed ending %s %v: %w", kind, powers, err)
		}
		res = r
	}
	if err := mc.audit("agreed", string(kind)+": "+strings.Join(powers, ", ")); err != nil {
		return err
	}
	return mc.d.endGame(mc.tx, mc.game, res, why, nil)
}
