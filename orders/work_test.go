package orders

import "strings"

// parseWork parses body as a mail and returns the parser's steps (tokens,
// look-ahead lines, name comparisons): the count TestParseWorkIsLinear
// (work_linear_test.go) compares.
func parseWork(body string, opts Options) int {
	p := newParser(opts)
	lines := splitLines(body)
	res := &Result{Lines: make([]Line, len(lines))}
	m := mailState{p: p, lines: lines, out: res.Lines}
	m.run()
	return p.sc.work
}

// garbage is a deterministic body of n lines of noise built to be costly:
// near-miss names (typo matching on every word), order words and
// punctuation in odd places, quotes, and now and then an over-long line. It
// holds no block command, so no line is swallowed by a block.
func garbage(n int) string {
	words := []string{
		"Burgandyy", "Mid-Atlantc", "Oceen", "Norht", "Sea", "Gulf", "of", "Pelusim", "Syrtix",
		"Tacapo", "zzzz", "qqqq", "A", "F", "S", "C", "-", "->", "=>", "(nc", "/sc", "\"",
		"via", "convoy", "Pari", "Bur", "Nor", "Sar", "Tyr", "xyzzy", "plugh", "Holand",
		"St", "Petersburgg", "east", "coast", "hold", "Constantinopel", "1.", "*", "#", "ok",
	}
	var b strings.Builder
	x := uint32(12345)
	next := func() int {
		x = x*1664525 + 1013904223
		return int(x >> 8)
	}
	for i := 0; i < n; i++ {
		if i%97 == 96 {
			b.WriteString(strings.Repeat("Burgandy ", 150)) // over the line-length cap
		}
		for k := 3 + next()%9; k > 0; k-- {
			b.WriteString(words[next()%len(words)])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	return b.String()
}
