package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"pbemd/mailer"
	"pbemd/store"
)

// e2e runs a whole pbemd (Open + Run) on the embedded mail server,
// on loopback ports chosen by the system, and talks to it only by real
// SMTP and IMAP, as players and the GM do.
type e2e struct {
	t     *testing.T
	srv   *Server
	clock *clock
	seq   int
	mu    sync.Mutex
	seen  map[string]uint32         // address → highest UID read
	inbox map[string][]*mailer.Mail // read but not yet taken by next
}

const e2eGM = "master@pbemd.localhost"

func newE2E(t *testing.T) *e2e { t.Helper(); return newE2EWithLog(t, nil, nil) }

// newE2EWith is newE2E with the config edited before the server opens.
func newE2EWith(t *testing.T, edit func(*Config)) *e2e {
	t.Helper()
	return newE2EWithLog(t, nil, edit)
}

// newE2EWithLog is newE2E with a logger (nil: none) and the config edited
// by edit (nil: not).
func newE2EWithLog(t *testing.T, log *slog.Logger, edit func(*Config)) *e2e {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = ""
	cfg.GMPassword = "sesame"
	cfg.PasswordCost = 4
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr, cfg.Mailserver.StateFile = "127.0.0.1:0", "127.0.0.1:0", ""
	if edit != nil {
		edit(&cfg)
	}
	c := &clock{t: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)}
	srv, err := Open(cfg, log, c.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		if err := srv.DB.Check(); err != nil {
			t.Errorf("bbolt check: %v", err)
		}
		srv.Close()
	})
	return &e2e{t: t, srv: srv, clock: c, seen: map[string]uint32{}, inbox: map[string][]*mailer.Mail{}}
}

// send mails body from one address to another over SMTP; it returns the
// Message-ID.
func (e *e2e) send(from, to, body string, inReplyTo ...string) string {
	e.t.Helper()
	e.mu.Lock()
	e.seq++
	id := fmt.Sprintf("e2e-%d@pbemd.localhost", e.seq)
	e.mu.Unlock()
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "From: %s\r\nTo: %s\r\nSubject: test %d\r\nMessage-ID: <%s>\r\nDate: %s\r\n", from, to, e.seq, id, time.Now().Format(time.RFC1123Z))
	if len(inReplyTo) > 0 {
		fmt.Fprintf(&hdr, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo[0], inReplyTo[0])
	}
	hdr.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n")
	raw := hdr.String() + strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
	c, err := smtp.Dial(e.srv.Mail.SMTPAddr())
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, strings.NewReader(raw)); err != nil {
		e.t.Fatalf("smtp: %v", err)
	}
	c.Quit()
	return id
}

