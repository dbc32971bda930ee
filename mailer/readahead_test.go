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
)

// countProxy forwards one IMAP connection at a time and counts how often
// the client's commands carried a pattern.
type countProxy struct {
	ln      net.Listener
	target  string
	pattern []byte
	mu      sync.Mutex
	seen    int
	wg      sync.WaitGroup
}

func startCountProxy(t *testing.T, target, pattern string) *countProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countProxy{ln: ln, target: target, pattern: []byte(pattern)}
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

// count copies the client's bytes to the server, counting the pattern
// (which never spans two reads here: commands are short and written
// whole).
func (p *countProxy) count(dst, src net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.seen += bytes.Count(buf[:n], p.pattern)
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

func (p *countProxy) count0() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

// While a batch is with the handler, the fetcher already asks the sizes
// of the next batch's mails (and fetches their bodies): the handler of the
// first batch sees the second batch's size FETCH go out before it
// returns. Nothing of the next batch is decided early: every mail is
// still handed over once, in UID order, in batches of Batch.
func TestNextBatchIsReadWhileTheHandlerWorks(t *testing.T) {
	srv := startServer(t, "")
	proxy := startCountProxy(t, srv.IMAPAddr(), "RFC822.SIZE")
	state := newMemState()
	b := &batchHandler{h: newDedupeHandler()}
	var waited []bool
	handle := func(ctx context.Context, ms []*Mail) []error {
		// the batch's own size FETCH has gone out; the next one's must
		// follow while this handler runs
		want := len(b.seen()) + 2
		deadline := time.Now().Add(5 * time.Second)
		if ms[len(ms)-1].UID == 8 {
			deadline = time.Now() // the last batch: nothing to wait for
		}
		for proxy.count0() < want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		waited = append(waited, proxy.count0() >= want)
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
	if fmt.Sprint(waited) != "[true true false]" {
		t.Errorf("next batch read during the handler: %v, want [true true false]", waited)
	}
	if cp := state.get(f.CheckpointKey()); cp.LastUID != 8 {
		t.Errorf("checkpoint %+v, want 8", cp)
	}
}
