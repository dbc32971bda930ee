package orders

import "strings"

// Grammar reads the order lines of one game. Parse hands every line that is
// not blank, quoted, a comment or a mail command to the grammar, through a
// Scanner that already holds the line's tokens and offers the shared name
// matcher and diagnostics.
//
// ParseOrder returns the game's typed order for the line, stored in
// Line.Value, or nil after reporting why with Scanner.Fail (a nil result
// without a failure is reported as "not understood"). Warnings added with
// Scanner.Warn travel with the order. Each engine has its own grammar
// (Diplomacy's is in adjudicator/diplomacy); there is no default one.
type Grammar interface {
	ParseOrder(sc *Scanner) any
}

// Vocabulary is implemented by a Grammar that tells the mail reader its
// words, so that an order is not mistaken for something else. The mail
// reader asks a grammar without one to read a short line after a closing
// formula before it takes it for the sender's name.
type Vocabulary interface {
	// Names is the index of the names the game's orders use (Diplomacy: the
	// provinces), or nil. A line that begins with a command word which
	// also begins one of these names is first tried as an order; one that
	// begins with a greeting which does is no greeting; a short line after
	// a closing formula that holds one is not the sender's name. It is also
	// the tokenizer's dictionary (see Names.AddWords).
	Names() *Names
	// Keyword reports whether a normalised word is one of the grammar's
	// order words: a short line after a closing formula that holds one is
	// not the sender's name.
	Keyword(norm string) bool
}

// Scanner walks the tokens of one line for a Grammar.
type Scanner struct {
	line   string
	toks   []Token
	pos    int
	end    int // tokens at end and after are out of reach (inside a quote: its closing mark)
	ends   []int
	strict bool
	stop   func(string) bool
	diags  []Diagnostic
	failed bool
	hints  int // expensive "did you mean" searches left for this parse
	// heading is the power id of the last heading line ("England:") above
	// the line in a mail, "" when none.
	heading string
	work    int // steps done by this parse (tokens, look-ahead lines, name comparisons); see TestParseWorkIsLinear
}

// spendHint reports whether an expensive hint may still be computed: a
// garbage body must not cost a search per line.
func (s *Scanner) spendHint() bool {
	if s.hints <= 0 {
		return false
	}
	s.hints--
	return true
}

func (s *Scanner) reset(line string, toks []Token, strict bool) {
	s.line, s.toks, s.pos, s.end = line, toks, 0, len(toks)
	s.ends = s.ends[:0]
	s.strict = strict
	s.stop = nil
	s.diags = nil
	s.failed = false
}

// NewScanner returns a scanner over one line, for grammars tested on their own.
func NewScanner(line string, strict bool) *Scanner {
	s := &Scanner{hints: maxHints}
	s.reset(line, tokenize(line, nil, nil), strict)
	return s
}

// maxHints bounds the "did you mean" searches of one parse.
const maxHints = 64

// Line is the line as written.
func (s *Scanner) Line() string { return s.line }

// Strict reports whether every leniency is off.
func (s *Scanner) Strict() bool { return s.strict }

// Tokens are all tokens of the line.
func (s *Scanner) Tokens() []Token { return s.toks }

// Pos is the index of the next token; Seek goes back (or forward) to one.
func (s *Scanner) Pos() int { return s.pos }

// Seek moves to token index i.
func (s *Scanner) Seek(i int) { s.pos = min(max(i, 0), s.end) }

// Done reports whether every reachable token has been read.
func (s *Scanner) Done() bool { return s.pos >= s.end }

// Peek returns the next token without reading it (zero Token when done).
func (s *Scanner) Peek() Token {
	if s.pos >= s.end {
		return Token{}
	}
	return s.toks[s.pos]
}

// PeekAt returns the token n places ahead of the next one (0 = Peek).
func (s *Scanner) PeekAt(n int) Token {
	if s.pos+n >= s.end || s.pos+n < 0 {
		return Token{}
	}
	return s.toks[s.pos+n]
}

// Next reads one token (zero Token when done).
func (s *Scanner) Next() Token {
	if s.pos >= s.end {
		return Token{}
	}
	t := s.toks[s.pos]
	s.pos++
	return t
}

