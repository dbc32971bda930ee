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
	"runtime/debug"
	"sort"
	"strings"
)

// This file checks a bbolt file without bbolt. bbolt trusts its file: a
// truncated one makes it read past the end of its memory map (a fault no
// recover can catch), and a damaged page makes it index out of range, in
// tx.Check too (which runs in a goroutine of its own). The verifier reads
// the file with ReadAt into bounds-checked slices instead, so it can only
// return findings, and Open runs it before bbolt sees the file.
//
// What it proves: both meta pages are read and one is valid (magic,
// version, checksum); the file is as long as the newest meta says; every
// page reachable from the root is a branch or leaf page inside the file,
// referenced once, not free, with its elements, keys and values inside the
// page; keys are strictly ordered within each page and within the range
// the parent gives; every page below the high-water mark is in use, free
// or the freelist. With Values, the values of pbemd's own buckets have the
// shape their code writes (JSON decodes, counters are 8 bytes).
//
// What it cannot prove: bbolt keeps no checksum of data pages, so damage
// that turns a value into another well-formed value (a letter for a
// letter inside a JSON string) is invisible to any check of the file.
// The backup is the defence against that.

// The bbolt file format (version 2), as bbolt writes it on a little-endian
// machine: a page is a 16-byte header (id u64, flags u16, count u16,
// overflow u32) and its data; a meta page holds magic, version, page size,
// flags, the root bucket (root page u64, sequence u64), the freelist page,
// the high-water mark, the transaction id and an FNV-64a checksum of the
// fields before it.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	elementSize    = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	metaSize       = 64
	bucketHeader   = 16 // root pgid u64, sequence u64; an inline page follows when root is 0

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10
	bucketLeaf   = 0x01

	noFreelist = ^uint64(0)
)

// maxProblems caps the findings a report lists; the rest are counted.
const maxProblems = 20

// maxDepth bounds the tree walk: a sound bbolt tree of any size the disk
// can hold is a few levels deep, nested buckets add a few more.
const maxDepth = 64

// le is the byte order of bbolt files written on amd64 and arm64 (bbolt
// writes native order; files do not move between byte orders).
var le = binary.LittleEndian

// Report is what a check of one file found.
type Report struct {
	Path     string
	Size     int64  // bytes on disk
	PageSize int    // 0 when no meta page could be read
	Pages    uint64 // the high-water mark: pages in use or free
	TxID     uint64 // the transaction the newest valid meta page records
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
	// server's too): meta pages, length, every page of the tree, the
	// freelist.
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

// VerifyOptions say how deep a check goes.
type VerifyOptions struct {
	Depth Depth
}

// VerifyFile checks the bbolt file at path (see the top of verify.go for
// what is checked). It returns an error only when the file cannot be read;
// damage is in the report.
func VerifyFile(path string, opt VerifyOptions) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return verify(f, path, opt)
}

func verify(f *os.File, path string, opt VerifyOptions) (r *Report, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r = &Report{Path: path, Size: st.Size()}
	v := &verifier{r: r, f: f, size: st.Size(), depth: opt.Depth, budget: st.Size()/elementSize + 1}
	if v.size > 0 {
		data, unmap, err := mapFile(f, v.size)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		defer unmap()
		v.data = data
	}
	// A mapped file that shrinks under the check, or a disk that fails a
	// read, faults; the fault becomes a panic here and an error out.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("read %s: the file could not be read to its end (%v): a disk error, or it changed while it was read", path, p)
		}
	}()
	if err := v.run(); err != nil {
		return nil, err
	}
	return r, nil
}

type verifier struct {
	r     *Report
	f     io.ReaderAt
	data  []byte // the file, mapped (nil where mapping is not available: read with f)
	size  int64
	depth Depth
	ps    int    // page size
	hwm   uint64 // high-water mark
	used  []uint8
	ioErr error
	// budget bounds the elements read: a sound file holds at most one per
	// 16 bytes. Overlapping elements in crafted inline buckets would
	// otherwise make the walk exponential.
	budget int64
}

