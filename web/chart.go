package web

import (
	"bytes"
	"fmt"
	"html"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// chartColors tell the powers' lines apart (in the engine's order of
// powers, round again past the last) when the engine gives its powers no
// colours (adjudicator.Painter).
var chartColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

// lineColors is each power's line colour: its colour in the game's
// pictures where the engine declares one (a light one darkened, so the
// line reads on white), else chartColors in the order of powers.
func lineColors(info adjudicator.Info, e adjudicator.Engine) []string {
	var painted map[string]picture.Color
	if p, ok := e.(adjudicator.Painter); ok {
		painted = p.PowerColors()
	}
	out := make([]string, len(info.Powers))
	for k, p := range info.Powers {
		c, ok := painted[p]
		if !ok {
			out[k] = chartColors[k%len(chartColors)]
			continue
		}
		if 0.2126*float64(c.R)+0.7152*float64(c.G)+0.0722*float64(c.B) > 170 {
			c = c.Mix(picture.Black, 0.3)
		}
		out[k] = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return out
}

// chart draws each power's score, page by page, as a small SVG line chart
// with a legend, each power in colors (one per info.Powers).
func chart(info adjudicator.Info, colors []string, entries []entry) []byte {
	const w, plotH, left, top, right = 640, 180, 36, 12, 12
	top2 := top + plotH
	maxScore := 1
	for _, e := range entries {
		for _, v := range e.Scores {
			maxScore = max(maxScore, v)
		}
	}
	legendRows := (len(info.Powers) + 3) / 4
	h := top2 + 28 + legendRows*20
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(scoreName(info)+" per power"))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
	x := func(i int) float64 {
		if len(entries) < 2 {
			return left
		}
		return left + float64(i)*float64(w-left-right)/float64(len(entries)-1)
	}
	y := func(v int) float64 { return float64(top2) - float64(v)*float64(plotH)/float64(maxScore) }
	for _, v := range []int{0, maxScore / 2, maxScore} {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#dddddd"/>`, left, y(v), w-right, y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" fill="#555555">%d</text>`+"\n", left-4, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555555">phase 0</text><text x="%d" y="%d" text-anchor="end" fill="#555555">phase %d</text>`+"\n", left, top2+16, w-right, top2+16, max(len(entries)-1, 0))
	for k, p := range info.Powers {
		color := colors[k]
		var pts bytes.Buffer
		for i, e := range entries {
			if v, ok := e.Scores[p]; ok {
				fmt.Fprintf(&pts, "%.1f,%.1f ", x(i), y(v))
			}
		}
		if pts.Len() > 0 {
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", color, bytes.TrimSpace(pts.Bytes()))
		}
		lx, ly := left+(k%4)*150, top2+34+(k/4)*20
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="14" height="4" fill="%s"/><text x="%d" y="%d" fill="#222222">%s</text>`+"\n", lx, ly-5, color, lx+18, ly, html.EscapeString(powerName(info, p)))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
