package diplomacy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/orders"
)

// TestCommands runs testdata/orders/commands.txt: each case is a short mail
// (a "\n" in the input is a line break) whose first line is a command.
//
//	<input> ==> <command as describeCommand prints it>
//	<input> ==> !! <error text> [?? <suggestion text>]
//	<input> ==> ignored
//
// @lexicon none|standard|ancientmed and @strict on|off set the options.
func TestCommands(t *testing.T) {
	path := filepath.Join(testdataDir, "commands.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var opts ParseOptions
	sc := bufio.NewScanner(f)
	n := 0
	for no := 1; sc.Scan(); no++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@lexicon "):
			opts.Lexicon = nil
			if name := strings.TrimSpace(line[len("@lexicon "):]); name != "none" {
				opts.Lexicon = loadLexicon(t, name)
			}
			continue
		case strings.HasPrefix(line, "@strict "):
			opts.Strict = strings.TrimSpace(line[len("@strict "):]) == "on"
			continue
		}
		in, want, ok := strings.Cut(line, " ==> ")
		if !ok {
			t.Fatalf("%s:%d: no ==>", path, no)
		}
		n++
		opts := opts
		t.Run(fmt.Sprintf("commands.txt:%d", no), func(t *testing.T) {
			body := strings.ReplaceAll(in, `\n`, "\n")
			r := Parse(body, opts)
			l := r.Lines[0]
			if want == "ignored" {
				if l.Kind != orders.Ignored || len(l.Diags) > 0 {
					t.Errorf("%q: kind %d %+v, want ignored", in, l.Kind, l.Diags)
				}
				return
			}
			if e, ok := strings.CutPrefix(want, "!! "); ok {
				msg, sugg, _ := strings.Cut(e, " ?? ")
				d := firstError(l.Diags)
				if l.Kind != orders.ErrorLine || !strings.Contains(d.Message, strings.TrimSpace(msg)) || !strings.Contains(d.Suggestion, sugg) {
					t.Errorf("%q: kind %d %+v, want error %q / %q", in, l.Kind, l.Diags, msg, sugg)
				}
				checkBlockNotOrders(t, r)
				return
			}
			if l.Kind != orders.CommandLine || l.Command == nil {
				t.Fatalf("%q: kind %d %+v, want command %q", in, l.Kind, l.Diags, want)
			}
			if hasError(l.Diags) {
				t.Errorf("%q: errors %+v", in, l.Diags)
			}
			if got := describeCommand(l.Command); got != want {
				t.Errorf("%q:\n got %s\nwant %s", in, got, want)
			}
			if got := r.Commands(); len(got) != 1 || got[0] != l.Command {
				t.Errorf("%q: Commands() = %v", in, got)
			}
			checkBlockNotOrders(t, r)
		})
	}
	if n < 100 {
		t.Errorf("only %d command cases", n)
	}
}

// checkBlockNotOrders checks that no line of a command's block was read as
// an order.
func checkBlockNotOrders(t *testing.T, r *orders.Result) {
	t.Helper()
	if len(r.Lines) > 1 && r.Lines[0].Command != nil {
		for _, l := range r.Lines[1:] {
			if l.Kind == orders.OrderLine {
				t.Errorf("line %d %q of a block was read as an order", l.No, l.Text)
			}
		}
	}
}
