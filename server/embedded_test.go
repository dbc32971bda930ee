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
