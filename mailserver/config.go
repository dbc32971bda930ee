package mailserver

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// Config configures the embedded mail server. In pbemd's TOML file it is
// the [mailserver] table (server/config.example.toml documents every key).
// The fields below System are set by the program that embeds the server,
// never by the file.
type Config struct {
	IMAPAddr  string `toml:"imap_addr"`
	SMTPAddr  string `toml:"smtp_addr"`
	Domain    string `toml:"domain"`
	StateFile string `toml:"state_file"` // empty: a temporary file, gone at Close
	// PlayerPassword, when set, is the password of every automatic
	// account instead of its local part. It never opens a system account.
	PlayerPassword string `toml:"player_password"`
	// BearerCheck, when set, makes IMAP and SMTP also take the XOAUTH2 and
	// OAUTHBEARER mechanisms, and asks it whether a bearer token signs
	// user in, as a provider's mail server asks its authorization server:
	// the way to test OAuth 2.0 clients on loopback. Not in the config
	// file.
	BearerCheck func(user, token string) error `toml:"-"`
	Accounts    []Account                      `toml:"accounts"`
	// MaxMessageBytes is the largest mail SMTP accepts (0: 32 MiB, well
	// above the daemon's own size limit, so that an oversized mail reaches
	// the daemon and gets its polite answer instead of an SMTP error).
	MaxMessageBytes int64 `toml:"max_message_bytes"`
	// MailboxQuota and MailboxMaxMessages bound one account (all its
	// folders together); TotalQuota and TotalMaxMessages the whole server.
	// 0 means the default (DefaultMailboxQuota, …).
	MailboxQuota       int64 `toml:"mailbox_quota"`
	MailboxMaxMessages int   `toml:"mailbox_max_messages"`
	TotalQuota         int64 `toml:"total_quota"`
	TotalMaxMessages   int   `toml:"total_max_messages"`
	// DeleteHandledAfter is for the program that reads the daemon's own
	// mailbox on this server, not for the server (which deletes nothing
	// by itself): pbemd's mail reader deletes mail it has handled once it
	// arrived longer ago than this (mailer.IMAPConfig.DeleteHandledAfter),
	// so that the mailbox never fills up with old mail. 0 keeps it.
	DeleteHandledAfter time.Duration `toml:"delete_handled_after"`

	// System lists the system accounts (the daemon's own address and the
	// site GM's): each gets a generated password, kept in PasswordFile,
	// and opens with nothing else.
	System []string `toml:"-"`
	// PasswordFile keeps the generated passwords (mode 0600) across
	// restarts. Empty: new passwords at every start.
	PasswordFile string `toml:"-"`
	// HashCost is the bcrypt cost of stored passwords (0: bcrypt's
	// default, 10).
	HashCost int `toml:"-"`
	// LoginFailures is how many failed logins in a row an account with a
	// password of its own takes before it is throttled, and LoginLockout
	// how long the first lockout lasts (0: DefaultLoginFailures,
	// DefaultLoginLockout; see throttle.go).
	LoginFailures int           `toml:"-"`
	LoginLockout  time.Duration `toml:"-"`
}

// Account is a configured account with its own password.
type Account struct {
	Address  string `toml:"address"`
	Password string `toml:"password"`
}

// Defaults of the embedded server.
const (
	DefaultIMAPAddr           = "127.0.0.1:1143"
	DefaultSMTPAddr           = "127.0.0.1:1025"
	DefaultDomain             = "pbemd.localhost"
	DefaultMaxMessageBytes    = 32 << 20
	DefaultMailboxQuota       = 512 << 20
	DefaultMailboxMaxMessages = 50_000
	DefaultTotalQuota         = 2 << 30
	DefaultTotalMaxMessages   = 200_000
	DefaultLoginFailures      = 5
	DefaultLoginLockout       = time.Minute
	// MaxAccounts bounds the accounts, automatic ones included: a stranger
	// who writes to a million addresses does not get a million accounts.
	MaxAccounts = 10_000
)