// Page states in verifier.used.
const (
	pageUnseen uint8 = iota
	pageInUse
	pageFree
)

type boltMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	pgid     uint64
	txid     uint64
}

// readMeta parses the meta page whose bytes start at buf (the page
// header included) and says why it is not valid. Like bbolt it looks at
// the meta fields only, not the page header: the meta it picks must be the
// one bbolt will use.
func readMeta(buf []byte) (boltMeta, error) {
	if len(buf) < pageHeaderSize+metaSize {
		return boltMeta{}, errors.New("cut short")
	}
	m := buf[pageHeaderSize : pageHeaderSize+metaSize]
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
	return boltMeta{
		pageSize: le.Uint32(m[8:]),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		pgid:     le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, nil
}

// readAt returns the n bytes at off, fewer at the end of the file.
func (v *verifier) readAt(off int64, n int) ([]byte, error) {
	if v.data != nil {
		if off >= int64(len(v.data)) {
			return nil, nil
		}
		end := off + int64(n)
		if end > int64(len(v.data)) {
			end = int64(len(v.data))
		}
		return v.data[off:end:end], nil
	}
	buf := make([]byte, n)
	got, err := v.f.ReadAt(buf, off)
	if got == n {
		return buf, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return buf[:got], nil
	}
	return buf[:got], err
}

func (v *verifier) run() error {
	r := v.r
	if v.size == 0 {
		r.problem("the file is empty (0 bytes)")
		return nil
	}
	// Meta page 0 says the page size; meta page 1 sits one page later.
	// When page 0 is damaged, try the page sizes bbolt may have used.
	head, err := v.readAt(0, pageHeaderSize+metaSize)
	if err != nil {
		return fmt.Errorf("read %s: %w", r.Path, err)
	}
	m0, err0 := readMeta(head)
	sizes := []int{4096, 1024, 2048, 8192, 16384, 32768, 65536}
	if err0 == nil {
		sizes = []int{int(m0.pageSize)}
	}
	var m1 boltMeta
	err1 := errors.New("not found")
	for _, ps := range sizes {
		buf, err := v.readAt(int64(ps), pageHeaderSize+metaSize)
		if err != nil {
			return fmt.Errorf("read %s: %w", r.Path, err)
		}
		if m, err := readMeta(buf); err == nil || err0 == nil {
			m1, err1 = m, err
			break
		}
	}
	var m boltMeta
	switch {
	case err0 != nil && err1 != nil:
		if v.size < 2*4096 {
			r.problem("the file is %d bytes: too short for a bbolt file (it needs two meta pages), so it was cut short or is not a store", v.size)
			r.Truncated = v.size < 4*4096
			return nil
		}
		r.problem("both meta pages are damaged (page 0: %v; page 1: %v): this is not a readable bbolt file", err0, err1)
		return nil
	case err0 != nil:
		m = m1
		r.Notes = append(r.Notes, fmt.Sprintf("meta page 0 is damaged (%v); page 1 is valid and is used", err0))
	case err1 != nil:
		m = m0
		r.Notes = append(r.Notes, fmt.Sprintf("meta page 1 is damaged (%v); page 0 is valid and is used", err1))
	default:
		// bbolt uses the newer one.
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	}
	ps := int(m.pageSize)
	if ps < 1024 || ps > 1<<16 || ps&(ps-1) != 0 {
		r.problem("the meta page gives a page size of %d bytes, which bbolt never writes", ps)
		return nil
	}
	// bbolt reads the meta fields without looking at the page header, but
	// its own check asserts both headers (and panics on a bad one).
	for id := range uint64(2) {
		h, err := v.readAt(int64(id)*int64(ps), pageHeaderSize)
		if err != nil {
			return fmt.Errorf("read %s: %w", r.Path, err)
		}
		if len(h) < pageHeaderSize || le.Uint64(h) != id || !knownPageType(le.Uint16(h[8:])) {
			r.problem("the header of meta page %d is damaged", id)
		}
	}
	v.ps, v.hwm = ps, m.pgid
	r.PageSize, r.Pages, r.TxID = ps, m.pgid, m.txid
	if m.pgid < 2 || m.root < 2 || m.root >= m.pgid || (m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid)) {
		r.problem("the meta page is inconsistent (root page %d, freelist page %d, %d pages)", m.root, m.freelist, m.pgid)
		return nil
	}
	if need := int64(m.pgid) * int64(ps); need > v.size || need/int64(ps) != int64(m.pgid) {
		r.Truncated = true
		r.problem("the file is %d bytes but its data runs to byte %d: it was cut short (an interrupted copy, a full disk?)", v.size, need)
		return nil
	}
	v.used = make([]uint8, m.pgid)
	v.used[0], v.used[1] = pageInUse, pageInUse

	free := v.freelist(m.freelist)
	v.tree(m.root, nil, nil, "", 0)
	if v.ioErr != nil {
		return fmt.Errorf("read %s: %w", r.Path, v.ioErr)
	}
	for _, id := range free {
		if v.used[id] == pageInUse {
			r.problem("page %d is both free and in use", id)
		}
	}
	for _, id := range free {
		v.used[id] = pageFree
	}
	r.Free = len(free)
	if m.freelist == noFreelist {
		r.Notes = append(r.Notes, "the file keeps no freelist; unused pages were not checked")
		return nil
	}
	lost := 0
	first := uint64(0)
	for id, u := range v.used {
		if u == pageUnseen {
			if lost == 0 {
				first = uint64(id)
			}
			lost++
		}
	}
	if lost > 0 {
		r.problem("%d page(s) are neither in use nor free (the first: page %d): a page that pointed to them is damaged", lost, first)
	}
	return nil
}

