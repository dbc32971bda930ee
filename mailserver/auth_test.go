package mailserver

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
	"golang.org/x/crypto/bcrypt"
)

// sysConfig is a server with the system accounts gm@ and master@, their
// passwords kept in dir, and the configured account p1@.
func sysConfig(dir string) Config {
	return Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: testDomain,
		StateFile: filepath.Join(dir, "mail.db"), PasswordFile: filepath.Join(dir, "mail-passwords"),
		System:   []string{gm, "Master@" + testDomain},
		Accounts: []Account{{Address: "p1@" + testDomain, Password: "p1pass"}},
		HashCost: bcrypt.MinCost,
	}
}

// The daemon's mailbox (gm@) and the site GM's (master@) hold every reply
// token and the site GM token: they open with their generated password
// only — not their local part, not player_password — over IMAP LOGIN,
// IMAP AUTHENTICATE and SMTP AUTH.
func TestSystemAccountsOpenWithTheirGeneratedPasswordOnly(t *testing.T) {
	dir := t.TempDir()
	cfg := sysConfig(dir)
	cfg.PlayerPassword = "letmein"
	srv := start(t, cfg)
	sys := srv.SystemAccounts()
	if len(sys) != 2 || sys[0].Address != gm || sys[1].Address != master {
		t.Fatalf("system accounts %+v", sys)
	}
	generated := regexp.MustCompile(`^[a-z2-7]{26}$`) // 128 bits in base32
	for _, a := range sys {
		if !generated.MatchString(a.Password) {
			t.Fatalf("password of %s is %q, not 26 base32 letters", a.Address, a.Password)
		}
	}
	if sys[0].Password == sys[1].Password {
		t.Fatal("both system accounts have the same password")
	}
	deliver(t, srv, orderMail(1, "secret-token"))
	for _, a := range sys {
		local := strings.TrimSuffix(a.Address, "@"+testDomain)
		for _, wrong := range []string{local, strings.ToUpper(local), "letmein", "", "p1pass"} {
			if err := imapLoginErr(t, srv, a.Address, wrong); err == nil {
				t.Errorf("IMAP LOGIN %s with %q accepted", a.Address, wrong)
			}
			if err := imapAuthErr(t, srv, a.Address, wrong); err == nil {
				t.Errorf("IMAP AUTHENTICATE %s with %q accepted", a.Address, wrong)
			}
			if err := smtpAuthErr(t, srv, a.Address, wrong); err == nil {
				t.Errorf("SMTP AUTH %s with %q accepted", a.Address, wrong)
			}
		}
		// the generated password opens it, whatever the case of the address
		for _, user := range []string{a.Address, strings.ToUpper(a.Address)} {
			if err := imapLoginErr(t, srv, user, a.Password); err != nil {
				t.Errorf("IMAP LOGIN %s: %v", user, err)
			}
			if err := imapAuthErr(t, srv, user, a.Password); err != nil {
				t.Errorf("IMAP AUTHENTICATE %s: %v", user, err)
			}
			if err := smtpAuthErr(t, srv, user, a.Password); err != nil {
				t.Errorf("SMTP AUTH %s: %v", user, err)
			}
		}
		if err := srv.AddAccount(a.Address, "mine"); err == nil {
			t.Errorf("AddAccount set the password of %s", a.Address)
		}
		if user, pw, err := srv.Credentials(a.Address); err != nil || user != a.Address || pw != a.Password {
			t.Errorf("Credentials(%s) = %s %s %v", a.Address, user, pw, err)
		}
	}
	// player_password still opens the players' mailboxes, not the GM's
	dialIMAP(t, srv, "alice@"+testDomain, "letmein")
	if bodies := fetchBodies(t, dialIMAP(t, srv, gm, sys[0].Password), "INBOX"); len(bodies) != 1 || !bytes.Contains(bodies[0], []byte("gm+secret-token@")) {
		t.Fatalf("gm's INBOX: %q", bodies)
	}
}

