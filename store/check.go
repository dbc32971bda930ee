package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A store file is checked in three steps, each for what the one before
// cannot see:
//
//  1. Before bbolt sees the file (precheck): its size, its meta pages
//     (magic, version, checksum, the page count) and the headers bbolt
//     asserts, then the shape of its trees (shape: page ids, where the
//     elements lie, no page reached twice). bbolt initialises an empty
//     file as a new store, reads past the end of its memory map on a file
//     cut short or an element outside its page, and loops for ever on
//     pages that point in a circle; in Tx.Check, which runs in a
//     goroutine of its own, no recover reaches such a fault or a failed
//     assertion.
//  2. bbolt opens it, read-only under a shared lock, and every bucket and
//     key is read through its cursors (walker), with the values of
//     pbemd's own buckets checked for the shape their code writes (JSON
//     decodes, counters are 8 bytes). A panic or a memory fault of bbolt
//     here is recovered into a finding.
//  3. When the walk found nothing, bbolt's own Tx.Check: every page
//     referenced once, none both free and in use, none lost, keys in
//     order.
//
// What no check can prove: bbolt keeps no checksum of data pages, so
// damage that turns a value into another well-formed value (a letter for
// a letter inside a JSON string) is invisible. The backup is the defence
// against that.

// maxProblems caps the findings a report lists; the rest are counted.
const maxProblems = 20

// Report is what a check of one file found.
type Report struct {
	Path     string
	Size     int64  // bytes on disk
	PageSize int    // 0 when no meta page could be read
	Pages    uint64 // the high-water mark: pages in use or free
	TxID     uint64 // the transaction the meta page bbolt uses records
	Buckets  int    // buckets, nested ones included
	Keys     int    // keys that are not buckets
	Free     int    // free pages
	// Problems says what is wrong, at most maxProblems of them; More
	// counts the rest. A report with no problems is a sound file.
	Problems []string
	More     int
	// Notes are findings that do not make the file unsound (one meta
	// page damaged while the other is valid: bbolt uses the other).
	Notes []string
	// Truncated is set when the file is shorter than its data.
	Truncated bool
}

// OK reports whether the check found nothing wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) problem(format string, args ...any) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	} else {
		r.More++
	}
}

// Summary is one line: what the file holds, or what is wrong with it.
func (r *Report) Summary() string {
	if r.OK() {
		return fmt.Sprintf("%s: sound (%d bytes, %d pages of %d bytes, %d free; %d buckets, %d keys; transaction %d)",
			r.Path, r.Size, r.Pages, r.PageSize, r.Free, r.Buckets, r.Keys, r.TxID)
	}
	n := len(r.Problems) + r.More
	s := fmt.Sprintf("%s: DAMAGED, %d problem(s): %s", r.Path, n, strings.Join(r.Problems, "; "))
	if r.More > 0 {
		s += fmt.Sprintf("; and %d more", r.More)
	}
	return s
}

// Depth says how much of a file a check reads.
type Depth int

const (
	// Pages checks the structure of any bbolt file (the embedded mail
	// server's too).
	Pages Depth = iota
	// StartValues adds the values of the pbemd buckets the daemon works
	// from (games, tokens, mail state, outbox, deadline index). Open
	// checks this deep.
	StartValues
	// AllValues adds every value, the archive too (history, order sets,
	// audit, press, verification codes, Message-IDs seen and sent).
	// pbemd check goes this deep.
	AllValues
)

// CheckFile checks the bbolt file at path to depth (see the top of
// check.go) under a shared lock, so that no daemon writes it meanwhile:
// ErrInUse when one holds it. Damage is in the report; the error says
// only that the file could not be checked.
func CheckFile(path string, depth Depth) (*Report, error) {
	return checkFile(path, depth, time.Nanosecond) // one try: bbolt's flock gives up at once
}

