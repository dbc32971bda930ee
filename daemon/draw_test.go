package daemon_test

import (
	"slices"
	"testing"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// Issue 16 item 5: a smaller draw proposed by name. Each surviving power's
// vote is secret (its reply only, nobody else hears of it) until every
// survivor has voted for the same draw; a vote for another draw holds it
// up; a new vote replaces the old one. The result's words are the engine's.
func TestSmallerDrawByName(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("d1", "standard", "")
	pl := tb.SignUp("d1", standardPowers)
	for _, p := range standardPowers[:6] {
		tb.As(pl[p], "DRAW England France")
		ms := tb.Outbox()
		daemontest.Contains(t, reply(t, ms, p+"@example.test").Text, "a draw shared by England and France, for Spring 1901 Movement. It passes when every surviving power votes for the same")
		if len(ms) != 1 {
			t.Fatalf("a vote is secret: %d mails went out for %s's", len(ms), p)
		}
	}
	turkey := pl["turkey"]
	tb.As(turkey, "DRAW England France Turkey")
	daemontest.Contains(t, reply(t, tb.Outbox(), turkey.Addr).Text, "a draw shared by England, France and Turkey")
	if g := tb.Game("d1"); g.Status != store.Active {
		t.Fatalf("a vote for another draw ended the game: %s", g.Status)
	}
	tb.As(turkey, "DRAW France, England")
	ms := tb.Outbox()
	over := daemontest.One(t, ms, "austria@example.test", "Game over")
	daemontest.Contains(t, over.Text, "d1 is over. The surviving powers agreed on a draw shared by England and France; the other survivors lose.",
		"Every surviving power voted for a draw shared by England and France.")
	g := tb.Game("d1")
	if g.Status != store.Finished || g.EndedAs != "draw" || !slices.Equal(g.Winners, []string{"england", "france"}) {
		t.Errorf("game after the draw: %s %s %v", g.Status, g.EndedAs, g.Winners)
	}
}

// A vote names surviving powers only; a draw names two or more (one is a
// concession); naming every survivor is the draw of all (DRAW YES).
func TestDrawByNameIsChecked(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("d2", "standard", "")
	pl := tb.SignUp("d2", standardPowers)
	aus := pl["austria"]
	tb.As(aus, "DRAW England")
	daemontest.Contains(t, reply(t, tb.Outbox(), aus.Addr).Text, "a draw is shared by two or more powers; to give the game to one, vote CONCEDE England. Your vote is unchanged.")
	tb.As(aus, "DRAW Austria England France Germany Italy Russia Turkey")
	daemontest.Contains(t, reply(t, tb.Outbox(), aus.Addr).Text, "Your vote for Austria: DRAW YES, a draw of every surviving power")
	if g := tb.Game("d2"); !g.DrawVotes["austria"] || g.Proposals["austria"] != "" {
		t.Errorf("votes: draw %v proposals %v", g.DrawVotes, g.Proposals)
	}
	tb.As(aus, "DRAW NO")
	daemontest.Contains(t, reply(t, tb.Outbox(), aus.Addr).Text, "no draw, and no other ending")
}

// A concession: every survivor votes CONCEDE Russia; Russia wins, and with
// the prize on the prize goes to Russia's senior diplomat.
func TestConcession(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("c1", "standard", "prize=on")
	pl := tb.SignUp("c1", standardPowers)
	for _, p := range standardPowers {
		tb.As(pl[p], "CONCEDE Russia")
	}
	ms := tb.Outbox()
	for _, p := range standardPowers { // every player is told, not only the last voter
		daemontest.Contains(t, daemontest.One(t, ms, pl[p].Addr, "Game over").Text, "conceded the game to Russia")
	}
	over := daemontest.One(t, ms, "england@example.test", "Game over")
	daemontest.Contains(t, over.Text, "c1 is over. The surviving powers conceded the game to Russia, which wins.",
		"Every surviving power voted for conceding the game to Russia.",
		"The game's prize goes to the senior diplomat of Russia.")
	if g := tb.Game("c1"); g.EndedAs != "concession" || !slices.Equal(g.Winners, []string{"russia"}) {
		t.Errorf("game after the concession: %s %v", g.EndedAs, g.Winners)
	}
}
