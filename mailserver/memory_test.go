package mailserver

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// heapInuse is the Go heap in use after a full collection.
func heapInuse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// procStatus reads VmRSS, RssAnon and RssFile (bytes) from
// /proc/self/status; zeros where there is no /proc.
func procStatus() (rss, anon, file int64) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0, 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = n << 10
		case "RssAnon":
			anon = n << 10
		case "RssFile":
			file = n << 10
		}
	}
	return rss, anon, file
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// sendBig sends a mail of about size bytes over SMTP without AUTH, as a
// stranger may, writing it line by line (the test holds no copy), and
// returns the SHA-256 of what it sent.
func sendBig(t testing.TB, srv *Server, to string, size int) []byte {
	t.Helper()
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail("stranger@elsewhere.org", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt(to, nil); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 64<<10)
	fmt.Fprintf(bw, "From: stranger@elsewhere.org\r\nTo: %s\r\nSubject: a big one\r\nContent-Type: application/octet-stream\r\n\r\n", to)
	line := []byte(strings.Repeat("0123456789", 7) + "abcdef\r\n")
	for n := 0; n < size; n += len(line) {
		line[0] = byte('A' + n/len(line)%26) // not all lines alike
		bw.Write(line)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c.Quit()
	return h.Sum(nil)
}

// fetchHashes reads every message of addr's INBOX over IMAP, streaming,
// and returns the SHA-256 of each as sent (the lines added on delivery
// skipped).
func fetchHashes(t testing.TB, srv *Server, addr string) [][]byte {
	t.Helper()
	_, pw, err := srv.Credentials(addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, pw).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	cmd := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}})
	var out [][]byte
	for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
		for item := msg.Next(); item != nil; item = msg.Next() {
			bs, ok := item.(imapclient.FetchItemDataBodySection)
			if !ok {
				continue
			}
			br := bufio.NewReader(bs.Literal)
			for _, field := range []string{"Return-Path:", "Delivered-To:", "Received:"} {
				l, err := br.ReadString('\n')
				if err != nil || !strings.HasPrefix(l, field) {
					t.Fatalf("delivered copy starts %q, %v", l, err)
				}
			}
			h := sha256.New()
			if _, err := io.Copy(h, br); err != nil {
				t.Fatal(err)
			}
			out = append(out, h.Sum(nil))
		}
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// storeBig sends n mails of size bytes to n mailboxes and reads them
// back; it returns the heap after storing and after reading.
func storeBig(t testing.TB, srv *Server, n, size int) (afterStore, afterFetch int64) {
	t.Helper()
	var sent [][]byte
	for i := range n {
		sent = append(sent, sendBig(t, srv, fmt.Sprintf("big%d@%s", i, testDomain), size))
	}
	afterStore = heapInuse()
	for i := range n {
		got := fetchHashes(t, srv, fmt.Sprintf("big%d@%s", i, testDomain))
		if len(got) != 1 || !bytes.Equal(got[0], sent[i]) {
			t.Fatalf("mailbox %d: the mail read back differs from the mail sent", i)
		}
	}
	return afterStore, heapInuse()
}

// Four 30 MB mails from a stranger once raised the RSS from 236 to 536 MiB
// for good: the server kept every message in memory. Now contents live in
// the state file and are read when fetched; the heap after a collection
// does not grow with them.
//
// Under the race detector the mails are 2 MiB (it is 15 times slower);
// BenchmarkLargeMailMemory reports the figures for 30 MB.
func TestStoredMailIsNotKeptInMemory(t *testing.T) {
	n, size := 4, 30<<20
	if raceEnabled {
		size = 2 << 20
	}
	srv := startServer(t, tempPath(t, "mail.db"))
	base := heapInuse()
	afterStore, afterFetch := storeBig(t, srv, n, size)
	debug.FreeOSMemory()
	rss, anon, file := procStatus()
	t.Logf("%d × %s stored: heap in use %s before, %s after storing, %s after reading back; VmRSS %s (anon %s, file %s)",
		n, mib(int64(size)), mib(base), mib(afterStore), mib(afterFetch), mib(rss), mib(anon), mib(file))
	slack := int64(size) // the mails kept in memory would be n times this
	if afterStore-base > slack || afterFetch-base > slack {
		t.Fatalf("the heap grew by %s storing and %s reading %d × %s: contents are kept in memory",
			mib(afterStore-base), mib(afterFetch-base), n, mib(int64(size)))
	}
}

// BenchmarkLargeMailMemory: 4 × 30 MB mails stored over SMTP and read
// back over IMAP per op; reports the heap after a collection and the RSS.
// Run with -benchtime=1x.
func BenchmarkLargeMailMemory(b *testing.B) {
	const n, size = 4, 30 << 20
	srv := startServer(b, tempPath(b, "mail.db"))
	base := heapInuse()
	var afterStore, afterFetch int64
	for i := 0; i < b.N; i++ {
		srv.store.mu.Lock()
		for j := range n {
			if u := srv.store.userLocked(fmt.Sprintf("big%d@%s", j, testDomain)); u != nil {
				srv.store.expungeLocked(u.mailboxes["INBOX"], func(*message) bool { return true })
			}
		}
		srv.store.mu.Unlock()
		afterStore, afterFetch = storeBig(b, srv, n, size)
	}
	debug.FreeOSMemory()
	rss, anon, file := procStatus()
	b.ReportMetric(float64(base)/(1<<20), "heap-before-MiB")
	b.ReportMetric(float64(afterStore)/(1<<20), "heap-stored-MiB")
	b.ReportMetric(float64(afterFetch)/(1<<20), "heap-fetched-MiB")
	b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
	b.ReportMetric(float64(anon)/(1<<20), "rss-anon-MiB")
	b.ReportMetric(float64(file)/(1<<20), "rss-file-MiB")
}
