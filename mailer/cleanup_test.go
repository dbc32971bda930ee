package mailer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

const month = 30 * 24 * time.Hour

// mailboxIDs lists the Message-IDs of a mailbox of gm@, in UID order.
func mailboxIDs(t testing.TB, srv *testServer, name string) []string {
	t.Helper()
	var ids []string
	for _, raw := range mailboxRaws(t, srv, gm, name) {
		m, err := ParseMail(raw, gm)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.MessageID)
	}
	return ids
}

// setFlag adds flag to the mail of mailbox name whose Message-ID is id,
// as the GM's mail client would.
func setFlag(t testing.TB, srv *testServer, name, id string, flag imap.Flag) {
	t.Helper()
	imapAdmin(t, srv, gm, func(c *imapclient.Client) {
		if _, err := c.Select(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
		res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: id}}}, nil).Wait()
		if err != nil || len(res.AllUIDs()) != 1 {
			t.Fatalf("search %s in %s: %v %v", id, name, res, err)
		}
		if err := c.Store(imap.UIDSetNum(res.AllUIDs()...), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{flag}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func poll(t testing.TB, f *Fetcher) PollStats {
	t.Helper()
	st, err := f.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Handled mail older than delete_handled_after is deleted, in the mailbox
// and in the processed folder; mail set aside, mail not handled yet (even
// when a person has read it), mail the GM flagged and young mail stay.
func TestHandledMailIsDeletedWhenOld(t *testing.T) {
	for _, processed := range []string{"", "Done"} {
		t.Run("processed_folder="+processed, func(t *testing.T) {
			srv := startServer(t, "")
			clock := &fakeClock{t: time.Now()}
			h := newDedupeHandler()
			var m [7]*Composed
			for i := range m {
				m[i] = orderMail(t, i, "a")
			}
			failing := true
			h.fail = func(x *Mail) error {
				switch {
				case x.ID == m[1].MessageID:
					return errors.New("engine panicked") // set aside after 3 tries
				case x.ID == m[3].MessageID && failing:
					return errors.New("store hiccup") // fails for now: not handled
				}
				return nil
			}
			f := newTestFetcher(t, srv, newMemState(), h.handle, func(c *IMAPConfig, o *FetcherOptions) {
				c.DeleteHandledAfter, c.ProcessedFolder, c.MaxFailures = month, processed, 3
				o.Now = clock.Now
			})
			handledBox := "INBOX"
			if processed != "" {
				handledBox = processed
			}
			for _, c := range m[:3] {
				deliver(t, srv, c)
			}
			for range 3 {
				poll(t, f)
			}
			deliver(t, srv, m[3])
			deliver(t, srv, m[4])
			deliver(t, srv, m[5])
			if st := poll(t, f); st.Handled != 2 || st.Failed != 1 || st.Deleted != 0 {
				t.Fatalf("poll %+v: want 4 and 5 handled, 3 failed, nothing deleted (the mail is young)", st)
			}
			setFlag(t, srv, "INBOX", m[3].MessageID, imap.FlagSeen)       // a person read it
			setFlag(t, srv, handledBox, m[5].MessageID, imap.FlagFlagged) // the GM keeps it

			clock.Add(month + time.Hour)
			st := poll(t, f)
			inbox, box := mailboxIDs(t, srv, "INBOX"), mailboxIDs(t, srv, handledBox)
			// 0 and 2 handled: deleted; 1 set aside; 3 not handled; 4
			// handled, but in place it is above the checkpoint (after 3);
			// 5 flagged by the GM
			want := []string{m[1].MessageID, m[3].MessageID, m[4].MessageID, m[5].MessageID}
			wantBox := want
			if processed != "" {
				want, wantBox = []string{m[1].MessageID, m[3].MessageID}, []string{m[5].MessageID}
			}
			if !slices.Equal(inbox, want) || !slices.Equal(box, wantBox) {
				t.Fatalf("after a month (poll %+v):\n INBOX %v, want %v\n %s %v, want %v", st, inbox, want, handledBox, box, wantBox)
			}

			// 3 goes through; within the hour nothing more is deleted
			failing = false
			deliver(t, srv, m[6])
			if st := poll(t, f); st.Handled != 2 || st.Deleted != 0 {
				t.Fatalf("poll %+v: want 3 and 6 handled, nothing deleted within the hour", st)
			}
			clock.Add(time.Hour)
			st = poll(t, f)
			inbox, box = mailboxIDs(t, srv, "INBOX"), mailboxIDs(t, srv, handledBox)
			want, wantBox = []string{m[1].MessageID, m[5].MessageID}, []string{m[1].MessageID, m[5].MessageID}
			if processed != "" {
				want, wantBox = []string{m[1].MessageID}, []string{m[5].MessageID}
			}
			if !slices.Equal(inbox, want) || !slices.Equal(box, wantBox) {
				t.Fatalf("an hour later (poll %+v):\n INBOX %v, want %v\n %s %v, want %v", st, inbox, want, handledBox, box, wantBox)
			}
			if len(h.ids()) != 6 {
				t.Fatalf("handled %d distinct mails, want 6", len(h.ids()))
			}
		})
	}
}

// Without delete_handled_after (the default for a real account) nothing
// is ever deleted.
func TestHandledMailIsKeptByDefault(t *testing.T) {
	srv := startServer(t, "")
	clock := &fakeClock{t: time.Now()}
	f := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(_ *IMAPConfig, o *FetcherOptions) { o.Now = clock.Now })
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	poll(t, f)
	clock.Add(10 * 365 * 24 * time.Hour)
	if st := poll(t, f); st.Deleted != 0 || len(mailboxIDs(t, srv, "INBOX")) != 3 {
		t.Fatalf("poll %+v; INBOX %v", st, mailboxIDs(t, srv, "INBOX"))
	}
}

// A run deletes at most CleanupLimit mails; one that reaches it goes on
// at the next poll, so a full mailbox empties in bounded steps.
func TestHandledMailCleanupIsBounded(t *testing.T) {
	srv := startServer(t, "")
	clock := &fakeClock{t: time.Now()}
	f := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(c *IMAPConfig, o *FetcherOptions) {
		c.DeleteHandledAfter = month
		o.Now, o.CleanupLimit = clock.Now, 2
	})
	for i := range 5 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	poll(t, f)
	clock.Add(month + time.Minute)
	var deleted []int
	for range 4 {
		deleted = append(deleted, poll(t, f).Deleted)
	}
	if !slices.Equal(deleted, []int{2, 2, 1, 0}) || len(mailboxIDs(t, srv, "INBOX")) != 0 {
		t.Fatalf("deleted per poll %v, want [2 2 1 0]; INBOX %v", deleted, mailboxIDs(t, srv, "INBOX"))
	}
}

