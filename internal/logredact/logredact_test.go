package logredact

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

const (
	testToken    = "k7qz2m4xw6ab3cd5ef7gh2ij4k" // 26 characters of base32, as the daemon's
	testPassword = "qx7m-k2pz"                  // a player's password, as the daemon makes them
)

// TestRedactingHandler: whatever a logger is given — message, strings,
// errors, groups, attributes added by With — comes out without tokens,
// passwords or configured secrets; other values are untouched.
func TestRedactingHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), "Open-Sesame-42", "xy"))
	log = log.With("to", "gm+"+testToken+"@example.org")
	log.Debug("mail for gm+"+testToken+"@x", "body", "SIGNON gm game1 Open-Sesame-42", "err", errors.New("login: password: "+testPassword),
		slog.Group("g", "reply", "Your password: "+testPassword, "token", testToken), "password", "anything", "count", 42, "note", "xy stays")
	out := buf.String()
	for _, secret := range []string{testToken, testPassword, "Open-Sesame-42"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q in the log:\n%s", secret, out)
		}
	}
	for _, k := range []string{"count=42", "xy stays", "gm+<token>@example.org", "SIGNON <redacted>", "password=<redacted>"} {
		if !strings.Contains(out, k) {
			t.Errorf("%q missing from the log:\n%s", k, out)
		}
	}
}
