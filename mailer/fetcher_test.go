package mailer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// mailboxState returns the UIDs and flags of a mailbox of the embedded
// server, straight from its store.
func hasFlag(fs []imap.Flag, f imap.Flag) bool { return slices.Contains(fs, f) }

const gm = "gm@" + testDomain

func TestFetchHandsOverNewMailOnceInUIDOrder(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, state, h.handle, nil)
	var want []string
	for i := range 5 {
		c := orderMail(t, i, fmt.Sprintf("tok%d", i))
		deliver(t, srv, c)
		want = append(want, c.MessageID)
	}
	st, err := f.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Handled != 5 || !slices.Equal(h.ids(), want) {
		t.Fatalf("poll %+v handed over %v, want %v in order", st, h.ids(), want)
	}
	got := h.waitFor(t, 5, time.Second)
	for i, m := range got {
		if m.Token != fmt.Sprintf("tok%d", i) || !strings.Contains(m.Text, "A PAR - BUR") || m.UID == 0 || m.UIDValidity == 0 {
			t.Errorf("mail %d: token %q uid %d text %q", i, m.Token, m.UID, m.Text)
		}
	}
	uids, flags := mailboxState(t, srv, gm, "INBOX")
	for _, u := range uids {
		if !hasFlag(flags[u], imap.FlagSeen) {
			t.Errorf("uid %d not \\Seen after handling", u)
		}
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != uids[len(uids)-1] {
		t.Errorf("checkpoint %+v, want last uid %d", cp, uids[len(uids)-1])
	}

	// a second poll hands over only what is new
	c := orderMail(t, 5, "tok5")
	deliver(t, srv, c)
	if st, err := f.Poll(context.Background()); err != nil || st.Handled != 1 {
		t.Fatalf("second poll: %+v, %v", st, err)
	}
	if h.count() != 6 {
		t.Fatalf("handler called %d times, want 6", h.count())
	}
}

func TestSeenOnlyAfterHandlerSucceeded(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	deliver(t, srv, orderMail(t, 1, "a"))
	var seenDuring []bool
	fail := true
	f := newTestFetcher(t, srv, state, func(ctx context.Context, m *Mail) error {
		_, flags := mailboxState(t, srv, gm, "INBOX")
		seenDuring = append(seenDuring, hasFlag(flags[m.UID], imap.FlagSeen))
		if fail {
			return errors.New("store is down")
		}
		return nil
	}, nil)

	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	uids, flags := mailboxState(t, srv, gm, "INBOX")
	if hasFlag(flags[uids[0]], imap.FlagSeen) {
		t.Fatal("mail flagged \\Seen although the handler failed")
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 0 {
		t.Fatalf("checkpoint advanced past a failed mail: %+v", cp)
	}
	fail = false
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, flags = mailboxState(t, srv, gm, "INBOX")
	if !hasFlag(flags[uids[0]], imap.FlagSeen) {
		t.Fatal("mail not \\Seen after the handler succeeded")
	}
	if !slices.Equal(seenDuring, []bool{false, false}) {
		t.Fatalf("\\Seen while the handler ran: %v", seenDuring)
	}
	if n, _ := state.Failures(mustParse(t, srv).ID); n != 0 {
		t.Fatalf("failure count not cleared after success: %d", n)
	}
}

func mustParse(t *testing.T, srv *testServer) *Mail {
	t.Helper()
	m, err := ParseMail(mailboxRaws(t, srv, gm, "INBOX")[0], gm)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// crashState fails SetCheckpoint on demand, as a daemon killed between its
// commit and the checkpoint write would.
type crashState struct {
	*memState
	crash bool
}

func (s *crashState) SetCheckpoint(k string, c Checkpoint) error {
	if s.crash && c.LastUID > 0 {
		return errors.New("killed")
	}
	return s.memState.SetCheckpoint(k, c)
}

func TestMailHandledAgainAfterCrashIsDeduplicated(t *testing.T) {
	srv := startServer(t, "")
	state := &crashState{memState: newMemState(), crash: true}
	h := newDedupeHandler()
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "x"))
	}
	f := newTestFetcher(t, srv, state, h.handle, nil)
	if _, err := f.Poll(context.Background()); err == nil {
		t.Fatal("poll with a failing checkpoint write reported no error")
	}
	// the daemon restarts: a new fetcher, the same durable state
	state.crash = false
	f2 := newTestFetcher(t, srv, state, h.handle, nil)
	if _, err := f2.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.count() != 6 || len(h.ids()) != 3 {
		t.Fatalf("handler calls %d, distinct %d; want every mail handed over again (6) and 3 distinct", h.count(), len(h.ids()))
	}
	if cp := state.get(f2.CheckpointKey()); cp.LastUID != 3 {
		t.Fatalf("checkpoint %+v", cp)
	}
}

