package mailer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-message/textproto"
)

// Mail is one inbound mail, reduced to what the daemon needs. The daemon
// never sees MIME: Text is the best plain text the mail offers.
type Mail struct {
	// ID identifies the mail for deduplication: the Message-ID without
	// angle brackets, or "sha256:<hex>" of the raw message (of the header
	// and size for TooBig mail) when the mail has no Message-ID.
	ID string
	// MessageID is the Message-ID as found (without <>), "" if missing.
	MessageID string

	From        *mail.Address // nil when missing or unparseable
	ReplyTo     []*mail.Address
	To          []*mail.Address
	Cc          []*mail.Address
	DeliveredTo []string // Delivered-To and X-Original-To, in header order
	// Token is the +token of the recipient address at our own address
	// (gm+token@host ⇒ "token"), "" when the mail was not sent to one.
	Token      string
	Subject    string
	Date       time.Time // zero when missing or unparseable
	InReplyTo  string    // first msg-id of In-Reply-To, without <>
	References []string  // msg-ids of References, without <>, oldest first
	// ReturnPath is the envelope sender the delivering server recorded,
	// without <>; "" for the null sender (a bounce) or when absent.
	ReturnPath string

	// Text is the body as plain text with \n line ends (see Parse).
	Text string
	// TextFromHTML is set when Text was rendered from an HTML-only mail.
	TextFromHTML bool
	// UnknownCharset names a charset Text had to be guessed from.
	UnknownCharset string

	// Loop protection: never answer a mail with Bounce or Auto set.
	Bounce bool
	Auto   bool
	// LoopReason says which header (or sender, or subject) made Bounce or
	// Auto true.
	LoopReason string

	// TooBig is set when the mail exceeds the configured size limit: it
	// was not downloaded or parsed, only its header was. Size is
	// RFC822.SIZE as the server reported it (or len(Raw)).
	TooBig bool
	Size   int64
	// Raw is the whole mail as received (nil when TooBig).
	Raw []byte

	// Where the mail was found (set by the Fetcher, zero from ParseMail).
	Mailbox     string
	UIDValidity uint32
	UID         uint32

	// header is the parsed header, kept only where Raw cannot give it
	// again (TooBig mails, headers read again without their broken
	// lines); else headerFromRaw is set and Header reads Raw again: a
	// parsed header is some 4 KiB, and a poll holds two batches of mails.
	header        textproto.Header
	headerFromRaw bool
}

// NoReply reports whether answering this mail could start a mail loop
// (bounces, auto-replies, bulk and list mail).
func (m *Mail) NoReply() bool { return m.Bounce || m.Auto }

// ReplyAddress is where an answer goes: the first Reply-To, else From. It
// is nil when the mail names neither. It is not proof of who wrote the
// mail.
func (m *Mail) ReplyAddress() *mail.Address {
	if len(m.ReplyTo) > 0 {
		return m.ReplyTo[0]
	}
	return m.From
}

// Header returns the first value of the named header field, with RFC 2047
// words decoded and control characters (CR, LF, NUL…) turned into
// spaces, or "".
func (m *Mail) Header(key string) string {
	h := m.header
	if m.headerFromRaw {
		h, _, _ = readHeader(m.Raw) // as ParseMail read it: it succeeded then
	}
	return cleanHeaderText(decodeHeaderText(h.Get(key)))
}

// Limits on what Parse walks through, against hostile nesting.
const (
	maxMIMEDepth = 8
	maxMIMEParts = 200
)

