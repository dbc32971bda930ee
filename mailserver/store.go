package mailserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	bolt "go.etcd.io/bbolt"
)

// store holds the accounts, mailboxes and messages. Everything is in one
// bbolt file, written through on every change, so mail, flags, UIDs and
// UIDVALIDITY survive a restart. Memory holds only what each command
// needs to be quick: accounts, mailboxes and per message its UID, date,
// size and flags (about 100 bytes, and the message counts are capped).
// Message contents are read from the file when a client asks for them,
// a piece at a time, and never kept.
//
// One mutex guards the in-memory part; content reads need no lock (bbolt
// read transactions), and a message being read is pinned so that an
// EXPUNGE meanwhile keeps its content until the reader is done.
type store struct {
	mu     sync.Mutex
	db     *bolt.DB
	remove string // temporary file to remove at close ("" if none)
	users  map[string]*user
	used   usage // the whole server
	limits limits
}

type usage struct {
	bytes int64
	msgs  int
}

type limits struct {
	mailboxBytes, totalBytes int64
	mailboxMsgs, totalMsgs   int
}

type accountKind string

const (
	kindAuto       accountKind = "auto"
	kindConfigured accountKind = "configured"
	kindSystem     accountKind = "system"
)

type user struct {
	addr      string
	kind      accountKind
	hash      []byte   // bcrypt; system and configured accounts
	verified  [32]byte // digest of the last password that passed bcrypt (memory only)
	mailboxes map[string]*mailbox
	used      usage
}

type mailbox struct {
	user        *user
	name        string
	uidValidity uint32
	uidNext     uint32
	subscribed  bool
	msgs        []*message // ascending UID
	tracker     *imapserver.MailboxTracker
	waiters     map[chan struct{}]struct{} // sessions in IDLE
}

type message struct {
	uid     uint32
	content uint64 // key in bktContents
	size    int64
	date    time.Time
	flags   []imap.Flag
	pins    int  // readers of its content
	gone    bool // expunged while pinned: release the content at the last unpin
}

func (m *message) hasFlag(f imap.Flag) bool {
	return slices.Contains(m.flags, canonicalFlag(f))
}

// lastUIDValidity makes UIDVALIDITY values unique within the process even
// when mailboxes are created within the same second.
var lastUIDValidity atomic.Uint32

// newUIDValidity returns a UIDVALIDITY no earlier mailbox of this process
// has had: the Unix time in seconds (as Dovecot does), or one more than
// the last value handed out. A fresh, unpersisted server therefore never
// reuses the UIDVALIDITY of its previous run, and a fetcher's checkpoint
// from that run is recognised as stale.
func newUIDValidity(floor uint32) uint32 {
	for {
		last := lastUIDValidity.Load()
		v := max(uint32(time.Now().Unix()), last+1, floor+1)
		if lastUIDValidity.CompareAndSwap(last, v) {
			return v
		}
	}
}

var systemFlags = map[string]imap.Flag{
	`\seen`: imap.FlagSeen, `\answered`: imap.FlagAnswered, `\flagged`: imap.FlagFlagged,
	`\deleted`: imap.FlagDeleted, `\draft`: imap.FlagDraft,
}

func canonicalFlag(f imap.Flag) imap.Flag {
	if c, ok := systemFlags[strings.ToLower(string(f))]; ok {
		return c
	}
	return f
}

func mailboxKey(name string) string {
	name = strings.TrimRight(name, "/")
	if strings.EqualFold(name, "INBOX") {
		return "INBOX"
	}
	return name
}

// flagRecent is session state in IMAP4rev1 and cannot be stored.
const flagRecent imap.Flag = `\Recent`

// --- the file ---------------------------------------------------------------
//
//	meta       "version" → "2"
//	accounts   address → diskAccount
//	mailboxes  address NUL name → diskMailbox
//	messages   address NUL name NUL uid(4) → diskMessage
//	contents   id(8) → blob(8) + the lines added on delivery (Return-Path, …)
//	blobs      blob(8) → the message as sent (shared by every copy)
//	refs       blob(8) → number of contents that use it (4)
//
// Version 1 (before bodies left memory) kept each message whole in "raw"
// under its message key and passwords in clear; openStore converts it.

