package store_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbemd/store"
)

// refused checks that Open refuses the store at path with a message that
// names the file and the way back, and leaves the file as it was.
func refused(t *testing.T, path string, want error, says ...string) {
	t.Helper()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path)
	if err == nil {
		db.Close()
		t.Fatalf("a damaged store opened")
	}
	if !errors.Is(err, want) {
		t.Errorf("error is not %v: %v", want, err)
	}
	msg := err.Error()
	for _, s := range append([]string{path, "pbemd backup", "pbemd check", "mv " + path + " " + path + ".damaged"}, says...) {
		if !strings.Contains(msg, s) {
			t.Errorf("the message does not say %q:\n%s", s, msg)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("Open changed the damaged file (%d bytes before, %d after)", len(before), len(after))
	}
}

// dataEnd is where the data of the store at path ends: pages in use or
// free (the high-water mark). Past it the file is room to grow.
func dataEnd(t *testing.T, path string) (end int64, pageSize int) {
	t.Helper()
	r, err := store.CheckFile(path, store.AllValues)
	if err != nil || !r.OK() {
		t.Fatalf("the undamaged store does not verify: %v %v", err, r)
	}
	return int64(r.Pages) * int64(r.PageSize), r.PageSize
}

// A store cut short anywhere inside its data is refused with a message,
// never opened and never a panic (bbolt would read past the end of its
// memory map: a fault that kills the process).
func TestOpenRefusesTruncatedStore(t *testing.T) {
	src := realStore(t)
	end, ps := dataEnd(t, src)
	raw, _ := os.ReadFile(src)
	for _, size := range []int64{100, int64(ps), 2*int64(ps) + 1, end / 2, end/2 + 123, end - int64(ps), end - 1} {
		path := filepath.Join(t.TempDir(), "pbemd.db")
		if err := os.WriteFile(path, raw[:size], 0o600); err != nil {
			t.Fatal(err)
		}
		refused(t, path, store.ErrDamaged, "cut short")
	}
	// Cut only in the room to grow past its data: nothing is lost, it
	// opens and keeps working.
	path := filepath.Join(t.TempDir(), "pbemd.db")
	if err := os.WriteFile(path, raw[:end], 0o600); err != nil {
		t.Fatal(err)
	}
	copyKey(t, src, path)
	db, err := store.Open(path)
	if err != nil {
		t.Fatalf("a store cut after its data was refused: %v", err)
	}
	if err := db.Update(func(tx *store.Tx) error { _, err := tx.Sequence("x"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// A 0-byte file where the store should be is not a new install: it is
// refused and left as it is (bbolt would make a new, empty store of it, and
// the daemon would answer every old mail in the mailbox again).
func TestOpenRefusesEmptyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, path, store.ErrEmpty, "empty (0 bytes)", "delete "+path, "The key file beside the store, "+store.KeyPath(path)+", stays where it is")
	if !errors.Is(store.ErrEmpty, store.ErrEmpty) {
		t.Fatal("unreachable")
	}
}

// A new store appears whole: Open never leaves a file with the store's
// name that is empty or half made, and no temporary file is left.
func TestOpenCreatesStoreWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbemd.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 || entries[0].Name() != "pbemd.db" || entries[1].Name() != "pbemd.key" {
		t.Fatalf("data folder holds %v, want only pbemd.db and its key pbemd.key", entries)
	}
	for _, name := range []string{path, store.KeyPath(path)} {
		st, _ := os.Stat(name)
		if st.Size() == 0 || st.Mode().Perm() != 0o600 {
			t.Fatalf("new %s: %d bytes, mode %v", name, st.Size(), st.Mode().Perm())
		}
	}
}

// livePages lists the pages of the store that hold data now (branch and
// leaf pages, not free ones), as bbolt sees them.
func livePages(t *testing.T, path string) (leaves, branches []int, pageSize int) {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "scan.db")
	raw, _ := os.ReadFile(path)
	os.WriteFile(cp, raw, 0o600)
	db, err := bolt.Open(cp, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			switch p.Type {
			case "leaf":
				if p.Count > 1 {
					leaves = append(leaves, id)
				}
			case "branch":
				branches = append(branches, id)
			}
		}
	})
	if len(leaves) < 20 || len(branches) == 0 {
		t.Fatalf("the real store has %d leaf and %d branch pages: too few to damage", len(leaves), len(branches))
	}
	return leaves, branches, db.Info().PageSize
}