// ParseMail parses a complete RFC 5322 message. own is our own address
// (gm@example.org) used to find the +token; empty means "the first
// plus-address among the recipients".
//
// Leniencies: a missing or broken Content-Type is text/plain; unknown
// transfer encodings are taken as 8bit; base64 without padding and with
// stray characters is decoded as far as it goes; address lists that
// net/mail rejects are split at commas and each piece is tried alone; see
// charset.go for charsets.
//
// Text: text/plain is preferred; in multipart/alternative the first
// non-empty text/plain part wins, else the HTML part rendered as text; in
// other multiparts the inline text parts are joined in order; attachments
// are ignored, except that a text/plain attachment becomes Text when the
// mail has no other text. format=flowed is unwrapped.
func ParseMail(raw []byte, own string) (*Mail, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("parse mail: empty message")
	}
	h, body, repaired, err := readHeaderRepaired(raw)
	if err != nil {
		return nil, err
	}
	m := newMailFromHeader(h, own)
	m.Raw = raw
	if !repaired {
		m.header, m.headerFromRaw = textproto.Header{}, true
	}
	m.Size = int64(len(raw))
	if m.ID == "" {
		m.ID = hashID(raw)
	}
	w := &bodyWalker{}
	w.walk(h, body, 0)
	m.Text, m.TextFromHTML = w.result()
	m.UnknownCharset = w.unknownCharset
	if w.report {
		m.Bounce = true
		if m.LoopReason == "" {
			m.LoopReason = "Content-Type: multipart/report"
		}
	}
	return m, nil
}

// parseTooBig builds the Mail for a message over the size limit from its
// header alone.
func parseTooBig(header []byte, size int64, own string) (*Mail, error) {
	h, _, err := readHeader(header)
	if err != nil {
		return nil, err
	}
	m := newMailFromHeader(h, own)
	m.TooBig = true
	m.Size = size
	if m.ID == "" {
		m.ID = hashID(append(append([]byte{}, header...), fmt.Sprint(size)...))
	}
	if ct, params := contentType(h); ct == "multipart/report" && strings.EqualFold(params["report-type"], "delivery-status") {
		m.Bounce = true
		if m.LoopReason == "" {
			m.LoopReason = "Content-Type: multipart/report"
		}
	}
	return m, nil
}

// readHeader reads the header of raw and returns it with the body after
// it. A header that textproto refuses (a line without a colon, a field
// name with a blank in it, a first line that starts with white space) is
// read again without its broken lines, so that one bad line does not make
// a player's mail unreadable. Only a header with no field at all is an
// error.
func readHeader(raw []byte) (textproto.Header, []byte, error) {
	h, body, _, err := readHeaderRepaired(raw)
	return h, body, err
}

// readHeaderRepaired is readHeader, and says whether the header had to be
// read again without its broken lines.
func readHeaderRepaired(raw []byte) (textproto.Header, []byte, bool, error) {
	r := bytes.NewReader(raw)
	br := headerReaders.Get().(*bufio.Reader)
	br.Reset(r)
	h, err := textproto.ReadHeader(br)
	unread := br.Buffered() + r.Len()
	br.Reset(nil)
	headerReaders.Put(br)
	if err == nil {
		// The body is what the header left: raw's own bytes, which are
		// never changed (the walk decodes into new ones).
		return h, raw[len(raw)-unread:], false, nil
	}
	fixed, body, fields := repairHeader(raw)
	if fields == 0 {
		return textproto.Header{}, nil, false, fmt.Errorf("parse mail header: %w", err)
	}
	h, rerr := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(fixed)))
	if rerr != nil {
		return textproto.Header{}, nil, false, fmt.Errorf("parse mail header: %w", errors.Join(err, rerr))
	}
	return h, body, true, nil
}

// headerReaders are the buffered readers readHeader reads headers with:
// one per mail cost more than the header it read.
var headerReaders = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// repairHeader rewrites the header block of raw (up to its first empty
// line) keeping only well-formed fields and their continuation lines; a
// field line indented by mistake is taken without its indent. It returns
// the new header (CRLF line ends, ending in an empty line), the body and
// how many fields were kept.
func repairHeader(raw []byte) (header, body []byte, fields int) {
	var out bytes.Buffer
	open := false // a field is open: an indented line continues it
	rest := raw
	for len(rest) > 0 {
		line := rest
		rest = nil
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, rest = line[:i], line[i+1:]
		}
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 {
			body = rest
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if open {
				out.Write(line)
				out.WriteString("\r\n")
				continue
			}
			line = bytes.TrimLeft(line, " \t")
		}
		key, _, ok := bytes.Cut(line, []byte(":"))
		key = bytes.TrimRight(key, " \t")
		if !ok || !validFieldName(key) {
			open = false // drop the line and whatever continues it
			continue
		}
		out.Write(line)
		out.WriteString("\r\n")
		open = true
		fields++
	}
	out.WriteString("\r\n")
	return out.Bytes(), body, fields
}