var (
	bktMeta      = []byte("meta")
	bktAccounts  = []byte("accounts")
	bktMailboxes = []byte("mailboxes")
	bktMessages  = []byte("messages")
	bktContents  = []byte("contents")
	bktBlobs     = []byte("blobs")
	bktRefs      = []byte("refs")
	bktRawV1     = []byte("raw")
)

type diskAccount struct {
	Hash     []byte      `json:"hash,omitempty"`
	Kind     accountKind `json:"kind,omitempty"`
	Password string      `json:"password,omitempty"` // version 1 only
	Auto     bool        `json:"auto,omitempty"`     // version 1 only
}

type diskMailbox struct {
	UIDValidity uint32 `json:"uid_validity"`
	UIDNext     uint32 `json:"uid_next"`
	Subscribed  bool   `json:"subscribed,omitempty"`
}

type diskMessage struct {
	Date    time.Time   `json:"date"`
	Flags   []imap.Flag `json:"flags,omitempty"`
	Size    int64       `json:"size,omitempty"`
	Content uint64      `json:"content,omitempty"`
}

func mboxDiskKey(addr, name string) []byte { return []byte(addr + "\x00" + name) }

func msgDiskKey(addr, name string, uid uint32) []byte {
	k := append(mboxDiskKey(addr, name), 0)
	return binary.BigEndian.AppendUint32(k, uid)
}

func u64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func putJSON(b *bolt.Bucket, k []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, raw)
}

// openStore opens (or creates) the state file; path "" is a temporary
// file, removed at once where the system allows (it lives on while open).
// hash turns a version-1 clear password into a stored hash.
func openStore(path string, lim limits, hash func(string) ([]byte, error)) (*store, error) {
	s := &store{users: map[string]*user{}, limits: lim}
	opts := &bolt.Options{Timeout: 5 * time.Second}
	name := path
	if path == "" {
		f, err := os.CreateTemp("", "pbemd-mail-*.db")
		if err != nil {
			return nil, fmt.Errorf("mail server state: %w", err)
		}
		name = f.Name()
		f.Close()
		opts.NoSync = true // nothing to keep after a crash
	}
	db, err := bolt.Open(name, 0o600, opts)
	if err != nil {
		if path == "" {
			os.Remove(name)
		}
		return nil, fmt.Errorf("mail server state %s: %w", name, err)
	}
	if path == "" && os.Remove(name) != nil {
		s.remove = name
	}
	s.db = db
	fail := func(err error) (*store, error) {
		s.close()
		return nil, fmt.Errorf("mail server state %s: %w", name, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bktMeta, bktAccounts, bktMailboxes, bktMessages, bktContents, bktBlobs, bktRefs} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	converted, err := s.migrateV1(hash)
	if err != nil {
		return fail(err)
	}
	if converted && path != "" {
		// freed pages still hold the old clear passwords: rewrite the file
		if err := s.compact(path, opts); err != nil {
			return fail(err)
		}
	}
	if err := s.db.View(s.load); err != nil {
		return fail(err)
	}
	if err := s.sweep(); err != nil {
		return fail(err)
	}
	return s, nil
}

// migrateV1 converts a version-1 file: each message's content moves to a
// blob (one transaction per message, so memory holds one at a time) and
// clear passwords become hashes (automatic accounts store none).
func (s *store) migrateV1(hash func(string) ([]byte, error)) (converted bool, err error) {
	var keys [][]byte
	accounts := map[string]diskAccount{}
	err = s.db.View(func(tx *bolt.Tx) error {
		if raw := tx.Bucket(bktRawV1); raw != nil {
			if err := raw.ForEach(func(k, _ []byte) error { keys = append(keys, slices.Clone(k)); return nil }); err != nil {
				return err
			}
		}
		return tx.Bucket(bktAccounts).ForEach(func(k, v []byte) error {
			var a diskAccount
			if err := json.Unmarshal(v, &a); err != nil {
				return err
			}
			if a.Kind == "" {
				accounts[string(k)] = a
			}
			return nil
		})
	})
	if err != nil {
		return false, err
	}
	converted = len(keys) > 0 || len(accounts) > 0
	for addr, a := range accounts {
		next := diskAccount{Kind: kindAuto}
		if !a.Auto {
			h, err := hash(a.Password)
			if err != nil {
				return false, err
			}
			next = diskAccount{Kind: kindConfigured, Hash: h}
		}
		if err := s.db.Update(func(tx *bolt.Tx) error { return putJSON(tx.Bucket(bktAccounts), []byte(addr), next) }); err != nil {
			return false, err
		}
	}
	for _, k := range keys {
		err := s.db.Update(func(tx *bolt.Tx) error {
			rawB := tx.Bucket(bktRawV1)
			body := slices.Clone(rawB.Get(k))
			var dm diskMessage
			if v := tx.Bucket(bktMessages).Get(k); v != nil {
				if err := json.Unmarshal(v, &dm); err != nil {
					return err
				}
				id, err := putContent(tx, nil, body, 1)
				if err != nil {
					return err
				}
				dm.Content, dm.Size = id[0], int64(len(body))
				if err := putJSON(tx.Bucket(bktMessages), k, dm); err != nil {
					return err
				}
			}
			return rawB.Delete(k)
		})
		if err != nil {
			return false, err
		}
	}
	return converted, s.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bktRawV1) != nil {
			if err := tx.DeleteBucket(bktRawV1); err != nil {
				return err
			}
		}
		return tx.Bucket(bktMeta).Put([]byte("version"), []byte("2"))
	})
}

