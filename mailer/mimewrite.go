package mailer

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"mime"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The MIME writer of Compose: appenders that write header fields, text
// bodies and base64 bodies straight into one buffer. They write the bytes
// go-message's writer (message.CreateWriter with mime/quotedprintable)
// wrote before issue 17, byte for byte: TestComposeSameAsGoMessage
// compares the two.

// Header lines are folded as go-message's textproto folds them: at the
// last blank before column 76, else (a long word) at the last blank
// before column 998, else (a word of more than 998 bytes) cut there with
// a blank put in.
const (
	foldSoft = 76
	foldHard = 998
)

// appendField appends the header field k: v and its CRLF, folded.
func appendField(b []byte, k, v string) []byte {
	if len(k)+2+len(v) <= foldSoft {
		b = append(b, k...)
		b = append(b, ": "...)
		b = append(b, v...)
		return append(b, '\r', '\n')
	}
	return appendFolded(b, k, v)
}

// fieldStart begins a header field whose value the caller appends to the
// returned buffer; endField then ends it. start is where the field began.
func fieldStart(b []byte, k string) (_ []byte, start int) {
	start = len(b)
	b = append(b, k...)
	return append(b, ": "...), start
}

// endField ends the field k begun at start, folding it when it is long
// (rare: the value is copied out to be written again).
func endField(b []byte, k string, start int) []byte {
	if len(b)-start <= foldSoft {
		return append(b, '\r', '\n')
	}
	v := string(b[start+len(k)+2:])
	return appendFolded(b[:start], k, v)
}

// appendFolded writes k: v folded as go-message's formatHeaderField does.
// Values hold no CR or LF (Compose refuses them).
func appendFolded(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	if v == "" {
		return append(b, '\r', '\n')
	}
	keylen := len(k) + 2
	for len(v) > 0 {
		cut, folding, ok := foldLine(v, foldSoft-keylen)
		if !ok {
			cut, folding, _ = foldLine(v, foldHard-keylen)
		}
		b = append(b, v[:cut]...)
		b = append(b, folding...)
		v = v[cut:]
		keylen = 0
	}
	return b
}

// foldLine says where to cut v for a line of at most maxlen bytes: v[:cut]
// then folding; ok is false when no blank allowed a fold (folding then
// inserts one).
func foldLine(v string, maxlen int) (cut int, folding string, ok bool) {
	foldBefore := maxlen + 1
	if foldBefore > len(v) {
		return len(v), "\r\n", true
	}
	if foldBefore < 3 {
		// a field name of 74 bytes or more: go-message would panic here
		return len(v), "\r\n", false
	}
	cut = strings.LastIndexAny(v[:foldBefore], " \t")
	if cut == 0 { // the blank of the previous fold
		cut = foldBefore - 1
	} else if cut < 0 {
		cut = foldBefore - 2
	}
	if v[cut] == ' ' || v[cut] == '\t' {
		return cut, "\r\n", true
	}
	return cut, "\r\n ", false
}

// appendHeaderWords appends s as a Subject is written: as it is when it is
// ASCII, else as RFC 2047 Q encoded-words (what mime.QEncoding.Encode
// writes for UTF-8).
func appendHeaderWords(b []byte, s string) []byte {
	if !hasNonASCII(s) {
		return append(b, s...)
	}
	return appendQWords(b, s)
}

// appendQWords writes s, valid UTF-8, as Q encoded-words of at most 75
// characters, never splitting a character.
func appendQWords(b []byte, s string) []byte {
	const open = "=?utf-8?q?"
	const maxContent = 75 - len("=?UTF-8?q?") - len("?=")
	b = append(b, open...)
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		size, enc := 1, 1
		if c < ' ' || c > '~' || c == '=' || c == '?' || c == '_' {
			_, size = utf8.DecodeRuneInString(s[i:])
			enc = 3 * size
		}
		if n+enc > maxContent {
			b = append(b, "?= "...)
			b = append(b, open...)
			n = 0
		}
		for _, c := range []byte(s[i : i+size]) { // the character's bytes
			switch {
			case c == ' ':
				b = append(b, '_')
			case c > ' ' && c <= '~' && c != '=' && c != '?' && c != '_':
				b = append(b, c)
			default:
				b = append(b, '=', upperHex[c>>4], upperHex[c&15])
			}
		}
		n += enc
		i += size
	}
	return append(b, "?="...)
}

const upperHex = "0123456789ABCDEF"