// On the embedded server (no IMAP QUOTA) the daemon tells the fetcher how
// full the account is: from 80% on Health says so and OnQuota is called
// after each poll that brought mail; once old mail is deleted the
// problem is over.
func TestQuotaWarningFromTheEmbeddedServer(t *testing.T) {
	cfg := serverConfig("")
	cfg.MailboxMaxMessages = 10
	srv := startMailServer(t, cfg)
	clock := &fakeClock{t: time.Now()}
	var (
		mu     sync.Mutex
		warned []QuotaUsage
	)
	f := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(c *IMAPConfig, o *FetcherOptions) {
		c.DeleteHandledAfter = month
		o.Now = clock.Now
		o.Quota = func(context.Context) (QuotaUsage, error) {
			u, _, err := srv.Usage(gm)
			return QuotaUsage{Root: gm, Bytes: u.Bytes, BytesLimit: u.MaxBytes, Messages: int64(u.Messages), MessagesLimit: int64(u.MaxMessages)}, err
		}
		o.OnQuota = func(_ context.Context, q QuotaUsage) { mu.Lock(); warned = append(warned, q); mu.Unlock() }
	})
	for i := range 7 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	poll(t, f)
	if h := f.Health(); !h.OK() || len(warned) != 0 {
		t.Fatalf("at 70%%: health %+v, warnings %v", h, warned)
	}
	deliver(t, srv, orderMail(t, 7, "a"))
	poll(t, f)
	poll(t, f) // no new mail, not due: no new check
	h := f.Health()
	if h.OK() || !strings.Contains(h.Problem, "80% full (8 of 10 messages") || !strings.Contains(h.Problem, gm) {
		t.Fatalf("at 80%%: health %+v", h)
	}
	if len(warned) != 1 || warned[0].Messages != 8 || warned[0].MessagesLimit != 10 {
		t.Fatalf("warnings %+v, want one at 8 of 10", warned)
	}
	clock.Add(month + time.Hour)
	if st := poll(t, f); st.Deleted != 8 || !f.Health().OK() {
		t.Fatalf("after the cleanup: poll %+v, health %+v", st, f.Health())
	}
}

