package mailer

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"pbemd/internal/logredact"
)

// transcript is an io.Writer for protocol debug output (imapclient
// Options.DebugWriter, smtp Client.DebugWriter): it logs each line at
// debug level with credentials removed. It redacts the arguments of IMAP
// LOGIN and AUTHENTICATE and SMTP AUTH, the SASL exchange that follows
// them, and every occurrence of the configured secrets (raw or base64).
// It never logs a mail's content: the lines between SMTP DATA's 354 and
// the final "." and every IMAP literal ({n} bytes: FETCH bodies, LOGIN
// arguments) are replaced by one line saying how much was left out, as
// a mail carries reply tokens, passwords (SIGNON, the password mail) and
// whatever else players write. Every other line passes through
// logredact.Redact.
type transcript struct {
	log     *slog.Logger
	proto   string
	secrets []string

	mu     sync.Mutex
	buf    []byte
	inSASL bool // inside an AUTH/AUTHENTICATE exchange
	// SMTP message data
	dataAsked bool // the client sent DATA
	inData    bool // between 354 and "."
	dataLines int
	// IMAP literals
	skip        int // bytes of a literal still to leave out
	skipped     int // size of the literal being left out
	syncLiteral int // a client literal waiting for the server's "+"
}

const maxTranscriptLine = 1000

// literalRE finds an IMAP literal announced at the end of a line: {n},
// or {n+} (non-synchronizing). Compiled at its first use.
var literalRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{(\d+)(\+?)\}$`) })

// newTranscript returns a debug writer, or nil when the logger would drop
// debug records anyway (so no transcript work is done at all).
func newTranscript(log *slog.Logger, proto string, username, password string) io.Writer {
	if log == nil || !log.Enabled(context.Background(), slog.LevelDebug) {
		return nil
	}
	t := &transcript{log: log, proto: proto}
	if password != "" {
		t.secrets = append(t.secrets,
			password,
			base64.StdEncoding.EncodeToString([]byte(password)),
			base64.StdEncoding.EncodeToString([]byte("\x00"+username+"\x00"+password)),
			base64.StdEncoding.EncodeToString([]byte(username+"\x00"+username+"\x00"+password)),
		)
	}
	return t
}

func (t *transcript) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for len(t.buf) > 0 {
		if t.skip > 0 {
			n := min(t.skip, len(t.buf))
			t.skip -= n
			t.buf = t.buf[n:]
			if t.skip == 0 {
				t.log.Debug(t.proto, "line", fmt.Sprintf("<%d bytes of literal data not logged>", t.skipped))
			}
			continue
		}
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			if len(t.buf) > maxTranscriptLine*4 {
				t.emit(string(t.buf))
				t.buf = t.buf[:0]
			}
			break
		}
		t.emit(string(t.buf[:i]))
		t.buf = t.buf[i+1:]
	}
	if len(t.buf) == 0 {
		t.buf = nil // do not keep a big literal's array
	}
	return len(p), nil
}

func (t *transcript) emit(line string) {
	line = strings.TrimRight(line, "\r")
	switch {
	case t.inData:
		if line == "." {
			t.inData = false
			t.log.Debug(t.proto, "line", fmt.Sprintf("<message data: %d lines not logged>", t.dataLines))
			t.log.Debug(t.proto, "line", ".")
			return
		}
		t.dataLines++
		return
	case t.proto == "smtp" && strings.EqualFold(line, "DATA"):
		t.dataAsked = true
	case t.dataAsked && strings.HasPrefix(line, "354"):
		t.dataAsked, t.inData, t.dataLines = false, true, 0
	case t.dataAsked && len(line) >= 3 && (line[0] == '4' || line[0] == '5'):
		t.dataAsked = false
	case t.syncLiteral > 0 && strings.HasPrefix(line, "+"):
		t.skip, t.skipped, t.syncLiteral = t.syncLiteral, t.syncLiteral, 0
	}
	if t.proto == "imap" {
		if m := literalRE().FindStringSubmatch(line); m != nil {
			n, err := strconv.Atoi(m[1])
			switch {
			case err != nil || n <= 0:
			case strings.HasPrefix(line, "*") || m[2] == "+":
				t.skip, t.skipped = n, n // server data, or a literal that does not wait
			default:
				t.syncLiteral = n // the client waits for "+" before sending it
			}
		}
	}
	if line == "" {
		return
	}
	t.log.Debug(t.proto, "line", redactLine(line, &t.inSASL, t.secrets))
}

func redactLine(line string, inSASL *bool, secrets []string) string {
	upper := strings.ToUpper(line)
	fields := strings.Fields(line)
	switch {
	case strings.HasPrefix(upper, "AUTH "): // SMTP
		*inSASL = true
		if len(fields) > 2 {
			line = fields[0] + " " + fields[1] + " <redacted>"
		}
	case len(fields) >= 2 && strings.EqualFold(fields[1], "AUTHENTICATE"): // IMAP
		*inSASL = true
		if len(fields) > 3 {
			line = strings.Join(fields[:3], " ") + " <redacted>"
		}
	case len(fields) >= 2 && strings.EqualFold(fields[1], "LOGIN"): // IMAP
		*inSASL = strings.HasSuffix(line, "}") // a literal follows
		if len(fields) > 2 {
			line = strings.Join(fields[:2], " ") + " <redacted>"
		}
	case *inSASL:
		// server challenges ("334 …", "+ …") are shown; client answers
		// and literals are not; a final status ends the exchange
		switch {
		case strings.HasPrefix(line, "334 ") || strings.HasPrefix(line, "+"):
		case len(line) >= 3 && (line[0] == '2' || line[0] == '4' || line[0] == '5') && line[1] >= '0' && line[1] <= '9':
			*inSASL = false
		case len(fields) >= 2 && (strings.EqualFold(fields[1], "OK") || strings.EqualFold(fields[1], "NO") || strings.EqualFold(fields[1], "BAD")):
			*inSASL = false
		default:
			line = "<redacted>"
		}
	}
	for _, s := range secrets {
		if len(s) >= 3 {
			line = strings.ReplaceAll(line, s, "<redacted>")
		}
	}
	line = logredact.Redact(line) // tokens, SIGNON, "password:"
	if len(line) > maxTranscriptLine {
		line = line[:maxTranscriptLine] + "…"
	}
	return line
}