// appendAddress writes a as net/mail's Address.String does, its display
// name cleaned of control characters. Plain ASCII names and addresses are
// written here; the rest by net/mail.
func appendAddress(b []byte, a mail.Address) []byte {
	name := cleanHeaderText(a.Name)
	if !plainLocalPart(a.Address) || !printableASCII(name) {
		a.Name = name
		return append(b, a.String()...)
	}
	if name != "" {
		b = append(b, '"')
		for i := 0; i < len(name); i++ {
			if c := name[i]; c == '"' || c == '\\' {
				b = append(b, '\\', c)
			} else {
				b = append(b, c)
			}
		}
		b = append(b, '"', ' ')
	}
	b = append(b, '<')
	b = append(b, a.Address...)
	return append(b, '>')
}

func appendAddresses(b []byte, l []mail.Address) []byte {
	for i, a := range l {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendAddress(b, a)
	}
	return b
}

// plainLocalPart reports whether the local part of addr (one @, as
// Compose checks) is an ASCII dot-atom, which net/mail writes unquoted.
func plainLocalPart(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return false
	}
	local := addr[:at]
	for i := 0; i < len(local); i++ {
		c := local[i]
		if c == '.' {
			if i == 0 || local[i-1] == '.' || i == len(local)-1 {
				return false
			}
			continue
		}
		if !atext[c] {
			return false
		}
	}
	return true
}

// atext are the ASCII characters of RFC 5322 atoms.
var atext = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = !strings.ContainsRune(`()<>[]:;@\,".`, c)
	}
	return t
}()

// appendDate writes t as time.RFC1123Z does, for years 1000 to 9999.
func appendDate(b []byte, t time.Time) []byte {
	year, month, day := t.Date()
	if year < 1000 || year > 9999 {
		return t.AppendFormat(b, time.RFC1123Z)
	}
	hour, min, sec := t.Clock()
	_, offset := t.Zone()
	b = append(b, t.Weekday().String()[:3]...)
	b = append(b, ',', ' ', byte('0'+day/10), byte('0'+day%10), ' ')
	b = append(b, month.String()[:3]...)
	b = append(b, ' ', byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), ' ',
		byte('0'+hour/10), byte('0'+hour%10), ':', byte('0'+min/10), byte('0'+min%10), ':', byte('0'+sec/10), byte('0'+sec%10), ' ')
	zone := offset / 60 // minutes, as time's -0700 rounds them
	if zone < 0 {
		b = append(b, '-')
		zone = -zone
	} else {
		b = append(b, '+')
	}
	h, m := zone/60, zone%60
	return append(b, byte('0'+h/10), byte('0'+h%10), byte('0'+m/10), byte('0'+m%10))
}

// printableASCII reports whether s holds only printable ASCII and blanks.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\t' {
			return false
		}
	}
	return true
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// appendBoundary appends a fresh random MIME boundary.
func appendBoundary(b []byte) []byte {
	b = append(b, "pbemd-"...)
	// the random bytes are read into the buffer (a local array would
	// escape to the heap under the race detector), then written in hex
	b = slices.Grow(b, 30)
	var r [15]byte
	rand.Read(b[len(b) : len(b)+15])
	copy(r[:], b[len(b):len(b)+15])
	return hex.AppendEncode(b, r[:])
}

const boundaryLen = len("pbemd-") + 30

// textBody is a text part's body as Compose writes it: CRLF line ends,
// ending in one, 7bit when that is ASCII without NUL and with lines of at
// most 899 bytes, quoted-printable otherwise.
type textBody struct {
	s  string
	qp bool
	// size is the most the body takes, within a few bytes
	size int
}

func newTextBody(s string) textBody {
	high := countHigh(s)
	t := textBody{s: s}
	if high > 0 || strings.IndexByte(s, 0) >= 0 || hasLongLine(s, 899) {
		t.qp = true
		n := len(s) + 2*high
		t.size = n + n/24 + strings.Count(s, "\n") + 8
	} else {
		t.size = len(s) + strings.Count(s, "\n") + 2
	}
	return t
}

// countHigh counts the bytes of s at or above 0x80, eight at a time.
func countHigh(s string) int {
	n := 0
	for ; len(s) >= 8; s = s[8:] {
		n += bits.OnesCount64(load8(s) & highBits)
	}
	for i := 0; i < len(s); i++ {
		n += int(s[i] >> 7)
	}
	return n
}

