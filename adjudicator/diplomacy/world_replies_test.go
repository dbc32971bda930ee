package diplomacy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/orders"
)

// TestWorldReplies reads the corpus of replies in testdata/orders/world:
// replies to pbemd's acknowledgement and results mails shaped as the common
// mail clients shape them (Gmail, iOS and Apple Mail, Outlook desktop, Mac
// and web, Thunderbird, K-9, FairEmail, Samsung Email, Yahoo, Proton) in
// ten languages, each file naming the shape it follows (@source). Every
// typed order (@expect) is read, in order and nothing else: no quoted line
// becomes an order and no line is reported as a misorder; a signature
// block written without "-- " (@signature) is one note, and a file without
// @signature has no note at all.
func TestWorldReplies(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdataDir, "world", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Fatalf("the corpus has %d replies, want at least 60", len(files))
	}
	langs := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		langs[strings.SplitN(name, "-", 2)[0]] = true
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var opts ParseOptions
			var expect []string
			source, signature := "", false
			text := string(data)
			for strings.HasPrefix(text, "@") {
				line, rest, _ := strings.Cut(text, "\n")
				text = rest
				key, val, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
				switch key {
				case "source":
					source = val
				case "lexicon":
					opts.Lexicon = loadLexicon(t, val)
				case "phase":
					opts.Phase = map[string]ParsePhase{"movement": MovementPhase, "adjustment": AdjustmentPhase}[val]
				case "expect":
					expect = append(expect, val)
				case "signature":
					signature = true
				default:
					t.Fatalf("unknown option %q", key)
				}
			}
			if source == "" || len(expect) == 0 {
				t.Fatal("a reply names its @source and the orders it @expects")
			}
			res := Parse(text, opts)
			var got []string
			notes := 0
			for _, l := range res.Lines {
				if o := lineOrder(l); o != nil {
					got = append(got, Format(*o, opts.Lexicon))
				}
				if l.Kind == orders.ErrorLine {
					t.Errorf("line %d %q is reported as a misorder", l.No, l.Text)
				}
				for _, d := range l.Diags {
					switch {
					case d.Severity == orders.Error:
						t.Errorf("line %d %q: error %q", l.No, l.Text, d.Message)
					case strings.HasPrefix(d.Message, "ignored as a signature"):
						notes++
					case l.Kind != orders.OrderLine:
						t.Errorf("line %d %q: note %q", l.No, l.Text, d.Message)
					}
				}
			}
			if strings.Join(got, "\n") != strings.Join(expect, "\n") {
				t.Errorf("orders read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(expect, "\n"))
			}
			if want := map[bool]int{true: 1, false: 0}[signature]; notes != want {
				t.Errorf("%d signature notes, want %d", notes, want)
			}
			if t.Failed() {
				t.Logf("source: %s\n%s", source, describeResult(res, opts.Lexicon))
			}
		})
	}
	for _, l := range []string{"en", "de", "fr", "es", "pt", "it", "nl", "pl", "ru", "ja"} {
		if !langs[l] {
			t.Errorf("no reply in %q", l)
		}
	}
}

// TestReplyRulesKeepOrders holds the rules for quotes, footers and
// signatures to what they must not take: orders next to lines that look a
// little like attributions, header blocks or signatures are still read,
// and a block of failed orders is still reported line by line.
func TestReplyRulesKeepOrders(t *testing.T) {
	m, _ := MapByName("standard")
	opts := ParseOptions{Lexicon: m.Lexicon(), Phase: MovementPhase}
	cases := []struct {
		name   string
		body   string
		orders int
		errors int
	}{
		{"a sentence ending with wrote-like words", "I wrote these orders:\nA Bud - Ser\nF Tri - Alb", 2, 1},
		{"an order above an attribution", "A Bud - Ser\nAnn wrote:\n> A Vie H", 1, 0},
		{"orders after a lone From line", "From: Austria\nA Bud - Ser\nF Tri - Alb", 2, 1},
		{"failed orders below the orders", "A Bud - Ser\n\nA Vie - Xyzzy\nF Tri - Qwerty", 1, 2},
		{"a dashed line that is no rule", "----- my orders -----\nA Bud - Ser", 1, 1},
		{"one lower-case word below", "A Bud - Ser\n\nvie", 1, 1},
		{"zero-width and no-break spaces", "A\u00a0Bud\u200b - Ser\u2060\nF Tri\u00ad - Alb", 2, 0},
		{"full-width", "Ａ Ｂｕｄ － Ｓｅｒ", 1, 0},
		{"a wrapped comment only after a long comment line", "A Bud - Ser # short\nnot a comment at all", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse(c.body, opts)
			n, e := 0, 0
			for _, l := range r.Lines {
				if lineOrder(l) != nil {
					n++
				}
				if l.Kind == orders.ErrorLine {
					e++
				}
			}
			if n != c.orders || e != c.errors {
				t.Errorf("%d orders and %d misorders, want %d and %d:\n%s", n, e, c.orders, c.errors, describeResult(r, opts.Lexicon))
			}
		})
	}
}
