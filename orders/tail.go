package orders

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wrapWidth is the shortest line a client's wrapping leaves when it breaks a
// long line (clients wrap at 72 to 78 columns).
const wrapWidth = 60

// wrappedComment reports line i, which the grammar could not read, as the
// rest of a comment the client wrapped: the line just above it is or ends
// with a comment and is as long as a wrapped line is.
func (m *mailState) wrappedComment(i int) bool {
	if m.comment != i-1 || i == 0 {
		return false
	}
	return utf8.RuneCountInString(strings.TrimSpace(m.lines[i-1])) >= wrapWidth
}

// signature settles the lines between the last order or command and the
// reply's tail (a quote, a signature separator, a footer, or the end of
// the mail) that the grammar could not read:
//
//   - a single name signed above the quote ("Amélie", then the quoted
//     results) is ignored, as a name signed at the very end is;
//   - a block in which no line reads like an order (a corporate signature
//     written without "-- ": a name, a title, telephone numbers, a
//     disclaimer) is one note on its first line, "ignored as a signature",
//     instead of one misorder a line.
//
// Nothing before the last order or command changes, and a mail without
// orders or commands is left as it is.
func (m *mailState) signature() {
	end := m.end
	start, errs := end, 0
	found := false
	for k := end - 1; k >= 0 && !found; k-- {
		switch m.out[k].Kind {
		case Ignored:
		case ErrorLine:
			start = k
			errs++
		default:
			found = true
		}
	}
	if !found || errs == 0 {
		return
	}
	if errs == 1 && end < len(m.lines) {
		// a name signed above the quote or the footer
		k := start
		if k > 0 && strings.TrimSpace(m.lines[k-1]) == "" && m.lastText(end) == k {
			t := strings.TrimSpace(m.lines[k])
			if r, _ := utf8.DecodeRuneInString(t); unicode.IsUpper(r) && m.nameLine(t) {
				m.out[k].Kind, m.out[k].Diags = Ignored, nil
				return
			}
		}
	}
	if start == 0 || strings.TrimSpace(m.lines[start-1]) != "" && !m.closing {
		return // not a block of its own below the orders
	}
	if errs == 1 {
		// one line: a sign-off only when written as a name is (a lower-case
		// word is more likely a mistyped order)
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(m.lines[start])); !unicode.IsUpper(r) {
			return
		}
	}
	for k := start; k < end; k++ {
		if m.out[k].Kind == ErrorLine && m.orderLike(strings.TrimSpace(m.lines[k])) {
			return
		}
	}
	n := 0
	for k := start; k < end; k++ {
		if strings.TrimSpace(m.lines[k]) != "" {
			n++
		}
		if m.out[k].Kind == ErrorLine {
			m.out[k].Kind, m.out[k].Diags = Ignored, nil
		}
	}
	msg := "ignored as a signature"
	if n > 1 {
		msg = fmt.Sprintf("ignored as a signature, with the %d lines below it that are not orders either", n-1)
	}
	m.out[start].Diags = []Diagnostic{{Severity: Warning, Message: msg}}
}

// lastText returns the index of the last line with text before end.
func (m *mailState) lastText(end int) int {
	for k := end - 1; k >= 0; k-- {
		if strings.TrimSpace(m.lines[k]) != "" {
			return k
		}
	}
	return -1
}

// orderLike reports a line that the grammar could not read but that reads
// as a failed order rather than a signature: a short line that names a
// place of the game or starts with one of its words, with no telephone
// number, address or rule in it.
func (m *mailState) orderLike(t string) bool {
	if strings.ContainsAny(t, "|@©") || len(t) > 80 {
		return false
	}
	run, long := 0, false
	for _, r := range t {
		if unicode.IsDigit(r) {
			run++
			long = long || run >= 3
		} else if r != ' ' {
			run = 0
		}
	}
	if long {
		return false
	}
	var buf [16]Token
	toks := tokenize(t, buf[:0], m.p.prov)
	if len(toks) > 10 {
		return false
	}
	words := 0
	for i, tk := range toks {
		if tk.Kind != Word {
			if tk.Norm == "->" {
				return true
			}
			continue
		}
		words++
		if m.p.prov != nil {
			if f, _ := m.p.prov.exact(toks, i, len(toks), true); f != nil {
				return true
			}
		}
		if i == 0 && m.p.vocab != nil && m.p.vocab.Keyword(tk.Norm) {
			return true
		}
	}
	return m.p.vocab == nil && words <= 6 // a grammar that declares no words: keep reporting
}
