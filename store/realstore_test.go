package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbemd/demo"
	"pbemd/store"
)

// A real store is the one a whole game leaves behind: the demo plays
// Ancient Mediterranean by mail through the real daemon and the embedded
// mail server, and its pbemd.db is what these tests damage.
var real struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// realStore plays the demo once per test binary (years game years) and
// returns a private copy of its store for the test to damage.
func realStore(t testing.TB) string {
	t.Helper()
	real.once.Do(func() {
		real.dir, real.err = os.MkdirTemp("", "pbemd-realstore-")
		if real.err != nil {
			return
		}
		_, real.err = demo.Run(context.Background(), demo.Options{Seed: 1, Years: 4, DataDir: real.dir})
		real.path = filepath.Join(real.dir, "pbemd.db")
	})
	if real.err != nil {
		t.Fatalf("demo game for a real store: %v", real.err)
	}
	raw, err := os.ReadFile(real.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pbemd.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	copyKey(t, real.path, path)
	return path
}

// copyKey puts the key of the store at src beside the store at dst: a
// copy of a store opens only with its key.
func copyKey(t testing.TB, src, dst string) {
	t.Helper()
	key, err := os.ReadFile(store.KeyPath(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.KeyPath(dst), key, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if real.dir != "" {
		os.RemoveAll(real.dir)
	}
	os.Exit(code)
}

// cloneGames writes n copies of every record of the store at src into a new
// store at dst: keys that name the game get the copy's name, others a
// suffix, values are copied as they are. It is how the benchmark builds a
// store of many real games without playing each.
func cloneGames(tb testing.TB, src, dst string, n int) {
	tb.Helper()
	in, err := bolt.Open(src, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	out, err := bolt.Open(dst, 0o600, &bolt.Options{NoSync: true, NoFreelistSync: false})
	if err != nil {
		tb.Fatal(err)
	}
	defer out.Close()
	type kv struct{ k, v []byte }
	records := map[string][]kv{}
	err = in.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if v == nil { // nested bucket (meta's counters): copied once below
					return nil
				}
				records[string(name)] = append(records[string(name)], kv{bytes.Clone(k), bytes.Clone(v)})
				return nil
			})
		})
	})
	if err != nil {
		tb.Fatal(err)
	}
	game := []byte(demo.GameName)
	const perTx = 25
	for first := 0; first < n; first += perTx {
		err := out.Update(func(tx *bolt.Tx) error {
			for i := first; i < first+perTx && i < n; i++ {
				name := []byte(fmt.Sprintf("%s%05d", game, i))
				suffix := []byte(fmt.Sprintf("#%05d", i))
				for bucket, recs := range records {
					b, err := tx.CreateBucketIfNotExists([]byte(bucket))
					if err != nil {
						return err
					}
					if bucket == "meta" && i > 0 {
						continue
					}
					for _, r := range recs {
						k := r.k
						if bytes.Contains(k, game) {
							k = bytes.Replace(k, game, name, 1)
						} else if bucket != "meta" {
							k = append(bytes.Clone(k), suffix...)
						}
						v := r.v
						if bucket == "duekey" {
							v = append(bytes.Clone(v[:8]), k...)
						}
						if err := b.Put(k, v); err != nil {
							return err
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}
