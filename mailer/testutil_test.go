package mailer

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"golang.org/x/crypto/bcrypt"

	"pbemd/mailserver"
)

const testDomain = "example.test"

// testLogger logs to t.Log, at debug level when -v is given, so protocol
// transcripts show up next to a failing test.
func testLogger(t testing.TB) *slog.Logger {
	level := slog.LevelInfo
	if testing.Verbose() {
		level = slog.LevelDebug
	}
	w := &tWriter{t: t}
	t.Cleanup(func() { w.done.Store(true) })
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// tWriter sends log lines to t.Log until the test is over (a server
// goroutine may still log while it shuts down).
type tWriter struct {
	t    testing.TB
	done atomic.Bool
}

func (w *tWriter) Write(p []byte) (int, error) {
	if !w.done.Load() {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// testServer is the embedded mail server (package mailserver) with the
// client configs of its accounts.
type testServer struct{ *mailserver.Server }

func (s *testServer) IMAPConfig(address string) (IMAPConfig, error) {
	user, pw, err := s.Credentials(address)
	if err != nil {
		return IMAPConfig{}, err
	}
	return IMAPConfig{Addr: s.IMAPAddr(), Username: user, Password: pw, Security: SecurityPlain, Address: user}, nil
}

func (s *testServer) SMTPConfig(address string) (SMTPConfig, error) {
	user, pw, err := s.Credentials(address)
	if err != nil {
		return SMTPConfig{}, err
	}
	return SMTPConfig{Addr: s.SMTPAddr(), Username: user, Password: pw, Security: SecurityPlain, Hello: "localhost"}, nil
}

// serverConfig is an embedded server on 127.0.0.1:0 with gm@ and
// p1@example.test, memory only unless stateFile is set.
func serverConfig(stateFile string) mailserver.Config {
	return mailserver.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: testDomain, StateFile: stateFile,
		Accounts: []mailserver.Account{{Address: "gm@" + testDomain, Password: "gmpass"}, {Address: "p1@" + testDomain, Password: "p1pass"}},
		HashCost: bcrypt.MinCost,
	}
}

// startMailServer starts an embedded server, stopped at the end of the
// test.
func startMailServer(t testing.TB, cfg mailserver.Config) *testServer {
	t.Helper()
	srv, err := mailserver.Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &testServer{srv}
}

// startServer starts an embedded server with gm@ and p1@ (serverConfig).
func startServer(t testing.TB, stateFile string) *testServer {
	t.Helper()
	return startMailServer(t, serverConfig(stateFile))
}

// imapAdmin runs fn on an IMAP session of addr, standing in for the mail
// server's own tools (inspect, append).
func imapAdmin(t testing.TB, srv *testServer, addr string, fn func(c *imapclient.Client)) {
	t.Helper()
	user, pw, err := srv.Credentials(addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, pw).Wait(); err != nil {
		t.Fatal(err)
	}
	fn(c)
	c.Logout().Wait()
}

// mailboxState lists the UIDs and flags of a mailbox (nil if it does not
// exist), read over IMAP without changing anything.
func mailboxState(t testing.TB, srv *testServer, addr, name string) (uids []uint32, flags map[uint32][]imap.Flag) {
	t.Helper()
	imapAdmin(t, srv, addr, func(c *imapclient.Client) {
		sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil || sel.NumMessages == 0 {
			return
		}
		msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		flags = map[uint32][]imap.Flag{}
		for _, m := range msgs {
			uids = append(uids, uint32(m.UID))
			flags[uint32(m.UID)] = m.Flags
		}
	})
	return uids, flags
}

// mailboxRaws reads every message of a mailbox over IMAP, as stored.
func mailboxRaws(t testing.TB, srv *testServer, addr, name string) [][]byte {
	t.Helper()
	var out [][]byte
	imapAdmin(t, srv, addr, func(c *imapclient.Client) {
		sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if sel.NumMessages == 0 {
			return
		}
		msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			out = append(out, m.BodySection[0].Bytes)
		}
	})
	return out
}

// appendRaw puts raw into a mailbox as it is (IMAP APPEND: no lines
// added on top, unlike delivery).
func appendRaw(t testing.TB, srv *testServer, addr, name string, raw []byte) {
	t.Helper()
	imapAdmin(t, srv, addr, func(c *imapclient.Client) {
		cmd := c.Append(name, int64(len(raw)), nil)
		if _, err := cmd.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

// slogPrintf adapts slog to go-smtp's Printf logger (scripted servers).
type slogPrintf struct{ log *slog.Logger }

func (l slogPrintf) Printf(format string, args ...any) { l.log.Debug(fmt.Sprintf(format, args...)) }

func (l slogPrintf) Println(args ...any) { l.log.Debug(strings.TrimSpace(fmt.Sprintln(args...))) }

// memState is an InboxState in memory.
type memState struct {
	mu    sync.Mutex
	cp    map[string]Checkpoint
	fails map[string]int
}

func newMemState() *memState {
	return &memState{cp: map[string]Checkpoint{}, fails: map[string]int{}}
}

func (s *memState) Checkpoint(k string) (Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cp[k], nil
}

func (s *memState) SetCheckpoint(k string, c Checkpoint) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cp[k] = c
	return nil
}

func (s *memState) get(k string) Checkpoint { c, _ := s.Checkpoint(k); return c }

func (s *memState) Failures(id string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fails[id], nil
}

func (s *memState) AddFailure(id string, _ time.Time, _ string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails[id]++
	return s.fails[id], nil
}

func (s *memState) ClearFailures(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.fails, id)
	return nil
}

// dedupeHandler records every mail it is given and, like the daemon,
// counts a Message-ID only once.
type dedupeHandler struct {
	mu      sync.Mutex
	seen    map[string]bool
	order   []string // first deliveries, in order
	calls   int
	fail    func(m *Mail) error // optional: make handling fail
	arrived chan *Mail
}

func newDedupeHandler() *dedupeHandler {
	return &dedupeHandler{seen: map[string]bool{}, arrived: make(chan *Mail, 10000)}
}

func (h *dedupeHandler) handle(_ context.Context, m *Mail) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	if h.fail != nil {
		if err := h.fail(m); err != nil {
			return err
		}
	}
	if !h.seen[m.ID] {
		h.seen[m.ID] = true
		h.order = append(h.order, m.ID)
		h.arrived <- m
	}
	return nil
}

func (h *dedupeHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

func (h *dedupeHandler) ids() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.order)
}

