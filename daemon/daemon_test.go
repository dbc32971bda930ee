package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

func TestSignupAssignsPowersAndMailsSecrets(t *testing.T) {
	h := newHarness(t)
	h.createToy("g1", "")
	h.send("alice@example.test", "", "Hi GM,\nJOIN g1 prefer red > blue\nthanks")
	ms := h.outbox()
	mustContain(t, h.only(ms, "alice@example.test").Text, "signed up for g1 (1 of 2 players)")
	h.send("bob@example.test", "", "join g1 prefer blue")
	ms = h.outbox()
	alice := to(ms, "alice@example.test")
	bob := to(ms, "bob@example.test")
	// Alice: her secrets and the start announcement; Bob: the JOIN reply too.
	if len(alice) != 2 || len(bob) != 3 {
		t.Fatalf("alice got %d mails, bob %d; want 2 and 3", len(alice), len(bob))
	}
	var aliceSecret, bobSecret sent
	for _, m := range ms {
		if strings.Contains(m.Subject, "You are") {
			if m.To == "alice@example.test" {
				aliceSecret = m
			} else {
				bobSecret = m
			}
		}
	}
	if aliceSecret.Subject != "[g1] You are Red" || bobSecret.Subject != "[g1] You are Blue" {
		t.Errorf("assignment: alice %q, bob %q; both rankings can be met exactly", aliceSecret.Subject, bobSecret.Subject)
	}
	mustContain(t, aliceSecret.Text, "Your password:", "SIGNON red g1")
	if aliceSecret.Token == "" || aliceSecret.Token == bobSecret.Token || len(aliceSecret.Token) < 26 {
		t.Errorf("tokens must be distinct and at least 128 bits: %q %q", aliceSecret.Token, bobSecret.Token)
	}
	g := h.game("g1")
	if g.Status != store.Active || g.PhaseID != "P00" {
		t.Fatalf("game after sign-up: %s %s", g.Status, g.PhaseID)
	}
	// Seed schedule: started Sunday 21:00, 48 h orders: Tuesday 21:00.
	if want := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC); !g.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", g.Deadline, want)
	}
	if gm := h.only(ms, harnessGM); !strings.Contains(gm.Subject, "has started") {
		t.Errorf("GM copy: %q", gm.Subject)
	}
}

func TestAssignPowersSatisfiesRankings(t *testing.T) {
	powers := []string{"a", "b", "c"}
	cases := []struct {
		name  string
		prefs [][]string
		want  []string
	}{
		{"all met", [][]string{{"a"}, {"b"}, {"c"}}, []string{"a", "b", "c"}},
		{"conflict resolved fairly", [][]string{{"a", "b"}, {"a", "c"}, {"a", "b"}}, nil},
		{"fairness over popularity", [][]string{{"a", "b", "c"}, {"a", "c", "b"}, {"b", "a", "c"}}, []string{"a", "c", "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := AssignPowers(powers, c.prefs, 7)
			seen := map[string]bool{}
			for _, p := range got {
				if seen[p] || p == "" {
					t.Fatalf("not a one-to-one assignment: %v", got)
				}
				seen[p] = true
			}
			if c.want != nil {
				for i := range c.want {
					if got[i] != c.want[i] {
						t.Fatalf("got %v, want %v", got, c.want)
					}
				}
			}
			// Nobody may get a worse place than the worst place in some
			// other one-to-one assignment that minimises the total.
			total := 0
			for i, p := range got {
				total += rankCost(c.prefs[i], p, len(powers))
			}
			if best := bruteBest(powers, c.prefs); total != best {
				t.Fatalf("total cost %d, optimum %d (%v)", total, best, got)
			}
			if again := AssignPowers(powers, c.prefs, 7); strings.Join(again, ",") != strings.Join(got, ",") {
				t.Fatalf("not reproducible from the seed: %v then %v", got, again)
			}
		})
	}
}

func rankCost(prefs []string, p string, n int) int {
	for k, q := range prefs {
		if q == p {
			return k * k
		}
	}
	return n * n
}

