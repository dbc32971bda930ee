package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/store"
)

// playRules is RULES' part on who plays a game and how it ends by
// agreement, as this game's options and engine make them.
func playRules(g *store.Game, e adjudicator.Engine) string {
	var b strings.Builder
	b.WriteString("Who plays, and how a game ends by agreement (this game master's rules):\n")
	b.WriteString("- Endings are voted in secret, for the open phase: DRAW YES is a draw of every\n  surviving power")
	switch {
	case offers(e, adjudicator.AgreeNamed) && offers(e, adjudicator.AgreeConcede):
		b.WriteString("; DRAW <powers> a draw shared by the powers named (the\n  other survivors lose); CONCEDE <power> concedes the game to that power")
	case offers(e, adjudicator.AgreeNamed):
		b.WriteString("; DRAW <powers> a draw shared by the powers named")
	case offers(e, adjudicator.AgreeConcede):
		b.WriteString("; CONCEDE <power> concedes the game to that power")
	}
	b.WriteString(".\n  Each surviving power has one vote (a new one replaces it, DRAW NO withdraws\n  it); an ending passes when every surviving power votes for the same one.\n  Nobody learns a vote before that.\n")
	b.WriteString("- A surviving power nobody plays (its player resigned or was removed) is an\n  open seat: LIST shows it, JOIN <game> as <power> takes it over")
	switch g.Options.Seats {
	case store.SeatsOpen:
		b.WriteString(" (in this game\n  at once: the first to ask)")
	case store.SeatsClosed:
		b.WriteString(" (in this game\n  only the GM fills seats, with REPLACE)")
	default:
		b.WriteString(" when the GM\n  approves")
	}
	b.WriteString("; the new player gets the position and the last results.\n")
	if e.Info().Diplomats {
		b.WriteString("- A player whose power was eliminated may serve a surviving power (JOIN\n  <game> as junior of <power>, or an open seat), but still counts as having\n  lost: the game-over mail says so, and they share no prize and no first pick.\n")
	}
	b.WriteString("- Each player has a record on this game master: each phase in which their\n  power owed orders counts for its senior diplomat as ordered on time (it had\n  orders at the deadline), late (they came after it, as the results say) or\n  missed (none); games finished, resigned and left by the GM's EJECT count\n  too. STATUS shows you yours; the GM sees\n  every sign-up's.\n")
	if g.Options.MinOnTime > 0 {
		fmt.Fprintf(&b, "  To join %s a record must show at least %d%% of its phases ordered on time\n  (a newcomer's empty record may join).\n", g.Name, g.Options.MinOnTime)
	}
	if len(g.Options.FirstPick) > 0 {
		who := strings.Join(g.Options.FirstPick, ", ")
		if who == store.FirstPickPrevious {
			who = "the senior diplomats of the powers that won the last game here, and its GM"
		}
		fmt.Fprintf(&b, "- First pick: %s choose their power before the others (their first\n  choice that no earlier first picker took).\n", who)
	}
	if g.Options.DrawPrize && e.Info().Diplomats {
		b.WriteString("- The prize of a power that won goes to its senior diplomat; if it had several,\n  to the one who was its senior the longest (all their time as senior added\n  up; a tie goes to the senior at the end).\n")
	}
	return b.String()
}

// playOptions says a game's options on who plays (SET's answer).
func playOptions(o store.GameOptions) string {
	seats := "the GM approves who takes over an open seat"
	switch o.Seats {
	case store.SeatsOpen:
		seats = "the first to ask takes over an open seat"
	case store.SeatsClosed:
		seats = "only the GM fills open seats"
	}
	record := "no minimum record to join"
	if o.MinOnTime > 0 {
		record = fmt.Sprintf("players join with at least %d%% of their phases ordered on time", o.MinOnTime)
	}
	pick := "no first pick"
	switch {
	case slices.Equal(o.FirstPick, []string{store.FirstPickPrevious}):
		pick = "first pick for the last game's winners' seniors and its GM"
	case len(o.FirstPick) > 0:
		pick = "first pick for " + strings.Join(o.FirstPick, ", ")
	}
	web := o.Web
	if web == "" {
		web = "the site's default"
	}
	scoring := o.Scoring
	if scoring == "" {
		scoring = "off"
	}
	return fmt.Sprintf("Seats: %s (seats=%s); %s (min_ontime=%d); %s (first_pick).\nAlso: min_rating=%d, scoring=%s, autopilot=%s, web=%s.",
		seats, seatsWord(o.Seats), record, o.MinOnTime, pick, o.MinRating, scoring, onOff(o.Autopilot), web)
}

func seatsWord(s store.Seats) string {
	if s == store.SeatsApprove {
		return "approve"
	}
	return string(s)
}
