package main

import (
	"os"
	"strings"
	"testing"
)

// The README's demo output is what `pbemd demo` prints with its default
// seed: every line it shows (between the "…") is printed, in that order.
func TestReadmeShowsWhatDemoPrints(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole demo game: skipped with -short")
	}
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "what it prints with its default seed, 1):\n\n```\n")
	if !ok {
		t.Fatal("the README has no demo output")
	}
	shown, _, _ := strings.Cut(rest, "```")
	code, out, errs := run(t, "demo")
	if code != 0 {
		t.Fatalf("pbemd demo exited %d: %s", code, errs)
	}
	printed := strings.Split(out, "\n")
	i := 0
	for _, line := range strings.Split(strings.TrimSpace(shown), "\n") {
		if line == "…" {
			continue
		}
		for i < len(printed) && printed[i] != line {
			i++
		}
		if i == len(printed) {
			t.Fatalf("the README shows a line pbemd demo does not print (in that order):\n%s\n\npbemd demo printed:\n%s", line, out)
		}
	}
}