func bruteBest(powers []string, prefs [][]string) int {
	best := 1 << 30
	var rec func(i int, used map[string]bool, sum int)
	rec = func(i int, used map[string]bool, sum int) {
		if i == len(prefs) {
			best = min(best, sum)
			return
		}
		for _, p := range powers {
			if !used[p] {
				used[p] = true
				rec(i+1, used, sum+rankCost(prefs[i], p, len(powers)))
				used[p] = false
			}
		}
	}
	rec(0, map[string]bool{}, 0)
	return best
}

func TestOrdersAcknowledgedAndMergedThenProcessedAtDeadline(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g2", "")
	h.as(tok["red"], "score 3\n\nscore 0\nmove the moon\n-- \nAlice")
	ms := h.outbox()
	ack := h.only(ms, tok["red"].addr)
	mustContain(t, ack.Text, "Orders received for Red", "score 0", "a score of 0 does nothing", "line 4: move the moon")
	if ack.Parsed.InReplyTo == "" {
		t.Error("the acknowledgement does not thread (In-Reply-To)")
	}
	// A later mail replaces the order (the toy engine keeps one line).
	h.as(tok["red"], "score 4")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "score 4")

	h.clock.Add(47 * time.Hour)
	h.tick()
	ms = h.outbox()
	// 24 h before the deadline: both got reminders earlier? No: reminders
	// go only to powers without orders, so blue (bob) got one, red not.
	if got := to(ms, tok["red"].addr); len(got) != 0 {
		t.Errorf("red has orders and must not be reminded: %v", got[0].Subject)
	}
	mustContain(t, h.only(ms, tok["blue"].addr).Subject, "Reminder")

	h.clock.Add(time.Hour)
	h.tick()
	ms = h.outbox()
	res := h.only(ms, tok["red"].addr)
	mustContain(t, res.Subject, "[g2] Phase 0 — results")
	mustContain(t, res.Text, "red: score 4", "private note for red", "Phase 1: orders due by")
	if strings.Contains(res.Text, "private note for blue") {
		t.Error("red got blue's private part")
	}
	g := h.game("g2")
	if g.Phase != 1 || g.PhaseID != "P01" {
		t.Fatalf("phase after deadline: %d %s", g.Phase, g.PhaseID)
	}
	// A second tick at the same time processes nothing more.
	h.tick()
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("second tick sent %d mails", len(ms))
	}
}

func TestStrangerGetsOneHelpfulAnswerAndChangesNothing(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g3", "")
	_ = tok
	// A forged From: of a player, without the token: no order is stored.
	h.send(tok["red"].addr, "", "score 9")
	ms := h.outbox()
	m := h.only(ms, tok["red"].addr)
	mustContain(t, m.Text, "do not know you yet", "SIGNON")
	var sets []store.OrderSet
	h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("g3", 0); return err })
	if len(sets) != 0 {
		t.Fatalf("a forged From: stored orders: %+v", sets)
	}
	// A token that exists in no game is not accepted either.
	h.send("mallory@example.test", "aaaaaaaaaaaaaaaaaaaaaaaaaa", "score 9")
	mustContain(t, h.only(h.outbox(), "mallory@example.test").Text, "not one I know")
	// GM commands from a player's token are refused.
	h.as(tok["red"], "PROCESS")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "only the game's GM")
	if g := h.game("g3"); g.Deadline.Before(h.clock.Now().Add(time.Hour)) {
		t.Fatal("a player's PROCESS moved the deadline")
	}
}

