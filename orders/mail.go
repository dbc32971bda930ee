package orders

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// blockEnd names the kind of line that closes a command block.
type blockEnd uint8

const (
	endNone   blockEnd = iota
	endPress           // ENDPRESS closes PRESS, BROADCAST and PSA
	endRules           // ENDRULES closes RULES
	endOrders          // ENDORDERS closes SET ORDERS (or the end of the mail)
	nBlockEnds
)

// mailState walks the lines of one body.
type mailState struct {
	p       *parser
	lines   []string
	out     []Line
	stopped bool // the rest of the mail is signature or quoted original
	closing bool // a closing formula ("Thanks", "Regards") was seen
	last    int  // index of the last line with text (-1: none)
	// end is the first line of the reply's tail: a quote, its attribution,
	// a signature or a client's footer (len(lines): none).
	end int
	// comment is the index of the last line that is or ends with a comment
	// (-1: none), for a comment the client wrapped onto the next line.
	comment int
	// noEndFrom[k]: no end line of kind k exists at or after this index
	// (memo that keeps block look-ahead linear).
	noEndFrom [nBlockEnds]int
}

func (m *mailState) run() {
	for k := range m.noEndFrom {
		m.noEndFrom[k] = len(m.lines) + 1
	}
	m.last = len(m.lines) - 1
	for m.last >= 0 && strings.TrimSpace(m.lines[m.last]) == "" {
		m.last--
	}
	m.end, m.comment = len(m.lines), -1
	for i := 0; i < len(m.lines); i++ {
		i = m.line(i)
	}
	m.signature()
}

// tail marks line i as part of the reply's tail (see mailState.end).
func (m *mailState) tail(i int) {
	m.end = min(m.end, i)
}

// line classifies line i and returns the index of the last line it used.
func (m *mailState) line(i int) int {
	l := &m.out[i]
	l.Kind = Ignored
	m.p.sc.work++
	if m.stopped {
		return i
	}
	t := strings.TrimSpace(m.lines[i])
	switch {
	case t == "":
		return i
	case isSignature(t) || isOriginalMessage(t):
		m.stopped = true
		m.tail(i)
		return i
	case t[0] == '>':
		m.tail(i)
		return i
	case strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//"):
		m.comment = i
		return i
	case isClientFooter(t):
		m.tail(i)
		return i
	}
	if isQuoteHeader(t) {
		m.tail(i)
		return m.quoteHeader(i, i)
	}
	if m.headerBlock(i, t) {
		m.stopped = true // an Outlook-style quoted original: "From: …" / "Sent: …", "Von: …" / "Gesendet: …"
		m.tail(i)
		return i
	}
	if i+1 < len(m.lines) && endsWithColon(m.lines[i+1]) && (hasPrefixFold(t, "on ") && isQuoteHeader(strings.TrimSpace(m.lines[i+1])) || m.wrappedQuoteHeader(i, t)) {
		m.out[i+1].Kind = Ignored
		m.tail(i)
		return m.quoteHeader(i, i+1)
	}
	if c := stripComment(t); c != t {
		m.comment = i
		t = c
	}
	if t == "" || !hasAlnum(t) {
		return i // a divider ("-----", "*****") or a smiley
	}
	word := firstWordIn(t, m.p.prov)
	if word == "signoff" {
		// njudge: nothing after SIGNOFF is read
		m.stopped = true
		m.tail(i)
		return i
	}
	if e := endWord(t); e != endNone {
		l.Kind = ErrorLine
		l.Diags = []Diagnostic{{Severity: Error, Message: "this end line closes no block", Suggestion: endExample(e)}}
		return i
	}
	verb, isCmd := commandWords[word]
	if !isCmd && (strings.TrimRight(word, "?") == "whatif" || word == "what" && isWhatIf(t)) {
		verb, isCmd = VerbWhatIf, true
	}
	if isCmd && softCommands[verb] && m.p.grammar != nil {
		// the game's own order that starts with the same word wins when
		// it reads
		if m.tryOrder(i, t) {
			return i
		}
		l.Diags = nil
	}
	if isCmd && m.p.prov != nil {
		if _, also := m.p.prov.first[word]; also {
			// a name of the grammar (a province) spelled like a command
			// word: the order reading wins when it works
			if m.tryOrder(i, t) {
				return i
			}
		}
	}
	if isCmd {
		return m.command(i, t, verb)
	}
	if m.greeting(word, t) {
		return i
	}
	if m.heading(t) {
		return i
	}
	if m.chatter(t) {
		return i
	}
	if m.p.grammar != nil {
		if !m.tryOrder(i, t) {
			l.Kind = ErrorLine
			if m.signedName(i, t) {
				l.Kind, l.Diags = Ignored, nil
			} else if m.wrappedComment(i) {
				l.Kind, l.Diags = Ignored, nil
				m.comment = i
			}
		}
		return i
	}
	l.Kind = ErrorLine
	msg := "not understood: this mail is read for commands only (JOIN, SIGNON, LIST, HELP …)"
	l.Diags = []Diagnostic{{Severity: Error, Message: msg, Suggestion: "HELP"}}
	return i
}