// checkFile is CheckFile waiting at most wait for the lock.
func checkFile(path string, depth Depth, wait time.Duration) (*Report, error) {
	r := &Report{Path: path}
	if err := r.precheck(path); err != nil {
		return nil, err
	}
	if !r.OK() {
		return r, nil
	}
	b, err := openBolt(path, bolt.Options{ReadOnly: true, PreLoadFreelist: true, Timeout: wait}, nil)
	var de *DamagedError
	switch {
	case errors.Is(err, ErrInUse):
		return nil, fmt.Errorf("%s: %w", path, err)
	case errors.As(err, &de):
		r.problem("bbolt fails on it: %s", de.Cause)
		return r, nil
	case err != nil:
		r.problem("bbolt cannot open it: %v", err)
		return r, nil
	}
	defer b.Close()
	r.Free = b.Stats().FreePageN
	err = recovered(path, func() error {
		return b.View(func(tx *bolt.Tx) error {
			(&walker{r: r, depth: depth}).bucket(tx.Cursor(), "")
			if !r.OK() {
				return nil // Tx.Check runs only on what the walk could read
			}
			for err := range tx.Check(bolt.WithKVStringer(quoteKVs{})) {
				r.problem("bbolt's check: %v", err)
			}
			return nil
		})
	})
	if errors.As(err, &de) {
		r.problem("bbolt fails on it: %s", de.Cause)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// The bbolt file format (version 2), as far as the precheck reads it: a
// meta page is a 16-byte page header, then magic u32, version u32, page
// size u32, flags u32, the root bucket (16 bytes), the freelist page u64,
// the high-water mark u64, the transaction id u64 and an FNV-64a checksum
// of the fields before it, in the byte order of the machine (files do not
// move between byte orders; amd64 and arm64 are little-endian).
const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2
	metaOffset  = 16 // the page header
	metaSize    = 64
)

type boltMeta struct {
	pageSize                    uint32
	root, freelist, pages, txid uint64
}

// noFreelist is the freelist page of a file that keeps none.
const noFreelist = ^uint64(0)

// readMeta reads the meta page at off and says why bbolt would not use it.
func readMeta(f io.ReaderAt, off int64) (boltMeta, error) {
	var m [metaSize]byte
	if n, _ := f.ReadAt(m[:], off+metaOffset); n < metaSize {
		return boltMeta{}, errors.New("cut short")
	}
	le := binary.LittleEndian
	if le.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, errors.New("not a bbolt meta page (bad magic)")
	}
	if v := le.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("bbolt format version %d, not %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != le.Uint64(m[56:]) {
		return boltMeta{}, errors.New("checksum mismatch")
	}
	return boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]), pages: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, nil
}

