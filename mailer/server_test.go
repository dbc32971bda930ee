package mailer

import (
	"context"
	"errors"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
)

func dialIMAP(t *testing.T, srv *Server, user, pass string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return c
}

func TestServerValidate(t *testing.T) {
	cases := map[string]ServerConfig{
		"imap not loopback": {IMAPAddr: "0.0.0.0:1143"},
		"smtp not loopback": {SMTPAddr: "192.0.2.1:25"},
		"not host:port":     {IMAPAddr: "localhost"},
		"bad domain":        {Domain: "no dots@"},
		"account elsewhere": {Accounts: []ServerAccount{{Address: "gm@other.org", Password: "x"}}},
		"account with plus": {Accounts: []ServerAccount{{Address: "gm+x@pbemd.localhost", Password: "x"}}},
		"account no pass":   {Accounts: []ServerAccount{{Address: "gm@pbemd.localhost"}}},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			if err := cfg.Validate(); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if err := (ServerConfig{}).Validate(); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	if err := (ServerConfig{IMAPAddr: "localhost:0", SMTPAddr: "[::1]:0"}).Validate(); err != nil {
		t.Fatalf("loopback names rejected: %v", err)
	}
}

func TestServerAccountsAndPlusAddresses(t *testing.T) {
	srv := startServer(t, "")
	deliver(t, srv, orderMail(t, 1, "tok9"))
	c := outMail(t, "newbie@"+testDomain)
	deliver(t, srv, c)

	accounts := srv.Accounts()
	var names []string
	for _, a := range accounts {
		names = append(names, a.Address)
		if a.Address == "newbie@"+testDomain && (!a.Auto || a.Password != "newbie") {
			t.Errorf("auto account %+v", a)
		}
	}
	if !slices.Equal(names, []string{gm, "newbie@" + testDomain, "p1@" + testDomain}) {
		t.Fatalf("accounts %v", names)
	}
	// the plus-address went to gm's INBOX, with the full recipient kept
	cl := dialIMAP(t, srv, gm, "gmpass")
	if _, err := cl.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := cl.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatal(err, len(msgs))
	}
	raw := string(msgs[0].BodySection[0].Bytes)
	if !strings.HasPrefix(raw, "Return-Path: <p1@example.test>\r\nDelivered-To: gm+tok9@example.test\r\nReceived: ") {
		t.Fatalf("delivered copy starts %q", raw[:120])
	}
	// the auto account logs in with its rule password, not with another
	dialIMAP(t, srv, "newbie@"+testDomain, "newbie")
	if _, err := srv.login("newbie@"+testDomain, "wrong"); err == nil {
		t.Fatal("wrong password accepted")
	}
	// a first login creates the account too, but only with the rule password
	if _, err := srv.login("fresh@"+testDomain, "nope"); err == nil {
		t.Fatal("unknown account created with a wrong password")
	}
	dialIMAP(t, srv, "fresh@"+testDomain, "fresh")
	if _, err := srv.login("x@elsewhere.org", "x"); err == nil {
		t.Fatal("account outside the domain")
	}
}