// tryOrder reads line i as an order; on failure it leaves the diagnostics on
// the line and reports false.
func (m *mailState) tryOrder(i int, t string) bool {
	l := &m.out[i]
	v, diags := m.p.order(t)
	if v == nil {
		l.Diags = copyDiags(diags)
		return false
	}
	l.Kind = OrderLine
	l.Diags = copyDiags(diags)
	l.Value = v
	return true
}

func copyDiags(ds []Diagnostic) []Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	return append([]Diagnostic(nil), ds...)
}

// quoteHeader handles an "On … wrote:" header spanning lines i..j: quoted
// text follows. When it is not marked with ">", the rest of the mail is the
// quoted original.
func (m *mailState) quoteHeader(i, j int) int {
	for k := j + 1; k < len(m.lines); k++ {
		m.p.sc.work++
		t := strings.TrimSpace(m.lines[k])
		if t == "" {
			continue
		}
		if t[0] != '>' {
			m.stopped = true
		}
		break
	}
	return j
}

// isSignature reports a signature separator ("-- ", also written "--").
func isSignature(t string) bool {
	return t == "--" || t == "—" || t == "–"
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// firstWord returns the first word of t in lower case, without trailing
// punctuation ("Hi," ⇒ "hi"); it allocates only for long or odd words.
func firstWord(t string) string { return firstWordIn(t, nil) }

// firstWordIn is firstWord that also returns the shared copy of a word of
// dict (see Names.AddWords).
func firstWordIn(t string, dict *Names) string {
	end := strings.IndexAny(t, " \t")
	if end < 0 {
		end = len(t)
	}
	w := strings.TrimRight(t[:end], ",.!:;")
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'A' && c <= 'Z' {
			if len(w) <= 16 {
				var b [16]byte
				for j := 0; j < len(w); j++ {
					c := w[j]
					if c >= 'A' && c <= 'Z' {
						c += 'a' - 'A'
					}
					b[j] = c
				}
				if k, ok := internWords()[string(b[:len(w)])]; ok {
					return k
				}
				if dict != nil {
					if k, ok := dict.words[string(b[:len(w)])]; ok {
						return k
					}
				}
			}
			return strings.ToLower(w)
		}
	}
	return w
}

