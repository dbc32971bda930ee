package server

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"pbemd/adjudicator"
	"pbemd/mailer"
	"pbemd/store"
	"pbemd/store/storetest"
)

// raw fetches, over IMAP, the bytes of the mail in addr's mailbox whose
// Message-ID is id.
func (e *e2e) raw(addr, id string) []byte {
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
	var set imap.UIDSet
	set.AddRange(1, 0)
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range msgs {
		for _, b := range m.BodySection {
			if pm, err := mailer.ParseMail(b.Bytes, "gm@pbemd.localhost"); err == nil && pm.MessageID == id {
				return b.Bytes
			}
		}
	}
	e.t.Fatalf("no mail <%s> in %s's mailbox", id, addr)
	return nil
}

// picture reads the one picture of a mail as it arrived: a
// multipart/mixed whose first part is the text, then an inline image/png
// named file, sent in base64, that decodes to wxh pixels.
func (e *e2e) picture(addr string, m *mailer.Mail, file string, w, h int) []byte {
	e.t.Helper()
	raw := e.raw(addr, m.MessageID)
	typ, parts, err := storetest.ReadParts(raw)
	if err != nil {
		e.t.Fatal(err)
	}
	if typ != "multipart/mixed" || len(parts) != 2 || parts[0].Type != "text/plain" || parts[1].Type != "image/png" {
		e.t.Fatalf("%q to %s is %s with %d parts; want multipart/mixed of text/plain and image/png", m.Subject, addr, typ, len(parts))
	}
	p := parts[1]
	if p.Disposition != "inline" || p.Filename != file {
		e.t.Errorf("%q: the picture is %s %q, want inline %q", m.Subject, p.Disposition, p.Filename, file)
	}
	if !bytes.Contains(raw, []byte("Content-Type: image/png; name="+file+"\r\nContent-Transfer-Encoding: base64\r\n")) {
		e.t.Errorf("%q: the picture's part header is not image/png in base64", m.Subject)
	}
	img, err := png.Decode(bytes.NewReader(p.Data))
	if err != nil {
		e.t.Fatalf("%q: the PNG does not decode: %v", m.Subject, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		e.t.Errorf("%q: picture of %dx%d, want %dx%d", m.Subject, b.Dx(), b.Dy(), w, h)
	}
	if !strings.Contains(string(parts[0].Data), m.Text[:20]) {
		e.t.Errorf("%q: the first part is not the mail's text", m.Subject)
	}
	return p.Data
}

// TestE2EPictures: over the embedded mail server, the results mail of a
// phase carries the picture of the position after it; STATUS the board
// now; MAP S1901M, asked later, the position after S1901M again; MAP of a
// phase not played a sentence and no picture.
func TestE2EPictures(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("pix")
	eng := pl["england"]
	e.send(eng.addr, tokenAddr(eng.token), "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor")
	e.next(eng.addr, "Re:")

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	res := e.next(eng.addr, "Spring 1901 Movement — results")
	var rec *store.PhaseRecord
	if err := e.srv.DB.View(func(tx *store.Tx) (err error) { rec, err = tx.Phase("pix", 0); return err }); err != nil {
		t.Fatal(err)
	}
	std, _ := adjudicator.Lookup("standard")
	pic, err := std.(adjudicator.Drawer).Draw(rec.StateAfter, rec.Data, "")
	if err != nil {
		t.Fatal(err)
	}
	after := e.picture(eng.addr, res, "pix-S1901M.png", pic.Width, pic.Height)
	var want bytes.Buffer
	if err := pic.WritePNG(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, want.Bytes()) {
		t.Error("the results picture is not the position after Spring 1901")
	}
	e.picture(e2eGM, e.next(e2eGM, "Spring 1901 Movement — results"), "pix-S1901M.png", pic.Width, pic.Height)

	e.send(eng.addr, tokenAddr(eng.token), "STATUS")
	status := e.next(eng.addr, "Re:")
	mustContain(t, status.Text, "Fall 1901 Movement")
	if now := e.picture(eng.addr, status, "pix-F1901M.png", pic.Width, pic.Height); bytes.Equal(now, after) {
		t.Error("STATUS shows the results picture (with the orders drawn), not the board now")
	}

	e.send(eng.addr, tokenAddr(eng.token), "F Nth - Nwy")
	e.next(eng.addr, "Re:")
	e.clock.Add(72 * time.Hour) // Fall orders are due on Friday (the weekly calendar)
	e.srv.Kick()
	e.next(eng.addr, "Fall 1901 Movement — results")

	e.send(eng.addr, tokenAddr(eng.token), "MAP S1901M")
	old := e.next(eng.addr, "Re:")
	mustContain(t, old.Text, "Map of pix after Spring 1901 Movement (S1901M).")
	if got := e.picture(eng.addr, old, "pix-S1901M.png", pic.Width, pic.Height); !bytes.Equal(got, after) {
		t.Error("MAP S1901M is not the position after Spring 1901")
	}

	e.send(eng.addr, tokenAddr(eng.token), "MAP S1905M")
	none := e.next(eng.addr, "Re:")
	mustContain(t, none.Text, "MAP S1905M: pix has no such phase in its history; send HISTORY for the list of phases, or MAP for the board now.")
	if typ, parts, err := storetest.ReadParts(e.raw(eng.addr, none.MessageID)); err != nil || typ != "text/plain" || len(parts) != 1 {
		t.Errorf("the answer to MAP of no phase is %s with %d parts (%v)", typ, len(parts), err)
	}
}
