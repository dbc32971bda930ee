package mailer

import (
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestIMAPConfigValidate(t *testing.T) {
	ok := IMAPConfig{Addr: "imap.example.org:993", Username: "gm@example.org", Password: "x"}
	cases := []struct {
		name  string
		edit  func(c *IMAPConfig)
		wantE string // "" = valid
	}{
		{"defaults", func(c *IMAPConfig) {}, ""},
		{"starttls", func(c *IMAPConfig) { c.Security = SecurityStartTLS }, ""},
		{"plain on 127.0.0.1", func(c *IMAPConfig) { c.Addr, c.Security = "127.0.0.1:143", SecurityPlain }, ""},
		{"plain on ::1", func(c *IMAPConfig) { c.Addr, c.Security = "[::1]:143", SecurityPlain }, ""},
		{"plain on localhost", func(c *IMAPConfig) { c.Addr, c.Security = "localhost:143", SecurityPlain }, ""},
		{"plain remote", func(c *IMAPConfig) { c.Security = SecurityPlain }, "loopback"},
		{"plain remote forced", func(c *IMAPConfig) { c.Security, c.AllowInsecure = SecurityPlain, true }, ""},
		{"unknown security", func(c *IMAPConfig) { c.Security = "ssl" }, "not one of"},
		{"no port", func(c *IMAPConfig) { c.Addr = "imap.example.org" }, "host:port"},
		{"no username", func(c *IMAPConfig) { c.Username = "" }, "username"},
		{"address not an address", func(c *IMAPConfig) { c.Address = "gm" }, "not a mail address"},
		{"negative poll", func(c *IMAPConfig) { c.Poll = -time.Second }, "negative"},
		{"processed is the mailbox", func(c *IMAPConfig) { c.ProcessedFolder = "INBOX" }, "processed_folder"},
		{"poison is the mailbox", func(c *IMAPConfig) { c.Mailbox, c.PoisonFolder = "Orders", "Orders" }, "poison_folder"},
		{"CRLF in password", func(c *IMAPConfig) { c.Password = "a\r\nb" }, "CR, LF"},
		{"negative delete_handled_after", func(c *IMAPConfig) { c.DeleteHandledAfter = -time.Hour }, "negative"},
		{"deleting, processed and poison alike", func(c *IMAPConfig) {
			c.DeleteHandledAfter, c.ProcessedFolder, c.PoisonFolder = time.Hour, "Done", "Done"
		}, "poison_folder must differ from processed_folder"},
		{"keeping, processed and poison alike", func(c *IMAPConfig) { c.ProcessedFolder, c.PoisonFolder = "Done", "Done" }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.wantE == "" && err != nil || tc.wantE != "" && (err == nil || !strings.Contains(err.Error(), tc.wantE)) {
				t.Fatalf("Validate = %v, want %q", err, tc.wantE)
			}
		})
	}
	d := ok.withDefaults()
	if d.Mailbox != "INBOX" || d.Security != SecurityTLS || d.Address != "gm@example.org" || d.Poll != time.Minute || d.MaxSize != 1<<20 || d.MaxFailures != 3 {
		t.Fatalf("defaults %+v", d)
	}
}

func TestSMTPConfigValidate(t *testing.T) {
	ok := SMTPConfig{Addr: "smtp.example.org:465", Username: "gm@example.org", Password: "x"}
	cases := []struct {
		name  string
		edit  func(c *SMTPConfig)
		wantE string
	}{
		{"defaults", func(c *SMTPConfig) {}, ""},
		{"auth login", func(c *SMTPConfig) { c.Auth = "LOGIN" }, ""},
		{"auth none without user", func(c *SMTPConfig) { c.Auth, c.Username = "none", "" }, ""},
		{"auth plain without user", func(c *SMTPConfig) { c.Auth, c.Username = "plain", "" }, "needs a username"},
		{"auth cram", func(c *SMTPConfig) { c.Auth = "cram-md5" }, "not one of"},
		{"plain remote", func(c *SMTPConfig) { c.Security = SecurityPlain }, "loopback"},
		{"plain loopback", func(c *SMTPConfig) { c.Addr, c.Security = "127.0.0.1:25", SecurityPlain }, ""},
		{"CR in hello", func(c *SMTPConfig) { c.Hello = "x\ry" }, "CR, LF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.wantE == "" && err != nil || tc.wantE != "" && (err == nil || !strings.Contains(err.Error(), tc.wantE)) {
				t.Fatalf("Validate = %v, want %q", err, tc.wantE)
			}
		})
	}
	if d := ok.withDefaults(); d.Auth != "plain" || d.Security != SecurityTLS {
		t.Fatalf("defaults %+v", d)
	}
	if d := (SMTPConfig{Addr: "127.0.0.1:25"}).withDefaults(); d.Auth != "none" {
		t.Fatalf("no username: auth %q", d.Auth)
	}
}

// The config structs are embedded in the daemon's TOML file.
func TestConfigFromTOML(t *testing.T) {
	var cfg struct {
		IMAP IMAPConfig `toml:"imap"`
		SMTP SMTPConfig `toml:"smtp"`
	}
	md, err := toml.Decode(`
[imap]
addr = "imap.example.org:993"
username = "gm@example.org"
password = "secret"
security = "tls"
mailbox = "INBOX"
processed_folder = "Done"
poison_folder = "Poison"
poll = "2m30s"
no_idle = false
max_size = 2097152
max_failures = 5
timeout = "45s"
delete_handled_after = "720h"

[smtp]
addr = "smtp.example.org:587"
username = "gm@example.org"
password = "secret"
security = "starttls"
auth = "login"
hello = "pbemd.example.org"
`, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Fatalf("keys not in the structs: %v", u)
	}
	if cfg.IMAP.Poll != 150*time.Second || cfg.IMAP.MaxSize != 2<<20 || cfg.IMAP.PoisonFolder != "Poison" || cfg.SMTP.Security != SecurityStartTLS ||
		cfg.IMAP.Timeout != 45*time.Second || cfg.IMAP.DeleteHandledAfter != 30*24*time.Hour {
		t.Fatalf("decoded %+v", cfg)
	}
	for _, err := range []error{cfg.IMAP.Validate(), cfg.SMTP.Validate()} {
		if err != nil {
			t.Error(err)
		}
	}
}
