package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// The README's layout: imports run one way, cmd → server → {daemon,
// mailer, mailserver, store}, daemon → {store, orders, adjudicator,
// mailer}, each engine → {adjudicator, orders} (and the drawing
// vocabulary, picture). Every package of the repository is placed here,
// so a new one fails the test until it is.
func TestReadmeLayoutImportsRunOneWay(t *testing.T) {
	engines := []string{"adjudicator/diplomacy", "adjudicator/empire", "adjudicator/supplychain", "adjudicator/supremacy"}
	may := map[string][]string{
		"cmd/pbemd":   append([]string{"server", "demo", "adjudicator"}, engines...),
		"server":      {"daemon", "mailer", "mailauth", "mailserver", "outbox", "store", "web", "internal/logredact"},
		"web":         {"store", "adjudicator", "picture"},
		"daemon":      {"store", "orders", "adjudicator", "mailer", "outbox", "internal/logredact", "rating"},
		"outbox":      {"store", "mailer"},
		"adjudicator": {"orders", "picture"},
		"mailer":      {"internal/logredact"},
		"orders":      {}, "mailserver": {}, "store": {},
		"picture":                {"picture/flatpng"},
		"picture/flatpng":        {},
		"demo":                   append([]string{"server", "mailer", "mailserver", "store", "orders", "adjudicator"}, engines...),
		"daemon/daemontest":      {"daemon", "store", "store/storetest", "adjudicator"},
		"store/storetest":        {"store", "mailer", "outbox"},
		"picture/picturetest":    {"picture"},
		"internal/mapgeo":        {"adjudicator/diplomacy", "picture"},
		"internal/skipnote":      {},
		"internal/proccpu":       {},
		"internal/logredact":     {},
		"mailauth":               {"store"},
		"mailauth/mailauthtest":  {},
		"adjudicator/scoring":    {},
		"rating":                 {},
		"adjudicator/enginetest": {"adjudicator"},
	}
	for _, e := range engines {
		may[e] = []string{"adjudicator", "orders", "picture"}
	}
	may["adjudicator/diplomacy"] = append(may["adjudicator/diplomacy"], "adjudicator/scoring")
	root := "../.."
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg, _ := filepath.Rel(root, filepath.Dir(path))
		pkg = filepath.ToSlash(pkg)
		allowed, ok := may[pkg]
		if !ok {
			t.Errorf("%s: package %s is not placed in the README's layout (nor in this test)", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(p, "pbemd/")
			if ok && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s: %s may import of pbemd only %v", path, p, pkg, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("only %d files read", seen)
	}
}

// The README's table of variants is what `pbemd variants` prints: the
// registry's, not a list kept by hand.
func TestReadmeVariantsAreTheRegistry(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "<!-- pbemd variants -->\n")
	if !ok {
		t.Fatal("the README has no table marked <!-- pbemd variants -->")
	}
	shown, _, _ := strings.Cut(rest, "\n\n")
	code, out, errs := run(t, "variants")
	if code != 0 {
		t.Fatalf("pbemd variants exited %d: %s", code, errs)
	}
	if strings.TrimSpace(shown) != strings.TrimSpace(out) {
		t.Errorf("the README's variants differ from pbemd variants:\nREADME:\n%s\npbemd variants:\n%s", shown, out)
	}
}
