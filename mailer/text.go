package mailer

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlToText renders an HTML body as readable plain text: block elements
// and <br> become line breaks, <blockquote> becomes "> " quoting, <script>,
// <style>, <head> and comments vanish, entities are decoded, runs of white
// space collapse outside <pre>, and a table row is one line, its cells
// separated by a space (a webmail wraps each cell's text in a <div> or
// <p>: that breaks a line only between two texts of one cell). It is not
// a browser: it never fails, and it keeps every word the reader would
// have seen. The tokenizer is golang.org/x/net/html's.
func htmlToText(src string) string {
	var r htmlRenderer
	z := html.NewTokenizer(strings.NewReader(src))
	skip := "" // element whose content is dropped (script, style, …)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken: // the end of src (reading a string fails no other way)
			return tidyText(r.out.String())
		case html.TextToken:
			if skip == "" {
				r.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			closing := tt == html.EndTagToken
			if skip != "" {
				if closing && string(name) == skip {
					skip = ""
				}
				continue
			}
			switch n := string(name); n {
			case "script", "style", "head", "title", "template", "noscript":
				if tt == html.StartTagToken {
					skip = n
				}
			default:
				r.tag(n, closing)
			}
		}
	}
}

// htmlRenderer writes the text of an HTML document as htmlToText says.
type htmlRenderer struct {
	out      strings.Builder
	quote    int  // blockquote depth
	pre      int  // <pre> depth
	lineOpen bool // something written on the current line
	space    bool // a collapsed space is pending
	// cells has, for each table the renderer is in (innermost last),
	// whether it is in one of its cells
	cells []bool
	// cellText is set when the current cell has text; cellBreak is a line
	// break asked for after it, written only when more text of the cell
	// follows
	cellText, cellBreak bool
}

func (r *htmlRenderer) inCell() bool { return len(r.cells) > 0 && r.cells[len(r.cells)-1] }

func (r *htmlRenderer) newline() {
	r.out.WriteByte('\n')
	r.lineOpen = false
	r.space = false
}

func (r *htmlRenderer) breakLine() {
	if r.lineOpen {
		r.newline()
	}
}

// paragraph ends the line and leaves one blank line (at most one between
// blocks; tidyText trims them at the end).
func (r *htmlRenderer) paragraph() {
	r.breakLine()
	if s := r.out.String(); s != "" && !strings.HasSuffix(s, "\n\n") {
		r.out.WriteString(strings.Repeat("> ", r.quote))
		r.newline()
	}
}

// setCell records whether the renderer is in a cell of the innermost table.
func (r *htmlRenderer) setCell(in bool) {
	if len(r.cells) > 0 {
		r.cells[len(r.cells)-1] = in
	}
	r.cellText, r.cellBreak = false, false
}

func (r *htmlRenderer) text(s string) {
	for _, c := range s {
		if c == '\u00a0' {
			c = ' '
		}
		if r.pre == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			if r.lineOpen {
				r.space = true
			}
			continue
		}
		if r.pre > 0 && c == '\r' {
			continue
		}
		if r.cellBreak {
			r.cellBreak = false
			r.breakLine()
		}
		r.cellText = true
		if r.pre > 0 && c == '\n' {
			if !r.lineOpen {
				r.out.WriteString(strings.Repeat("> ", r.quote))
			}
			r.newline()
			continue
		}
		if !r.lineOpen {
			r.out.WriteString(strings.Repeat("> ", r.quote))
			r.lineOpen = true
		} else if r.space {
			r.out.WriteByte(' ')
		}
		r.space = false
		r.out.WriteRune(c)
	}
}

func (r *htmlRenderer) tag(name string, closing bool) {
	switch name {
	case "table":
		r.paragraph()
		if closing {
			if len(r.cells) > 0 {
				r.cells = r.cells[:len(r.cells)-1]
			}
		} else {
			r.cells = append(r.cells, false)
		}
		r.cellText, r.cellBreak = false, false
	case "tr":
		r.setCell(false)
		r.breakLine()
	case "td", "th":
		r.setCell(!closing)
		if !closing && r.lineOpen {
			r.space = true
		}
	case "br", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "hr",
		"div", "li", "dt", "dd", "section", "article", "header", "footer", "address", "center", "form", "fieldset":
		switch {
		case r.inCell():
			r.cellBreak = r.cellText
		case name == "br":
			if !r.lineOpen {
				r.out.WriteString(strings.Repeat("> ", r.quote))
			}
			r.newline()
		case len(name) == 2 && name[0] == 'h' || name == "p" || name == "ul" || name == "ol" || name == "dl":
			r.paragraph()
		default:
			r.breakLine()
		}
	case "blockquote":
		if closing {
			r.breakLine()
			if r.quote > 0 {
				r.quote--
			}
			r.paragraph()
		} else {
			r.paragraph()
			r.quote++
		}
	case "pre":
		r.breakLine()
		if closing {
			if r.pre > 0 {
				r.pre--
			}
		} else {
			r.pre++
		}
	}
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