// The generated passwords live in the data folder, mode 0600, and are
// the same after a restart; a file others can read is refused.
func TestSystemPasswordsFile(t *testing.T) {
	dir := t.TempDir()
	cfg := sysConfig(dir)
	srv, err := Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	first := srv.SystemAccounts()
	srv.Close()
	fi, err := os.Stat(cfg.PasswordFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("password file mode %04o", fi.Mode().Perm())
	}
	if fi, err := os.Stat(cfg.StateFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", fi, err)
	}
	raw, _ := os.ReadFile(cfg.PasswordFile)
	for _, a := range first {
		if !strings.Contains(string(raw), a.Address+" "+a.Password+"\n") {
			t.Fatalf("password file lacks %s:\n%s", a.Address, raw)
		}
	}

	srv = start(t, cfg)
	if again := srv.SystemAccounts(); again[0] != first[0] || again[1] != first[1] {
		t.Fatalf("passwords changed across a restart: %+v, were %+v", again, first)
	}
	dialIMAP(t, srv, gm, first[0].Password)
	srv.Close()

	// without the file (deleted by the GM) new passwords are made
	os.Remove(cfg.PasswordFile)
	srv = start(t, cfg)
	fresh := srv.SystemAccounts()
	if fresh[0].Password == first[0].Password {
		t.Fatal("a deleted password file gave the same password")
	}
	if err := imapLoginErr(t, srv, gm, first[0].Password); err == nil {
		t.Fatal("the old password still opens gm@")
	}
	srv.Close()

	if err := os.Chmod(cfg.PasswordFile, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(cfg, testLogger(t)); err == nil || !strings.Contains(err.Error(), cfg.PasswordFile) || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a world-readable password file: %v", err)
	}
}

// The state file holds no password in clear: bcrypt hashes of the
// configured and system accounts' passwords, nothing for automatic ones
// (their password is the address's local part).
func TestStateFileHoldsOnlyPasswordHashes(t *testing.T) {
	dir := t.TempDir()
	cfg := sysConfig(dir)
	srv := start(t, cfg)
	if err := srv.AddAccount("carol@"+testDomain, "carols-own-secret"); err != nil {
		t.Fatal(err)
	}
	dialIMAP(t, srv, "dave@"+testDomain, "dave")
	sys := srv.SystemAccounts()
	srv.Close()
	raw, err := os.ReadFile(cfg.StateFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{sys[0].Password, sys[1].Password, "p1pass", "carols-own-secret"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the state file holds %q in clear", secret)
		}
	}
	srv = start(t, cfg)
	err = srv.store.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bktAccounts).ForEach(func(k, v []byte) error {
			var a diskAccount
			if err := json.Unmarshal(v, &a); err != nil {
				return err
			}
			switch {
			case string(k) == "dave@"+testDomain:
				if a.Kind != kindAuto || a.Hash != nil || a.Password != "" {
					t.Errorf("automatic account stored as %s", v)
				}
			case !bytes.HasPrefix(a.Hash, []byte("$2a$")) || a.Password != "":
				t.Errorf("%s stored as %s", k, v)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	// and they still open after the restart, from the hashes
	dialIMAP(t, srv, "carol@"+testDomain, "carols-own-secret")
	dialIMAP(t, srv, "p1@"+testDomain, "p1pass")
}

// Addresses are case-insensitive in the local part: login, SMTP AUTH,
// RCPT and the derived password.
func TestLocalPartIsCaseInsensitive(t *testing.T) {
	srv := startServer(t, "")
	if err := sendSMTP(t, srv, "x@elsewhere.org", []string{"ALICE@Example.Test"}, rawMail("x@elsewhere.org", "ALICE@Example.Test", "hi", "case"), 0); err != nil {
		t.Fatal(err)
	}
	for _, login := range [][2]string{{"Alice@example.test", "Alice"}, {"alice@EXAMPLE.TEST", "ALICE"}, {"ALICE@example.test", "alice"}} {
		c := dialIMAP(t, srv, login[0], login[1])
		if bodies := fetchBodies(t, c, "INBOX"); len(bodies) != 1 {
			t.Fatalf("%s sees %d mails", login[0], len(bodies))
		}
		if err := smtpAuthErr(t, srv, login[0], login[1]); err != nil {
			t.Errorf("SMTP AUTH %s %s: %v", login[0], login[1], err)
		}
		if err := imapAuthErr(t, srv, login[0], login[1]); err != nil {
			t.Errorf("IMAP AUTHENTICATE %s %s: %v", login[0], login[1], err)
		}
	}
	if err := imapLoginErr(t, srv, "Alice@example.test", "Alice2"); err == nil {
		t.Fatal("a wrong password opened alice@")
	}
	// one account, however it was spelt
	n := 0
	for _, a := range srv.Accounts() {
		if strings.EqualFold(a.Address, "alice@"+testDomain) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d accounts for alice", n)
	}
	// a configured password stays case-sensitive
	if err := imapLoginErr(t, srv, "P1@example.test", "P1PASS"); err == nil {
		t.Fatal("a configured password was compared without case")
	}
	dialIMAP(t, srv, "P1@example.test", "p1pass")
}