// precheck refuses what bbolt must not be given: an empty file, one that
// is no bbolt file, and one shorter than the data its meta page counts.
func (r *Report) precheck(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	r.Size = st.Size()
	if r.Size == 0 {
		r.problem("the file is empty (0 bytes)")
		return nil
	}
	// Meta page 0 gives the page size, and meta page 1 is one page later;
	// with page 0 damaged, bbolt tries the page sizes it may have used.
	m0, err0 := readMeta(f, 0)
	sizes := []int64{4096, 1024, 2048, 8192, 16384, 32768, 65536}
	if err0 == nil {
		sizes = []int64{int64(m0.pageSize)}
	}
	var m1 boltMeta
	err1 := errors.New("not found")
	for _, ps := range sizes {
		if m1, err1 = readMeta(f, ps); err1 == nil || err0 == nil {
			break
		}
	}
	m := m0 // bbolt uses the newer valid one
	switch {
	case err0 != nil && err1 != nil:
		if r.Size < 2*4096 {
			r.Truncated = true
			r.problem("the file is %d bytes: too short for a bbolt file (it needs two meta pages), so it was cut short or is not a store", r.Size)
			return nil
		}
		r.problem("both meta pages are damaged (page 0: %v; page 1: %v): this is not a readable bbolt file", err0, err1)
		return nil
	case err0 != nil:
		m = m1
		r.Notes = append(r.Notes, fmt.Sprintf("meta page 0 is damaged (%v); page 1 is valid and is used", err0))
	case err1 != nil:
		r.Notes = append(r.Notes, fmt.Sprintf("meta page 1 is damaged (%v); page 0 is valid and is used", err1))
	case m1.txid > m0.txid:
		m = m1
	}
	ps := int64(m.pageSize)
	if ps < 1024 || ps > 1<<16 || ps&(ps-1) != 0 {
		r.problem("the meta page gives a page size of %d bytes, which bbolt never writes", ps)
		return nil
	}
	r.PageSize, r.Pages, r.TxID = int(ps), m.pages, m.txid
	need := int64(m.pages) * ps
	switch {
	case m.pages < 2 || need/ps != int64(m.pages) || m.root < 2 || m.root >= m.pages || (m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pages)):
		r.problem("the meta page is inconsistent (root page %d, freelist page %d, %d pages)", m.root, m.freelist, m.pages)
	case need > r.Size || r.Size < 2*ps:
		r.Truncated = true
		r.problem("the file is %d bytes but its data runs to byte %d: it was cut short (an interrupted copy, a full disk?)", r.Size, max(need, 2*ps))
	default:
		// bbolt asserts, in Tx.Check's goroutine too, that the headers of
		// the meta pages and the freelist page name them and one type.
		for _, id := range []uint64{0, 1, m.freelist} {
			var h [16]byte
			if id == noFreelist {
				continue
			}
			f.ReadAt(h[:], int64(id)*ps)
			flags := binary.LittleEndian.Uint16(h[8:])
			switch {
			case binary.LittleEndian.Uint64(h[:]) != id || flags != 0x01 && flags != 0x02 && flags != 0x04 && flags != 0x10:
				r.problem("the header of page %d (a meta page or the freelist) is damaged", id)
			case id == m.freelist && flags != 0x10:
				r.problem("page %d should be the freelist but has flags %#x", id, flags)
			case id == m.freelist && id+uint64(binary.LittleEndian.Uint32(h[12:])) >= m.pages:
				r.problem("the freelist page %d runs past the end of the file's %d pages", id, m.pages)
			}
		}
	}
	if r.OK() {
		sh := &shape{r: r, f: f, ps: ps, seen: map[uint64]bool{}, budget: r.Size/16 + 1}
		sh.tree(m.root, 0)
		if sh.err != nil {
			return sh.err
		}
	}
	return nil
}

// shape walks the trees of the file as bbolt lays them out, reading what
// bbolt's cursors and its Tx.Check follow without checking: page ids and
// types, where a page's elements, keys and values lie, the pages a branch
// points to, the pages of buckets and inline buckets. bbolt would read
// outside its map for an element outside its page, or loop for ever on
// pages that point in a circle; Tx.Check does so in a goroutine of its
// own, where no recover reaches. What bbolt checks itself (each page
// referenced once, none both free and used, keys in order) is left to it.
type shape struct {
	r      *Report
	f      io.ReaderAt
	ps     int64
	seen   map[uint64]bool
	budget int64 // elements: a sound file holds at most one per 16 bytes
	err    error
}

// maxDepth bounds the walk: a sound bbolt tree of any size the disk can
// hold is a few levels deep, nested buckets add a few more.
const maxDepth = 64

const (
	branchPage = 0x01
	leafPage   = 0x02
	bucketLeaf = 0x01 // a leaf element that is a bucket
)

