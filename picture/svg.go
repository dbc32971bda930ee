package picture

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteSVG writes the picture as SVG text. The same picture always gives
// the same bytes.
func (p *Picture) WriteSVG(w io.Writer) error {
	s := &svgWriter{w: bufio.NewWriter(w)}
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Go, Arial, Helvetica, sans-serif">`+"\n", p.Width, p.Height, p.Width, p.Height)
	if p.Title != "" {
		s.printf("<title>%s</title>\n", esc(p.Title))
	}
	if p.Background.A != 0 {
		s.printf(`<rect width="%d" height="%d"%s/>`+"\n", p.Width, p.Height, paint("fill", p.Background))
	}
	s.items(p.Items)
	s.printf("</svg>\n")
	return s.w.Flush()
}

type svgWriter struct {
	w *bufio.Writer
}

func (s *svgWriter) printf(format string, a ...any) { fmt.Fprintf(s.w, format, a...) }

// num prints a coordinate rounded to 0.01 without trailing zeros.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func hex(c Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// paint is the attribute pair of a colour (and its opacity when not opaque).
func paint(attr string, c Color) string {
	if c.A == 0 {
		return fmt.Sprintf(` %s="none"`, attr)
	}
	out := fmt.Sprintf(` %s="%s"`, attr, hex(c))
	if c.A != 255 {
		out += fmt.Sprintf(` %s-opacity="%s"`, attr, num(float64(c.A)/255))
	}
	return out
}

func styleAttrs(st Style, fill bool) string {
	var b strings.Builder
	if fill {
		b.WriteString(paint("fill", st.Fill))
	} else {
		b.WriteString(` fill="none"`)
	}
	if st.Stroke.A != 0 {
		b.WriteString(paint("stroke", st.Stroke))
		fmt.Fprintf(&b, ` stroke-width="%s" stroke-linejoin="round"`, num(strokeWidth(st)))
		if len(st.Dash) > 0 {
			var d []string
			for _, v := range st.Dash {
				d = append(d, num(v))
			}
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, strings.Join(d, " "))
		}
	}
	return b.String()
}

func pathData(b *strings.Builder, pts []Point, closed bool) {
	for i, q := range pts {
		if i == 0 {
			b.WriteByte('M')
		} else {
			b.WriteByte('L')
		}
		b.WriteString(num(q.X))
		b.WriteByte(' ')
		b.WriteString(num(q.Y))
	}
	if closed && len(pts) > 0 {
		b.WriteByte('Z')
	}
}

func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

func idAttr(id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf(` id="%s"`, esc(id))
}

func (s *svgWriter) items(items []Item) {
	for _, it := range items {
		switch v := it.(type) {
		case *Path:
			s.path(v)
		case *Circle:
			s.printf(`<circle cx="%s" cy="%s" r="%s"%s/>`+"\n", num(v.C.X), num(v.C.Y), num(v.R), styleAttrs(v.Style, true))
		case *Arrow:
			s.arrow(v)
		case *Text:
			s.text(v)
		case *Group:
			s.printf("<g%s>\n", idAttr(v.ID))
			s.items(v.Items)
			s.printf("</g>\n")
		case *Layer:
			s.printf("<g%s>\n", idAttr(v.ID))
			s.items(v.items)
			s.printf("</g>\n")
		case *RegionFill:
			s.regions(v)
		}
	}
}

func (s *svgWriter) path(p *Path) {
	if len(p.Rings) > 0 {
		var b strings.Builder
		for _, r := range p.Rings {
			pathData(&b, r, true)
		}
		s.printf(`<path d="%s" fill-rule="evenodd"%s/>`+"\n", b.String(), styleAttrs(p.Style, true))
	}
	if len(p.Lines) > 0 && p.Stroke.A != 0 {
		var b strings.Builder
		for _, l := range p.Lines {
			pathData(&b, l, false)
		}
		s.printf(`<path d="%s"%s stroke-linecap="butt"/>`+"\n", b.String(), styleAttrs(p.Style, false))
	}
}

func (s *svgWriter) arrow(a *Arrow) {
	end, head := arrowGeometry(a)
	var d string
	if a.Curve {
		d = fmt.Sprintf("M%s %sQ%s %s %s %s", num(a.From.X), num(a.From.Y), num(a.Via.X), num(a.Via.Y), num(end.X), num(end.Y))
	} else {
		d = fmt.Sprintf("M%s %sL%s %s", num(a.From.X), num(a.From.Y), num(end.X), num(end.Y))
	}
	st := a.Style
	st.Fill = Color{}
	s.printf(`<path d="%s"%s/>`+"\n", d, styleAttrs(st, false))
	var b strings.Builder
	pathData(&b, head[:], true)
	hs := Style{Fill: a.Stroke}
	if a.HeadFill.A != 0 {
		hs = Style{Fill: a.HeadFill, Stroke: a.Stroke, StrokeWidth: strokeWidth(a.Style) * 0.8}
	}
	s.printf(`<path d="%s"%s/>`+"\n", b.String(), styleAttrs(hs, true))
}

func (s *svgWriter) text(t *Text) {
	if t.S == "" {
		return
	}
	anchor := ""
	switch t.Anchor {
	case Middle:
		anchor = ` text-anchor="middle"`
	case End:
		anchor = ` text-anchor="end"`
	}
	bold := ""
	if t.Bold {
		bold = ` font-weight="bold"`
	}
	halo := ""
	if t.Halo.A != 0 {
		halo = paint("stroke", t.Halo) + fmt.Sprintf(` stroke-width="%d" stroke-linejoin="round" paint-order="stroke"`, 2*haloRadius)
	}
	s.printf(`<text x="%s" y="%s" font-size="%s"%s%s%s%s>%s</text>`+"\n", num(t.At.X), num(t.At.Y), num(t.Size), anchor, bold, paint("fill", t.Color), halo, esc(t.S))
}

func (s *svgWriter) regions(f *RegionFill) {
	s.printf("<g%s>\n", idAttr(f.Set.ID))
	for i, rings := range f.Set.shapes {
		if i >= len(f.Fill) || f.Fill[i].A == 0 {
			continue
		}
		var b strings.Builder
		for _, r := range rings {
			pathData(&b, r, true)
		}
		title := ""
		if i < len(f.Set.names) && f.Set.names[i] != "" {
			title = "<title>" + esc(f.Set.names[i]) + "</title>"
		}
		s.printf(`<path d="%s" fill-rule="evenodd"%s>%s</path>`+"\n", b.String(), paint("fill", f.Fill[i]), title)
	}
	s.printf("</g>\n")
}
