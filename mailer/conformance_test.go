package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// mailEnv is a mail server the conformance suite runs against: the
// embedded one, or Dovecot + Postfix (realmail_test.go). Accounts are the
// same in both: gm@example.test / gmpass and p1@example.test / p1pass.
type mailEnv struct {
	name     string
	imapAddr string
	smtpAddr string
	// smtpAuth lists the SASL mechanisms the SMTP server offers to p1.
	smtpAuth []string
}

func (e *mailEnv) gmIMAP(mailbox string) IMAPConfig {
	return IMAPConfig{Addr: e.imapAddr, Username: gm, Password: "gmpass", Security: SecurityPlain,
		Address: gm, Mailbox: mailbox, Poll: time.Minute, Timeout: 10 * time.Second}
}

func (e *mailEnv) p1SMTP(auth string) SMTPConfig {
	return SMTPConfig{Addr: e.smtpAddr, Username: "p1@" + testDomain, Password: "p1pass", Security: SecurityPlain,
		Auth: auth, Hello: "pbemd.test", Timeout: 10 * time.Second}
}

// admin runs fn on a separate IMAP session as gm, standing in for the
// mail server's own tools (append, inspect flags, recreate mailboxes). The
// session ends when fn returns: Dovecot allows 10 per user and address.
func (e *mailEnv) admin(t testing.TB, fn func(c *imapclient.Client)) {
	t.Helper()
	c, err := imapclient.DialInsecure(e.imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(gm, "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	fn(c)
	c.Logout().Wait()
}

// freshMailbox creates a mailbox of its own for one test.
func (e *mailEnv) freshMailbox(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%s", time.Now().UnixNano(), strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()))
	e.admin(t, func(c *imapclient.Client) {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	})
	return name
}

func (e *mailEnv) appendMail(t testing.TB, mailbox string, raw []byte) {
	t.Helper()
	e.admin(t, func(c *imapclient.Client) {
		cmd := c.Append(mailbox, int64(len(raw)), nil)
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

// flags returns the UIDs of a mailbox and their flags.
func (e *mailEnv) flags(t testing.TB, mailbox string) (uids []uint32, flags map[uint32][]imap.Flag) {
	t.Helper()
	flags = map[uint32][]imap.Flag{}
	e.admin(t, func(c *imapclient.Client) {
		sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if sel.NumMessages == 0 {
			return
		}
		msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true}).Collect() // 1:*
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			uids = append(uids, uint32(m.UID))
			flags[uint32(m.UID)] = m.Flags
		}
	})
	slices.Sort(uids)
	return uids, flags
}

func (e *mailEnv) recreate(t testing.TB, mailbox string) {
	t.Helper()
	e.admin(t, func(c *imapclient.Client) {
		if err := c.Delete(mailbox).Wait(); err != nil {
			t.Fatal(err)
		}
		if err := c.Create(mailbox, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	})
}

func (e *mailEnv) fetcher(t testing.TB, cfg IMAPConfig, state InboxState, h Handler, edit func(*FetcherOptions)) *Fetcher {
	t.Helper()
	opt := FetcherOptions{Logger: testLogger(t), State: state, Handler: h, MinBackoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}
	if edit != nil {
		edit(&opt)
	}
	f, err := NewFetcher(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func crlfBytes(raw []byte) []byte {
	lf := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
}

// runConformance is the suite every mail server must pass.
func runConformance(t *testing.T, e *mailEnv) {
	ctx := context.Background()

	t.Run("fetch in UID order, Seen, checkpoint", func(t *testing.T) {
		box := e.freshMailbox(t)
		state, h := newMemState(), newDedupeHandler()
		f := e.fetcher(t, e.gmIMAP(box), state, h.handle, nil)
		var want []string
		for i := range 5 {
			c := orderMail(t, i, fmt.Sprintf("tok%d", i))
			want = append(want, c.MessageID)
			e.appendMail(t, box, c.Raw)
		}
		if st, err := f.Poll(ctx); err != nil || st.Handled != 5 {
			t.Fatalf("poll %+v %v", st, err)
		}
		if !slices.Equal(h.ids(), want) {
			t.Fatalf("order %v, want %v", h.ids(), want)
		}
		for i, m := range h.waitFor(t, 5, time.Second) {
			if m.Token != fmt.Sprintf("tok%d", i) || m.Mailbox != box {
				t.Errorf("mail %d token %q mailbox %q", i, m.Token, m.Mailbox)
			}
		}
		uids, flags := e.flags(t, box)
		for _, u := range uids {
			if !hasFlag(flags[u], imap.FlagSeen) {
				t.Errorf("uid %d not \\Seen", u)
			}
		}
		if cp := state.get(f.CheckpointKey()); cp.LastUID != uids[len(uids)-1] || cp.UIDValidity == 0 {
			t.Errorf("checkpoint %+v, uids %v", cp, uids)
		}
		e.appendMail(t, box, orderMail(t, 9, "x").Raw)
		if st, err := f.Poll(ctx); err != nil || st.Handled != 1 || h.count() != 6 {
			t.Fatalf("second poll %+v %v, calls %d", st, err, h.count())
		}
	})

	t.Run("Seen only after the handler succeeded", func(t *testing.T) {
		box := e.freshMailbox(t)
		e.appendMail(t, box, orderMail(t, 1, "a").Raw)
		state := newMemState()
		var seenDuring []bool
		fail := true
		f := e.fetcher(t, e.gmIMAP(box), state, func(_ context.Context, m *Mail) error {
			_, flags := e.flags(t, box)
			seenDuring = append(seenDuring, hasFlag(flags[m.UID], imap.FlagSeen))
			if fail {
				return errors.New("store is down")
			}
			return nil
		}, nil)
		f.Poll(ctx)
		if uids, flags := e.flags(t, box); hasFlag(flags[uids[0]], imap.FlagSeen) || state.get(f.CheckpointKey()).LastUID != 0 {
			t.Fatalf("after a failed handler: flags %v, checkpoint %+v", flags, state.get(f.CheckpointKey()))
		}
		fail = false
		f.Poll(ctx)
		if uids, flags := e.flags(t, box); !hasFlag(flags[uids[0]], imap.FlagSeen) {
			t.Fatal("not \\Seen after success")
		}
		if !slices.Equal(seenDuring, []bool{false, false}) {
			t.Fatalf("\\Seen while handling: %v", seenDuring)
		}
	})

	t.Run("crash before the checkpoint: handed over again", func(t *testing.T) {
		box := e.freshMailbox(t)
		for i := range 3 {
			e.appendMail(t, box, orderMail(t, i, "a").Raw)
		}
		state, h := &crashState{memState: newMemState(), crash: true}, newDedupeHandler()
		if _, err := e.fetcher(t, e.gmIMAP(box), state, h.handle, nil).Poll(ctx); err == nil {
			t.Fatal("no error from a failing checkpoint write")
		}
		state.crash = false
		if _, err := e.fetcher(t, e.gmIMAP(box), state, h.handle, nil).Poll(ctx); err != nil {
			t.Fatal(err)
		}
		if h.count() != 6 || len(h.ids()) != 3 {
			t.Fatalf("calls %d distinct %d", h.count(), len(h.ids()))
		}
	})

	t.Run("UIDVALIDITY change rescans", func(t *testing.T) {
		box := e.freshMailbox(t)
		var raws [][]byte
		for i := range 3 {
			r := orderMail(t, i, "a").Raw
			raws = append(raws, r)
			e.appendMail(t, box, r)
		}
		state, h := newMemState(), newDedupeHandler()
		f := e.fetcher(t, e.gmIMAP(box), state, h.handle, nil)
		if _, err := f.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		before := state.get(f.CheckpointKey())
		f.Close()
		e.recreate(t, box)
		for _, r := range raws {
			e.appendMail(t, box, r)
		}
		fresh := orderMail(t, 9, "a")
		e.appendMail(t, box, fresh.Raw)
		st, err := f.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		after := state.get(f.CheckpointKey())
		if !st.Rescan || after.UIDValidity == before.UIDValidity || len(h.ids()) != 4 || h.ids()[3] != fresh.MessageID {
			t.Fatalf("poll %+v, checkpoint %+v → %+v, mails %v", st, before, after, h.ids())
		}
	})

	t.Run("poison set aside, rest not blocked", func(t *testing.T) {
		for _, folder := range []string{"", "poison"} {
			t.Run("folder="+folder, func(t *testing.T) {
				box := e.freshMailbox(t)
				poisonBox := ""
				if folder != "" {
					poisonBox = box + "-poison"
				}
				bad := orderMail(t, 2, "a")
				e.appendMail(t, box, orderMail(t, 1, "a").Raw)
				e.appendMail(t, box, bad.Raw)
				e.appendMail(t, box, orderMail(t, 3, "a").Raw)
				state, h := newMemState(), newDedupeHandler()
				h.fail = func(m *Mail) error {
					if m.ID == bad.MessageID {
						return errors.New("engine failed")
					}
					return nil
				}
				var mu sync.Mutex
				var reports []Poisoned
				cfg := e.gmIMAP(box)
				cfg.PoisonFolder, cfg.MaxFailures = poisonBox, 2
				f := e.fetcher(t, cfg, state, h.handle, func(o *FetcherOptions) {
					o.OnPoison = func(_ context.Context, p Poisoned) { mu.Lock(); reports = append(reports, p); mu.Unlock() }
				})
				for range 3 {
					if _, err := f.Poll(ctx); err != nil {
						t.Fatal(err)
					}
				}
				if h.count() != 4 || len(reports) != 1 || reports[0].Mail.ID != bad.MessageID {
					t.Fatalf("calls %d, reports %+v", h.count(), reports)
				}
				uids, flags := e.flags(t, box)
				if poisonBox == "" {
					if len(uids) != 3 || !hasFlag(flags[uids[1]], imap.FlagFlagged) {
						t.Fatalf("flags %v", flags)
					}
				} else if pu, _ := e.flags(t, poisonBox); len(uids) != 2 || len(pu) != 1 {
					t.Fatalf("box %v, poison box %v", uids, pu)
				}
			})
		}
	})

	t.Run("processed folder", func(t *testing.T) {
		box := e.freshMailbox(t)
		for i := range 3 {
			e.appendMail(t, box, orderMail(t, i, "a").Raw)
		}
		cfg := e.gmIMAP(box)
		cfg.ProcessedFolder = box + "-done"
		h := newDedupeHandler()
		if _, err := e.fetcher(t, cfg, newMemState(), h.handle, nil).Poll(ctx); err != nil {
			t.Fatal(err)
		}
		inbox, _ := e.flags(t, box)
		done, _ := e.flags(t, cfg.ProcessedFolder)
		if len(inbox) != 0 || len(done) != 3 || len(h.ids()) != 3 {
			t.Fatalf("box %v done %v handled %d", inbox, done, len(h.ids()))
		}
	})

	t.Run("old handled mail deleted, set aside and young kept", func(t *testing.T) {
		for _, processed := range []bool{false, true} {
			t.Run(fmt.Sprintf("processed_folder=%v", processed), func(t *testing.T) {
				box := e.freshMailbox(t)
				mails := []*Composed{orderMail(t, 0, "a"), orderMail(t, 1, "a"), orderMail(t, 2, "a")}
				for _, c := range mails {
					e.appendMail(t, box, c.Raw)
				}
				cfg := e.gmIMAP(box)
				cfg.DeleteHandledAfter, cfg.MaxFailures = month, 1
				if processed {
					cfg.ProcessedFolder = box + "-done"
				}
				h := newDedupeHandler()
				h.fail = func(m *Mail) error {
					if m.ID == mails[1].MessageID {
						return errors.New("engine panicked")
					}
					return nil
				}
				clock := &fakeClock{t: time.Now()}
				f := e.fetcher(t, cfg, newMemState(), h.handle, func(o *FetcherOptions) { o.Now = clock.Now })
				if st, err := f.Poll(ctx); err != nil || st.Handled != 2 || st.Poisoned != 1 || st.Deleted != 0 {
					t.Fatalf("first poll %+v %v", st, err)
				}
				clock.Add(month + time.Hour)
				st, err := f.Poll(ctx)
				uids, flags := e.flags(t, box)
				if err != nil || st.Deleted != 2 || len(uids) != 1 || !hasFlag(flags[uids[0]], imap.FlagFlagged) {
					t.Fatalf("a month later: poll %+v %v; left %v %v", st, err, uids, flags)
				}
				if processed {
					if done, _ := e.flags(t, cfg.ProcessedFolder); len(done) != 0 {
						t.Fatalf("processed folder still holds %v", done)
					}
				}
			})
		}
	})

	t.Run("too big: header only", func(t *testing.T) {
		box := e.freshMailbox(t)
		big := orderMail(t, 1, "a")
		raw := append(big.Raw[:len(big.Raw):len(big.Raw)], []byte(strings.Repeat("filler line\r\n", 1000))...)
		e.appendMail(t, box, raw)
		cfg := e.gmIMAP(box)
		cfg.MaxSize = 4000
		h := newDedupeHandler()
		if _, err := e.fetcher(t, cfg, newMemState(), h.handle, nil).Poll(ctx); err != nil {
			t.Fatal(err)
		}
		m := h.waitFor(t, 1, time.Second)[0]
		if !m.TooBig || m.Raw != nil || m.Subject != "orders 1" || m.ID != big.MessageID || m.Size < 13000 {
			t.Fatalf("TooBig %v Raw %d Subject %q ID %q Size %d", m.TooBig, len(m.Raw), m.Subject, m.ID, m.Size)
		}
	})

	t.Run("every MIME shape as in the goldens", func(t *testing.T) {
		box := e.freshMailbox(t)
		files, _ := filepath.Glob("testdata/mail/*.eml")
		want := map[string]string{}
		// A NUL byte is never legal in a mail (RFC 5322 2.2, 2.3): a real
		// server may rewrite it (Dovecot stores it as 0x80), so for such a
		// sample only what the daemon must guarantee is compared: no
		// control character survives into what it reads.
		hasNUL := map[string]bool{}
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden, err := os.ReadFile(strings.TrimSuffix(file, ".eml") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			m, err := ParseMail(crlfBytes(raw), gm)
			if err != nil {
				t.Fatal(err)
			}
			want[m.ID] = string(golden)
			hasNUL[m.ID] = bytes.IndexByte(raw, 0) >= 0
			e.appendMail(t, box, crlfBytes(raw))
		}
		h := newDedupeHandler()
		if _, err := e.fetcher(t, e.gmIMAP(box), newMemState(), h.handle, nil).Poll(ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range h.waitFor(t, len(files), time.Second) {
			golden, ok := want[m.ID]
			if !ok {
				t.Errorf("unexpected mail id %s", m.ID)
				continue
			}
			got := summary(m)
			if strings.HasPrefix(m.ID, "sha256:") { // golden has the LF file's hash
				got = got[strings.IndexByte(got, '\n'):]
				golden = golden[strings.IndexByte(golden, '\n'):]
			}
			if hasNUL[m.ID] {
				if i := strings.IndexFunc(got, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }); i >= 0 {
					t.Errorf("%s: a control character survived: %q", m.ID, got)
				}
				continue
			}
			if got != golden {
				t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", m.ID, got, golden)
			}
		}
	})

	t.Run("IDLE wakes the fetcher", func(t *testing.T) {
		box := e.freshMailbox(t)
		cfg := e.gmIMAP(box)
		cfg.Poll = time.Hour
		h := newDedupeHandler()
		state := newMemState()
		f := e.fetcher(t, cfg, state, h.handle, nil)
		runFetcher(t, f)
		waitCheckpointValidity(t, state, f.CheckpointKey())
		for i := range 3 {
			time.Sleep(50 * time.Millisecond)
			e.appendMail(t, box, orderMail(t, i, "a").Raw)
			h.waitFor(t, 1, 10*time.Second)
		}
	})

	t.Run("SMTP in, IMAP out, end to end", func(t *testing.T) {
		for _, auth := range append([]string{"none"}, e.smtpAuth...) {
			t.Run("auth="+auth, func(t *testing.T) {
				q := newMemQueue()
				var giveUps []GiveUp
				s, err := NewSender(e.p1SMTP(auth), q, SenderOptions{Logger: testLogger(t), MinBackoff: time.Millisecond,
					OnGiveUp: func(g GiveUp) { giveUps = append(giveUps, g) }})
				if err != nil {
					t.Fatal(err)
				}
				token := fmt.Sprintf("e2e%d", time.Now().UnixNano())
				c := orderMail(t, 1, token)
				q.add(c, time.Now())
				q.add(outMail(t, "nobody@elsewhere.org"), time.Now())
				drain(t, s, q, 10*time.Second)
				sent, failed, _ := q.snapshot()
				if len(sent) != 1 || len(failed) != 1 || len(giveUps) != 1 {
					t.Fatalf("sent %v failed %v", sent, failed)
				}
				// delivery may take a moment (Postfix queue → LMTP)
				h := newDedupeHandler()
				var found *Mail
				h.fail = func(m *Mail) error {
					if m.ID == c.MessageID {
						found = m
					}
					return nil
				}
				f := e.fetcher(t, e.gmIMAP("INBOX"), newMemState(), h.handle, nil)
				for deadline := time.Now().Add(10 * time.Second); found == nil && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
					if _, err := f.Poll(ctx); err != nil {
						t.Fatal(err)
					}
				}
				if found == nil {
					t.Fatal("the mail never arrived")
				}
				if found.Token != token || !slices.Contains(found.DeliveredTo, "gm+"+token+"@"+testDomain) || found.ReturnPath != "p1@"+testDomain {
					t.Fatalf("token %q delivered-to %v return-path %q", found.Token, found.DeliveredTo, found.ReturnPath)
				}
			})
		}
	})
}

func waitCheckpointValidity(t *testing.T, state *memState, key string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if state.get(key).UIDValidity != 0 {
			return
		}
	}
	t.Fatal("the fetcher never polled")
}

// TestConformanceEmbedded runs the suite against the embedded server.
func TestConformanceEmbedded(t *testing.T) {
	srv := startServer(t, "")
	runConformance(t, &mailEnv{name: "embedded", imapAddr: srv.IMAPAddr(), smtpAddr: srv.SMTPAddr(), smtpAuth: []string{"plain", "login"}})
}