func TestPasswordSignonOrdersFromScratch(t *testing.T) {
	h := newHarness(t)
	h.startToy("g4", "")
	// Fish the password out of the secrets mail by starting over: the
	// harness drained it, so make a new game and keep the mails.
	h.createToy("g5", "")
	h.send("carol@example.test", "", "JOIN g5 prefer blue")
	h.send("dave@example.test", "", "JOIN g5 prefer red")
	var pw string
	for _, m := range h.outbox() {
		if m.To == "carol@example.test" && strings.Contains(m.Subject, "You are") {
			i := strings.Index(m.Text, "Your password: ")
			pw = strings.Fields(m.Text[i+len("Your password: "):])[0]
		}
	}
	if pw == "" {
		t.Fatal("no password mailed")
	}
	h.send("carol@elsewhere.test", "", "SIGNON blue g5 wrong\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "SIGNON failed")
	h.send("carol@elsewhere.test", "", "SIGNON blue g5 "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "Signed on as Blue", "Orders received for Blue", "score 2")
}

func TestDuplicateMessageIDIsHandledOnce(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g6", "")
	in := &Incoming{MsgID: "same@test", From: tok["red"].addr, Token: tok["red"].token, Text: "score 1"}
	h.sendMail(in)
	h.sendMail(in)
	if ms := h.outbox(); len(ms) != 1 {
		t.Fatalf("a repeated Message-ID produced %d replies", len(ms))
	}
}

func TestAutoRepliesAreNeverAnswered(t *testing.T) {
	h := newHarness(t)
	h.sendMail(&Incoming{MsgID: "auto@test", From: "mailer-daemon@example.test", Auto: true, Text: "undeliverable"})
	if ms := h.outbox(); len(ms) != 0 {
		t.Fatalf("answered a bounce: %v", ms[0].Subject)
	}
}

// TestTooBigMailRefusedOncePerHour: a player gets one refusal an hour,
// and so does a stranger (an address never mailed as a player), within
// its budget of answers a day (TestStrangerHasASmallDailyBudget).
func TestTooBigMailRefusedOncePerHour(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("big", "")
	h.outbox()
	x := tok["red"].addr
	for i := 0; i < 3; i++ {
		h.sendMail(&Incoming{MsgID: "big" + string(rune('a'+i)) + "@test", From: x, TooBig: true})
		h.sendMail(&Incoming{MsgID: "sbig" + string(rune('a'+i)) + "@test", From: "stranger@example.test", TooBig: true})
	}
	ms := h.outbox()
	if len(ms) != 2 {
		t.Fatalf("%d refusals, want 2", len(ms))
	}
	mustContain(t, h.only(ms, x).Text, "too large")
	h.clock.Add(61 * time.Minute)
	h.sendMail(&Incoming{MsgID: "bigz@test", From: x, TooBig: true})
	h.sendMail(&Incoming{MsgID: "sbigz@test", From: "stranger@example.test", TooBig: true})
	if ms := h.outbox(); len(ms) != 2 {
		t.Fatalf("after an hour: %d refusals, want 2", len(ms))
	}
	for i := range strangerAnswers {
		h.clock.Add(61 * time.Minute)
		h.sendMail(&Incoming{MsgID: "sbig" + strings.Repeat("y", i+1) + "@test", From: "stranger@example.test", TooBig: true})
	}
	if n := len(h.outbox()); n != strangerAnswers-2 {
		t.Fatalf("a stranger got %d more refusals within a day, want %d", n, strangerAnswers-2)
	}
}

func TestRateLimitOneNoticeThenSilence(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("flood", "")
	h.outbox()
	h.d.rate = newRateLimiter(3, time.Hour)
	for i := 0; i < 6; i++ {
		h.as(tok["red"], "LIST")
	}
	ms := h.outbox()
	if len(ms) != 4 {
		t.Fatalf("%d answers, want 3 and one notice", len(ms))
	}
	notices := 0
	for _, m := range ms {
		if strings.Contains(m.Text, "will not answer you again") {
			notices++
		}
	}
	if notices != 1 {
		t.Fatalf("%d notices, want 1", notices)
	}
}

func TestVerifyTellsRealFromForged(t *testing.T) {
	h := newHarness(t)
	h.send("x@example.test", "", "LIST")
	m := h.outbox()[0]
	i := strings.Index(m.Text, "Send VERIFY ")
	code := strings.Fields(m.Text[i+len("Send VERIFY "):])[0]
	h.send("y@example.test", "", "VERIFY "+code)
	v := h.only(h.outbox(), "y@example.test").Text
	mustContain(t, v, "yes, I sent that mail, but not to y@example.test", "Subject: Re: orders")
	if strings.Contains(v, "x@example.test") {
		t.Errorf("VERIFY names the recipient to another address:\n%s", v)
	}
	h.send("w@example.test", "", "VERIFY ABCD-EFGH") // y@ had its one answer of the day (a stranger)
	mustContain(t, h.only(h.outbox(), "w@example.test").Text, "never sent")
}

func TestDrawNeedsEverySurvivor(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g7", "")
	h.as(tok["red"], "DRAW YES")
	ms := h.outbox()
	if len(ms) != 1 {
		t.Fatalf("one vote must not end the game nor tell anyone else: %d mails", len(ms))
	}
	h.as(tok["blue"], "DRAW YES")
	ms = h.outbox()
	mustContain(t, h.only(ms, harnessGM).Text, "draw shared by Blue, Red")
	if g := h.game("g7"); g.Status != store.Finished || g.EndedAs != "draw" {
		t.Fatalf("game after both votes: %s %s", g.Status, g.EndedAs)
	}
}

func TestPressPrivateBroadcastAndAnonymous(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("g8", "")
	h.as(tok["red"], "PRESS TO blue\nShall we share?\nENDPRESS")
	ms := h.outbox()
	bob := h.only(ms, tok["blue"].addr)
	mustContain(t, bob.Text, "Press from Red to Blue", "Shall we share?")
	if len(bob.Parsed.References) != 1 || bob.Parsed.References[0] != "press.g8.blue-red@example.test" {
		t.Errorf("private press is not threaded per conversation: %v", bob.Parsed.References)
	}
	if len(to(ms, harnessGM)) != 0 {
		t.Error("private press was copied to the GM")
	}
	h.as(tok["blue"], "PSA\nRed is lying.\nENDPRESS")
	ms = h.outbox()
	for _, m := range to(ms, tok["red"].addr) {
		if strings.Contains(m.Text, "Red is lying") && strings.Contains(strings.ToLower(m.Text), "blue") {
			t.Errorf("anonymous announcement reveals its sender:\n%s", m.Text)
		}
	}
	mustContain(t, h.only(ms, harnessGM).Text, "Red is lying")
	// The GM turns private press off; the next PRESS is refused.
	h.send(harnessGM, gm, "SET press=white")
	h.outbox()
	h.as(tok["red"], "PRESS TO blue\nagain\nENDPRESS")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "private press is turned off")
}

