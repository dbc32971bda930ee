package server

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log sink the server's goroutines share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestDebugLogOfAWholeGameHoldsNoCredential plays a game over the
// embedded mail server at log level debug (protocol transcripts on) and
// greps the log for every reply token (the site GM's, the game GM's,
// every player's), every player's password and the GM password. At
// debug level the log used to hold all of them.
func TestDebugLogOfAWholeGameHoldsNoCredential(t *testing.T) {
	const gmPassword = "Open-Sesame-42"
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newE2EWithLog(t, log, func(c *Config) { c.GMPassword = gmPassword })

	welcome := e.next(e2eGM, "Welcome")
	e.send(e2eGM, tokenAddr(welcome.Token), "CREATE redact standard")
	created := e.next(e2eGM, "Re:")
	secrets := map[string]string{"site GM token": welcome.Token, "GM token": created.Token, "GM password": gmPassword}
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	for i, p := range powers {
		e.send(addrOf(i), "gm@pbemd.localhost", "JOIN redact prefer "+p)
	}
	pl := map[string]player{}
	passwords := map[string]string{}
	for i, p := range powers {
		m := e.next(addrOf(i), "You are")
		pl[p] = player{addrOf(i), m.Token}
		secrets[p+" token"] = m.Token
		k := strings.Index(m.Text, "Your password: ")
		if k < 0 {
			t.Fatalf("no password in the power mail of %s", p)
		}
		passwords[p] = strings.Fields(m.Text[k+len("Your password: "):])[0]
		secrets[p+" password"] = passwords[p]
	}
	// Orders by token, by password (from another mailbox), a wrong
	// password, the GM by password and by token, press; then the deadline.
	eng, fra := pl["england"], pl["france"]
	e.send(eng.addr, tokenAddr(eng.token), "F Lon - Nth\nA Lvp - Yor")
	e.next(eng.addr, "Re:")
	e.send("france-at-work@pbemd.localhost", "gm@pbemd.localhost", "SIGNON france redact "+passwords["france"]+"\nA Par - Bur")
	mustContain(t, e.next("france-at-work@pbemd.localhost", "Re:").Text, "Signed on as France")
	e.send("guesser@pbemd.localhost", "gm@pbemd.localhost", "SIGNON germany redact "+passwords["france"]+"\nA Mun - Ruh")
	mustContain(t, e.next("guesser@pbemd.localhost", "Re:").Text, "SIGNON failed")
	e.send(e2eGM, "gm@pbemd.localhost", "SIGNON GM redact "+gmPassword+"\nEXTEND 1h")
	mustContain(t, e.next(e2eGM, "Re:").Text, "deadline")
	e.send(e2eGM, tokenAddr(created.Token), "BROADCAST\nGood luck.\nENDPRESS")
	e.next(e2eGM, "Re:")
	e.send(fra.addr, tokenAddr(fra.token), "PRESS TO England\nPassword: not-a-secret-but-looks-like-one\nENDPRESS")
	e.next(eng.addr, "Press from France")
	e.clock.Add(72 * time.Hour)
	e.srv.Kick()
	e.next(eng.addr, "Spring 1901 Movement — results")
	e.settle(e2eGM)

	out := logs.String()
	if !strings.Contains(out, `level=DEBUG msg=imap`) || !strings.Contains(out, `level=DEBUG msg=smtp`) {
		t.Fatalf("no protocol transcript in the debug log (%d bytes): the test would prove nothing", len(out))
	}
	for what, s := range secrets {
		if s == "" {
			t.Fatalf("no %s to look for", what)
		}
		if strings.Contains(out, s) {
			i := strings.Index(out, s)
			t.Errorf("the %s %q is in the debug log, e.g. …%s…", what, s, out[max(0, i-200):min(len(out), i+100)])
		}
	}
	t.Logf("debug log of %d bytes, %d lines, checked for %d credentials", len(out), strings.Count(out, "\n"), len(secrets))
}

func addrOf(i int) string { return "p" + string(rune('0'+i)) + "@pbemd.localhost" }
