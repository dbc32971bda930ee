package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

// TestStartupReadsNoGameData: starting pbemd reads no map, scenario, deck
// or world, and compiles no pattern, whatever the command. The package
// inits of pbemd's own packages allocate next to nothing (each under 16
// KB): parsing the standard map alone allocates about 300 KB, before the
// engines became lazy their inits allocated 1.3 MB, and the daemon's
// patterns compiled at start allocated 87 KB. The figures are Go's own
// (GODEBUG=inittrace=1) for this test binary, which links the packages
// pbemd links.
func TestStartupReadsNoGameData(t *testing.T) {
	if os.Getenv("PBEMD_INIT_CHILD") == "1" {
		return // the child only had to start
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStartupReadsNoGameData$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "PBEMD_INIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const limit = 16 << 10
	line := regexp.MustCompile(`(?m)^init (\S+) @.* clock, (\d+) bytes, (\d+) allocs$`)
	seen := map[string]bool{}
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		pkg := m[1]
		if !strings.HasPrefix(pkg, "pbemd/") {
			continue
		}
		seen[pkg] = true
		if n, _ := strconv.Atoi(m[2]); n > limit {
			t.Errorf("init of %s allocates %d bytes (%s allocations): more than %d, it reads data before it is used", pkg, n, m[3], limit)
		}
	}
	for _, pkg := range []string{"pbemd/adjudicator/diplomacy", "pbemd/adjudicator/supremacy", "pbemd/adjudicator/supplychain", "pbemd/adjudicator/empire", "pbemd/orders", "pbemd/daemon", "pbemd/mailer"} {
		if !seen[pkg] {
			t.Errorf("no init trace for %s in:\n%s", pkg, out)
		}
	}
}

// TestEnginesAnswerToTheirNames: every engine pbemd ships, registered by
// name without being built, is built at its lookup under that same name,
// and starts a game.
func TestEnginesAnswerToTheirNames(t *testing.T) {
	names := adjudicator.Names()
	if len(names) < 4 {
		t.Fatalf("engines: %v", names)
	}
	for _, name := range names {
		e, ok := adjudicator.Lookup(name)
		if !ok {
			t.Fatalf("%s listed but not found", name)
		}
		if got := e.Info().Name; got != name {
			t.Errorf("engine registered as %s calls itself %s", name, got)
		}
		if _, err := e.New(nil, 1); err != nil {
			t.Errorf("%s: New: %v", name, err)
		}
	}
}

// TestNoCgoButTheResolver: the only C in what pbemd links is the net
// package's resolver (and runtime/cgo, which links it), so a build with
// CGO_ENABLED=0 (static, nothing for the dynamic linker to do at each
// start: the package doc) is pbemd whole, DNS through Go's own resolver.
func TestNoCgoButTheResolver(t *testing.T) {
	list := exec.Command("go", "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", ".")
	list.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != "net" && pkg != "runtime/cgo" {
			t.Errorf("%s has cgo files: a CGO_ENABLED=0 build of pbemd would lack them", pkg)
		}
	}
}
