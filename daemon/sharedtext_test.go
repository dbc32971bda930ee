package daemon

import (
	"bytes"
	"net/mail"
	"strings"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// sharedPart cuts a mail's shared text out of the composed bytes into a
// part named by a hash of them: the mail filled back (the part and the
// pictures' holes in place) is byte for byte what was composed, two mails
// of the same text get the same part, and a mail whose Shared is not the
// beginning of its text, or is short, is kept whole.
func TestSharedPartCutsTheSharedText(t *testing.T) {
	shared := strings.Repeat("Spring 1901 Movement — results: F Lon - Nth  succeeded\n", 20)
	composed := func(own, sh string) (*Outgoing, *mailer.Composed) {
		m := &Outgoing{Text: shared + own + "\n-- \nIs this mail mine? Send VERIFY 7KQ2-M9XD to gm@example.test\n", Shared: newSharedText(sh), Game: "g1",
			Pictures: []*mailPicture{{filename: "g1-S1901M.png"}}}
		out := &mailer.Outgoing{From: mail.Address{Address: "gm@x.test"}, To: []mail.Address{{Address: "p@x.test"}}, Subject: "results",
			Text: m.Text, MessageID: "1.2@x.test", Date: time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)}
		attachPictures(m, out)
		c, err := mailer.Compose(out)
		if err != nil {
			t.Fatal(err)
		}
		return m, c
	}
	fill := func(raw []byte, parts []store.OutboxPart) []byte {
		var holes []mailer.Hole
		for _, p := range parts {
			holes = append(holes, mailer.Hole{Off: p.Off, Data: p.Data})
		}
		return mailer.Fill(raw, holes)
	}
	var key string
	for _, own := range []string{"\nFall 1901 Movement: orders due by Thu 10 Dec 2026 21:00 UTC\n", "\n--- for you only ---\nsecret\n"} {
		m, c := composed(own, shared)
		raw, parts := sharedPart(m, c.Raw, outboxParts(c))
		if len(parts) != 2 || !strings.HasPrefix(parts[0].Key, "text/g1/") || parts[1].Key != "" || len(raw) > len(c.Raw)-len(shared) {
			t.Fatalf("parts %+v, %d of %d bytes left: the shared text is not cut out", parts, len(raw), len(c.Raw))
		}
		if key != "" && parts[0].Key != key {
			t.Errorf("the same text made parts %s and %s", key, parts[0].Key)
		}
		key = parts[0].Key
		if got := fill(raw, parts); !bytes.Equal(got, c.Raw) {
			t.Errorf("filled back, the mail is not what was composed:\n%s\nwant\n%s", got, c.Raw)
		}
	}
	for name, sh := range map[string]string{"not its beginning": "x" + shared, "short": shared[:100]} {
		m, c := composed("", sh)
		if raw, parts := sharedPart(m, c.Raw, outboxParts(c)); !bytes.Equal(raw, c.Raw) || len(parts) != 1 {
			t.Errorf("%s: the mail was cut (%d parts)", name, len(parts))
		}
	}
}
