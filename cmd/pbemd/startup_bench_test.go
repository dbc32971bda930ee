//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup is pbemd's start-up as a whole process, exec to exit:
// `pbemd help` (the runtime and every package init, nothing else) and
// `pbemd adjudicate` on the Spring 1901 opening (plus one phase: the
// standard map loaded, the orders read and adjudicated, the JSON out),
// for the binary as `go build` makes it here and as CGO_ENABLED=0 makes
// it (no libc to load and link: see the package doc), a Go program that
// only writes a line (the floor of any Go process on the machine), one
// that links only the libraries pbemd is required to build on (the floor
// of any pbemd) and one that links every package pbemd links but its own
// (the floor of pbemd's dependencies: their inits and size).
// Besides ns/op (wall) it reports the process's CPU time and minor page
// faults, per run:
//
//	go test ./cmd/pbemd -run XXX -bench Startup -count 5
//
// Start-up is a few milliseconds, much of it page faults and scheduling:
// compare figures taken in one run, with the load next to them.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	opening, err := filepath.Abs("../../adjudicator/diplomacy/testdata/offline/opening.json")
	if err != nil {
		b.Fatal(err)
	}
	hello := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(hello, []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	build := func(out, in string, env []string, args ...string) string {
		bin := filepath.Join(dir, out)
		cmd := exec.Command("go", append([]string{"build", "-o", bin}, args...)...)
		cmd.Dir, cmd.Env = in, append(os.Environ(), env...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %v: %v\n%s", args, err, msg)
		}
		return bin
	}
	b.Run("go-hello", func(b *testing.B) { runProcess(b, build("hello", dir, []string{"CGO_ENABLED=0"}, hello), "") })
	b.Run("required-only", func(b *testing.B) {
		runProcess(b, build("required", blankImports(b, dir, "required", requiredPackages), []string{"CGO_ENABLED=0"}, "."), "")
	})
	b.Run("deps-only", func(b *testing.B) { runProcess(b, build("deps", depsOnly(b, dir), []string{"CGO_ENABLED=0"}, "."), "") })
	for _, v := range []struct{ name, env string }{{"default", ""}, {"cgo=0", "CGO_ENABLED=0"}} {
		var env []string
		if v.env != "" {
			env = []string{v.env}
		}
		bin := build("pbemd-"+v.name, "", env, ".")
		b.Run(v.name+"/help", func(b *testing.B) { runProcess(b, bin, "", "help") })
		b.Run(v.name+"/adjudicate", func(b *testing.B) { runProcess(b, bin, opening, "adjudicate") })
	}
}

// runProcess runs bin with args (stdin from the file in, if any) b.N
// times, after one run to warm the page cache.
func runProcess(b *testing.B, bin, in string, args ...string) {
	run := func() *syscall.Rusage {
		cmd := exec.Command(bin, args...)
		if in != "" {
			f, err := os.Open(in)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", bin, args, err, out)
		}
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			b.Fatal("no rusage")
		}
		return ru
	}
	run()
	var cpu time.Duration
	var faults int64
	for b.Loop() {
		ru := run()
		cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		faults += ru.Minflt
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(faults)/float64(b.N), "minflt/op")
}

// requiredPackages are the libraries pbemd is required to build on: the
// IMAP server and client, the SMTP server, the store and the scheduler.
// A program linking only them is the floor any pbemd could reach, with
// nothing of its own and none of the other libraries it chose.
var requiredPackages = []string{
	"github.com/emersion/go-imap/v2",
	"github.com/emersion/go-imap/v2/imapclient",
	"github.com/emersion/go-imap/v2/imapserver",
	"github.com/emersion/go-smtp",
	"go.etcd.io/bbolt",
	"github.com/robfig/cron/v3",
}

// depsOnly writes, in a module of its own under dir, a program that
// imports every package pbemd links except pbemd's own (and those only
// the standard library may import), and returns its directory.
func depsOnly(b *testing.B, dir string) string {
	list := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".")
	list.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := list.Output()
	if err != nil {
		b.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		internal := strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || strings.HasSuffix(p, "/internal")
		if p == "pbemd" || strings.HasPrefix(p, "pbemd/") || internal || strings.HasPrefix(p, "vendor/") || p == "os" || p == "unsafe" || strings.HasPrefix(p, "runtime") {
			continue
		}
		pkgs = append(pkgs, p)
	}
	return blankImports(b, dir, "deps", pkgs)
}

// blankImports writes, in the module name under dir (pbemd's go.mod and
// go.sum, so the same versions), a program that imports pkgs for their
// inits only and writes a line, and returns its directory.
func blankImports(b *testing.B, dir, name string, pkgs []string) string {
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"os\"\n")
	for _, p := range pkgs {
		fmt.Fprintf(&src, "\t_ %q\n", p)
	}
	src.WriteString(")\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n")
	mod := filepath.Join(dir, name+"mod")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		b.Fatal(err)
	}
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		b.Fatal(err)
	}
	gosum, err := os.ReadFile("../../go.sum")
	if err != nil {
		b.Fatal(err)
	}
	for file, data := range map[string][]byte{
		"go.mod":  []byte(strings.Replace(string(gomod), "module pbemd\n", "module "+name+"\n", 1)),
		"go.sum":  gosum,
		"main.go": []byte(src.String()),
	} {
		if err := os.WriteFile(filepath.Join(mod, file), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return mod
}
