package mailer

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
)

// Security says how a connection to a mail server is protected.
type Security string

const (
	// SecurityTLS is implicit TLS from the first byte (IMAPS 993, SMTPS 465).
	SecurityTLS Security = "tls"
	// SecurityStartTLS connects in clear and upgrades with STARTTLS before
	// authenticating (IMAP 143, submission 587).
	SecurityStartTLS Security = "starttls"
	// SecurityPlain never encrypts. Allowed only on a loopback address
	// unless AllowInsecure is set.
	SecurityPlain Security = "plain"
)

// Defaults used when a config field is left zero.
const (
	DefaultMailbox     = "INBOX"
	DefaultPoll        = time.Minute
	DefaultMaxSize     = 1 << 20 // 1 MiB
	DefaultMaxFailures = 3
	DefaultTimeout     = time.Minute
)

// IMAPConfig is the account the daemon reads its mail from. It is meant to
// be embedded in the daemon's config file:
//
//	[imap]
//	addr = "imap.example.org:993"
//	username = "gm@example.org"
//	password = "…"
//	security = "tls"          # tls | starttls | plain (plain: loopback only)
//	mailbox = "INBOX"
//	processed_folder = ""     # empty: mark \Seen and leave in place
//	poison_folder = ""        # empty: flag \Flagged and leave in place
//	poll = "1m"
//	no_idle = false
//	max_size = 1048576
//	max_failures = 3
//	delete_handled_after = "" # e.g. "720h"; empty or 0: keep handled mail for ever
//
// SASLSource gives the SASL client that signs a user in with a fresh
// credential (an OAuth 2.0 access token: mailauth.Source).
type SASLSource interface {
	SASL(user string) (sasl.Client, error)
}

type IMAPConfig struct {
	// Addr is host:port of the IMAP server.
	Addr     string `toml:"addr"`
	Username string `toml:"username"`
	Password string `toml:"password"`
	// OAuth, when set, signs in with an OAuth 2.0 access token instead of
	// the password (the [oauth] table of pbemd's config; mailauth).
	OAuth    SASLSource `toml:"-"`
	Security Security   `toml:"security"`
	// AllowInsecure permits Security "plain" to a non-loopback host. Never
	// set it in production: the password crosses the network in clear.
	AllowInsecure bool `toml:"allow_insecure"`
	// InsecureSkipVerify accepts any TLS certificate (self-signed test
	// servers only).
	InsecureSkipVerify bool `toml:"insecure_skip_verify"`
	// Address is the mail address players write to (gm@example.org); the
	// +token of gm+token@example.org is taken from recipients at this
	// address. Default: Username when it contains '@'.
	Address string `toml:"address"`
	// Mailbox is the folder read for new mail (default INBOX).
	Mailbox string `toml:"mailbox"`
	// ProcessedFolder, when set, receives every handled mail (moved there
	// instead of being flagged \Seen). It is created if missing.
	ProcessedFolder string `toml:"processed_folder"`
	// PoisonFolder, when set, receives mail that failed MaxFailures times.
	// When empty such mail is flagged \Seen \Flagged and left in place.
	PoisonFolder string `toml:"poison_folder"`
	// Poll is how often the mailbox is checked even without IDLE news.
	Poll time.Duration `toml:"poll"`
	// NoIdle stops the fetcher from using IDLE even when the server
	// offers it (for servers whose IDLE misbehaves); it then polls only.
	NoIdle bool `toml:"no_idle"`
	// MaxSize is the largest mail (RFC822.SIZE, bytes) that is parsed;
	// larger mail reaches the handler as TooBig with only its header.
	MaxSize int64 `toml:"max_size"`
	// MaxFailures is how many times the handler may fail on one mail before
	// the mail is set aside as poisoned.
	MaxFailures int `toml:"max_failures"`
	// Timeout bounds dialing (go-imap bounds each command to 30 s itself).
	Timeout time.Duration `toml:"timeout"`
	// DeleteHandledAfter, when above zero, deletes (\Deleted, then UID
	// EXPUNGE) mail the daemon has handled once it arrived longer ago
	// than this: in Mailbox, mail up to the checkpoint that is \Seen and
	// not \Flagged; in ProcessedFolder, every mail not \Flagged. Mail
	// not yet handled, mail set aside (flagged, or in PoisonFolder) and
	// mail someone flagged are never deleted. Zero keeps mail for ever
	// (the default: the account may be a person's own mailbox).
	DeleteHandledAfter time.Duration `toml:"delete_handled_after"`
}

