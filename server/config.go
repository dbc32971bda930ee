package server

import (
	_ "embed"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"pbemd/daemon"
	"pbemd/mailauth"
	"pbemd/mailer"
	"pbemd/mailserver"
)

// Config is pbemd's one configuration file (TOML). Every field is
// documented in ExampleConfig, which a test keeps in step with this struct.
// Unknown keys are errors. Secrets may come from the environment instead:
// PBEMD_GM_PASSWORD, PBEMD_IMAP_PASSWORD, PBEMD_SMTP_PASSWORD.
type Config struct {
	DataDir      string   `toml:"data_dir"`
	Maps         string   `toml:"maps"` // a folder of variant files, beside data_dir/maps (maps.go)
	Address      string   `toml:"address"`
	GM           []string `toml:"gm"`
	GMPassword   string   `toml:"gm_password"`
	TimeZone     string   `toml:"time_zone"`
	Poll         Every    `toml:"poll"` // how often the mailbox is read (IDLE brings mail sooner)
	Tick         Every    `toml:"tick"` // how often deadlines and reminders are checked
	HTTP         string   `toml:"http"`
	HTTPHosts    []string `toml:"http_hosts"` // Host names the endpoint answers to besides loopback (http.go)
	RateLimit    int      `toml:"rate_limit"`
	LogLevel     string   `toml:"log_level"`
	PasswordCost int      `toml:"password_cost"`

	// IMAP and SMTP are the real mail accounts. When both are absent the
	// embedded mail server is used.
	IMAP *mailer.IMAPConfig `toml:"imap"`
	SMTP *mailer.SMTPConfig `toml:"smtp"`
	// OAuth, with a real account, signs in to it with OAuth 2.0 instead
	// of the passwords (Outlook.com, Microsoft 365, Gmail): `pbemd auth
	// login` first (docs/real-mail.md).
	OAuth      *mailauth.Config  `toml:"oauth"`
	Mailserver mailserver.Config `toml:"mailserver"`
	Schedule   daemon.Schedule   `toml:"schedule"`
	Web        WebConfig         `toml:"web"`

	warnings []string // old spellings DecodeConfig read (see Warnings)
}

//go:embed config.example.toml
var exampleConfig string

// ExampleConfig is a commented configuration with every key (`pbemd config
// example` prints it).
func ExampleConfig() string { return exampleConfig }

// DefaultConfig is what `pbemd serve` runs with when no file is given: the
// embedded mail server on loopback and a data folder in the working
// directory.
func DefaultConfig() Config {
	return Config{
		DataDir:   "data",
		Address:   "gm@pbemd.localhost",
		GM:        []string{"master@pbemd.localhost"},
		TimeZone:  "UTC",
		Poll:      Every{D: time.Minute},
		Tick:      Every{D: time.Minute},
		HTTP:      "127.0.0.1:8025",
		HTTPHosts: []string{},
		RateLimit: 30,
		LogLevel:  "info",
		Mailserver: mailserver.Config{
			IMAPAddr:  mailserver.DefaultIMAPAddr,
			SMTPAddr:  mailserver.DefaultSMTPAddr,
			Domain:    mailserver.DefaultDomain,
			StateFile: "mail.db",
			// handled mail leaves the daemon's own mailbox after 30 days
			DeleteHandledAfter: DefaultDeleteHandledAfter,
		},
		Schedule: daemon.DefaultSchedule(),
		Web:      WebConfig{Dir: "web", Default: "off", Hosts: []string{}},
	}
}

// LoadConfig reads a config file over the defaults and applies secrets
// from the environment.
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	raw, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if err := DecodeConfig(string(raw), &cfg); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	cfg.applyEnv()
	return cfg, cfg.Validate()
}

