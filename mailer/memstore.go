package mailer

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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

// memStore holds the embedded server's accounts, mailboxes and messages,
// in memory and, when a state file is configured, in a bbolt file written
// through on every change (so mail, flags, UIDs and UIDVALIDITY survive a
// restart). One mutex guards it all: this is a demo and test server.
type memStore struct {
	mu    sync.Mutex
	users map[string]*memUser // by lower-case address
	db    *bolt.DB            // nil: memory only
}

type memUser struct {
	addr      string
	password  string
	auto      bool
	mailboxes map[string]*memMailbox // by name; "INBOX" is upper case
}

type memMailbox struct {
	user        *memUser
	name        string
	uidValidity uint32
	uidNext     uint32
	subscribed  bool
	msgs        []*memMessage // ascending UID
	tracker     *imapserver.MailboxTracker
	waiters     map[chan struct{}]struct{} // sessions in IDLE
}

type memMessage struct {
	uid   uint32
	date  time.Time
	raw   []byte // immutable
	flags []imap.Flag
}

func (m *memMessage) hasFlag(f imap.Flag) bool {
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

// --- persistence ---------------------------------------------------------

var (
	bktAccounts  = []byte("accounts")
	bktMailboxes = []byte("mailboxes")
	bktMessages  = []byte("messages")
	bktRaw       = []byte("raw")
)

type diskAccount struct {
	Password string `json:"password"`
	Auto     bool   `json:"auto,omitempty"`
}

type diskMailbox struct {
	UIDValidity uint32 `json:"uid_validity"`
	UIDNext     uint32 `json:"uid_next"`
	Subscribed  bool   `json:"subscribed,omitempty"`
}

type diskMessage struct {
	Date  time.Time   `json:"date"`
	Flags []imap.Flag `json:"flags,omitempty"`
}

func mboxDiskKey(addr, name string) []byte { return []byte(addr + "\x00" + name) }

func msgDiskKey(addr, name string, uid uint32) []byte {
	k := append(mboxDiskKey(addr, name), 0)
	return binary.BigEndian.AppendUint32(k, uid)
}

func openMemStore(path string) (*memStore, error) {
	s := &memStore{users: map[string]*memUser{}}
	if path == "" {
		return s, nil
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("mail server state %s: %w", path, err)
	}
	s.db = db
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bktAccounts, bktMailboxes, bktMessages, bktRaw} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = db.View(s.load)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("mail server state %s: %w", path, err)
	}
	return s, nil
}

func (s *memStore) load(tx *bolt.Tx) error {
	err := tx.Bucket(bktAccounts).ForEach(func(k, v []byte) error {
		var a diskAccount
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		s.users[string(k)] = &memUser{addr: string(k), password: a.Password, auto: a.Auto, mailboxes: map[string]*memMailbox{}}
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
		mb := &memMailbox{user: u, name: name, uidValidity: d.UIDValidity, uidNext: d.UIDNext, subscribed: d.Subscribed, waiters: map[chan struct{}]struct{}{}}
		maxValidity = max(maxValidity, d.UIDValidity)
		prefix := append(mboxDiskKey(addr, name), 0)
		c := tx.Bucket(bktMessages).Cursor()
		for mk, mv := c.Seek(prefix); mk != nil && strings.HasPrefix(string(mk), string(prefix)); mk, mv = c.Next() {
			var dm diskMessage
			if err := json.Unmarshal(mv, &dm); err != nil {
				return err
			}
			uid := binary.BigEndian.Uint32(mk[len(prefix):])
			raw := append([]byte(nil), tx.Bucket(bktRaw).Get(mk)...)
			mb.msgs = append(mb.msgs, &memMessage{uid: uid, date: dm.Date, raw: raw, flags: dm.Flags})
		}
		mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.msgs)))
		u.mailboxes[name] = mb
		return nil
	})
	if err != nil {
		return err
	}
	for {
		last := lastUIDValidity.Load()
		if last >= maxValidity || lastUIDValidity.CompareAndSwap(last, maxValidity) {
			break
		}
	}
	return nil
}

func (s *memStore) close() error {
	if s.db != nil {
		return s.db.Close()
	}
	return nil
}

// persist runs fn in a bbolt write transaction when the store is on disk.
// Callers hold s.mu.
func (s *memStore) persist(fn func(tx *bolt.Tx) error) error {
	if s.db == nil {
		return nil
	}
	return s.db.Update(fn)
}

func putJSONBolt(b *bolt.Bucket, k []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, raw)
}

func (mb *memMailbox) saveMeta(tx *bolt.Tx) error {
	return putJSONBolt(tx.Bucket(bktMailboxes), mboxDiskKey(mb.user.addr, mb.name),
		diskMailbox{UIDValidity: mb.uidValidity, UIDNext: mb.uidNext, Subscribed: mb.subscribed})
}

func (mb *memMailbox) saveMessage(tx *bolt.Tx, m *memMessage, withRaw bool) error {
	k := msgDiskKey(mb.user.addr, mb.name, m.uid)
	if withRaw {
		if err := tx.Bucket(bktRaw).Put(k, m.raw); err != nil {
			return err
		}
	}
	return putJSONBolt(tx.Bucket(bktMessages), k, diskMessage{Date: m.date, Flags: m.flags})
}

func (mb *memMailbox) deleteMessage(tx *bolt.Tx, uid uint32) error {
	k := msgDiskKey(mb.user.addr, mb.name, uid)
	if err := tx.Bucket(bktRaw).Delete(k); err != nil {
		return err
	}
	return tx.Bucket(bktMessages).Delete(k)
}

// --- accounts and mailboxes (callers hold s.mu) --------------------------

var errNoMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}