// compact rewrites the file without its free pages.
func (s *store) compact(path string, opts *bolt.Options) error {
	tmp := path + ".compact"
	os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, opts)
	if err != nil {
		return err
	}
	err = bolt.Compact(dst, s.db, 16<<20)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := s.db.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	s.db, err = bolt.Open(path, 0o600, opts)
	return err
}

func (s *store) load(tx *bolt.Tx) error {
	err := tx.Bucket(bktAccounts).ForEach(func(k, v []byte) error {
		var a diskAccount
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		s.users[string(k)] = &user{addr: string(k), kind: a.Kind, hash: a.Hash, mailboxes: map[string]*mailbox{}}
		return nil
	})
	if err != nil {
		return err
	}
	var maxValidity uint32
	err = tx.Bucket(bktMailboxes).ForEach(func(k, v []byte) error {
		addr, name, _ := strings.Cut(string(k), "\x00")
		u := s.users[addr]
		if u == nil {
			return nil
		}
		var d diskMailbox
		if err := json.Unmarshal(v, &d); err != nil {
			return err
		}
		mb := &mailbox{user: u, name: name, uidValidity: d.UIDValidity, uidNext: d.UIDNext, subscribed: d.Subscribed, waiters: map[chan struct{}]struct{}{}}
		maxValidity = max(maxValidity, d.UIDValidity)
		prefix := append(mboxDiskKey(addr, name), 0)
		c := tx.Bucket(bktMessages).Cursor()
		for mk, mv := c.Seek(prefix); mk != nil && bytes.HasPrefix(mk, prefix); mk, mv = c.Next() {
			var dm diskMessage
			if err := json.Unmarshal(mv, &dm); err != nil {
				return err
			}
			if len(mk) != len(prefix)+4 || dm.Content == 0 {
				return fmt.Errorf("message record %q is damaged", mk)
			}
			uid := binary.BigEndian.Uint32(mk[len(prefix):])
			mb.msgs = append(mb.msgs, &message{uid: uid, content: dm.Content, size: dm.Size, date: dm.Date, flags: dm.Flags})
		}
		mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
		u.mailboxes[name] = mb
		return nil
	})
	if err != nil {
		return err
	}
	for _, u := range s.users {
		for _, mb := range u.mailboxes {
			for _, m := range mb.msgs {
				u.used.bytes += m.size
				u.used.msgs++
			}
		}
		s.used.bytes += u.used.bytes
		s.used.msgs += u.used.msgs
	}
	for {
		last := lastUIDValidity.Load()
		if last >= maxValidity || lastUIDValidity.CompareAndSwap(last, maxValidity) {
			break
		}
	}
	return nil
}

