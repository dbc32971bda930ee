package skipnote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Run by go test as a child of the go command, a line from Say reaches the
// go command's output even for a passing package without -v, whole, and
// without harm to go test's own lines, whether that output is a pipe or a
// file both streams are redirected to (as `go test ./... >log 2>&1`).
func TestSayReachesGoTestOutput(t *testing.T) {
	if os.Getenv("SKIPNOTE_CHILD") == "1" {
		Say("skipnote: the line a person must see")
		return
	}
	if testing.Short() {
		t.Skip("runs go test in a child: skipped with -short")
	}
	const note = "skipnote: the line a person must see\n"
	for _, where := range []string{"pipe", "file"} {
		t.Run(where, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-count=1", "-run", "TestSayReachesGoTestOutput", ".")
			cmd.Env = append(os.Environ(), "SKIPNOTE_CHILD=1")
			var out []byte
			var err error
			if where == "pipe" {
				out, err = cmd.CombinedOutput()
			} else {
				path := filepath.Join(t.TempDir(), "log")
				f, ferr := os.Create(path)
				if ferr != nil {
					t.Fatal(ferr)
				}
				cmd.Stdout, cmd.Stderr = f, f
				err = cmd.Run()
				f.Close()
				out, _ = os.ReadFile(path)
			}
			if err != nil {
				t.Fatalf("go test: %v\n%s", err, out)
			}
			text := string(out)
			if !strings.Contains(text, note) || !strings.Contains(text, "ok  \tpbemd/internal/skipnote") {
				t.Fatalf("the line, or go test's own, did not come out whole:\n%s", out)
			}
			if strings.Count(text, "\n") != 2 {
				t.Errorf("want the note and the ok line, got:\n%s", out)
			}
		})
	}
}
