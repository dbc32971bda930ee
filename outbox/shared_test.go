package outbox

import (
	"bytes"
	"net/mail"
	"strings"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// composed composes a mail of text with one picture's hole after it, and
// returns it with its parts as Prepare makes them before the shared text
// is cut.
func composed(t *testing.T, text string) (*mailer.Composed, []store.OutboxPart) {
	t.Helper()
	c, err := mailer.Compose(&mailer.Outgoing{From: mail.Address{Address: "gm@x.test"}, To: []mail.Address{{Address: "p@x.test"}}, Subject: "results",
		Text: text, MessageID: "1.2@x.test", Date: time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC),
		Attachments: []mailer.Attachment{{Filename: "g1-S1901M.png", ContentType: "image/png", Inline: true, Encoded: []byte{}}}})
	if err != nil {
		t.Fatal(err)
	}
	var parts []store.OutboxPart
	for _, h := range c.Holes {
		parts = append(parts, store.OutboxPart{Off: h.Off, File: true})
	}
	return c, parts
}

// TestSharedTextIsCutOut: a mail's shared text is cut out of the composed
// bytes into a part named by a hash of them: the mail assembled back (the
// part and the picture's hole in place) is byte for byte what was
// composed, two mails of the same text get the same part, wherever it is
// among their lines, and a text that is short, or not whole lines of the
// mail, is kept whole.
func TestSharedTextIsCutOut(t *testing.T) {
	shared := strings.Repeat("Spring 1901 Movement — results: F Lon - Nth  succeeded\n", 20)
	sign := "\n-- \npbemd game master · verification code 7KQ2-M9XD\n"
	sh := NewShared(shared)
	var key string
	for _, text := range []string{
		shared + "\nFall 1901 Movement: orders due by Thu 10 Dec 2026 21:00 UTC\n" + sign,
		"Your power, England: 3 centres.\n\n" + shared + "\n--- for you only ---\nsecret\n" + sign,
	} {
		c, parts := composed(t, text)
		raw, parts := sh.cut(c.Raw, parts)
		if len(parts) != 2 || !strings.HasPrefix(parts[0].Key, "text/") || !parts[1].File || len(raw) > len(c.Raw)-len(shared) {
			t.Fatalf("parts %+v, %d of %d bytes left: the shared text is not cut out", parts, len(raw), len(c.Raw))
		}
		if key != "" && parts[0].Key != key {
			t.Errorf("the same text made parts %s and %s", key, parts[0].Key)
		}
		key = parts[0].Key
		if got := Assemble(store.OutboxMessage{Raw: raw, Parts: parts}); !bytes.Equal(got, c.Raw) {
			t.Errorf("assembled back, the mail is not what was composed:\n%s\nwant\n%s", got, c.Raw)
		}
	}
	for name, text := range map[string]string{"not whole lines": shared[5:], "short": shared[:100]} {
		c, parts := composed(t, shared+sign)
		if raw, parts := NewShared(text).cut(c.Raw, parts); !bytes.Equal(raw, c.Raw) || len(parts) != 1 {
			t.Errorf("%s: the mail was cut (%d parts)", name, len(parts))
		}
	}
}
