package diplomacy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pbemd/orders"
)

// A sample mail (testdata/orders/mails/*.txt) starts with option lines
// (@lexicon, @strict, @phase, @position, as in the line files; no @lexicon
// line means no lexicon: a commands-only parse); the body follows. Its golden
// file (*.golden) shows what Parse made of every line; run
// `go test ./adjudicator/diplomacy -run TestMails -update` to rewrite them after a change,
// and review the diff.
func TestMails(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdataDir, "mails", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no sample mails")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			opts, body := readMail(t, f)
			got := describeResult(Parse(body, opts), opts.Lexicon)
			golden := strings.TrimSuffix(f, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Parse(%s) differs from %s:\n%s", name, golden, lineDiff(string(want), got))
			}
		})
	}
}

func readMail(tb testing.TB, path string) (ParseOptions, string) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var opts ParseOptions
	text := string(data)
	for strings.HasPrefix(text, "@") {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		key, val, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
		val = strings.TrimSpace(val)
		switch key {
		case "lexicon":
			opts.Lexicon = loadLexicon(tb, val)
		case "strict":
			opts.Strict = val == "on"
		case "phase":
			opts.Phase = map[string]ParsePhase{"any": AnyPhase, "movement": MovementPhase, "retreat": RetreatPhase, "adjustment": AdjustmentPhase}[val]
		case "position":
			opts.Position = parsePosition(tb, val)
		default:
			tb.Fatalf("%s: unknown option %q", path, key)
		}
	}
	return opts, text
}

var lineKindNames = map[orders.LineKind]string{orders.Ignored: "ignored", orders.OrderLine: "order", orders.CommandLine: "command", orders.BodyLine: "body", orders.ErrorLine: "ERROR"}

// describeResult prints one line per mail line, and one per diagnostic.
func describeResult(r *orders.Result, lex *Lexicon) string {
	var b strings.Builder
	for _, l := range r.Lines {
		fmt.Fprintf(&b, "%3d %-7s %s", l.No, lineKindNames[l.Kind], strings.TrimSpace(l.Text))
		switch {
		case lineOrder(l) != nil:
			o := lineOrder(l)
			fmt.Fprintf(&b, "\n            = %s", Format(*o, lex))
			if o.Power != "" {
				fmt.Fprintf(&b, "  [%s]", o.Power)
			}
		case l.Command != nil && l.Kind != orders.BodyLine:
			fmt.Fprintf(&b, "\n            = %s", describeCommand(l.Command))
		}
		b.WriteByte('\n')
		for _, d := range l.Diags {
			sev := "warning"
			if d.Severity == orders.Error {
				sev = "error"
			}
			fmt.Fprintf(&b, "            %s: %s", sev, d.Message)
			if d.Suggestion != "" {
				fmt.Fprintf(&b, " | %s", d.Suggestion)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func describeCommand(c *orders.Command) string {
	parts := []string{string(c.Verb)}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("game", c.Game)
	add("power", c.Power)
	if len(c.Powers) > 0 {
		add("powers", strings.Join(c.Powers, ","))
	}
	add("password", c.Password)
	add("address", c.Address)
	add("arg", c.Arg)
	var keys []string
	for k := range c.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		add("opt."+k, c.Options[k])
	}
	if len(c.Body) > 0 {
		parts = append(parts, fmt.Sprintf("body=%q", c.Body))
	}
	return strings.Join(parts, " ")
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			if shown++; shown == 10 {
				break
			}
		}
	}
	return b.String()
}