// waitFor waits until n distinct mails arrived, or fails the test.
func (h *dedupeHandler) waitFor(t testing.TB, n int, within time.Duration) []*Mail {
	t.Helper()
	var got []*Mail
	deadline := time.After(within)
	for len(got) < n {
		select {
		case m := <-h.arrived:
			got = append(got, m)
		case <-deadline:
			t.Fatalf("got %d of %d mails within %v", len(got), n, within)
		}
	}
	return got
}

// orderMail composes a small order mail from p1 to gm+token.
func orderMail(t testing.TB, i int, token string) *Composed {
	t.Helper()
	c, err := Compose(&Outgoing{
		From:    mail.Address{Name: "Player One", Address: "p1@" + testDomain},
		To:      []mail.Address{{Address: "gm+" + token + "@" + testDomain}},
		Subject: fmt.Sprintf("orders %d", i),
		Text:    fmt.Sprintf("A PAR - BUR\nF BRE - MAO\n# mail %d\n", i),
		Auto:    AutoNo,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func deliver(t testing.TB, srv *testServer, c *Composed) {
	t.Helper()
	if err := srv.Deliver(c.EnvelopeFrom, c.Recipients, c.Raw); err != nil {
		t.Fatal(err)
	}
}

// newTestFetcher builds a fetcher for gm@ on srv.
func newTestFetcher(t testing.TB, srv *testServer, state InboxState, h Handler, edit func(*IMAPConfig, *FetcherOptions)) *Fetcher {
	t.Helper()
	cfg, err := srv.IMAPConfig("gm@" + testDomain)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Poll = time.Minute
	opt := FetcherOptions{Logger: testLogger(t), State: state, Handler: h, MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond}
	if edit != nil {
		edit(&cfg, &opt)
	}
	f, err := NewFetcher(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// runFetcher starts f.Run and stops it at the end of the test.
func runFetcher(t testing.TB, f *Fetcher) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// memQueue is a Queue in memory that honours due times.
type memQueue struct {
	mu     sync.Mutex
	nextID uint64
	mails  map[uint64]*QueuedMail
	due    map[uint64]time.Time
	sent   []string // Message-IDs, in order
	failed map[string]string
	begun  int
	// personal marks the answers to a mail (addPersonal): Due hands them
	// over first, as the store's queue does.
	personal map[uint64]bool
}

func newMemQueue() *memQueue {
	return &memQueue{mails: map[uint64]*QueuedMail{}, due: map[uint64]time.Time{}, failed: map[string]string{}, personal: map[uint64]bool{}}
}

// addPersonal is add for an answer to a mail.
func (q *memQueue) addPersonal(c *Composed, queued time.Time) uint64 {
	id := q.add(c, queued)
	q.mu.Lock()
	q.personal[id] = true
	q.mu.Unlock()
	return id
}

func (q *memQueue) add(c *Composed, queued time.Time) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.nextID++
	q.mails[q.nextID] = &QueuedMail{ID: q.nextID, MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: c.Raw, Queued: queued}
	q.due[q.nextID] = time.Time{}
	return q.nextID
}

func (q *memQueue) Due(now time.Time, limit int) ([]QueuedMail, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var ids []uint64
	for id, t := range q.due {
		if !t.After(now) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if q.personal[ids[i]] != q.personal[ids[j]] {
			return q.personal[ids[i]]
		}
		return ids[i] < ids[j]
	})
	var out []QueuedMail
	for _, id := range ids {
		if len(out) == limit {
			break
		}
		out = append(out, *q.mails[id])
	}
	return out, nil
}

func (q *memQueue) NextDue() (time.Time, bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var first time.Time
	ok := false
	for _, t := range q.due {
		if !ok || t.Before(first) {
			first, ok = t, true
		}
	}
	return first, ok, nil
}

func (q *memQueue) Begin(id uint64, retryAt time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.begun++
	q.mails[id].Attempts++
	q.due[id] = retryAt
	return nil
}

func (q *memQueue) Sent(id uint64, _ time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sent = append(q.sent, q.mails[id].MessageID)
	delete(q.mails, id)
	delete(q.due, id)
	return nil
}

func (q *memQueue) SentBegin(id uint64, at time.Time, next uint64, retryAt time.Time) error {
	if err := q.Sent(id, at); err != nil {
		return err
	}
	return q.Begin(next, retryAt)
}

func (q *memQueue) Retry(id uint64, next time.Time, lastErr string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.mails[id].LastError = lastErr
	q.due[id] = next
	return nil
}

func (q *memQueue) Failed(id uint64, _ time.Time, reason string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.failed[q.mails[id].MessageID] = reason
	delete(q.mails, id)
	delete(q.due, id)
	return nil
}

func (q *memQueue) snapshot() (sent []string, failed map[string]string, pending int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	f := map[string]string{}
	for k, v := range q.failed {
		f[k] = v
	}
	return slices.Clone(q.sent), f, len(q.mails)
}

func tempPath(t testing.TB, name string) string { return filepath.Join(t.TempDir(), name) }
