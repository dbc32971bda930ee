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
)

// How Open treats a file that is not a sound store:
//
//   - none there: a new store is built beside it and linked into place
//     whole, so pbemd never leaves an empty or half-made store behind;
//   - 0 bytes: refused (ErrEmpty). It is not a new install, since pbemd
//     never makes one; starting afresh on it would answer again every
//     mail still in the mailbox;
//   - damaged (shorter than its data, a meta page or tree page that does
//     not read): refused (ErrDamaged) before bbolt sees it. bbolt trusts
//     its file: on a truncated one it reads past the end of its memory
//     map, a fault no recover catches. What slips past the check and
//     makes bbolt panic on open is recovered into the same error.
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
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&0o077 != 0 {
		// Written by an older pbemd or copied in by hand: the store holds
		// credentials, it is the owner's alone.
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("open store %s: make it private (mode 0600): %w", path, err)
		}
	}
	rep, err := verify(f, path, VerifyOptions{Depth: StartValues})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("check store %s: %w", path, err)
	}
	if !rep.OK() {
		f.Close()
		return nil, &DamagedError{Path: path, Empty: rep.Size == 0, Report: rep}
	}
	b, err := openBolt(f, path)
	if err != nil {
		return nil, err
	}
	db := &DB{bolt: b, path: path}
	if err := db.loadKey(); err != nil {
		b.Close()
		return nil, err
	}
	if err := recovered(path, func() error { return db.bolt.Update(db.prepare) }); err != nil {
		b.Close()
		var de *DamagedError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, fmt.Errorf("prepare store %s: %w", path, err)
	}
	if db.rewrite {
		if err := db.rewriteFile(); err != nil {
			db.bolt.Close()
			return nil, fmt.Errorf("rewrite store %s after its upgrade: %w", path, err)
		}
	}
	return db, nil
}

// openLocked opens the store file and takes its lock. A file that was
// put in the place of the one it waited for (rewriteFile) is opened
// again: the lock is on the file, not the name.
func openLocked(path string) (*os.File, error) {
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		if err := lockFile(f, lockTimeout); err != nil {
			f.Close()
			return nil, fmt.Errorf("open store %s: %w (is pbemd already running? a running daemon holds its store)", path, err)
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || os.SameFile(held, named) {
			return f, nil
		}
		f.Close()
		if try == 3 {
			return nil, fmt.Errorf("open store %s: %w (the file was replaced again and again while pbemd waited for it)", path, ErrInUse)
		}
	}
}

// rewriteFile replaces the store's file by a copy of its data without its
// free pages, and overwrites the old file before letting it go. An
// upgrade that sealed secrets calls for it: bbolt does not clear the pages
// it frees, so the old file still holds the secrets in the clear. The copy
// is made under a temporary name and locked before it takes the store's
// name, so no other pbemd opens either file meanwhile. (On a file system
// that writes elsewhere rather than in place, copy-on-write or some
// SSDs, the device may keep old blocks for a while; no program can clear
// those.)
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
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := lockFile(f, lockTimeout); err != nil {
		f.Close()
		return err
	}
	old, err := os.OpenFile(db.path, os.O_RDWR, 0)
	if err != nil {
		f.Close()
		return err
	}
	defer old.Close()
	if err := os.Rename(name, db.path); err != nil {
		f.Close()
		return err
	}
	syncDir(filepath.Dir(db.path))
	// The new file is the store now; the old one is let go and cleared.
	db.bolt.Close()
	b, err := openBolt(f, db.path)
	if err != nil {
		return err
	}
	db.bolt = b
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

// openBolt hands the open, locked, checked file f to bbolt.
func openBolt(f *os.File, path string) (b *bolt.DB, err error) {
	err = recovered(path, func() error {
		var err error
		b, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout: lockTimeout,
			// bbolt locks the file again; it is the same open file, so
			// the lock Open holds passes on to it.
			OpenFile: func(string, int, os.FileMode) (*os.File, error) { return f, nil },
		})
		return err
	})
	if err != nil {
		f.Close() // bbolt closes it on an error, not on a panic
		var de *DamagedError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return b, nil
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

// CheckFile is what "pbemd check" runs on one file: VerifyFile to depth
// under a shared lock (no daemon writes the file meanwhile; ErrInUse when
// one holds it), then, when the file is sound, bbolt's own tx.Check as a
// second opinion (safe once the verifier has passed the file).
func CheckFile(path string, depth Depth) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := lockShared(f, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := verify(f, path, VerifyOptions{Depth: depth})
	if err != nil || !r.OK() {
		return r, err
	}
	err = recovered(path, func() error {
		b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: lockTimeout})
		if err != nil {
			return err
		}
		defer b.Close()
		return b.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				r.problem("bbolt's own check: %v", err)
			}
			return nil
		})
	})
	var de *DamagedError
	switch {
	case errors.As(err, &de):
		r.problem("bbolt fails on it: %s", de.Cause)
	case err != nil:
		r.problem("bbolt cannot open it: %v", err)
	}
	return r, nil
}
