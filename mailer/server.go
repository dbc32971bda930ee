package mailer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// ServerConfig configures the embedded mail server that lets `pbemd serve`
// and `pbemd demo` run without any mail account:
//
//	[mailserver]
//	imap_addr = "127.0.0.1:1143"
//	smtp_addr = "127.0.0.1:1025"
//	domain = "pbemd.localhost"
//	state_file = "mail.db"       # empty: memory only (lost on restart)
//	player_password = ""         # empty: an auto account's password is its local part
//	[[mailserver.accounts]]
//	address = "gm@pbemd.localhost"
//	password = "…"
//
// Accounts. Every account listed is created at start. Any other address
// at Domain gets an account the first time mail is delivered to it or
// somebody logs in as it (IMAP or SMTP AUTH) with the auto password: the
// local part of the address ("alice" for alice@pbemd.localhost) unless
// PlayerPassword is set, then that. Plus-addresses (gm+token@domain) are
// delivered to the base account (gm@domain). Each account has an INBOX
// and may create folders.
//
// SMTP accepts mail from anyone on loopback, with or without AUTH
// (PLAIN, LOGIN), for recipients at Domain only (no relaying). Each
// delivered copy gets Return-Path, Delivered-To (the recipient as given,
// +token included) and Received header fields on top.
//
// The server listens on loopback only; Validate refuses anything else,
// because passwords and mail cross it in clear.
type ServerConfig struct {
	IMAPAddr       string          `toml:"imap_addr"`
	SMTPAddr       string          `toml:"smtp_addr"`
	Domain         string          `toml:"domain"`
	StateFile      string          `toml:"state_file"`
	PlayerPassword string          `toml:"player_password"`
	Accounts       []ServerAccount `toml:"accounts"`
	// MaxMessageBytes is the largest mail SMTP accepts (default 32 MiB:
	// well above the daemon's own size limit, so that an oversized mail
	// reaches the daemon and gets its polite answer instead of an SMTP
	// error).
	MaxMessageBytes int64 `toml:"max_message_bytes"`
}

// ServerAccount is one mailbox of the embedded server.
type ServerAccount struct {
	Address  string `toml:"address"`
	Password string `toml:"password"`
	// Auto is set on accounts created on first use (read only).
	Auto bool `toml:"-"`
}

// Defaults of the embedded server.
const (
	DefaultServerIMAPAddr = "127.0.0.1:1143"
	DefaultServerSMTPAddr = "127.0.0.1:1025"
	DefaultServerDomain   = "pbemd.localhost"
)

func (c ServerConfig) withDefaults() ServerConfig {
	if c.IMAPAddr == "" {
		c.IMAPAddr = DefaultServerIMAPAddr
	}
	if c.SMTPAddr == "" {
		c.SMTPAddr = DefaultServerSMTPAddr
	}
	if c.Domain == "" {
		c.Domain = DefaultServerDomain
	}
	c.Domain = strings.ToLower(c.Domain)
	if c.MaxMessageBytes == 0 {
		c.MaxMessageBytes = 32 << 20
	}
	return c
}

// Validate reports the first problem with the config.
func (c ServerConfig) Validate() error {
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
	for _, a := range c.Accounts {
		local, domain, ok := strings.Cut(strings.ToLower(a.Address), "@")
		if !ok || local == "" || domain != c.Domain || strings.Contains(local, "+") {
			return fmt.Errorf("mailserver: account %q must be an address at %s without +", a.Address, c.Domain)
		}
		if a.Password == "" {
			return fmt.Errorf("mailserver: account %s has no password", a.Address)
		}
	}
	if c.MaxMessageBytes < 0 {
		return errors.New("mailserver: max_message_bytes must not be negative")
	}
	return nil
}

// Server is the embedded IMAP + SMTP server.
type Server struct {
	cfg   ServerConfig
	log   *slog.Logger
	store *memStore

	imap     *imapserver.Server
	smtp     *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	wg       sync.WaitGroup
	sessions sync.WaitGroup // live IMAP and SMTP sessions
	closeMu  sync.Mutex
	isClosed bool
}

