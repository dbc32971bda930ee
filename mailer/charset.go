package mailer

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"
)

// The charsets mail is decoded from. The go-message/charset package would
// pull in golang.org/x/text, so the few single-byte charsets players really
// use are tables here.
//
// Leniencies (all deliberate, all tested):
//   - ISO-8859-1 is read as Windows-1252, as every browser does (WHATWG):
//     mail labelled Latin-1 often carries Windows "smart quotes" in 0x80–0x9F.
//   - Invalid bytes in mail labelled UTF-8 (or unlabelled) are read as
//     Windows-1252, byte by byte, instead of becoming U+FFFD.
//   - An unknown charset is read as UTF-8 when the bytes are valid UTF-8 and
//     as Windows-1252 otherwise; the Mail records the charset it did not know.

// cp1252High maps bytes 0x80–0x9F of Windows-1252; the five undefined bytes
// map to the C1 control with the same number, as WHATWG does.
var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// latin9Diff holds the eight code points where ISO-8859-15 differs from
// ISO-8859-1.
var latin9Diff = map[byte]rune{
	0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D,
	0xB8: 0x017E, 0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178,
}

type charsetKind int

const (
	csUTF8 charsetKind = iota
	csCP1252
	csLatin9
	csUnknown
)

func lookupCharset(name string) charsetKind {
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), `"'`))
	n = strings.ReplaceAll(n, "_", "-")
	switch n {
	case "", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "x-utf-8":
		return csUTF8
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819", "iso-8859-1:1987",
		"windows-1252", "cp1252", "x-cp1252", "win-1252":
		return csCP1252
	case "iso-8859-15", "iso8859-15", "latin9", "latin-9", "l9":
		return csLatin9
	}
	return csUnknown
}

// knownCharset reports whether decodeCharset has a real table for name.
func knownCharset(name string) bool { return lookupCharset(name) != csUnknown }

// decodeCharset turns b, written in charset name, into UTF-8.
func decodeCharset(name string, b []byte) string {
	switch lookupCharset(name) {
	case csCP1252:
		return decodeSingleByte(b, false)
	case csLatin9:
		return decodeSingleByte(b, true)
	case csUnknown:
		if utf8.Valid(b) {
			return string(b)
		}
		return decodeSingleByte(b, false)
	}
	return decodeUTF8Lenient(b)
}

func decodeSingleByte(b []byte, latin9 bool) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			sb.WriteByte(c)
		case c < 0xA0 && !latin9:
			sb.WriteRune(cp1252High[c-0x80])
		default:
			if r, ok := latin9Diff[c]; ok && latin9 {
				sb.WriteRune(r)
			} else {
				sb.WriteRune(rune(c))
			}
		}
	}
	return sb.String()
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
			sb.WriteString(decodeSingleByte(b[:1], false))
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
	if lookupCharset(name) == csUnknown && !utf8.Valid(raw) {
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
