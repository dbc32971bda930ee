package diplomacy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pbemd/orders"
)

// A line file (testdata/orders/lines-*.txt, datc.txt) holds one order line per
// test case:
//
//	<input> ==> <canonical form>                          read, no diagnostic
//	<input> ==> <canonical form> ~~ <warning text>          read, with this warning
//	<input> ==> !! <error text> [?? <suggestion text>]      not read: this error
//
// Texts after ~~, !! and ?? must appear in the diagnostic. Directives set the
// options of the lines below them:
//
//	@lexicon standard|ancientmed      @strict on|off
//	@phase any|movement|retreat|adjustment
//	@position A par, F nth, F stp/sc      (empty: no position)
type lineCase struct {
	file    string
	no      int
	in      string
	want    string // canonical form, "" for an error
	warn    string
	err     string
	suggest string
	lexicon string
	opts    ParseOptions
}

func readLineCases(tb testing.TB, path string) []lineCase {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []lineCase
	cur := lineCase{file: filepath.Base(path), lexicon: "standard"}
	sc := bufio.NewScanner(f)
	for no := 1; sc.Scan(); no++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@"):
			key, val, _ := strings.Cut(line[1:], " ")
			val = strings.TrimSpace(val)
			switch key {
			case "lexicon":
				cur.lexicon = val
			case "strict":
				cur.opts.Strict = val == "on"
			case "phase":
				cur.opts.Phase = map[string]ParsePhase{"any": AnyPhase, "movement": MovementPhase, "retreat": RetreatPhase, "adjustment": AdjustmentPhase}[val]
			case "position":
				if val == "" {
					cur.opts.Position = nil
				} else {
					cur.opts.Position = parsePosition(tb, val)
				}
			default:
				tb.Fatalf("%s:%d: unknown directive %q", path, no, key)
			}
			continue
		}
		in, rest, ok := strings.Cut(line, " ==> ")
		if !ok {
			tb.Fatalf("%s:%d: no ==> in %q", path, no, line)
		}
		c := cur
		c.no, c.in = no, in
		if e, ok := strings.CutPrefix(rest, "!! "); ok {
			c.err, c.suggest, _ = strings.Cut(e, " ?? ")
			c.err = strings.TrimSpace(c.err)
		} else {
			c.want, c.warn, _ = strings.Cut(rest, " ~~ ")
			c.want = strings.TrimSpace(c.want)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func lineFiles(tb testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(testdataDir, "lines-*.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return append(files, filepath.Join(testdataDir, "datc.txt"))
}

func allLineCases(tb testing.TB) []lineCase {
	var all []lineCase
	for _, f := range lineFiles(tb) {
		all = append(all, readLineCases(tb, f)...)
	}
	return all
}

// TestOrderLines runs every order line of the line files through ParseOrder
// and Parse, and checks the round trip parse ⇒ format ⇒ parse.
func TestOrderLines(t *testing.T) {
	cases := allLineCases(t)
	if len(cases) < 300 {
		t.Errorf("only %d line cases; the issue asks for at least 300", len(cases))
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s:%d", c.file, c.no), func(t *testing.T) {
			opts := c.opts
			opts.Lexicon = loadLexicon(t, c.lexicon)
			o, diags, err := ParseOrder(c.in, opts)
			if c.err != "" {
				if err == nil {
					t.Fatalf("%q: read as %q, want error %q", c.in, Format(o, opts.Lexicon), c.err)
				}
				d := firstError(diags)
				if !strings.Contains(d.Message, c.err) {
					t.Errorf("%q: error %q, want it to contain %q", c.in, d.Message, c.err)
				}
				if !strings.Contains(d.Suggestion, c.suggest) {
					t.Errorf("%q: suggestion %q, want it to contain %q", c.in, d.Suggestion, c.suggest)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v (%+v), want %q", c.in, err, diags, c.want)
			}
			if got := Format(o, opts.Lexicon); got != c.want {
				t.Errorf("%q: read as %q, want %q", c.in, got, c.want)
			}
			checkWarnings(t, c.in, diags, c.warn)

			// The same line inside a mail gives the same order.
			r := Parse(c.in, opts)
			if len(r.Lines) != 1 || r.Lines[0].Kind != orders.OrderLine || lineOrder(r.Lines[0]) == nil {
				t.Fatalf("Parse(%q) = %+v, want one order line", c.in, r.Lines)
			}
			if !sameParsed(*lineOrder(r.Lines[0]), o) {
				t.Errorf("Parse(%q) read %+v, ParseOrder read %+v", c.in, *lineOrder(r.Lines[0]), o)
			}
			checkRoundTrip(t, o, opts)
		})
	}
}

func firstError(ds []orders.Diagnostic) orders.Diagnostic {
	for _, d := range ds {
		if d.Severity == orders.Error {
			return d
		}
	}
	return orders.Diagnostic{}
}

func checkWarnings(t *testing.T, in string, diags []orders.Diagnostic, want string) {
	t.Helper()
	var warns []string
	for _, d := range diags {
		if d.Severity == orders.Warning {
			warns = append(warns, d.Message)
		}
	}
	switch {
	case want == "" && len(warns) > 0:
		t.Errorf("%q: unexpected warnings %q", in, warns)
	case want != "" && (len(warns) == 0 || !strings.Contains(strings.Join(warns, " | "), want)):
		t.Errorf("%q: warnings %q, want one containing %q", in, warns, want)
	}
}

// sameParsed compares orders, treating a nil and an empty Path alike.
func sameParsed(a, b Order) bool {
	if len(a.Path) == 0 && len(b.Path) == 0 {
		a.Path, b.Path = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// checkRoundTrip parses the canonical form of o again: it must give o back
// (without its Power, which Format does not print), with no diagnostic.
func checkRoundTrip(t *testing.T, o Order, opts ParseOptions) {
	t.Helper()
	text := Format(o, opts.Lexicon)
	o2, diags, err := ParseOrder(text, opts)
	if err != nil || len(diags) > 0 {
		t.Fatalf("round trip: ParseOrder(%q) = %v %+v", text, err, diags)
	}
	o.Power = ""
	if !sameParsed(o, o2) {
		t.Errorf("round trip of %q: %+v, want %+v", text, o2, o)
	}
	if again := Format(o2, opts.Lexicon); again != text {
		t.Errorf("round trip: Format gives %q then %q", text, again)
	}
	// The engine stores canonical lines and reads them back strictly,
	// without a position.
	o3, diags, err := ParseOrder(text, ParseOptions{Lexicon: opts.Lexicon, Strict: true, Phase: opts.Phase})
	if err != nil || len(diags) > 0 {
		t.Fatalf("strict round trip: ParseOrder(%q) = %v %+v", text, err, diags)
	}
	if !sameParsed(o, o3) {
		t.Errorf("strict round trip of %q: %+v, want %+v", text, o3, o)
	}
}
