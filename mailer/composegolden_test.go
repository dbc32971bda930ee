package mailer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComposeGolden: Compose writes every mail of wireMails and
// composeShapes byte for byte as testdata/compose/wire.golden holds it,
// boundaries aside. The file was written by the go-message writer pbemd
// used first and kept since; go test -run TestComposeGolden -update
// rewrites it after a deliberate change of the output.
func TestComposeGolden(t *testing.T) {
	var b strings.Builder
	for i, o := range append(wireMails(), composeShapesOutgoing()...) {
		c, err := Compose(&o)
		fmt.Fprintf(&b, "=== mail %d\n", i)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "envelope: %q %q\n", c.EnvelopeFrom, c.Recipients)
		for _, h := range c.Holes {
			fmt.Fprintf(&b, "hole at %d: %d bytes\n", h.Off, len(h.Data))
		}
		b.WriteString(sameBoundaries(c.Raw))
		b.WriteString("\n")
	}
	path := filepath.Join("testdata", "compose", "wire.golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	got := b.String()
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	mail := ""
	for i := range min(len(gl), len(wl)) {
		if strings.HasPrefix(wl[i], "=== ") {
			mail = wl[i]
		}
		if gl[i] != wl[i] {
			t.Fatalf("%s, line %d of %s:\n got %q\nwant %q", mail, i+1, path, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
}
