//go:build linux

package store

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mappedKB is how much of the file at path the process has resident
// through its mappings (Rss in /proc/self/smaps), in kB.
func mappedKB(t *testing.T, path string) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	kb, in := 0, false
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = len(f) >= 6 && f[5] == path // a mapping's header line
			continue
		}
		if in && len(f) >= 2 && f[0] == "Rss:" {
			n, _ := strconv.Atoi(f[1])
			kb += n
		}
	}
	return kb
}

// Pages of the file read through bbolt's mapping (every value, read back)
// stay resident until the file has grown by releaseEvery more; then they
// are given back, and what is read after still reads right.
func TestMappedPagesGivenBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(1, 2))
	value := func(i int) []byte {
		b := make([]byte, 64<<10)
		for k := range b {
			b[k] = byte(r.Uint32()) ^ byte(i)
		}
		return b
	}
	key := func(i int) []byte { return []byte(strconv.Itoa(1_000_000 + i)) }
	written := map[int][]byte{}
	write := func(from, to int) {
		for i := from; i < to; i += 16 { // 1 MB a transaction
			err := db.Update(func(tx *Tx) error {
				b, err := tx.btx.CreateBucketIfNotExists([]byte("resident-test"))
				if err != nil {
					return err
				}
				for k := i; k < min(i+16, to); k++ {
					written[k] = value(k)
					if err := b.Put(key(k), written[k]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	readAll := func() {
		err := db.View(func(tx *Tx) error {
			b := tx.btx.Bucket([]byte("resident-test"))
			for i, want := range written {
				if !bytes.Equal(b.Get(key(i)), want) {
					t.Fatalf("value %d reads back wrong", i)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	write(0, 640) // 40 MB
	readAll()
	if kb := mappedKB(t, path); kb < 30<<10 {
		t.Fatalf("%d kB of the file resident after reading 40 MB of it: the test's premise fails", kb)
	}
	write(640, 640+2*releaseEvery/(64<<10)) // grows by twice releaseEvery
	if kb := mappedKB(t, path); kb > 8<<10 {
		t.Errorf("%d kB of the file still resident after it grew by %d MB more, want them given back", kb, 2*releaseEvery>>20)
	}
	readAll()
}
