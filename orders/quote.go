package orders

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file knows what mail clients put around a reply, in the languages
// most used in mail: the attribution line above a quote, the header block
// Outlook writes above the original, the rules above a forwarded or
// original message, and the footers phones and apps add. The words are the
// clients' own (Gmail, Apple Mail and iOS, Outlook desktop, web and mobile,
// Thunderbird, K-9 and FairEmail, Samsung Email, Yahoo, Proton) in English,
// German, French, Spanish, Portuguese, Italian, Dutch, Polish, Russian,
// Japanese, and where cheap the Nordic languages, Czech, Turkish, Chinese
// and Korean. All tables are compared in lower case.

// wroteWords are the verbs of an attribution line ("On …, Ann wrote:",
// "Am … schrieb Ann:", "Le … a écrit :", "… のメッセージ:").
var wroteWords = []string{
	"wrote", "writes",
	"schrieb", "schreibt", "geschrieben",
	"a écrit", "écrit",
	"escribió", "escribio",
	"escreveu",
	"ha scritto", "scrisse",
	"schreef", "geschreven",
	"napisał", "napisała", "napisana", "napisany", "napisal", "napisala", "pisze",
	"написал", "написала", "пишет", "написав",
	"skrev", "kirjoitti", "napsal", "napsala", "yazdı", "έγραψε", "írta", "a scris",
	"のメッセージ", "は書きました", "さんは書きました",
	"写道", "寫道", "작성", "님이 씀",
}

// isQuoteHeader reports an attribution line: "On Mon, 5 Jan 2026, Ann <a@b>
// wrote:", "Ann wrote:", the same in other languages, and the line with no
// verb that some clients write ("07.12.2026 14:01 Ann <ann@example.org>:").
func isQuoteHeader(t string) bool {
	if len(t) > 400 {
		return false
	}
	body, ok := cutColon(t)
	if !ok {
		return false
	}
	lt := strings.ToLower(body)
	for _, w := range wroteWords {
		if i := strings.Index(lt, w); i >= 0 && wordEdge(lt, i, len(w)) {
			// "Ann wrote:", or a verb with the date or the address around
			// it; not "I wrote these orders:"
			return i+len(w) == len(lt) || strings.Contains(lt, "@") || countDigits(lt) >= 4
		}
	}
	return endsWithAddress(body)
}

func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// endsWithColon reports a line whose last character but spaces is a colon
// (ASCII or full-width), without trimming it.
func endsWithColon(l string) bool {
	j := len(l) - 1
	for j >= 0 && (l[j] == ' ' || l[j] == '\t' || l[j] == '\r') {
		j--
	}
	return j >= 0 && (l[j] == ':' || l[j] == 0x9A && strings.HasSuffix(l[:j+1], "："))
}

// cutColon returns t without its final colon (ASCII or full-width, with or
// without a space before it), and whether it had one.
func cutColon(t string) (string, bool) {
	switch {
	case strings.HasSuffix(t, ":"):
		return strings.TrimSpace(strings.TrimSuffix(t, ":")), true
	case strings.HasSuffix(t, "："):
		return strings.TrimSpace(strings.TrimSuffix(t, "：")), true
	}
	return t, false
}

// wordEdge reports whether s[i:i+n] stands as a word (or is written in a
// script without spaces): "wrote" in "Ann wrote", not in "rewrote".
func wordEdge(s string, i, n int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	first, _ := utf8.DecodeRuneInString(s[i:])
	if first >= 0x2E80 { // CJK: no spaces between words
		return true
	}
	edge := func(r rune) bool { return r == utf8.RuneError || !unicode.IsLetter(r) }
	return edge(before) && edge(after)
}

// endsWithAddress reports an attribution written without a verb: the line
// ends with a mail address in angle brackets ("… Ann <ann@example.org>")
// and has a time or date before it.
func endsWithAddress(s string) bool {
	if !strings.HasSuffix(s, ">") {
		return false
	}
	lt := strings.LastIndexByte(s, '<')
	if lt < 0 || !strings.Contains(s[lt:], "@") {
		return false
	}
	return countDigits(s[:lt]) >= 4
}

// attributionOpeners are the first words of a wrapped attribution line
// ("Am Mo., 7. Dez. 2026 um 14:01 Uhr schrieb pbemd <" / "gm@…>:").
var attributionOpeners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"on": true, "am": true, "le": true, "el": true, "em": true, "il": true, "op": true,
		"w": true, "dnia": true, "den": true, "d.": true, "в": true, "di": true, "no": true,
		"pá": true, "po": true, "út": true, "st": true, "čt": true, "ne": true,
	}
})

