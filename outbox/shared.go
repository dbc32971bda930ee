package outbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/quotedprintable"
	"strings"
	"sync"

	"pbemd/store"
)

// minShared is the least shared text kept as a part of its own.
const minShared = 512

// Shared is a text several mails say word for word (a phase's public
// results, in every results mail of the game): whole lines of each
// mail's text. The outbox keeps it once for them all, as a part named by
// a hash of its bytes; each mail's bytes are the same either way. Its
// encodings are made once, by the first mail that needs them.
type Shared struct {
	text string
	once sync.Once
	encs [][]byte // as quoted-printable lines, and as lines as they are
	keys []string // the part's key for each
}

// NewShared returns the shared text; it must be whole lines (end with a
// line break).
func NewShared(text string) *Shared { return &Shared{text: text} }

func (sh *Shared) encodings() ([][]byte, []string) {
	sh.once.Do(func() {
		lines := []byte(crlfLines(sh.text))
		var qp bytes.Buffer
		w := quotedprintable.NewWriter(&qp)
		w.Write(lines)
		w.Close()
		sh.encs = [][]byte{qp.Bytes(), lines}
		for _, enc := range sh.encs {
			sum := sha256.Sum256(enc)
			sh.keys = append(sh.keys, "text/"+hex.EncodeToString(sum[:16]))
		}
	})
	return sh.encs, sh.keys
}

// cut cuts the shared text, as the composed mail raw holds it, out of
// raw and into a part of its own, placed among parts by its offset (the
// holes after it move up). The bytes are looked for as the text's
// transfer encoding makes them (quoted-printable, line by line, or as
// they are), before the first hole; when they are not found, or the text
// is short or not whole lines, raw and parts come back as they are.
// Either way the mail reads back (Assemble) byte for byte as composed.
func (sh *Shared) cut(raw []byte, parts []store.OutboxPart) ([]byte, []store.OutboxPart) {
	if len(sh.text) < minShared || !strings.HasSuffix(sh.text, "\n") {
		return raw, parts
	}
	encs, keys := sh.encodings()
	for i, enc := range encs {
		off := bytes.Index(raw, enc)
		if off < 0 || off > 0 && raw[off-1] != '\n' || (len(parts) > 0 && parts[0].Off < off+len(enc)) {
			continue
		}
		cut := make([]byte, 0, len(raw)-len(enc))
		cut = append(append(cut, raw[:off]...), raw[off+len(enc):]...)
		out := append(make([]store.OutboxPart, 0, len(parts)+1), store.OutboxPart{Key: keys[i], Off: off, Data: enc})
		for _, p := range parts {
			p.Off -= len(enc)
			out = append(out, p)
		}
		return cut, out
	}
	return raw, parts
}

// crlfLines ends every line of s with CRLF, as a composed mail's text
// has it.
func crlfLines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}
