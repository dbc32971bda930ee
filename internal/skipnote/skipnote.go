// Package skipnote lets a test binary tell the person who runs
// `go test ./...` that a part of it was skipped, and why.
//
// go test shows the output of a passing package only with -v: a line a
// TestMain writes to its own stdout or stderr is dropped, so "the
// real-server suite did not run" would never be read. Say writes the line
// to the go command's own standard error instead, when the test binary's
// parent is the go command (Linux): through a copy of that very file
// descriptor (pidfd_getfd), so a log file both write to keeps one offset,
// or else by opening it again when it is a pipe or a terminal (which have
// no offset to share). Where neither works the line goes to the binary's
// own stderr (then -v shows it).
//
// Tests only; nothing that ships imports it.
package skipnote

import (
	"fmt"
	"os"
	"strings"
)

// Say writes one line where the person running go test sees it.
func Say(format string, args ...any) {
	line := strings.TrimRight(fmt.Sprintf(format, args...), "\n") + "\n"
	if w := goStderr(); w != nil {
		defer w.Close()
		if _, err := w.WriteString(line); err == nil {
			return
		}
	}
	os.Stderr.WriteString(line)
}
