package daemon

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/store"
)

// passwordIn is the password a power mail gives ("" if none).
func passwordIn(text string) string {
	i := strings.Index(text, "Your password: ")
	if i < 0 {
		return ""
	}
	return strings.Fields(text[i+len("Your password: "):])[0]
}

// secrets collects every reply token and password the mails of a game
// carry, for a search of the store file.
type secrets map[string]string // secret → what it is

func (s secrets) note(ms []sent) []sent {
	for _, m := range ms {
		if m.Token != "" {
			s[m.Token] = "the reply token of a mail to " + m.To
		}
		if pw := passwordIn(m.Text); pw != "" {
			s[pw] = "the password of " + m.To
		}
	}
	return ms
}

// notIn fails the test for every secret found in raw.
func (s secrets) notIn(t *testing.T, what string, raw []byte) {
	t.Helper()
	if len(raw) == 0 {
		t.Fatalf("%s: nothing to search", what)
	}
	for secret, of := range s {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("%s holds %s (%q)", what, of, secret)
		}
	}
}

// A game played through the daemon leaves no reply token and no password
// in pbemd.db, nor in a backup of it: not a player's, a junior's, an
// observer's, the game GM's or the site GM's, not while their mails wait in
// the outbox and not after they left (bbolt keeps freed pages as they
// were). After a restart every token still works, and the token of a
// replaced player still gets its one sentence.
func TestNoTokenInTheStoreFile(t *testing.T) {
	h := newHarness(t)
	sec := secrets{"sesame": "the GM password"}
	if err := h.d.Welcome(); err != nil {
		t.Fatal(err)
	}
	site := h.only(sec.note(h.outbox()), harnessGM).Token
	if site == "" {
		t.Fatal("the welcome mail has no site GM token")
	}
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE sealed standard")
	gm := h.only(sec.note(h.outbox()), harnessGM).Token
	for _, p := range standardPowers {
		h.send(p+"@example.test", "", "JOIN sealed prefer "+p)
	}
	pl := map[string]player{}
	ms := sec.note(h.outbox())
	for _, p := range standardPowers {
		m := h.subject(ms, p+"@example.test", "You are")
		pl[p] = player{m.To, m.Token}
	}
	h.send("aide@example.test", "", "JOIN sealed as junior of france")
	sec.note(h.outbox())
	h.as(pl["france"], "ACCEPT aide@example.test")
	sec.note(h.outbox())
	h.send("watcher@example.test", "", "OBSERVE sealed")
	sec.note(h.outbox())
	h.as(pl["france"], "A Par - Bur")
	h.as(pl["england"], "F Lon - Nth")
	sec.note(h.outbox())
	h.send(harnessGM, gm, "REPLACE england WITH newcomer@example.test")
	sec.note(h.outbox())
	h.send(harnessGM, gm, "PROCESS")
	sec.note(h.outbox())
	h.tick()
	// The results wait in the outbox: their mails are sealed there.
	g := h.game("sealed")
	for _, p := range g.Players {
		sec[p.Token] = "the token of " + p.Address
	}
	for _, o := range g.Observers {
		sec[o.Token] = "the token of observer " + o.Address
	}
	sec[g.GMToken] = "the game's GM token"
	if len(g.Players) != 9 || len(g.Observers) != 1 || len(sec) < 2*9+4 {
		t.Fatalf("the game has %d diplomats and %d observers; %d secrets to look for", len(g.Players), len(g.Observers), len(sec))
	}
	if n := h.outboxLen(); n < 9 {
		t.Fatalf("%d mails wait in the outbox, want the results to all", n)
	}
	raw, err := os.ReadFile(h.db.Path())
	if err != nil {
		t.Fatal(err)
	}
	sec.notIn(t, "pbemd.db with the results queued", raw)
	sec.note(h.outbox())

	raw, _ = os.ReadFile(h.db.Path())
	sec.notIn(t, "pbemd.db after the results left", raw)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := h.db.BackupFile(backup); err != nil { // pbemd backup with no daemon running
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(backup)
	sec.notIn(t, "a backup file", raw)
	var hot bytes.Buffer
	if _, err := h.db.Backup(&hot); err != nil { // the running daemon's hot copy
		t.Fatal(err)
	}
	sec.notIn(t, "a hot copy", hot.Bytes())

	h.restart()
	h.as(pl["france"], "A Par - Pic")
	mustContain(t, h.reply(sec.note(h.outbox()), pl["france"].addr).Text, "A Par - Pic")
	h.send(harnessGM, gm, "STATUS")
	mustContain(t, h.reply(sec.note(h.outbox()), harnessGM).Text, "sealed")
	h.send(harnessGM, site, "CREATE after standard")
	mustContain(t, h.only(sec.note(h.outbox()), harnessGM).Text, "created")
	h.as(pl["england"], "F Lon - Nth")
	ms = sec.note(h.outbox())
	if len(ms) != 1 || bodyOf(ms[0]) != "The GM replaced you in sealed on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else." {
		t.Errorf("the replaced player's old token after a restart got %d mails: %v", len(ms), ms)
	}
	h.send("watcher@example.test", g.Observers[0].Token, "UNOBSERVE")
	mustContain(t, h.reply(sec.note(h.outbox()), "watcher@example.test").Text, "You no longer observe sealed")
	raw, _ = os.ReadFile(h.db.Path())
	sec.notIn(t, "pbemd.db after the restart", raw)
}

// outboxLen counts the mails waiting in the outbox.
func (h *harness) outboxLen() int {
	n := 0
	h.db.View(func(tx *store.Tx) error { n = tx.OutboxLen(); return nil })
	return n
}

// A diplomat removed from a power (replaced, released, ejected, or who
// resigned) who signs on with their password gets the one sentence their
// old reply address gets, not "SIGNON failed", and nothing of the mail is
// done; a wrong password still fails.
func TestRemovedDiplomatSignonGetsTheOneSentence(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE gone standard")
	gm := h.only(h.outbox(), harnessGM).Token
	for _, p := range standardPowers {
		h.send(p+"@example.test", "", "JOIN gone prefer "+p)
	}
	pl, pw := map[string]player{}, map[string]string{}
	ms := h.outbox()
	for _, p := range standardPowers {
		m := h.subject(ms, p+"@example.test", "You are")
		pl[p], pw[p] = player{m.To, m.Token}, passwordIn(m.Text)
	}
	h.send("aide@example.test", "", "JOIN gone as junior of france")
	h.outbox()
	h.as(pl["france"], "ACCEPT aide@example.test")
	ms = h.outbox()
	aide := h.subject(ms, "aide@example.test", "You are")
	pl["aide"], pw["aide"] = player{aide.To, aide.Token}, passwordIn(aide.Text)

	cases := []struct {
		who, power, remove, by string
		sentence               string
	}{
		{"england", "england", "REPLACE england WITH newcomer@example.test", "gm",
			"The GM replaced you in gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{"aide", "france", "RELEASE aide@example.test", "france",
			"The senior diplomat released you from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{"turkey", "turkey", "EJECT turkey", "gm",
			"The GM removed you from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
		{"italy", "italy", "RESIGN", "italy",
			"You resigned from gone on 6 Dec 2026, so I did not act on this mail; write to gm@example.test from scratch for anything else."},
	}
	for _, c := range cases {
		who := pl[c.who]
		if pw[c.who] == "" {
			t.Fatalf("%s got no password", who.addr)
		}
		if c.by == "gm" {
			h.send(harnessGM, gm, c.remove)
		} else {
			h.as(pl[c.by], c.remove)
		}
		h.outbox()
		before := len(h.openOrderSets("gone"))

		h.send(who.addr, "", "SIGNON "+c.power+" gone "+pw[c.who]+"\nF Lon - Nth\nA Par - Bur\nPRESS TO Germany\nhello\nENDPRESS")
		ms := h.outbox()
		if len(ms) != 1 || ms[0].To != who.addr || bodyOf(ms[0]) != c.sentence {
			t.Errorf("%s: SIGNON of %s after it got %d mails:\n%v\nwant the one sentence %q", c.remove, who.addr, len(ms), ms, c.sentence)
		}
		h.as(who, "STATUS")
		if ms := h.outbox(); len(ms) != 1 || bodyOf(ms[0]) != c.sentence {
			t.Errorf("%s: the old reply address got %v, not the same sentence", c.remove, ms)
		}
		if after := len(h.openOrderSets("gone")); after != before {
			t.Errorf("%s: the SIGNON stored orders (%d sets, were %d)", c.remove, after, before)
		}
		h.send(who.addr, "", "SIGNON "+c.power+" gone wrong-password")
		mustContain(t, h.only(h.outbox(), who.addr).Text, "SIGNON failed")
	}
}
