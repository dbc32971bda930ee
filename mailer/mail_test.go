package mailer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTMLToText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"br and div", "<div>A Par - Bur</div><div>F Bre - Mao<br></div>", "A Par - Bur\nF Bre - Mao"},
		{"entities", "A&nbsp;Par &amp; &lt;Bur&gt; &eacute; &#8211; &#x2014;", "A Par & <Bur> é – —"},
		{"whitespace collapses", "A\n   Par\t\t-   Bur", "A Par - Bur"},
		{"script style head", "<head><title>t</title><style>x{}</style></head><script>var a = '<p>';</script>hello", "hello"},
		{"comment", "a<!-- <p>hidden</p> -->b", "ab"},
		{"pre keeps spacing", "<pre>a   b\n  c</pre>", "a   b\n  c"},
		{"nested blockquote", "top<blockquote>one<blockquote>two</blockquote>back</blockquote>end", "top\n\n> one\n>\n> > two\n>\n> back\n\nend"},
		{"paragraphs", "<p>one</p><p>two</p>", "one\n\ntwo"},
		{"table cells", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"},
		{"table cells in divs", "<table><tr><td><div>A Par</div></td><td><div>-</div></td><td><p>Bur</p></td></tr><tr><td><div>F Bre - Mao</div></td></tr></table>", "A Par - Bur\nF Bre - Mao"},
		{"cell of two paragraphs", "<table><tr><td><p>one</p><p>two</p></td><td>three</td></tr></table>", "one\ntwo three"},
		{"lone angle bracket", "A < B and 3<4", "A < B and 3<4"},
		{"attribute with >", `<a href="x>y">link</a> text`, "link text"},
		{"unclosed tag at end", "text <b", "text"},
		{"upper case tags", "<DIV>A</DIV><BR/>B", "A\n\nB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := htmlToText(c.in); got != c.want {
				t.Errorf("htmlToText(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// TestParseMailHTMLTable: orders a webmail sent as an HTML table, each
// cell's text wrapped in a div or a paragraph, read one order per line.
func TestParseMailHTMLTable(t *testing.T) {
	raw, err := os.ReadFile("testdata/mail/html-table-orders.eml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMail(raw, "gm@example.test")
	if err != nil {
		t.Fatal(err)
	}
	want := "My orders for France:\n\nUnit Order To\nA Par - Bur\nA Mar - Spa\nF Bre - Mao\n\nThanks,\nMarie"
	if !m.TextFromHTML || m.Text != want {
		t.Errorf("Text (from HTML %v):\n%s\nwant:\n%s", m.TextFromHTML, m.Text, want)
	}
}

func TestUnflow(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		delsp bool
		want  string
	}{
		{"soft break", "one \ntwo\n", false, "one two"},
		{"hard break kept", "one\ntwo", false, "one\ntwo"},
		{"delsp", "ab \ncd", true, "abcd"},
		{"space stuffing removed", " From me\n >not a quote", false, "From me\n>not a quote"},
		{"quote depth change ends paragraph", "> a \n>> b\nc", false, "> a\n>> b\nc"},
		{"signature separator never flows", "-- \nsig", false, "-- \nsig"},
		{"crlf", "one \r\ntwo\r\n", false, "one two"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := unflow(c.in, c.delsp); got != c.want {
				t.Errorf("unflow(%q, %v) = %q, want %q", c.in, c.delsp, got, c.want)
			}
		})
	}
}

func TestDecodeCharset(t *testing.T) {
	cases := []struct {
		charset string
		in      []byte
		want    string
	}{
		{"utf-8", []byte("caf\xc3\xa9"), "café"},
		{"UTF8", []byte("caf\xc3\xa9"), "café"},
		{"us-ascii", []byte("plain"), "plain"},
		{"iso-8859-1", []byte("caf\xe9 \x92"), "café ’"}, // read as Windows-1252
		{"latin1", []byte("\xe0"), "à"},
		{"windows-1252", []byte("\x80\x93x\x94\x9f"), "€“x”Ÿ"},
		{"cp1252", []byte("\x81"), "\ufffd"}, // undefined byte: x/text decodes it as U+FFFD
		{"iso-8859-15", []byte("\xa4\xbd"), "€œ"},
		{"utf-8", []byte("d'\xe9t\xe9 \xe2\x80\x94"), "d'été —"}, // invalid bytes as 1252
		{"x-unknown", []byte("caf\xc3\xa9"), "café"},             // valid UTF-8 kept
		{"x-unknown", []byte("caf\xe9"), "café"},                 // else 1252
		{`"ISO-8859-1"`, []byte("\xe9"), "é"},
		{"iso_8859-2", []byte("\xbf\xf3\xb3w"), "żółw"},                 // a WHATWG label
		{"ibm850", []byte("\x82t\x82"), "été"},                          // an IANA name WHATWG lacks
		{"iso-2022-kr", []byte("caf\xc3\xa9"), "café"},                  // never decoded (WHATWG): unknown
		{"x-mac-weird", []byte("\x1b$B=U$N\x1b(B"), "\x1b$B=U$N\x1b(B"}, // unknown, valid UTF-8: kept
	}
	for _, c := range cases {
		t.Run(c.charset, func(t *testing.T) {
			if got := decodeCharset(c.charset, c.in); got != c.want {
				t.Errorf("decodeCharset(%q, %q) = %q, want %q", c.charset, c.in, got, c.want)
			}
		})
	}
}

func TestDecodeHeaderText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"=?utf-8?q?caf=C3=A9?=", "café"},
		{"=?ISO-8859-1?B?6XTp?=", "été"},
		{"=?windows-1252?q?=80?= price", "€ price"},
		{"=?iso-8859-15?q?=A4?=", "€"},
		{"raw \xe9t\xe9", "raw été"},
		{"=?x-unknown?q?=E9?=", "=?x-unknown?q?=E9?="}, // undecodable: kept as is
		{"=?utf-8?q?a?= =?utf-8?q?b?=", "ab"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := decodeHeaderText(c.in); got != c.want {
				t.Errorf("decodeHeaderText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestFindToken(t *testing.T) {
	mk := func(hdr string) string {
		m, err := ParseMail([]byte(hdr+"\r\n\r\nbody\r\n"), "gm@example.test")
		if err != nil {
			t.Fatal(err)
		}
		return m.Token
	}
	cases := []struct{ name, hdr, want string }{
		{"to", "To: gm+abc@example.test", "abc"},
		{"case of own address", "To: GM+Abc@Example.TEST", "Abc"},
		{"other domain ignored", "To: gm+abc@elsewhere.org", ""},
		{"other user ignored", "To: bob+abc@example.test", ""},
		{"delivered-to wins", "Delivered-To: gm+dd@example.test\r\nTo: gm+tt@example.test", "dd"},
		{"cc", "To: x@y.org\r\nCc: gm+cc@example.test", "cc"},
		{"x-original-to", "X-Original-To: gm+orig@example.test\r\nTo: gm@example.test", "orig"},
		{"no plus", "To: gm@example.test", ""},
		{"empty token", "To: gm+@example.test", ""},
		{"token with plus", "To: gm+a+b@example.test", "a+b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mk(c.hdr); got != c.want {
				t.Errorf("token = %q, want %q", got, c.want)
			}
		})
	}
	t.Run("any plus-address when own is unknown", func(t *testing.T) {
		m, _ := ParseMail([]byte("To: x+tok@anywhere.org\r\n\r\nb"), "")
		if m.Token != "tok" {
			t.Errorf("token = %q", m.Token)
		}
	})
}

func TestParseAddressListSalvages(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a@x.org, b@y.org", "a@x.org b@y.org"},
		{`"Last, First" <a@x.org>`, "a@x.org"},
		{"Broken Name <a@x.org>, (comment) b@y.org", "a@x.org b@y.org"},
		{"John Smith a@x.org", "a@x.org"},
		{"<a@x.org> junk", "a@x.org"},
		{"undisclosed-recipients:;", ""},
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			var got []string
			for _, a := range parseAddressList(c.in) {
				got = append(got, a.Address)
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("parseAddressList(%q) = %v, want %s", c.in, got, c.want)
			}
		})
	}
}