// Validate reports the first problem with the config, in words a GM can act
// on. Zero fields that have a default are valid.
func (c IMAPConfig) Validate() error {
	if err := validateEndpoint("imap", c.Addr, c.Security, c.AllowInsecure); err != nil {
		return err
	}
	if c.Username == "" {
		return errors.New("imap: username is empty")
	}
	if c.Address != "" && !strings.Contains(c.Address, "@") {
		return fmt.Errorf("imap: address %q is not a mail address", c.Address)
	}
	if c.Poll < 0 || c.MaxSize < 0 || c.MaxFailures < 0 || c.Timeout < 0 || c.DeleteHandledAfter < 0 {
		return errors.New("imap: poll, max_size, max_failures, timeout and delete_handled_after must not be negative")
	}
	if c.ProcessedFolder != "" && c.ProcessedFolder == c.mailbox() {
		return errors.New("imap: processed_folder must differ from mailbox")
	}
	if c.PoisonFolder != "" && c.PoisonFolder == c.mailbox() {
		return errors.New("imap: poison_folder must differ from mailbox")
	}
	if c.DeleteHandledAfter > 0 && c.PoisonFolder != "" && c.PoisonFolder == c.ProcessedFolder {
		return errors.New("imap: with delete_handled_after, poison_folder must differ from processed_folder: mail set aside would be deleted with the handled mail")
	}
	for _, s := range []string{c.Username, c.Password, c.Mailbox, c.ProcessedFolder, c.PoisonFolder} {
		if strings.ContainsAny(s, "\r\n\x00") {
			return errors.New("imap: username, password and folder names must not contain CR, LF or NUL")
		}
	}
	return nil
}

func (c IMAPConfig) mailbox() string {
	if c.Mailbox == "" {
		return DefaultMailbox
	}
	return c.Mailbox
}

// withDefaults returns c with every zero field that has a default filled.
func (c IMAPConfig) withDefaults() IMAPConfig {
	c.Mailbox = c.mailbox()
	if c.Security == "" {
		c.Security = SecurityTLS
	}
	if c.Address == "" && strings.Contains(c.Username, "@") {
		c.Address = c.Username
	}
	if c.Poll == 0 {
		c.Poll = DefaultPoll
	}
	if c.MaxSize == 0 {
		c.MaxSize = DefaultMaxSize
	}
	if c.MaxFailures == 0 {
		c.MaxFailures = DefaultMaxFailures
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

// SMTPConfig is the account the daemon sends its mail through:
//
//	[smtp]
//	addr = "smtp.example.org:465"
//	username = "gm@example.org"
//	password = "…"
//	security = "tls"          # tls | starttls | plain (plain: loopback only)
//	auth = ""                 # "" (PLAIN if a username is set), plain, login, none
//	hello = ""                # EHLO name; default: the local host name
type SMTPConfig struct {
	Addr               string     `toml:"addr"`
	Username           string     `toml:"username"`
	Password           string     `toml:"password"`
	OAuth              SASLSource `toml:"-"` // as IMAPConfig.OAuth
	Security           Security   `toml:"security"`
	AllowInsecure      bool       `toml:"allow_insecure"`
	InsecureSkipVerify bool       `toml:"insecure_skip_verify"`
	// Auth is the SASL mechanism: "plain", "login" or "none". Empty means
	// plain when Username is set, none otherwise.
	Auth string `toml:"auth"`
	// Hello is the name sent in EHLO (default: os.Hostname, else localhost).
	Hello string `toml:"hello"`
	// Timeout bounds dialing and each command round trip.
	Timeout time.Duration `toml:"timeout"`
}

// Validate reports the first problem with the config.
func (c SMTPConfig) Validate() error {
	if err := validateEndpoint("smtp", c.Addr, c.Security, c.AllowInsecure); err != nil {
		return err
	}
	switch strings.ToLower(c.Auth) {
	case "":
	case "plain", "login":
		if c.Username == "" {
			return fmt.Errorf("smtp: auth %q needs a username", c.Auth)
		}
	case "none":
	default:
		return fmt.Errorf("smtp: auth %q is not one of plain, login, none", c.Auth)
	}
	if c.Timeout < 0 {
		return errors.New("smtp: timeout must not be negative")
	}
	for _, s := range []string{c.Username, c.Password, c.Hello} {
		if strings.ContainsAny(s, "\r\n\x00") {
			return errors.New("smtp: username, password and hello must not contain CR, LF or NUL")
		}
	}
	return nil
}

func (c SMTPConfig) withDefaults() SMTPConfig {
	if c.Security == "" {
		c.Security = SecurityTLS
	}
	c.Auth = strings.ToLower(c.Auth)
	if c.Auth == "" {
		if c.Username != "" {
			c.Auth = "plain"
		} else {
			c.Auth = "none"
		}
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

func validateEndpoint(proto, addr string, sec Security, allowInsecure bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host == "" || port == "" {
		return fmt.Errorf("%s: addr %q is not host:port", proto, addr)
	}
	switch sec {
	case "", SecurityTLS, SecurityStartTLS:
	case SecurityPlain:
		if !allowInsecure && !isLoopbackHost(host) {
			return fmt.Errorf("%s: security \"plain\" sends the password in clear; it is allowed only on a loopback address (%s is not); use tls or starttls, or set allow_insecure = true", proto, host)
		}
	default:
		return fmt.Errorf("%s: security %q is not one of tls, starttls, plain", proto, sec)
	}
	return nil
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

func tlsConfig(addr string, skipVerify bool) *tls.Config {
	host, _, _ := net.SplitHostPort(addr)
	return &tls.Config{ServerName: host, InsecureSkipVerify: skipVerify, MinVersion: tls.VersionTLS12}
}