// StartServer opens the state file (if any), creates the configured
// accounts and starts serving IMAP and SMTP. Use ":0" ports to let the
// system pick (tests); IMAPAddr and SMTPAddr report the real ones.
func StartServer(cfg ServerConfig, log *slog.Logger) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, err := openMemStore(cfg.StateFile)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: log.With("component", "mailserver"), store: st}
	for _, a := range cfg.Accounts {
		st.mu.Lock()
		_, err := st.addUserLocked(a.Address, a.Password, false)
		st.mu.Unlock()
		if err != nil {
			st.close()
			return nil, err
		}
	}
	if s.imapLn, err = net.Listen("tcp", cfg.IMAPAddr); err != nil {
		st.close()
		return nil, fmt.Errorf("mailserver: imap: %w", err)
	}
	if s.smtpLn, err = net.Listen("tcp", cfg.SMTPAddr); err != nil {
		s.imapLn.Close()
		st.close()
		return nil, fmt.Errorf("mailserver: smtp: %w", err)
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			s.sessions.Add(1)
			return &memSession{srv: s}, nil, nil
		},
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {},
			imap.CapNamespace: {}, imap.CapUIDPlus: {}, imap.CapESearch: {}, imap.CapSearchRes: {},
			imap.CapMove: {}, imap.CapListStatus: {}, imap.CapStatusSize: {},
		},
		Logger:       slogPrintf{s.log},
		InsecureAuth: true,
	})
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.sessions.Add(1)
		return &smtpSession{srv: s, helo: c.Hostname()}, nil
	}))
	s.smtp.Domain = cfg.Domain
	s.smtp.AllowInsecureAuth = true
	s.smtp.MaxMessageBytes = cfg.MaxMessageBytes
	s.smtp.MaxRecipients = 100
	s.smtp.ReadTimeout = 5 * time.Minute
	s.smtp.WriteTimeout = time.Minute
	s.smtp.ErrorLog = slogPrintf{s.log}
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.imap.Serve(s.imapLn) }()
	go func() { defer s.wg.Done(); s.smtp.Serve(s.smtpLn) }()
	s.log.Info("embedded mail server listening", "imap", s.IMAPAddr(), "smtp", s.SMTPAddr(), "domain", cfg.Domain, "state", cfg.StateFile)
	return s, nil
}

// IMAPAddr is the address the IMAP server listens on.
func (s *Server) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr is the address the SMTP server listens on.
func (s *Server) SMTPAddr() string { return s.smtpLn.Addr().String() }

// Domain is the mail domain of the server's accounts.
func (s *Server) Domain() string { return s.cfg.Domain }

// Close stops both servers (open connections are dropped) and closes the
// state file. It is safe to call twice.
func (s *Server) Close() error {
	s.closeMu.Lock()
	if s.isClosed {
		s.closeMu.Unlock()
		return nil
	}
	s.isClosed = true
	s.closeMu.Unlock()
	errI := s.imap.Close()
	errS := s.smtp.Close()
	// a Serve goroutine that had not started yet has not registered its
	// listener with the library: close ours too, or it accepts for ever
	s.imapLn.Close()
	s.smtpLn.Close()
	s.wg.Wait()
	// the libraries close connections but do not wait for their
	// goroutines; wait for the sessions to end (bounded)
	ended := make(chan struct{})
	go func() { s.sessions.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		s.log.Warn("mail server sessions still running after close")
	}
	s.store.mu.Lock()
	errF := s.store.close()
	s.store.mu.Unlock()
	if errors.Is(errI, net.ErrClosed) {
		errI = nil
	}
	if errors.Is(errS, net.ErrClosed) || errors.Is(errS, smtp.ErrServerClosed) {
		errS = nil
	}
	return errors.Join(errI, errS, errF)
}

