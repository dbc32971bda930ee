package daemon_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// Issue 34 item 2: a Diplomacy game created with scoring=sos ends in a
// draw of every survivor at the start (Russia holds 4 centres, the six
// others 3 each: Σc² = 70). Every player's end mail gives each power's
// score and the system in one line; STATUS and HISTORY of the finished game
// give them again.
func TestScoringSumOfSquaresAtTheEnd(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("s1", "standard", "scoring=squares")
	pl := tb.SignUp("s1", standardPowers)
	for _, p := range standardPowers {
		tb.As(pl[p], "DRAW YES")
	}
	ms := tb.Outbox()
	for _, p := range standardPowers {
		over := daemontest.One(t, ms, pl[p].Addr, "Game over")
		daemontest.Contains(t, over.Text,
			"Scores (sum-of-squares: a solo scores 100; otherwise each power scores 100 × its centres² ÷ the sum of every power's centres²):",
			"  Russia       22.86\n", "  Austria      12.86\n", "  Turkey       12.86\n")
	}
	if g := tb.Game("s1"); g.Scores["russia"] != 22.86 || g.Options.Scoring != "sos" {
		t.Errorf("record: scoring %q scores %v", g.Options.Scoring, g.Scores)
	}
	tb.As(pl["england"], "STATUS")
	daemontest.Contains(t, reply(t, tb.Outbox(), pl["england"].Addr).Text, "  Scores (sum-of-squares", "    Russia       22.86")
	tb.As(pl["england"], "HISTORY")
	daemontest.Contains(t, reply(t, tb.Outbox(), pl["england"].Addr).Text, "Scores (sum-of-squares", "  England      12.86")
}

// A draw of two named powers under draw-size scoring: 50 each, 0 to the
// survivors left out; a solo the GM declares under Tribute: 100 to the
// winner.
func TestScoringDrawSizeAndTribute(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("s2", "standard", "scoring=dss")
	pl := tb.SignUp("s2", standardPowers)
	for _, p := range standardPowers {
		tb.As(pl[p], "DRAW England France")
	}
	over := daemontest.One(t, tb.Outbox(), pl["turkey"].Addr, "Game over")
	daemontest.Contains(t, over.Text, "Scores (draw-size:", "  England      50\n", "  France       50\n", "  Turkey       0\n")

	gm := tb.Create("s3", "standard", "scoring=tribute")
	pl = tb.SignUp("s3", standardPowers)
	tb.Send(daemontest.GM, gm, "END SOLO Italy")
	over = daemontest.One(t, tb.Outbox(), pl["italy"].Addr, "Game over")
	daemontest.Contains(t, over.Text, "Scores (Tribute:", "  Italy        100\n", "  Austria      0\n")
}

// scoring= is checked at CREATE against what the engine knows and fixed once the game has started.
func TestScoringIsChecked(t *testing.T) {
	tb := daemontest.New(t)
	tb.Send(daemontest.GM, "", "SIGNON GM - "+daemontest.GMPassword+"\nCREATE x1 standard scoring=elo")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, `scoring "elo" is not known (known: dss, sos, ppsc, tribute)`, "Nothing was created")
	gm := tb.Create("x3", "standard", "scoring=ppsc")
	tb.SignUp("x3", standardPowers)
	tb.Send(daemontest.GM, gm, "SET scoring=sos")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "a game's scoring is fixed once it has started")
	if g := tb.Game("x3"); g.Options.Scoring != "ppsc" {
		t.Errorf("scoring after a refused SET: %q", g.Options.Scoring)
	}
}
