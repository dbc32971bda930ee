package server

import (
	"testing"
)

// TestE2ENonASCIIAddress: a player whose address is not ASCII
// (jürgen@…, RFC 6531) writes to pbemd through the embedded server over
// SMTPUTF8, and pbemd's answer comes back to that address: the daemon
// hands it to the server with SMTPUTF8 (which the server demands for such
// an address) and names the address in raw UTF-8 in its To header.
func TestE2ENonASCIIAddress(t *testing.T) {
	e := newE2E(t)
	const jurgen = "jürgen@pbemd.localhost"
	e.send(jurgen, "gm@pbemd.localhost", "LIST")
	m := e.next(jurgen, "Re:")
	mustContain(t, m.Text, "Games on this game master")
	if len(m.To) != 1 || m.To[0].Address != jurgen {
		t.Fatalf("the answer is addressed to %v, want %s", m.To, jurgen)
	}
}
