package mailserver

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func TestValidate(t *testing.T) {
	cases := map[string]Config{
		"imap not loopback":        {IMAPAddr: "0.0.0.0:1143"},
		"smtp not loopback":        {SMTPAddr: "192.0.2.1:25"},
		"not host:port":            {IMAPAddr: "localhost"},
		"bad domain":               {Domain: "no dots@"},
		"account elsewhere":        {Accounts: []Account{{Address: "gm@other.org", Password: "x"}}},
		"account with plus":        {Accounts: []Account{{Address: "gm+x@pbemd.localhost", Password: "x"}}},
		"account no pass":          {Accounts: []Account{{Address: "gm@pbemd.localhost"}}},
		"system account set":       {System: []string{"gm@pbemd.localhost"}, Accounts: []Account{{Address: "GM@pbemd.localhost", Password: "x"}}},
		"system elsewhere":         {System: []string{"gm@other.org"}},
		"negative quota":           {MailboxQuota: -1},
		"negative count":           {TotalMaxMessages: -1},
		"message over quota":       {MaxMessageBytes: 2 << 20, MailboxQuota: 1 << 20},
		"mailbox over total":       {MailboxQuota: 4 << 30, TotalQuota: 3 << 30},
		"mailbox count over total": {MailboxMaxMessages: 10, TotalMaxMessages: 5},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			if err := cfg.Validate(); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	if err := (Config{}).Validate(); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	if err := (Config{IMAPAddr: "localhost:0", SMTPAddr: "[::1]:0"}).Validate(); err != nil {
		t.Fatalf("loopback names rejected: %v", err)
	}
}

func TestAccountsAndPlusAddresses(t *testing.T) {
	srv := startServer(t, "")
	deliver(t, srv, orderMail(1, "tok9"))
	deliver(t, srv, mailTo(gm, "newbie@"+testDomain, "hello", "welcome"))

	var names []string
	for _, a := range srv.Accounts() {
		names = append(names, a.Address)
		if a.Address == "newbie@"+testDomain && !a.Auto {
			t.Errorf("auto account %+v", a)
		}
	}
	if !slices.Equal(names, []string{gm, "newbie@" + testDomain, "p1@" + testDomain}) {
		t.Fatalf("accounts %v", names)
	}
	// the plus-address went to gm's INBOX, with the full recipient kept
	cl := dialIMAP(t, srv, gm, "gmpass")
	bodies := fetchBodies(t, cl, "INBOX")
	if len(bodies) != 1 {
		t.Fatalf("%d mails in gm's INBOX", len(bodies))
	}
	if raw := string(bodies[0]); !strings.HasPrefix(raw, "Return-Path: <p1@example.test>\r\nDelivered-To: gm+tok9@example.test\r\nReceived: ") {
		t.Fatalf("delivered copy starts %q", raw[:120])
	}
	// the auto account logs in with its rule password, not with another
	dialIMAP(t, srv, "newbie@"+testDomain, "newbie")
	if err := imapLoginErr(t, srv, "newbie@"+testDomain, "wrong"); err == nil {
		t.Fatal("wrong password accepted")
	}
	// a first login creates the account too, but only with the rule password
	if err := imapLoginErr(t, srv, "fresh@"+testDomain, "nope"); err == nil {
		t.Fatal("unknown account created with a wrong password")
	}
	dialIMAP(t, srv, "fresh@"+testDomain, "fresh")
	if err := imapLoginErr(t, srv, "x@elsewhere.org", "x"); err == nil {
		t.Fatal("account outside the domain")
	}
	// a configured account opens with its password only
	if err := imapLoginErr(t, srv, gm, "gm"); err == nil {
		t.Fatal("configured account opened with its local part")
	}
}

func TestPlayerPasswordSetting(t *testing.T) {
	cfg := testConfig("")
	cfg.PlayerPassword = "letmein"
	srv := start(t, cfg)
	dialIMAP(t, srv, "anyone@"+testDomain, "letmein")
	if err := imapLoginErr(t, srv, "other@"+testDomain, "other"); err == nil {
		t.Fatal("local-part password accepted although player_password is set")
	}
	if err := imapLoginErr(t, srv, "p1@"+testDomain, "letmein"); err == nil {
		t.Fatal("player_password opened a configured account")
	}
}

func TestSMTPAuthAndRelay(t *testing.T) {
	srv := startServer(t, "")
	for name, client := range map[string]sasl.Client{
		"PLAIN": sasl.NewPlainClient("", "p1@"+testDomain, "p1pass"),
		"LOGIN": sasl.NewLoginClient("p1@"+testDomain, "p1pass"),
	} {
		t.Run(name, func(t *testing.T) {
			c, err := smtp.Dial(srv.SMTPAddr())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Auth(client); err != nil {
				t.Fatal(err)
			}
			if err := c.SendMail("p1@"+testDomain, []string{gm}, strings.NewReader(string(rawMail("p1@"+testDomain, gm, "hi", "x")))); err != nil {
				t.Fatal(err)
			}
		})
	}
	// without AUTH, from loopback: accepted for local recipients
	if err := sendSMTP(t, srv, "someone@elsewhere.org", []string{"P1@" + testDomain}, rawMail("someone@elsewhere.org", "p1@"+testDomain, "hi", "x"), 0); err != nil {
		t.Fatalf("unauthenticated local delivery: %v", err)
	}
	// never relayed
	err := sendSMTP(t, srv, "p1@"+testDomain, []string{"someone@elsewhere.org"}, rawMail("p1@"+testDomain, "someone@elsewhere.org", "hi", "x"), 0)
	if smtpCode(err) != "550 5.7.1" || !strings.Contains(err.Error(), "no relaying") {
		t.Fatalf("relay: %v", err)
	}
	if err := smtpAuthErr(t, srv, "p1@"+testDomain, "wrong"); err == nil {
		t.Fatal("wrong SMTP password accepted")
	}
	if inbox, _ := mailboxState(t, srv, gm, "INBOX"); len(inbox) != 2 {
		t.Fatalf("gm has %d mails, want 2", len(inbox))
	}
}

func TestIMAPAuthenticateMechanisms(t *testing.T) {
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
	if err := imapAuthErr(t, srv, gm, "bad"); err == nil {
		t.Fatal("bad password accepted")
	}
}

// A person's mail client does more than the fetcher: folders, APPEND of
// sent mail, COPY, delete and expunge, SEARCH, IDLE.
func TestServesAMailClient(t *testing.T) {
	srv := startServer(t, "")
	for i := range 3 {
		deliver(t, srv, orderMail(i, "a"))
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
	// TEXT covers the header too; BODY does not
	res, err = c.UIDSearch(&imap.SearchCriteria{Text: []string{"ORDERS 0"}}, nil).Wait()
	if err != nil || !slices.Equal(res.AllUIDs(), []imap.UID{1}) {
		t.Fatalf("SEARCH text: %v %v", res.AllUIDs(), err)
	}
	res, err = c.UIDSearch(&imap.SearchCriteria{Body: []string{"orders 0"}}, nil).Wait()
	if err != nil || len(res.AllUIDs()) != 0 {
		t.Fatalf("SEARCH body found a header: %v %v", res.AllUIDs(), err)
	}
	// ENVELOPE and BODYSTRUCTURE for the message list
	msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{Envelope: true, BodyStructure: &imap.FetchItemBodyStructure{}, Flags: true, RFC822Size: true}).Collect()
	if err != nil || len(msgs) != 1 || msgs[0].Envelope.Subject != "orders 0" || msgs[0].BodyStructure.MediaType() != "text/plain" {
		t.Fatalf("FETCH envelope: %+v %v", msgs, err)
	}
	// a partial fetch is cut from the stored bytes
	whole, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || int64(len(whole[0].BodySection[0].Bytes)) != msgs[0].RFC822Size {
		t.Fatalf("BODY[] %d bytes, RFC822.SIZE %d: %v", len(whole[0].BodySection[0].Bytes), msgs[0].RFC822Size, err)
	}
	part, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true, Partial: &imap.SectionPartial{Offset: 7, Size: 10}}}}).Collect()
	if err != nil || string(part[0].BodySection[0].Bytes) != string(whole[0].BodySection[0].Bytes[7:17]) {
		t.Fatalf("BODY[]<7.10> %q: %v", part[0].BodySection[0].Bytes, err)
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
	// the copy outlives the expunged original
	c2 := dialIMAP(t, srv, gm, "gmpass")
	if bodies := fetchBodies(t, c2, "Archive"); len(bodies) != 2 || !strings.Contains(string(bodies[0]), "# mail 0") {
		t.Fatalf("Archive after the original was expunged: %q", bodies)
	}
	// IDLE on a second connection hears of new mail
	updates := make(chan uint32, 10)
	c3, err := imapclient.DialInsecure(srv.IMAPAddr(), &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
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
	defer c3.Close()
	if err := c3.Login(gm, "gmpass").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c3.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c3.Idle()
	if err != nil {
		t.Fatal(err)
	}
	deliver(t, srv, orderMail(7, "a"))
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
	if bodies := fetchBodies(t, c2, "Old"); len(bodies) != 2 {
		t.Fatalf("renamed folder holds %d mails", len(bodies))
	}
	if err := c.Delete("Old").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Fatal("INBOX deleted")
	}
}

