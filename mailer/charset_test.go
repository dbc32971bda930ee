package mailer

import (
	"os"
	"testing"
)

// TestParseMailCharsets: a reply written in Polish, Russian, Japanese,
// Chinese, Korean or French, in the charset its mail client chose and
// sent quoted-printable, base64, 8bit or 7bit, with its Subject in RFC
// 2047 words of the same charset, reads as the player wrote it. The
// samples in testdata/mail were encoded by Python's codecs.
func TestParseMailCharsets(t *testing.T) {
	cases := []struct{ file, subject, text string }{
		{"charset-iso-8859-2", "Rozkazy dla Gdańska: żółw", "Zażółć gęślą jaźń. Oto moje rozkazy:\nA War - Gal\nF Gdańsk H"},
		{"charset-koi8-r", "Приказы на весну 1901", "Приказы для России:\nA Mos - Ukr\nЖдём ответа."},
		{"charset-shift-jis", "日本の命令", "日本語の命令です。\nA Tok - Kyo\nよろしくお願いします。"},
		{"charset-iso-2022-jp", "春の命令", "これは命令です。\nF Edi - Nwg"},
		{"charset-gbk", "中国的命令", "这是我的命令。\nA Pek - Man"},
		{"charset-gb18030", "中国的命令 €", "这是我的命令。€\nA Pek - Man"},
		{"charset-euc-kr", "한국의 명령", "이것은 나의 명령입니다.\nA Seo - Pus"},
		{"charset-windows-1252-qp", "Ordres d’été — 1901", "“Mes ordres” pour l’été:\nA Par - Bur\nF Bre - Mao"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/mail/" + c.file + ".eml")
			if err != nil {
				t.Fatal(err)
			}
			m, err := ParseMail(raw, "gm@example.test")
			if err != nil {
				t.Fatal(err)
			}
			if m.Subject != c.subject {
				t.Errorf("Subject %q, want %q", m.Subject, c.subject)
			}
			if m.Text != c.text {
				t.Errorf("Text %q, want %q", m.Text, c.text)
			}
			if m.UnknownCharset != "" {
				t.Errorf("UnknownCharset %q, want none", m.UnknownCharset)
			}
		})
	}
}

// TestParseMailUnknownCharset: a charset pbemd cannot decode (one it has
// never heard of, or ISO-2022-KR, which WHATWG refuses to decode) is named
// in Mail.UnknownCharset, for the daemon to say so in words; the text is
// still read as well as it can be.
func TestParseMailUnknownCharset(t *testing.T) {
	for _, cs := range []string{"x-mac-weird", "ISO-2022-KR", "unicode-1-1-utf-7"} {
		raw := "From: p@example.org\r\nTo: gm@example.test\r\nSubject: =?" + cs + "?q?=E9?=\r\nMessage-ID: <u@example.org>\r\n" +
			"Content-Type: text/plain; charset=\"" + cs + "\"\r\n\r\nA Par - Bur\r\n"
		m, err := ParseMail([]byte(raw), "gm@example.test")
		if err != nil {
			t.Fatal(err)
		}
		if m.UnknownCharset != cs {
			t.Errorf("%s: UnknownCharset %q", cs, m.UnknownCharset)
		}
		if m.Text != "A Par - Bur" || m.Subject != "=?"+cs+"?q?=E9?=" {
			t.Errorf("%s: Subject %q, Text %q", cs, m.Subject, m.Text)
		}
	}
}
