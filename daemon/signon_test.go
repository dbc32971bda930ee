package daemon

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// signonGame makes a toy game with carol (blue) and dave (red) and
// returns blue's password; the daemon logs at debug into the buffer.
func signonGame(t *testing.T, h *harness, name string) (pw string, logs *bytes.Buffer) {
	t.Helper()
	logs = &bytes.Buffer{}
	opt := h.d.opt
	opt.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	d, err := New(h.db, opt)
	if err != nil {
		t.Fatal(err)
	}
	h.d = d
	h.createToy(name, "")
	h.send("carol@example.test", "", "JOIN "+name+" prefer blue")
	h.send("dave@example.test", "", "JOIN "+name+" prefer red")
	for _, m := range h.outbox() {
		if m.To == "carol@example.test" && strings.Contains(m.Subject, "You are") {
			i := strings.Index(m.Text, "Your password: ")
			pw = strings.Fields(m.Text[i+len("Your password: "):])[0]
		}
	}
	if pw == "" {
		t.Fatal("no password mailed")
	}
	return pw, logs
}

// alertsTo counts the failed-SIGNON alerts in a batch of mails to addr.
func alertsTo(ms []sent, addr string) int {
	n := 0
	for _, m := range to(ms, addr) {
		if strings.Contains(m.Subject, "GM: Failed SIGNONs") {
			n++
		}
	}
	return n
}

// TestSignonGuessingFromOneAddressIsLimited: five wrong passwords from one
// address, then even the right one from it is refused unchecked; the GM
// hears of it once; every failure is logged at warn (without the guess);
// other addresses and reply tokens still work; an hour later it may try
// again.
func TestSignonGuessingFromOneAddressIsLimited(t *testing.T) {
	h := newHarness(t)
	pw, logs := signonGame(t, h, "guess")
	const mallory = "mallory@example.test"
	var ms []sent
	for i := 0; i < signonPerSender; i++ {
		h.send(mallory, "", fmt.Sprintf("SIGNON blue guess guess-%04d\nscore 2", i))
		ms = append(ms, h.outbox()...)
	}
	if n := strings.Count(logs.String(), `level=WARN msg="password sign-on failed"`); n != signonPerSender {
		t.Errorf("%d failures logged at warn, want %d", n, signonPerSender)
	}
	if strings.Contains(logs.String(), "guess-0000") {
		t.Error("the guessed password is in the log")
	}
	h.send(mallory, "", "SIGNON blue guess "+pw+"\nscore 2")
	ms = append(ms, h.outbox()...)
	if alertsTo(ms, harnessGM) != 1 {
		t.Errorf("%d alerts to the GM, want 1", alertsTo(ms, harnessGM))
	}
	// No order was stored (mallory's own answers stopped after the first:
	// she is a stranger).
	if sets := h.openOrderSets("guess"); len(sets) != 0 {
		t.Fatalf("orders stored by a refused SIGNON: %+v", sets)
	}
	// Carol from another mailbox, with the password: fine.
	h.send("carol@elsewhere.test", "", "SIGNON blue guess "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "Signed on as Blue")
	h.clock.Add(signonWindow)
	h.send(mallory, "", "SIGNON blue guess "+pw+"\nscore 4")
	if sets := h.openOrderSets("guess"); len(sets) != 2 {
		t.Errorf("an hour later the right password from %s stored %d sets, want 2", mallory, len(sets))
	}
}

// TestSignonGuessingAgainstOnePowerIsDelayed: ten wrong passwords for
// Blue from ten addresses do not lock Blue out: from then on Blue's
// password is compared at most once a minute for mail from other
// addresses (the rest are told when to try again), while Blue's own
// address signs on at once and Red is not affected; the GM is alerted
// once.
func TestSignonGuessingAgainstOnePowerIsDelayed(t *testing.T) {
	h := newHarness(t)
	pw, _ := signonGame(t, h, "target")
	var ms []sent
	for i := 0; i <= signonPerTarget; i++ { // the last takes the minute's one check
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON b target wrong%d\nscore 2", i))
		ms = append(ms, h.outbox()...)
	}
	if n := alertsTo(ms, harnessGM); n != 1 {
		t.Errorf("%d alerts to the GM, want 1", n)
	}
	h.send("carol@elsewhere.test", "", "SIGNON blue target "+pw+"\nscore 2")
	m := h.only(h.outbox(), "carol@elsewhere.test")
	mustContain(t, m.Text, "at most once a minute", "did not check the password", "You may send it again after")
	// Blue's own address is not delayed by the others' failures.
	h.send("carol@example.test", "", "SIGNON blue target "+pw+"\nscore 3")
	mustContain(t, h.only(h.outbox(), "carol@example.test").Text, "Signed on as Blue")
	// Red is not delayed.
	h.send("dave@example.test", "", "SIGNON red target wrong\nscore 1")
	mustContain(t, h.only(h.outbox(), "dave@example.test").Text, "SIGNON failed")
	// A minute later the other address is checked again.
	h.clock.Add(signonSpacing)
	h.send("carol@elsewhere.test", "", "SIGNON blue target "+pw+"\nscore 4")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "Signed on as Blue")
}

