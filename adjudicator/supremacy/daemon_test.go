package supremacy_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/adjudicator/supremacy"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

func mailsTo(ms []daemontest.Mail, to string) []daemontest.Mail {
	var got []daemontest.Mail
	for _, m := range ms {
		if m.To == to {
			got = append(got, m)
		}
	}
	return got
}

func only(t testing.TB, ms []daemontest.Mail, to string) daemontest.Mail {
	t.Helper()
	got := mailsTo(ms, to)
	if len(got) != 1 {
		var subs []string
		for _, m := range ms {
			subs = append(subs, m.To+": "+m.Subject)
		}
		t.Fatalf("want one mail to %s, got %d:\n%s", to, len(got), strings.Join(subs, "\n"))
	}
	return got[0]
}

var registerTest sync.Once

// registerTestEngines registers two short games for these tests: one turn
// in mail rounds, and one with the attack phase played step by step.
func registerTestEngines(t *testing.T) {
	registerTest.Do(func() {
		for _, p := range []supremacy.Preset{
			{Name: "supremacy-test", Title: "Supremacy 2020 (one-turn test)", Options: map[string]string{"powers": "usa,russia,china", "turns": "1"}},
			{Name: "supremacy-test-steps", Title: "Supremacy 2020 (step test)", Options: map[string]string{"powers": "usa,russia,china", "turns": "1", "steps": "attack"}},
		} {
			e, err := supremacy.NewEngine(p.Name, p.Title, p.Options)
			if err != nil {
				t.Fatal(err)
			}
			adjudicator.Register(e)
		}
	})
}

// players signs three players up and returns power ⇒ (address, token).
func start(tb *daemontest.Table, game, variant string) map[string][2]string {
	tb.T.Helper()
	tb.Send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE "+game+" "+variant)
	daemontest.Contains(tb.T, only(tb.T, tb.Outbox(), "gm-boss@example.test").Text, "created")
	tb.Send("ann@example.test", "", "JOIN "+game+" prefer usa > russia > china")
	tb.Send("bob@example.test", "", "JOIN "+game+" prefer russia > china > usa")
	tb.Send("cid@example.test", "", "JOIN "+game+" prefer china > usa > russia")
	who := map[string][2]string{}
	ms := tb.Outbox()
	for _, m := range ms {
		if p, ok := daemontest.PowerOf(m.Subject); ok {
			who[p] = [2]string{m.To, m.Token}
		}
	}
	if len(who) != 3 {
		tb.T.Fatalf("powers %v", who)
	}
	return who
}