func TestGMPauseRollbackAndSetOrders(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("g9", "")
	h.as(tok["red"], "score 2")
	h.outbox()
	h.send(harnessGM, gm, "SET ORDERS blue\nscore 5\nENDORDERS")
	mustContain(t, h.reply(h.outbox(), harnessGM).Text, "Orders of Blue for Phase 0 set by the GM")
	h.send(harnessGM, gm, "SET ORDERS blue\nscore 0\nENDORDERS")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "refused, nothing was stored")

	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	h.outbox()
	g := h.game("g9")
	if g.Phase != 1 {
		t.Fatalf("PROCESS did not process: phase %d", g.Phase)
	}
	var st []byte
	h.db.View(func(tx *store.Tx) (err error) { st, err = tx.State("g9"); return err })
	mustContain(t, string(st), `"blue":5`, `"red":2`)

	h.send(harnessGM, gm, "ROLLBACK")
	ms := h.outbox()
	mustContain(t, h.only(ms, tok["red"].addr).Text, "reopened Phase 0")
	g = h.game("g9")
	if g.Phase != 0 || g.PhaseID != "P00" {
		t.Fatalf("after ROLLBACK: phase %d %s", g.Phase, g.PhaseID)
	}
	h.send(harnessGM, gm, "ROLLBACK")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "ROLLBACK refused")

	h.send(harnessGM, gm, "PAUSE holidays")
	h.outbox()
	h.clock.Add(100 * time.Hour)
	h.tick()
	if g := h.game("g9"); g.Phase != 0 || !g.Paused {
		t.Fatalf("a paused game was processed: phase %d paused %v", g.Phase, g.Paused)
	}
	h.clock.Add(7 * 24 * time.Hour)
	h.tick()
	ms = h.outbox()
	mustContain(t, h.only(ms, tok["blue"].addr).Text, "pause has run out")
}

