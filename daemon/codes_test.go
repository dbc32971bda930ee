package daemon

import (
	"slices"
	"strings"
	"testing"
)

// repeatingRandom hands out the same random bytes twice in a row (all
// below 248, so none is drawn again), so every second verification code
// drawn is the one drawn before it.
type repeatingRandom struct {
	n    int
	last []byte
}

func (r *repeatingRandom) Read(p []byte) (int, error) {
	if r.n%2 == 0 {
		r.last = make([]byte, len(p))
		for i := range r.last {
			r.last[i] = byte((r.n*7 + i*13) % 248)
		}
	}
	r.n++
	return copy(p, r.last), nil
}

func codeOf(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "Send VERIFY ")
	if i < 0 {
		t.Fatalf("no verification code in:\n%s", text)
	}
	return strings.Fields(text[i+len("Send VERIFY "):])[0]
}

// TestVerificationCodesNeverRepeat: a verification code drawn again is
// drawn anew, whether the mail that had it was committed before or is in
// the same transaction, so VERIFY always names the one mail that carried
// it (its Message-ID); and the codes of one minute share their first three characters and
// those of one transaction their fourth (so a burst's codes sit side by
// side in the store, each commit's after the last's) while the rest differ.
func TestVerificationCodesNeverRepeat(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g1", "")
	h.outbox()
	old := codeRandom
	codeRandom = &repeatingRandom{}
	defer func() { codeRandom = old }()

	h.send("x@example.test", "", "LIST")
	h.send("y@example.test", "", "LIST") // its first draw is x's code, committed
	h.as(tok["red"], "PRESS TO blue\nShall we share?\nENDPRESS")
	ms := h.outbox()
	if len(ms) < 4 {
		t.Fatalf("want the two LIST answers, the press and its acknowledgement; got %d mails", len(ms))
	}
	seen := map[string]string{}
	slots := map[string]string{} // recipient → the fourth character of its code
	var prefix string
	for _, m := range ms {
		slots[m.To] = codeOf(t, m.Text)[3:4]
		code := codeOf(t, m.Text)
		if other, dup := seen[code]; dup {
			t.Fatalf("code %s given to the mail to %v and to the mail to %s", code, m.To, other)
		}
		seen[code] = m.To
		if prefix == "" {
			prefix = code[:3]
		} else if code[:3] != prefix {
			t.Errorf("codes of one minute begin %s and %s", prefix, code[:3])
		}
	}
	if slots["x@example.test"] == slots["y@example.test"] {
		t.Errorf("the answers to two mails, two transactions, have codes of one slot %s", slots["x@example.test"])
	}
	var pressSlots []string
	for to, slot := range slots {
		if to != "x@example.test" && to != "y@example.test" {
			pressSlots = append(pressSlots, slot)
		}
	}
	if len(pressSlots) < 2 || len(slices.Compact(slices.Sorted(slices.Values(pressSlots)))) != 1 {
		t.Errorf("the press and its acknowledgement, one transaction, have codes of slots %v", pressSlots)
	}
	codeRandom = old
	for _, m := range ms {
		code := codeOf(t, m.Text)
		asker := "v" + strings.ToLower(strings.ReplaceAll(code, "-", "")) + "@example.test"
		h.send(asker, "", "VERIFY "+code)
		mustContain(t, h.only(h.outbox(), asker).Text, "yes, I sent that mail", "Message-ID: <"+m.Parsed.MessageID+">")
	}
}