// validFieldName reports whether b is an RFC 5322 field name: printable
// US-ASCII except the colon.
func validFieldName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '!' || c > '~' || c == ':' {
			return false
		}
	}
	return true
}

func hashID(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// maxReferences is how many of the newest References ids are kept: the
// daemon copies them into its replies, and a thread needs no more.
const maxReferences = 20

func newMailFromHeader(h textproto.Header, own string) *Mail {
	m := &Mail{header: h}
	m.MessageID = firstMsgID(h.Get("Message-Id"))
	m.ID = m.MessageID
	if l := parseAddressList(h.Get("From")); len(l) > 0 {
		m.From = l[0]
	}
	m.ReplyTo = parseAddressList(h.Get("Reply-To"))
	m.To = parseAddressList(strings.Join(h.Values("To"), ", "))
	m.Cc = parseAddressList(strings.Join(h.Values("Cc"), ", "))
	for _, key := range []string{"Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(key) {
			for _, a := range parseAddressList(v) {
				m.DeliveredTo = append(m.DeliveredTo, a.Address)
			}
		}
	}
	m.Subject = cleanHeaderText(decodeHeaderText(h.Get("Subject")))
	m.Date = parseDate(h.Get("Date"))
	m.InReplyTo = firstMsgID(h.Get("In-Reply-To"))
	m.References = msgIDList(strings.Join(h.Values("References"), " "))
	if n := len(m.References); n > maxReferences {
		m.References = m.References[n-maxReferences:]
	}
	rp, hasRP := returnPath(h)
	m.ReturnPath = rp
	m.Token = findToken(m, own)
	m.Bounce, m.Auto, m.LoopReason = loopCheck(h, m, hasRP)
	return m
}

// returnPath reads the last-added Return-Path (the delivering server puts
// its own on top).
func returnPath(h textproto.Header) (addr string, present bool) {
	if !h.Has("Return-Path") {
		return "", false
	}
	v := strings.TrimSpace(h.Get("Return-Path"))
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(v, "<"), ">"))
	return v, true
}

// loopCheck applies the loop-protection rules: bounces (null sender,
// MAILER-DAEMON, postmaster), auto-replies and robots (Auto-Submitted,
// Precedence, X-Autoreply and kin, X-Auto-Response-Suppress, a no-reply
// sender, an out-of-office subject) and list mail (List-Id,
// List-Unsubscribe and kin). Answering any of them could start a loop or
// reflect mail at a third party.
func loopCheck(h textproto.Header, m *Mail, hasReturnPath bool) (bounce, auto bool, reason string) {
	if hasReturnPath && m.ReturnPath == "" {
		return true, false, "Return-Path: <>"
	}
	if m.From != nil {
		switch robotSender(m.From.Address) {
		case "mailer-daemon":
			return true, false, "From: MAILER-DAEMON"
		case "postmaster":
			return true, false, "From: postmaster"
		case "no-reply":
			return false, true, "From: a no-reply address"
		}
	}
	if v := strings.TrimSpace(h.Get("Auto-Submitted")); v != "" {
		tok, _, _ := strings.Cut(v, ";")
		tok = strings.ToLower(strings.TrimSpace(tok))
		if tok != "no" {
			return false, true, "Auto-Submitted: " + tok
		}
	}
	if v := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); v != "" {
		switch v {
		case "bulk", "junk", "list", "auto_reply", "auto-reply":
			return false, true, "Precedence: " + v
		}
	}
	for _, key := range []string{"X-Autoreply", "X-Autorespond", "X-Autoresponse", "X-Auto-Reply"} {
		if h.Has(key) {
			v := strings.ToLower(strings.TrimSpace(h.Get(key)))
			if v != "no" && v != "false" && v != "0" {
				return false, true, key
			}
		}
	}
	// Exchange marks its out-of-office and other robot mail with
	// "X-Auto-Response-Suppress: All" (or OOF, AutoReply): the sender asks
	// robots such as us not to answer. DR, NDR, RN and NRN only concern
	// receipts.
	for _, tok := range strings.FieldsFunc(h.Get("X-Auto-Response-Suppress"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		switch strings.ToLower(tok) {
		case "all", "oof", "autoreply":
			return false, true, "X-Auto-Response-Suppress: " + tok
		}
	}
	for _, key := range []string{"List-Id", "List-Unsubscribe", "List-Post", "X-Mailing-List", "Mailing-List"} {
		if strings.TrimSpace(h.Get(key)) != "" {
			return false, true, key
		}
	}
	if phrase := outOfOfficeSubject(m.Subject); phrase != "" {
		return false, true, "Subject: " + phrase
	}
	return false, false, ""
}