// load8 is the first eight bytes of s, little-endian: one load where the
// compiler combines them.
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// qpPlain8 reports whether the quoted-printable writer writes the eight
// bytes of w as they are, all of them ' ' to '~' but '=' (a tab takes the
// slow way).
func qpPlain8(w uint64) bool {
	below := (w - 0x20*lowBits) & ^w & highBits // a byte < 0x20
	eq := w ^ '='*lowBits
	del := w ^ 0x7f*lowBits
	return (w&highBits | below | (eq-lowBits) & ^eq & highBits | (del-lowBits) & ^del & highBits) == 0
}

// hasLongLine reports whether a line of s (ended by CRLF, CR or LF) is
// longer than max bytes.
func hasLongLine(s string, max int) bool {
	for len(s) > max {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s)
		}
		for seg := s[:i]; len(seg) > max; { // a CR may end lines in it
			j := strings.IndexByte(seg, '\r')
			if j < 0 || j > max {
				return true
			}
			seg = seg[j+1:]
		}
		if i == len(s) {
			return false
		}
		s = s[i+1:]
	}
	return false
}

func (t textBody) encoding() string {
	if t.qp {
		return "quoted-printable"
	}
	return "7bit"
}

func (t textBody) appendTo(b []byte) []byte {
	if t.qp {
		return appendQP(b, t.s)
	}
	return appendCRLF(b, t.s)
}

// appendCRLF appends s with every line end (CRLF, CR, LF) made CRLF and a
// last one added when s does not end with one.
func appendCRLF(b []byte, s string) []byte {
	if strings.IndexByte(s, '\r') < 0 {
		ended := false // s ends with LF
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				break
			}
			b = append(b, s[:i]...)
			b = append(b, '\r', '\n')
			s = s[i+1:]
			ended = true
		}
		if s != "" || !ended {
			b = append(b, s...)
			b = append(b, '\r', '\n')
		}
		return b
	}
	ended := false
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			b = append(b, s...)
			ended = false
			break
		}
		b = append(b, s[:i]...)
		b = append(b, '\r', '\n')
		ended = true
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	if !ended {
		b = append(b, '\r', '\n')
	}
	return b
}

// Byte classes of the quoted-printable writer.
const (
	qpEncode  = iota // written =XX
	qpLiteral        // written as it is
	qpBreak          // CR or LF: a line end
)

var qpClass = func() (t [256]uint8) {
	for c := '!'; c <= '~'; c++ {
		t[c] = qpLiteral
	}
	t['='] = qpEncode
	t[' '], t['\t'] = qpLiteral, qpLiteral
	t['\r'], t['\n'] = qpBreak, qpBreak
	return t
}()

// appendQP appends s quoted-printable (RFC 2045 6.7) as mime/quotedprintable
// writes it in text mode: every line end (CRLF, CR, LF) a CRLF, one added
// at the end when s lacks it; lines of at most 76 characters, the longer
// ones broken by soft line breaks; a blank ending a line encoded.
func appendQP(b []byte, s string) []byte {
	col := 0 // characters on the output line so far
	ended := false
	for k := 0; k < len(s); {
		switch c := s[k]; qpClass[c] {
		case qpLiteral:
			j := k + 1
			for len(s)-j >= 8 && qpPlain8(load8(s[j:])) {
				j += 8
			}
			for j < len(s) && qpClass[s[j]] == qpLiteral {
				j++
			}
			for run := s[k:j]; len(run) > 0; {
				if col == 75 {
					b = append(b, '=', '\r', '\n')
					col = 0
				}
				n := min(len(run), 75-col)
				b = append(b, run[:n]...)
				col += n
				run = run[n:]
			}
			k = j
			ended = false
		case qpEncode:
			if col > 72 {
				b = append(b, '=', '\r', '\n')
				col = 0
			}
			b = append(b, '=', upperHex[c>>4], upperHex[c&15])
			col += 3
			k++
			ended = false
		case qpBreak:
			b = qpEndLine(b, col)
			col = 0
			if c == '\r' && k+1 < len(s) && s[k+1] == '\n' {
				k++
			}
			k++
			ended = true
		}
	}
	if !ended {
		b = qpEndLine(b, col)
	}
	return b
}

