package mailserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
)

// quotaConfig is a small server: 4 kB mails, 10 kB and 5 mails per
// mailbox, 25 kB and 12 mails in all.
func quotaConfig(stateFile string) Config {
	cfg := testConfig(stateFile)
	cfg.MaxMessageBytes = 4000
	cfg.MailboxQuota, cfg.MailboxMaxMessages = 10_000, 5
	cfg.TotalQuota, cfg.TotalMaxMessages = 25_000, 12
	return cfg
}

// sized is a mail of exactly n bytes (as sent; delivery adds about 150)
// to one address, in lines of 78 characters.
func sized(to string, n int) testMail {
	from := "stranger@elsewhere.org"
	raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: big\r\n\r\n", from, to)
	for len(raw) < n {
		line := min(78, n-len(raw)-2)
		if line < 0 {
			raw = append(raw, 'x')
			continue
		}
		raw = append(raw, strings.Repeat("x", line)...)
		raw = append(raw, "\r\n"...)
	}
	return testMail{from, []string{to}, raw}
}

func usageOf(srv *Server, addr string) usage {
	srv.store.mu.Lock()
	defer srv.store.mu.Unlock()
	if addr == "" {
		return srv.store.used
	}
	return srv.store.userLocked(addr).used
}

// A mailbox takes mail up to its quota; then SMTP answers 452 4.2.2
// (full: try later), at RCPT when it is full already or the announced
// SIZE does not fit, else after DATA; nothing over the quota is stored.
func TestSMTPRefusesMailOverTheMailboxQuota(t *testing.T) {
	srv := start(t, quotaConfig(""))
	alice := "alice@" + testDomain
	var accepted int
	var last error
	for range 10 {
		m := sized(alice, 3000)
		if last = sendSMTP(t, srv, m.from, m.to, m.raw, 0); last != nil {
			break
		}
		accepted++
	}
	if accepted != 3 || smtpCode(last) != "452 4.2.2" || !strings.Contains(last.Error(), alice) {
		t.Fatalf("accepted %d mails of 3 kB into a 10 kB mailbox, then %v", accepted, last)
	}
	if u := usageOf(srv, alice); u.bytes > 10_000 || u.msgs != 3 {
		t.Fatalf("alice uses %+v", u)
	}
	// SIZE= that does not fit is refused at RCPT, before any data
	m := sized(alice, 300)
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, 3000); smtpCode(err) != "452 4.2.2" {
		t.Fatalf("RCPT with SIZE=3000 into a nearly full mailbox: %v", err)
	}
	// a small mail still fits
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, int64(len(m.raw))); err != nil {
		t.Fatalf("a mail that fits: %v", err)
	}
	// the owner makes room: mail fits again
	c := dialIMAP(t, srv, alice, "alice")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(1, 2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	m = sized(alice, 3000)
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, 0); err != nil {
		t.Fatalf("after EXPUNGE: %v", err)
	}
}

// A mailbox holds at most MailboxMaxMessages mails, however small.
func TestSMTPRefusesMailOverTheMessageCount(t *testing.T) {
	srv := start(t, quotaConfig(""))
	bob := "bob@" + testDomain
	for i := range 5 {
		m := sized(bob, 10)
		if err := sendSMTP(t, srv, m.from, m.to, m.raw, 0); err != nil {
			t.Fatalf("mail %d: %v", i+1, err)
		}
	}
	m := sized(bob, 10)
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, 0); smtpCode(err) != "452 4.2.2" {
		t.Fatalf("a sixth mail: %v", err)
	}
}

// A mail that can never fit (larger than the whole mailbox) is refused
// for good: 552 5.2.2.
func TestSMTPRefusesMailLargerThanTheMailbox(t *testing.T) {
	cfg := quotaConfig("")
	cfg.MaxMessageBytes = cfg.MailboxQuota // the lines added on delivery push it over
	srv := start(t, cfg)
	m := sized("carol@"+testDomain, 9_950)
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, 0); smtpCode(err) != "552 5.2.2" {
		t.Fatalf("a mail larger than the mailbox quota: %v", err)
	}
	if u := usageOf(srv, "carol@"+testDomain); u.msgs != 0 {
		t.Fatalf("carol holds %d mails", u.msgs)
	}
}

// The server as a whole takes mail up to TotalQuota, then answers 452
// 4.3.1 (insufficient system storage) for every mailbox.
func TestSMTPRefusesMailOverTheTotalQuota(t *testing.T) {
	srv := start(t, quotaConfig(""))
	var stored int
	var last error
	for i := range 20 {
		m := sized(fmt.Sprintf("p%d@%s", 100+i/2, testDomain), 3000) // two per mailbox: never a mailbox quota
		if last = sendSMTP(t, srv, m.from, m.to, m.raw, 0); last != nil {
			break
		}
		stored++
	}
	if stored != 7 || smtpCode(last) != "452 4.3.1" {
		t.Fatalf("stored %d mails of 3 kB under a 25 kB total, then %v", stored, last)
	}
	if u := usageOf(srv, ""); u.bytes > 25_000 {
		t.Fatalf("server uses %+v", u)
	}
	// one mail to several mailboxes is all or nothing
	before := usageOf(srv, "")
	m := sized("x1@"+testDomain, 1000)
	err := sendSMTP(t, srv, m.from, []string{"x1@" + testDomain, "x2@" + testDomain, "x3@" + testDomain}, m.raw, 0)
	if smtpCode(err) != "452 4.3.1" || usageOf(srv, "") != before {
		t.Fatalf("three copies over the total: %v, usage %+v → %+v", err, before, usageOf(srv, ""))
	}
}