func TestPreviewHoldsResultsUntilPublish(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("g10", "preview=on")
	h.as(tok["red"], "score 1")
	h.outbox()
	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	ms := h.outbox()
	if len(to(ms, tok["red"].addr)) != 0 {
		t.Fatal("players got results before PUBLISH")
	}
	mustContain(t, h.only(ms, harnessGM).Text, "not yet public", "red: score 1")
	h.send(harnessGM, gm, "PUBLISH")
	ms = h.outbox()
	mustContain(t, h.only(ms, tok["red"].addr).Text, "red: score 1", "orders due by")
}

func TestSoloVictoryEndsTheGame(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g11", "")
	h.as(tok["red"], "score 10")
	h.outbox()
	h.clock.Add(48 * time.Hour)
	h.tick()
	ms := h.outbox()
	var over bool
	for _, m := range to(ms, tok["blue"].addr) {
		if strings.Contains(m.Text, "Red has won g11") {
			over = true
		}
	}
	if !over {
		t.Fatal("no game-over mail")
	}
	if g := h.game("g11"); g.Status != store.Finished || g.Winners[0] != "red" {
		t.Fatalf("game: %s %v", g.Status, g.Winners)
	}
}

func TestLateProcessingIsAnnounced(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g12", "")
	h.clock.Add(72 * time.Hour) // the daemon was down past the deadline
	h.tick()
	ms := h.outbox()
	for _, m := range to(ms, tok["red"].addr) {
		if strings.Contains(m.Subject, "results") {
			mustContain(t, m.Text, "processed this phase late")
			return
		}
	}
	t.Fatal("no results mail")
}

