// Package skipnote lets a test binary tell the person who runs
// `go test ./...` that a part of it was skipped, and why.
//
// go test shows the output of a passing package only with -v: a line a
// TestMain writes to its own stdout or stderr is dropped, so "the
// real-server suite did not run" would never be read. Say writes the line
// to the go command's own standard error instead (on Linux, through
// /proc/PPID/fd/2 when the test binary's parent is the go command), and to
// the binary's stderr where that is not possible (then -v shows it).
//
// Tests only; nothing that ships imports it.
package skipnote

import (
	"fmt"
	"os"
	"path/filepath"
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

// goStderr opens the standard error of the parent process when it is the
// go command (go test runs each test binary as its child).
func goStderr() *os.File {
	ppid := os.Getppid()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", ppid))
	if err != nil || strings.TrimSuffix(filepath.Base(exe), ".exe") != "go" {
		return nil
	}
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", ppid), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	return f
}