func TestStatePersists(t *testing.T) {
	path := tempPath(t, "mail.db")
	cfg := testConfig(path)
	srv, err := Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		deliver(t, srv, orderMail(i, "a"))
	}
	deliver(t, srv, mailTo(gm, "auto@"+testDomain, "hi", "x"))
	c := dialIMAP(t, srv, gm, "gmpass")
	if err := c.Create("Done", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1), "Done").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagFlagged, "$Custom"}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	c.Logout().Wait()
	srv.store.mu.Lock()
	validity := srv.store.userLocked(gm).mailboxes["INBOX"].uidValidity
	srv.store.mu.Unlock()
	beforeInbox, beforeFlags := mailboxState(t, srv, gm, "INBOX")
	beforeDone, _ := mailboxState(t, srv, gm, "Done")
	c = dialIMAP(t, srv, gm, "gmpass")
	beforeBodies := fetchBodies(t, c, "INBOX")
	srv.Close()

	srv2 := start(t, cfg)
	inbox, flags := mailboxState(t, srv2, gm, "INBOX")
	done, _ := mailboxState(t, srv2, gm, "Done")
	if !slices.Equal(inbox, beforeInbox) || !slices.Equal(done, beforeDone) || len(done) != 1 || len(inbox) != 2 {
		t.Fatalf("after restart INBOX %v (was %v), Done %v (was %v)", inbox, beforeInbox, done, beforeDone)
	}
	for _, uid := range inbox {
		if !slices.Equal(flags[uid], beforeFlags[uid]) {
			t.Errorf("flags of %d: %v, were %v", uid, flags[uid], beforeFlags[uid])
		}
	}
	c2 := dialIMAP(t, srv2, gm, "gmpass")
	if bodies := fetchBodies(t, c2, "INBOX"); !slices.EqualFunc(bodies, beforeBodies, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Fatal("contents changed across the restart")
	}
	srv2.store.mu.Lock()
	mb := srv2.store.userLocked(gm).mailboxes["INBOX"]
	gotValidity, next := mb.uidValidity, mb.uidNext
	auto := srv2.store.userLocked("auto@" + testDomain)
	srv2.store.mu.Unlock()
	if gotValidity != validity || next != 4 || auto == nil || auto.kind != kindAuto {
		t.Fatalf("UIDVALIDITY %d (was %d), UIDNEXT %d, auto account %+v", gotValidity, validity, next, auto)
	}
	deliver(t, srv2, orderMail(10, "a"))
	if inbox, _ := mailboxState(t, srv2, gm, "INBOX"); inbox[len(inbox)-1] != 4 {
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

func TestDeliverRejectsForeignRecipients(t *testing.T) {
	srv := startServer(t, "")
	if err := srv.Deliver(gm, []string{"p1@" + testDomain, "x@other.org"}, rawMail(gm, "p1@"+testDomain, "s", "t")); err == nil {
		t.Fatal("delivered to a foreign domain")
	}
	if inbox, _ := mailboxState(t, srv, "p1@"+testDomain, "INBOX"); len(inbox) != 0 {
		t.Fatal("partial delivery")
	}
}

// ResetMailbox is a server rebuilt from scratch: same name, no mail, a new
// UIDVALIDITY.
func TestResetMailbox(t *testing.T) {
	srv := startServer(t, "")
	deliver(t, srv, orderMail(1, "a"))
	c := dialIMAP(t, srv, gm, "gmpass")
	before, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	c.Logout().Wait()
	if err := srv.ResetMailbox(gm, "INBOX"); err != nil {
		t.Fatal(err)
	}
	c = dialIMAP(t, srv, gm, "gmpass")
	after, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || after.NumMessages != 0 || after.UIDValidity == before.UIDValidity || after.UIDNext != 1 {
		t.Fatalf("after reset %+v (before %+v), %v", after, before, err)
	}
}

// A STORE of many messages (the daemon flags a whole poll batch \Seen)
// is one commit of the state file, not one per message, and every flag
// of it survives a restart.
func TestStoreOfManyMessagesIsOneCommit(t *testing.T) {
	cfg := testConfig(tempPath(t, "mail.db"))
	srv := start(t, cfg)
	const n = 50
	for i := range n {
		deliver(t, srv, orderMail(i, "a"))
	}
	c := dialIMAP(t, srv, gm, "gmpass")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	writes := func() int64 { st := srv.store.db.Stats(); return st.TxStats.GetWrite() }
	before := writes()
	set := imap.UIDSet{imap.UIDRange{Start: 1, Stop: n}}
	if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	// each commit writes at least a page and the meta page
	if w := writes() - before; w >= n {
		t.Errorf("a STORE of %d messages wrote %d pages: a commit per message", n, w)
	}
	c.Logout().Wait()
	srv.Close()
	srv2 := start(t, cfg)
	uids, flags := mailboxState(t, srv2, gm, "INBOX")
	if len(uids) != n {
		t.Fatalf("%d messages after restart", len(uids))
	}
	for _, u := range uids {
		if !slices.Contains(flags[u], imap.FlagSeen) {
			t.Errorf("uid %d lost \\Seen across the restart: %v", u, flags[u])
		}
	}
}