// Bytes flipped in the data pages of a real store are refused at Open, with
// a message; bbolt alone opens such a file and fails (or panics) only when
// a game touches the page.
func TestOpenRefusesPageDamage(t *testing.T) {
	src := realStore(t)
	leaves, branches, ps := livePages(t, src)
	orig, _ := os.ReadFile(src)
	rng := rand.New(rand.NewPCG(17, 18))
	random := func(b []byte) {
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
	}
	damage := map[string]func(page []byte){
		"header overwritten":   func(p []byte) { random(p[:16]) },
		"elements overwritten": func(p []byte) { random(p[16 : 16+32]) },
		"page zeroed":          func(p []byte) { clear(p) },
		"page of noise":        func(p []byte) { random(p) },
		"count changed":        func(p []byte) { p[10] ^= 0x40 },
		"element offset bit":   func(p []byte) { p[16+4+2] ^= 0x10 },
	}
	for name, hurt := range damage {
		t.Run(name, func(t *testing.T) {
			for _, set := range [][]int{leaves, branches} {
				for range 8 {
					pg := set[rng.IntN(len(set))]
					raw := bytes.Clone(orig)
					hurt(raw[pg*ps : (pg+1)*ps])
					path := filepath.Join(t.TempDir(), "pbemd.db")
					if err := os.WriteFile(path, raw, 0o600); err != nil {
						t.Fatal(err)
					}
					refused(t, path, store.ErrDamaged, "is damaged")
				}
			}
		})
	}
}

// A store whose games record no longer decodes is refused at Open too: the
// values the daemon works from are checked, not only the pages.
func TestOpenRefusesDamagedGameRecord(t *testing.T) {
	path := realStore(t)
	raw, _ := os.ReadFile(path)
	// Every copy of the record is damaged: the file also holds stale copies
	// in freed pages, and which copy is the live one depends on how the
	// demo's writes fell into pages.
	rec := []byte(`{"name":"demo","variant":`)
	n := 0
	for i := bytes.Index(raw, rec); i >= 0; i = bytes.Index(raw, rec) {
		raw[i+1] = 0x01 // a control character where the first field's name starts
		n++
	}
	if n == 0 {
		t.Fatal("no game record in the real store")
	}
	os.WriteFile(path, raw, 0o600)
	refused(t, path, store.ErrDamaged, `bucket "games"`, "does not decode")
}

// The real store itself is sound, at every depth, to CheckFile and to
// bbolt: the check refuses damage, not stores.
func TestRealStoreIsSound(t *testing.T) {
	path := realStore(t)
	for _, d := range []store.Depth{store.Pages, store.StartValues, store.AllValues} {
		r, err := store.CheckFile(path, d)
		if err != nil || !r.OK() || len(r.Notes) > 0 {
			t.Fatalf("depth %d: %v %+v", d, err, r)
		}
		if r.Buckets < 20 || r.Keys < 100 {
			t.Errorf("depth %d: saw %d buckets and %d keys: the walk missed most of the store", d, r.Buckets, r.Keys)
		}
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// A branch page that points back to itself is refused with a message: bbolt
// follows such pages for ever (its cursors in a loop, its Tx.Check in a
// goroutine of its own), so the check must see the circle first.
func TestOpenRefusesPagesInACircle(t *testing.T) {
	src := realStore(t)
	_, branches, ps := livePages(t, src)
	raw, _ := os.ReadFile(src)
	pg := branches[0]
	binary.LittleEndian.PutUint64(raw[pg*ps+16+8:], uint64(pg)) // its first child is itself
	path := filepath.Join(t.TempDir(), "pbemd.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, path, store.ErrDamaged, "is damaged", "point in a circle")
}
