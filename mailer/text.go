package mailer

import (
	"html"
	"strings"
)

// htmlToText renders an HTML body as readable plain text: block elements
// and <br> become line breaks, <blockquote> becomes "> " quoting, <script>,
// <style>, <head> and comments vanish, entities are decoded, runs of white
// space collapse outside <pre>. It is not a browser: it never fails, and
// it keeps every word the reader would have seen.
func htmlToText(src string) string {
	var (
		out      strings.Builder
		quote    int    // blockquote depth
		pre      int    // <pre> depth
		skip     string // element whose content is dropped (script, style, …)
		lineOpen bool   // something written on the current line
		space    bool   // a collapsed space is pending
	)
	newline := func() {
		out.WriteByte('\n')
		lineOpen = false
		space = false
	}
	writeText := func(s string) {
		for _, r := range s {
			if r == '\u00a0' {
				r = ' '
			}
			if pre == 0 && (r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f') {
				if lineOpen {
					space = true
				}
				continue
			}
			if pre > 0 && r == '\r' {
				continue
			}
			if pre > 0 && r == '\n' {
				if !lineOpen {
					out.WriteString(strings.Repeat("> ", quote))
				}
				newline()
				continue
			}
			if !lineOpen {
				out.WriteString(strings.Repeat("> ", quote))
				lineOpen = true
			} else if space {
				out.WriteByte(' ')
			}
			space = false
			out.WriteRune(r)
		}
	}
	breakLine := func() {
		if lineOpen {
			newline()
		}
	}
	paragraph := func() {
		breakLine()
		// at most one blank line between blocks; trimmed at the end
		s := out.String()
		if !strings.HasSuffix(s, "\n\n") && s != "" {
			out.WriteString(strings.Repeat("> ", quote))
			newline()
		}
	}

	i := 0
	for i < len(src) {
		lt := strings.IndexByte(src[i:], '<')
		if lt < 0 {
			if skip == "" {
				writeText(html.UnescapeString(src[i:]))
			}
			break
		}
		if lt > 0 && skip == "" {
			writeText(html.UnescapeString(src[i : i+lt]))
		}
		i += lt
		// comment, doctype, CDATA, processing instruction
		if strings.HasPrefix(src[i:], "<!--") {
			end := strings.Index(src[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		if strings.HasPrefix(src[i:], "<!") || strings.HasPrefix(src[i:], "<?") {
			end := strings.IndexByte(src[i:], '>')
			if end < 0 {
				break
			}
			i += end + 1
			continue
		}
		name, closing, end, ok := scanTag(src, i)
		if !ok {
			// a lone '<' in text
			if skip == "" {
				writeText("<")
			}
			i++
			continue
		}
		i = end
		if skip != "" {
			if closing && name == skip {
				skip = ""
			}
			continue
		}
		switch name {
		case "script", "style", "head", "title", "template", "noscript":
			if !closing {
				skip = name
			}
		case "br":
			if !lineOpen {
				out.WriteString(strings.Repeat("> ", quote))
			}
			newline()
		case "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "hr":
			paragraph()
		case "blockquote":
			if closing {
				breakLine()
				if quote > 0 {
					quote--
				}
				paragraph()
			} else {
				paragraph()
				quote++
			}
		case "pre":
			breakLine()
			if closing {
				if pre > 0 {
					pre--
				}
			} else {
				pre++
			}
		case "div", "tr", "li", "dt", "dd", "section", "article", "header", "footer", "address", "center", "form", "fieldset":
			breakLine()
		case "td", "th":
			if !closing && lineOpen {
				space = true
			}
		}
	}
	return tidyText(out.String())
}

// scanTag reads the tag starting at src[i] == '<'. It returns the lowercase
// element name, whether it is a closing tag, and the index after '>'.
func scanTag(src string, i int) (name string, closing bool, end int, ok bool) {
	j := i + 1
	if j < len(src) && src[j] == '/' {
		closing = true
		j++
	}
	if j >= len(src) || !(src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z') {
		return "", false, 0, false // "3<4" is text
	}
	start := j
	for j < len(src) && (isAlnum(src[j]) || src[j] == '-' || src[j] == ':') {
		j++
	}
	if j == start {
		return "", false, 0, false
	}
	name = strings.ToLower(src[start:j])
	var q byte
	for ; j < len(src); j++ {
		c := src[j]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return name, closing, j + 1, true
		}
	}
	return name, closing, len(src), true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// tidyText normalises line ends to \n, strips trailing blanks from each
// line, squeezes runs of blank lines to one and trims blank lines at both
// ends.
func tidyText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// unflow joins the soft line breaks of a format=flowed body (RFC 3676):
// a line ending in a space continues on the next line of the same quote
// depth; space-stuffing is removed; with delsp=yes the trailing space is
// deleted too. The signature separator "-- " never flows.
func unflow(s string, delsp bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	var out []string
	cur, curDepth, open := "", 0, false
	end := func() {
		line := strings.TrimRight(cur, " ")
		if curDepth > 0 {
			line = strings.Repeat(">", curDepth) + " " + line
		}
		out = append(out, line)
		cur, open = "", false
	}
	for _, l := range strings.Split(s, "\n") {
		depth := 0
		for depth < len(l) && l[depth] == '>' {
			depth++
		}
		body := strings.TrimPrefix(l[depth:], " ") // space-stuffing, or the space after '>'
		if open && depth != curDepth {
			end() // a paragraph never flows across quote depths
		}
		if body == "-- " {
			if open {
				end()
			}
			out = append(out, strings.Repeat("> ", depth)+"-- ")
			continue
		}
		flowed := strings.HasSuffix(body, " ")
		if flowed && delsp {
			body = body[:len(body)-1]
		}
		cur += body
		curDepth = depth
		open = true
		if !flowed {
			end()
		}
	}
	if open {
		end()
	}
	return strings.Join(out, "\n")
}
