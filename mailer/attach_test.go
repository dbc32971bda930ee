package mailer

import (
	"bytes"
	"io"
	"mime"
	"net/mail"
	"strings"
	"testing"

	message "github.com/emersion/go-message"
)

// TestComposeInlinePictureHole: a picture given already encoded is left
// out of Raw, and Fill puts it back: the whole mail is a multipart/mixed
// whose first part is the text and whose second is the image, shown inline,
// with its bytes intact — the same mail as one composed with the data.
func TestComposeInlinePictureHole(t *testing.T) {
	data := bytes.Repeat([]byte("\x89PNG\r\n\x1a\n picture bytes "), 300) // several base64 lines
	for _, encoded := range []bool{false, true} {
		a := Attachment{Filename: "g1-S1901M.png", ContentType: "image/png", Inline: true}
		if encoded {
			a.Encoded = Base64Lines(data)
		} else {
			a.Data = data
		}
		c, err := Compose(&Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "results",
			Text: "the text\n", Attachments: []Attachment{a}})
		if err != nil {
			t.Fatal(err)
		}
		if encoded != (len(c.Holes) == 1) {
			t.Fatalf("encoded %v: %d holes", encoded, len(c.Holes))
		}
		if encoded && bytes.Contains(c.Raw, a.Encoded[:76]) {
			t.Fatal("the encoded body is in Raw: it should be left out")
		}
		raw := Fill(c.Raw, c.Holes)
		e, err := message.Read(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if mt, _, _ := e.Header.ContentType(); mt != "multipart/mixed" {
			t.Fatalf("top content type %q", mt)
		}
		mr := e.MultipartReader()
		var types []string
		var got []byte
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			mt, _, _ := p.Header.ContentType()
			types = append(types, mt)
			body, err := io.ReadAll(p.Body)
			if err != nil {
				t.Fatal(err)
			}
			if mt == "image/png" {
				got = body
				disp, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
				if err != nil || disp != "inline" || params["filename"] != "g1-S1901M.png" {
					t.Errorf("disposition %q %v %v", disp, params, err)
				}
			} else if strings.TrimSpace(string(body)) != "the text" {
				t.Errorf("text part %q", body)
			}
		}
		if strings.Join(types, ",") != "text/plain,image/png" {
			t.Errorf("encoded %v: parts %v", encoded, types)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("encoded %v: the picture came back as %d bytes, want %d", encoded, len(got), len(data))
		}
	}
}
