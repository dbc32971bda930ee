package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// How Open treats a file that is not a sound store:
//
//   - none there: a new store is built beside it and linked into place
//     whole, so pbemd never leaves an empty or half-made store behind;
//   - 0 bytes: refused (ErrEmpty). It is not a new install, since pbemd
//     never makes one; starting afresh on it would answer again every
//     mail still in the mailbox;
//   - damaged (shorter than its data, a meta page that does not read, a
//     page bbolt cannot read or its Tx.Check finds wrong, a value of the
//     daemon's buckets that does not decode): refused (ErrDamaged) by
//     the check of check.go, read-only, before the store is opened for
//     writing. What makes bbolt panic or fault on a page is recovered
//     into the same error.
//
// The messages name the file and the way back: the newest backup.

// ErrDamaged is returned (wrapped in a *DamagedError) for a store that is
// not sound.
var ErrDamaged = errors.New("store is damaged")

// ErrEmpty is returned (wrapped in a *DamagedError) for a store file of 0
// bytes.
var ErrEmpty = errors.New("store file is empty")

// ErrInUse is returned when another process holds the store.
var ErrInUse = errors.New("store is in use by another process")

// lockTimeout is how long Open waits for another process to let go.
var lockTimeout = 5 * time.Second

// DamagedError says what is wrong with a store file and how to get back.
type DamagedError struct {
	Path   string
	Empty  bool
	Report *Report // what the check found; nil when bbolt failed instead
	Cause  string  // bbolt's own complaint, when it failed on open
}

func (e *DamagedError) Is(target error) bool {
	return target == ErrDamaged || (e.Empty && target == ErrEmpty)
}

func (e *DamagedError) Error() string {
	var b strings.Builder
	switch {
	case e.Empty:
		fmt.Fprintf(&b, "store %s exists but is empty (0 bytes). It is not a new install: pbemd never leaves an empty store (it builds a new one beside it and moves it into place whole), so the file was cut off or overwritten. pbemd does not start afresh on it, since it would then answer again every mail still in the mailbox.\n", e.Path)
	case e.Report != nil:
		fmt.Fprintf(&b, "store %s is damaged: %s", e.Path, strings.Join(e.Report.Problems, "; "))
		if e.Report.More > 0 {
			fmt.Fprintf(&b, "; and %d more", e.Report.More)
		}
		b.WriteString(".\npbemd does not run on a damaged store: it would misread or lose games.\n")
	default:
		fmt.Fprintf(&b, "store %s is damaged: bbolt cannot open it (%s).\npbemd does not run on a damaged store: it would misread or lose games.\n", e.Path, e.Cause)
	}
	b.WriteString(RestoreHint(e.Path))
	if e.Empty {
		fmt.Fprintf(&b, "\nIf this really is a new install that never ran, delete %s and start again.", e.Path)
	}
	return b.String()
}

// RestoreHint says how to put a backup in the place of the store at path.
func RestoreHint(path string) string {
	return fmt.Sprintf(`The way back is your newest backup (a copy made by "pbemd backup FILE"):
  pbemd check BACKUP                 (is the copy sound?)
  mv %[1]s %[1]s.damaged
  cp BACKUP %[1]s && chmod 600 %[1]s
then start pbemd again. The key file beside the store, %[2]s, stays where it is: a
backup opens only with the key of the store it was copied from (the key never
changes; if it is lost too, put back the copy you keep apart from your backups).
Mail that came after the backup and is still in the inbox is read again, so orders
sent since are applied again; deadlines that fell since are processed again and
their results mailed again. With no backup the games cannot be
had back: moving the file aside makes pbemd start afresh with an empty store, which
answers again every mail still in the mailbox.
"pbemd check %[1]s" lists everything that is wrong.`, path, KeyPath(path))
}

// Open opens (creating if needed, mode 0600) the store at path, checks it
// (see the top of this file), creates its buckets and upgrades its schema.
func Open(path string) (*DB, error) {
	if err := createStore(path); err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		db, replaced, err := open(path)
		if !replaced {
			return db, err
		}
		if try == 3 {
			return nil, fmt.Errorf("open store %s: %w (the file was replaced again and again while pbemd waited for it)", path, ErrInUse)
		}
	}
}

// open is Open on the file at path. replaced is set when the file bbolt
// locked is no longer the one of that name (another pbemd's rewriteFile
// put a new one in its place while this one waited for its lock): the
// lock is on the file, not the name, so Open tries again.
func open(path string) (db *DB, replaced bool, err error) {
	inUse := func() error {
		return fmt.Errorf("open store %s: %w (is pbemd already running? a running daemon holds its store)", path, ErrInUse)
	}
	rep, err := checkFile(path, StartValues, lockTimeout)
	if errors.Is(err, ErrInUse) {
		return nil, false, inUse()
	}
	if err != nil {
		return nil, false, fmt.Errorf("check store %s: %w", path, err)
	}
	if !rep.OK() {
		return nil, false, &DamagedError{Path: path, Empty: rep.Size == 0, Report: rep}
	}
	var held os.FileInfo
	b, err := openBolt(path, bolt.Options{Timeout: lockTimeout}, func(f *os.File) { held, _ = f.Stat() })
	if named, serr := os.Stat(path); held != nil && serr == nil && !os.SameFile(held, named) {
		if err == nil {
			b.Close()
		}
		return nil, true, nil
	}
	var de *DamagedError
	switch {
	case errors.Is(err, ErrInUse):
		return nil, false, inUse()
	case errors.As(err, &de):
		return nil, false, err
	case err != nil:
		return nil, false, fmt.Errorf("open store %s: %w", path, err)
	}
	if held != nil && held.Mode().Perm()&0o077 != 0 {
		// Written by an older pbemd or copied in by hand: the store holds
		// credentials, it is the owner's alone.
		if err := os.Chmod(path, 0o600); err != nil {
			b.Close()
			return nil, false, fmt.Errorf("open store %s: make it private (mode 0600): %w", path, err)
		}
	}
	db = &DB{bolt: b, path: path}
	if err := db.loadKey(); err != nil {
		b.Close()
		return nil, false, err
	}
	if err := recovered(path, func() error { return db.bolt.Update(db.prepare) }); err != nil {
		b.Close()
		if errors.As(err, &de) {
			return nil, false, err
		}
		return nil, false, fmt.Errorf("prepare store %s: %w", path, err)
	}
	if db.rewrite {
		if err := db.rewriteFile(); err != nil {
			db.bolt.Close()
			return nil, false, fmt.Errorf("rewrite store %s after its upgrade: %w", path, err)
		}
	}
	return db, false, nil
}

