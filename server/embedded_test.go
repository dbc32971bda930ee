package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"
)

// On the embedded default the daemon's mailbox (gm@) and the site GM's
// (master@) have generated passwords: the start-up banner prints them,
// the data folder keeps them (mode 0600), the daemon itself reads and
// sends with its own, and the local part no longer opens either.
func TestEmbeddedSystemMailboxesHaveGeneratedPasswords(t *testing.T) {
	e := newE2E(t)
	var banner strings.Builder
	e.srv.Describe(&banner)

	path := filepath.Join(e.srv.cfg.DataDir, MailPasswordFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %04o", path, fi.Mode().Perm())
	}
	raw, _ := os.ReadFile(path)
	passwords := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if addr, pw, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			passwords[addr] = pw
		}
	}
	for _, addr := range []string{"gm@pbemd.localhost", e2eGM} {
		pw := passwords[addr]
		if len(pw) < 20 {
			t.Fatalf("password of %s in %s: %q", addr, path, pw)
		}
		if !strings.Contains(banner.String(), addr+"  password "+pw+"\n") {
			t.Errorf("the banner does not give the password of %s:\n%s", addr, banner.String())
		}
		local, _, _ := strings.Cut(addr, "@")
		c, err := imapclient.DialInsecure(e.srv.Mail.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(addr, local).Wait(); err == nil {
			t.Errorf("%s opened with %q", addr, local)
		}
		c.Close()
	}
	// the daemon sent the welcome mail as gm@ and the site GM reads it
	// with the banner's password (e.next logs in with it)
	welcome := e.next(e2eGM, "Welcome")
	// the daemon reads its own mailbox: a player's mail is answered
	e.send("alice@pbemd.localhost", "gm@pbemd.localhost", "HELP")
	if m := e.next("alice@pbemd.localhost", "Re:"); m.Text == "" {
		t.Fatal("empty answer to HELP")
	}
	if welcome.Token == "" {
		t.Fatal("the welcome mail has no site GM token")
	}
}

// The generated passwords are shown at the start that made them only:
// the banner of a later start (under systemd, in the journal) names the
// file they are in and shows neither. The README's Quick start shows the
// two banners' lines about the file as they are printed.
func TestBannerShowsGeneratedPasswordsOnlyWhenMade(t *testing.T) {
	readmePath, err := filepath.Abs("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	cfg := DefaultConfig() // data_dir "data", as in the README
	cfg.HTTP = ""
	cfg.PasswordCost = 4
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	start := func() string {
		t.Helper()
		srv, err := Open(cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		var banner strings.Builder
		srv.Describe(&banner)
		return banner.String()
	}
	first := start()
	path := filepath.Join(cfg.DataDir, MailPasswordFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var passwords []string
	for _, line := range strings.Split(string(raw), "\n") {
		if addr, pw, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			passwords = append(passwords, pw)
			if !strings.Contains(first, addr+"  password "+pw+"\n") {
				t.Errorf("the first banner does not give the password of %s:\n%s", addr, first)
			}
		}
	}
	if len(passwords) != 2 {
		t.Fatalf("%s holds %d passwords, want gm@'s and master@'s:\n%s", path, len(passwords), raw)
	}
	mustContain(t, first, "generated now and kept in "+path+"; shown at this start only")

	second := start()
	for _, pw := range passwords {
		if strings.Contains(second, pw) {
			t.Errorf("the second banner shows a password:\n%s", second)
		}
	}
	mustContain(t, second, "gm@pbemd.localhost, master@pbemd.localhost: passwords in "+path+" (generated at an earlier start")
	if raw2, _ := os.ReadFile(path); string(raw2) != string(raw) {
		t.Errorf("the second start changed %s", path)
	}

	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	_, quick, _ := strings.Cut(string(readme), "## Quick start")
	quick, _, _ = strings.Cut(quick, "\n## ")
	shown := 0
	for _, line := range strings.Split(quick, "\n") {
		line = strings.TrimSpace(line)
		if !strings.Contains(line, MailPasswordFile) || strings.Contains(line, "`") {
			continue // not a banner line
		}
		shown++
		if !strings.Contains(first, "  "+line+"\n") && !strings.Contains(second, "  "+line+"\n") {
			t.Errorf("the README shows a banner line neither start printed:\n%s\nfirst:\n%s\nsecond:\n%s", line, first, second)
		}
	}
	if shown != 2 {
		t.Errorf("the README's Quick start shows %d banner lines about %s, want the first start's and a later one's", shown, MailPasswordFile)
	}
}
