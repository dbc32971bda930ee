package demo

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/mailer"
	"pbemd/store/storetest"
)

// TestDemoWritesMails: with Options.Mails, every mail each player and the
// GM read is written as a .eml file in a folder per mailbox, as many as
// they read, and a file opens as the mail it was: a results mail parses
// with its text first and the picture of the position after it.
func TestDemoWritesMails(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays a demo year: skipped with -short")
	}
	dir := t.TempDir()
	res, err := Run(demoContext(t), Options{Seed: 3, Years: 1, Logger: testLogger(t), Mails: dir, Timeout: mailTimeout})
	if err != nil {
		t.Fatal(err)
	}
	people := append(append([]Player(nil), res.Players...), res.GM)
	for _, p := range people {
		files, err := filepath.Glob(filepath.Join(dir, p.Address, "*.eml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(p.Inbox) || len(files) == 0 {
			t.Errorf("%s read %d mails; %d .eml files written", p.Address, len(p.Inbox), len(files))
		}
	}
	p := res.Players[0]
	for i, r := range p.Inbox {
		if !strings.Contains(r.Subject, "results") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, p.Address, fmt.Sprintf("%04d.eml", i)))
		if err != nil {
			t.Fatal(err)
		}
		m, err := mailer.ParseMail(raw, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != r.Subject || m.MessageID != r.MessageID || m.Text != r.Text {
			t.Fatalf("%04d.eml is %q <%s>; %s read %q <%s> there", i, m.Subject, m.MessageID, p.Address, r.Subject, r.MessageID)
		}
		typ, parts, err := storetest.ReadParts(raw)
		if err != nil {
			t.Fatal(err)
		}
		if typ != "multipart/mixed" || len(parts) != 2 || parts[1].Type != "image/png" || !strings.HasSuffix(parts[1].Filename, ".png") {
			t.Fatalf("%04d.eml (%q) is %s with %d parts: no picture", i, r.Subject, typ, len(parts))
		}
		if _, err := png.Decode(bytes.NewReader(parts[1].Data)); err != nil {
			t.Fatalf("%04d.eml: the picture does not decode: %v", i, err)
		}
		return
	}
	t.Fatalf("%s read no results mail", p.Address)
}