// sweep releases contents no message refers to: those of messages
// expunged while a reader had them pinned when the server stopped.
func (s *store) sweep() error {
	used := map[uint64]bool{}
	for _, u := range s.users {
		for _, mb := range u.mailboxes {
			for _, m := range mb.msgs {
				used[m.content] = true
			}
		}
	}
	var orphans []uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bktContents).ForEach(func(k, _ []byte) error {
			if id := binary.BigEndian.Uint64(k); !used[id] {
				orphans = append(orphans, id)
			}
			return nil
		})
	})
	if err != nil || len(orphans) == 0 {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, id := range orphans {
			if err := releaseContent(tx, id); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *store) close() error {
	err := s.db.Close()
	if s.remove != "" {
		os.Remove(s.remove)
	}
	return err
}

// putContent stores body once as a blob used by refs contents, one per
// head, and returns their ids.
func putContent(tx *bolt.Tx, heads [][]byte, body []byte, refs int) ([]uint64, error) {
	blobs := tx.Bucket(bktBlobs)
	blob, err := blobs.NextSequence()
	if err != nil {
		return nil, err
	}
	if err := blobs.Put(u64(blob), body); err != nil {
		return nil, err
	}
	if err := tx.Bucket(bktRefs).Put(u64(blob), binary.BigEndian.AppendUint32(nil, uint32(refs))); err != nil {
		return nil, err
	}
	ids := make([]uint64, refs)
	for i := range refs {
		var head []byte
		if i < len(heads) {
			head = heads[i]
		}
		if ids[i], err = putContentRecord(tx, blob, head); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func putContentRecord(tx *bolt.Tx, blob uint64, head []byte) (uint64, error) {
	b := tx.Bucket(bktContents)
	id, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	return id, b.Put(u64(id), append(u64(blob), head...))
}

// shareContent makes a new content with the same head and blob as id (a
// COPY costs no message bytes).
func shareContent(tx *bolt.Tx, id uint64) (uint64, error) {
	v := tx.Bucket(bktContents).Get(u64(id))
	if len(v) < 8 {
		return 0, fmt.Errorf("content %d is missing", id)
	}
	blob, head := binary.BigEndian.Uint64(v), slices.Clone(v[8:])
	refs := tx.Bucket(bktRefs)
	n := refs.Get(u64(blob))
	if len(n) != 4 {
		return 0, fmt.Errorf("blob %d has no reference count", blob)
	}
	if err := refs.Put(u64(blob), binary.BigEndian.AppendUint32(nil, binary.BigEndian.Uint32(n)+1)); err != nil {
		return 0, err
	}
	return putContentRecord(tx, blob, head)
}

// releaseContent deletes a content and, with its last user, the blob.
func releaseContent(tx *bolt.Tx, id uint64) error {
	contents := tx.Bucket(bktContents)
	v := contents.Get(u64(id))
	if len(v) < 8 {
		return nil
	}
	blob := binary.BigEndian.Uint64(v)
	if err := contents.Delete(u64(id)); err != nil {
		return err
	}
	refs := tx.Bucket(bktRefs)
	n := uint32(0)
	if r := refs.Get(u64(blob)); len(r) == 4 {
		n = binary.BigEndian.Uint32(r)
	}
	if n > 1 {
		return refs.Put(u64(blob), binary.BigEndian.AppendUint32(nil, n-1))
	}
	if err := refs.Delete(u64(blob)); err != nil {
		return err
	}
	return tx.Bucket(bktBlobs).Delete(u64(blob))
}

func (mb *mailbox) saveMeta(tx *bolt.Tx) error {
	return putJSON(tx.Bucket(bktMailboxes), mboxDiskKey(mb.user.addr, mb.name),
		diskMailbox{UIDValidity: mb.uidValidity, UIDNext: mb.uidNext, Subscribed: mb.subscribed})
}

func (mb *mailbox) saveMessage(tx *bolt.Tx, m *message) error {
	return putJSON(tx.Bucket(bktMessages), msgDiskKey(mb.user.addr, mb.name, m.uid),
		diskMessage{Date: m.date, Flags: m.flags, Size: m.size, Content: m.content})
}

func (mb *mailbox) deleteMessage(tx *bolt.Tx, m *message) error {
	if err := tx.Bucket(bktMessages).Delete(msgDiskKey(mb.user.addr, mb.name, m.uid)); err != nil {
		return err
	}
	if m.pins > 0 {
		return nil // released by the last unpin
	}
	return releaseContent(tx, m.content)
}

// --- reading contents ------------------------------------------------------

// errGone is the content of a message that no longer exists.
var errGone = errors.New("mailserver: message content is gone")

// contentReader reads a message's content from the file, each Read in a
// read transaction of its own, so a slow client holds no lock.
type contentReader struct {
	db   *bolt.DB
	id   uint64
	head []byte
	blob uint64
	off  int64 // into the body, after head is read
	open bool
}

func (s *store) reader(id uint64) *contentReader { return &contentReader{db: s.db, id: id} }

func (r *contentReader) Read(p []byte) (int, error) {
	if !r.open {
		err := r.db.View(func(tx *bolt.Tx) error {
			v := tx.Bucket(bktContents).Get(u64(r.id))
			if len(v) < 8 {
				return errGone
			}
			r.blob, r.head = binary.BigEndian.Uint64(v), slices.Clone(v[8:])
			return nil
		})
		if err != nil {
			return 0, err
		}
		r.open = true
	}
	if len(r.head) > 0 {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	var n int
	err := r.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktBlobs).Get(u64(r.blob))
		if v == nil {
			return errGone
		}
		if r.off >= int64(len(v)) {
			return nil
		}
		n = copy(p, v[r.off:])
		return nil
	})
	r.off += int64(n)
	if err == nil && n == 0 && len(p) > 0 {
		err = io.EOF
	}
	return n, err
}

// readAll reads a whole content (SEARCH on small mail, tests).
func (s *store) readAll(id uint64) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(s.reader(id))
	return b.Bytes(), err
}