func (s *memStore) userLocked(addr string) *memUser { return s.users[strings.ToLower(addr)] }

func (s *memStore) addUserLocked(addr, password string, auto bool) (*memUser, error) {
	key := strings.ToLower(addr)
	if u := s.users[key]; u != nil {
		u.password, u.auto = password, auto
		return u, s.persist(func(tx *bolt.Tx) error {
			return putJSONBolt(tx.Bucket(bktAccounts), []byte(key), diskAccount{Password: password, Auto: auto})
		})
	}
	u := &memUser{addr: key, password: password, auto: auto, mailboxes: map[string]*memMailbox{}}
	if err := s.persist(func(tx *bolt.Tx) error {
		return putJSONBolt(tx.Bucket(bktAccounts), []byte(key), diskAccount{Password: password, Auto: auto})
	}); err != nil {
		return nil, err
	}
	s.users[key] = u
	inbox, err := s.createMailboxLocked(u, "INBOX")
	if err != nil {
		return nil, err
	}
	// mail clients that list only subscribed folders still show INBOX
	inbox.subscribed = true
	return u, s.persist(inbox.saveMeta)
}

func (s *memStore) createMailboxLocked(u *memUser, name string) (*memMailbox, error) {
	name = mailboxKey(name)
	if name == "" || strings.ContainsAny(name, "\r\n\x00*%") {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Invalid mailbox name"}
	}
	if u.mailboxes[name] != nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	mb := &memMailbox{user: u, name: name, uidValidity: newUIDValidity(0), uidNext: 1,
		tracker: imapserver.NewMailboxTracker(0), waiters: map[chan struct{}]struct{}{}}
	if err := s.persist(mb.saveMeta); err != nil {
		return nil, err
	}
	u.mailboxes[name] = mb
	return mb, nil
}

func (s *memStore) deleteMailboxLocked(u *memUser, name string) error {
	name = mailboxKey(name)
	mb := u.mailboxes[name]
	if mb == nil {
		return errNoMailbox
	}
	if err := s.persist(func(tx *bolt.Tx) error {
		for _, m := range mb.msgs {
			if err := mb.deleteMessage(tx, m.uid); err != nil {
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
	mb.msgs = nil
	mb.notify()
	return nil
}

func (s *memStore) renameMailboxLocked(u *memUser, oldName, newName string) error {
	oldName, newName = mailboxKey(oldName), mailboxKey(newName)
	mb := u.mailboxes[oldName]
	if mb == nil {
		return errNoMailbox
	}
	if oldName == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "INBOX cannot be renamed here"}
	}
	if u.mailboxes[newName] != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	if err := s.persist(func(tx *bolt.Tx) error {
		for _, m := range mb.msgs {
			if err := mb.deleteMessage(tx, m.uid); err != nil {
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
			if err := mb.saveMessage(tx, m, true); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		mb.name = oldName
		return err
	}
	mb.name = newName
	delete(u.mailboxes, oldName)
	u.mailboxes[newName] = mb
	return nil
}

// appendLocked adds a message and tells every session of the mailbox.
func (s *memStore) appendLocked(mb *memMailbox, raw []byte, flags []imap.Flag, date time.Time) (*memMessage, error) {
	if date.IsZero() {
		date = time.Now()
	}
	m := &memMessage{uid: mb.uidNext, date: date, raw: raw}
	for _, f := range flags {
		f = canonicalFlag(f)
		if f != flagRecent && !slices.Contains(m.flags, f) {
			m.flags = append(m.flags, f)
		}
	}
	mb.uidNext++
	if err := s.persist(func(tx *bolt.Tx) error {
		if err := mb.saveMessage(tx, m, true); err != nil {
			return err
		}
		return mb.saveMeta(tx)
	}); err != nil {
		mb.uidNext--
		return nil, err
	}
	mb.msgs = append(mb.msgs, m)
	mb.tracker.QueueNumMessages(uint32(len(mb.msgs)))
	mb.notify()
	return m, nil
}

// setFlagsLocked applies a STORE to one message (index i, seq i+1).
func (s *memStore) setFlagsLocked(mb *memMailbox, i int, op imap.StoreFlagsOp, flags []imap.Flag, source *imapserver.SessionTracker) error {
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
		return nil
	}
	old := m.flags
	m.flags = next
	if err := s.persist(func(tx *bolt.Tx) error { return mb.saveMessage(tx, m, false) }); err != nil {
		m.flags = old
		return err
	}
	mb.tracker.QueueMessageFlags(uint32(i+1), imap.UID(m.uid), slices.Clone(next), source)
	mb.notify()
	return nil
}

// expungeLocked removes the messages for which drop is true and queues
// the EXPUNGE updates, highest sequence number first.
func (s *memStore) expungeLocked(mb *memMailbox, drop func(m *memMessage) bool) error {
	var gone []int
	for i, m := range mb.msgs {
		if drop(m) {
			gone = append(gone, i)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	if err := s.persist(func(tx *bolt.Tx) error {
		for _, i := range gone {
			if err := mb.deleteMessage(tx, mb.msgs[i].uid); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for j := len(gone) - 1; j >= 0; j-- {
		i := gone[j]
		mb.msgs = slices.Delete(mb.msgs, i, i+1)
		mb.tracker.QueueExpunge(uint32(i + 1))
	}
	mb.notify()
	return nil
}

// notify wakes every session idling on the mailbox.
func (mb *memMailbox) notify() {
	for ch := range mb.waiters {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// --- delivery and logins --------------------------------------------------

var errNoAccount = errors.New("no such account")

// flagRecent is session state in IMAP4rev1 and cannot be stored.
const flagRecent imap.Flag = `\Recent`