func TestIdleWakesTheFetcher(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	state := newMemState()
	f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.Poll = time.Hour })
	runFetcher(t, f)
	waitCheckpointValidity(t, state, f.CheckpointKey()) // the first poll is over
	// from now on mail can only arrive through IDLE (the poll interval is
	// an hour and nobody kicks): delivered while the fetcher idles, or
	// while it is still on its way back to IDLE (the server's IDLE then
	// reports it at once)
	for i := 1; i <= 5; i++ {
		deliver(t, srv, orderMail(t, i, "a"))
		h.waitFor(t, 1, 5*time.Second)
	}
}

func TestKickWakesTheFetcherWithoutIdle(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	state := newMemState()
	f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.Poll = time.Hour; c.NoIdle = true })
	runFetcher(t, f)
	waitCheckpointValidity(t, state, f.CheckpointKey()) // the first poll is over
	deliver(t, srv, orderMail(t, 0, "a"))
	f.Kick()
	h.waitFor(t, 1, 5*time.Second)
}

func TestUIDValidityChangeRescansAndDedupes(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, state, h.handle, nil)
	var mails []*Composed
	for i := range 3 {
		c := orderMail(t, i, "a")
		mails = append(mails, c)
		deliver(t, srv, c)
	}
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := state.get(f.CheckpointKey())

	// the server loses its index: same mail, new UIDVALIDITY, UIDs from 1
	if err := srv.ResetMailbox(gm, "INBOX"); err != nil {
		t.Fatal(err)
	}
	for _, c := range mails {
		deliver(t, srv, c)
	}
	fresh := orderMail(t, 99, "a")
	deliver(t, srv, fresh)

	st, err := f.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	after := state.get(f.CheckpointKey())
	if !st.Rescan || after.UIDValidity == before.UIDValidity || after.LastUID != 4 {
		t.Fatalf("poll %+v; checkpoint %+v → %+v", st, before, after)
	}
	if h.count() != 7 || len(h.ids()) != 4 || h.ids()[3] != fresh.MessageID {
		t.Fatalf("calls %d, distinct %v", h.count(), h.ids())
	}
}

func TestUIDsGoingBackwardsRescan(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, state, h.handle, nil)
	deliver(t, srv, orderMail(t, 0, "a"))
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	// a broken server forgets its UIDs but keeps UIDVALIDITY
	cp := state.get(f.CheckpointKey())
	state.SetCheckpoint(f.CheckpointKey(), Checkpoint{UIDValidity: cp.UIDValidity, LastUID: 100})
	deliver(t, srv, orderMail(t, 1, "a"))
	st, err := f.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Rescan || len(h.ids()) != 2 {
		t.Fatalf("poll %+v, mails %v", st, h.ids())
	}
}