// pin keeps m's content while a reader streams it. Callers hold s.mu.
func (m *message) pin() { m.pins++ }

// unpin ends a pin; the last one releases the content of an expunged
// message.
func (s *store) unpin(ms []*message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var release []uint64
	for _, m := range ms {
		m.pins--
		if m.pins == 0 && m.gone {
			release = append(release, m.content)
		}
	}
	if len(release) == 0 {
		return
	}
	s.db.Update(func(tx *bolt.Tx) error {
		for _, id := range release {
			if err := releaseContent(tx, id); err != nil {
				return err
			}
		}
		return nil
	}) // on failure the sweep at the next start releases them
}

// --- accounts and mailboxes (callers hold s.mu) -----------------------------

var errNoMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}

func (s *store) userLocked(addr string) *user { return s.users[strings.ToLower(addr)] }

// putUserLocked creates an account, or sets the kind and hash of an
// existing one.
func (s *store) putUserLocked(addr string, kind accountKind, hash []byte) (*user, error) {
	key := strings.ToLower(addr)
	u := s.users[key]
	if u == nil && len(s.users) >= MaxAccounts {
		return nil, fmt.Errorf("mailserver: %d accounts, the most this server keeps", MaxAccounts)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return putJSON(tx.Bucket(bktAccounts), []byte(key), diskAccount{Kind: kind, Hash: hash})
	}); err != nil {
		return nil, err
	}
	if u != nil {
		u.kind, u.hash, u.verified = kind, hash, [32]byte{}
		return u, nil
	}
	u = &user{addr: key, kind: kind, hash: hash, mailboxes: map[string]*mailbox{}}
	s.users[key] = u
	inbox, err := s.createMailboxLocked(u, "INBOX")
	if err != nil {
		return nil, err
	}
	// mail clients that list only subscribed folders still show INBOX
	inbox.subscribed = true
	return u, s.db.Update(inbox.saveMeta)
}

