package daemon

import (
	"fmt"
	"strings"

	"pbemd/adjudicator"
)

// helpText is the answer to HELP: what this sender can do, with examples
// that work.
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
			b.WriteString(combine + "Your reply lists your standing orders and anything I could not read.\n\n")
		}
	}
	b.WriteString(`Commands (one per line, any case):
  LIST                         the games here; LIST <game> for one
  JOIN <game> prefer A > B > C  sign up, ranking the powers you want
  JOIN <game> as junior of <power>   once it runs: asks that power's senior
  OBSERVE <game> / UNOBSERVE   follow a game's results and public press
  STATUS                       the phase, deadline and who has sent orders
  HISTORY [phase]              earlier results (and public press)
  RULES                        the game's rules and house rules
  PRESS TO <power>, <power>    private press: your text on the next lines,
  ...                          ended by ENDPRESS
  ENDPRESS
  BROADCAST ... ENDPRESS       public press, signed with your power
  PSA ... ENDPRESS             anonymous public announcement
  DRAW YES / DRAW NO           secret draw vote, for this phase
  PACE FAST / PACE SLOW        vote on the game's pace
  READY                        you are done for this phase
  LOCK JUNIORS [ALWAYS|OFF]    (senior diplomat) your orders override your juniors'
  ACCEPT <address> / REFUSE <address> [note]   (senior diplomat) answer a request
                               to join your power (or reply ACCEPT to the request)
  RELEASE <address>            (senior diplomat) a junior leaves your power
  SET ZONE Europe/Paris        show deadlines in your time zone too
  VERIFY <code>                check that a mail really came from me
  RESIGN                       leave the game
  SIGNON <power> <game> <password>  first line of a mail not sent as a reply

Reply to a mail I sent you: its reply address proves who you are.
The latest orders of any diplomat of your power stand (the senior may LOCK
JUNIORS). Orders the GM sets (SET ORDERS) count as your power's own: your
next mail changes them as it would change yours. RULES says more.
`)
	if mc.gm || mc.siteGM {
		b.WriteString(`
GM commands (reply to a GM mail, or SIGNON GM <game> <password>):
  CREATE <game> <variant> [pace=slow|fast press=all|white|none psa=on|off preview=on|off early=on|off prize=on|off
         turn_time=6h (turns and steps of sequential games) seed=N; other keys go to the game]
  START  PROCESS  PAUSE <reason>  RESUME  DEADLINE 2026-12-24 21:00  EXTEND 24h
         (durations from a minute to 90 days; deadlines within a year)
  ROLLBACK  PREVIEW ON|OFF  PUBLISH  SET ORDERS <power> (orders follow, ENDORDERS;
         they count as the power's own: its later mail changes them)
  REPLACE <power> WITH <address>  PROMOTE <address>  EJECT <power>|<address>
  ACCEPT / REFUSE <address>  (requests to join a power that has no senior)
  END DRAW  END SOLO <power>  BROADCAST ... ENDPRESS  RULES (text) ENDRULES
  SET <option>=<value>  SILENT (first line: do not announce this mail's changes)
`)
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
	}
	return examples, combine
}