func TestPoisonedMailIsSetAsideAndDoesNotBlock(t *testing.T) {
	for _, folder := range []string{"", "Poison"} {
		t.Run("folder="+folder, func(t *testing.T) {
			srv := startServer(t, "")
			state := newMemState()
			h := newDedupeHandler()
			bad := orderMail(t, 2, "a")
			h.fail = func(m *Mail) error {
				if m.ID == bad.MessageID {
					return errors.New("engine panicked")
				}
				return nil
			}
			var (
				mu       sync.Mutex
				poisoned []Poisoned
			)
			f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, o *FetcherOptions) {
				c.MaxFailures = 3
				c.PoisonFolder = folder
				o.OnPoison = func(_ context.Context, p Poisoned) { mu.Lock(); poisoned = append(poisoned, p); mu.Unlock() }
			})
			deliver(t, srv, orderMail(t, 1, "a"))
			deliver(t, srv, bad)
			deliver(t, srv, orderMail(t, 3, "a"))
			for poll := 1; poll <= 4; poll++ {
				if _, err := f.Poll(context.Background()); err != nil {
					t.Fatal(err)
				}
				if poll == 1 && len(h.ids()) != 2 {
					t.Fatalf("the mails around the failing one were not handled at once: %v", h.ids())
				}
			}
			if h.count() != 2+3 {
				t.Fatalf("handler calls %d, want 5 (two good mails once, the bad one 3 times, never again)", h.count())
			}
			if len(poisoned) != 1 || poisoned[0].Mail.ID != bad.MessageID || poisoned[0].Failures != 3 {
				t.Fatalf("poison reports: %+v", poisoned)
			}
			if cp := state.get(f.CheckpointKey()); cp.LastUID != 3 {
				t.Fatalf("checkpoint %+v, want past all three", cp)
			}
			uids, flags := mailboxState(t, srv, gm, "INBOX")
			if folder == "" {
				if !hasFlag(flags[2], imap.FlagFlagged) || !hasFlag(flags[2], imap.FlagSeen) {
					t.Fatalf("poisoned mail flags %v", flags[2])
				}
			} else {
				pu, _ := mailboxState(t, srv, gm, folder)
				if len(pu) != 1 || slices.Contains(uids, 2) {
					t.Fatalf("poison folder %v, inbox %v", pu, uids)
				}
			}
		})
	}
}

func TestProcessedFolderReceivesHandledMail(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, newMemState(), h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.ProcessedFolder = "Done" })
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	inbox, _ := mailboxState(t, srv, gm, "INBOX")
	done, _ := mailboxState(t, srv, gm, "Done")
	if len(inbox) != 0 || len(done) != 3 || len(h.ids()) != 3 {
		t.Fatalf("inbox %v, Done %v, handled %d", inbox, done, len(h.ids()))
	}
}

func TestTooBigMailIsNotDownloaded(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, newMemState(), h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.MaxSize = 4096 })
	big := orderMail(t, 1, "a")
	big.Raw = append(big.Raw[:len(big.Raw):len(big.Raw)], []byte(strings.Repeat("lots of text\r\n", 1000))...)
	deliver(t, srv, big)
	small := orderMail(t, 2, "a")
	deliver(t, srv, small)
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := h.waitFor(t, 2, time.Second)
	b, s := got[0], got[1]
	if !b.TooBig || b.Raw != nil || b.Text != "" || b.Size < 14000 || b.Subject != "orders 1" || b.From.Address != "p1@"+testDomain || b.ID != big.MessageID {
		t.Fatalf("big mail: TooBig %v Raw %d Text %q Size %d Subject %q ID %q", b.TooBig, len(b.Raw), b.Text, b.Size, b.Subject, b.ID)
	}
	if s.TooBig || s.Text == "" {
		t.Fatalf("small mail: %+v", s)
	}
}

func TestUnparseableMailIsPoisonedWithoutHandler(t *testing.T) {
	srv := startServer(t, "")
	h := newDedupeHandler()
	var got []Poisoned
	f := newTestFetcher(t, srv, newMemState(), h.handle, func(_ *IMAPConfig, o *FetcherOptions) {
		o.OnPoison = func(_ context.Context, p Poisoned) { got = append(got, p) }
	})
	appendRaw(t, srv, gm, "INBOX", []byte(" broken\r\nheader\r\n\r\nbody\r\n"))
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.count() != 0 || len(got) != 1 || got[0].Err == nil || !strings.HasPrefix(got[0].Mail.ID, "sha256:") {
		t.Fatalf("handler calls %d, poison reports %+v", h.count(), got)
	}
}

