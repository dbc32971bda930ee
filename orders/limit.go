package orders

import "strings"

// ReadLines counts the lines of body that Parse would read: not blank,
// not quoted ("> …", or below an unmarked quoted original), not a
// comment, and before the signature, a quoted original or SIGNOFF. It
// stops counting once it passes limit (limit ≤ 0: no limit) and never
// allocates more than the line it looks at, so a caller can refuse a
// body that is too long before paying for Parse.
func ReadLines(body string, limit int) int {
	n := 0
	quoteHeaderSeen := false // an "On … wrote:" header: is the text after it marked?
	for body != "" && (limit <= 0 || n <= limit) {
		var line string
		if i := strings.IndexAny(body, "\r\n"); i >= 0 {
			line = body[:i]
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			body = body[i+1:]
		} else {
			line, body = body, ""
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			continue
		case isSignature(t) || isOriginalMessage(t):
			return n
		case t[0] == '>':
			quoteHeaderSeen = false
			continue
		case quoteHeaderSeen:
			return n // quoted original without marks: Parse stops here
		case strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//"), isClientFooter(t):
			continue
		case isQuoteHeader(t):
			quoteHeaderSeen = true
			continue
		case hasPrefixFold(t, "from:") && nextLineIsHeader(body):
			return n // an Outlook-style header block above the original
		case firstWord(t) == "signoff":
			return n
		}
		n++
	}
	return n
}

// nextLineIsHeader reports whether the first line of rest is a header line
// of a quoted original ("Sent:", "Date:", …), as mailState.headerBlock.
func nextLineIsHeader(rest string) bool {
	if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	next := strings.TrimSpace(rest)
	for _, h := range []string{"sent:", "date:", "to:", "subject:", "cc:"} {
		if hasPrefixFold(next, h) {
			return true
		}
	}
	return false
}