// Accept reads the next token if its Norm is one of words.
func (s *Scanner) Accept(words ...string) bool {
	if s.pos >= s.end {
		return false
	}
	n := s.toks[s.pos].Norm
	for _, w := range words {
		if n == w {
			s.pos++
			return true
		}
	}
	return false
}

// Rest is the text of the line from the next token on, as written.
func (s *Scanner) Rest() string {
	if s.pos >= len(s.toks) {
		return ""
	}
	return strings.TrimSpace(s.line[s.toks[s.pos].Pos:])
}

// TextFrom is the text as written from token i up to (not including) the
// next token.
func (s *Scanner) TextFrom(i int) string {
	if i >= len(s.toks) {
		return ""
	}
	end := len(s.line)
	if s.pos < len(s.toks) {
		end = s.toks[s.pos].Pos
	}
	if end < s.toks[i].Pos {
		return ""
	}
	return strings.TrimSpace(s.line[s.toks[i].Pos:end])
}

// EnterQuote reads an opening double quote, if there is one, and limits the
// scanner to the quoted words until LeaveQuote.
func (s *Scanner) EnterQuote() bool {
	if s.pos >= s.end || s.toks[s.pos].Norm != `"` {
		return false
	}
	s.pos++
	close := s.end
	for i := s.pos; i < s.end; i++ {
		if s.toks[i].Norm == `"` {
			close = i
			break
		}
	}
	s.ends = append(s.ends, s.end)
	s.end = close
	return true
}

// LeaveQuote ends a quote entered with EnterQuote: it reports whether every
// quoted word was read, and reads the closing quote.
func (s *Scanner) LeaveQuote() bool {
	if len(s.ends) == 0 {
		return s.Done() // no quote was entered
	}
	all := s.pos >= s.end
	s.pos = s.end
	s.end = s.ends[len(s.ends)-1]
	s.ends = s.ends[:len(s.ends)-1]
	if s.pos < s.end && s.toks[s.pos].Norm == `"` {
		s.pos++
	}
	return all
}

// SetStop tells the name matcher which words end a name (the grammar's
// keywords), so a misspelt name never swallows the word after it.
func (s *Scanner) SetStop(stop func(norm string) bool) { s.stop = stop }

// Warn adds a warning: the line is understood, but the player should look.
func (s *Scanner) Warn(msg, suggestion string) {
	s.diags = append(s.diags, Diagnostic{Severity: Warning, Message: msg, Suggestion: suggestion})
}

// Fail adds an error: the line has no effect.
func (s *Scanner) Fail(msg, suggestion string) {
	s.failed = true
	s.diags = append(s.diags, Diagnostic{Severity: Error, Message: msg, Suggestion: suggestion})
}

// DropErrors removes the errors added so far and keeps the warnings, for a
// grammar that replaces them with one better error; Failed stays as it is.
func (s *Scanner) DropErrors() {
	var kept []Diagnostic
	for _, d := range s.diags {
		if d.Severity == Warning {
			kept = append(kept, d)
		}
	}
	s.diags = kept
}

// Heading is the power id of the last heading line ("England:", "FRANCE")
// above this line in the mail, "" when there is none (see Options.Powers).
func (s *Scanner) Heading() string { return s.heading }

// NameAhead reports whether an exact spelling of a name of set (unless
// strict, also a generated short form) starts at the token n places ahead
// (0: the next one). It reads nothing.
func (s *Scanner) NameAhead(set *Names, n int) bool {
	if set == nil {
		return false
	}
	f, _ := set.exact(s.toks, s.pos+n, s.end, s.strict)
	return f != nil
}

// NameSpan reads the tokens from the next one up to (not including) token
// index end as exactly one name of set: one of its declared spellings, or,
// unless strict, a single word of three letters or more that begins exactly
// one name ("Eng" for England). It reads nothing.
func (s *Scanner) NameSpan(set *Names, end int) (Name, bool) {
	start := s.pos
	if set == nil || end > s.end {
		return Name{}, false
	}
	f, next := set.exact(s.toks, start, end, true)
	if f != nil && next == end && len(f.entries) == 1 {
		return set.list[f.entries[0]], true
	}
	if s.strict {
		return Name{}, false
	}
	if e := set.uniquePrefix(s.toks, start, end); e >= 0 {
		return set.list[e], true
	}
	return Name{}, false
}

