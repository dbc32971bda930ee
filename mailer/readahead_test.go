package mailer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// countProxy forwards IMAP connections and counts how often the client's
// commands carried each of some patterns.
type countProxy struct {
	ln       net.Listener
	target   string
	patterns []string
	mu       sync.Mutex
	seen     map[string]int
	wg       sync.WaitGroup
}

func startCountProxy(t *testing.T, target string, patterns ...string) *countProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countProxy{ln: ln, target: target, patterns: patterns, seen: map[string]int{}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			p.wg.Add(2)
			go func() { defer p.wg.Done(); io.Copy(client, server); client.Close() }()
			go func() { defer p.wg.Done(); p.count(server, client); server.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

// count copies the client's bytes to the server, counting the patterns
// (which never span two reads here: commands are short and written
// whole).
func (p *countProxy) count(dst, src net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			for _, pat := range p.patterns {
				p.seen[pat] += bytes.Count(buf[:n], []byte(pat))
			}
			p.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *countProxy) times(pattern string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen[pattern]
}

// waitTimes waits (up to 5s, none at all when wait is false) until
// pattern was seen n times, and reports whether it was.
func (p *countProxy) waitTimes(pattern string, n int, wait bool) bool {
	deadline := time.Now().Add(5 * time.Second)
	for p.times(pattern) < n && wait && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return p.times(pattern) >= n
}

// While a batch is with the handler, the fetcher already asks the sizes
// of the next batch's mails (and fetches their bodies) and sets the batch
// before it aside: the handler of each batch sees the next batch's size
// FETCH and the previous batch's STORE go out before it returns. Nothing
// is decided early: every mail is still handed over once, in UID order,
// in batches of Batch, and all are \Seen and past the checkpoint after
// the poll.
func TestNextBatchIsReadWhileTheHandlerWorks(t *testing.T) {
	srv := startServer(t, "")
	proxy := startCountProxy(t, srv.IMAPAddr(), "RFC822.SIZE", "UID STORE")
	state := newMemState()
	b := &batchHandler{h: newDedupeHandler()}
	var readNext, setPrevAside []bool
	handle := func(ctx context.Context, ms []*Mail) []error {
		n := len(b.seen()) // batches before this one
		last := ms[len(ms)-1].UID == 8
		// this batch's own size FETCH has gone out; the next one's must
		// follow while this handler runs, and the STORE of the one before
		readNext = append(readNext, proxy.waitTimes("RFC822.SIZE", n+2, !last))
		setPrevAside = append(setPrevAside, proxy.waitTimes("UID STORE", n, n > 0) && proxy.times("UID STORE") == n)
		return b.handle(ctx, ms)
	}
	f := newTestFetcher(t, srv, state, nil, func(c *IMAPConfig, o *FetcherOptions) {
		c.Addr = proxy.ln.Addr().String()
		o.BatchHandler, o.Batch = handle, 3
	})
	var want []string
	for i := range 8 {
		c := orderMail(t, i, "a")
		deliver(t, srv, c)
		want = append(want, c.MessageID)
	}
	st, err := f.Poll(context.Background())
	if err != nil || st.Handled != 8 {
		t.Fatalf("poll %+v, %v", st, err)
	}
	if got := fmt.Sprint(b.seen()); got != "[[1 2 3] [4 5 6] [7 8]]" {
		t.Fatalf("batches %s", got)
	}
	if !slices.Equal(b.h.ids(), want) {
		t.Fatalf("handled %v, want %v", b.h.ids(), want)
	}
	// the last batch has no next one to read
	if fmt.Sprint(readNext) != "[true true false]" {
		t.Errorf("next batch read during the handler: %v, want [true true false]", readNext)
	}
	if fmt.Sprint(setPrevAside) != "[true true true]" {
		t.Errorf("batch before set aside (and no other) during the handler: %v", setPrevAside)
	}
	uids, flags := mailboxState(t, srv, gm, "INBOX")
	for _, u := range uids {
		if !hasFlag(flags[u], imap.FlagSeen) {
			t.Errorf("uid %d not \\Seen after the poll", u)
		}
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 8 {
		t.Errorf("checkpoint %+v, want 8", cp)
	}
}

// savingState is a memState that records every checkpoint saved.
type savingState struct {
	*memState
	mu    sync.Mutex
	saved []uint32
}

func (s *savingState) SetCheckpoint(k string, c Checkpoint) error {
	s.mu.Lock()
	s.saved = append(s.saved, c.LastUID)
	s.mu.Unlock()
	return s.memState.SetCheckpoint(k, c)
}

// A poll saves its checkpoint every checkpointBatches batches and when it
// ends, not after every batch (a save is a commit of its own): with
// batches of one mail and 10 mails, after the UIDVALIDITY is first
// noted, once past the mails of the first 7 batches (the 8th is set
// aside while the 9th is handled) and once past all 10.
func TestCheckpointSavedEveryFewBatches(t *testing.T) {
	srv := startServer(t, "")
	state := &savingState{memState: newMemState()}
	b := &batchHandler{h: newDedupeHandler()}
	f := batchFetcher(t, srv, state, b, 1, nil)
	for i := range 10 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	st, err := f.Poll(context.Background())
	if err != nil || st.Handled != 10 {
		t.Fatalf("poll %+v, %v", st, err)
	}
	if got := fmt.Sprint(state.saved); got != "[0 7 10]" {
		t.Errorf("checkpoints saved %s, want [0 7 10]", got)
	}
	// nothing is handed over twice by the next poll
	if st, err := f.Poll(context.Background()); err != nil || st.Handled != 0 {
		t.Errorf("second poll %+v, %v", st, err)
	}
	if b.h.count() != 10 {
		t.Errorf("%d mails handled, want 10", b.h.count())
	}
}
