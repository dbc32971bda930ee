package orders

import (
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// TokenKind says whether a token is a word or punctuation.
type TokenKind uint8

const (
	Word  TokenKind = iota + 1 // letters and digits (dots and apostrophes inside are dropped from Norm)
	Punct                      // one punctuation mark, see Token.Norm
)

// Token is one word or punctuation mark of a line.
//
// Norm is the normalised form the grammars compare against: for a word, lower
// case with accents folded and dots and apostrophes removed ("St." ⇒ "st",
// "e.c." ⇒ "ec", "Sinaï" ⇒ "sinai"); for punctuation, one canonical mark:
// every dash is "-", every arrow ("->", "=>", "-->", ">", "→", "⇒", "➡" …) is "->", every
// double quote (straight, curly, guillemets) is `"`, "[" and "]" are "(" and ")".
type Token struct {
	Kind TokenKind
	Norm string
	Text string // as written
	Pos  int    // byte offset of Text in the line
}

// maxLineBytes bounds the work done on one line: longer lines are reported
// without being tokenized, so a garbage body costs linear time.
const maxLineBytes = 1000

// tokenize appends the tokens of line to buf and returns it.
func tokenize(line string, buf []Token, dict *Names) []Token {
	i := 0
	for i < len(line) {
		c := line[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n':
				i++
				continue
			case c == '-' || c == '=':
				j := i + 1
				for j < len(line) && (line[j] == '-' || line[j] == '=') {
					j++
				}
				if j < len(line) && line[j] == '>' {
					buf = append(buf, Token{Kind: Punct, Norm: "->", Text: line[i : j+1], Pos: i})
					i = j + 1
					continue
				}
				norm := "-"
				if c == '=' && j == i+1 {
					norm = "="
				}
				buf = append(buf, Token{Kind: Punct, Norm: norm, Text: line[i:j], Pos: i})
				i = j
				continue
			case c == '>':
				buf = append(buf, Token{Kind: Punct, Norm: "->", Text: line[i : i+1], Pos: i})
				i++
				continue
			case c == '"':
				buf = append(buf, Token{Kind: Punct, Norm: `"`, Text: line[i : i+1], Pos: i})
				i++
				continue
			case c == '\'' || c == '`':
				// An apostrophe inside a word belongs to it; elsewhere a single
				// quote only separates words.
				i++
				continue
			case c == '[':
				buf = append(buf, Token{Kind: Punct, Norm: "(", Text: line[i : i+1], Pos: i})
				i++
				continue
			case c == ']':
				buf = append(buf, Token{Kind: Punct, Norm: ")", Text: line[i : i+1], Pos: i})
				i++
				continue
			case c == '.':
				// A dot that does not belong to a word ("A Par H ." or "...").
				i++
				continue
			case isPunctByte(c):
				buf = append(buf, Token{Kind: Punct, Norm: line[i : i+1], Text: line[i : i+1], Pos: i})
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(line[i:])
			switch {
			case unicode.IsSpace(r):
				i += size
				continue
			case isDashRune(r):
				j := i + size
				if j < len(line) && line[j] == '>' {
					buf = append(buf, Token{Kind: Punct, Norm: "->", Text: line[i : j+1], Pos: i})
					i = j + 1
					continue
				}
				buf = append(buf, Token{Kind: Punct, Norm: "-", Text: line[i:j], Pos: i})
				i = j
				continue
			case isArrowRune(r):
				buf = append(buf, Token{Kind: Punct, Norm: "->", Text: line[i : i+size], Pos: i})
				i += size
				continue
			case r == '“' || r == '”' || r == '„' || r == '«' || r == '»':
				buf = append(buf, Token{Kind: Punct, Norm: `"`, Text: line[i : i+size], Pos: i})
				i += size
				continue
			case r == '‘' || r == '’':
				i += size
				continue
			case r == '•' || r == '·' || r == '…':
				buf = append(buf, Token{Kind: Punct, Norm: "*", Text: line[i : i+size], Pos: i})
				i += size
				continue
			case r == utf8.RuneError:
				i += size
				continue
			}
		}
		// A word: up to the next space or punctuation mark.
		j := i
		for j < len(line) {
			c := line[j]
			if c < utf8.RuneSelf {
				if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' ||
					c == '-' || c == '=' || c == '>' || c == '"' || c == '[' || c == ']' || isPunctByte(c) {
					break
				}
				if (c == '\'' || c == '`') && (j+1 >= len(line) || !isWordByte(line[j+1])) {
					break
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(line[j:])
			if unicode.IsSpace(r) || isPunctRune(r) {
				break
			}
			j += size
		}
		if j == i { // cannot happen, but never loop forever
			j = i + 1
		}
		text := line[i:j]
		if norm := normWordIn(text, dict); norm != "" {
			buf = append(buf, Token{Kind: Word, Norm: norm, Text: text, Pos: i})
		}
		i = j
	}
	return buf
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

func isPunctByte(c byte) bool {
	switch c {
	case '/', '(', ')', ',', ';', ':', '!', '?', '*', '+', '&', '{', '}', '|', '<', '\\', '~', '^', '$', '%', '#', '@':
		return true
	}
	return false
}

func isPunctRune(r rune) bool {
	switch r {
	case '“', '”', '„', '«', '»', '‘', '’', '•', '·', '…':
		return true
	}
	return r == utf8.RuneError || isDashRune(r) || isArrowRune(r)
}

// isDashRune reports the dashes players type for a move: en and em dash,
// minus, hyphens, the horizontal bar.
func isDashRune(r rune) bool {
	switch r {
	case '–', '—', '−', '‐', '‑', '‒', '―':
		return true
	}
	return false
}

// isArrowRune reports the arrows players type for a move, from a keyboard's
// symbols or a phone's emoji ("➡️" is "➡" and a variation selector, which
// cleanLine drops).
func isArrowRune(r rune) bool {
	switch r {
	case '→', '⇒', '➡', '➔', '➙', '➛', '➜', '➝', '➞', '➟', '➠', '➤', '⮕', '⟶', '⟹', '⇨', '⇾', '↦', '⭢', '🡒', '🠒', '🡺':
		return true
	}
	return false
}

// normWord lower-cases a word, folds common accents and drops dots and
// apostrophes. It returns text itself when nothing changes (no allocation).
func normWord(text string) string { return normWordIn(text, nil) }

// normWordIn is normWord that returns the shared copy of a known word (a
// keyword, or a word of dict's names) instead of allocating a new string.
func normWordIn(text string, dict *Names) string {
	clean := true
	ascii := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			clean = false
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
	}
	if clean {
		return text
	}
	if ascii && len(text) <= 32 {
		var b [32]byte
		n := 0
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			case c == '.' || c == '\'' || c == '`':
				continue
			}
			b[n] = c
			n++
		}
		if dict != nil {
			if w, ok := dict.words[string(b[:n])]; ok {
				return w
			}
			if dict.indexing {
				// NewNames is reading dict's own spellings: the word
				// becomes one of dict's (and a process that reads no mail
				// does not build the mail reader's table).
				return string(b[:n])
			}
		}
		if w, ok := internWords()[string(b[:n])]; ok {
			return w
		}
		return string(b[:n])
	}
	b := make([]byte, 0, len(text))
	for _, r := range text {
		switch {
		case r >= 'A' && r <= 'Z':
			b = append(b, byte(r+'a'-'A'))
		case r == '.' || r == '\'' || r == '`' || r == '’':
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		default:
			r = unicode.ToLower(r)
			if f, ok := foldAccent[r]; ok {
				b = append(b, f...)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return string(b)
}

// foldAccent maps accented Latin letters to their plain ASCII spelling, so
// "Sinaï" and "Sinai" are the same name.
var foldAccent = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss",
}

// internWords returns the words the mail reader compares against, so
// normalising them allocates nothing (a grammar adds its own keywords to its
// dictionary with Names.AddWords). The table is built at
// its first use, not by the package's init; after that a call is one
// atomic load (it runs for every word read).
func internWords() map[string]string {
	if m := interned.Load(); m != nil {
		return *m
	}
	return buildInternWords()
}

var (
	internOnce sync.Once
	interned   atomic.Pointer[map[string]string]
)

func buildInternWords() map[string]string {
	internOnce.Do(func() {
		out := map[string]string{}
		add := func(w string) { out[w] = w }
		for w := range commandWords {
			add(w)
		}
		for w := range greetings() {
			add(w)
		}
		for w := range chatterWords {
			add(w)
		}
		for w := range anchorWords {
			add(w)
		}
		for _, w := range []string{"with", "to", "junior", "juniors", "yes", "no", "on", "off", "fast", "slow", "all"} {
			add(w)
		}
		interned.Store(&out)
	})
	return *interned.Load()
}
