//go:build !linux

package skipnote

import "os"

// goStderr finds no parent's stderr here: Say writes to the binary's own.
func goStderr() *os.File { return nil }