// Accounts lists every account, configured and automatic, by address.
// Passwords are included: this is a local demo server, and the list is
// what a person needs to point a mail client at it.
func (s *Server) Accounts() []ServerAccount {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	var out []ServerAccount
	for _, u := range s.store.users {
		out = append(out, ServerAccount{Address: u.addr, Password: u.password, Auto: u.auto})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}

// AddAccount creates (or sets the password of) an account at the
// server's domain.
func (s *Server) AddAccount(address, password string) error {
	if _, err := s.localAccount(address); err != nil {
		return err
	}
	if password == "" {
		return errors.New("mailserver: empty password")
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	_, err := s.store.addUserLocked(address, password, false)
	return err
}

// IMAPConfig returns a client config for an account of this server.
func (s *Server) IMAPConfig(address string) (IMAPConfig, error) {
	u, err := s.account(address)
	if err != nil {
		return IMAPConfig{}, err
	}
	return IMAPConfig{Addr: s.IMAPAddr(), Username: u.addr, Password: u.password, Security: SecurityPlain, Address: u.addr}, nil
}

// SMTPConfig returns a client config for an account of this server.
func (s *Server) SMTPConfig(address string) (SMTPConfig, error) {
	u, err := s.account(address)
	if err != nil {
		return SMTPConfig{}, err
	}
	return SMTPConfig{Addr: s.SMTPAddr(), Username: u.addr, Password: u.password, Security: SecurityPlain, Hello: "localhost"}, nil
}

// account returns an existing or auto-created account.
func (s *Server) account(address string) (*memUser, error) {
	base, err := s.localAccount(address)
	if err != nil {
		return nil, err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	return s.ensureUserLocked(base)
}

// localAccount checks that address is at our domain and returns the base
// address (without +token), lower case.
func (s *Server) localAccount(address string) (string, error) {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(address)), "@")
	if !ok || local == "" || domain != s.cfg.Domain {
		return "", fmt.Errorf("mailserver: %q is not an address at %s", address, s.cfg.Domain)
	}
	base, _, _ := strings.Cut(local, "+")
	if base == "" || strings.ContainsAny(base, " \t\r\n\"<>,;:\\") {
		return "", fmt.Errorf("mailserver: %q is not a usable local part", local)
	}
	return base + "@" + domain, nil
}

func (s *Server) autoPassword(base string) string {
	if s.cfg.PlayerPassword != "" {
		return s.cfg.PlayerPassword
	}
	local, _, _ := strings.Cut(base, "@")
	return local
}

func (s *Server) ensureUserLocked(base string) (*memUser, error) {
	if u := s.store.userLocked(base); u != nil {
		return u, nil
	}
	u, err := s.store.addUserLocked(base, s.autoPassword(base), true)
	if err == nil {
		s.log.Info("account created", "address", base)
	}
	return u, err
}

// login checks a password, creating an automatic account on first use.
func (s *Server) login(username, password string) (*memUser, error) {
	base, err := s.localAccount(username)
	if err != nil {
		return nil, errNoAccount
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	u := s.store.userLocked(base)
	if u == nil {
		if password != s.autoPassword(base) {
			return nil, errNoAccount
		}
		return s.ensureUserLocked(base)
	}
	if password != u.password {
		return nil, errNoAccount
	}
	return u, nil
}

// Deliver puts raw into the INBOX of every local recipient, as SMTP would
// (with Return-Path, Delivered-To and Received on top). Recipients
// outside the domain are an error; nothing is delivered then.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	type target struct{ rcpt, base string }
	var targets []target
	for _, rcpt := range to {
		base, err := s.localAccount(rcpt)
		if err != nil {
			return err
		}
		targets = append(targets, target{rcpt, base})
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	for _, t := range targets {
		u, err := s.ensureUserLocked(t.base)
		if err != nil {
			return err
		}
		copyRaw := make([]byte, 0, len(raw)+200)
		copyRaw = fmt.Appendf(copyRaw, "Return-Path: <%s>\r\nDelivered-To: %s\r\nReceived: by %s (pbemd embedded); %s\r\n",
			from, t.rcpt, s.cfg.Domain, time.Now().Format(time.RFC1123Z))
		copyRaw = append(copyRaw, raw...)
		if _, err := s.store.appendLocked(u.mailboxes["INBOX"], copyRaw, nil, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// resetMailbox deletes and recreates a mailbox: its messages go and it
// gets a new UIDVALIDITY (tests use it to simulate a server rebuild).
func (s *Server) resetMailbox(address, name string) error {
	u, err := s.account(address)
	if err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	if err := s.store.deleteMailboxLocked(u, name); err != nil {
		return err
	}
	_, err = s.store.createMailboxLocked(u, name)
	return err
}

// smtpSession is one SMTP connection to the embedded server.
type smtpSession struct {
	srv    *Server
	helo   string
	from   string
	to     []string
	closed bool
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (c *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (c *smtpSession) Auth(mech string) (sasl.Server, error) {
	check := func(username, password string) error {
		if _, err := c.srv.login(username, password); err != nil {
			return smtp.ErrAuthFailed
		}
		return nil
	}
	switch mech {
	case sasl.Plain:
		return newPlainServer(func(identity, username, password string) error {
			if identity != "" && !strings.EqualFold(identity, username) {
				return smtp.ErrAuthFailed
			}
			return check(username, password)
		}), nil
	case sasl.Login:
		return newLoginServer(check), nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (c *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	c.from = from
	return nil
}

func (c *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if _, err := c.srv.localAccount(to); err != nil {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "This server delivers only to @" + c.srv.cfg.Domain + " (no relaying)"}
	}
	c.to = append(c.to, to)
	return nil
}

func (c *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := c.srv.Deliver(c.from, c.to, raw); err != nil {
		c.srv.log.Error("local delivery failed", "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local delivery failed, try again later"}
	}
	return nil
}

func (c *smtpSession) Reset() {
	c.from, c.to = "", nil
}

func (c *smtpSession) Logout() error {
	if !c.closed {
		c.closed = true
		c.srv.sessions.Done()
	}
	return nil
}

// slogPrintf adapts slog to the Printf loggers of go-imap and go-smtp.
type slogPrintf struct{ log *slog.Logger }

func (l slogPrintf) Printf(format string, args ...any) {
	l.emit(fmt.Sprintf(format, args...))
}

func (l slogPrintf) Println(args ...any) {
	l.emit(strings.TrimSpace(fmt.Sprintln(args...)))
}

// emit logs a library message; a client that hung up is not news.
func (l slogPrintf) emit(msg string) {
	level := slog.LevelWarn
	for _, s := range []string{"use of closed network connection", "connection reset by peer", "broken pipe", "EOF", "i/o timeout"} {
		if strings.Contains(msg, s) {
			level = slog.LevelDebug
			break
		}
	}
	l.log.LogAttrs(context.Background(), level, msg)
}
