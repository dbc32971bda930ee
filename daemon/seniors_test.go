package daemon_test

import (
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// Issue 15 item 4. The seed (diplomacy-ancient-mediterranean.txt, The
// Sign-up): "It is usual that the senior diplomat(s) of the Great
// Power(s) that won the previous game and its GM can choose a country to
// play before other players."
//
// Rome won am1. In am2 (first_pick=previous) Rome's senior asks for Greece
// first and Rome second, Greece's player for Greece only: the usual
// assignment would give each their cheapest fit (Greece to Greece's
// player, Rome to Rome's), but the previous winner picks first and gets
// Greece.
func TestFirstPickForThePreviousWinner(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("am1", "ancientmed", "")
	tb.SignUp("am1", ancmedPowers)
	tb.Send(daemontest.GM, gm, "END SOLO Rome")
	tb.Outbox()

	// signUp has Greece's player ask for Greece only, three others for
	// their own power, and last first (who may pick first) for Greece, then
	// second; it returns the power each got, and the mails.
	signUp := func(game, first, second string) (map[string]string, []daemontest.Mail) {
		t.Helper()
		tb.Send("greece@example.test", "", "JOIN "+game+" prefer Greece")
		for _, p := range ancmedPowers {
			if p != "greece" && p != second {
				tb.Send(p+"@example.test", "", "JOIN "+game+" prefer "+p)
			}
		}
		tb.Send(first, "", "JOIN "+game+" prefer Greece > "+second)
		ms := tb.Outbox()
		got := map[string]string{}
		for _, m := range ms {
			if p, ok := daemontest.PowerOf(m.Subject); ok {
				got[m.To] = p
			}
		}
		return got, ms
	}

	tb.Create("am0", "ancientmed", "")
	if got, _ := signUp("am0", "rome@example.test", "rome"); got["rome@example.test"] != "rome" || got["greece@example.test"] != "greece" {
		t.Fatalf("without a first pick each gets the best fit: %v", got)
	}

	tb.Create("am2", "ancientmed", "first_pick=previous")
	got, ms := signUp("am2", "rome@example.test", "rome")
	if got["rome@example.test"] != "greece" || got["greece@example.test"] != "rome" {
		t.Errorf("the previous winner's senior picks first: %v, want Greece for them and the power left, Rome, for Greece's player", got)
	}
	daemontest.Contains(t, daemontest.One(t, ms, "egypt@example.test", "has started").Text,
		"First pick (the winners' senior diplomats and the GM of am1): rome@example.test chose Greece.")

	// The GM may name the first pickers instead.
	tb.Create("am3", "ancientmed", "first_pick=persia@example.test")
	got, ms = signUp("am3", "persia@example.test", "persia")
	if got["persia@example.test"] != "greece" {
		t.Errorf("the first picker the GM named got %s, not Greece", got["persia@example.test"])
	}
	daemontest.Contains(t, daemontest.One(t, ms, "egypt@example.test", "has started").Text, "First pick (named by the GM): persia@example.test chose Greece.")
}

// Issue 15 item 5. The seed (The Sign-up): "Only the senior diplomat of
// the winning power will receive the actual game prize, however. In the
// event of a country winning that has had more than one senior diplomat,
// the one who has played for the longest amount of time will receive the
// prize."
//
// Rome's first senior serves 30 hours and resigns; the GM promotes the
// junior, who serves 3 days until Rome wins: the prize is the junior's.
// In a second game the first senior serves 4 days before the GM replaces
// them, and the replacement serves 1 day: the prize is the first one's,
// though they no longer play. In a third, two seniors serve 2 days each:
// the one who is senior at the end gets it.
func TestPrizeToTheLongestServingSenior(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("pz1", "ancientmed", "prize=on")
	pl := tb.SignUp("pz1", ancmedPowers)
	tb.Send("jr@example.test", "", "JOIN pz1 as junior of Rome")
	tb.As(pl["rome"], "ACCEPT jr@example.test")
	tb.Outbox()
	tb.Wait(30 * time.Hour)
	tb.As(pl["rome"], "RESIGN")
	tb.Send(daemontest.GM, gm, "PROMOTE jr@example.test")
	tb.Wait(72 * time.Hour)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END SOLO Rome")
	over := daemontest.One(t, tb.Outbox(), "jr@example.test", "Game over")
	daemontest.Contains(t, over.Text,
		"Rome had 2 senior diplomats. The game's prize goes to the one who served longest as its senior: jr@example.test (3 days).",
		"  jr@example.test: 3 days\n",
		"  rome@example.test: 30 hours\n")
	if g := tb.Game("pz1"); len(g.Seniors) != 6 {
		t.Errorf("seniority history: %+v, want a term for each of the 5 powers' first seniors and Rome's second", g.Seniors)
	}

	gm = tb.Create("pz2", "ancientmed", "prize=on")
	tb.SignUp("pz2", ancmedPowers)
	tb.Wait(96 * time.Hour)
	tb.Send(daemontest.GM, gm, "REPLACE Rome WITH late@example.test")
	tb.Wait(24 * time.Hour)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END SOLO Rome")
	over = daemontest.One(t, tb.Outbox(), "late@example.test", "Game over")
	daemontest.Contains(t, over.Text, "The game's prize goes to the one who served longest as its senior: rome@example.test (4 days).")

	// A tie goes to the senior at the end.
	gm = tb.Create("pz3", "ancientmed", "prize=on")
	tb.SignUp("pz3", ancmedPowers)
	tb.Wait(48 * time.Hour)
	tb.Send(daemontest.GM, gm, "REPLACE Rome WITH last@example.test")
	tb.Wait(48 * time.Hour)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END SOLO Rome")
	over = daemontest.One(t, tb.Outbox(), "last@example.test", "Game over")
	daemontest.Contains(t, over.Text, "The game's prize goes to the one who served longest as its senior: last@example.test (2 days).", "  rome@example.test: 2 days\n")
}

// RULES says, for the game it is asked about, how its seats are filled,
// what its record demands, who picks first and where the prize goes.
func TestRulesSayWhoPlaysAndHowItEnds(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ru1", "ancientmed", "seats=open min_ontime=75 first_pick=previous prize=on")
	pl := tb.SignUp("ru1", ancmedPowers)
	tb.As(pl["rome"], "RULES")
	daemontest.Contains(t, reply(t, tb.Outbox(), "rome@example.test").Text,
		"DRAW <powers> a draw shared by the powers named (the\n  other survivors lose); CONCEDE <power> concedes the game to that power.",
		"JOIN <game> as <power> takes it over (in this game\n  at once: the first to ask)",
		"To join ru1 a record must show at least 75% of its phases ordered on time",
		"- First pick: the senior diplomats of the powers that won the last game here, and its GM choose their power",
		"if it had several,\n  to the one who was its senior the longest")
}

// The GM sets the options on who plays before the start (SET), and the
// answer says them; a bad value is refused with the forms that work.
func TestSetOptionsOnWhoPlays(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("so1", "ancientmed", "")
	tb.Send(daemontest.GM, gm, "SET seats=closed\nSET min_ontime=60\nSET first_pick=a@example.test, b@example.test")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text,
		"Seats: only the GM fills open seats (seats=closed); players join with at least 60% of their phases ordered on time (min_ontime=60); first pick for a@example.test, b@example.test (first_pick).")
	tb.Send(daemontest.GM, gm, "SET min_rating=1600\nSET scoring=sos\nSET autopilot=on\nSET web=public")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "Also: min_rating=1600, scoring=sos, autopilot=on, web=public.")
	tb.Send(daemontest.GM, gm, "SET min_ontime=120\nSET first_pick=nobody")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text,
		"min_ontime is a percentage from 0 to 100",
		`first_pick is previous, off, or addresses separated by commas: "nobody" is not an address`)
}

