package mailer

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// The charsets mail is decoded from: every label of the WHATWG Encoding
// Standard (golang.org/x/text/encoding/htmlindex, what mail clients and
// browsers read), then every IANA name x/text can decode.
//
// Leniencies (all deliberate, all tested):
//   - ISO-8859-1 is read as Windows-1252, as every browser does (WHATWG):
//     mail labelled Latin-1 often carries Windows "smart quotes" in 0x80–0x9F;
//     GB2312 is read as GBK and ks_c_5601-1987 as EUC-KR, likewise.
//   - Invalid bytes in mail labelled UTF-8 or US-ASCII (or unlabelled) are
//     read as Windows-1252, byte by byte, instead of becoming U+FFFD.
//   - An unknown charset is read as UTF-8 when the bytes are valid UTF-8 and
//     as Windows-1252 otherwise; the Mail records the charset it did not know,
//     so that the daemon can say so instead of answering the guess.

// charsetEncoding returns the decoder of the charset labelled name: nil
// for UTF-8 and US-ASCII (read by decodeUTF8Lenient); known is false when
// pbemd cannot decode it.
func charsetEncoding(name string) (enc encoding.Encoding, known bool) {
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), `"'`))
	switch n {
	case "", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "x-utf-8":
		return nil, true
	}
	e, err := htmlindex.Get(n)
	if err != nil {
		e, err = ianaindex.IANA.Encoding(n)
	}
	switch {
	case err != nil || e == nil || e == encoding.Replacement:
		// not known, or known to be unsafe to decode (ISO-2022-KR, HZ…)
		return nil, false
	case e == unicode.UTF8:
		return nil, true
	}
	return e, true
}

// knownCharset reports whether decodeCharset can decode charset name.
func knownCharset(name string) bool {
	_, known := charsetEncoding(name)
	return known
}

// decodeCharset turns b, written in charset name, into UTF-8.
func decodeCharset(name string, b []byte) string {
	enc, known := charsetEncoding(name)
	switch {
	case !known:
		if utf8.Valid(b) {
			return string(b)
		}
		return decodeWindows1252(b)
	case enc == nil:
		return decodeUTF8Lenient(b)
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return decodeUTF8Lenient(b)
	}
	return string(out)
}

func decodeWindows1252(b []byte) string {
	out, _ := charmap.Windows1252.NewDecoder().Bytes(b) // every byte decodes
	return string(out)
}

// decodeUTF8Lenient keeps valid UTF-8 and reads each invalid byte as
// Windows-1252.
func decodeUTF8Lenient(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			sb.WriteRune(charmap.Windows1252.DecodeByte(b[0]))
			b = b[1:]
			continue
		}
		sb.WriteRune(r)
		b = b[size:]
	}
	return sb.String()
}

// charsetReader is the CharsetReader for mime.WordDecoder (RFC 2047
// encoded words in Subject and display names).
func charsetReader(name string, input io.Reader) (io.Reader, error) {
	raw, err := io.ReadAll(input)
	if err != nil {
		return nil, err
	}
	if !knownCharset(name) && !utf8.Valid(raw) {
		return nil, fmt.Errorf("charset %q is not supported", name)
	}
	return bytes.NewReader([]byte(decodeCharset(name, raw))), nil
}

var wordDecoder = &mime.WordDecoder{CharsetReader: charsetReader}

// decodeHeaderText decodes RFC 2047 words in a header value. Raw 8-bit bytes
// (non-conforming but common) are read as UTF-8, falling back to
// Windows-1252 byte by byte. A value that cannot be decoded is returned as
// it was.
func decodeHeaderText(v string) string {
	v = decodeUTF8Lenient([]byte(v))
	if !strings.Contains(v, "=?") {
		return v
	}
	out, err := wordDecoder.DecodeHeader(v)
	if err != nil {
		return v
	}
	return out
}