func TestServerRestartBetweenPolls(t *testing.T) {
	for _, persistent := range []bool{true, false} {
		t.Run(fmt.Sprintf("persistent=%v", persistent), func(t *testing.T) {
			stateFile := ""
			if persistent {
				stateFile = tempPath(t, "mail.db")
			}
			srv := startServer(t, stateFile)
			state := newMemState()
			h := newDedupeHandler()
			f := newTestFetcher(t, srv, state, h.handle, nil)
			runFetcher(t, f)
			deliver(t, srv, orderMail(t, 1, "a"))
			deliver(t, srv, orderMail(t, 2, "a"))
			h.waitFor(t, 2, 5*time.Second)
			waitCheckpoint(t, state, f.CheckpointKey(), 2)
			before := state.get(f.CheckpointKey())

			imapAddr, smtpAddr := srv.IMAPAddr(), srv.SMTPAddr()
			srv.Close()
			cfg := serverConfig(stateFile)
			cfg.IMAPAddr, cfg.SMTPAddr = imapAddr, smtpAddr
			srv2 := startMailServer(t, cfg)
			deliver(t, srv2, orderMail(t, 3, "a"))
			deliver(t, srv2, orderMail(t, 4, "a"))
			h.waitFor(t, 2, 10*time.Second)
			// a persistent server keeps UIDs 1-2 and adds 3-4; a fresh one
			// starts again at 1 under a new UIDVALIDITY
			waitCheckpoint(t, state, f.CheckpointKey(), map[bool]uint32{true: 4, false: 2}[persistent])
			after := state.get(f.CheckpointKey())
			if persistent {
				if after.UIDValidity != before.UIDValidity || after.LastUID != 4 || h.count() != 4 {
					t.Fatalf("checkpoint %+v → %+v, handler calls %d (want the same UIDVALIDITY, UID 4, no mail twice)", before, after, h.count())
				}
			} else if after.UIDValidity == before.UIDValidity || len(h.ids()) != 4 {
				t.Fatalf("checkpoint %+v → %+v, mails %d (a fresh server must show a new UIDVALIDITY)", before, after, len(h.ids()))
			}
		})
	}
}

func waitCheckpoint(t *testing.T, state *memState, key string, uid uint32) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if state.get(key).LastUID == uid {
			return
		}
	}
	t.Fatalf("checkpoint %+v never reached UID %d", state.get(key), uid)
}

func TestFetchConnectionDroppedMidFetch(t *testing.T) {
	srv := startServer(t, "")
	proxy := startProxy(t, srv.IMAPAddr())
	proxy.cutWhen(cutRule{conn: 0, fromServer: true, pattern: []byte("# mail 3"), extra: 2})
	state := newMemState()
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.Addr = proxy.addr() })
	var want []string
	for i := range 6 {
		c := orderMail(t, i, "a")
		want = append(want, c.MessageID)
		deliver(t, srv, c)
	}
	runFetcher(t, f)
	h.waitFor(t, 6, 10*time.Second)
	waitCheckpoint(t, state, f.CheckpointKey(), 6)
	if proxy.cutCount() != 1 || !slices.Equal(h.ids(), want) {
		t.Fatalf("cuts %d; mails %v, want %v", proxy.cutCount(), h.ids(), want)
	}
	if n := h.count(); n != 6 {
		t.Fatalf("handler called %d times: a FETCH cut in the middle must hand nothing over", n)
	}
}

func TestFetchConnectionDroppedAfterHandlingBeforeSeen(t *testing.T) {
	srv := startServer(t, "")
	proxy := startProxy(t, srv.IMAPAddr())
	// the first connection dies when the fetcher flags the mail \Seen
	proxy.cutWhen(cutRule{conn: 0, fromServer: false, pattern: []byte("UID STORE"), extra: -len("UID STORE")})
	state := newMemState()
	h := newDedupeHandler()
	f := newTestFetcher(t, srv, state, h.handle, func(c *IMAPConfig, _ *FetcherOptions) { c.Addr = proxy.addr() })
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	runFetcher(t, f)
	h.waitFor(t, 3, 10*time.Second)
	waitCheckpoint(t, state, f.CheckpointKey(), 3)
	uids, flags := mailboxState(t, srv, gm, "INBOX")
	for _, u := range uids {
		if !hasFlag(flags[u], imap.FlagSeen) {
			t.Errorf("uid %d not \\Seen", u)
		}
	}
	if n := h.count(); proxy.cutCount() != 1 || n != 6 {
		t.Fatalf("cuts %d, handler calls %d: each mail is handed over again after the lost \\Seen (the daemon dedupes)", proxy.cutCount(), n)
	}
}
