package mailserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Server is the embedded IMAP + SMTP server.
type Server struct {
	cfg    Config
	log    *slog.Logger
	store  *store
	system map[string]bool   // base addresses of the system accounts
	known  map[string]string // passwords this process was given or made (under store.mu)
	made   map[string]bool   // system accounts whose password this start made (set at Start)
	player [32]byte          // digest of Config.PlayerPassword

	throttle *throttle
	bcrypts  atomic.Int64 // bcrypt checks run for logins

	imap     *imapserver.Server
	smtp     *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	wg       sync.WaitGroup
	sessions sync.WaitGroup // live IMAP and SMTP sessions
	closeMu  sync.Mutex
	isClosed bool
}

// AccountInfo describes an account (Accounts).
type AccountInfo struct {
	Address string
	Auto    bool // created on first use; its password is the rule
	System  bool // a system account: a generated password only
}

// Start opens the state file, sets up the system and configured accounts
// and starts serving IMAP and SMTP. Use ":0" ports to let the system pick
// (tests); IMAPAddr and SMTPAddr report the real ones.
func Start(cfg Config, log *slog.Logger) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log.With("component", "mailserver"), system: map[string]bool{}, known: map[string]string{},
		throttle: newThrottle(cfg.LoginFailures, cfg.LoginLockout)}
	if cfg.PlayerPassword != "" {
		s.player = digest(cfg.PlayerPassword)
	}
	var systemAddrs []string
	for _, a := range cfg.System {
		base, _ := cfg.baseAddress(a) // Validate checked it
		if !s.system[base] {
			s.system[base] = true
			systemAddrs = append(systemAddrs, base)
		}
	}
	passwords, made, err := systemPasswords(cfg.PasswordFile, systemAddrs)
	if err != nil {
		return nil, err
	}
	s.made = made
	lim := limits{mailboxBytes: cfg.MailboxQuota, totalBytes: cfg.TotalQuota, mailboxMsgs: cfg.MailboxMaxMessages, totalMsgs: cfg.TotalMaxMessages}
	if s.store, err = openStore(cfg.StateFile, lim, s.hashPassword); err != nil {
		return nil, err
	}
	if err := s.setUpAccounts(passwords); err != nil {
		s.store.close()
		return nil, err
	}
	if s.imapLn, err = net.Listen("tcp", cfg.IMAPAddr); err != nil {
		s.store.close()
		return nil, fmt.Errorf("mailserver: imap: %w", err)
	}
	if s.smtpLn, err = net.Listen("tcp", cfg.SMTPAddr); err != nil {
		s.imapLn.Close()
		s.store.close()
		return nil, fmt.Errorf("mailserver: smtp: %w", err)
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			s.sessions.Add(1)
			return &imapSession{srv: s}, nil, nil
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
		return &smtpSession{srv: s}, nil
	}))
	s.smtp.Domain = cfg.Domain
	s.smtp.AllowInsecureAuth = true
	s.smtp.MaxMessageBytes = cfg.MaxMessageBytes
	s.smtp.MaxRecipients = 100
	s.smtp.EnableSMTPUTF8 = true // a non-ASCII address comes with SMTPUTF8 or not at all (Mail, Rcpt)
	s.smtp.ReadTimeout = 5 * time.Minute
	s.smtp.WriteTimeout = time.Minute
	s.smtp.ErrorLog = slogPrintf{s.log}
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.imap.Serve(s.imapLn) }()
	go func() { defer s.wg.Done(); s.smtp.Serve(s.smtpLn) }()
	s.log.Info("embedded mail server listening", "imap", s.IMAPAddr(), "smtp", s.SMTPAddr(), "domain", cfg.Domain, "state", cfg.StateFile)
	return s, nil
}

