package store_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbemd/store"
)

// smallStore is a bbolt file of 1 KiB pages with nested, inline and
// overflowing buckets and a freelist: every kind of page, in a few KiB.
func smallStore(f *testing.F) []byte {
	path := filepath.Join(f.TempDir(), "small.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: 1024})
	if err != nil {
		f.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		games, _ := tx.CreateBucket([]byte("games"))
		for i := range 40 {
			games.Put(fmt.Appendf(nil, "game%02d", i), fmt.Appendf(nil, `{"name":"game%02d","phase":%d}`, i, i))
		}
		meta, _ := tx.CreateBucket([]byte("meta"))
		meta.Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 1})
		seq, _ := meta.CreateBucket([]byte("seq:games")) // inline
		seq.NextSequence()
		big, _ := tx.CreateBucket([]byte("history"))
		big.Put([]byte("demo\x00\x00"), fmt.Appendf(nil, `{"report":%q}`, strings.Repeat("F Nea - Ion\n", 250))) // overflow pages
		return nil
	})
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("games")).Delete([]byte("game07")) }) // free pages
	}
	if err != nil {
		f.Fatal(err)
	}
	db.Close()
	if r, err := store.CheckFile(path, store.AllValues); err != nil || !r.OK() {
		f.Fatalf("the seed store does not verify: %v %+v", err, r)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return raw
}

// CheckFile reads any bytes without panicking or hanging (its precheck and
// shape walk stand between bbolt and a damaged file), and what it passes
// bbolt opens, checks and reads without panicking or complaining.
func FuzzCheckFile(f *testing.F) {
	seed := smallStore(f)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<20 {
			return
		}
		// Mend the meta pages' checksums, so that damage deeper in the
		// file reaches the tree walk instead of failing the meta check.
		raw = bytes.Clone(raw)
		for _, off := range []int{0, 1024} {
			if len(raw) >= off+16+64 {
				h := fnv.New64a()
				h.Write(raw[off+16 : off+16+56])
				binary.LittleEndian.PutUint64(raw[off+16+56:], h.Sum64())
			}
		}
		path := filepath.Join(dir, "fuzz.db")
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := store.CheckFile(path, store.AllValues)
		if err != nil {
			t.Fatal(err)
		}
		if !r.OK() {
			return
		}
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			return // bbolt refused it cleanly, which is fine
		}
		defer db.Close()
		db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				t.Errorf("verified, but bbolt finds: %v", err)
			}
			var walk func(b *bolt.Bucket)
			walk = func(b *bolt.Bucket) {
				b.ForEach(func(k, v []byte) error {
					if v == nil {
						walk(b.Bucket(k))
					}
					return nil
				})
			}
			return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { walk(b); return nil })
		})
	})
}