// robotSender classifies the local part of a sender address:
// "mailer-daemon", "postmaster", "no-reply" (noreply, no_reply,
// do-not-reply, donotreply, dont-reply… with or without a suffix such as
// noreply-alerts), or "" for anyone else. A +tag is ignored.
func robotSender(addr string) string {
	local, _, _ := strings.Cut(strings.ToLower(addr), "@")
	local, _, _ = strings.Cut(local, "+")
	squashed := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' {
			return -1
		}
		return r
	}, local)
	switch {
	case squashed == "mailerdaemon":
		return "mailer-daemon"
	case squashed == "postmaster":
		return "postmaster"
	}
	for _, p := range []string{"noreply", "donotreply", "dontreply", "noresponse", "donotrespond"} {
		if strings.HasPrefix(squashed, p) {
			return "no-reply"
		}
	}
	return ""
}

// Subjects of out-of-office and other automatic replies, lower case, as
// mail programs write them in the languages players are likely to use.
// A phrase counts only at the very start of the subject, alone or before
// a colon ("Automatic reply: Re: [rome1] …"), so that "Out of office
// next week, my orders:" from a player is still read. A word a person
// might well write as a subject (absence, vacation) counts only before a
// colon ("Absence: Re: …").
var (
	outOfOfficePhrases = []string{
		// English
		"out of office", "out of the office", "out of office reply", "out of office autoreply",
		"automatic reply", "automatic response", "auto reply", "auto-reply", "autoreply",
		"auto response", "auto-response", "autoresponse", "away from the office",
		// German
		"abwesenheitsnotiz", "automatische antwort", "automatische abwesenheitsnotiz", "nicht im büro",
		// French
		"réponse automatique", "reponse automatique", "message d'absence", "absent du bureau",
		// Spanish, Portuguese, Italian
		"respuesta automática", "respuesta automatica", "fuera de la oficina",
		"resposta automática", "resposta automatica", "fora do escritório",
		"risposta automatica", "fuori ufficio",
		// Dutch, Nordic
		"automatisch antwoord", "niet aanwezig", "automatiskt svar", "automatisk svar", "autosvar",
		"automaattinen vastaus",
		// Central and Eastern Europe, Greek, Turkish
		"odpowiedź automatyczna", "automatyczna odpowiedź", "poza biurem",
		"automatická odpověď", "mimo kancelář", "automatikus válasz", "házon kívül",
		"автоответ", "автоматический ответ", "нет на месте", "αυτόματη απάντηση", "otomatik yanıt",
		"ofis dışında",
		// East Asian
		"自動応答", "自動返信", "自动回复", "自動回覆", "자동 응답",
	}
	outOfOfficeWords = []string{
		"absence", "absent", "vacation", "holiday", "urlaub", "abwesend", "abwesenheit",
		"ausente", "ausência", "assente", "afwezig", "frånvaro", "fravær", "poissa",
		"nieobecność", "nepřítomnost", "不在", "부재중",
	}
)