// setUpAccounts gives the configured and system accounts their
// passwords; a stored hash that still matches is kept. An account that
// was a system account and no longer is becomes an automatic one.
func (s *Server) setUpAccounts(system map[string]string) error {
	type want struct {
		addr, pw string
		kind     accountKind
	}
	var wants []want
	for _, a := range s.cfg.Accounts {
		base, _ := s.cfg.baseAddress(a.Address)
		wants = append(wants, want{base, a.Password, kindConfigured})
	}
	for addr, pw := range system {
		wants = append(wants, want{addr, pw, kindSystem})
	}
	st := s.store
	for _, w := range wants {
		st.mu.Lock()
		var kind accountKind
		var hash []byte
		if u := st.userLocked(w.addr); u != nil {
			kind, hash = u.kind, u.hash
		}
		st.mu.Unlock()
		if kind != w.kind || !checkHash(hash, w.pw) {
			h, err := s.hashPassword(w.pw)
			if err != nil {
				return err
			}
			hash = h
		}
		st.mu.Lock()
		u, err := st.putUserLocked(w.addr, w.kind, hash)
		if err == nil {
			u.verified = digest(w.pw)
			s.known[w.addr] = w.pw
		}
		st.mu.Unlock()
		if err != nil {
			return err
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for addr, u := range st.users {
		if u.kind == kindSystem && !s.system[addr] {
			if _, err := st.putUserLocked(addr, kindAuto, nil); err != nil {
				return err
			}
		}
	}
	return nil
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

// Usage is how much of a quota is in use.
type Usage struct {
	Bytes, MaxBytes       int64
	Messages, MaxMessages int
}

// Usage reports what the account of address holds (all its folders
// together) and what the whole server holds, each against its quota: what
// the embedding program watches to warn before a mailbox is full (the
// server does not offer IMAP QUOTA). An account not created yet holds
// nothing.
func (s *Server) Usage(address string) (account, server Usage, err error) {
	base, err := s.cfg.baseAddress(address)
	if err != nil {
		return Usage{}, Usage{}, err
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	account = Usage{MaxBytes: st.limits.mailboxBytes, MaxMessages: st.limits.mailboxMsgs}
	if u := st.userLocked(base); u != nil {
		account.Bytes, account.Messages = u.used.bytes, u.used.msgs
	}
	server = Usage{Bytes: st.used.bytes, MaxBytes: st.limits.totalBytes, Messages: st.used.msgs, MaxMessages: st.limits.totalMsgs}
	return account, server, nil
}

// Accounts lists every account, configured and automatic, by address.
func (s *Server) Accounts() []AccountInfo {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	var out []AccountInfo
	for _, u := range s.store.users {
		out = append(out, AccountInfo{Address: u.addr, Auto: u.kind == kindAuto, System: u.kind == kindSystem})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}

// PasswordMadeNow reports whether this start made the password of the
// system account addr (it was not in the password file): the start-up
// banner shows only such a password, once; a later start names the file.
func (s *Server) PasswordMadeNow(addr string) bool {
	base, err := s.cfg.baseAddress(addr)
	return err == nil && s.made[base]
}

// SystemAccounts lists the system accounts with their generated
// passwords (the daemon logs in with its own; the start-up banner shows
// those PasswordMadeNow).
func (s *Server) SystemAccounts() []Account {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	var out []Account
	for addr := range s.system {
		out = append(out, Account{Address: addr, Password: s.known[addr]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}

// AddAccount creates (or sets the password of) an account at the
// server's domain. A system account's password cannot be set.
func (s *Server) AddAccount(address, password string) error {
	base, err := s.cfg.baseAddress(address)
	if err != nil {
		return err
	}
	if password == "" {
		return errors.New("mailserver: empty password")
	}
	if s.system[base] {
		return fmt.Errorf("mailserver: %s is a system account: its password is generated", base)
	}
	hash, err := s.hashPassword(password)
	if err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	u, err := s.store.putUserLocked(base, kindConfigured, hash)
	if err == nil {
		u.verified = digest(password)
		s.known[base] = password
	}
	return err
}

// Credentials returns the user name and password that open an account,
// creating an automatic account on first use: what a client of this
// process (the daemon, the demo's players, tests) logs in with. The
// password of an account set in an earlier run by AddAccount is not
// known and is an error.
func (s *Server) Credentials(address string) (username, password string, err error) {
	base, err := s.cfg.baseAddress(address)
	if err != nil {
		return "", "", err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	if u := s.store.users[base]; u != nil && u.kind != kindAuto {
		pw, ok := s.known[base]
		if !ok {
			return "", "", fmt.Errorf("mailserver: the password of %s was set in an earlier run and is not known now", base)
		}
		return base, pw, nil
	}
	if _, err := s.ensureUserLocked(base); err != nil {
		return "", "", err
	}
	return base, s.rulePassword(base), nil
}

// rulePassword is the password of an automatic account.
func (s *Server) rulePassword(base string) string {
	if s.cfg.PlayerPassword != "" {
		return s.cfg.PlayerPassword
	}
	local, _, _ := strings.Cut(base, "@")
	return local
}

// ruleMatches compares password with an automatic account's password in
// constant time; the local part without regard to case.
func (s *Server) ruleMatches(base, password string) bool {
	if s.cfg.PlayerPassword != "" {
		return equalDigest(digest(password), s.player)
	}
	local, _, _ := strings.Cut(base, "@")
	return equalDigest(digest(strings.ToLower(password)), digest(local))
}

// errTooManyAccounts: MaxAccounts reached.
var errTooManyAccounts = fmt.Errorf("mailserver: %d accounts, the most this server keeps", MaxAccounts)

func (s *Server) ensureUserLocked(base string) (*user, error) {
	if u := s.store.userLocked(base); u != nil {
		return u, nil
	}
	if s.system[base] {
		return nil, errAuth // system accounts exist from Start on
	}
	if len(s.store.users) >= MaxAccounts {
		return nil, errTooManyAccounts
	}
	u, err := s.store.putUserLocked(base, kindAuto, nil)
	if err == nil {
		s.log.Info("account created", "address", base)
	}
	return u, err
}

// login checks a password, creating an automatic account on first use.
// bcrypt runs outside the store lock, and only as far as the throttle
// allows (errThrottled otherwise).
// bearerLogin signs username in with an OAuth 2.0 bearer token, checked
// by Config.BearerCheck.
func (s *Server) bearerLogin(username, token string) (*user, error) {
	base, err := s.cfg.baseAddress(username)
	if err != nil || s.cfg.BearerCheck == nil || s.cfg.BearerCheck(username, token) != nil {
		return nil, errAuth
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if u := st.users[base]; u != nil {
		return u, nil
	}
	return s.ensureUserLocked(base)
}

// mechanisms are the SASL mechanisms IMAP and SMTP offer.
func (s *Server) mechanisms() []string {
	if s.cfg.BearerCheck != nil {
		return []string{sasl.Plain, sasl.Login, "XOAUTH2", sasl.OAuthBearer}
	}
	return []string{sasl.Plain, sasl.Login}
}

func (s *Server) login(username, password string) (*user, error) {
	base, err := s.cfg.baseAddress(username)
	if err != nil {
		return nil, errAuth
	}
	st := s.store
	st.mu.Lock()
	u := st.users[base]
	var kind accountKind
	var hash []byte
	var verified [32]byte
	if u != nil {
		kind, hash, verified = u.kind, u.hash, u.verified
	}
	st.mu.Unlock()
	if s.system[base] && (u == nil || kind != kindSystem) {
		return nil, errAuth
	}
	if u == nil || kind == kindAuto {
		if !s.ruleMatches(base, password) {
			return nil, errAuth
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		return s.ensureUserLocked(base)
	}
	// a password of its own: throttled (throttle.go)
	th := s.throttle
	d := digest(password)
	if equalDigest(d, verified) {
		if kind == kindSystem || !th.locked(base) {
			th.succeed(base)
			return u, nil
		}
		return nil, errThrottled
	}
	if th.locked(base) {
		return nil, errThrottled
	}
	if ok, warn := th.reserve(); !ok {
		if warn {
			s.log.Warn("too many failed logins on the server: logins that need a password check are refused for a while", "address", base)
		}
		s.failed(base)
		return nil, errThrottled
	}
	s.bcrypts.Add(1)
	if !checkHash(hash, password) {
		s.failed(base)
		return nil, errAuth
	}
	th.refund()
	th.succeed(base)
	st.mu.Lock()
	if bytes.Equal(u.hash, hash) {
		u.verified = d
	}
	st.mu.Unlock()
	return u, nil
}

// failed counts a failed login to an account with a password of its own
// and logs a lockout.
func (s *Server) failed(base string) {
	if d := s.throttle.fail(base); d > 0 {
		s.log.Warn("too many failed logins: account throttled", "address", base, "for", d.String())
	}
}

// Deliver puts raw into the INBOX of every local recipient, as SMTP would
// (with Return-Path, Delivered-To and Received on top), all or none.
// Recipients outside the domain are an error, a full mailbox a
// *QuotaError; nothing is delivered then.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	if strings.ContainsAny(from, "\r\n") {
		return errors.New("mailserver: line break in the sender")
	}
	type target struct{ rcpt, base string }
	var targets []target
	for _, rcpt := range to {
		base, err := s.cfg.baseAddress(rcpt)
		if err != nil {
			return err
		}
		targets = append(targets, target{strings.TrimSpace(rcpt), base})
	}
	now := time.Now().Format(time.RFC1123Z)
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	boxes := make([]*mailbox, len(targets))
	heads := make([][]byte, len(targets))
	for i, t := range targets {
		u, err := s.ensureUserLocked(t.base)
		if err != nil {
			return err
		}
		boxes[i] = u.mailboxes["INBOX"]
		heads[i] = fmt.Appendf(nil, "Return-Path: <%s>\r\nDelivered-To: %s\r\nReceived: by %s (pbemd embedded); %s\r\n", from, t.rcpt, s.cfg.Domain, now)
	}
	_, err := st.deliverLocked(boxes, heads, raw, nil, time.Time{})
	return err
}

// ResetMailbox empties a mailbox and gives it a new UIDVALIDITY, as a
// mail server rebuilt from scratch would: for tests of IMAP clients.
func (s *Server) ResetMailbox(address, name string) error {
	base, err := s.cfg.baseAddress(address)
	if err != nil {
		return err
	}
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
	u := st.userLocked(base)
	if u == nil {
		return errNoMailbox
	}
	if err := st.deleteMailboxLocked(u, name); err != nil {
		return err
	}
	mb, err := st.createMailboxLocked(u, name)
	if err == nil && mailboxKey(name) == "INBOX" {
		mb.subscribed = true
		err = st.db.Update(mb.saveMeta)
	}
	return err
}

// smtpSession is one SMTP connection to the embedded server.
type smtpSession struct {
	srv    *Server
	from   string
	size   int64 // SIZE= of MAIL FROM, 0 if not given
	utf8   bool  // MAIL FROM had SMTPUTF8 (RFC 6531)
	to     []string
	closed bool
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (c *smtpSession) AuthMechanisms() []string { return c.srv.mechanisms() }

func (c *smtpSession) Auth(mech string) (sasl.Server, error) {
	check := func(username, password string) error {
		_, err := c.srv.login(username, password)
		switch {
		case errors.Is(err, errThrottled):
			return smtpThrottled
		case err != nil:
			return smtp.ErrAuthFailed
		}
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && !strings.EqualFold(identity, username) {
				return smtp.ErrAuthFailed
			}
			return check(username, password)
		}), nil
	case sasl.Login:
		return newLoginServer(check), nil
	}
	if c.srv.cfg.BearerCheck != nil {
		bearer := func(user, token string) error {
			if _, err := c.srv.bearerLogin(user, token); err != nil {
				return smtp.ErrAuthFailed
			}
			return nil
		}
		if srv := newBearerServer(mech, bearer); srv != nil {
			return srv, nil
		}
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// Mail starts a transaction. A non-ASCII sender needs the SMTPUTF8
// parameter (RFC 6531): the client then knows that raw UTF-8 addresses
// and headers are agreed on, and so does whoever answers the mail.
func (c *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	c.from, c.size, c.utf8 = "", 0, false
	if opts != nil {
		c.size, c.utf8 = opts.Size, opts.UTF8
	}
	if !c.utf8 && !isASCII(from) {
		return errNeedsSMTPUTF8("sender")
	}
	c.from = from
	return nil
}

// errNeedsSMTPUTF8 refuses a non-ASCII address given without SMTPUTF8:
// 553 (mailbox name not allowed, RFC 5321) 5.6.7 (non-ASCII addresses not
// permitted for that sender or recipient, RFC 6531).
func errNeedsSMTPUTF8(role string) error {
	return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 6, 7},
		Message: "Non-ASCII address not permitted for that " + role + " without SMTPUTF8"}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Rcpt accepts local recipients only, and refuses one whose mailbox is
// already full (or too small for the SIZE the client announced), and a
// non-ASCII one in a transaction without SMTPUTF8.
func (c *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !c.utf8 && !isASCII(to) {
		return errNeedsSMTPUTF8("recipient")
	}
	base, err := c.srv.cfg.baseAddress(to)
	if err != nil {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "This server delivers only to @" + c.srv.cfg.Domain + " (no relaying)"}
	}
	st := c.srv.store
	size := max(c.size, 1)
	st.mu.Lock()
	u := st.users[base]
	switch {
	case u != nil:
		err = st.checkQuotaLocked([]*user{u}, []int64{size})
	case len(st.users) >= MaxAccounts:
		err = errTooManyAccounts
	case st.used.bytes+size > st.limits.totalBytes || st.used.msgs+1 > st.limits.totalMsgs:
		err = &QuotaError{}
	}
	st.mu.Unlock()
	if err != nil {
		return smtpReply(err)
	}
	c.to = append(c.to, to)
	return nil
}

func (c *smtpSession) Data(r io.Reader) error {
	var buf bytes.Buffer
	if c.size > 0 && c.size <= c.srv.cfg.MaxMessageBytes {
		buf.Grow(int(c.size))
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	if err := c.srv.Deliver(c.from, c.to, buf.Bytes()); err != nil {
		var qe *QuotaError
		if errors.As(err, &qe) {
			c.srv.log.Warn("mail refused: over quota", "from", c.from, "err", err)
		} else {
			c.srv.log.Error("local delivery failed", "err", err)
		}
		return smtpReply(err)
	}
	return nil
}

// smtpReply turns a delivery error into the SMTP reply: a full mailbox
// is 452 4.2.2 (RFC 3463: the owner can make room; try later), a mail
// larger than the mailbox can ever hold 552 5.2.2 (RFC 5321: exceeded
// storage allocation), a full server 452 4.3.1; anything else 451.
func smtpReply(err error) error {
	var qe *QuotaError
	switch {
	case errors.As(err, &qe) && qe.Address == "":
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1}, Message: "Insufficient system storage: the mail server is full, try again later"}
	case errors.As(err, &qe) && qe.Permanent:
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 2, 2}, Message: "Mailbox " + qe.Address + " cannot hold a mail this large"}
	case errors.As(err, &qe):
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox " + qe.Address + " is full, try again later"}
	case errors.Is(err, errTooManyAccounts):
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 3, 1}, Message: "Too many mailboxes on this server"}
	}
	return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local delivery failed, try again later"}
}

func (c *smtpSession) Reset() {
	c.from, c.to, c.size, c.utf8 = "", nil, 0, false
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