// wrappedQuoteHeader reports an attribution line that the client wrapped
// over lines i and i+1: the two read together are one, and the first starts
// as attributions start, or holds the date and the writer.
func (m *mailState) wrappedQuoteHeader(i int, t string) bool {
	if i+1 >= len(m.lines) || len(t) > 300 || !endsWithColon(m.lines[i+1]) {
		return false
	}
	next := strings.TrimSpace(m.lines[i+1])
	if _, ok := cutColon(next); !ok || next == "" {
		return false
	}
	if !isQuoteHeader(t + " " + next) {
		return false
	}
	if attributionOpeners()[strings.ToLower(strings.TrimRight(firstWord(t), ","))] {
		return true
	}
	return countDigits(t) >= 4 // a date
}

// headerFrom and headerNext are the field names of the header block some
// clients (Outlook above all) write above the original without ">":
// the sender's field, then the date, recipient, copy or subject's.
var headerFrom = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"from": true, "von": true, "de": true, "da": true, "van": true, "od": true, "от": true,
		"från": true, "fra": true, "lähettäjä": true, "kimden": true, "差出人": true, "送信者": true,
		"发件人": true, "寄件者": true, "보낸 사람": true, "feladó": true, "από": true, "від": true,
		"odesílatel": true, "expéditeur": true, "remitente": true, "mittente": true, "afzender": true,
		"nadawca": true, "отправитель": true,
	}
})

var headerNext = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sent": true, "date": true, "to": true, "subject": true, "cc": true, "bcc": true, "reply-to": true,
		"gesendet": true, "datum": true, "an": true, "betreff": true, "kopie": true,
		"envoyé": true, "à": true, "objet": true,
		"enviado": true, "enviado el": true, "fecha": true, "para": true, "asunto": true,
		"data": true, "assunto": true, "inviato": true, "a": true, "oggetto": true,
		"verzonden": true, "aan": true, "onderwerp": true,
		"wysłano": true, "wysłane": true, "do": true, "temat": true, "dw": true,
		"отправлено": true, "дата": true, "кому": true, "тема": true, "копия": true,
		"skickat": true, "till": true, "ämne": true, "sendt": true, "til": true, "emne": true,
		"lähetetty": true, "päivämäärä": true, "vastaanottaja": true, "aihe": true,
		"odesláno": true, "komu": true, "předmět": true,
		"gönderildi": true, "tarih": true, "kime": true, "konu": true,
		"送信日時": true, "日付": true, "宛先": true, "件名": true,
		"发送时间": true, "日期": true, "收件人": true, "主题": true, "抄送": true,
		"寄件日期": true, "收件者": true, "主旨": true,
		"보낸 날짜": true, "날짜": true, "받는 사람": true, "제목": true,
	}
})

// headerField returns the field name of a header line ("Von: …" ⇒ "von"),
// without the bold marks an HTML original leaves ("*From:*"), or "".
func headerField(t string) string {
	t = strings.TrimLeft(t, "*")
	head := t[:min(len(t), 44)]
	i := strings.IndexByte(head, ':')
	if j := strings.Index(head, "："); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i <= 0 || i > 40 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(strings.TrimRight(t[:i], "* ")))
}

// headerBlock reports the header block clients put above the quoted
// original without any rule: "From: …" (or "Von:", "De:", "Od:", "От:",
// "差出人:" …) followed by the date, recipient or subject line.
func (m *mailState) headerBlock(i int, t string) bool {
	if i+1 >= len(m.lines) {
		return false
	}
	if f := headerField(t); f == "" || !headerFrom()[f] {
		return false
	}
	return headerNext()[headerField(strings.TrimSpace(m.lines[i+1]))]
}

// separatorWords name the original or forwarded message in the rule a
// client writes above it ("-----Ursprüngliche Nachricht-----",
// "---------- Forwarded message ---------").
var separatorWords = []string{
	"original message", "forwarded message", "original", "forwarded",
	"ursprüngliche nachricht", "weitergeleitete nachricht", "originalnachricht",
	"message d'origine", "message d’origine", "message transféré", "message original",
	"mensaje original", "mensaje reenviado",
	"mensagem original", "mensagem encaminhada", "mensagem reencaminhada",
	"messaggio originale", "messaggio inoltrato",
	"oorspronkelijk bericht", "doorgestuurd bericht", "origineel bericht",
	"oryginalna wiadomość", "wiadomość oryginalna", "przekazana wiadomość", "wiadomość przekazana",
	"исходное сообщение", "пересылаемое сообщение", "пересланное сообщение", "оригинальное сообщение",
	"元のメッセージ", "転送されたメッセージ", "転送メッセージ",
	"原始邮件", "转发的邮件", "原始郵件", "轉寄的郵件", "원본 메시지", "전달된 메시지",
	"ursprungligt meddelande", "vidarebefordrat meddelande", "oprindelig meddelelse",
	"videresendt meddelelse", "opprinnelig melding", "videresendt melding", "alkuperäinen viesti",
	"välitetty viesti", "původní zpráva", "přeposlaná zpráva", "özgün ileti", "iletilen ileti",
}