func TestServerPlayerPasswordSetting(t *testing.T) {
	srv, err := StartServer(ServerConfig{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: testDomain, PlayerPassword: "letmein"}, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dialIMAP(t, srv, "anyone@"+testDomain, "letmein")
	if _, err := srv.login("other@"+testDomain, "other"); err == nil {
		t.Fatal("local-part password accepted although player_password is set")
	}
}

func TestServerSMTPAuthAndRelay(t *testing.T) {
	srv := startServer(t, "")
	for _, auth := range []string{"plain", "login", "none"} {
		t.Run(auth, func(t *testing.T) {
			cfg, _ := srv.SMTPConfig("p1@" + testDomain)
			cfg.Auth = auth
			q := newMemQueue()
			var giveUps []GiveUp
			s, err := NewSender(cfg, q, SenderOptions{Logger: testLogger(t), MinBackoff: time.Millisecond, OnGiveUp: func(g GiveUp) { giveUps = append(giveUps, g) }})
			if err != nil {
				t.Fatal(err)
			}
			q.add(orderMail(t, 1, auth), time.Now())
			q.add(outMail(t, "someone@elsewhere.org"), time.Now())
			drain(t, s, q, 5*time.Second)
			sent, failed, _ := q.snapshot()
			if len(sent) != 1 || len(failed) != 1 || len(giveUps) != 1 || !strings.Contains(giveUps[0].Err.Error(), "no relaying") {
				t.Fatalf("sent %v failed %v giveups %+v", sent, failed, giveUps)
			}
		})
	}
	t.Run("wrong password fails the session, not the mail", func(t *testing.T) {
		cfg, _ := srv.SMTPConfig("p1@" + testDomain)
		cfg.Password = "wrong"
		q := newMemQueue()
		s, _ := NewSender(cfg, q, SenderOptions{Logger: testLogger(t)})
		q.add(orderMail(t, 1, "x"), time.Now())
		_, err := s.Flush(context.Background())
		var ce *connError
		if !errors.As(err, &ce) {
			t.Fatalf("Flush = %v", err)
		}
		if _, failed, pending := q.snapshot(); pending != 1 || len(failed) != 0 {
			t.Fatalf("pending %d failed %v", pending, failed)
		}
	})
}

func TestServerIMAPAuthenticateMechanisms(t *testing.T) {
	srv := startServer(t, "")
	for name, client := range map[string]sasl.Client{
		"PLAIN": sasl.NewPlainClient("", gm, "gmpass"),
		"LOGIN": sasl.NewLoginClient(gm, "gmpass"),
	} {
		t.Run(name, func(t *testing.T) {
			c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Authenticate(client); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
		})
	}
	c, _ := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	defer c.Close()
	if err := c.Authenticate(sasl.NewPlainClient("", gm, "bad")); err == nil {
		t.Fatal("bad password accepted")
	}
}

// A person's mail client does more than the fetcher: folders, APPEND of
// sent mail, COPY, delete and expunge, SEARCH, IDLE.
func TestServerServesAMailClient(t *testing.T) {
	srv := startServer(t, "")
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	c := dialIMAP(t, srv, gm, "gmpass")
	for _, name := range []string{"Sent", "Archive"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if !slices.Equal(names, []string{"Archive", "INBOX", "Sent"}) {
		t.Fatalf("LIST %v", names)
	}
	subscribed, err := c.List("", "*", &imap.ListOptions{SelectSubscribed: true}).Collect()
	if err != nil || len(subscribed) != 1 || subscribed[0].Mailbox != "INBOX" {
		t.Fatalf("LSUB/LIST (SUBSCRIBED): %+v %v", subscribed, err)
	}
	sent := []byte("From: gm@example.test\r\nSubject: copy of sent\r\n\r\nhello\r\n")
	app := c.Append("Sent", int64(len(sent)), &imap.AppendOptions{Flags: []imap.Flag{imap.FlagSeen}})
	app.Write(sent)
	app.Close()
	if data, err := app.Wait(); err != nil || data.UID != 1 {
		t.Fatalf("APPEND %+v %v", data, err)
	}
	st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true, NumUnseen: true, UIDNext: true}).Wait()
	if err != nil || *st.NumMessages != 3 || *st.NumUnseen != 3 || st.UIDNext != 4 {
		t.Fatalf("STATUS %+v %v", st, err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	// SEARCH by header and by body text
	res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "ORDERS 1"}}}, nil).Wait()
	if err != nil || !slices.Equal(res.AllUIDs(), []imap.UID{2}) {
		t.Fatalf("SEARCH subject: %v %v", res.AllUIDs(), err)
	}
	res, err = c.UIDSearch(&imap.SearchCriteria{Body: []string{"# mail 2"}, NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil || !slices.Equal(res.AllUIDs(), []imap.UID{3}) {
		t.Fatalf("SEARCH body: %v %v", res.AllUIDs(), err)
	}
	// ENVELOPE and BODYSTRUCTURE for the message list
	msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{Envelope: true, BodyStructure: &imap.FetchItemBodyStructure{}, Flags: true}).Collect()
	if err != nil || len(msgs) != 1 || msgs[0].Envelope.Subject != "orders 0" || msgs[0].BodyStructure.MediaType() != "text/plain" {
		t.Fatalf("FETCH envelope: %+v %v", msgs, err)
	}
	// BODY[] without PEEK sets \Seen
	if _, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if _, flags := mailboxState(t, srv, gm, "INBOX"); !hasFlag(flags[1], imap.FlagSeen) {
		t.Fatal("BODY[] did not set \\Seen")
	}
	// COPY, then delete and expunge
	if _, err := c.Copy(imap.UIDSetNum(1, 2), "Archive").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	inbox, _ := mailboxState(t, srv, gm, "INBOX")
	archive, _ := mailboxState(t, srv, gm, "Archive")
	if !slices.Equal(inbox, []uint32{2, 3}) || !slices.Equal(archive, []uint32{1, 2}) {
		t.Fatalf("after copy+expunge: INBOX %v, Archive %v", inbox, archive)
	}
	// IDLE on a second connection hears of new mail
	updates := make(chan uint32, 10)
	c2, err := imapclient.DialInsecure(srv.IMAPAddr(), &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case updates <- *d.NumMessages:
				default:
				}
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Login(gm, "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c2.Idle()
	if err != nil {
		t.Fatal(err)
	}
	deliver(t, srv, orderMail(t, 7, "a"))
	select {
	case n := <-updates:
		if n != 3 {
			t.Fatalf("EXISTS %d", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EXISTS during IDLE")
	}
	idle.Close()
	idle.Wait()
	// rename and delete folders; INBOX stays
	if err := c.Rename("Archive", "Old", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("Old").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Fatal("INBOX deleted")
	}
}

func TestServerStatePersists(t *testing.T) {
	path := tempPath(t, "mail.db")
	cfg := ServerConfig{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: testDomain, StateFile: path,
		Accounts: []ServerAccount{{Address: gm, Password: "gmpass"}}}
	srv, err := StartServer(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		deliver(t, srv, orderMail(t, i, "a"))
	}
	deliver(t, srv, outMail(t, "auto@"+testDomain))
	f := newTestFetcher(t, srv, newMemState(), newDedupeHandler().handle, func(c *IMAPConfig, _ *FetcherOptions) { c.ProcessedFolder = "Done" })
	deliver(t, srv, orderMail(t, 9, "a"))
	srv.store.mu.Lock()
	u := srv.store.userLocked(gm)
	srv.store.setFlagsLocked(u.mailboxes["INBOX"], 3, imap.StoreFlagsAdd, []imap.Flag{imap.FlagFlagged, "$Custom"}, nil)
	validity := u.mailboxes["INBOX"].uidValidity
	srv.store.mu.Unlock()
	if _, err := f.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	beforeInbox, beforeFlags := mailboxState(t, srv, gm, "INBOX")
	beforeDone, _ := mailboxState(t, srv, gm, "Done")
	srv.Close()

	srv2, err := StartServer(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	inbox, flags := mailboxState(t, srv2, gm, "INBOX")
	done, _ := mailboxState(t, srv2, gm, "Done")
	if !slices.Equal(inbox, beforeInbox) || !slices.Equal(done, beforeDone) || len(done) != 4 {
		t.Fatalf("after restart INBOX %v (was %v), Done %v (was %v)", inbox, beforeInbox, done, beforeDone)
	}
	for _, uid := range inbox {
		if !slices.Equal(flags[uid], beforeFlags[uid]) {
			t.Errorf("flags of %d: %v, were %v", uid, flags[uid], beforeFlags[uid])
		}
	}
	srv2.store.mu.Lock()
	mb := srv2.store.userLocked(gm).mailboxes["INBOX"]
	gotValidity, next := mb.uidValidity, mb.uidNext
	auto := srv2.store.userLocked("auto@" + testDomain)
	srv2.store.mu.Unlock()
	if gotValidity != validity || next != 5 || auto == nil || !auto.auto {
		t.Fatalf("UIDVALIDITY %d (was %d), UIDNEXT %d, auto account %+v", gotValidity, validity, next, auto)
	}
	deliver(t, srv2, orderMail(t, 10, "a"))
	if inbox, _ := mailboxState(t, srv2, gm, "INBOX"); inbox[len(inbox)-1] != 5 {
		t.Fatalf("new mail got UID %v", inbox)
	}
	// a new mailbox never reuses a UIDVALIDITY of the old run
	srv2.store.mu.Lock()
	mb2, err := srv2.store.createMailboxLocked(srv2.store.userLocked(gm), "Fresh")
	srv2.store.mu.Unlock()
	if err != nil || mb2.uidValidity <= validity {
		t.Fatalf("new mailbox UIDVALIDITY %d, old %d, %v", mb2.uidValidity, validity, err)
	}
}

func TestServerDeliverRejectsForeignRecipients(t *testing.T) {
	srv := startServer(t, "")
	c, _ := Compose(&Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@" + testDomain}, {Address: "x@other.org"}}, Subject: "s", Text: "t"})
	if err := srv.Deliver(c.EnvelopeFrom, c.Recipients, c.Raw); err == nil {
		t.Fatal("delivered to a foreign domain")
	}
	if inbox, _ := mailboxState(t, srv, "p1@"+testDomain, "INBOX"); len(inbox) != 0 {
		t.Fatal("partial delivery")
	}
}