func TestScheduleDeadlines(t *testing.T) {
	s := DefaultSchedule()
	sun := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		kind  string
		pace  store.Pace
		start time.Time
		last  time.Time
		want  time.Time
	}{
		{"spring orders from Sunday 21:00", "orders", "slow", sun, time.Time{}, sun.Add(48 * time.Hour)},
		{"processed five minutes late", "orders", "slow", sun.Add(5 * time.Minute), time.Time{}, sun.Add(48 * time.Hour)},
		{"retreats", "retreat", "slow", sun.Add(48 * time.Hour), time.Time{}, sun.Add(72 * time.Hour)},
		{"game created at breakfast", "orders", "slow", time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC), time.Time{}, time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)},
		{"fast orders", "orders", "fast", sun, time.Time{}, sun.Add(24 * time.Hour)},
		{"fast retreats", "retreat", "fast", sun, time.Time{}, sun.Add(4 * time.Hour)},
		{"fast orders after folded retreats", "orders", "fast", sun.Add(time.Hour), sun, sun.Add(24 * time.Hour)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := s.Deadline(kindFrom(c.kind), c.pace, c.start, c.last)
			if !got.Equal(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestParseDurationsAndDeadlines(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{"24h": 24 * time.Hour, "2 days": 48 * time.Hour, "90 minutes": 90 * time.Minute, "1w": 7 * 24 * time.Hour, "36 hours": 36 * time.Hour} {
		got, err := parseDuration(in)
		if err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseDuration("soon"); err == nil {
		t.Error("parseDuration(soon) accepted")
	}
	got, err := parseDeadline("2026-12-24 21:00", now)
	if err != nil || !got.Equal(time.Date(2026, 12, 24, 21, 0, 0, 0, time.UTC)) {
		t.Errorf("parseDeadline: %v %v", got, err)
	}
	got, err = parseDeadline("+36h", now)
	if err != nil || !got.Equal(now.Add(36*time.Hour)) {
		t.Errorf("parseDeadline(+36h): %v %v", got, err)
	}
}

func TestPrizeDrawIsProportionalAndCheckable(t *testing.T) {
	scores := map[string]int{"carthage": 10, "egypt": 7, "rome": 17}
	survivors := []string{"carthage", "egypt", "rome"}
	wins := map[string]int{}
	for i := 0; i < 3400; i++ {
		wins[PrizeDraw(strings.Repeat("x", i%7)+string(rune('a'+i%26))+time.Duration(i).String(), "g", survivors, scores)]++
	}
	// 17/34 = 50%, 10/34 ≈ 29%, 7/34 ≈ 21%: allow generous slack.
	if wins["rome"] < 1450 || wins["rome"] > 1950 || wins["carthage"] < 800 || wins["carthage"] > 1200 || wins["egypt"] < 550 || wins["egypt"] > 900 {
		t.Fatalf("draw not proportional to centres: %v", wins)
	}
	if first, again := PrizeDraw("s", "g", survivors, scores), PrizeDraw("s", "g", survivors, scores); first != again {
		t.Fatal("the same secret must give the same winner")
	}
}

func kindFrom(s string) adjudicator.PhaseKind { return adjudicator.PhaseKind(s) }

// In a sequential game the turn ends when its player has moved, not at
// the deadline.
func TestSequentialTurnEndsOnReceipt(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g13", "seq")
	if g := h.game("g13"); g.PhaseKind != "turn" || len(g.Waiting) != 1 || g.Waiting[0] != "blue" {
		t.Fatalf("first turn: %s %v", g.PhaseKind, g.Waiting)
	}
	h.as(tok["red"], "score 1") // not red's turn: stored, but the turn waits for blue
	h.outbox()
	h.tick()
	if g := h.game("g13"); g.Phase != 0 {
		t.Fatal("the turn ended without its player")
	}
	h.as(tok["blue"], "score 2")
	h.outbox()
	h.tick()
	g := h.game("g13")
	if g.Phase != 1 || g.Waiting[0] != "red" {
		t.Fatalf("after blue moved: phase %d, waiting %v", g.Phase, g.Waiting)
	}
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "blue: score 2")
}

// A reply to a mail of an earlier phase is read for the open phase and
// says so; only a mail with no order valid now is refused, with the reason.
func TestOrdersReplyingToAnEndedPhase(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("g14", "")
	h.as(tok["red"], "score 1")
	ack := h.only(h.outbox(), tok["red"].addr)
	h.send(harnessGM, gm, "PROCESS")
	h.outbox()
	h.tick()
	h.outbox()
	// A reply to the acknowledgement of phase 0 arrives in phase 1.
	h.sendMail(&Incoming{MsgID: "late@test", From: tok["red"].addr, Token: tok["red"].token, Text: "score 0", InReplyTo: ack.Parsed.MessageID})
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "You replied to a mail I sent during Phase 0; the game is now in Phase 1.",
		"None of the orders in your mail is valid for Phase 1", "did not store them", "a score of 0 does nothing")
	var sets []store.OrderSet
	h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("g14", 1); return err })
	if len(sets) != 0 {
		t.Fatalf("orders valid for no phase but the old one were stored: %+v", sets)
	}
	h.sendMail(&Incoming{MsgID: "late2@test", From: tok["red"].addr, Token: tok["red"].token, Text: "score 5", InReplyTo: ack.Parsed.MessageID})
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "I have read the orders in your mail as orders for Phase 1.", "Orders received for Red, Phase 1")
	h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("g14", 1); return err })
	if len(sets) != 1 || sets[0].Lines[0] != "score 5" {
		t.Fatalf("orders for the open phase: %+v", sets)
	}
}

