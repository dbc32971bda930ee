package orders

import (
	"errors"
	"fmt"
	"strings"
)

// Options control Parse and ParseLine.
type Options struct {
	// Grammar reads the game's order lines; every engine passes its own.
	// Nil: no orders are expected, only mail commands.
	Grammar Grammar
	// Powers are the game's powers: power names in commands and heading
	// lines ("England:") resolve to their ids. Nil: power names in commands
	// are kept as written and no line is a heading.
	Powers *Names
	// Strict turns every leniency listed in the package comment off.
	Strict bool
}

// Result is what Parse made of a mail body: every line, in order.
type Result struct {
	Lines []Line
}

// Values returns the typed orders the grammar read, in line order.
func (r *Result) Values() []any {
	var out []any
	for i := range r.Lines {
		if l := &r.Lines[i]; l.Kind == OrderLine && l.Value != nil {
			out = append(out, l.Value)
		}
	}
	return out
}

// Commands returns the accepted mail commands, in line order.
func (r *Result) Commands() []*Command {
	var out []*Command
	for i := range r.Lines {
		if l := &r.Lines[i]; l.Kind == CommandLine && l.Command != nil {
			out = append(out, l.Command)
		}
	}
	return out
}

// Problems returns the lines that carry a diagnostic (errors and warnings).
func (r *Result) Problems() []Line {
	var out []Line
	for _, l := range r.Lines {
		if len(l.Diags) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// Errors returns the lines that were not understood or not accepted.
func (r *Result) Errors() []Line {
	var out []Line
	for _, l := range r.Lines {
		if l.Kind == ErrorLine || hasError(l.Diags) {
			out = append(out, l)
		}
	}
	return out
}

// OK reports whether every line was understood.
func (r *Result) OK() bool {
	for _, l := range r.Lines {
		if l.Kind == ErrorLine || hasError(l.Diags) {
			return false
		}
	}
	return true
}

func hasError(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// ErrNotUnderstood is wrapped by the error ParseLine returns for a line
// that is not a valid order.
var ErrNotUnderstood = errors.New("order not understood")

// ParseLine reads one order line with opts.Grammar: no mail structure (a
// trailing "#" or "//" comment is dropped) and no commands. It returns the
// grammar's value. The error wraps ErrNotUnderstood and repeats the first
// error diagnostic; the diagnostics also hold warnings for an order that
// was read.
func ParseLine(line string, opts Options) (any, []Diagnostic, error) {
	p := newParser(opts)
	if p.grammar == nil {
		d := Diagnostic{Severity: Error, Message: "this game has no orders to read"}
		return nil, []Diagnostic{d}, fmt.Errorf("%w: %s", ErrNotUnderstood, d.Message)
	}
	text := stripComment(cleanLine(strings.TrimRight(line, "\r\n")))
	v, diags := p.order(text)
	if v == nil {
		msg := "not understood"
		for _, d := range diags {
			if d.Severity == Error {
				msg = d.Message
				break
			}
		}
		return nil, diags, fmt.Errorf("%w: %s", ErrNotUnderstood, msg)
	}
	return v, diags, nil
}

// parser holds what one Parse call reuses from line to line.
type parser struct {
	opts    Options
	grammar Grammar
	vocab   Vocabulary // the grammar's words, when it declares them
	prov    *Names     // the grammar's names (the tokenizer's dictionary), or nil
	pow     *Names
	sc      Scanner
	toks    []Token
}

func newParser(opts Options) *parser {
	p := &parser{opts: opts, grammar: opts.Grammar, pow: opts.Powers}
	p.sc.hints = maxHints
	if v, ok := opts.Grammar.(Vocabulary); ok {
		p.vocab, p.prov = v, v.Names()
	}
	return p
}

// order runs the grammar over one line.
func (p *parser) order(text string) (any, []Diagnostic) {
	if len(text) > maxLineBytes {
		return nil, []Diagnostic{{Severity: Error, Message: fmt.Sprintf("line too long (over %d characters)", maxLineBytes)}}
	}
	p.toks = tokenize(text, p.toks[:0], p.prov)
	p.sc.reset(text, p.toks, p.opts.Strict)
	p.sc.work += len(p.toks)
	v := p.grammar.ParseOrder(&p.sc)
	diags := p.sc.diags
	if p.sc.failed {
		v = nil
	}
	if v == nil && !hasError(diags) {
		diags = append(diags, Diagnostic{Severity: Error, Message: "not understood"})
	}
	return v, diags
}

// Parse reads a mail body (or a power's order text) line by line. Every line
// comes back with its kind: an order (read by the game's grammar), a command,
// a line of a command's block, an ignored line (blank, greeting, quoted reply,
// signature, comment) or an error. Parse never fails: what it cannot read is
// an ErrorLine with a diagnostic.
func Parse(body string, opts Options) *Result {
	p := newParser(opts)
	lines := splitLines(body)
	res := &Result{Lines: make([]Line, len(lines))}
	for i, text := range lines {
		res.Lines[i] = Line{No: i + 1, Text: text}
		lines[i] = cleanLine(text) // read without invisible characters (clean.go); shown as written
	}
	m := mailState{p: p, lines: lines, out: res.Lines}
	m.run()
	return res
}

// splitLines splits a body at LF, CRLF or CR.
func splitLines(body string) []string {
	n := strings.Count(body, "\n") + 1
	lines := make([]string, 0, n)
	if strings.IndexByte(body, '\r') < 0 {
		for len(body) > 0 {
			i := strings.IndexByte(body, '\n')
			if i < 0 {
				lines = append(lines, body)
				break
			}
			lines = append(lines, body[:i])
			body = body[i+1:]
		}
		return lines
	}
	for len(body) > 0 {
		i := strings.IndexAny(body, "\r\n")
		if i < 0 {
			lines = append(lines, body)
			break
		}
		lines = append(lines, body[:i])
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		body = body[i+1:]
	}
	return lines
}

// stripComment drops a trailing "# …" or "// …" comment (one that starts the
// line or follows a space).
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '\t' {
				return strings.TrimRight(s[:i], " \t")
			}
		case '/':
			if i+1 < len(s) && s[i+1] == '/' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
				return strings.TrimRight(s[:i], " \t")
			}
		}
	}
	return s
}