// page reads the page id and its overflow pages and marks them in use.
// It returns nil (after recording why) when the page cannot be used.
func (v *verifier) page(id uint64, what string) []byte {
	r := v.r
	if id < 2 || id >= v.hwm {
		r.problem("%s points to page %d, outside the file's %d pages", what, id, v.hwm)
		return nil
	}
	head, err := v.readAt(int64(id)*int64(v.ps), pageHeaderSize)
	if err != nil {
		v.ioErr = err
		return nil
	}
	if len(head) < pageHeaderSize {
		r.problem("page %d is cut short", id)
		return nil
	}
	if got := le.Uint64(head); got != id {
		r.problem("page %d (%s) carries the id %d: it was overwritten", id, what, got)
		return nil
	}
	overflow := uint64(le.Uint32(head[12:]))
	if id+overflow >= v.hwm {
		r.problem("page %d runs over %d more pages, past the file's %d pages", id, overflow, v.hwm)
		return nil
	}
	for i := id; i <= id+overflow; i++ {
		if v.used[i] == pageInUse {
			r.problem("page %d is used twice (again by %s)", i, what)
			return nil
		}
	}
	for i := id; i <= id+overflow; i++ {
		v.used[i] = pageInUse
	}
	buf, err := v.readAt(int64(id)*int64(v.ps), int(overflow+1)*v.ps)
	if err != nil {
		v.ioErr = err
		return nil
	}
	return buf
}

