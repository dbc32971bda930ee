package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startStandard creates a standard game and seats its seven powers; it
// returns each power's player (address and reply token).
func startStandard(t *testing.T, h *harness, name string) map[string]player {
	t.Helper()
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE "+name+" standard")
	h.outbox()
	pl := map[string]player{}
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	for _, p := range powers {
		h.send(p+"@example.test", "", "JOIN "+name+" prefer "+p)
	}
	ms := h.outbox()
	for _, p := range powers {
		m := h.subject(ms, p+"@example.test", "You are")
		pl[p] = player{p + "@example.test", m.Token}
	}
	return pl
}

// TestOutlookReplyInGerman: a player whose Outlook speaks German answers an
// acknowledgement with one new order above the original, which Outlook
// quotes under "Von: / Gesendet: / An: / Betreff:" without ">". Only the
// typed order is stored: the quoted standing orders are not read as the
// player's, and the acknowledgement lists no misorder.
func TestOutlookReplyInGerman(t *testing.T) {
	h := newHarness(t)
	pl := startStandard(t, h, "welt")
	h.as(pl["germany"], "A Mun H\nF Kie - Den\nA Ber - Pru")
	ack := h.only(h.outbox(), "germany@example.test")
	mustContain(t, ack.Text, "A Mun H", "F Kie - Den", "A Ber - Pru")

	reply := "A Mun - Ruh\n\nViele Grüße\nJürgen\n\n" +
		"Von: pbemd game master <gm@example.test>\n" +
		"Gesendet: Montag, 7. Dezember 2026 14:01\n" +
		"An: germany@example.test\n" +
		"Betreff: " + ack.Subject + "\n\n" + ack.Text
	h.as(pl["germany"], reply)
	got := h.only(h.outbox(), "germany@example.test")
	mustContain(t, got.Text, "A Mun - Ruh", "F Kie - Den", "A Ber - Pru")
	for _, bad := range []string{"A Mun H", "Please look again", "replaced by the later order", "\n  line "} {
		if strings.Contains(got.Text, bad) {
			t.Errorf("the acknowledgement says %q:\n%s", bad, got.Text)
		}
	}
}

// TestCorporateSignatureIsOneNote: a signature block written without "-- "
// below the orders is one note in the acknowledgement, not a misorder a
// line.
func TestCorporateSignatureIsOneNote(t *testing.T) {
	h := newHarness(t)
	pl := startStandard(t, h, "firma")
	h.as(pl["england"], "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n\n"+
		"John Smith\nSenior Account Manager | Acme Logistics Ltd\nT: +44 20 7946 0958 | M: +44 7700 900123\n"+
		"This e-mail and any attachments are confidential and intended solely for the addressee.")
	got := h.only(h.outbox(), "england@example.test")
	mustContain(t, got.Text, "F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor", "line 5: John Smith", "ignored as a signature")
	if n := strings.Count(got.Text, "\n  line "); n != 1 {
		t.Errorf("%d lines reported, want the one note:\n%s", n, got.Text)
	}
}

// TestUnmarkedResultsCopyIsQuoted: a reply that carries a copy of the
// results below the orders with nothing to mark it (no ">", no
// attribution, no header block, as some clients and hand-pasters send):
// its lines repeat the results the player was sent word for word, so
// they are quoted text, not misorders; the orders above are read.
func TestUnmarkedResultsCopyIsQuoted(t *testing.T) {
	h := newHarness(t)
	pl := startStandard(t, h, "kopie")
	h.as(pl["england"], "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor")
	h.outbox()
	h.clock.Add(49 * time.Hour)
	h.tick()
	results := h.subject(h.outbox(), "england@example.test", "results")
	h.as(pl["england"], "F Nth - Hol\nF Nwg - Nwy\nA Yor - Lon\n\n"+results.Text)
	got := h.only(h.outbox(), "england@example.test")
	mustContain(t, got.Text, "F Nth - Hol", "F Nwg - Nwy", "A Yor - Lon")
	if strings.Contains(got.Text, "Please look again") {
		t.Errorf("the copy of the results is reported:\n%s", got.Text)
	}
}

// TestWorldRepliesThroughTheDaemon sends every reply of the corpus
// (testdata/orders/world, read by the parser alone in
// adjudicator/diplomacy's TestWorldReplies) as Germany's mail in a
// standard game and reads the acknowledgement Germany gets: the typed
// orders stand, nothing is reported but a signature's one note.
func TestWorldRepliesThroughTheDaemon(t *testing.T) {
	files, err := filepath.Glob("../testdata/orders/world/*.txt")
	if err != nil || len(files) < 60 {
		t.Fatalf("%d replies (%v)", len(files), err)
	}
	h := newHarness(t)
	pl := startStandard(t, h, "welt")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var expect []string
		signature := false
		text := string(raw)
		for strings.HasPrefix(text, "@") {
			line, rest, _ := strings.Cut(text, "\n")
			text = rest
			if v, ok := strings.CutPrefix(line, "@expect "); ok {
				expect = append(expect, v)
			}
			signature = signature || line == "@signature"
		}
		name := filepath.Base(f)
		h.clock.Add(10 * time.Minute) // a player's pace, under the answers' rate limit
		h.as(pl["germany"], text)
		ms := to(h.outbox(), "germany@example.test")
		if len(ms) != 1 {
			t.Fatalf("%s: %d answers", name, len(ms))
		}
		ack := ms[0]
		standing, _, _ := strings.Cut(ack.Text, "\n\n-- \n")
		for _, o := range expect {
			if !strings.Contains(standing, "\n  "+o+"\n") {
				t.Errorf("%s: %q is not among the standing orders:\n%s", name, o, ack.Text)
			}
		}
		if n := strings.Count(ack.Text, "\n  line "); signature && (n != 1 || !strings.Contains(ack.Text, "ignored as a signature")) || !signature && n != 0 {
			t.Errorf("%s: %d lines reported:\n%s", name, n, ack.Text)
		}
	}
}

// TestListVariants: LIST VARIANTS answers a stranger with every variant
// CREATE knows, its players and its title.
func TestListVariants(t *testing.T) {
	h := newHarness(t)
	h.send("newcomer@example.test", "", "LIST VARIANTS")
	got := h.only(h.outbox(), "newcomer@example.test")
	for _, name := range Variants() {
		if !strings.Contains(got.Text, "  "+name+" ") {
			t.Errorf("LIST VARIANTS does not name %s:\n%s", name, got.Text)
		}
	}
	mustContain(t, got.Text, "CREATE <game> <variant>", "2 players")
}