// A one-turn game of three players, entirely by mail: sign-up, set-up,
// every phase of the turn in mail rounds, a typo, a misorder, a player
// who misses a deadline, STATUS with the private position, the end.
func TestThroughTheDaemon(t *testing.T) {
	registerTestEngines(t)
	tb := daemontest.New(t)
	who := start(tb, "sup1", "supremacy-test")
	as := func(p, text string) { tb.Send(who[p][0], who[p][1], text) }
	g := tb.Game("sup1")
	if g.Status != store.Active || g.PhaseID != "T00-0" || strings.Join(g.Waiting, ",") != "usa,russia,china" {
		t.Fatalf("game %s %s waiting %v", g.Status, g.PhaseID, g.Waiting)
	}

	// Set-up: a typo is read with a warning, a misorder is reported.
	as("usa", "PLACE 6 ARMIES IN Texas, 3 NAVIES IN Carribean")
	ack := only(t, tb.Outbox(), who["usa"][0]).Text
	daemontest.Contains(t, ack, "Orders received", "PLACE 6 ARMIES IN tex, 3 NAVIES IN car")
	as("russia", "PLACE 5 ARMIES IN Moscow, 4 ARMIES IN Ukraine")
	ack = only(t, tb.Outbox(), who["russia"][0]).Text
	daemontest.Contains(t, ack, "armies start in a home area, not in Ukraine")
	as("russia", "PLACE 5 ARMIES IN Moscow, 4 ARMIES IN Siberia")
	tb.Outbox()
	if g := tb.Game("sup1"); g.PhaseID != "T00-0" {
		t.Fatalf("processed before China sent orders: %s", g.PhaseID)
	}
	as("china", "place 9 armies in Beijing")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms := tb.Outbox()
	res := only(t, ms, who["china"][0]).Text
	daemontest.Contains(t, res, "Set-up", "China places 9 armies in Beijing",
		"--- for you only ---", "Your position (China)", "cash $7,000 BL", "Turn 1 Salaries: orders due")
	if strings.Contains(res, "Your position (United States)") {
		t.Error("China sees the United States' position")
	}
	if g := tb.Game("sup1"); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}

	// STATUS: the public board and the player's own position.
	as("russia", "STATUS")
	daemontest.Contains(t, only(t, tb.Outbox(), who["russia"][0]).Text, "Market: oil $500 BL", "Your position (Russian Federation)")

	// Salaries: China misses the deadline and takes the defaults.
	as("usa", "OPEN ALL")
	as("russia", "LOAN 2000")
	tb.Outbox()
	tb.Wait(time.Minute)
	if g := tb.Game("sup1"); g.PhaseID != "T01-1" {
		t.Fatalf("processed without China: %s", g.PhaseID)
	}
	tb.Wait(7 * 24 * time.Hour)
	ms = tb.Outbox()
	daemontest.Contains(t, only(t, ms, who["russia"][0]).Text, "You borrow $2,000 BL", "loans $2,000 BL")
	if g := tb.Game("sup1"); g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}

	// Trade: market trades and a private trade, conditional orders.
	as("usa", "IF GRAIN PRICE AT MOST 900: BUY 2 GRAIN\nOFFER TO russia: $600 FOR 1 OIL")
	as("russia", "buy 3 oil\naccept usa")
	as("china", "BUY 1 GRAIN\nBUY 1 OIL\nBUY 1 MINERALS")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	res = only(t, ms, who["usa"][0]).Text
	daemontest.Contains(t, res, "Trade phase, in the drawn order", "United States buys 2 grain at $", "Offer 1 to Russian Federation carried out")
	if strings.Contains(only(t, ms, who["china"][0]).Text, "Offer 1 to Russian Federation") {
		t.Error("China sees the private trade's terms")
	}

	// Attack: China attacks Mongolia (a minor power): every die reported.
	as("china", "ATTACK Mongolia FROM Beijing BLITZ 2")
	as("usa", "PASS")
	as("russia", "IF ATTACKED: ATTACK mon FROM sib\nPASS")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	daemontest.Contains(t, only(t, ms, who["usa"][0]).Text, "China attacks: Mongolia from Beijing", "dice (armies of the minor power Mongolia)")

	// Move and build: nothing much, then the end of the one-turn game.
	for _, p := range []string{"usa", "russia", "china"} {
		as(p, "MOVE 1 Beijing - Shanghai")
	}
	tb.Outbox()
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game("sup1"); g.PhaseID != "T01-5" {
		t.Fatalf("before the build phase: %s", g.PhaseID)
	}
	for _, p := range []string{"usa", "russia", "china"} {
		as(p, "RESEARCH OIL MAX 1")
	}
	tb.Outbox()
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	g = tb.Game("sup1")
	if g.Status != store.Finished || len(g.Winners) != 1 {
		t.Fatalf("game %s winners %v", g.Status, g.Winners)
	}
	var over string
	for _, m := range mailsTo(ms, who["usa"][0]) {
		if strings.Contains(m.Subject, "Game over") {
			over = m.Text
		}
		if strings.Contains(m.Subject, "results") {
			daemontest.Contains(t, m.Text, "FINAL NET WORTH", "Supreme Superpower")
		}
	}
	// The engine says what the win is; the daemon adds no Diplomacy words
	// (issue 14: "won with a solo victory", the senior diplomat's prize).
	daemontest.Contains(t, over, "sup1 is over. ", " wins with the highest net worth: $")
	daemontest.Lacks(t, over, "solo victory", "diplomat", "prize")
}