// tree checks the pages under page id.
func (s *shape) tree(id uint64, depth int) {
	if depth > maxDepth {
		s.r.problem("the tree under page %d is more than %d levels deep: pages point in a circle", id, maxDepth)
		return
	}
	if id < 2 || id >= s.r.Pages {
		s.r.problem("a page points to page %d, outside the file's %d pages", id, s.r.Pages)
		return
	}
	if s.seen[id] {
		s.r.problem("page %d is reached twice: pages point in a circle, or one was overwritten", id)
		return
	}
	s.seen[id] = true
	// The first page holds the elements of all but the fullest pages; the
	// values they point to are not read (but a bucket's header, in node).
	buf := make([]byte, s.ps)
	if _, err := s.f.ReadAt(buf, int64(id)*s.ps); err != nil {
		s.err = err
		return
	}
	le := binary.LittleEndian
	overflow := uint64(le.Uint32(buf[12:]))
	switch {
	case le.Uint64(buf) != id:
		s.r.problem("page %d carries the id %d: it was overwritten", id, le.Uint64(buf))
		return
	case id+overflow >= s.r.Pages:
		s.r.problem("page %d runs over %d more pages, past the file's %d pages", id, overflow, s.r.Pages)
		return
	}
	size := int(overflow+1) * int(s.ps)
	if n := 16 + 16*int(le.Uint16(buf[10:])); n > len(buf) && n <= size {
		buf = make([]byte, n)
		if _, err := s.f.ReadAt(buf, int64(id)*s.ps); err != nil {
			s.err = err
			return
		}
	}
	s.node(buf, size, id, depth)
}

// node checks the elements of a page of size bytes whose first bytes are
// buf (id 0 for an inline bucket's page).
func (s *shape) node(buf []byte, size int, id uint64, depth int) {
	le := binary.LittleEndian
	flags, count := le.Uint16(buf[8:]), int(le.Uint16(buf[10:]))
	if flags != branchPage && flags != leafPage {
		s.r.problem("page %d is not a branch or leaf page (flags %#x): it was overwritten", id, flags)
		return
	}
	if 16+16*count > size {
		s.r.problem("page %d has %d elements, which do not fit", id, count)
		return
	}
	if s.budget -= int64(count); s.budget < 0 {
		s.r.problem("page %d: more elements than the file has room for: elements overlap", id)
		return
	}
	for i := range count {
		e := 16 + 16*i
		if flags == branchPage {
			if !inside(size, e+int(le.Uint32(buf[e:])), int(le.Uint32(buf[e+4:]))) {
				s.r.problem("branch page %d: element %d points outside the page", id, i)
				return
			}
			s.tree(le.Uint64(buf[e+8:]), depth+1)
		} else {
			fl, pos, ksize, vsize := le.Uint32(buf[e:]), int(le.Uint32(buf[e+4:])), int(le.Uint32(buf[e+8:])), int(le.Uint32(buf[e+12:]))
			if !inside(size, e+pos, ksize) || !inside(size, e+pos+ksize, vsize) {
				s.r.problem("leaf page %d: element %d points outside the page", id, i)
				return
			}
			if fl&bucketLeaf == 0 {
				continue
			}
			if len(buf) < size && e+pos+ksize+vsize > len(buf) {
				buf = make([]byte, size) // the whole page, for the bucket's header
				if _, err := s.f.ReadAt(buf, int64(id)*s.ps); err != nil {
					s.err = err
					return
				}
			}
			s.bucket(buf[e+pos+ksize:e+pos+ksize+vsize], id, depth)
		}
		if !s.r.OK() || s.err != nil {
			return
		}
	}
}

// bucket checks the pages of the bucket whose header is val.
func (s *shape) bucket(val []byte, id uint64, depth int) {
	switch {
	case len(val) < 16:
		s.r.problem("leaf page %d: a bucket header of %d bytes, not 16", id, len(val))
	case binary.LittleEndian.Uint64(val) != 0:
		s.tree(binary.LittleEndian.Uint64(val), depth+1)
	case len(val) < 32:
		s.r.problem("leaf page %d: an inline bucket cut short", id)
	case depth >= maxDepth:
		s.r.problem("leaf page %d: inline buckets nest more than %d deep", id, maxDepth)
	default:
		s.node(val[16:], len(val)-16, 0, depth+1)
	}
}

// inside reports whether [off, off+n) lies inside [0, size).
func inside(size, off, n int) bool {
	return off >= 0 && n >= 0 && off <= size && n <= size-off
}

// walker reads every bucket and key of a file through bbolt's cursors
// (on a file whose shape was checked: no circle to follow).
type walker struct {
	r     *Report
	depth Depth
}

