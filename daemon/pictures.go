package daemon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/mailer"
	"pbemd/store"
)

// Pictures in mail.
//
// Every results mail, STATUS reply and MAP reply of a game whose engine is
// an adjudicator.Drawer carries a PNG of the position as an inline
// attachment after the text. A picture is drawn once per game, phase and
// class of readers, however many mails carry it: an engine without hidden
// information (no adjudicator.Viewer) has one class, the public picture
// every reader gets; an engine with hidden information (Empire's fog of
// war, a hand of cards) draws each power's own picture, and observers and
// the GM get the public one. A transaction's pictures are drawn on every
// core when its work is done and before its mails are composed (queue), so
// a mail is queued with its picture or not at all; the outbox keeps each
// picture once for all the mails that carry it (store.OutboxPart).

// mailPicture is one picture of a position for one class of readers.
type mailPicture struct {
	drawer   adjudicator.Drawer
	state    []byte
	results  []byte
	viewer   string
	filename string

	once sync.Once
	enc  []byte // the PNG in base64 lines (mailer.Base64Lines)
	sum  string // the PNG's sha256, short, in hex
	err  error
}

// draw draws and encodes the picture, once.
func (p *mailPicture) draw() {
	p.once.Do(func() {
		pic, err := p.drawer.Draw(p.state, p.results, p.viewer)
		if err != nil {
			p.err = fmt.Errorf("draw %s: %w", p.filename, err)
			return
		}
		buf := bytes.NewBuffer(make([]byte, 0, 160<<10))
		if err := pic.WritePNG(buf); err != nil {
			p.err = fmt.Errorf("encode %s: %w", p.filename, err)
			return
		}
		sum := sha256.Sum256(buf.Bytes())
		p.sum = hex.EncodeToString(sum[:12])
		p.enc = mailer.Base64Lines(buf.Bytes())
		p.state, p.results = nil, nil // drawn: let them go
	})
}

// pictureKey names a picture in a transaction's cache.
type pictureKey struct{ game, phase, viewer string }

// viewerClass is the viewer whose picture a power's reader gets: the power
// itself when the engine has hidden information (it is a Viewer), the
// public picture ("") otherwise. Observers and the GM pass power "".
func viewerClass(e adjudicator.Engine, power string) string {
	if _, hidden := e.(adjudicator.Viewer); hidden {
		return power
	}
	return ""
}

// picture returns the picture of state (after phase, with that phase's
// results; nil results: the position alone) for viewer's class, the same
// value for every mail of the transaction that asks for it; nil when the
// game's engine draws no pictures.
func (tx *txn) picture(g *store.Game, phase string, state, results []byte, power string) *mailPicture {
	e, err := engineFor(g)
	if err != nil || len(state) == 0 {
		return nil
	}
	dr, ok := e.(adjudicator.Drawer)
	if !ok {
		return nil
	}
	viewer := viewerClass(e, power)
	k := pictureKey{g.Name, phase, viewer}
	if p := tx.pictures[k]; p != nil {
		return p
	}
	if tx.pictures == nil {
		tx.pictures = map[pictureKey]*mailPicture{}
	}
	p := &mailPicture{drawer: dr, state: state, results: results, viewer: viewer, filename: g.Name + "-" + phase + ".png"}
	tx.pictures[k] = p
	return p
}

// resultsPicture is the picture of a processed phase for a reader of
// power ("" for observers and the GM).
func (tx *txn) resultsPicture(g *store.Game, rec *store.PhaseRecord, power string) []*mailPicture {
	return pics(tx.picture(g, rec.PhaseID, rec.StateAfter, rec.Data, power))
}

func pics(p *mailPicture) []*mailPicture {
	if p == nil {
		return nil
	}
	return []*mailPicture{p}
}

// drawPictures draws the distinct pictures the mails of tx carry, on
// every core, before they are composed.
func (d *Daemon) drawPictures(tx *txn) {
	if len(tx.pictures) == 0 {
		return
	}
	var todo []*mailPicture
	seen := map[*mailPicture]bool{}
	for _, m := range tx.mails {
		for _, p := range m.Pictures {
			if !seen[p] {
				seen[p] = true
				todo = append(todo, p)
			}
		}
	}
	parallel(len(todo), func(i int) { todo[i].draw() })
	for _, p := range todo {
		if p.err != nil {
			d.log.Error("picture not drawn: the mails go without it", "picture", p.filename, "err", p.err)
		}
	}
}

// attachPictures puts the drawn pictures of m in out, and returns how
// each one's body is named in the outbox (by hole, in order): by the time
// it is queued (so that the outbox's part keys grow at their end, as its
// mails do, and bbolt appends rather than rewrites pages of pictures),
// then the picture's game, phase, viewer and a hash of its bytes.
func attachPictures(m *Outgoing, out *mailer.Outgoing, now time.Time) []string {
	var keys []string
	for _, p := range m.Pictures {
		p.draw() // drawn already in queue; a no-op then
		if p.err != nil {
			out.Text = "(I could not draw the picture of this position this time; the GM can see why in the log.)\n\n" + out.Text
			continue
		}
		out.Attachments = append(out.Attachments, mailer.Attachment{
			Filename: p.filename, ContentType: "image/png", Inline: true, Encoded: p.enc,
		})
		keys = append(keys, fmt.Sprintf("%016x.%s.%s.%s", now.UnixNano(), strings.TrimSuffix(p.filename, ".png"), p.viewer, p.sum))
	}
	return keys
}

// outboxParts turns a composed mail's holes into the outbox's parts.
func outboxParts(c *mailer.Composed, keys []string) []store.OutboxPart {
	if len(c.Holes) == 0 {
		return nil
	}
	parts := make([]store.OutboxPart, len(c.Holes))
	for i, h := range c.Holes {
		parts[i] = store.OutboxPart{Key: keys[i], Off: h.Off, Data: h.Data}
	}
	return parts
}
