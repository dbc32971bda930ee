package mailer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// A handler that cannot write its store says ErrRetryLater: the mail is
// not counted toward poisoning however often it fails, nothing after it
// overtakes it, the checkpoint stays before it, and Health says why mail
// waits until the store writes again.
func TestRetryLaterIsNeverCountedAndKeepsOrder(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	h := newDedupeHandler()
	var down atomic.Bool
	h.fail = func(m *Mail) error {
		if down.Load() {
			return fmt.Errorf("handle mail: %w: store cannot write: no space left on device", ErrRetryLater)
		}
		return nil
	}
	var poisoned atomic.Int32
	f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, o *FetcherOptions) {
		c.MaxFailures = 3
		o.OnPoison = func(context.Context, Poisoned) { poisoned.Add(1) }
	})
	var want []string
	send := func(i int) {
		c := orderMail(t, i, "a")
		want = append(want, c.MessageID)
		deliver(t, srv, c)
	}
	send(1)
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	down.Store(true)
	for i := 2; i <= 5; i++ {
		send(i)
	}
	for poll := 1; poll <= 6; poll++ {
		calls := h.count()
		st, err := f.Poll(context.Background())
		if !errors.Is(err, ErrRetryLater) || st.Deferred != 1 {
			t.Fatalf("poll %d under a store fault = %+v, %v; want the poll to stop with ErrRetryLater", poll, st, err)
		}
		if n := h.count() - calls; n != 1 {
			t.Fatalf("poll %d handed over %d mails; want only the first waiting one (no later mail may overtake it)", poll, n)
		}
		if hl := f.Health(); hl.OK() || !strings.Contains(hl.Problem, "no space left") {
			t.Fatalf("health during the fault: %+v", hl)
		}
	}
	if n, _ := state.Failures(want[1]); n != 0 || poisoned.Load() != 0 {
		t.Fatalf("a store fault counted against the mail: %d failures, %d poisoned", n, poisoned.Load())
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 1 {
		t.Fatalf("checkpoint %+v moved past a mail that was not handled", cp)
	}

	down.Store(false)
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := h.ids(); !slices.Equal(got, want) {
		t.Fatalf("mails handled %v, want each once in order %v", got, want)
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 5 {
		t.Fatalf("checkpoint %+v after recovery", cp)
	}
	if hl := f.Health(); !hl.OK() {
		t.Fatalf("health after recovery: %+v", hl)
	}
	_, flags := mailboxState(t, srv, gm, "INBOX")
	for uid, fl := range flags {
		if hasFlag(fl, imap.FlagFlagged) || !hasFlag(fl, imap.FlagSeen) {
			t.Errorf("uid %d flags %v: want seen, not set aside", uid, fl)
		}
	}
}

// While Run waits to retry, a Kick retries at once (the cron polls every
// minute), so a long backoff never delays mail once the store writes.
func TestRetryLaterKickRetriesAtOnce(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	var down atomic.Bool
	down.Store(true)
	var tries atomic.Int32
	h.fail = func(*Mail) error {
		tries.Add(1)
		if down.Load() {
			return fmt.Errorf("%w: disk full", ErrRetryLater)
		}
		return nil
	}
	f := newTestFetcher(t, srv, newMemState(), h.handle, func(_ *IMAPConfig, o *FetcherOptions) {
		o.MinBackoff, o.MaxBackoff = time.Hour, time.Hour
	})
	deliver(t, srv, orderMail(t, 1, "a"))
	runFetcher(t, f)
	for deadline := time.Now().Add(5 * time.Second); tries.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the mail was never handed over")
		}
	}
	down.Store(false)
	f.Kick()
	h.waitFor(t, 1, 5*time.Second)
}

// startMemIMAP runs go-imap's in-memory server on loopback; accounts are
// added later with mem.AddUser.
func startMemIMAP(t testing.TB) (*imapmemserver.Server, string) {
	t.Helper()
	mem := imapmemserver.New()
	s := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}},
		InsecureAuth: true,
		Logger:       tLogPrintf{t},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { s.Serve(ln); close(done) }()
	t.Cleanup(func() { s.Close(); ln.Close(); <-done })
	return mem, ln.Addr().String()
}

// A refused login shows in Health with the account, and clears once the
// server takes the login.
func TestFetcherHealthReportsLoginFailure(t *testing.T) {
	mem, addr := startMemIMAP(t)
	f, err := NewFetcher(IMAPConfig{Addr: addr, Security: SecurityPlain, Username: "gm@" + testDomain, Password: "right"},
		FetcherOptions{Logger: testLogger(t), State: newMemState(), Handler: newDedupeHandler().handle})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if hl := f.Health(); !hl.OK() {
		t.Fatalf("health before the first poll: %+v", hl)
	}
	if _, err := f.Poll(context.Background()); err == nil {
		t.Fatal("poll with a refused login succeeded")
	}
	hl := f.Health()
	if hl.OK() || !strings.Contains(hl.Problem, "login as gm@"+testDomain) || hl.Since.IsZero() {
		t.Fatalf("health after a refused login: %+v", hl)
	}
	u := imapmemserver.NewUser("gm@"+testDomain, "right")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hl := f.Health(); !hl.OK() {
		t.Fatalf("health after the login works again: %+v", hl)
	}
}

// tLogPrintf is a Printf logger for test servers that writes to t.Log.
type tLogPrintf struct{ t testing.TB }

func (l tLogPrintf) Printf(format string, args ...any) { l.t.Logf(format, args...) }

func (l tLogPrintf) Println(args ...any) { l.t.Log(args...) }