// rewriteFile replaces the store's file by a copy of its data without its
// free pages, and overwrites the old file before letting it go. An
// upgrade that sealed secrets calls for it: bbolt does not clear the pages
// it frees, so the old file still holds the secrets in the clear. The copy
// is made under a temporary name by a bbolt that holds its lock from the
// start, so no other pbemd opens either file meanwhile (one that waited
// for the old file finds it replaced, and opens the new one: open).
// (On a file system that writes elsewhere rather than in place,
// copy-on-write or some SSDs, the device may keep old blocks for a
// while; no program can clear those.)
func (db *DB) rewriteFile() error {
	tmp, err := os.CreateTemp(filepath.Dir(db.path), "."+filepath.Base(db.path)+".rewrite-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name) // after a failure; after the rename nothing has that name
	os.Remove(name)       // bbolt makes it, mode 0600
	dst, err := bolt.Open(name, 0o600, &bolt.Options{Timeout: lockTimeout})
	if err != nil {
		return err
	}
	err = bolt.Compact(dst, db.bolt, 0)
	if err == nil {
		err = dst.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(metaRewrite) })
	}
	var old *os.File
	if err == nil {
		old, err = os.OpenFile(db.path, os.O_RDWR, 0)
	}
	if err == nil {
		defer old.Close()
		err = os.Rename(name, db.path)
	}
	if err != nil {
		dst.Close()
		return err
	}
	syncDir(filepath.Dir(db.path))
	// The new file is the store now; the old one is let go and cleared.
	db.bolt.Close()
	db.bolt = dst
	clearFile(old)
	return nil
}

// clearFile overwrites a file's bytes with zeros, best effort: the file
// is no longer the store, so a failure here loses nothing.
func clearFile(f *os.File) {
	st, err := f.Stat()
	if err != nil {
		return
	}
	zeros := make([]byte, 1<<20)
	for off := int64(0); off < st.Size(); off += int64(len(zeros)) {
		n := min(int64(len(zeros)), st.Size()-off)
		if _, err := f.WriteAt(zeros[:n], off); err != nil {
			return
		}
	}
	f.Sync()
}

// openBolt opens the bbolt file at path with opt, never creating it (a
// new store is made whole by createStore), and calls opened, when not
// nil, with the file bbolt opened. bbolt locks the file (flock, waiting
// at most opt.Timeout): ErrInUse when another process holds it. A panic
// or a memory fault of bbolt on a damaged page comes out as a
// *DamagedError, and the file is closed then too.
func openBolt(path string, opt bolt.Options, opened func(*os.File)) (b *bolt.DB, err error) {
	var file *os.File
	opt.OpenFile = func(name string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag&^os.O_CREATE, mode)
		if err == nil {
			file = f
			if opened != nil {
				opened(f)
			}
		}
		return f, err
	}
	err = recovered(path, func() error {
		var err error
		b, err = bolt.Open(path, 0o600, &opt)
		return err
	})
	var de *DamagedError
	switch {
	case errors.As(err, &de):
		if file != nil {
			file.Close() // bbolt closes it on an error, not on a panic
		}
	case errors.Is(err, berrors.ErrTimeout):
		err = ErrInUse
	}
	return b, err
}

// recovered runs fn and turns a panic or a memory fault in it (bbolt on a
// page the check could not see was bad) into a *DamagedError.
func recovered(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = &DamagedError{Path: path, Cause: fmt.Sprint(p)}
		}
	}()
	return fn()
}

// createStore builds a new store when there is none at path: made and
// synced under a temporary name, then linked to path, so no crash ever
// leaves an empty or half-made file with the store's name.
func createStore(path string) error {
	if _, err := os.Lstat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return nil // there is something: Open looks at it
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name)
	os.Remove(name) // bbolt initialises a missing or empty file; let it create it 0600
	b, err := bolt.Open(name, 0o600, &bolt.Options{Timeout: lockTimeout})
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	db := &DB{bolt: b, path: path}
	err = b.Update(db.prepare)
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("create store %s: %w", path, err)
	}
	if err := os.Link(name, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil // another process made it first: Open looks at that one
		}
		// No hard links here (some network and FAT file systems).
		if err := os.Rename(name, path); err != nil {
			return fmt.Errorf("create store %s: %w", path, err)
		}
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the new name survives a crash
		d.Close()
	}
	return nil
}
