package main

import (
	"fmt"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// docBlock returns the fenced block after the marker <!-- test: name -->
// in docs/real-mail.md: what the page tells a reader to run.
func docBlock(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../../docs/real-mail.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "<!-- test: "+name+" -->\n```")
	if !ok {
		t.Fatalf("docs/real-mail.md has no block marked %q", name)
	}
	_, rest, _ = strings.Cut(rest, "\n") // the fence's language
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("the block %q is not closed", name)
	}
	return block
}

// readMailbox returns the raw mails in one folder of an account on the
// test servers.
func readMailbox(t *testing.T, addr, user, pass, folder string) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil // a folder not made yet is empty
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		for _, b := range m.BodySection {
			out = append(out, string(b.Bytes))
		}
	}
	return out
}

// The real-mail page works as written against the Dovecot + Postfix that
// .ci/mail installs: its up.sh line starts them with its accounts, its
// local.toml is the daemon's config, the game is made with its command,
// and alice's LIST and JOIN, sent over SMTP with her password, are
// answered in her inbox while gm's handled mail moves to the processed
// folder. Runs with PBEMD_REALMAIL=1 (root, .ci/mail/install.sh first).
func TestRealMailPageRoundTrip(t *testing.T) {
	if os.Getenv("PBEMD_REALMAIL") != "1" {
		t.Skip("needs PBEMD_REALMAIL=1: root, after .ci/mail/install.sh (it starts and stops the servers itself)")
	}
	if os.Geteuid() != 0 {
		t.Fatal("PBEMD_REALMAIL=1 needs root")
	}
	// Take turns with the mailer suite: both use .ci/mail's default ports.
	lock, err := os.OpenFile("/tmp/pbemd-realmail.lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	repo, _ := filepath.Abs("../..")
	work := t.TempDir()
	// The servers run as other users: their state goes where they may
	// walk (a test's temp folder is private to root).
	state, err := os.MkdirTemp("", "pbemd-realmail-page-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(state)
	env := append(os.Environ(), "PBEMD_MAIL_DIR="+state)
	sh := func(script string) {
		t.Helper()
		cmd := exec.Command("bash", "-euc", script)
		cmd.Dir, cmd.Env = repo, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh(docBlock(t, "up"))
	defer func() {
		sh(".ci/mail/down.sh")
		if t.Failed() {
			for _, f := range []string{"dovecot.log", "postfix.log"} {
				b, _ := os.ReadFile(filepath.Join(state, f))
				t.Logf("%s:\n%s", f, b)
			}
		}
	}()

	if err := os.WriteFile(filepath.Join(work, "local.toml"), []byte(docBlock(t, "local.toml")), 0o600); err != nil {
		t.Fatal(err)
	}
	pbemd := func(args ...string) *exec.Cmd {
		cmd := exec.Command(binary(t), args...)
		cmd.Dir = work
		return cmd
	}
	if out, err := pbemd("game", "create", "-config", "local.toml", "rome1", "ancientmed").CombinedOutput(); err != nil {
		t.Fatalf("game create: %v\n%s", err, out)
	}
	serve := pbemd("serve", "-config", "local.toml")
	log := &lockedBuffer{}
	serve.Stdout, serve.Stderr = log, log
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		serve.Process.Signal(syscall.SIGTERM)
		serve.Wait()
		if t.Failed() {
			t.Logf("pbemd serve:\n%s", log)
		}
	}()

	const imapAddr, smtpAddr = "127.0.0.1:10143", "127.0.0.1:10025"
	send := func(body string) {
		t.Helper()
		msg := fmt.Sprintf("From: alice@example.test\r\nTo: gm@example.test\r\nSubject: hello\r\nMessage-ID: <%d.alice@example.test>\r\nDate: %s\r\n\r\n%s\r\n",
			time.Now().UnixNano(), time.Now().Format(time.RFC1123Z), body)
		auth := smtp.PlainAuth("", "alice@example.test", "alicepass", "127.0.0.1")
		if err := smtp.SendMail(smtpAddr, auth, "alice@example.test", []string{"gm@example.test"}, []byte(msg)); err != nil {
			t.Fatalf("alice's mail: %v", err)
		}
	}
	await := func(what, want string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			for _, m := range readMailbox(t, imapAddr, "alice@example.test", "alicepass", "INBOX") {
				if strings.Contains(m, want) {
					return
				}
			}
			time.Sleep(500 * time.Millisecond)
		}
		t.Fatalf("no answer to %s with %q in alice's inbox", what, want)
	}
	send("LIST")
	await("LIST", "rome1")
	send("JOIN rome1 prefer Rome > Carthage")
	await("JOIN", "You are signed up for rome1")
	deadline := time.Now().Add(30 * time.Second)
	for len(readMailbox(t, imapAddr, "gm@example.test", "gmpass", "Processed")) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("gm's handled mail did not move to the processed folder")
		}
		time.Sleep(500 * time.Millisecond)
	}
}
