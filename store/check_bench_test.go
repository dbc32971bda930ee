package store_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbemd/store"
)

var benchGames = flag.String("store.games", "100,1000", "BenchmarkStartCheck: the store sizes, in games")

// BenchmarkStartCheck measures the integrity check on stores of many real
// games (each a copy of the records a four-year demo game leaves), so the
// cost of checking at every start can be read per game and per megabyte:
//
//	go test -run '^$' -bench StartCheck -benchtime 3x ./store/
//	go test -run '^$' -bench StartCheck -benchtime 1x ./store/ -store.games 10000
//
// (10,000 games are a 4 GB file that takes minutes to build: only when
// asked for.)
// verify-pages is CheckFile on the structure, verify-start adds the values
// Open checks, verify-all every value (pbemd check); bbolt-check is
// bbolt's own tx.Check alone on the same file, for comparison; open is
// store.Open.
func BenchmarkStartCheck(b *testing.B) {
	src := realStore(b)
	var sizes []int
	for _, f := range strings.Split(*benchGames, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("-store.games %q: want counts of games, e.g. 100,1000", *benchGames)
		}
		sizes = append(sizes, n)
	}
	for _, games := range sizes {
		b.Run("games="+strconv.Itoa(games), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "pbemd.db")
			cloneGames(b, src, path, games)
			copyKey(b, src, path)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			for _, depth := range []struct {
				name  string
				depth store.Depth
			}{{"verify-pages", store.Pages}, {"verify-start", store.StartValues}, {"verify-all", store.AllValues}} {
				b.Run(depth.name, func(b *testing.B) {
					b.SetBytes(st.Size())
					for b.Loop() {
						r, err := store.CheckFile(path, depth.depth)
						if err != nil || !r.OK() {
							b.Fatalf("verify: %v %v", err, r.Problems)
						}
					}
				})
			}
			b.Run("bbolt-check", func(b *testing.B) {
				b.SetBytes(st.Size())
				db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				for b.Loop() {
					db.View(func(tx *bolt.Tx) error {
						for err := range tx.Check() {
							b.Fatal(err)
						}
						return nil
					})
				}
			})
			b.Run("open", func(b *testing.B) {
				for b.Loop() {
					db, err := store.Open(path)
					if err != nil {
						b.Fatal(err)
					}
					db.Close()
				}
			})
			b.ReportMetric(float64(st.Size())/(1<<20), "MiB")
		})
	}
}