// outOfOfficeSubject returns the phrase that makes subject an automatic
// reply, or "".
func outOfOfficeSubject(subject string) string {
	s := strings.ToLower(strings.TrimSpace(subject))
	match := func(p string, alone bool) bool {
		rest, ok := strings.CutPrefix(s, p)
		if !ok {
			return false
		}
		rest = strings.TrimLeft(rest, " ")
		return alone && rest == "" || strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "：")
	}
	for _, p := range outOfOfficePhrases {
		if match(p, true) {
			return p
		}
	}
	for _, p := range outOfOfficeWords {
		if match(p, false) {
			return p
		}
	}
	return ""
}

// findToken looks for a plus-address of own among Delivered-To, To and Cc
// (in that order) and returns what follows the '+'.
func findToken(m *Mail, own string) string {
	ownLocal, ownDomain, _ := strings.Cut(strings.ToLower(own), "@")
	try := func(addr string) (string, bool) {
		local, domain, ok := strings.Cut(addr, "@")
		if !ok {
			return "", false
		}
		base, tok, ok := strings.Cut(local, "+")
		if !ok || tok == "" {
			return "", false
		}
		if own != "" && (!strings.EqualFold(base, ownLocal) || !strings.EqualFold(domain, ownDomain)) {
			return "", false
		}
		return tok, true
	}
	for _, a := range m.DeliveredTo {
		if t, ok := try(a); ok {
			return t
		}
	}
	for _, list := range [][]*mail.Address{m.To, m.Cc} {
		for _, a := range list {
			if t, ok := try(a.Address); ok {
				return t
			}
		}
	}
	return ""
}

var addressParser = &mail.AddressParser{WordDecoder: wordDecoder}

// parseAddressList parses an address header leniently: what net/mail
// rejects is split at commas and each piece tried alone; a piece that
// still fails but contains <x@y> or a bare x@y keeps that address. An
// address with a control character in it is dropped (it could only serve
// to inject a header); display names are cleaned (cleanHeaderText).
func parseAddressList(v string) []*mail.Address {
	return cleanAddresses(parseAddressListRaw(v))
}