// greetings open or close a mail; a short line that starts with one is
// ignored. closers also mark the start of the sender's name block.
var greetings = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"hi": false, "hello": false, "hey": false, "dear": false, "greetings": false, "hiya": false,
		"howdy": false, "good": false, "morning": false, "evening": false, "afternoon": false, "yo": false,
		"salut": false, "bonjour": false, "hallo": false, "hola": false, "gm": false, "gm,": false,
		"thanks": true, "thank": true, "thx": true, "ty": true, "cheers": true, "regards": true, "best": true,
		"kind": true, "warm": true, "warmest": true, "yours": true, "sincerely": true, "bye": true, "ciao": true,
		"love": true, "cordially": true, "respectfully": true, "take": true, "later": true, "merci": true, "danke": true,
		"br": true, "rgds": true, "done": true, "ok": true, "okay": true, "that's": true, "thats": true,
		"good-bye": true, "goodbye": true, "talk": true, "see": true,
		// German
		"liebe": false, "lieber": false, "sehr": false, "guten": false, "moin": false, "servus": true,
		"grüß": false, "viele": true, "viel": true, "beste": true, "mit": true, "lg": true, "mfg": true, "vg": true,
		"gruß": true, "grüße": true, "gruss": true, "grüsse": true, "herzliche": true, "tschüss": true, "bis": true,
		"vielen": true, "dankeschön": true,
		// French
		"bonsoir": false, "coucou": false, "cher": false, "chère": false, "chers": false, "madame": false,
		"monsieur": false, "cordialement": true, "amicalement": true, "bises": true, "salutations": true,
		"bien": true, "bonne": true, "amitiés": true, "au": true, "excellente": true,
		// Spanish
		"buenos": false, "buenas": false, "estimado": false, "estimada": false, "estimados": false, "querido": false,
		"saludos": true, "un": true, "atentamente": true, "abrazos": true, "gracias": true, "suerte": true,
		"buena": true, "hasta": true, "muchas": true,
		// Portuguese
		"olá": false, "oi": false, "prezado": false, "prezada": false, "bom": false, "abraços": true, "abraço": true,
		"cumprimentos": true, "atenciosamente": true, "obrigado": true, "obrigada": true, "boa": true, "beijos": true,
		// Italian
		"buongiorno": false, "buonasera": false, "salve": false, "caro": false, "cara": false, "cari": false,
		"gentile": false, "saluti": true, "cordiali": true, "distinti": true, "grazie": true, "buona": true,
		// Dutch
		"hoi": false, "goedemorgen": false, "goedemiddag": false, "goedenavond": false,
		"groeten": true, "groetjes": true, "groet": true, "met": true, "bedankt": true, "succes": true, "veel": true,
		"hartelijke": true, "vriendelijke": true,
		// Polish
		"cześć": false, "witam": false, "dzień": false, "szanowny": false, "szanowni": false, "drogi": false,
		"pozdrawiam": true, "pozdrowienia": true, "dzięki": true, "dziękuję": true, "powodzenia": true, "serdeczne": true,
		// Russian
		"привет": false, "здравствуйте": false, "добрый": false, "уважаемый": false, "уважаемые": false,
		"с": true, "спасибо": true, "удачи": true, "всего": true, "до": true, "пока": true,
		// Nordic, Czech, Turkish
		"hej": false, "hei": false, "moi": false, "ahoj": false, "dobrý": false, "merhaba": false, "mvh": true,
		"hälsningar": true, "vänliga": true, "med": true, "tack": true, "takk": true, "tak": true, "kiitos": true,
		"terveisin": true, "díky": true, "děkuji": true, "saygılarımla": true, "teşekkürler": true,
	}
})

// openingPrefixes and closingPrefixes are greetings and closings written
// without spaces (Japanese, Chinese, Korean): a short line that starts with
// one is ignored.
var (
	openingPrefixes = []string{"お疲れ様", "おつかれさま", "こんにちは", "こんばんは", "おはよう", "いつもお世話", "お世話になって", "你好", "您好", "안녕하세요"}
	closingPrefixes = []string{"よろしく", "宜しく", "ありがとう", "以上", "谢谢", "謝謝", "此致", "감사합니다"}
)

// greeting reports (and remembers) a greeting or closing formula.
func (m *mailState) greeting(word, t string) bool {
	closer, ok := greetings()[word]
	if !ok && word != "" && word[0] >= utf8.RuneSelf {
		closer, ok = greetings()[strings.ToLower(word)]
	}
	if !ok && len(t) <= 120 && t[0] >= utf8.RuneSelf {
		for _, p := range openingPrefixes {
			ok = ok || strings.HasPrefix(t, p)
		}
		for _, p := range closingPrefixes {
			if strings.HasPrefix(t, p) {
				ok, closer = true, true
			}
		}
	}
	if !ok {
		if m.closing && m.nameLine(t) {
			return true
		}
		return false
	}
	if m.p.prov != nil {
		if _, isName := m.p.prov.first[word]; isName {
			return false
		}
	}
	if strings.ContainsAny(t, "-–>") || len(strings.Fields(t)) > 12 {
		return false
	}
	if closer {
		m.closing = true
	}
	return true
}

// nameLine reports a short line after a closing formula that is the
// sender's name, not an order: at most three words, no order punctuation,
// no word a name or keyword of the grammar's Vocabulary; a grammar without
// a Vocabulary is asked whether it reads the line.
func (m *mailState) nameLine(t string) bool {
	if strings.ContainsAny(t, "-–>/()\":") {
		return false
	}
	f := strings.Fields(t)
	if len(f) > 3 {
		return false
	}
	if m.p.prov != nil {
		for _, w := range f {
			if _, isName := m.p.prov.first[normWord(strings.Trim(w, ",.!"))]; isName {
				return false
			}
		}
	}
	if m.p.vocab != nil {
		for _, w := range f {
			if m.p.vocab.Keyword(normWord(strings.Trim(w, ",.!"))) {
				return false
			}
		}
	}
	if m.p.vocab == nil && m.p.grammar != nil {
		// a grammar that does not declare its words is asked
		if v, _ := m.p.order(t); v != nil {
			return false // the game's order after "Thanks", not a name
		}
	}
	return true
}