func (s *store) createMailboxLocked(u *user, name string) (*mailbox, error) {
	name = mailboxKey(name)
	if name == "" || strings.ContainsAny(name, "\r\n\x00*%") {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Invalid mailbox name"}
	}
	if u.mailboxes[name] != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	if len(u.mailboxes) >= maxFolders {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: fmt.Sprintf("At most %d folders per account", maxFolders)}
	}
	mb := &mailbox{user: u, name: name, uidValidity: newUIDValidity(0), uidNext: 1,
		tracker: imapserver.NewMailboxTracker(0), waiters: map[chan struct{}]struct{}{}}
	if err := s.db.Update(mb.saveMeta); err != nil {
		return nil, err
	}
	u.mailboxes[name] = mb
	return mb, nil
}

// maxFolders bounds the folders of one account.
const maxFolders = 200

func (s *store) deleteMailboxLocked(u *user, name string) error {
	name = mailboxKey(name)
	mb := u.mailboxes[name]
	if mb == nil {
		return errNoMailbox
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		for _, m := range mb.msgs {
			if err := mb.deleteMessage(tx, m); err != nil {
				return err
			}
		}
		return tx.Bucket(bktMailboxes).Delete(mboxDiskKey(u.addr, name))
	}); err != nil {
		return err
	}
	delete(u.mailboxes, name)
	// sessions that had it selected see it empty from now on
	for i := len(mb.msgs); i > 0; i-- {
		mb.tracker.QueueExpunge(uint32(i))
	}
	for _, m := range mb.msgs {
		s.forgetLocked(u, m)
	}
	mb.msgs = nil
	mb.notify()
	return nil
}

// forgetLocked takes an expunged message off the usage counts.
func (s *store) forgetLocked(u *user, m *message) {
	u.used.bytes -= m.size
	u.used.msgs--
	s.used.bytes -= m.size
	s.used.msgs--
	m.gone = m.pins > 0
}

func (s *store) renameMailboxLocked(u *user, oldName, newName string) error {
	oldName, newName = mailboxKey(oldName), mailboxKey(newName)
	mb := u.mailboxes[oldName]
	if mb == nil {
		return errNoMailbox
	}
	if oldName == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be renamed here"}
	}
	if newName == "" || strings.ContainsAny(newName, "\r\n\x00*%") {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Invalid mailbox name"}
	}
	if u.mailboxes[newName] != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		msgs := tx.Bucket(bktMessages)
		for _, m := range mb.msgs {
			if err := msgs.Delete(msgDiskKey(u.addr, oldName, m.uid)); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bktMailboxes).Delete(mboxDiskKey(u.addr, oldName)); err != nil {
			return err
		}
		mb.name = newName
		if err := mb.saveMeta(tx); err != nil {
			return err
		}
		for _, m := range mb.msgs {
			if err := mb.saveMessage(tx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		mb.name = oldName
		return err
	}
	delete(u.mailboxes, oldName)
	u.mailboxes[newName] = mb
	return nil
}

// --- quotas -------------------------------------------------------------------

// QuotaError is a mail refused because a mailbox, or the server as a
// whole, is full.
type QuotaError struct {
	Address   string // the full account; "" when the whole server is full
	Permanent bool   // the mail is larger than the account can ever hold
}

func (e *QuotaError) Error() string {
	switch {
	case e.Address == "":
		return "mailserver: the server's storage is full"
	case e.Permanent:
		return fmt.Sprintf("mailserver: the mail is larger than the quota of %s", e.Address)
	}
	return fmt.Sprintf("mailserver: the mailbox %s is full", e.Address)
}

