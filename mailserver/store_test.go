package mailserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	bolt "go.etcd.io/bbolt"
)

// bucketLens counts the keys of the content buckets.
func bucketLens(t testing.TB, srv *Server) (contents, blobs, refs int) {
	t.Helper()
	err := srv.store.db.View(func(tx *bolt.Tx) error {
		contents = tx.Bucket(bktContents).Stats().KeyN
		blobs = tx.Bucket(bktBlobs).Stats().KeyN
		refs = tx.Bucket(bktRefs).Stats().KeyN
		for err := range tx.Check() {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return contents, blobs, refs
}

// One mail to three mailboxes stores its bytes once; COPY adds no bytes;
// when every copy is expunged nothing is left in the file.
func TestContentsAreSharedAndReleased(t *testing.T) {
	srv := startServer(t, "")
	to := []string{"a@" + testDomain, "b@" + testDomain, "gm+x@" + testDomain}
	deliver(t, srv, testMail{"x@elsewhere.org", to, rawMail("x@elsewhere.org", "a@"+testDomain, "shared", "one body")})
	if c, b, r := bucketLens(t, srv); c != 3 || b != 1 || r != 1 {
		t.Fatalf("after one delivery to three: %d contents, %d blobs, %d refs", c, b, r)
	}
	cl := dialIMAP(t, srv, gm, "gmpass")
	if err := cl.Create("Keep", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Copy(imap.SeqSetNum(1), "Keep").Wait(); err != nil {
		t.Fatal(err)
	}
	if c, b, _ := bucketLens(t, srv); c != 4 || b != 1 {
		t.Fatalf("after COPY: %d contents, %d blobs", c, b)
	}
	for _, addr := range []string{"a@" + testDomain, "b@" + testDomain} {
		srv.store.mu.Lock()
		srv.store.expungeLocked(srv.store.userLocked(addr).mailboxes["INBOX"], func(*message) bool { return true })
		srv.store.mu.Unlock()
	}
	if err := cl.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	if bodies := fetchBodies(t, cl, "Keep"); len(bodies) != 1 || !bytes.Contains(bodies[0], []byte("one body")) {
		t.Fatalf("the copy after its original went: %q", bodies)
	}
	if err := cl.Delete("Keep").Wait(); err != nil {
		t.Fatal(err)
	}
	if c, b, r := bucketLens(t, srv); c != 0 || b != 0 || r != 0 {
		t.Fatalf("everything expunged: %d contents, %d blobs, %d refs left", c, b, r)
	}
	if u := usageOf(srv, ""); u != (usage{}) {
		t.Fatalf("usage %+v with no mail", u)
	}
}

// A message expunged while a FETCH streams it keeps its content until
// the reader is done; then the content goes. Left pinned at a stop, it
// goes at the next start.
func TestExpungeWhileReadingKeepsTheContentForTheReader(t *testing.T) {
	path := tempPath(t, "mail.db")
	srv := startServer(t, path)
	deliver(t, srv, orderMail(1, "a"))
	deliver(t, srv, orderMail(2, "a"))
	st := srv.store
	st.mu.Lock()
	inbox := st.userLocked(gm).mailboxes["INBOX"]
	first, second := inbox.msgs[0], inbox.msgs[1]
	first.pin()
	second.pin()
	st.expungeLocked(inbox, func(*message) bool { return true })
	st.mu.Unlock()

	raw, err := st.readAll(first.content)
	if err != nil || !bytes.Contains(raw, []byte("# mail 1")) {
		t.Fatalf("content of a pinned, expunged message: %q %v", raw, err)
	}
	st.unpin([]*message{first})
	if _, err := st.readAll(first.content); err != errGone {
		t.Fatalf("content after the last unpin: %v", err)
	}
	if c, _, _ := bucketLens(t, srv); c != 1 {
		t.Fatalf("%d contents, want the pinned one only", c)
	}
	srv.Close() // second is still pinned: its content is orphaned in the file
	srv2 := startServer(t, path)
	if c, b, r := bucketLens(t, srv2); c != 0 || b != 0 || r != 0 {
		t.Fatalf("after restart: %d contents, %d blobs, %d refs", c, b, r)
	}
}

// A state file of the version before contents left memory (each message
// whole in "raw", passwords in clear) is converted at start: the mail
// reads the same, the passwords open the same accounts, and no clear
// password is left anywhere in the file.
func TestConvertsAVersion1StateFile(t *testing.T) {
	path := tempPath(t, "mail.db")
	raw := rawMail("p1@"+testDomain, gm, "old mail", "from the old days")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		put := func(bucket string, k []byte, v any) {
			b, _ := tx.CreateBucketIfNotExists([]byte(bucket))
			j, _ := json.Marshal(v)
			b.Put(k, j)
		}
		put("accounts", []byte(gm), map[string]any{"password": "old-gm-secret"})
		put("accounts", []byte("alice@"+testDomain), map[string]any{"password": "alice", "auto": true})
		for _, addr := range []string{gm, "alice@" + testDomain} {
			put("mailboxes", []byte(addr+"\x00INBOX"), map[string]any{"uid_validity": 1234, "uid_next": 8, "subscribed": true})
		}
		key := binary.BigEndian.AppendUint32([]byte(gm+"\x00INBOX\x00"), 7)
		put("messages", key, map[string]any{"date": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "flags": []string{`\Seen`}})
		b, _ := tx.CreateBucketIfNotExists([]byte("raw"))
		return b.Put(key, raw)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	cfg := testConfig(path)
	cfg.Accounts = nil
	srv := start(t, cfg)
	c := dialIMAP(t, srv, gm, "old-gm-secret")
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.UIDValidity != 1234 || sel.UIDNext != 8 || sel.NumMessages != 1 {
		t.Fatalf("converted INBOX %+v %v", sel, err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{UID: true, Flags: true, RFC822Size: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || len(msgs) != 1 || msgs[0].UID != 7 || !bytes.Equal(msgs[0].BodySection[0].Bytes, raw) || msgs[0].RFC822Size != int64(len(raw)) ||
		len(msgs[0].Flags) != 1 || msgs[0].Flags[0] != imap.FlagSeen {
		t.Fatalf("converted message %+v %v", msgs, err)
	}
	dialIMAP(t, srv, "alice@"+testDomain, "Alice")
	srv.Close()
	file, _ := os.ReadFile(path)
	if bytes.Contains(file, []byte("old-gm-secret")) {
		t.Fatal("the clear password is still in the file")
	}
	srv = start(t, cfg)
	if err := srv.store.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bktRawV1) != nil {
			t.Error("the version-1 bucket is still there")
		}
		if v := tx.Bucket(bktMeta).Get([]byte("version")); string(v) != "2" {
			t.Errorf("version %q", v)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// contentReader reads a content in the pieces it is asked for.
func TestContentReaderPieces(t *testing.T) {
	srv := startServer(t, "")
	deliver(t, srv, orderMail(3, "a"))
	st := srv.store
	st.mu.Lock()
	m := st.userLocked(gm).mailboxes["INBOX"].msgs[0]
	st.mu.Unlock()
	whole, err := st.readAll(m.content)
	if err != nil || int64(len(whole)) != m.size {
		t.Fatalf("%d bytes, size %d, %v", len(whole), m.size, err)
	}
	var pieces bytes.Buffer
	r := st.reader(m.content)
	buf := make([]byte, 7)
	for {
		n, err := r.Read(buf)
		pieces.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pieces.Bytes(), whole) {
		t.Fatal("read in pieces differs")
	}
}
