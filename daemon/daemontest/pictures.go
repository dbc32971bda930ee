package daemontest

import (
	"bytes"
	"image/png"
	"testing"

	"pbemd/adjudicator"
	"pbemd/store"
)

// OnePicture checks that m is a multipart/mixed mail whose text comes
// first and whose one picture follows, an inline image/png named file
// that decodes and is at least 1000 pixels wide, and returns the PNG.
func OnePicture(t testing.TB, m Mail, file string) []byte {
	t.Helper()
	if m.Type != "multipart/mixed" || len(m.Parts) != 2 || m.Parts[0].Type != "text/plain" {
		var types []string
		for _, p := range m.Parts {
			types = append(types, p.Type)
		}
		t.Fatalf("mail to %s %q is %s with parts %v; want multipart/mixed of text/plain, image/png", m.To, m.Subject, m.Type, types)
	}
	p := m.Parts[1]
	if p.Type != "image/png" || p.Disposition != "inline" || p.Filename != file {
		t.Fatalf("mail to %s %q: picture part %s, %s, %q; want image/png, inline, %q", m.To, m.Subject, p.Type, p.Disposition, p.Filename, file)
	}
	img, err := png.Decode(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatalf("mail to %s %q: the picture does not decode: %v", m.To, m.Subject, err)
	}
	if b := img.Bounds(); b.Dx() < 1000 {
		t.Errorf("mail to %s: picture %dx%d, want at least 1000 wide", m.To, b.Dx(), b.Dy())
	}
	return p.Data
}

// Drawn is the PNG a variant's engine draws of a position for viewer
// ("" the public view).
func Drawn(t testing.TB, variant string, state, results []byte, viewer string) []byte {
	t.Helper()
	e, ok := adjudicator.Lookup(variant)
	if !ok {
		t.Fatalf("no engine %q", variant)
	}
	pic, err := e.(adjudicator.Drawer).Draw(state, results, viewer)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := pic.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Phase reads the history record of one processed phase of a game.
func (tb *Table) Phase(game string, phase int) *store.PhaseRecord {
	tb.T.Helper()
	var rec *store.PhaseRecord
	if err := tb.DB.View(func(tx *store.Tx) (err error) { rec, err = tx.Phase(game, phase); return err }); err != nil {
		tb.T.Fatal(err)
	}
	return rec
}

// State reads a game's current engine state.
func (tb *Table) State(game string) []byte {
	tb.T.Helper()
	var st []byte
	if err := tb.DB.View(func(tx *store.Tx) (err error) { st, err = tx.State(game); return err }); err != nil {
		tb.T.Fatal(err)
	}
	return st
}