// The attack phase step by step through the daemon: the phase waits for
// one power; a defender's counterattack is its own step; a player who does
// not answer by the deadline passes.
func TestAttackStepsThroughTheDaemon(t *testing.T) {
	registerTestEngines(t)
	tb := daemontest.New(t)
	who := start(tb, "sup2", "supremacy-test-steps")
	as := func(p, text string) { tb.Send(who[p][0], who[p][1], text) }
	as("usa", "PLACE 9 ARMIES IN tex")
	as("russia", "PLACE 9 ARMIES IN sib")
	as("china", "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	for _, step := range [][2]string{{"T01-1", "OPEN ALL"}, {"T01-2", "BUY 1 OIL\nBUY 1 MINERALS\nBUY 1 GRAIN"}} {
		phase := step[0]
		for _, p := range []string{"usa", "russia", "china"} {
			as(p, step[1])
		}
		tb.Wait(time.Minute)
		if g := tb.Game("sup2"); g.PhaseID <= phase {
			t.Fatalf("stuck in %s", g.PhaseID)
		}
	}
	tb.Outbox()
	g := tb.Game("sup2")
	if g.PhaseKind != "turn" || len(g.Waiting) != 1 {
		t.Fatalf("attack phase %s kind %s waiting %v", g.PhaseID, g.PhaseKind, g.Waiting)
	}
	first := g.Waiting[0]
	target := map[string]string{"usa": "ATTACK mex FROM tex", "russia": "ATTACK mon FROM sib", "china": "ATTACK mon FROM man"}[first]
	// Only the waiting power's mail moves the game on.
	for _, p := range []string{"usa", "russia", "china"} {
		if p != first {
			as(p, "LOAN 1000")
		}
	}
	tb.Wait(time.Minute)
	if g := tb.Game("sup2"); g.PhaseID != "T01-3-000" {
		t.Fatalf("another player's mail moved the step on: %s", g.PhaseID)
	}
	tb.Outbox()
	// Whoever cannot act is refused: an attack out of one's step.
	other := "usa"
	if first == "usa" {
		other = "russia"
	}
	as(other, "ATTACK ukr FROM sib")
	daemontest.Contains(t, only(t, tb.Outbox(), who[other][0]).Text, "not your step")
	as(first, target)
	tb.Outbox()
	tb.Wait(time.Minute)
	ms := tb.Outbox()
	daemontest.Contains(t, only(t, ms, who[first][0]).Text, "attacks:", "dice (")
	g = tb.Game("sup2")
	if g.PhaseID != "T01-3-001" || len(g.Waiting) != 1 || g.Waiting[0] != first {
		t.Fatalf("after the attack on a minor (no counterattack): %s waiting %v", g.PhaseID, g.Waiting)
	}
	// The attacker does not answer: at the deadline he passes.
	tb.Wait(30 * 24 * time.Hour)
	g = tb.Game("sup2")
	if g.PhaseID != "T01-3-002" || len(g.Waiting) != 1 || g.Waiting[0] == first {
		t.Fatalf("after the pass: %s waiting %v", g.PhaseID, g.Waiting)
	}
	daemontest.Contains(t, only(t, tb.Outbox(), who[first][0]).Text, "makes no further attack")
}

// Issue 14: a Supremacy player's mail says what his orders do, as the
// engine declares: orders are taken whole, and a phase ends as soon as
// every power it waits for has sent them (a step: its one player), so no
// acknowledgement invites new orders "until the deadline" once they did;
// HELP says so too, not Diplomacy's "a new order for a unit replaces its
// earlier one".
func TestMailSaysWhatTheOrdersDo(t *testing.T) {
	registerTestEngines(t)
	tb := daemontest.New(t)
	who := start(tb, "sup3", "supremacy-test-steps")
	as := func(p, text string) string {
		t.Helper()
		tb.Send(who[p][0], who[p][1], text)
		return only(t, tb.Outbox(), who[p][0]).Text
	}
	help := as("usa", "HELP")
	daemontest.Contains(t, help, "Now, in Set-up: a new mail of orders replaces all your standing orders for this phase.",
		"Orders from a player the phase waits for end it when they arrive.")
	daemontest.Lacks(t, help, "A new order for a unit replaces its earlier one", "a new order for a unit replaces its earlier one")

	ack := as("usa", "PLACE 9 ARMIES IN tex")
	daemontest.Contains(t, ack, "Set-up ends as soon as Russian Federation and China have sent orders (or at the deadline); until then a new mail of orders replaces all your standing orders for this phase.")
	daemontest.Lacks(t, ack, "You may send new orders until the deadline")
	as("russia", "PLACE 9 ARMIES IN sib")
	ack = as("china", "PLACE 9 ARMIES IN man")
	daemontest.Contains(t, ack, "These orders end Set-up: it is processed now")
	daemontest.Lacks(t, ack, "You may send new orders", "until the deadline")
	tb.Wait(time.Minute)
	for _, step := range []string{"OPEN ALL", "BUY 1 OIL\nBUY 1 MINERALS\nBUY 1 GRAIN"} {
		for _, p := range []string{"usa", "russia", "china"} {
			tb.Send(who[p][0], who[p][1], step)
		}
		tb.Wait(time.Minute)
	}
	tb.Outbox()
	g := tb.Game("sup3")
	if g.PhaseKind != "turn" || len(g.Waiting) != 1 {
		t.Fatalf("attack phase %s kind %s waiting %v", g.PhaseID, g.PhaseKind, g.Waiting)
	}
	first := g.Waiting[0]
	ack = as(first, map[string]string{"usa": "ATTACK mex FROM tex", "russia": "ATTACK mon FROM sib", "china": "ATTACK mon FROM man"}[first])
	daemontest.Contains(t, ack, "Orders received", "These orders end "+g.PhaseTitle+": it is processed now")
	daemontest.Lacks(t, ack, "You may send new orders", "until the deadline")
}

