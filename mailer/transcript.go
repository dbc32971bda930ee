package mailer

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// transcript is an io.Writer for protocol debug output (imapclient
// Options.DebugWriter, smtp Client.DebugWriter): it logs each line at
// debug level with credentials removed. It redacts the arguments of IMAP
// LOGIN and AUTHENTICATE and SMTP AUTH, the SASL exchange that follows
// them, and every occurrence of the configured secrets (raw or base64).
type transcript struct {
	log     *slog.Logger
	proto   string
	secrets []string

	mu     sync.Mutex
	buf    []byte
	inSASL bool // inside an AUTH/AUTHENTICATE exchange
}

const maxTranscriptLine = 1000

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
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			if len(t.buf) > maxTranscriptLine*4 {
				t.emit(string(t.buf))
				t.buf = t.buf[:0]
			}
			return len(p), nil
		}
		t.emit(string(t.buf[:i]))
		t.buf = t.buf[i+1:]
	}
}

func (t *transcript) emit(line string) {
	line = strings.TrimRight(line, "\r")
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
	if len(line) > maxTranscriptLine {
		line = line[:maxTranscriptLine] + "…"
	}
	return line
}
