package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/store"
	"pbemd/store/storetest"
)

// TestCrashKillRestart runs the real pbemd binary against an embedded mail
// server in this process, SIGKILLs it at random moments while players keep
// sending orders and deadlines keep falling (at least 50 kills), restarts
// it each time, and then proves from the store and the mailboxes:
//
//   - no accepted order is lost: every order mail was processed, and each
//     one acknowledged has its order set in the store;
//   - no phase is processed twice: the history holds each phase once and
//     the audit log records one "process" per phase;
//   - every report is sent and none twice: each player has exactly one
//     results mail per processed phase (a second copy with the same
//     Message-ID is the one documented SMTP window: reported, not failed).
func TestCrashKillRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test runs the real binary for about a minute; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "pbemd")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build pbemd: %v", err)
	}

	mail, err := mailserver.Start(mailserver.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "crash.test", HashCost: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()

	data := filepath.Join(dir, "data")
	httpAddr := freePort(t)
	cfgPath := filepath.Join(dir, "pbemd.toml")
	cfg := fmt.Sprintf(`data_dir = %q
address = "gm@crash.test"
gm = ["master@crash.test"]
gm_password = "pw"
poll = "@every 1s"
tick = "@every 1s"
http = %q
log_level = "warn"
[imap]
addr = %q
username = "gm@crash.test"
password = "gm"
security = "plain"
poll = "1s"
[smtp]
addr = %q
security = "plain"
[schedule]
deadline_hour = -1
orders = "2s"
retreats = "1s"
builds = "1s"
fast = "2s"
reminders = []
late_grace = "1h"
`, data, httpAddr, mail.IMAPAddr(), mail.SMTPAddr())
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}

	proc := newServeProcess(t, bin, cfgPath)
	proc.start()

	seq := 0
	deliver := func(from, to, body string) string {
		seq++
		id := fmt.Sprintf("crash-%d@crash.test", seq)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: orders\r\nMessage-ID: <%s>\r\nDate: %s\r\n\r\n%s\r\n",
			from, to, id, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
		if err := mail.Deliver(from, []string{to}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		return id
	}

	// Set up the game while the daemon runs undisturbed.
	deliver("master@crash.test", "gm@crash.test", "SIGNON GM - pw\nCREATE crash standard")
	waitFor(t, 30*time.Second, "game created", func() bool {
		return len(inbox(t, mail, "master@crash.test", "[crash]")) > 0
	})
	powers := map[string]string{} // power → player address
	tokens := map[string]string{} // power → token
	for i := 0; i < 7; i++ {
		deliver(fmt.Sprintf("p%d@crash.test", i), "gm@crash.test", "JOIN crash")
	}
	waitFor(t, 30*time.Second, "powers assigned", func() bool {
		for i := 0; i < 7; i++ {
			addr := fmt.Sprintf("p%d@crash.test", i)
			for _, m := range inbox(t, mail, addr, "You are ") {
				power := strings.ToLower(m.Subject[strings.Index(m.Subject, "You are ")+len("You are "):])
				powers[power], tokens[power] = addr, m.Token
			}
		}
		return len(powers) == 7
	})
	holds := map[string]string{
		"austria": "A Vie H\nA Bud H\nF Tri H", "england": "F Lon H\nF Edi H\nA Lvp H",
		"france": "F Bre H\nA Par H\nA Mar H", "germany": "F Kie H\nA Ber H\nA Mun H",
		"italy": "F Nap H\nA Rom H\nA Ven H", "russia": "F StP/sc H\nA Mos H\nA War H\nF Sev H",
		"turkey": "F Ank H\nA Con H\nA Smy H",
	}
	order := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}

	// Chaos: players send orders every few hundred milliseconds while the
	// daemon is killed at random moments and restarted.
	rng := rand.New(rand.NewPCG(7, 11))
	began := time.Now()
	var sent []string // Message-IDs of order mails
	kills := 0
	nextKill := time.Now().Add(time.Duration(100+rng.IntN(900)) * time.Millisecond)
	deadline := time.Now().Add(90 * time.Second)
	var inDeliver, inKill time.Duration
	for kills < 55 && time.Now().Before(deadline) {
		p := order[rng.IntN(len(order))]
		t0 := time.Now()
		sent = append(sent, deliver(powers[p], "gm+"+tokens[p]+"@crash.test", holds[p]))
		inDeliver += time.Since(t0)
		time.Sleep(time.Duration(20+rng.IntN(60)) * time.Millisecond)
		if time.Now().After(nextKill) {
			t0 := time.Now()
			proc.kill()
			kills++
			proc.start()
			inKill += time.Since(t0)
			nextKill = time.Now().Add(time.Duration(100+rng.IntN(900)) * time.Millisecond)
		}
	}
	if kills < 50 {
		t.Fatalf("only %d kills in the time allowed", kills)
	}
	t.Logf("chaos over after %v: %d kills, %d order mails (deliver %v, kill+start %v)", time.Since(began).Round(time.Millisecond), kills, len(sent), inDeliver, inKill)
	// Let it settle: every order mail acknowledged, then stop it cleanly.
	acks := map[string]int{}
	// An acknowledgement whose delivery was cut by a kill waits for its
	// retry (30 s, doubling per attempt a kill interrupted), so a mail
	// hit twice can take 90 s and more to arrive.
	waitFor(t, 180*time.Second, "every order mail acknowledged", func() bool {
		for k := range acks {
			delete(acks, k)
		}
		for _, p := range order {
			for _, m := range inbox(t, mail, powers[p], "Re: orders") {
				acks[m.InReplyTo]++
			}
		}
		for _, id := range sent {
			if acks[id] == 0 {
				return false
			}
		}
		return true
	})
	t.Logf("all acknowledged after %v", time.Since(began).Round(time.Millisecond))
	// A mail whose delivery was cut by a kill waits for its retry backoff;
	// let the sender finish (the outbox depth is on the metrics endpoint).
	waitFor(t, 90*time.Second, "outbox drained", func() bool { return outboxEmpty(httpAddr) })
	t.Logf("outbox drained after %v", time.Since(began).Round(time.Millisecond))
	proc.stop()

	db := storetest.OpenFile(t, filepath.Join(data, "pbemd.db")) // checked when the test ends
	var g *store.Game
	stored := map[string]bool{}
	processed := map[string]int{}
	err = db.View(func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game("crash"); err != nil {
			return err
		}
		for ph := 0; ph <= g.Phase; ph++ {
			sets, err := tx.OrderSets("crash", ph)
			if err != nil {
				return err
			}
			for _, s := range sets {
				stored[s.MsgID] = true
			}
			if ph < g.Phase {
				if _, err := tx.Phase("crash", ph); err != nil {
					return fmt.Errorf("phase %d missing from the history: %w", ph, err)
				}
			}
		}
		log, err := tx.AuditLog("crash")
		for _, e := range log {
			if e.Action == "process" {
				processed[e.Detail]++
			}
		}
		if n := tx.OutboxLen(); n != 0 {
			return fmt.Errorf("%d mails still in the outbox", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range sent {
		if !stored[id] {
			t.Errorf("order mail %s was acknowledged but its orders are not in the store", id)
		}
	}
	for id, n := range processed {
		if n != 1 {
			t.Errorf("phase %s processed %d times", id, n)
		}
	}
	if len(processed) != g.Phase || g.Phase < 3 {
		t.Errorf("%d phases in the audit log, game at phase %d (want at least 3 processed)", len(processed), g.Phase)
	}
	// Reports: one results mail per phase per player; same-Message-ID
	// copies are the documented window.
	window := 0
	for _, p := range order {
		byTitle := map[string]map[string]int{}
		for _, m := range inbox(t, mail, powers[p], "— results") {
			if byTitle[m.Subject] == nil {
				byTitle[m.Subject] = map[string]int{}
			}
			byTitle[m.Subject][m.MessageID]++
		}
		if len(byTitle) != g.Phase {
			t.Errorf("%s got results for %d phases, want %d", p, len(byTitle), g.Phase)
		}
		for subj, ids := range byTitle {
			if len(ids) != 1 {
				t.Errorf("%s got %q as %d different mails: a report was generated twice", p, subj, len(ids))
			}
			for _, n := range ids {
				window += n - 1
			}
		}
	}
	for id, n := range acks {
		if n > 1 {
			window += n - 1
			_ = id
		}
	}
	t.Logf("%d kills, %d order mails, %d phases processed, %d same-Message-ID redeliveries (the documented SMTP window)", kills, len(sent), g.Phase, window)
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(time.Second)
	}
}

// inbox reads every mail in an account's INBOX over IMAP and returns
// those whose subject contains subj.
func inbox(t *testing.T, srv *mailserver.Server, addr, subj string) []*mailer.Mail {
	t.Helper()
	user, password, err := srv.Credentials(addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []*mailer.Mail
	for _, m := range msgs {
		for _, raw := range m.BodySection {
			pm, err := mailer.ParseMail(raw.Bytes, "gm@crash.test")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(pm.Subject, subj) {
				if len(pm.ReplyTo) > 0 {
					a := pm.ReplyTo[0].Address
					if i, j := strings.Index(a, "+"), strings.Index(a, "@"); i >= 0 && j > i {
						pm.Token = a[i+1 : j]
					}
				}
				out = append(out, pm)
			}
		}
	}
	return out
}