func cleanAddresses(l []*mail.Address) []*mail.Address {
	out := l[:0]
	for _, a := range l {
		if strings.ContainsFunc(a.Address, isHeaderControl) {
			continue
		}
		a.Name = cleanHeaderText(a.Name)
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func parseAddressListRaw(v string) []*mail.Address {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	v = decodeUTF8Lenient([]byte(v))
	if l, err := addressParser.ParseList(v); err == nil {
		return l
	}
	var out []*mail.Address
	for _, piece := range strings.Split(v, ",") {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		if a, err := addressParser.Parse(piece); err == nil {
			out = append(out, a)
			continue
		}
		if a := salvageAddress(piece); a != nil {
			out = append(out, a)
		}
	}
	return out
}

func salvageAddress(s string) *mail.Address {
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 {
			addr := strings.TrimSpace(s[i+1 : i+j])
			if strings.Contains(addr, "@") && !strings.ContainsAny(addr, " \t") {
				name := strings.Trim(strings.TrimSpace(s[:i]), `"`)
				return &mail.Address{Name: decodeHeaderText(name), Address: addr}
			}
		}
	}
	for _, f := range strings.Fields(s) {
		f = strings.Trim(f, `<>"'()[];`)
		if strings.Count(f, "@") == 1 && !strings.HasPrefix(f, "@") && !strings.HasSuffix(f, "@") {
			return &mail.Address{Address: f}
		}
	}
	return nil
}

// msgIDList extracts every <id> of a References-style header, without the
// brackets. Bare ids separated by white space are accepted too. Each id
// is cleaned (see cleanMsgID); ids left empty are dropped.
func msgIDList(v string) []string {
	var ids []string
	for _, id := range rawMsgIDList(v) {
		if id = cleanMsgID(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// maxMsgID bounds a Message-ID; longer ones are replaced by a hash.
const maxMsgID = 250

// cleanMsgID makes an id fit to be written back into In-Reply-To and
// References: white space, control characters, angle brackets and bytes
// outside printable ASCII are dropped ("<a b@x>" becomes "ab@x"), and an
// id longer than maxMsgID becomes "sha256:" and its hash. The result is
// stable, so a mail seen twice is still recognised.
func cleanMsgID(id string) string {
	id = strings.Map(func(r rune) rune {
		if r <= ' ' || r >= 0x7f || r == '<' || r == '>' {
			return -1
		}
		return r
	}, id)
	if len(id) > maxMsgID {
		return hashID([]byte(id))
	}
	return id
}

// cleanHeaderText makes a decoded header text safe to show and to copy
// into an outgoing header: when it holds a control character (CR, LF,
// NUL, TAB, DEL, C1) or a Unicode line or paragraph separator, each
// becomes a space, runs of white space become one space, and the ends are
// trimmed. Other text is returned as it is.
func cleanHeaderText(s string) string {
	if !strings.ContainsFunc(s, isHeaderControl) {
		return s
	}
	s = strings.Map(func(r rune) rune {
		if isHeaderControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// isHeaderControl reports whether r must never appear in a header value.
func isHeaderControl(r rune) bool {
	return r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029'
}

func rawMsgIDList(v string) []string {
	var ids []string
	for v != "" {
		i := strings.IndexByte(v, '<')
		if i < 0 {
			for _, f := range strings.Fields(v) {
				if strings.Contains(f, "@") {
					ids = append(ids, f)
				}
			}
			break
		}
		for _, f := range strings.Fields(v[:i]) {
			if strings.Contains(f, "@") {
				ids = append(ids, f)
			}
		}
		j := strings.IndexByte(v[i:], '>')
		if j < 0 {
			if id := strings.TrimSpace(v[i+1:]); id != "" {
				ids = append(ids, id)
			}
			break
		}
		if id := strings.TrimSpace(v[i+1 : i+j]); id != "" {
			ids = append(ids, id)
		}
		v = v[i+j+1:]
	}
	return ids
}

func firstMsgID(v string) string {
	if ids := msgIDList(v); len(ids) > 0 {
		return ids[0]
	}
	return cleanMsgID(v)
}

var dateLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 06 15:04:05 -0700",
	"Mon Jan 2 15:04:05 2006",
	time.RFC3339,
}

func parseDate(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}
	}
	// The form nearly every mail has (RFC 5322's, with the day of the
	// week and seconds): what mail.ParseDate makes of it too, without its
	// trying a dozen layouts that fail first, each failure an allocation.
	if t, err := time.Parse(time.RFC1123Z, v); err == nil {
		return t
	}
	if t, err := mail.ParseDate(v); err == nil {
		return t
	}
	// drop a trailing comment such as "(CEST)"
	if i := strings.IndexByte(v, '('); i > 0 {
		v = strings.TrimSpace(v[:i])
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// contentType returns the lowercase media type and its parameters; a
// missing or broken header is text/plain.
func contentType(h textproto.Header) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	mt, params, err := mime.ParseMediaType(v)
	if err == nil {
		return mt, params
	}
	// lenient: "type/sub; a=b; c="d""
	parts := strings.Split(v, ";")
	mt = strings.ToLower(strings.TrimSpace(parts[0]))
	if !strings.Contains(mt, "/") {
		mt = "text/plain"
	}
	params = map[string]string{}
	for _, p := range parts[1:] {
		k, val, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(val), `"`)
	}
	return mt, params
}

// decodeTransfer undoes the Content-Transfer-Encoding.
func decodeTransfer(h textproto.Header, body []byte) []byte {
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding"))) {
	case "quoted-printable":
		out, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
		if err != nil && len(out) == 0 {
			return body
		}
		return out
	case "base64":
		clean := make([]byte, 0, len(body))
		for _, c := range body {
			if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
				clean = append(clean, c)
			}
		}
		if len(clean)%4 == 1 {
			clean = clean[:len(clean)-1] // a lone sextet cannot be a byte
		}
		out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
		n, _ := base64.RawStdEncoding.Decode(out, clean)
		return out[:n]
	}
	return body
}

// bodyWalker collects the text of a MIME tree.
type bodyWalker struct {
	plain          []string // inline text/plain, in order
	html           []string // inline text/html rendered, in order
	attach         string   // first text/plain attachment
	unknownCharset string
	report         bool // multipart/report; report-type=delivery-status seen
	parts          int
}

func (w *bodyWalker) result() (string, bool) {
	if t := strings.TrimSpace(strings.Join(w.plain, "")); t != "" {
		return joinTexts(w.plain), false
	}
	if t := strings.TrimSpace(strings.Join(w.html, "")); t != "" {
		return joinTexts(w.html), true
	}
	return normalizeText(w.attach), false
}

func joinTexts(l []string) string {
	var kept []string
	for _, s := range l {
		if strings.TrimSpace(s) != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n")
}

func (w *bodyWalker) walk(h textproto.Header, body []byte, depth int) {
	w.parts++
	if w.parts > maxMIMEParts || depth > maxMIMEDepth {
		return
	}
	mt, params := contentType(h)
	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	isAttachment := strings.EqualFold(disp, "attachment") ||
		disp == "" && (params["name"] != "" || dparams["filename"] != "")

	switch {
	case strings.HasPrefix(mt, "multipart/"):
		if mt == "multipart/report" && strings.EqualFold(params["report-type"], "delivery-status") {
			w.report = true
		}
		boundary := params["boundary"]
		if boundary == "" {
			return
		}
		children := readParts(body, boundary)
		if mt == "multipart/alternative" {
			w.walkAlternative(children, depth)
			return
		}
		for _, c := range children {
			w.walk(c.header, c.body, depth+1)
		}
	case mt == "text/plain":
		text := w.decodeText(h, params, body)
		if isAttachment {
			if w.attach == "" {
				w.attach = text
			}
			return
		}
		w.plain = append(w.plain, text)
	case mt == "text/html":
		if isAttachment {
			return
		}
		w.html = append(w.html, htmlToText(w.decodeText(h, params, body)))
	}
}

// walkAlternative keeps the first child that yields plain text, else the
// first that yields HTML text.
func (w *bodyWalker) walkAlternative(children []mimePart, depth int) {
	var htmlPick []string
	for _, c := range children {
		sub := &bodyWalker{parts: w.parts}
		sub.walk(c.header, c.body, depth+1)
		w.parts = sub.parts
		if w.attach == "" {
			w.attach = sub.attach
		}
		if w.unknownCharset == "" {
			w.unknownCharset = sub.unknownCharset
		}
		w.report = w.report || sub.report
		if strings.TrimSpace(strings.Join(sub.plain, "")) != "" {
			w.plain = append(w.plain, sub.plain...)
			return
		}
		if htmlPick == nil && strings.TrimSpace(strings.Join(sub.html, "")) != "" {
			htmlPick = sub.html
		}
	}
	w.html = append(w.html, htmlPick...)
}

func (w *bodyWalker) decodeText(h textproto.Header, params map[string]string, body []byte) string {
	raw := decodeTransfer(h, body)
	cs := params["charset"]
	if !knownCharset(cs) && w.unknownCharset == "" {
		w.unknownCharset = cs
	}
	text := decodeCharset(cs, raw)
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.EqualFold(params["format"], "flowed") {
		text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
	}
	return normalizeText(text)
}

// normalizeText turns CRLF and CR into \n and trims blank lines at both
// ends and trailing white space at the end; the inside is kept as written.
func normalizeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimRight(s, " \t\n")
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		s = rest
	}
	return s
}

type mimePart struct {
	header textproto.Header
	body   []byte
}

// readParts splits a multipart body; a broken part ends the list but the
// parts before it are kept.
func readParts(body []byte, boundary string) []mimePart {
	mr := textproto.NewMultipartReader(bytes.NewReader(body), boundary)
	var parts []mimePart
	for len(parts) < maxMIMEParts {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, err := io.ReadAll(p)
		parts = append(parts, mimePart{header: p.Header, body: b})
		if err != nil {
			break
		}
	}
	return parts
}