// checkQuotaLocked reports whether messages of sizes[i] bytes fit into
// the accounts targets[i] (an account may appear more than once: one copy
// each) and into the server.
func (s *store) checkQuotaLocked(targets []*user, sizes []int64) error {
	type need struct {
		bytes, largest int64
		msgs           int
	}
	needs := map[*user]*need{}
	var users []*user
	var total int64
	for i, u := range targets {
		n := needs[u]
		if n == nil {
			n = &need{}
			needs[u] = n
			users = append(users, u)
		}
		n.bytes += sizes[i]
		n.largest = max(n.largest, sizes[i])
		n.msgs++
		total += sizes[i]
	}
	sort.Slice(users, func(i, j int) bool { return users[i].addr < users[j].addr })
	for _, u := range users {
		n := needs[u]
		if n.largest > s.limits.mailboxBytes {
			return &QuotaError{Address: u.addr, Permanent: true}
		}
		if u.used.bytes+n.bytes > s.limits.mailboxBytes || u.used.msgs+n.msgs > s.limits.mailboxMsgs {
			return &QuotaError{Address: u.addr}
		}
	}
	if s.used.bytes+total > s.limits.totalBytes || s.used.msgs+len(targets) > s.limits.totalMsgs {
		return &QuotaError{}
	}
	return nil
}

// addLocked puts new messages at the end of their mailboxes, as the
// transaction that stored them committed.
func (s *store) addLocked(targets []*mailbox, msgs []*message) {
	for i, mb := range targets {
		m := msgs[i]
		mb.msgs = append(mb.msgs, m)
		mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
		mb.user.used.bytes += m.size
		mb.user.used.msgs++
		s.used.bytes += m.size
		s.used.msgs++
	}
	for _, mb := range targets {
		mb.notify()
	}
}

// assignUIDs gives the i-th new message of targets its UID and returns a
// function that undoes it (the transaction failed).
func assignUIDs(targets []*mailbox) ([]uint32, func()) {
	saved := map[*mailbox]uint32{}
	uids := make([]uint32, len(targets))
	for i, mb := range targets {
		if _, ok := saved[mb]; !ok {
			saved[mb] = mb.uidNext
		}
		uids[i] = mb.uidNext
		mb.uidNext++
	}
	return uids, func() {
		for mb, n := range saved {
			mb.uidNext = n
		}
	}
}

// saveMetas writes the metadata of each mailbox of targets once.
func saveMetas(tx *bolt.Tx, targets []*mailbox) error {
	done := map[*mailbox]bool{}
	for _, mb := range targets {
		if !done[mb] {
			done[mb] = true
			if err := mb.saveMeta(tx); err != nil {
				return err
			}
		}
	}
	return nil
}

// deliverLocked stores body once and a message for it in every target
// mailbox, heads[i] (may be nil) on top of the i-th copy, in one
// transaction: every copy or none. It checks the quotas first.
func (s *store) deliverLocked(targets []*mailbox, heads [][]byte, body []byte, flags []imap.Flag, date time.Time) ([]*message, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	owners := make([]*user, len(targets))
	sizes := make([]int64, len(targets))
	for i, mb := range targets {
		owners[i] = mb.user
		sizes[i] = int64(len(heads[i]) + len(body))
	}
	if err := s.checkQuotaLocked(owners, sizes); err != nil {
		return nil, err
	}
	if date.IsZero() {
		date = time.Now()
	}
	uids, undo := assignUIDs(targets)
	msgs := make([]*message, len(targets))
	err := s.db.Update(func(tx *bolt.Tx) error {
		ids, err := putContent(tx, heads, body, len(targets))
		if err != nil {
			return err
		}
		for i, mb := range targets {
			msgs[i] = &message{uid: uids[i], content: ids[i], size: sizes[i], date: date, flags: cleanFlags(flags)}
			if err := mb.saveMessage(tx, msgs[i]); err != nil {
				return err
			}
		}
		return saveMetas(tx, targets)
	})
	if err != nil {
		undo()
		return nil, err
	}
	s.addLocked(targets, msgs)
	return msgs, nil
}