// IMAP APPEND and COPY are held to the same quotas: NO [OVERQUOTA].
func TestIMAPRefusesAppendAndCopyOverQuota(t *testing.T) {
	srv := start(t, quotaConfig(""))
	c := dialIMAP(t, srv, gm, "gmpass")
	if err := c.Create("Archive", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	appendMail := func(box string, n int) error {
		raw := sized(gm, n).raw
		cmd := c.Append(box, int64(len(raw)), nil)
		cmd.Write(raw)
		cmd.Close()
		_, err := cmd.Wait()
		return err
	}
	for i := range 3 {
		if err := appendMail("INBOX", 3000); err != nil {
			t.Fatalf("APPEND %d: %v", i, err)
		}
	}
	var ie *imap.Error
	if err := appendMail("INBOX", 3000); !errors.As(err, &ie) || ie.Code != imap.ResponseCodeOverQuota {
		t.Fatalf("APPEND over quota: %v", err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(imap.SeqSetNum(1), "Archive").Wait(); !errors.As(err, &ie) || ie.Code != imap.ResponseCodeOverQuota {
		t.Fatalf("COPY over quota: %v", err)
	}
	if u := usageOf(srv, gm); u.msgs != 3 {
		t.Fatalf("gm holds %d mails", u.msgs)
	}
}

// Usage is counted again from the file at start: a full mailbox stays
// full across a restart.
func TestQuotaSurvivesRestart(t *testing.T) {
	cfg := quotaConfig(tempPath(t, "mail.db"))
	srv, err := Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	alice := "alice@" + testDomain
	for range 3 {
		deliver(t, srv, sized(alice, 3000))
	}
	before := usageOf(srv, alice)
	srv.Close()
	srv = start(t, cfg)
	if u := usageOf(srv, alice); u != before {
		t.Fatalf("usage after restart %+v, was %+v", u, before)
	}
	m := sized(alice, 3000)
	if err := sendSMTP(t, srv, m.from, m.to, m.raw, 0); smtpCode(err) != "452 4.2.2" {
		t.Fatalf("full mailbox after restart: %v", err)
	}
}

// The quotas hold for the system accounts too: a stranger can fill the
// daemon's mailbox, and is then refused like anywhere else.
func TestQuotaHoldsForSystemAccounts(t *testing.T) {
	cfg := sysConfig(t.TempDir())
	q := quotaConfig("")
	cfg.MaxMessageBytes, cfg.MailboxQuota, cfg.MailboxMaxMessages, cfg.TotalQuota, cfg.TotalMaxMessages =
		q.MaxMessageBytes, q.MailboxQuota, q.MailboxMaxMessages, q.TotalQuota, q.TotalMaxMessages
	srv := start(t, cfg)
	var last error
	accepted := 0
	for range 10 {
		m := sized("gm+token@"+testDomain, 3000)
		if last = sendSMTP(t, srv, m.from, m.to, m.raw, 0); last != nil {
			break
		}
		accepted++
	}
	if accepted != 3 || smtpCode(last) != "452 4.2.2" {
		t.Fatalf("gm@ took %d mails of 3 kB, then %v", accepted, last)
	}
}

// Usage reports what an account and the whole server hold against their
// quotas, as mail comes and goes: what the daemon watches to warn its GM
// before its own mailbox fills up.
func TestUsageFollowsDeliveryAndExpunge(t *testing.T) {
	srv := start(t, quotaConfig(""))
	alice := "alice@" + testDomain
	acct, all, err := srv.Usage(alice)
	if err != nil || acct != (Usage{MaxBytes: 10_000, MaxMessages: 5}) || all.Messages != 0 || all.MaxBytes != 25_000 || all.MaxMessages != 12 {
		t.Fatalf("before any mail: %+v %+v %v", acct, all, err)
	}
	deliver(t, srv, sized(alice, 1000))
	deliver(t, srv, sized(alice, 1000))
	deliver(t, srv, sized(gm, 1000))
	acct, all, _ = srv.Usage(strings.ToUpper(alice))
	if acct.Messages != 2 || acct.Bytes < 2000 || acct.Bytes > 2600 || all.Messages != 3 || all.Bytes < acct.Bytes+1000 {
		t.Fatalf("after three mails: alice %+v, server %+v", acct, all)
	}
	c := dialIMAP(t, srv, alice, "alice")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if acct, all, _ = srv.Usage(alice); acct.Messages != 1 || all.Messages != 2 {
		t.Fatalf("after an expunge: alice %+v, server %+v", acct, all)
	}
	if _, _, err := srv.Usage("alice@elsewhere.org"); err == nil {
		t.Fatal("Usage of an address at another domain")
	}
}