// freelist reads the free page ids and checks them.
func (v *verifier) freelist(id uint64) []uint64 {
	if id == noFreelist {
		return nil
	}
	r := v.r
	buf := v.page(id, "the freelist")
	if buf == nil {
		return nil
	}
	if flags := le.Uint16(buf[8:]); flags != freelistPage {
		r.problem("page %d should be the freelist but has flags %#x", id, flags)
		return nil
	}
	data := buf[pageHeaderSize:]
	count := uint64(le.Uint16(buf[10:]))
	if count == 0xFFFF {
		if len(data) < 8 {
			r.problem("the freelist page %d is cut short", id)
			return nil
		}
		count, data = le.Uint64(data), data[8:]
	}
	if count > uint64(len(data)/8) {
		r.problem("the freelist page %d lists %d pages but has room for %d", id, count, len(data)/8)
		return nil
	}
	ids := make([]uint64, count)
	for i := range ids {
		ids[i] = le.Uint64(data[8*i:])
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := ids[:0]
	for i, p := range ids {
		switch {
		case p < 2 || p >= v.hwm:
			r.problem("the freelist lists page %d, outside the file's %d pages", p, v.hwm)
		case i > 0 && ids[i-1] == p:
			r.problem("the freelist lists page %d twice", p)
		default:
			out = append(out, p)
		}
	}
	return out
}

// tree checks the b-tree rooted at page id: every key in [lo, hi) (nil:
// unbounded). bucket names the bucket it belongs to ("" for the root).
func (v *verifier) tree(id uint64, lo, hi []byte, bucket string, depth int) {
	r := v.r
	if depth > maxDepth {
		r.problem("the tree under page %d is more than %d levels deep: pages point in a circle", id, maxDepth)
		return
	}
	what := "the root"
	if bucket != "" {
		what = "bucket " + quoteKey([]byte(bucket))
	}
	buf := v.page(id, what)
	if buf == nil {
		return
	}
	switch flags := le.Uint16(buf[8:]); flags {
	case branchPage:
		count := int(le.Uint16(buf[10:]))
		if count == 0 || pageHeaderSize+count*elementSize > len(buf) {
			r.problem("branch page %d of %s has %d elements, which do not fit", id, what, count)
			return
		}
		keys := make([][]byte, count)
		children := make([]uint64, count)
		for i := range count {
			e := pageHeaderSize + i*elementSize
			pos, ksize := int(le.Uint32(buf[e:])), int(le.Uint32(buf[e+4:]))
			k, ok := span(buf, e+pos, ksize)
			if !ok {
				r.problem("branch page %d of %s: element %d points outside the page", id, what, i)
				return
			}
			keys[i], children[i] = k, le.Uint64(buf[e+8:])
		}
		if !v.ordered(keys, lo, hi, "branch page "+fmt.Sprint(id)+" of "+what) {
			return
		}
		for i, child := range children {
			next := hi
			if i+1 < count {
				next = keys[i+1]
			}
			v.tree(child, keys[i], next, bucket, depth+1)
			if v.ioErr != nil {
				return
			}
		}
	case leafPage:
		v.leaf(buf, id, lo, hi, bucket, what, depth)
	default:
		r.problem("page %d of %s is not a branch or leaf page (flags %#x): it was overwritten", id, what, flags)
	}
}

// leaf checks a leaf page (buf, whose id is 0 for an inline page).
func (v *verifier) leaf(buf []byte, id uint64, lo, hi []byte, bucket, what string, depth int) {
	r := v.r
	where := fmt.Sprintf("leaf page %d of %s", id, what)
	if id == 0 {
		where = "the inline page of " + what
	}
	count := int(le.Uint16(buf[10:]))
	if pageHeaderSize+count*elementSize > len(buf) {
		r.problem("%s has %d elements, which do not fit", where, count)
		return
	}
	if v.budget -= int64(count); v.budget < 0 {
		r.problem("%s: more elements than the file has room for: elements overlap", where)
		return
	}
	keys := make([][]byte, count)
	vals := make([][]byte, count)
	flags := make([]uint32, count)
	for i := range count {
		e := pageHeaderSize + i*elementSize
		fl, pos := le.Uint32(buf[e:]), int(le.Uint32(buf[e+4:]))
		ksize, vsize := int(le.Uint32(buf[e+8:])), int(le.Uint32(buf[e+12:]))
		kv, ok := span(buf, e+pos, ksize+vsize)
		if !ok || ksize+vsize < 0 {
			r.problem("%s: element %d points outside the page", where, i)
			return
		}
		if fl&^bucketLeaf != 0 {
			r.problem("%s: element %d has unknown flags %#x", where, i, fl)
			return
		}
		keys[i], vals[i], flags[i] = kv[:ksize], kv[ksize:], fl
	}
	if !v.ordered(keys, lo, hi, where) {
		return
	}
	for i := range count {
		if flags[i]&bucketLeaf == 0 {
			r.Keys++
			if v.depth > Pages {
				v.value(bucket, keys[i], vals[i], where)
			}
			continue
		}
		r.Buckets++
		name := string(keys[i])
		if bucket != "" {
			name = bucket + "/" + name
		}
		val := vals[i]
		if len(val) < bucketHeader {
			r.problem("%s: bucket %s has a header of %d bytes, not %d", where, quoteKey(keys[i]), len(val), bucketHeader)
			continue
		}
		if root := le.Uint64(val); root != 0 {
			v.tree(root, nil, nil, name, depth+1)
		} else if in := val[bucketHeader:]; len(in) < pageHeaderSize || le.Uint16(in[8:]) != leafPage {
			r.problem("%s: the inline bucket %s is damaged", where, quoteKey(keys[i]))
		} else {
			v.leaf(in, 0, nil, nil, name, "bucket "+quoteKey([]byte(name)), depth+1)
		}
		if v.ioErr != nil {
			return
		}
	}
}

// ordered checks that keys are strictly ascending and within [lo, hi).
func (v *verifier) ordered(keys [][]byte, lo, hi []byte, where string) bool {
	for i, k := range keys {
		switch {
		case i > 0 && bytes.Compare(keys[i-1], k) >= 0:
			v.r.problem("%s: key %d (%s) is not after key %d (%s): the page is damaged", where, i, quoteKey(k), i-1, quoteKey(keys[i-1]))
			return false
		case lo != nil && bytes.Compare(k, lo) < 0, hi != nil && bytes.Compare(k, hi) >= 0:
			v.r.problem("%s: key %s lies outside the range its parent page gives it: a page is damaged", where, quoteKey(k))
			return false
		}
	}
	return true
}

// knownPageType reports whether flags is one page type, as bbolt demands
// of every page it reads.
func knownPageType(flags uint16) bool {
	switch flags {
	case branchPage, leafPage, metaPage, freelistPage:
		return true
	}
	return false
}

// span returns buf[off:off+n] when it lies inside buf.
func span(buf []byte, off, n int) ([]byte, bool) {
	if off < 0 || n < 0 || off > len(buf) || n > len(buf)-off {
		return nil, false
	}
	return buf[off : off+n], true
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
	// duplicate mail): nine tenths of a store's bytes. AllValues only.
	"history": "json", "orders": "json", "audit": "json", "press": "json",
	"codes": "json", "mail-processed": "json", "outbox-msgid": "json",
	"sent": "code", // a verification code: a short word of printable ASCII
}

// archive lists the buckets only AllValues reads.
var archive = map[string]bool{
	"history": true, "orders": true, "audit": true, "press": true,
	"codes": true, "mail-processed": true, "outbox-msgid": true, "sent": true,
}

func (v *verifier) value(bucket string, key, val []byte, where string) {
	if archive[bucket] && v.depth < AllValues {
		return
	}
	switch valueShapes[bucket] {
	case "json":
		if !json.Valid(val) {
			v.r.problem("%s: the value of %s in bucket %q does not decode (it was damaged)", where, quoteKey(key), bucket)
		}
	case "u64":
		if len(val) != 8 {
			v.r.problem("%s: the value of %s in bucket %q is %d bytes, not 8", where, quoteKey(key), bucket, len(val))
		}
	case "empty":
		if len(val) != 0 {
			v.r.problem("%s: the value of %s in bucket %q should be empty", where, quoteKey(key), bucket)
		}
	case "code":
		ok := len(val) > 0 && len(val) <= 64
		for _, c := range val {
			ok = ok && c > 0x20 && c < 0x7f
		}
		if !ok {
			v.r.problem("%s: the value of %s in bucket %q is not a verification code (it was damaged)", where, quoteKey(key), bucket)
		}
	case "duekey":
		if len(val) != 8+len(key) || !bytes.Equal(val[8:], key) {
			v.r.problem("%s: the deadline index entry of %s does not name its game (it was damaged)", where, quoteKey(key))
		}
	}
}
