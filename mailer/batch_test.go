package mailer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/emersion/go-imap/v2"
)

// batchHandler is a BatchHandler over a dedupeHandler: it records the
// batches it is given and stops at the first mail that must wait, as the
// daemon does.
type batchHandler struct {
	h       *dedupeHandler
	mu      sync.Mutex
	batches [][]uint32
}

func (b *batchHandler) handle(ctx context.Context, ms []*Mail) []error {
	b.mu.Lock()
	var uids []uint32
	for _, m := range ms {
		uids = append(uids, m.UID)
	}
	b.batches = append(b.batches, uids)
	b.mu.Unlock()
	errs := make([]error, len(ms))
	for i, m := range ms {
		if errs[i] = b.h.handle(ctx, m); errors.Is(errs[i], ErrRetryLater) {
			for j := i + 1; j < len(ms); j++ {
				errs[j] = fmt.Errorf("%w: not tried", ErrRetryLater)
			}
			break
		}
	}
	return errs
}

func (b *batchHandler) seen() [][]uint32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.batches)
}

func batchFetcher(t *testing.T, srv *testServer, state InboxState, b *batchHandler, batch int, edit func(*IMAPConfig, *FetcherOptions)) *Fetcher {
	return newTestFetcher(t, srv, state, nil, func(c *IMAPConfig, o *FetcherOptions) {
		o.BatchHandler, o.Batch = b.handle, batch
		if edit != nil {
			edit(c, o)
		}
	})
}

// The mails of a poll reach a BatchHandler together, at most Batch at a
// time, in UID order; they are \Seen and the checkpoint is past them
// after it returned.
func TestBatchHandlerGetsThePollsMailsTogether(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	b := &batchHandler{h: newDedupeHandler()}
	f := batchFetcher(t, srv, state, b, 4, nil)
	var want []string
	for i := range 7 {
		c := orderMail(t, i, "a")
		deliver(t, srv, c)
		want = append(want, c.MessageID)
	}
	st, err := f.Poll(context.Background())
	if err != nil || st.Handled != 7 {
		t.Fatalf("poll %+v, %v", st, err)
	}
	if got := fmt.Sprint(b.seen()); got != "[[1 2 3 4] [5 6 7]]" {
		t.Fatalf("batches %s, want [[1 2 3 4] [5 6 7]]", got)
	}
	if !slices.Equal(b.h.ids(), want) {
		t.Fatalf("handled %v, want %v", b.h.ids(), want)
	}
	uids, flags := mailboxState(t, srv, gm, "INBOX")
	for _, u := range uids {
		if !hasFlag(flags[u], imap.FlagSeen) {
			t.Errorf("uid %d not \\Seen after its batch", u)
		}
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 7 {
		t.Errorf("checkpoint %+v, want 7", cp)
	}
}

// A mail of a batch that must wait (the store cannot write) stops the
// poll there: the mails before it are done, it and the ones after it are
// neither \Seen nor past the checkpoint nor counted as failures, and the
// next poll hands exactly them over again.
func TestBatchHandlerRetryLaterStopsAtThatMail(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	b := &batchHandler{h: newDedupeHandler()}
	var mails []*Composed
	for i := range 5 {
		mails = append(mails, orderMail(t, i, "a"))
		deliver(t, srv, mails[i])
	}
	full := true
	b.h.fail = func(m *Mail) error {
		if full && m.ID == mails[2].MessageID {
			return fmt.Errorf("%w: disk full", ErrRetryLater)
		}
		return nil
	}
	f := batchFetcher(t, srv, state, b, 10, nil)
	st, err := f.Poll(context.Background())
	if !errors.Is(err, ErrRetryLater) || st.Handled != 2 || st.Deferred != 1 || st.Failed != 0 {
		t.Fatalf("poll on a full disk: %+v, %v", st, err)
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 2 {
		t.Fatalf("checkpoint %+v, want 2", cp)
	}
	_, flags := mailboxState(t, srv, gm, "INBOX")
	for u := uint32(1); u <= 5; u++ {
		if hasFlag(flags[u], imap.FlagSeen) != (u <= 2) {
			t.Errorf("uid %d flags %v", u, flags[u])
		}
	}
	for _, m := range mails {
		if n, _ := state.Failures(m.MessageID); n != 0 {
			t.Errorf("mail %s counted %d failures for a full disk", m.MessageID, n)
		}
	}
	full = false
	if st, err := f.Poll(context.Background()); err != nil || st.Handled != 3 {
		t.Fatalf("poll after: %+v, %v", st, err)
	}
	if got := fmt.Sprint(b.seen()); got != "[[1 2 3 4 5] [3 4 5]]" {
		t.Fatalf("batches %s, want [[1 2 3 4 5] [3 4 5]]", got)
	}
	if b.h.count() != 2+1+3 {
		t.Fatalf("handler calls %d", b.h.count())
	}
}

// A mail of a batch that fails by its own fault is counted and, after
// MaxFailures, set aside; the mails beside it are handled once.
func TestBatchHandlerBadMailIsSetAside(t *testing.T) {
	srv := startServer(t, "")
	state := newMemState()
	b := &batchHandler{h: newDedupeHandler()}
	bad := orderMail(t, 2, "a")
	b.h.fail = func(m *Mail) error {
		if m.ID == bad.MessageID {
			return errors.New("engine panicked")
		}
		return nil
	}
	var poisoned []Poisoned
	f := batchFetcher(t, srv, state, b, 10, func(c *IMAPConfig, o *FetcherOptions) {
		c.MaxFailures = 3
		o.OnPoison = func(_ context.Context, p Poisoned) { poisoned = append(poisoned, p) }
	})
	deliver(t, srv, orderMail(t, 1, "a"))
	deliver(t, srv, bad)
	deliver(t, srv, orderMail(t, 3, "a"))
	for range 4 {
		if _, err := f.Poll(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmt.Sprint(b.seen()); got != "[[1 2 3] [2] [2]]" {
		t.Fatalf("batches %s, want [[1 2 3] [2] [2]]", got)
	}
	if len(b.h.ids()) != 2 || len(poisoned) != 1 || poisoned[0].Mail.ID != bad.MessageID || poisoned[0].Failures != 3 {
		t.Fatalf("handled %v, poisoned %+v", b.h.ids(), poisoned)
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 3 {
		t.Fatalf("checkpoint %+v, want past all three", cp)
	}
	_, flags := mailboxState(t, srv, gm, "INBOX")
	if !hasFlag(flags[2], imap.FlagFlagged) {
		t.Fatalf("poisoned mail flags %v", flags[2])
	}
}