// forwardOpeners start the line Apple Mail writes above a forwarded message
// ("Begin forwarded message:").
var forwardOpeners = []string{
	"begin forwarded message", "anfang der weitergeleiteten nachricht",
	"début du message réexpédié", "début du message transféré", "inicio del mensaje reenviado",
	"início da mensagem reencaminhada", "início da mensagem encaminhada", "inizio messaggio inoltrato",
	"begin doorgestuurd bericht", "początek przekazywanej wiadomości",
	"начало переадресованного сообщения", "転送されたメッセージ", "以下是转发的邮件",
}

// isOriginalMessage reports the line mail clients put above a quoted or
// forwarded message without ">" marks.
func isOriginalMessage(t string) bool {
	if len(t) >= 5 && strings.Trim(t, "_") == "" {
		return true // Outlook's rule above the original
	}
	if strings.HasPrefix(t, "-----") || strings.HasPrefix(t, "———") || strings.HasPrefix(t, "_____") {
		inner := strings.ToLower(strings.TrimSpace(strings.Trim(t, "-—_ ")))
		for _, w := range separatorWords {
			if strings.Contains(inner, w) {
				return true
			}
		}
		return false
	}
	return hasAnyPrefixFold(t, forwardIndex())
}

// prefixIndex groups prefixes by their first byte in lower case, so a line
// is compared only with the few that can start it.
type prefixIndex [256][]string

func indexPrefixes(ps []string) *prefixIndex {
	var ix prefixIndex
	for _, p := range ps {
		c := lowerByte(p[0])
		ix[c] = append(ix[c], p)
	}
	return &ix
}

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func hasAnyPrefixFold(t string, ix *prefixIndex) bool {
	if t == "" {
		return false
	}
	for _, p := range ix[lowerByte(t[0])] {
		if hasPrefixFold(t, p) {
			return true
		}
	}
	return false
}

// The indexes are built at their first use, not at init: a process that
// reads no mail does not pay for them.
var (
	forwardIndex = sync.OnceValue(func() *prefixIndex { return indexPrefixes(forwardOpeners) })
	footerIndex  = sync.OnceValue(func() *prefixIndex { return indexPrefixes(footerPrefixes) })
)

// footerPrefixes start the lines phones and mail apps add to a message
// ("Sent from my iPhone", "Von meinem iPhone gesendet", "Get Outlook for
// iOS"), lower case.
var footerPrefixes = []string{
	"sent from ", "sent with ", "sent via ", "sent using ", "get outlook for ",
	"von meinem ", "gesendet von ", "gesendet mit ", "gesendet vom ", "holen sie sich outlook",
	"envoyé de mon ", "envoyé depuis ", "envoyé à partir de", "envoyé avec ", "obtenir outlook pour",
	"téléchargez outlook", "enviado desde ", "enviado con ", "obtener outlook para",
	"enviado do meu ", "enviado de meu ", "enviado do ", "enviado a partir do", "enviado pelo ",
	"obter o outlook para", "baixe o outlook", "inviato da ", "inviato dal mio ", "inviato con ",
	"scarica outlook per", "ottieni outlook per", "verzonden met ", "verzonden vanaf ",
	"verzonden vanuit ", "verstuurd vanaf ", "verstuurd met ", "outlook voor ", "download outlook voor",
	"wysłane z ", "wysłano z ", "wysłane przy użyciu", "pobierz outlook dla", "отправлено с ",
	"отправлено из ", "отправлено через ", "получите outlook для", "skickat från ", "sendt fra ",
	"lähetetty ", "odesláno z ", "iphone'umdan gönderildi",
}

// footerSuffixes end such lines in languages that put the verb last
// ("iPhoneから送信", "발송된 …").
var footerSuffixes = []string{"から送信", "から送信しました", "发送", "傳送", "에서 보냄", "에서 보냈습니다"}

// isClientFooter reports a mail client's footer ("Sent from my iPhone",
// "Von meinem iPhone gesendet", "Sent from Yahoo Mail on Android").
func isClientFooter(t string) bool {
	if len(t) > 120 {
		return false
	}
	if hasAnyPrefixFold(t, footerIndex()) {
		return true
	}
	if len(t) <= 60 && t[len(t)-1] >= utf8.RuneSelf { // the suffixes are CJK
		for _, s := range footerSuffixes {
			if strings.HasSuffix(t, s) {
				return true
			}
		}
	}
	return false
}
