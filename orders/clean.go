package orders

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// cleanLine is what the reader sees of a line: characters that a player
// cannot see or did not mean are gone before anything is read. Orders
// pasted from a web page carry zero-width spaces and joiners, a phone's
// emoji keyboard adds a variation selector to "➡", a Japanese input method
// types full-width letters ("Ａ Ｐａｒ－Ｂｕｒ"), and mail clients write
// non-breaking and other Unicode spaces. So:
//
//   - format characters (zero-width space, joiner and non-joiner, word
//     joiner, BOM, soft hyphen, direction marks) and variation selectors
//     are dropped;
//   - every Unicode space becomes an ASCII space;
//   - full-width forms become their ASCII letters, digits and punctuation
//     (golang.org/x/text/width's Fold).
//
// A line of ASCII comes back as it is, without work.
func cleanLine(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r) || isVariationSelector(r):
			continue
		case r != ' ' && unicode.IsSpace(r):
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return width.Fold.String(b.String())
}

func isVariationSelector(r rune) bool {
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF
}
