package daemon

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
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

// TestSignonGuessingAgainstOnePowerIsLimited: ten wrong passwords for
// Blue from ten addresses lock password sign-on for Blue (even with the
// right password, from anywhere) but not for Red; the GM is alerted once;
// Blue's reply token still works.
func TestSignonGuessingAgainstOnePowerIsLimited(t *testing.T) {
	h := newHarness(t)
	pw, _ := signonGame(t, h, "target")
	var ms []sent
	for i := 0; i < signonPerTarget; i++ {
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON b target wrong%d\nscore 2", i))
		ms = append(ms, h.outbox()...)
	}
	h.send("carol@elsewhere.test", "", "SIGNON blue target "+pw+"\nscore 2")
	m := h.only(h.outbox(), "carol@elsewhere.test")
	mustContain(t, m.Text, "too many failed SIGNONs for this power", "did not check the password")
	if n := alertsTo(ms, harnessGM); n != 1 {
		t.Errorf("%d alerts to the GM, want 1", n)
	}
	// Red is not locked.
	h.send("dave@example.test", "", "SIGNON red target wrong\nscore 1")
	mustContain(t, h.only(h.outbox(), "dave@example.test").Text, "SIGNON failed")
}

// TestGMPasswordGuessingIsLimited: ten wrong GM passwords from ten
// addresses, and the right one is refused unchecked for the hour; the
// site GM is told once; the GM's reply token still works.
func TestGMPasswordGuessingIsLimited(t *testing.T) {
	h := newHarness(t)
	gm := h.createToy("gmg", "")
	var ms []sent
	for i := 0; i < signonPerTarget; i++ {
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON GM gmg guess%d\nRULES\nNo bots.\nENDRULES", i))
		ms = append(ms, h.outbox()...)
	}
	h.send(harnessGM, "", "SIGNON GM gmg sesame\nRULES\nNo bots.\nENDRULES")
	ms = append(ms, h.outbox()...)
	if h.game("gmg").HouseRules != "" {
		t.Fatal("the GM password was checked after ten failures")
	}
	mustContain(t, h.reply(ms, harnessGM).Text, "too many failed SIGNONs")
	if n := alertsTo(ms, harnessGM); n != 1 {
		t.Errorf("%d alerts to the site GM, want 1", n)
	}
	h.send(harnessGM, gm, "RULES\nNo bots.\nENDRULES")
	h.outbox()
	if h.game("gmg").HouseRules == "" {
		t.Fatal("the GM token stopped working")
	}
}

// TestSignonGuessingOverallIsLimited: fifty failures in all, spread so
// that no address and no power reaches its own limit, stop password
// sign-on for everyone for the hour.
func TestSignonGuessingOverallIsLimited(t *testing.T) {
	h := newHarness(t)
	pw, _ := signonGame(t, h, "all")
	for i := 0; i < signonOverall; i++ {
		h.send(fmt.Sprintf("bot%d@example.test", i), "", fmt.Sprintf("SIGNON blue game%d wrong\nscore 2", i))
	}
	h.outbox()
	h.send("carol@elsewhere.test", "", "SIGNON blue all "+pw+"\nscore 2")
	mustContain(t, h.only(h.outbox(), "carol@elsewhere.test").Text, "too many failed SIGNONs on this game master")
	h.clock.Add(signonWindow + time.Second)
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