// DecodeConfig decodes TOML text into cfg, refusing unknown keys. Old
// spellings are read and noted in cfg.Warnings.
func DecodeConfig(text string, cfg *Config) error {
	md, err := toml.Decode(text, cfg)
	if err != nil {
		return err
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		keys := make([]string, len(extra))
		for i, k := range extra {
			keys[i] = k.String()
		}
		return fmt.Errorf("unknown key(s): %s", strings.Join(keys, ", "))
	}
	cfg.warnings = nil
	for key, e := range map[string]Every{"poll": cfg.Poll, "tick": cfg.Tick} {
		if w := e.oldSpelling(key); w != "" {
			cfg.warnings = append(cfg.warnings, w)
		}
	}
	// [imap] poll is the old place of the one poll interval.
	if cfg.IMAP != nil && cfg.IMAP.Poll != 0 {
		if md.IsDefined("poll") {
			cfg.warnings = append(cfg.warnings, fmt.Sprintf("[imap] poll = %q is the old place of poll; poll = %q (at the top) is used: remove [imap] poll", cfg.IMAP.Poll, cfg.Poll))
		} else {
			cfg.Poll = Every{D: cfg.IMAP.Poll}
			cfg.warnings = append(cfg.warnings, fmt.Sprintf("[imap] poll = %q is the old place of poll; write poll = %q at the top instead", cfg.IMAP.Poll, cfg.IMAP.Poll))
		}
		cfg.IMAP.Poll = 0
	}
	sort.Strings(cfg.warnings)
	return nil
}

// Warnings lists the old spellings the config file used, each with how to
// write it now (Open logs them).
func (c *Config) Warnings() []string { return c.warnings }

func (c *Config) applyEnv() {
	if v := os.Getenv("PBEMD_GM_PASSWORD"); v != "" {
		c.GMPassword = v
	}
	if v := os.Getenv("PBEMD_IMAP_PASSWORD"); v != "" && c.IMAP != nil {
		c.IMAP.Password = v
	}
	if v := os.Getenv("PBEMD_SMTP_PASSWORD"); v != "" && c.SMTP != nil {
		c.SMTP.Password = v
	}
}

// UsesEmbedded reports whether the embedded mail server stands in for real
// accounts.
func (c *Config) UsesEmbedded() bool { return c.IMAP == nil && c.SMTP == nil }

