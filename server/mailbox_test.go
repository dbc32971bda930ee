package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// On the embedded default the daemon's own mailbox has a quota. Before it
// fills, the site GM is told once (not once per mail) what to do, and
// /healthz says so; handled mail leaves the mailbox after
// delete_handled_after (30 days by default), which ends the problem.
func TestDaemonMailboxNearlyFullTellsTheGMOnce(t *testing.T) {
	e := newE2EWith(t, func(c *Config) { c.Mailserver.MailboxMaxMessages = 10 })
	if e.srv.IMAP.DeleteHandledAfter != 30*24*time.Hour {
		t.Fatalf("the daemon keeps handled mail for %v on the embedded default, want 30 days", e.srv.IMAP.DeleteHandledAfter)
	}
	url := serveEndpoint(t, e.srv)
	e.next(e2eGM, "Welcome")
	// A stranger is answered once a day: each HELP comes from someone new.
	n := 0
	help := func() {
		t.Helper()
		n++
		who := fmt.Sprintf("alice%d@pbemd.localhost", n)
		e.send(who, "gm@pbemd.localhost", "HELP")
		e.next(who, "Re:")
	}
	for range 7 {
		help()
	}
	if p := e.srv.mailProblems(); len(p) != 0 {
		t.Fatalf("at 7 of 10 mails: problems %q", p)
	}
	e.quiet(e2eGM, "nearly full")

	help() // 8 of 10: 80%
	alert := e.next(e2eGM, "nearly full")
	mustContain(t, alert.Text, "gm@pbemd.localhost is 80% full (8 of 10 messages", "players' orders",
		"delete_handled_after = \"720h\" in [mailserver]", "30 days", "mailbox_quota", "set aside")
	e.waitProblem("80% full")
	code, body := healthz(t, url)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("/healthz at 80%%: %d %q", code, body)
	}
	mustContain(t, body, "failing", "incoming mail: the mailbox of gm@pbemd.localhost is 80% full (8 of 10 messages", "new mail is refused")

	help() // 9 of 10: told already
	e.waitProblem("90% full")
	e.quiet(e2eGM, "nearly full")

	// a month later the handled mail is gone, and so is the problem
	if d := time.Until(e.clock.Now()); d < 0 {
		e.clock.Add(-d) // the daemon's clock at least at the mail's
	}
	e.clock.Add(31 * 24 * time.Hour)
	e.srv.fetcher.Kick()
	end := time.Now().Add(20 * time.Second)
	for len(e.srv.mailProblems()) > 0 || e.usedByDaemon() > 0 {
		if time.Now().After(end) {
			t.Fatalf("a month later: %d mails in gm@, problems %q", e.usedByDaemon(), e.srv.mailProblems())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, body := healthz(t, url); code != http.StatusOK {
		t.Fatalf("/healthz after the cleanup: %d %q", code, body)
	}
}

// usedByDaemon is the number of mails in the daemon's mailbox.
func (e *e2e) usedByDaemon() int {
	acct, _, err := e.srv.Mail.Usage("gm@pbemd.localhost")
	if err != nil {
		e.t.Fatal(err)
	}
	return acct.Messages
}

// waitProblem waits until the daemon's mail problems (what /healthz
// lists) mention sub, and returns them.
func (e *e2e) waitProblem(sub string) string {
	e.t.Helper()
	end := time.Now().Add(20 * time.Second)
	for {
		p := strings.Join(e.srv.mailProblems(), "\n")
		if strings.Contains(p, sub) {
			return p
		}
		if time.Now().After(end) {
			e.t.Fatalf("no mail problem says %q: %q", sub, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// delete_handled_after = "0s" in [mailserver] keeps handled mail in the
// daemon's mailbox for ever.
func TestDaemonMailboxRetentionFromTheConfig(t *testing.T) {
	cfg := DefaultConfig()
	if err := DecodeConfig("[mailserver]\ndelete_handled_after = \"0s\"\n", &cfg); err != nil {
		t.Fatal(err)
	}
	e := newE2EWith(t, func(c *Config) { c.Mailserver.DeleteHandledAfter = cfg.Mailserver.DeleteHandledAfter })
	if e.srv.IMAP.DeleteHandledAfter != 0 {
		t.Fatalf("delete_handled_after = \"0s\" wired as %v", e.srv.IMAP.DeleteHandledAfter)
	}
	e.next(e2eGM, "Welcome")
	e.send("alice@pbemd.localhost", "gm@pbemd.localhost", "HELP")
	e.next("alice@pbemd.localhost", "Re:")
	if d := time.Until(e.clock.Now()); d < 0 {
		e.clock.Add(-d)
	}
	e.clock.Add(365 * 24 * time.Hour)
	e.send("alice@pbemd.localhost", "gm@pbemd.localhost", "HELP")
	e.next("alice@pbemd.localhost", "Re:")
	if n := e.usedByDaemon(); n != 2 {
		t.Fatalf("a year later the daemon's mailbox holds %d mails, want both", n)
	}
}

// A negative delete_handled_after, in [mailserver] or [imap], is refused.
func TestConfigRefusesNegativeRetention(t *testing.T) {
	for name, text := range map[string]string{
		"mailserver": "[mailserver]\ndelete_handled_after = \"-1h\"",
		"imap": "[imap]\naddr = \"127.0.0.1:143\"\nusername = \"u\"\nsecurity = \"plain\"\ndelete_handled_after = \"-1h\"\n" +
			"[smtp]\naddr = \"127.0.0.1:25\"\nsecurity = \"plain\"",
	} {
		t.Run(name, func(t *testing.T) {
			cfg := DefaultConfig()
			err := DecodeConfig(text, &cfg)
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), "delete_handled_after") {
				t.Fatalf("accepted or unclear (%v):\n%s", err, text)
			}
		})
	}
}
