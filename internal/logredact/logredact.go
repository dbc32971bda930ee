// Package logredact keeps credentials out of pbemd's logs: Redact cleans
// one text, NewHandler wraps the slog handler the logging set-up installs
// so that every record passes through it. It knows nothing of mail or
// games; it must never log, and never let a value it was given through
// unredacted.
package logredact

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
)

// Credentials never reach a log, at any level. Redact removes what looks
// like one from any text: a reply token (the +token of an address, or a
// bare 26-character token), the rest of a SIGNON line (its password), the
// value after "password:" or "password=", and each configured secret
// (passwords from the configuration; those shorter than minSecret are not
// searched for, as they would match ordinary text). NewHandler applies
// it to every record a logger writes, and the protocol
// transcripts apply it to every line (package mailer).
const minSecret = 4

// The patterns are compiled at their first use, not by every start of
// pbemd.
var (
	subaddressRE = lazyRegexp(`\+[A-Za-z0-9]{16,}`)
	bareTokenRE  = lazyRegexp(`\b[a-z2-7]{26}\b`)
	signonRE     = lazyRegexp(`(?i)\bsignon\b[^\r\n]*`)
	passwordRE   = lazyRegexp(`(?i)(password\s*[:=]\s*)[^\s"]+`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Redact returns s without credentials (see above).
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= minSecret {
			s = strings.ReplaceAll(s, sec, "<redacted>")
		}
	}
	if strings.IndexByte(s, '+') >= 0 {
		s = subaddressRE().ReplaceAllString(s, "+<token>")
	}
	if len(s) >= 26 {
		s = bareTokenRE().ReplaceAllString(s, "<token>")
	}
	if hasFold(s, "signon") {
		s = signonRE().ReplaceAllString(s, "SIGNON <redacted>")
	}
	if hasFold(s, "password") {
		s = passwordRE().ReplaceAllString(s, "${1}<redacted>")
	}
	return s
}

// hasFold reports whether s contains the lower-case sub in any case.
func hasFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

// secretKey reports attribute keys whose value is a credential whatever
// it looks like.
func secretKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "password") || strings.Contains(k, "token") || strings.Contains(k, "secret") || k == "pass"
}

// NewHandler wraps h so that the message and every attribute of
// every record pass through Redact (with secrets) first: strings, errors
// and anything printed, inside groups too. Numbers, times and durations
// pass unchanged.
func NewHandler(h slog.Handler, secrets ...string) slog.Handler {
	var keep []string
	for _, s := range secrets {
		if len(s) >= minSecret {
			keep = append(keep, s)
		}
	}
	return &redactHandler{h: h, secrets: keep}
}

type redactHandler struct {
	h       slog.Handler
	secrets []string
}

func (r *redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, Redact(rec.Message, r.secrets...), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r *redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = r.attr(a)
	}
	return &redactHandler{h: r.h.WithAttrs(red), secrets: r.secrets}
}

func (r *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{h: r.h.WithGroup(name), secrets: r.secrets}
}

func (r *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if secretKey(a.Key) && v.Kind() != slog.KindGroup {
		return slog.String(a.Key, "<redacted>")
	}
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Redact(v.String(), r.secrets...))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, x := range g {
			red[i] = r.attr(x)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		return slog.String(a.Key, Redact(fmt.Sprint(v.Any()), r.secrets...))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