// Issue 14: the game-over mail of a game without diplomats says the win
// in the engine's words; the prize line is there only with prize=on, and
// names the winner's player, not a "senior diplomat".
func TestGameOverMailSpeaksSupremacy(t *testing.T) {
	registerTestEngines(t)
	for _, prize := range []string{"on", "off"} {
		t.Run("prize="+prize, func(t *testing.T) {
			tb := daemontest.New(t)
			tb.Create("sup5", "supremacy-test", "prize="+prize)
			ps := tb.SignUp("sup5", []string{"usa", "russia", "china"})
			tb.Outbox()
			for i := 0; tb.Game("sup5").Status == store.Active; i++ {
				if g := tb.Game("sup5"); g.PhaseID == "T01-2" {
					// Trade: Russia and China spend cash on oil, which
					// is no net worth: the United States wins alone.
					tb.As(ps["russia"], "BUY 3 OIL")
					tb.As(ps["china"], "BUY 3 OIL")
				}
				if i > 20 {
					t.Fatalf("no end: %s", tb.Game("sup5").PhaseTitle)
				}
				tb.Wait(8 * 24 * time.Hour)
			}
			g := tb.Game("sup5")
			if strings.Join(g.Winners, ",") != "usa" {
				t.Fatalf("winners %v", g.Winners)
			}
			over := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Game over").Text
			daemontest.Contains(t, over, "sup5 is over. United States wins with the highest net worth: $")
			daemontest.Lacks(t, over, "solo victory", "diplomat")
			if prize == "on" {
				daemontest.Contains(t, over, "The game's prize goes to the player of United States.")
			} else {
				daemontest.Lacks(t, over, "prize")
			}
		})
	}
}

// Issue 14: the results mail reads as English: "China blockades Russian
// Federation's Manchurian Grain company", not "China blockade Manchurian
// Grain of Russian Federation". With seed 6 Russia holds Manchurian
// Grain, whose one sea (the Sea of Japan) China reaches from its homes.
func TestBlockadeReportReadsAsEnglish(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sup6", "supremacy-3", "seed=6 turns=1")
	ps := tb.SignUp("sup6", []string{"usa", "russia", "china"})
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 6 ARMIES IN Beijing, 3 NAVIES IN soj")
	tb.Outbox()
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game("sup6"); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}
	tb.As(ps["usa"], "OPEN ALL")
	tb.As(ps["russia"], "OPEN ALL")
	tb.Outbox()
	tb.As(ps["china"], "BLOCKADE Manchurian Grain")
	ack := daemontest.One(t, tb.Outbox(), ps["china"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "Orders received", "BLOCKADE mangrain")
	tb.Wait(time.Minute)
	res := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "results").Text
	daemontest.Contains(t, res, "China blockades Russian Federation's Manchurian Grain company: Russian Federation loses the 2 grain it produced, and China takes 2.")
	daemontest.Lacks(t, res, "China blockade ")
}

// Seats from options: CREATE … supremacy players=5 plays the five-player
// variant (its old name supremacy-5 stays), checked without dealing a
// game; a count with no variant is refused with the counts there are.
func TestSeatsFromOptions(t *testing.T) {
	tb := daemontest.New(t)
	reply := func(text string) string {
		tb.Send(daemontest.GM, "", "SIGNON GM - "+daemontest.GMPassword+"\n"+text)
		return daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text
	}
	daemontest.Contains(t, reply("CREATE s5 supremacy players=5 turns=2"), "Game s5 (supremacy-5) created", "(5 powers: ")
	if g := tb.Game("s5"); g.Variant != "supremacy-5" || g.Options.Engine["turns"] != "2" || g.Options.Engine["players"] != "" {
		t.Errorf("stored %s %v", g.Variant, g.Options.Engine)
	}
	daemontest.Contains(t, reply("CREATE s3 supremacy-3"), "Game s3 (supremacy-3) created", "(3 powers: ")
	daemontest.Contains(t, reply("CREATE s7 supremacy players=7"), "no variant for 7 players (choose players=6, 3, 4, 5, 8", "Nothing was created")
	daemontest.Contains(t, reply("CREATE s8 supremacy players=3 powers=usa,china"), "players= or powers=", "Nothing was created")
}