// signedName reports the sender's name signed at the end of a mail with
// no closing formula ("A Bud - Ser", a blank line, "Amélie"): the last line
// with text, after a blank line, starting with a capital letter, that the
// grammar could not read and that passes nameLine (no name or keyword of
// the game in it). Anything else that cannot be read stays an error.
func (m *mailState) signedName(i int, t string) bool {
	if i != m.last || i == 0 || strings.TrimSpace(m.lines[i-1]) != "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(r) && m.nameLine(t)
}

// heading reads a line that is only a power name, with or without a colon
// ("England:", "FRANCE"): the orders below it belong to that power.
func (m *mailState) heading(t string) bool {
	if m.p.pow == nil || len(t) > 64 || m.p.pow.first[normWordIn(firstWordIn(t, m.p.prov), m.p.pow)] == nil {
		return false
	}
	n, ok := m.p.pow.Lookup(strings.TrimSpace(strings.TrimRight(t, ":")))
	if !ok {
		return false
	}
	m.p.sc.heading = strings.ToLower(n.ID)
	return true
}

// chatterWords are the words of lines such as "Here are my orders for Spring
// 1901:" that carry no order; anchorWords must appear for such a line to be
// ignored.
var chatterWords = map[string]bool{
	"here": true, "are": true, "is": true, "my": true, "our": true, "the": true, "for": true, "this": true,
	"these": true, "turn": true, "phase": true, "season": true, "year": true, "as": true, "follows": true,
	"following": true, "below": true, "please": true, "find": true, "see": true, "new": true, "updated": true,
	"revised": true, "final": true, "of": true, "and": true, "in": true, "list": true, "end": true, "set": true,
	"game": true, "i": true, "am": true, "sending": true, "send": true, "submit": true, "submitting": true,
	"ad": true, "auc": true, "bc": true, "with": true, "from": true, "units": true, "unit": true,
}

var anchorWords = map[string]bool{
	"orders": true, "order": true, "spring": true, "summer": true, "fall": true, "autumn": true,
	"winter": true, "movement": true, "movements": true, "retreat": true, "retreats": true,
	"build": true, "builds": true, "adjustment": true, "adjustments": true, "moves": true,
}

// chatter reports a line that only announces orders ("My orders for Spring
// 1901:", "S1901M", "End of orders").
func (m *mailState) chatter(t string) bool {
	if len(t) > 200 {
		return false
	}
	if w := firstWordIn(t, m.p.prov); !chatterWords[w] && !anchorWords[w] && !isPhaseID(w) && !isNumber(w) &&
		(m.p.pow == nil || m.p.pow.first[normWord(w)] == nil) {
		return false
	}
	var buf [24]Token
	toks := tokenize(t, buf[:0], m.p.pow)
	anchor := false
	for i := 0; i < len(toks); i++ {
		tk := toks[i]
		if tk.Kind == Punct {
			switch tk.Norm {
			case ":", ",", "!", "-", "(", ")", "/":
				continue
			}
			return false
		}
		switch {
		case anchorWords[tk.Norm]:
			anchor = true
		case isPhaseID(tk.Norm):
			anchor = true
		case chatterWords[tk.Norm] || isNumber(tk.Norm):
		default:
			if m.p.pow != nil {
				if f, next := m.p.pow.exact(toks, i, len(toks), true); f != nil {
					i = next - 1
					continue
				}
				if base, ok := possessive(tk); ok && m.p.pow.isWord(base) {
					continue // "Rome's orders"
				}
			}
			return false
		}
	}
	return anchor
}

// isPhaseID matches judge phase names like "s1901m", "f451r", "w1905a".
func isPhaseID(s string) bool {
	if len(s) < 5 || len(s) > 7 || strings.IndexByte("sfwu", s[0]) < 0 || strings.IndexByte("mrab", s[len(s)-1]) < 0 {
		return false
	}
	return isNumber(s[1 : len(s)-1])
}

// possessive returns the word before "'s" ("Rome's" ⇒ "rome").
func possessive(t Token) (string, bool) {
	for _, suf := range []string{"'s", "’s", "'S", "’S"} {
		if strings.HasSuffix(t.Text, suf) && len(t.Norm) > 1 {
			return t.Norm[:len(t.Norm)-1], true
		}
	}
	return "", false
}

// hasAlnum reports whether s holds a letter or a digit.
func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