// quotaProxy stands between a client and the embedded server and adds
// the QUOTA extension (RFC 9208): it offers QUOTA in every capability
// list and answers GETQUOTAROOT itself with the usage the test sets.
type quotaProxy struct {
	ln     net.Listener
	target string
	// storage (KiB) and messages: usage and limit
	storage, storageLimit, messages, messagesLimit atomic.Int64
	asked                                          atomic.Int64
	wg                                             sync.WaitGroup
	mu                                             sync.Mutex
	live                                           []net.Conn
}

func startQuotaProxy(t testing.TB, target string) *quotaProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &quotaProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range p.live {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

var getQuotaRoot = regexp.MustCompile(`(?i)^(\S+) GETQUOTAROOT (\S+)\r\n$`)

func (p *quotaProxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.mu.Lock()
		p.live = append(p.live, client, server)
		p.mu.Unlock()
		var wmu sync.Mutex // lines to the client from both directions
		p.wg.Add(2)
		go func() { // server → client: add QUOTA to capability lists
			defer p.wg.Done()
			defer client.Close()
			r := bufio.NewReader(server)
			for {
				line, err := r.ReadBytes('\n')
				line = bytes.Replace(line, []byte("CAPABILITY "), []byte("CAPABILITY QUOTA "), 1)
				wmu.Lock()
				_, werr := client.Write(line)
				wmu.Unlock()
				if err != nil || werr != nil {
					return
				}
			}
		}()
		go func() { // client → server: answer GETQUOTAROOT here
			defer p.wg.Done()
			defer server.Close()
			r := bufio.NewReader(client)
			for {
				line, err := r.ReadBytes('\n')
				if m := getQuotaRoot.FindSubmatch(line); m != nil {
					p.asked.Add(1)
					resp := fmt.Sprintf("* QUOTAROOT %s \"User quota\"\r\n* QUOTA \"User quota\" (STORAGE %d %d MESSAGE %d %d)\r\n%s OK Getquotaroot completed\r\n",
						m[2], p.storage.Load(), p.storageLimit.Load(), p.messages.Load(), p.messagesLimit.Load(), m[1])
					wmu.Lock()
					_, werr := client.Write([]byte(resp))
					wmu.Unlock()
					if werr != nil {
						return
					}
					continue
				}
				if _, werr := server.Write(line); err != nil || werr != nil {
					return
				}
			}
		}()
	}
}

// A real IMAP server with QUOTA is asked with GETQUOTAROOT (STORAGE in
// KiB); one without it is not asked, and that is no problem.
func TestQuotaFromTheIMAPQuotaExtension(t *testing.T) {
	srv := startServer(t, "")
	p := startQuotaProxy(t, srv.IMAPAddr())
	p.storage.Store(900)
	p.storageLimit.Store(1000)
	p.messages.Store(10)
	p.messagesLimit.Store(1000)
	var warned atomic.Int64
	f := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(c *IMAPConfig, o *FetcherOptions) {
		c.Addr = p.ln.Addr().String()
		o.OnQuota = func(_ context.Context, q QuotaUsage) {
			if q.Bytes == 900*1024 && q.BytesLimit == 1000*1024 && q.Root == "User quota" {
				warned.Add(1)
			}
		}
	})
	poll(t, f)
	h := f.Health()
	if p.asked.Load() != 1 || warned.Load() != 1 || !strings.Contains(h.Problem, "90% full (10 of 1000 messages, 900 KiB of 1000 KiB; quota: User quota)") {
		t.Fatalf("GETQUOTAROOT asked %d times, OnQuota %d; health %+v", p.asked.Load(), warned.Load(), h)
	}
	p.storage.Store(100)
	deliver(t, srv, orderMail(t, 1, "a"))
	poll(t, f)
	if !f.Health().OK() || p.asked.Load() != 2 {
		t.Fatalf("at 10%%: health %+v, asked %d", f.Health(), p.asked.Load())
	}

	// the embedded server itself has no QUOTA: skipped silently
	var called atomic.Int64
	plain := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(_ *IMAPConfig, o *FetcherOptions) {
		o.OnQuota = func(context.Context, QuotaUsage) { called.Add(1) }
	})
	poll(t, plain)
	if !plain.Health().OK() || called.Load() != 0 {
		t.Fatalf("without QUOTA: health %+v, OnQuota called %d times", plain.Health(), called.Load())
	}
}