// Validate reports the first problem, in words a GM can act on.
func (c *Config) Validate() error {
	if c.DataDir == "" {
		return errors.New("data_dir is empty")
	}
	if _, _, ok := strings.Cut(c.Address, "@"); !ok || strings.ContainsAny(c.Address, " \r\n<>+") {
		return fmt.Errorf("address %q must be a plain local@domain address (no +)", c.Address)
	}
	for _, gm := range c.GM {
		if !strings.Contains(gm, "@") {
			return fmt.Errorf("gm address %q is not a mail address", gm)
		}
	}
	if _, err := time.LoadLocation(c.TimeZone); err != nil {
		return fmt.Errorf("time_zone %q: %w", c.TimeZone, err)
	}
	if err := c.Poll.validate("poll"); err != nil {
		return err
	}
	if err := c.Tick.validate("tick"); err != nil {
		return err
	}
	if c.HTTP != "" {
		host, _, err := net.SplitHostPort(c.HTTP)
		if err != nil {
			return fmt.Errorf("http %q is not host:port: %w", c.HTTP, err)
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("http %q: the health and admin endpoint listens on loopback only", c.HTTP)
		}
	}
	for _, h := range c.HTTPHosts {
		if h == "" || strings.ContainsAny(h, " /\r\n[]") || strings.Contains(h, ":") && net.ParseIP(h) == nil {
			return fmt.Errorf("http_hosts %q: give a host name or address as a browser sends it in Host, without a port (e.g. \"pbemd.internal\")", h)
		}
	}
	if c.PasswordCost != 0 && (c.PasswordCost < 4 || c.PasswordCost > 31) {
		return fmt.Errorf("password_cost %d: bcrypt costs run from 4 to 31 (0 = the default, 10)", c.PasswordCost)
	}
	if c.RateLimit < 0 {
		return errors.New("rate_limit must not be negative")
	}
	switch c.LogLevel {
	case "", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log_level %q is not debug, info, warn or error", c.LogLevel)
	}
	if (c.IMAP == nil) != (c.SMTP == nil) {
		have, missing := "[imap]", "[smtp]"
		if c.IMAP == nil {
			have, missing = missing, have
		}
		return fmt.Errorf("the config sets %s but not %s: a real mail account needs both, [imap] to read the players' mail and [smtp] to send the answers (docs/real-mail.md); with neither, the embedded mail server is used", have, missing)
	}
	if c.IMAP != nil {
		if err := c.IMAP.Validate(); err != nil {
			return err
		}
		if err := c.SMTP.Validate(); err != nil {
			return err
		}
	}
	if c.OAuth != nil {
		if c.IMAP == nil {
			return errors.New("the config sets [oauth] without [imap] and [smtp]: OAuth signs in to a real mail account (docs/real-mail.md)")
		}
		if err := c.OAuth.Validate(); err != nil {
			return err
		}
	}
	if c.UsesEmbedded() {
		if err := c.embeddedConfig().Validate(); err != nil {
			return err
		}
		if _, domain, _ := strings.Cut(strings.ToLower(c.Address), "@"); domain != strings.ToLower(c.Mailserver.Domain) {
			return fmt.Errorf("address %q must be at the embedded mail server's domain %q", c.Address, c.Mailserver.Domain)
		}
	}
	if err := c.Web.validate(); err != nil {
		return err
	}
	if err := c.Schedule.Validate(); err != nil {
		return err
	}
	if c.Schedule.DeadlineHour > 23 {
		return fmt.Errorf("schedule.deadline_hour %d is not an hour of the day", c.Schedule.DeadlineHour)
	}
	if _, err := time.LoadLocation(c.Schedule.DeadlineZone); c.Schedule.DeadlineZone != "" && err != nil {
		return fmt.Errorf("schedule.deadline_zone %q: %w", c.Schedule.DeadlineZone, err)
	}
	return nil
}

// embeddedConfig is the [mailserver] table with what the file does not
// say: paths in the data folder, the system accounts (the daemon's own
// address and the site GMs' at the domain: generated passwords, nothing
// else opens them) and the password hash cost.
func (c *Config) embeddedConfig() mailserver.Config {
	mc := c.Mailserver
	if mc.StateFile != "" && !filepath.IsAbs(mc.StateFile) {
		mc.StateFile = filepath.Join(c.DataDir, mc.StateFile)
	}
	mc.PasswordFile = filepath.Join(c.DataDir, MailPasswordFile)
	mc.HashCost = c.PasswordCost
	domain := strings.ToLower(mc.Domain)
	if domain == "" {
		domain = mailserver.DefaultDomain
	}
	for _, a := range append([]string{c.Address}, c.GM...) {
		if _, d, _ := strings.Cut(strings.ToLower(a), "@"); d == domain {
			mc.System = append(mc.System, a)
		}
	}
	return mc
}

// DefaultDeleteHandledAfter is how long the daemon keeps mail it has
// handled in its mailbox on the embedded server ([mailserver]
// delete_handled_after): long enough for a GM to look a mail up, short
// enough that the mailbox's quota is never reached by old mail. With a
// real account ([imap]) the default is to keep mail.
const DefaultDeleteHandledAfter = 30 * 24 * time.Hour

// MailPasswordFile (in the data folder) keeps the generated passwords of
// the embedded server's system accounts.
const MailPasswordFile = "mail-passwords"

// DBPath is the bbolt file inside the data folder.
func (c *Config) DBPath() string { return filepath.Join(c.DataDir, "pbemd.db") }

// OAuthTokenFile is where `pbemd auth login` keeps the mailbox's OAuth
// token, sealed with the store's key.
func (c *Config) OAuthTokenFile() mailauth.TokenFile {
	return mailauth.TokenFile{StorePath: c.DBPath(), Path: filepath.Join(c.DataDir, "oauth-token")}
}
