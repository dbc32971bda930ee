package skipnote

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Run by go test as a child of the go command, a line from Say reaches the
// go command's output even for a passing package without -v.
func TestSayReachesGoTestOutput(t *testing.T) {
	if os.Getenv("SKIPNOTE_CHILD") == "1" {
		Say("skipnote: the line a person must see")
		return
	}
	if testing.Short() {
		t.Skip("runs go test in a child: skipped with -short")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestSayReachesGoTestOutput", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SKIPNOTE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "skipnote: the line a person must see") || !strings.Contains(string(out), "ok  \t"+"pbemd/internal/skipnote") {
		t.Fatalf("the line did not reach go test's output:\n%s", out)
	}
}
