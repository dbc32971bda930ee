package daemon_test

import (
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
)

// Issue 34 item 3: two finished games (England's solo, then a draw of
// England and France) rate their players; RATINGS lists the best first
// with shortened addresses and the asker's own; a stranger is a newcomer;
// min_rating bars a player rated below it from joining; the GM deciding
// on an open seat sees the candidate's rating beside the record.
func TestRatingsAcrossGames(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("r1", "standard", "")
	tb.SignUp("r1", standardPowers)
	tb.Send(daemontest.GM, gm, "END SOLO England")
	tb.Outbox()
	tb.Create("r2", "standard", "")
	pl := tb.SignUp("r2", standardPowers)
	for _, p := range standardPowers {
		tb.As(pl[p], "DRAW England France")
	}
	tb.Outbox()

	tb.As(pl["england"], "RATINGS")
	text := reply(t, tb.Outbox(), pl["england"].Addr).Text
	daemontest.Contains(t, text, "Ratings on this game master (Glicko-2", "   1. en…@example.test", "(2 rated games)", "Your rating: ", "place 1 of 7.")
	daemontest.Lacks(t, text, "england@example.test", "austria@example.test")
	if i, j := strings.Index(text, "fr…@"), strings.Index(text, "au…@"); i < 0 || j < 0 || i > j {
		t.Errorf("France (a draw and a loss) should rank above Austria (two losses):\n%s", text)
	}
	tb.Send("someone@else.test", "", "RATINGS")
	daemontest.Contains(t, reply(t, tb.Outbox(), "someone@else.test").Text, "Your rating: 1500 (new: no rated game yet).")

	tb.Create("r3", "standard", "min_rating=1500 seats=approve")
	tb.Send("austria@example.test", "", "JOIN r3")
	daemontest.Contains(t, reply(t, tb.Outbox(), "austria@example.test").Text, "r3 takes players rated 1500 or more on this game master; your rating: 1390 ± 251 (2 rated games)", "You were not signed up.")
	tb.Send("england@example.test", "", "JOIN r3")
	daemontest.Lacks(t, reply(t, tb.Outbox(), "england@example.test").Text, "You were not signed up")
}

// The GM deciding on a seat request reads the candidate's rating.
func TestSeatRequestShowsTheRating(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("r4", "standard", "seats=approve")
	tb.SignUp("r4", standardPowers)
	tb.Send(daemontest.GM, gm, "EJECT Austria")
	tb.Outbox()
	tb.Send("newcomer@example.test", "", "JOIN r4 as Austria")
	ms := tb.Outbox()
	for _, m := range ms {
		if m.To == daemontest.GM {
			daemontest.Contains(t, m.Text, "Their record on this game master:", "Their rating: 1500 (new: no rated game yet).")
			return
		}
	}
	t.Fatalf("the GM got no mail about the seat request: %d mails", len(ms))
}

// ROLLBACK of a finished game's last phase takes its end back: its
// scores and its place in the ratings go, until it ends again.
func TestRollbackTakesTheEndBack(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("r5", "standard", "scoring=dss")
	pl := tb.SignUp("r5", standardPowers)
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END DRAW")
	tb.Outbox()
	if g := tb.Game("r5"); len(g.Scores) != 7 {
		t.Fatalf("scores after the draw: %v", g.Scores)
	}
	tb.As(pl["england"], "RATINGS")
	daemontest.Contains(t, reply(t, tb.Outbox(), pl["england"].Addr).Text, "(1 rated game)")
	tb.Send(daemontest.GM, gm, "ROLLBACK")
	tb.Outbox()
	if g := tb.Game("r5"); g.Status != "active" || g.Scores != nil {
		t.Fatalf("after ROLLBACK: %s, scores %v", g.Status, g.Scores)
	}
	tb.As(pl["england"], "RATINGS")
	daemontest.Contains(t, reply(t, tb.Outbox(), pl["england"].Addr).Text, "Your rating: 1500 (new: no rated game yet).")
}