func TestLockJuniorsMakesTheSeniorsOrdersWin(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g15", "")
	junior := h.addJunior("g15", "red", tok["red"], "junior@example.test")
	h.as(tok["red"], "score 2")
	h.as(junior, "score 7") // latest applies: 7
	h.outbox()
	g := h.game("g15")
	var sets []store.OrderSet
	h.db.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("g15", 0); return err })
	e, _ := engineFor(g)
	if got := effectiveOrders(e, nil, g, sets)["red"]; len(got) != 1 || got[0] != "score 7" {
		t.Fatalf("without a lock the latest set applies: %v", got)
	}
	h.as(junior, "LOCK JUNIORS")
	mustContain(t, h.only(h.outbox(), "junior@example.test").Text, "only the senior diplomat")
	h.as(tok["red"], "LOCK JUNIORS")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "override those of your juniors")
	g = h.game("g15")
	if got := effectiveOrders(e, nil, g, sets)["red"]; len(got) != 1 || got[0] != "score 2" {
		t.Fatalf("with the lock the senior's set applies: %v", got)
	}
	// The lock for this phase ends with it.
	h.clock.Add(48 * time.Hour)
	h.tick()
	h.outbox()
	if g := h.game("g15"); len(g.Locks) != 0 {
		t.Fatalf("a one-phase lock outlived its phase: %v", g.Locks)
	}
}

func TestPaceVoteNeedsAMajority(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g16", "")
	h.as(tok["red"], "PACE FAST")
	h.outbox()
	if g := h.game("g16"); g.Options.Pace != "slow" {
		t.Fatal("one of two votes changed the pace")
	}
	h.as(tok["blue"], "PACE FAST")
	ms := h.outbox()
	mustContain(t, h.subject(ms, tok["red"].addr, "Pace changed").Text, "fast pace")
	if g := h.game("g16"); g.Options.Pace != "fast" {
		t.Fatal("a majority did not change the pace")
	}
}

func TestDrawPrizeIsCommittedThenRevealed(t *testing.T) {
	h := newHarness(t)
	gm, tok := h.startToy("g17", "")
	h.send(harnessGM, gm, "SET prize=on")
	ms := h.outbox()
	ann := h.subject(ms, tok["red"].addr, "Draw prize")
	i := strings.Index(ann.Text, "published now, before the end:\n  ")
	commit := strings.Fields(ann.Text[i+len("published now, before the end:\n  "):])[0]
	h.as(tok["red"], "DRAW YES")
	h.as(tok["blue"], "DRAW YES")
	over := h.subject(h.outbox(), tok["red"].addr, "Game over")
	mustContain(t, over.Text, "Draw prize:", commit)
	j := strings.Index(over.Text, "secret: ")
	secret := strings.Fields(over.Text[j+len("secret: "):])[0]
	sum := sha256.Sum256([]byte(secret))
	if hex.EncodeToString(sum[:]) != commit {
		t.Fatalf("the revealed secret does not hash to the published commitment")
	}
	winner := PrizeDraw(secret, "g17", []string{"blue", "red"}, map[string]int{"blue": 0, "red": 0})
	mustContain(t, over.Text, titleCase(winner)+" wins it")
}

func TestEliminatedPlayerMayJoinAnotherPowerAsJunior(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g18", "")
	g := h.game("g18")
	// Blue is knocked out.
	h.db.Update(func(tx *store.Tx) error {
		g.Alive = []string{"red"}
		return tx.PutGame(g)
	})
	h.send(tok["blue"].addr, "", "JOIN g18 as junior of red")
	h.outbox()
	h.as(tok["red"], "ACCEPT "+tok["blue"].addr)
	ms := h.outbox()
	mustContain(t, h.subject(ms, tok["blue"].addr, "You are Red").Text, "junior diplomat (seniority 1)")
	g = h.game("g18")
	var red, left int
	for _, p := range g.Players {
		if p.Address == tok["blue"].addr {
			if p.Left {
				left++
			} else if p.Power == "red" && p.Rank == 1 {
				red++
			}
		}
	}
	if red != 1 || left != 1 {
		t.Fatalf("blue's player: %d junior records of red, %d old records left; players %+v", red, left, g.Players)
	}
}

func TestDeadlineShownInThePlayersZone(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g19", "")
	h.as(tok["red"], "SET ZONE America/New_York")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "Tue 8 Dec 2026 21:00 UTC = Tue 16:00 EST (America/New_York)")
	h.as(tok["red"], "SET ZONE Mars/Olympus")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "do not know that time zone")
}

