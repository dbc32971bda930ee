package daemon_test

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// TestVerifyNamesRecipientsOnlyToThemAndTheGM: VERIFY of a press's code
// confirms the mail, its subject and time to anyone, but names the
// address it went to only to that address and to the game's GM: not to a
// stranger, not to another player (a code seen on a mail shown around
// would name a player's address). A stranger who forges the recipient's
// From gets the answer at the recipient's address, not at his own. A code
// of the earlier, shorter form still verifies.
func TestVerifyNamesRecipientsOnlyToThemAndTheGM(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "anon", "")
	tb.As(pl["persia"], "PRESS TO Greece\nOur fleets will meet at Crete.\nENDPRESS")
	press := daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Press from Persia")
	code := codeOf(t, press)
	greece := pl["greece"].Addr
	confirms := []string{"VERIFY " + code + ": yes, I sent", "Subject: [anon] Press from Persia", "Sent: 2026-12-06 21:00 UTC"}

	tb.Send("stranger@example.test", "", "VERIFY "+code)
	v := daemontest.One(t, tb.Outbox(), "stranger@example.test", "Re:").Text
	daemontest.Contains(t, v, confirms...)
	daemontest.Contains(t, v, "but not to stranger@example.test")
	daemontest.Lacks(t, v, greece)

	tb.As(pl["rome"], "VERIFY "+code)
	v = daemontest.One(t, tb.Outbox(), pl["rome"].Addr, "Re:").Text
	daemontest.Contains(t, v, confirms...)
	daemontest.Lacks(t, v, greece)

	tb.As(pl["greece"], "VERIFY "+code)
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), greece, "Re:").Text, append(confirms, "To: "+greece)...)

	tb.Send(daemontest.GM, gm, "VERIFY "+code)
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text, append(confirms, "To: "+greece)...)

	// A forged From: the answer goes to that address, whose reader had
	// the mail; the forger gets nothing.
	tb.Send(greece, "", "VERIFY "+code)
	ms := tb.Outbox()
	if len(ms) != 1 || ms[0].To != greece {
		t.Fatalf("VERIFY from greece's address (no token): want one answer to %s, got %d mails", greece, len(ms))
	}
	daemontest.Contains(t, ms[0].Text, "To: "+greece)

	old := store.Code{Code: "7KQ2-M9XD", MsgID: "old@example.test", To: []string{greece}, Subject: "[anon] Old press", Sent: daemontest.Start, Game: "anon"}
	if err := tb.DB.Update(func(tx *store.Tx) error { return tx.PutCode(old) }); err != nil {
		t.Fatal(err)
	}
	tb.As(pl["greece"], "VERIFY 7kq2-m9xd")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), greece, "Re:").Text,
		"VERIFY 7KQ2-M9XD: yes, I sent that mail", "To: "+greece, "Subject: [anon] Old press")
}

// TestBurstCodesAreRandomAfterTheirPrefix: the verification codes of a
// deadline burst's mails share their first four letters (the minute and
// the transaction, which keep them together in the store) and nothing
// else: nine letters of 31 follow, at least 40 bits, and every one of
// them takes most of the alphabet's letters across the burst.
func TestBurstCodesAreRandomAfterTheirPrefix(t *testing.T) {
	const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	tb := daemontest.New(t)
	daemontest.Populate(t, tb.DB, 12, daemontest.Start.Add(time.Hour))
	tb.Wait(time.Hour + 30*time.Second)
	ms := tb.Outbox()
	if len(ms) < 90 {
		t.Fatalf("the burst sent %d mails, want 12 games' results", len(ms))
	}
	shape := regexp.MustCompile(`^[` + alphabet + `]{4}-[` + alphabet + `]{4}-[` + alphabet + `]{5}$`)
	const randomLetters = 9
	if bits := randomLetters * math.Log2(float64(len(alphabet))); bits < 40 {
		t.Fatalf("%d random letters of %d are %.1f bits", randomLetters, len(alphabet), bits)
	}
	seen := map[string]bool{}
	letters := make([]map[rune]bool, randomLetters)
	for i := range letters {
		letters[i] = map[rune]bool{}
	}
	var prefix string
	for _, m := range ms {
		code := codeOf(t, m)
		if !shape.MatchString(code) {
			t.Fatalf("code %q is not four letters of the alphabet, then nine random ones (XXXX-XXXX-XXXXX)", code)
		}
		if seen[code] {
			t.Fatalf("code %s given twice", code)
		}
		seen[code] = true
		if prefix == "" {
			prefix = code[:4]
		} else if code[:4] != prefix {
			t.Errorf("codes of one burst's transaction begin %s and %s", prefix, code[:4])
		}
		for i, c := range strings.ReplaceAll(code[5:], "-", "") {
			letters[i][c] = true
		}
	}
	for i, l := range letters {
		// 96 draws of 31 letters miss about 1 of them; time or a count
		// would give one or a few.
		if len(l) < 20 {
			t.Errorf("random letter %d of the burst's %d codes took only %d values", i+1, len(ms), len(l))
		}
	}
}