// The seed's draw prize goes to one survivor, drawn by supply centres; when
// that power had several senior diplomats, the longest serving of them is
// named too. Here every power gets a second senior after a day, who then
// serves three: whichever power the draw picks, its prize is the second's.
func TestDrawPrizeToTheLongestServingSenior(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("pz4", "ancientmed", "prize=on")
	tb.SignUp("pz4", ancmedPowers)
	tb.Wait(24 * time.Hour)
	for _, p := range ancmedPowers {
		tb.Send(daemontest.GM, gm, "REPLACE "+p+" WITH second-"+p+"@example.test")
	}
	tb.Wait(72 * time.Hour)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END DRAW")
	over := daemontest.One(t, tb.Outbox(), "second-rome@example.test", "Game over")
	daemontest.Contains(t, over.Text, "Draw prize: ", "had 2 senior diplomats. The game's prize goes to the one who served longest as its senior: second-", "@example.test (3 days).")
}

// The README: "The GM changes the pbemd options but seed with SET at any
// time, and the game's own options only while it takes sign-ups."
func TestSetChangesWhatTheReadmeSays(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("so2", "ancientmed", "")
	tb.Send(daemontest.GM, gm, "SET seed=5")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "SET refused", "Nothing was changed.")
	tb.SignUp("so2", ancmedPowers)
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "SET grey=off")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "grey press off")
	tb.Send(daemontest.GM, gm, "SET victory=12")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text, "SET refused", "fixed once it has started")
}