// qpEndLine ends an output line of col characters: a blank that would end
// it is encoded, then CRLF.
func qpEndLine(b []byte, col int) []byte {
	if col > 0 {
		if c := b[len(b)-1]; c == ' ' || c == '\t' {
			b = b[:len(b)-1]
			if col-1 > 72 {
				b = append(b, '=', '\r', '\n')
			}
			b = append(b, '=', upperHex[c>>4], upperHex[c&15])
		}
	}
	return append(b, '\r', '\n')
}

// appendBase64Lines appends data in base64, lines of 76 characters
// separated by CRLF, the last without one (Base64Lines). It encodes six
// bytes at a time through a table of character pairs, about twice as
// fast as base64.Encoding.AppendEncode line by line.
func appendBase64Lines(b []byte, data []byte) []byte {
	const perLine = 57 // bytes of data in a line of 76 characters
	b = slices.Grow(b, base64LinesLen(len(data)))
	for len(data) > perLine {
		n := len(b)
		b = b[:n+78]
		encodeGroups(b[n:n+76], data[:perLine])
		b[n+76], b[n+77] = '\r', '\n'
		data = data[perLine:]
	}
	return base64.StdEncoding.AppendEncode(b, data)
}

// b64Pairs maps twelve bits to their two base64 characters.
var b64Pairs = func() (t [4096]uint16) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range t {
		t[i] = uint16(alphabet[i>>6]) | uint16(alphabet[i&63])<<8
	}
	return t
}()

// encodeGroups writes the base64 of src, whose length is a multiple of 3,
// in dst, of 4/3 its length.
func encodeGroups(dst, src []byte) {
	for len(src) >= 6 && len(dst) >= 8 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		w := uint(src[3])<<16 | uint(src[4])<<8 | uint(src[5])
		binary.LittleEndian.PutUint64(dst, uint64(b64Pairs[v>>12])|uint64(b64Pairs[v&0xfff])<<16|
			uint64(b64Pairs[w>>12])<<32|uint64(b64Pairs[w&0xfff])<<48)
		src, dst = src[6:], dst[8:]
	}
	if len(src) >= 3 && len(dst) >= 4 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		binary.LittleEndian.PutUint32(dst, uint32(b64Pairs[v>>12])|uint32(b64Pairs[v&0xfff])<<16)
	}
}

// base64LinesLen is len(Base64Lines(data)) for len(data) == n.
func base64LinesLen(n int) int {
	e := base64.StdEncoding.EncodedLen(n)
	if e == 0 {
		return 0
	}
	return e + (e-1)/76*2
}

// appendPartHeader writes the header of an attachment's part and the
// blank line that ends it: Content-Type and Content-Disposition as
// mime.FormatMediaType writes them, with the file name.
func appendPartHeader(b []byte, a *Attachment) []byte {
	ct := a.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	disp := "attachment"
	if a.Inline {
		disp = "inline"
	}
	filename := cleanHeaderText(a.Filename)
	if !simpleMediaType(ct) || !isToken(filename) {
		mt, params, _ := mime.ParseMediaType(ct)
		if filename != "" {
			params["name"] = filename
			disp = mime.FormatMediaType(disp, map[string]string{"filename": filename})
		}
		b = appendField(b, "Content-Type", mime.FormatMediaType(mt, params))
		b = append(b, "Content-Transfer-Encoding: base64\r\n"...)
		b = appendField(b, "Content-Disposition", disp)
		return append(b, '\r', '\n')
	}
	b, at := fieldStart(b, "Content-Type")
	b = append(b, ct...)
	if filename != "" {
		b = append(b, "; name="...)
		b = append(b, filename...)
	}
	b = endField(b, "Content-Type", at)
	b = append(b, "Content-Transfer-Encoding: base64\r\n"...)
	b, at = fieldStart(b, "Content-Disposition")
	b = append(b, disp...)
	if filename != "" {
		b = append(b, "; filename="...)
		b = append(b, filename...)
	}
	b = endField(b, "Content-Disposition", at)
	return append(b, '\r', '\n')
}

// simpleMediaType reports whether ct is a lower-case type/subtype without
// parameters, which mime.ParseMediaType and FormatMediaType keep as it is.
func simpleMediaType(ct string) bool {
	slash := strings.IndexByte(ct, '/')
	if slash <= 0 || slash == len(ct)-1 {
		return false
	}
	for i := 0; i < len(ct); i++ {
		if c := ct[i]; i != slash && (!isTokenByte(c) || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// isToken reports whether s is empty or an RFC 2045 token, written
// without quotes.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte(`()<>@,;:\"/[]?=`, c) < 0
}