func TestMsgIDList(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<a@x> <b@y>", "a@x b@y"},
		{"<a@x>\r\n\t<b@y>", "a@x b@y"},
		{"a@x", "a@x"},
		{"<a@x> (comment) b@y", "a@x b@y"},
		{"<unterminated@x", "unterminated@x"},
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := strings.Join(msgIDList(c.in), " "); got != c.want {
				t.Errorf("msgIDList(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestParseTooBigKeepsHeaderOnly(t *testing.T) {
	m, err := parseTooBig([]byte("From: a@x.org\r\nSubject: huge\r\nMessage-ID: <big@x>\r\n\r\n"), 5<<20, "gm@example.test")
	if err != nil {
		t.Fatal(err)
	}
	if !m.TooBig || m.Size != 5<<20 || m.Subject != "huge" || m.ID != "big@x" || m.Text != "" || m.Raw != nil {
		t.Fatalf("%+v", m)
	}
	a, _ := parseTooBig([]byte("From: a@x.org\r\n\r\n"), 100, "")
	b, _ := parseTooBig([]byte("From: a@x.org\r\n\r\n"), 101, "")
	if !strings.HasPrefix(a.ID, "sha256:") || a.ID == b.ID {
		t.Fatalf("hash ids of big mails without Message-ID: %q %q", a.ID, b.ID)
	}
}

func TestParseMailRejectsGarbage(t *testing.T) {
	for name, raw := range map[string]string{
		"empty":             "",
		"blank":             "\r\n\r\n",
		"header continues":  " folded first line\r\n\r\nbody",
		"line without name": "no colon here\r\n\r\nbody",
	} {
		t.Run(name, func(t *testing.T) {
			if m, err := ParseMail([]byte(raw), ""); err == nil {
				t.Fatalf("parsed: %+v", m)
			}
		})
	}
}

func TestHashIDIsStable(t *testing.T) {
	raw := []byte("From: a@x.org\r\n\r\nno id\r\n")
	a, _ := ParseMail(raw, "")
	b, _ := ParseMail(append([]byte(nil), raw...), "")
	c, _ := ParseMail([]byte("From: a@x.org\r\n\r\nno id!\r\n"), "")
	if a.ID != b.ID || a.ID == c.ID || !strings.HasPrefix(a.ID, "sha256:") {
		t.Fatalf("ids %q %q %q", a.ID, b.ID, c.ID)
	}
}

// FuzzParseMail: ParseMail never panics, and what it returns is usable.
func FuzzParseMail(f *testing.F) {
	files, _ := filepath.Glob("testdata/mail/*.eml")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err == nil {
			f.Add(raw)
		}
	}
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x--"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := ParseMail(raw, "gm@example.test")
		if err != nil {
			return
		}
		if m.ID == "" {
			t.Fatal("mail without ID")
		}
		_ = m.NoReply()
		_ = m.ReplyAddress()
	})
}

func TestUnflowSignatureAfterFlowedLine(t *testing.T) {
	if got := unflow("text \n-- \nsig", false); got != "text\n-- \nsig" {
		t.Errorf("got %q", got)
	}
}