func cleanFlags(flags []imap.Flag) []imap.Flag {
	var out []imap.Flag
	for _, f := range flags {
		f = canonicalFlag(f)
		if f != flagRecent && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// copyLocked copies msgs into dest in one transaction; the copies share
// the originals' bytes (but count towards the quotas like any message).
func (s *store) copyLocked(msgs []*message, dest *mailbox) ([]*message, error) {
	targets := make([]*mailbox, len(msgs))
	owners := make([]*user, len(msgs))
	sizes := make([]int64, len(msgs))
	for i, m := range msgs {
		targets[i], owners[i], sizes[i] = dest, dest.user, m.size
	}
	if err := s.checkQuotaLocked(owners, sizes); err != nil {
		return nil, err
	}
	uids, undo := assignUIDs(targets)
	out := make([]*message, len(msgs))
	err := s.db.Update(func(tx *bolt.Tx) error {
		for i, m := range msgs {
			id, err := shareContent(tx, m.content)
			if err != nil {
				return err
			}
			out[i] = &message{uid: uids[i], content: id, size: m.size, date: m.date, flags: slices.Clone(m.flags)}
			if err := dest.saveMessage(tx, out[i]); err != nil {
				return err
			}
		}
		return saveMetas(tx, targets)
	})
	if err != nil {
		undo()
		return nil, err
	}
	s.addLocked(targets, out)
	return out, nil
}

// setFlagsLocked applies a STORE to one message (index i, seq i+1).
func (s *store) setFlagsLocked(mb *mailbox, i int, op imap.StoreFlagsOp, flags []imap.Flag, source *imapserver.SessionTracker) error {
	return s.setFlagsManyLocked(mb, []int{i}, op, flags, source)
}

// setFlagsManyLocked applies a STORE to the messages at indexes idx, in
// one transaction: a STORE of a whole batch costs one commit, not one per
// message. Nothing changes when it fails.
func (s *store) setFlagsManyLocked(mb *mailbox, idx []int, op imap.StoreFlagsOp, flags []imap.Flag, source *imapserver.SessionTracker) error {
	type change struct {
		i    int
		next []imap.Flag
	}
	var changes []change
	for _, i := range idx {
		m := mb.msgs[i]
		next := slices.Clone(m.flags)
		switch op {
		case imap.StoreFlagsSet:
			next = next[:0]
			fallthrough
		case imap.StoreFlagsAdd:
			for _, f := range flags {
				f = canonicalFlag(f)
				if f != flagRecent && !slices.Contains(next, f) {
					next = append(next, f)
				}
			}
		case imap.StoreFlagsDel:
			for _, f := range flags {
				f = canonicalFlag(f)
				next = slices.DeleteFunc(next, func(g imap.Flag) bool { return g == f })
			}
		}
		sort.Slice(next, func(a, b int) bool { return next[a] < next[b] })
		if slices.Equal(next, m.flags) {
			continue
		}
		if len(next) > maxFlags {
			return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: fmt.Sprintf("At most %d flags per message", maxFlags)}
		}
		changes = append(changes, change{i, next})
	}
	if len(changes) == 0 {
		return nil
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, c := range changes {
			m := *mb.msgs[c.i]
			m.flags = c.next
			if err := mb.saveMessage(tx, &m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range changes {
		m := mb.msgs[c.i]
		m.flags = c.next
		mb.tracker.QueueMessageFlags(uint32(c.i+1), imap.UID(m.uid), slices.Clone(c.next), source)
	}
	mb.notify()
	return nil
}

// maxFlags bounds the flags (keywords) of one message.
const maxFlags = 32

// expungeLocked removes the messages for which drop is true and queues
// the EXPUNGE updates, highest sequence number first.
func (s *store) expungeLocked(mb *mailbox, drop func(m *message) bool) error {
	var gone []int
	for i, m := range mb.msgs {
		if drop(m) {
			gone = append(gone, i)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		for _, i := range gone {
			if err := mb.deleteMessage(tx, mb.msgs[i]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for j := len(gone) - 1; j >= 0; j-- {
		i := gone[j]
		s.forgetLocked(mb.user, mb.msgs[i])
		mb.msgs = slices.Delete(mb.msgs, i, i+1)
		mb.tracker.QueueExpunge(uint32(i + 1))
	}
	mb.notify()
	return nil
}

// notify wakes every session idling on the mailbox.
func (mb *mailbox) notify() {
	for ch := range mb.waiters {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