func (c Config) withDefaults() Config {
	if c.IMAPAddr == "" {
		c.IMAPAddr = DefaultIMAPAddr
	}
	if c.SMTPAddr == "" {
		c.SMTPAddr = DefaultSMTPAddr
	}
	if c.Domain == "" {
		c.Domain = DefaultDomain
	}
	c.Domain = strings.ToLower(c.Domain)
	if c.MaxMessageBytes == 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if c.MailboxQuota == 0 {
		c.MailboxQuota = DefaultMailboxQuota
	}
	if c.MailboxMaxMessages == 0 {
		c.MailboxMaxMessages = DefaultMailboxMaxMessages
	}
	if c.TotalQuota == 0 {
		c.TotalQuota = DefaultTotalQuota
	}
	if c.TotalMaxMessages == 0 {
		c.TotalMaxMessages = DefaultTotalMaxMessages
	}
	return c
}

// Validate reports the first problem with the config.
func (c Config) Validate() error {
	c = c.withDefaults()
	for _, a := range []struct{ name, addr string }{{"imap_addr", c.IMAPAddr}, {"smtp_addr", c.SMTPAddr}} {
		host, _, err := net.SplitHostPort(a.addr)
		if err != nil {
			return fmt.Errorf("mailserver: %s %q is not host:port", a.name, a.addr)
		}
		if !isLoopbackHost(host) {
			return fmt.Errorf("mailserver: %s %q must be a loopback address (127.0.0.1 or localhost): the embedded server speaks in clear", a.name, a.addr)
		}
	}
	if strings.ContainsAny(c.Domain, "@ \t\r\n") || !strings.Contains(c.Domain, ".") && c.Domain != "localhost" {
		return fmt.Errorf("mailserver: domain %q is not a domain name", c.Domain)
	}
	system := map[string]bool{}
	for _, a := range c.System {
		base, err := c.baseAddress(a)
		if err != nil {
			return fmt.Errorf("mailserver: system account %q must be an address at %s without +", a, c.Domain)
		}
		system[base] = true
	}
	for _, a := range c.Accounts {
		local, domain, ok := strings.Cut(strings.ToLower(a.Address), "@")
		if !ok || local == "" || domain != c.Domain || strings.Contains(local, "+") {
			return fmt.Errorf("mailserver: account %q must be an address at %s without +", a.Address, c.Domain)
		}
		if a.Password == "" {
			return fmt.Errorf("mailserver: account %s has no password", a.Address)
		}
		if system[local+"@"+domain] {
			return fmt.Errorf("mailserver: %s is a system account: its password is generated (the banner of the start that made it shows it, and the password file keeps it); remove it from [[mailserver.accounts]]", a.Address)
		}
	}
	for _, q := range []struct {
		name string
		v    int64
	}{{"max_message_bytes", c.MaxMessageBytes}, {"mailbox_quota", c.MailboxQuota}, {"mailbox_max_messages", int64(c.MailboxMaxMessages)},
		{"total_quota", c.TotalQuota}, {"total_max_messages", int64(c.TotalMaxMessages)}} {
		if q.v < 0 {
			return fmt.Errorf("mailserver: %s must not be negative", q.name)
		}
	}
	if c.DeleteHandledAfter < 0 {
		return errors.New("mailserver: delete_handled_after must not be negative (0 keeps handled mail)")
	}
	if c.MaxMessageBytes > c.MailboxQuota {
		return fmt.Errorf("mailserver: max_message_bytes (%d) is larger than mailbox_quota (%d): such a mail could never be stored", c.MaxMessageBytes, c.MailboxQuota)
	}
	if c.MailboxQuota > c.TotalQuota || c.MailboxMaxMessages > c.TotalMaxMessages {
		return errors.New("mailserver: a mailbox quota is larger than the total quota")
	}
	return nil
}

// baseAddress checks that address is at the domain and returns the base
// address (without +tag), lower case: local parts are case-insensitive
// here, as the domain is everywhere.
func (c Config) baseAddress(address string) (string, error) {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(address)), "@")
	if !ok || local == "" || domain != c.Domain {
		return "", fmt.Errorf("mailserver: %q is not an address at %s", address, c.Domain)
	}
	base, _, _ := strings.Cut(local, "+")
	if base == "" || strings.ContainsAny(base, " \t\r\n\"<>,;:\\@\x00") {
		return "", fmt.Errorf("mailserver: %q is not a usable local part", local)
	}
	return base + "@" + domain, nil
}

// isLoopbackHost reports whether host names this machine without leaving
// it: "localhost" or a loopback IP literal. Other names are not resolved.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