func TestStatusShowsThePlayersPrivateView(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g20", "")
	h.as(tok["red"], "STATUS")
	mustContain(t, h.only(h.outbox(), tok["red"].addr).Text, "--- for you only ---", "your secret score: 0")
	// The power mail at the start carries the private view too.
	h.createToy("g20b", "")
	h.send("carol@example.test", "", "JOIN g20b")
	h.send("dan@example.test", "", "JOIN g20b")
	for _, m := range h.outbox() {
		if strings.Contains(m.Subject, "You are") {
			mustContain(t, m.Text, "--- for you only ---", "your secret score: 0")
		}
	}
}

// Options the daemon does not know go to the engine, which checks them at
// CREATE (and SET while forming) and gets them at the start.
func TestEngineOptionsReachTheEngine(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g21 toy colour=red")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "CREATE:", `unknown option "colour"`, "Nothing was created")
	_, tok := h.startToy("g22", "target=3 pace=fast")
	g := h.game("g22")
	if g.Options.Pace != "fast" || g.Options.Engine["target"] != "3" {
		t.Fatalf("options: %+v", g.Options)
	}
	h.as(tok["red"], "score 3")
	h.outbox()
	h.clock.Add(48 * time.Hour)
	h.tick()
	if g := h.game("g22"); g.Status != store.Finished {
		t.Fatalf("with target=3 a score of 3 wins: %s", g.Status)
	}
}

// CREATE … seed=N fixes the game's seed (the site GM replays a game).
func TestCreateWithSeed(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g23 toy seed=42")
	h.outbox()
	if g := h.game("g23"); g.Seed != 42 || len(g.Options.Engine) != 0 {
		t.Fatalf("seed %d, engine options %v", g.Seed, g.Options.Engine)
	}
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g24 toy seed=soon")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, `seed "soon" is not a non-negative number`)
}

// A power's name comes from its own game's engine: the same id may be
// named differently in another game.
func TestPowerNamesArePerGame(t *testing.T) {
	newHarness(t) // registers the toy engines
	if got := powerName(&store.Game{Variant: "toyseq"}, "blue"); got != "Azure" {
		t.Errorf("toyseq blue = %q, want Azure", got)
	}
	if got := powerName(&store.Game{Variant: "toy"}, "blue"); got != "Blue" {
		t.Errorf("toy blue = %q, want Blue", got)
	}
	if got := powerWithID(&store.Game{Variant: "toyseq"}, "blue"); got != "Azure (blue)" {
		t.Errorf("power mail name %q", got)
	}
}

// turn_time gives the turns of a sequential game their own deadline.
func TestTurnTimeOption(t *testing.T) {
	h := newHarness(t)
	h.startToy("g25", "seq turn_time=6h")
	g := h.game("g25")
	if want := h.clock.Now().Add(6 * time.Hour); !g.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", g.Deadline, want)
	}
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g26 toyseq turn_time=soon")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "turn_time is a duration")
}

// TestSilentResumeEndsThePauseWhole: RESUME after SILENT ends the pause as
// a told RESUME does: the phase gets the time it had left, and the game's
// record keeps nothing of the pause (no reason, start or limit).
func TestSilentResumeEndsThePauseWhole(t *testing.T) {
	h := newHarness(t)
	gm, _ := h.startToy("quiet", "")
	left := h.game("quiet").Deadline.Sub(h.clock.Now())
	h.send(harnessGM, gm, "PAUSE the GM is away")
	h.outbox()
	h.clock.Add(72 * time.Hour)
	h.send(harnessGM, gm, "SILENT\nRESUME")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "quiet resumes.")
	g := h.game("quiet")
	if g.Paused || g.PauseReason != "" || !g.PausedAt.IsZero() || !g.PausedUntil.IsZero() {
		t.Errorf("after SILENT RESUME the record keeps the pause: paused %v, reason %q, at %v, until %v", g.Paused, g.PauseReason, g.PausedAt, g.PausedUntil)
	}
	if want := h.clock.Now().Add(max(left, 12*time.Hour)).UTC(); !g.Deadline.Equal(want) {
		t.Errorf("deadline after SILENT RESUME %v, want %v (the time the phase had left)", g.Deadline, want)
	}
}