// next waits for the next mail to addr whose subject contains subj and
// returns it, failing after a few seconds.
func (e *e2e) next(addr, subj string) *mailer.Mail {
	e.t.Helper()
	end := time.Now().Add(30 * time.Second) // generous: CI runs packages side by side under -race
	for time.Now().Before(end) {
		e.inbox[addr] = append(e.inbox[addr], e.fresh(addr)...)
		for i, m := range e.inbox[addr] {
			if strings.Contains(m.Subject, subj) {
				e.inbox[addr] = append(e.inbox[addr][:i:i], e.inbox[addr][i+1:]...)
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("no mail to %s with %q in the subject", addr, subj)
	return nil
}

// quiet checks that no new mail with subj reaches addr for a moment.
func (e *e2e) quiet(addr, subj string) {
	e.t.Helper()
	time.Sleep(300 * time.Millisecond)
	e.inbox[addr] = append(e.inbox[addr], e.fresh(addr)...)
	for _, m := range e.inbox[addr] {
		if strings.Contains(m.Subject, subj) {
			e.t.Fatalf("unexpected mail to %s: %q\n%s", addr, m.Subject, m.Text)
		}
	}
}

// fresh returns the mails that arrived for addr since the last call.
func (e *e2e) fresh(addr string) []*mailer.Mail {
	e.t.Helper()
	cfg, err := EmbeddedIMAP(e.srv.Mail, addr)
	if err != nil {
		e.t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(cfg.Addr, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
		e.t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		e.t.Fatal(err)
	}
	e.mu.Lock()
	from := e.seen[addr] + 1
	e.mu.Unlock()
	var set imap.UIDSet
	set.AddRange(imap.UID(from), 0)
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		e.t.Fatal(err)
	}
	var out []*mailer.Mail
	for _, m := range msgs {
		if uint32(m.UID) < from {
			continue // "n:*" always returns the last message
		}
		e.mu.Lock()
		e.seen[addr] = max(e.seen[addr], uint32(m.UID))
		e.mu.Unlock()
		for _, b := range m.BodySection {
			pm, err := mailer.ParseMail(b.Bytes, "gm@pbemd.localhost")
			if err != nil {
				e.t.Fatal(err)
			}
			if len(pm.ReplyTo) > 0 {
				a := pm.ReplyTo[0].Address
				if i, j := strings.Index(a, "+"), strings.Index(a, "@"); i >= 0 && j > i {
					pm.Token = a[i+1 : j]
				}
			}
			out = append(out, pm)
		}
	}
	return out
}

// settle waits until the outbox is empty, then throws away every mail
// the given addresses have not taken yet.
func (e *e2e) settle(addrs ...string) {
	e.t.Helper()
	end := time.Now().Add(10 * time.Second)
	for {
		n := -1
		e.srv.DB.View(func(tx *store.Tx) error { n = tx.OutboxLen(); return nil })
		if n == 0 {
			break
		}
		if time.Now().After(end) {
			e.t.Fatalf("outbox still holds %d mails", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, a := range addrs {
		e.fresh(a)
		e.inbox[a] = nil
	}
}

// tokenAddr is the reply address that carries token.
func tokenAddr(token string) string { return "gm+" + token + "@pbemd.localhost" }

// standardGame creates a standard game by the site GM's welcome mail and
// fills it with seven players; it returns the game's GM token and each
// power's player.
func (e *e2e) standardGame(name string) (string, map[string]player) {
	e.t.Helper()
	welcome := e.next(e2eGM, "Welcome")
	e.send(e2eGM, tokenAddr(welcome.Token), "CREATE "+name+" standard")
	created := e.next(e2eGM, "Re:")
	if !strings.Contains(created.Text, "created") || created.Token == "" {
		e.t.Fatalf("CREATE by reply to the welcome mail: %q\n%s", created.Subject, created.Text)
	}
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	for i, p := range powers {
		e.send(fmt.Sprintf("p%d@pbemd.localhost", i), "gm@pbemd.localhost", "JOIN "+name+" prefer "+p)
	}
	players := map[string]player{}
	for i, p := range powers {
		addr := fmt.Sprintf("p%d@pbemd.localhost", i)
		m := e.next(addr, "You are")
		if !strings.EqualFold(strings.TrimPrefix(m.Subject, "["+name+"] You are "), p) {
			e.t.Fatalf("%s wanted %s and got %q", addr, p, m.Subject)
		}
		players[p] = player{addr, m.Token}
	}
	all := []string{e2eGM}
	for _, p := range players {
		all = append(all, p.addr)
	}
	e.settle(all...)
	return created.Token, players
}

func (e *e2e) game(name string) *store.Game {
	e.t.Helper()
	var g *store.Game
	if err := e.srv.DB.View(func(tx *store.Tx) (err error) { g, err = tx.Game(name); return err }); err != nil {
		e.t.Fatal(err)
	}
	return g
}

// TestE2EGameByMail plays a Spring 1901 through the embedded mail server:
// orders by reply, acknowledgement, a forged From:, the deadline, results.
func TestE2EGameByMail(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("e1")
	eng := pl["england"]
	id := e.send(eng.addr, tokenAddr(eng.token), "Fleet London move North Sea\nF Edi - Nwg\nA Lvp - Yorkshre\nA Lvp - Edi")
	ack := e.next(eng.addr, "Re:")
	mustContain(t, ack.Text, "Orders received for England", "F Lon - Nth", "F Edi - Nwg", "A Lvp - Edi", "replaced by the later order")
	if ack.InReplyTo != id {
		t.Errorf("ack In-Reply-To %q, want %q", ack.InReplyTo, id)
	}
	// A forged From: of France's player moves nothing.
	fr := pl["france"]
	e.send(fr.addr, "gm@pbemd.localhost", "A Par - Pic")
	mustContain(t, e.next(fr.addr, "Re:").Text, "do not know you yet")

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	res := e.next(eng.addr, "Spring 1901 Movement — results")
	mustContain(t, res.Text, "F Lon - Nth", "Next phase: Fall 1901 Movement")
	if strings.Contains(res.Text, "A Par - Pic") {
		t.Error("the forged order was carried out")
	}
	if g := e.game("e1"); g.PhaseID != "F1901M" {
		t.Fatalf("phase after the deadline: %s", g.PhaseID)
	}
	// The GM's copy carries the GM token.
	gmCopy := e.next(e2eGM, "Spring 1901 Movement — results")
	if gmCopy.Token == "" || gmCopy.Token == eng.token {
		t.Errorf("GM copy reply token %q", gmCopy.Token)
	}
}

// TestE2EGMCommands runs every GM override through the mail server and
// checks that no player (or other game's token) can use them.
func TestE2EGMCommands(t *testing.T) {
	e := newE2E(t)
	gm, pl := e.standardGame("e2")
	gmAddr := tokenAddr(gm)
	eng, fra := pl["england"], pl["france"]

	// A player's token, or a forged From: of the GM, never runs a GM command.
	e.send(eng.addr, tokenAddr(eng.token), "PROCESS")
	mustContain(t, e.next(eng.addr, "Re:").Text, "only the game's GM")
	e.send(e2eGM, "gm@pbemd.localhost", "EXTEND 24h")
	mustContain(t, e.next(e2eGM, "Re:").Text, "only the game's GM")

	steps := []struct {
		cmd       string
		gmWants   string
		playerSub string // subject of the announcement players get ("" = none)
		check     func(g *store.Game) error
	}{
		{"EXTEND 24h", "deadline of Spring 1901 Movement is now", "New deadline", func(g *store.Game) error {
			if want := time.Date(2026, 12, 9, 21, 0, 0, 0, time.UTC); !g.Deadline.Equal(want) {
				return fmt.Errorf("deadline %v, want %v", g.Deadline, want)
			}
			return nil
		}},
		{"DEADLINE 2026-12-10 21:00", "is now Thu 10 Dec 2026 21:00 UTC", "New deadline", nil},
		{"PAUSE the GM is travelling", "is paused", "Game paused", func(g *store.Game) error {
			if !g.Paused {
				return fmt.Errorf("not paused")
			}
			return nil
		}},
		{"RESUME", "resumes", "Game resumed", func(g *store.Game) error {
			if g.Paused {
				return fmt.Errorf("still paused")
			}
			return nil
		}},
		{"SET ORDERS france\nA Par - Bur\nF Bre - Mao\nENDORDERS", "Orders of France for Spring 1901 Movement set by the GM", "GM orders", nil},
		{"SET ORDERS france\nA Mos - Stp\nENDORDERS", "refused, nothing was stored", "", nil},
		{"RULES\nNo talking about the weather.\nENDRULES", "House rules of e2 replaced", "House rules changed", func(g *store.Game) error {
			if g.HouseRules != "No talking about the weather." {
				return fmt.Errorf("rules %q", g.HouseRules)
			}
			return nil
		}},
		{"BROADCAST\nWelcome, diplomats.\nENDPRESS", "Broadcast sent", "Broadcast from GM", nil},
		{"SILENT\nEXTEND 1h", "not told", "", nil},
		{"PREVIEW ON", "Preview is on", "", nil},
		{"PROCESS", "the results come to you first", "", nil},
	}
	for _, s := range steps {
		e.send(e2eGM, gmAddr, s.cmd)
		mustContain(t, e.next(e2eGM, "Re:").Text, s.gmWants)
		if s.playerSub != "" {
			e.next(eng.addr, s.playerSub)
		} else {
			e.quiet(eng.addr, "[e2]")
		}
		if s.check != nil {
			if err := s.check(e.game("e2")); err != nil {
				t.Errorf("after %q: %v", s.cmd, err)
			}
		}
	}
	// PROCESS with preview on: the GM gets the results first.
	preview := e.next(e2eGM, "Preview")
	mustContain(t, preview.Text, "not yet public", "A Par - Bur")
	e.quiet(eng.addr, "results")
	e.send(e2eGM, gmAddr, "ROLLBACK")
	mustContain(t, e.next(e2eGM, "Re:").Text, "reopened")
	if g := e.game("e2"); g.PhaseID != "S1901M" || g.Pending != nil {
		t.Fatalf("after ROLLBACK of a preview: %s pending %v", g.PhaseID, g.Pending)
	}
	e.send(e2eGM, gmAddr, "PROCESS")
	e.next(e2eGM, "Re:")
	e.next(e2eGM, "Preview")
	e.quiet(fra.addr, "results")
	e.send(e2eGM, gmAddr, "PUBLISH")
	mustContain(t, e.next(e2eGM, "Re:").Text, "published")
	res := e.next(fra.addr, "Spring 1901 Movement — results")
	mustContain(t, res.Text, "A Par - Bur")
	e.send(e2eGM, gmAddr, "PREVIEW OFF")
	e.next(e2eGM, "Re:")
	e.send(e2eGM, gmAddr, "ROLLBACK")
	e.next(e2eGM, "Re:")
	mustContain(t, e.next(fra.addr, "Phase reopened").Text, "reopened Spring 1901 Movement")

	// REPLACE, PROMOTE, EJECT.
	e.send(e2eGM, gmAddr, "REPLACE england WITH newcomer@pbemd.localhost")
	mustContain(t, e.next(e2eGM, "Re:").Text, "England is now played by newcomer@pbemd.localhost")
	nw := e.next("newcomer@pbemd.localhost", "You are England")
	mustContain(t, e.next(eng.addr, "You no longer play England").Text, "The GM has replaced you as the senior diplomat of England")
	e.send(eng.addr, tokenAddr(eng.token), "F Lon - Nth")
	mustContain(t, e.next(eng.addr, "Re:").Text, "The GM replaced you in e2 on", "so I did not act on this mail")
	e.send("newcomer@pbemd.localhost", tokenAddr(nw.Token), "F Lon - Nth")
	mustContain(t, e.next("newcomer@pbemd.localhost", "Re:").Text, "Orders received for England")
	e.send("junior@pbemd.localhost", "gm@pbemd.localhost", "JOIN e2 as junior of england")
	mustContain(t, e.next("junior@pbemd.localhost", "Re:").Text, "I have asked the senior diplomat of England")
	ask := e.next("newcomer@pbemd.localhost", "asks to join England")
	e.send("newcomer@pbemd.localhost", tokenAddr(nw.Token), "ACCEPT", ask.MessageID)
	mustContain(t, e.next("newcomer@pbemd.localhost", "Re:").Text, "junior@pbemd.localhost is now a junior diplomat of England")
	e.next("junior@pbemd.localhost", "You are England")
	e.send(e2eGM, gmAddr, "PROMOTE junior@pbemd.localhost")
	mustContain(t, e.next(e2eGM, "Re:").Text, "now the senior diplomat of England")
	e.send(e2eGM, gmAddr, "EJECT turkey")
	mustContain(t, e.next(e2eGM, "Re:").Text, "civil disorder")
	tur := pl["turkey"]
	mustContain(t, e.next(tur.addr, "You no longer play Turkey").Text, "The GM has removed the diplomats of Turkey")
	e.send(tur.addr, tokenAddr(tur.token), "A Con - Bul")
	mustContain(t, e.next(tur.addr, "Re:").Text, "The GM removed you from e2 on", "so I did not act on this mail")

	// A GM token of one game does nothing in another.
	gm3, _ := e.createOnly("e3")
	e.send(e2eGM, tokenAddr(gm3), "END DRAW")
	mustContain(t, e.next(e2eGM, "Re:").Text, "not running")
	if g := e.game("e2"); g.Status != store.Active {
		t.Fatal("END DRAW for another game ended e2")
	}
	e.send(e2eGM, gmAddr, "END SOLO france")
	e.next(e2eGM, "Re:")
	mustContain(t, e.next(fra.addr, "Game over").Text, "France has won e2")
	if g := e.game("e2"); g.Status != store.Finished || g.Winners[0] != "france" {
		t.Fatalf("after END SOLO: %s %v", g.Status, g.Winners)
	}
}

// createOnly creates a game (by GM password) without players.
func (e *e2e) createOnly(name string) (string, *mailer.Mail) {
	e.t.Helper()
	e.send(e2eGM, "gm@pbemd.localhost", "SIGNON GM - sesame\nCREATE "+name+" standard")
	m := e.next(e2eGM, "Re:")
	mustContain(e.t, m.Text, "created")
	return m.Token, m
}

// TestE2EPressObserversAndVerify: private, public and anonymous press,
// observers, and VERIFY of a real and a forged code.
func TestE2EPressObserversAndVerify(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("e4")
	eng, fra, ger := pl["england"], pl["france"], pl["germany"]
	e.send("watcher@pbemd.localhost", "gm@pbemd.localhost", "OBSERVE e4")
	obs := e.next("watcher@pbemd.localhost", "Re:")
	mustContain(t, obs.Text, "You now observe e4")

	e.send(eng.addr, tokenAddr(eng.token), "PRESS TO France\nLet us split Belgium.\nENDPRESS")
	mustContain(t, e.next(eng.addr, "Re:").Text, "Press relayed to France")
	mustContain(t, e.next(fra.addr, "Press from England").Text, "Let us split Belgium.")
	e.quiet(ger.addr, "Press from England")
	e.quiet("watcher@pbemd.localhost", "Press")

	e.send(fra.addr, tokenAddr(fra.token), "BROADCAST\nFrance wants peace.\nENDPRESS")
	e.next(fra.addr, "Re:")
	mustContain(t, e.next(ger.addr, "Broadcast from France").Text, "France wants peace.")
	mustContain(t, e.next("watcher@pbemd.localhost", "Broadcast from France").Text, "France wants peace.")

	e.send("watcher@pbemd.localhost", tokenAddr(obs.Token), "PSA\nEngland and France are allied.\nENDPRESS")
	e.next("watcher@pbemd.localhost", "Re:")
	psa := e.next(ger.addr, "Anonymous announcement")
	mustContain(t, psa.Text, "England and France are allied.")
	if strings.Contains(psa.Text, "watcher") {
		t.Error("the anonymous announcement names its sender")
	}
	// An observer cannot order.
	e.send("watcher@pbemd.localhost", tokenAddr(obs.Token), "A Par - Bur")
	mustContain(t, e.next("watcher@pbemd.localhost", "Re:").Text, "observers cannot send orders")

	// VERIFY: the code of a real mail, then a forged one.
	i := strings.Index(psa.Text, "Send VERIFY ")
	code := strings.Fields(psa.Text[i+len("Send VERIFY "):])[0]
	e.send(ger.addr, "gm@pbemd.localhost", "VERIFY "+code)
	mustContain(t, e.next(ger.addr, "Re:").Text, "yes, I sent that mail", ger.addr, "Anonymous announcement")
	e.send(ger.addr, "gm@pbemd.localhost", "VERIFY 2345-6789")
	mustContain(t, e.next(ger.addr, "Re:").Text, "never sent a mail with that code")

	// HISTORY includes public press, not private.
	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	e.next(ger.addr, "results")
	e.send(ger.addr, tokenAddr(ger.token), "HISTORY S1901M")
	h := e.next(ger.addr, "Re:")
	mustContain(t, h.Text, "France wants peace.", "England and France are allied.")
	if strings.Contains(h.Text, "split Belgium") {
		t.Error("HISTORY shows private press")
	}
	e.send("watcher@pbemd.localhost", tokenAddr(obs.Token), "UNOBSERVE")
	mustContain(t, e.next("watcher@pbemd.localhost", "Re:").Text, "no longer observe")
}

// TestE2EStartWithMissingPlayers: the GM starts a game before every power
// has a player; the empty powers are in civil disorder.
func TestE2EStartWithMissingPlayers(t *testing.T) {
	e := newE2E(t)
	gm, _ := e.createOnly("e5")
	e.send("solo@pbemd.localhost", "gm@pbemd.localhost", "JOIN e5 prefer italy")
	e.next("solo@pbemd.localhost", "Re:")
	e.send(e2eGM, tokenAddr(gm), "START")
	mustContain(t, e.next(e2eGM, "Re:").Text, "e5 started with 1 player:")
	mustContain(t, e.next("solo@pbemd.localhost", "has started").Text, "Powers without a player", "Austria")
	e.next("solo@pbemd.localhost", "You are Italy")
	if g := e.game("e5"); g.Status != store.Active {
		t.Fatalf("START: %s", g.Status)
	}
}

// TestE2EOversizedAndHTMLMail: a 10 MB attachment gets a short polite
// answer without being parsed; an HTML-only mail is read as text.
func TestE2EOversizedAndHTMLMail(t *testing.T) {
	e := newE2E(t)
	big := strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\r\n", 10<<20/38)
	raw := "From: big@pbemd.localhost\r\nTo: gm@pbemd.localhost\r\nSubject: my orders\r\nMessage-ID: <big@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nLIST\r\n" +
		"--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n" + big + "--b--\r\n"
	c, err := smtp.Dial(e.srv.Mail.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("big@pbemd.localhost", []string{"gm@pbemd.localhost"}, strings.NewReader(raw)); err != nil {
		t.Fatalf("smtp refused the big mail: %v", err)
	}
	c.Quit()
	mustContain(t, e.next("big@pbemd.localhost", "Re: my orders").Text, "too large")

	html := "From: html@pbemd.localhost\r\nTo: gm@pbemd.localhost\r\nSubject: hi\r\nMessage-ID: <html@x>\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>LIST</p></body></html>\r\n"
	c, err = smtp.Dial(e.srv.Mail.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("html@pbemd.localhost", []string{"gm@pbemd.localhost"}, strings.NewReader(html)); err != nil {
		t.Fatal(err)
	}
	c.Quit()
	mustContain(t, e.next("html@pbemd.localhost", "Re: hi").Text, "Games on this game master")
}