// Hint suggests the name of set closest to text, an unknown spelling ("did
// you mean Burgundy (Bur)?"), or "" when no single name is near. One parse
// computes a bounded number of hints: after that Hint returns "".
func (s *Scanner) Hint(set *Names, text string) string {
	if set == nil || text == "" || !s.spendHint() {
		return ""
	}
	return set.closest(normWord(text))
}

// Failed reports whether Fail was called.
func (s *Scanner) Failed() bool { return s.failed }

// Diagnostics are the warnings and errors added so far.
func (s *Scanner) Diagnostics() []Diagnostic { return s.diags }

// Name reads one name of set: the longest exact spelling; else, unless
// strict, a generated short form, a unique prefix or a unique close spelling
// (these add a warning saying what was read). A quoted name must fill its
// quotes. On failure nothing is read and the error is a *NameError.
func (s *Scanner) Name(set *Names) (NameMatch, error) {
	if set == nil {
		return NameMatch{}, &NameError{Text: s.wordText(s.pos), Noun: "name"}
	}
	start := s.pos
	if f, next := set.exact(s.toks, s.pos, s.end, s.strict); f != nil {
		if !s.strict && s.moreWords(next) {
			// More words follow that the grammar cannot take: a longer name
			// misspelt ("Black Sae") beats the exact shorter one ("Black").
			s.work += len(set.forms) * (set.maxWords + 2)
			if e, after := set.longerTypo(s.toks, start, s.end, len(f.words), s.stop); e >= 0 {
				s.pos = after
				m := s.match(set, e, start, MatchTypo)
				s.Warn(quote(m.Text)+" read as "+describe(set.list[e]), "")
				return m, nil
			}
		}
		if len(f.entries) > 1 {
			return NameMatch{}, s.ambiguous(set, start, next, f.entries)
		}
		s.pos = next
		how := MatchExact
		if f.lenient {
			how = MatchLenient
		}
		return s.match(set, f.entries[0], start, how), nil
	}
	if s.strict || s.pos >= s.end {
		return NameMatch{}, &NameError{Text: s.wordText(start), Noun: set.noun}
	}
	s.work += len(set.forms) * (set.maxWords + 2)
	entry, how, next, cands := set.fuzzy(s.toks, s.pos, s.end, s.stop)
	if len(cands) > 0 {
		return NameMatch{}, s.ambiguous(set, start, start+1, cands)
	}
	if entry < 0 {
		return NameMatch{}, &NameError{Text: s.wordText(start), Noun: set.noun}
	}
	s.pos = next
	m := s.match(set, entry, start, how)
	s.Warn(quote(m.Text)+" read as "+describe(set.list[entry]), "")
	return m, nil
}

// moreWords reports whether the token at i continues a name: a word that is
// not a keyword, or a hyphen written tight between two words
// ("Mid-Atlantc").
func (s *Scanner) moreWords(i int) bool {
	if i >= s.end {
		return false
	}
	t := s.toks[i]
	if t.Kind == Punct {
		return t.Norm == "-" && i > 0 && i+1 < s.end && s.toks[i+1].Kind == Word && tight(s.toks[i-1], t, s.toks[i+1])
	}
	return s.stop == nil || !s.stop(t.Norm)
}

func (s *Scanner) match(set *Names, entry, start int, how MatchKind) NameMatch {
	return NameMatch{Index: entry, ID: strings.ToLower(set.list[entry].ID), Text: s.span(start, s.pos), How: how}
}

func (s *Scanner) ambiguous(set *Names, start, next int, entries []int) error {
	e := &NameError{Text: s.span(start, next), Noun: set.noun, Next: next}
	for i, x := range entries {
		if i == 6 {
			break
		}
		e.Candidates = append(e.Candidates, set.list[x])
	}
	return e
}

// span is the text as written of tokens [i, j).
func (s *Scanner) span(i, j int) string {
	if i >= j || i >= len(s.toks) {
		return ""
	}
	last := s.toks[min(j, len(s.toks))-1]
	return s.line[s.toks[i].Pos : last.Pos+len(last.Text)]
}

// wordText is the text of token i as written, for messages.
func (s *Scanner) wordText(i int) string {
	if i >= s.end || i >= len(s.toks) {
		return ""
	}
	return s.toks[i].Text
}

func quote(s string) string { return `"` + s + `"` }