// TestSignonGuesserIsStoppedNotTheGM: one address guessing the GM
// password is stopped after signonPerSender failures, even with the
// right password; more guessers from other addresses only delay the GM
// password for addresses that are not a GM's; the GM, from its own
// address, still signs on with the password; the alert tells the site GM
// that a reply to a GM mail always works.
func TestSignonGuesserIsStoppedNotTheGM(t *testing.T) {
	h := newHarness(t)
	gm := h.createToy("gmg", "")
	const griefer = "griefer@example.test"
	var ms []sent
	for i := 0; i < 20; i++ {
		h.send(griefer, "", fmt.Sprintf("SIGNON GM gmg guess%d\nRULES\nNo bots.\nENDRULES", i))
		ms = append(ms, h.outbox()...)
	}
	h.send(griefer, "", "SIGNON GM gmg sesame\nRULES\nNo bots.\nENDRULES")
	ms = append(ms, h.outbox()...)
	if h.game("gmg").HouseRules != "" {
		t.Fatal("the guesser's right password was taken after its failures")
	}
	if n := h.d.signons.byTarget["gm"]; n != signonPerSender {
		t.Errorf("%d of the guesser's SIGNONs compared, want %d", n, signonPerSender)
	}
	// Twenty more guessers pass the limit on the GM password.
	for i := 0; i < 20; i++ {
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON GM gmg bot%d\nRULES\nNo bots.\nENDRULES", i))
		ms = append(ms, h.outbox()...)
	}
	if n := alertsTo(ms, harnessGM); n != 1 {
		t.Errorf("%d alerts to the site GM, want 1", n)
	}
	for _, m := range to(ms, harnessGM) {
		if strings.Contains(m.Subject, "GM: Failed SIGNONs") {
			mustContain(t, m.Text, "A reply to any of my GM mails always works", griefer)
		}
	}
	// The GM from its own address: signed on at once.
	h.send(harnessGM, "", "SIGNON GM gmg sesame\nRULES\nNo bots.\nENDRULES")
	mustContain(t, h.reply(h.outbox(), harnessGM).Text, "Signed on as the GM of gmg")
	if h.game("gmg").HouseRules == "" {
		t.Fatal("the GM was locked out of its own game by others' guesses")
	}
	// From another address the GM password waits for its minute.
	h.send("boss-at-home@example.test", "", "SIGNON GM gmg sesame\nRULES\nNo spam.\nENDRULES")
	mustContain(t, h.only(h.outbox(), "boss-at-home@example.test").Text, "You may send it again after")
	h.clock.Add(signonSpacing)
	h.send("boss-at-home@example.test", "", "SIGNON GM gmg sesame\nRULES\nNo spam.\nENDRULES")
	h.outbox()
	if !strings.Contains(h.game("gmg").HouseRules, "No spam.") {
		t.Error("a minute later the GM password was still refused from another address")
	}
	// The GM token needs no password at all.
	h.send(harnessGM, gm, "RULES\nTokens work.\nENDRULES")
	h.outbox()
	if !strings.Contains(h.game("gmg").HouseRules, "Tokens work.") {
		t.Fatal("the GM token stopped working")
	}
}

// TestSignonGuessingOverallIsDelayed: fifty failures in all, spread so
// that no address and no power reaches its own limit, delay password
// sign-on for everyone but the owners by a minute, not an hour.
func TestSignonGuessingOverallIsDelayed(t *testing.T) {
	h := newHarness(t)
	pw, _ := signonGame(t, h, "all")
	for i := 0; i <= signonOverall; i++ { // the last takes the minute's one check
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON blue game%d wrong\nscore 2", i))
	}
	h.outbox()
	h.send("carol@elsewhere.test", "", "SIGNON blue all "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "many SIGNONs on this game master have failed", "You may send it again after")
	h.send("carol@example.test", "", "SIGNON blue all "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@example.test").Text, "Signed on as Blue")
	h.clock.Add(signonSpacing)
	h.send("carol@elsewhere2.test", "", "SIGNON blue all "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere2.test").Text, "Signed on as Blue")
}

// TestSignonThroughAnObserverToken: a mail to an observer's reply address
// may still sign on as a player by password (the password is compared
// before the write transaction for it too).
func TestSignonThroughAnObserverToken(t *testing.T) {
	h := newHarness(t)
	pw, _ := signonGame(t, h, "obs")
	h.send("watcher@example.test", "", "OBSERVE obs")
	obs := h.only(h.outbox(), "watcher@example.test")
	h.send("watcher@example.test", obs.Token, "SIGNON blue obs "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "watcher@example.test").Text, "Signed on as Blue", "Orders received for Blue")
}