// bucket reads the keys under c, in the bucket named name ("" for the
// file's root), and the buckets nested in it.
func (w *walker) bucket(c *bolt.Cursor, name string) {
	var prev []byte
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			w.r.problem("bucket %s: key %s is not after key %s: a page is damaged", quoteKey([]byte(name)), quoteKey(k), quoteKey(prev))
			return
		}
		prev = k
		if v != nil {
			w.r.Keys++
			if w.depth > Pages {
				w.value(name, k, v)
			}
			continue
		}
		w.r.Buckets++
		sub := c.Bucket().Bucket(k)
		if sub == nil {
			w.r.problem("bucket %s: %s is marked a bucket but does not open as one", quoteKey([]byte(name)), quoteKey(k))
			continue
		}
		full := string(k)
		if name != "" {
			full = name + "/" + full
		}
		w.bucket(sub.Cursor(), full)
	}
}

// quoteKey shows a key for a message: text as text, the rest in hex, short.
func quoteKey(k []byte) string {
	printable := true
	for _, c := range k {
		if c < 0x20 || c > 0x7e {
			printable = false
			break
		}
	}
	if printable {
		s := string(k)
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	if len(k) > 20 {
		return fmt.Sprintf("0x%x…", k[:20])
	}
	return fmt.Sprintf("0x%x", k)
}

// quoteKVs shows keys and values in bbolt's check messages as quoteKey
// does: short, so that a damaged size does not make a huge message.
type quoteKVs struct{}

func (quoteKVs) KeyToString(k []byte) string   { return quoteKey(k) }
func (quoteKVs) ValueToString(v []byte) string { return quoteKey(v) }

// valueShapes says what the values of pbemd's buckets look like, as the
// code that writes them does (putJSON, u64). Buckets not listed (engine
// states, raw mail, meta) hold bytes of any shape.
var valueShapes = map[string]string{
	// What the daemon works from: small, and in proportion to the games
	// and mail in play. StartValues reads them.
	"games": "json", "tokens": "json",
	"mail-checkpoint": "json", "mail-failures": "json", "mail-ratelimit": "u64",
	"outbox": "json", "outbox-failed": "json", "outbox-due": "empty",
	"outbox-part-refs": "u64", "outbox-part-jobs": "json",
	"deadlines": "empty",
	"duekey":    "duekey", // the game's key in deadlines: unix(8) name

	// What grows with every phase and every mail, read when one record is
	// asked for (HISTORY, VERIFY, ROLLBACK, a due phase's orders, a
	// duplicate mail): most of a store's bytes. AllValues only.
	"history": "json", "orders": "json", "audit": "json", "press": "json",
	"codes": "json", "mail-processed": "json", "outbox-msgid": "json",
	"sent": "code", // a verification code: a short word of printable ASCII
}

// archive lists the buckets only AllValues reads.
var archive = map[string]bool{
	"history": true, "orders": true, "audit": true, "press": true,
	"codes": true, "mail-processed": true, "outbox-msgid": true, "sent": true,
}

func (w *walker) value(bucket string, key, val []byte) {
	if archive[bucket] && w.depth < AllValues {
		return
	}
	where := fmt.Sprintf("the value of %s in bucket %q", quoteKey(key), bucket)
	switch valueShapes[bucket] {
	case "json":
		if !json.Valid(val) {
			w.r.problem("%s does not decode (it was damaged)", where)
		}
	case "u64":
		if len(val) != 8 {
			w.r.problem("%s is %d bytes, not 8", where, len(val))
		}
	case "empty":
		if len(val) != 0 {
			w.r.problem("%s should be empty", where)
		}
	case "code":
		ok := len(val) > 0 && len(val) <= 64
		for _, c := range val {
			ok = ok && c > 0x20 && c < 0x7f
		}
		if !ok {
			w.r.problem("%s is not a verification code (it was damaged)", where)
		}
	case "duekey":
		if len(val) != 8+len(key) || !bytes.Equal(val[8:], key) {
			w.r.problem("the deadline index entry of %s does not name its game (it was damaged)", quoteKey(key))
		}
	}
}
