// Package store keeps all of pbemd's state in one bbolt file: games, players
// and their credentials, order sets, phase history, processed Message-IDs,
// the outbox and the audit log.
//
// Reply tokens and the mails of the outbox are sealed at rest with a key
// kept in a file beside the store, never in it (seal.go): neither the file
// nor a backup of it gives a token away.
//
// Every effect of one mail or one deadline is one Update transaction, so a
// crash at any line leaves either all of it or none of it. Byte slices read
// from bbolt die with their transaction: every getter copies what it returns.
//
// The store knows no mail protocol and no game rules; it must never import
// mailer, daemon or an engine.
package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the layout this code writes. Open upgrades older files
// step by step (see upgrades) and refuses newer ones.
//
//  1. the first layout;
//  2. secrets sealed at rest (seal.go): tokens in game records, the site
//     GM token and outbox mail sealed with the key file; the token index
//     holds no token; the history keeps no whole game record.
const SchemaVersion = 2

// Bucket names. Each holds one kind of record; see the file that owns it.
var (
	bucketMeta = []byte("meta") // schema version and counters
)

// buckets lists every top-level bucket; Open creates the missing ones.
// Files that own a bucket add it here from their init.
var buckets = [][]byte{bucketMeta}

func registerBucket(name []byte) []byte {
	buckets = append(buckets, name)
	return name
}

// growing names the buckets whose new keys sort after every key already
// there (a sequence, or a Message-ID, which begins with a growing time):
// their leaves are filled to the page before bbolt starts a new one.
// bbolt splits a full leaf at half a page, right for keys that land
// anywhere; in a bucket that only grows at its end that leaves every
// page half empty, and a commit writes twice the pages it must.
var growing = map[string]bool{}

// registerGrowingBucket is registerBucket for a bucket whose keys grow.
func registerGrowingBucket(name []byte) []byte {
	growing[string(name)] = true
	return registerBucket(name)
}

// upgrades[i] turns schema version i+1 into i+2, inside the transaction
// that opens the store. An upgrade that leaves secrets in pages it frees
// sets rewrite: Open then rewrites the file without its free pages.
var upgrades = []struct {
	run     func(tx *Tx) error
	rewrite bool
}{
	{sealSecrets, true}, // 1 → 2 (seal.go)
}

// metaRewrite marks a store whose file must be rewritten without its free
// pages (see DB.rewrite).
var metaRewrite = []byte("rewrite_pending")

// ErrNotFound is returned (wrapped) when a record does not exist.
var ErrNotFound = errors.New("not found")

// DB is an open store.
type DB struct {
	bolt    *bolt.DB
	path    string
	keyPath string
	seal    *sealer     // the key (seal.go); nil only while a new file is made
	faults  writeFaults // fault.go
	// rewrite is set when an upgrade freed pages that hold secrets: Open
	// rewrites the file (metaRewrite keeps the need across a crash).
	rewrite bool
	// lastIDTime is the last time MessageIDTime gave (outbox.go).
	lastIDTime atomic.Int64
}

func (db *DB) prepare(tx *bolt.Tx) error {
	for _, name := range buckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("bucket %s: %w", name, err)
		}
	}
	meta := tx.Bucket(bucketMeta)
	v := uint64(SchemaVersion)
	if raw := meta.Get([]byte("schema")); raw != nil {
		v = binary.BigEndian.Uint64(raw)
	}
	if v > SchemaVersion {
		return fmt.Errorf("schema version %d is newer than this pbemd (%d): upgrade pbemd", v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		up := upgrades[v-1]
		if db.seal == nil {
			return fmt.Errorf("upgrade schema %d to %d: the store's key is not loaded", v, v+1)
		}
		if err := up.run(&Tx{btx: tx, seal: db.seal}); err != nil {
			return fmt.Errorf("upgrade schema %d to %d: %w", v, v+1, err)
		}
		if up.rewrite {
			if err := meta.Put(metaRewrite, []byte{1}); err != nil {
				return err
			}
		}
	}
	// Set until the file is rewritten (rewriteFile), so a crash before
	// then does not leave the old secrets in free pages for good.
	db.rewrite = meta.Get(metaRewrite) != nil
	if db.seal != nil {
		if err := meta.Put(metaKeyID, db.seal.id); err != nil {
			return err
		}
	}
	return meta.Put([]byte("schema"), u64(v))
}

// Close closes the file.
func (db *DB) Close() error { return db.bolt.Close() }

// Path is the file the store lives in.
func (db *DB) Path() string { return db.path }

// KeyPath is the store's key file (see seal.go): a backup of the store
// opens only with it.
func (db *DB) KeyPath() string { return db.keyPath }

// Update runs fn in one read-write transaction: all of its writes land or
// none do. An error of fn is returned as is; a failure to write the
// transaction wraps ErrWrite (see fault.go).
func (db *DB) Update(fn func(tx *Tx) error) error {
	btx, err := db.bolt.Begin(true)
	if err != nil {
		return db.writeFailed(err)
	}
	defer btx.Rollback() // after an error or a panic in fn; a no-op after a commit
	tx := &Tx{btx: btx, seal: db.seal, lastIDTime: &db.lastIDTime}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.flushGames(); err != nil { // gamecache.go
		return err
	}
	if err := tx.flushStanding(); err != nil { // standing.go
		return err
	}
	return db.commit(btx)
}

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(tx *Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(&Tx{btx: btx, seal: db.seal}) })
}

// Backup writes a consistent copy of the store to w while others keep using
// it (bbolt's hot copy inside a read transaction). The copy holds tokens
// and outbox mail only sealed: it opens only with the store's key file
// (KeyPath), which Backup does not copy.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy to path (mode 0600), atomically: a
// partial copy never has the final name.
func (db *DB) BackupFile(path string) error {
	tmp := path + ".partial"
	os.Remove(tmp) // a leftover keeps its mode; a new file is 0600
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if _, err := db.Backup(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	return os.Rename(tmp, path)
}

// Check runs bbolt's consistency check (tests call it in t.Cleanup).
func (db *DB) Check() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
}

// Tx is one transaction. Methods on Tx are defined next to the records they
// own (games.go, outbox.go, …).
type Tx struct {
	btx   *bolt.Tx
	seal  *sealer
	games map[string]*txGame // the games it read or wrote (gamecache.go)
	// the folds of the phases it read or wrote (standing.go), by phaseKey
	standing map[string]*txStanding
	// sets are the order sets it added, as they read back, by key (games.go)
	sets map[string]OrderSet
	// states are the engine states SharedState handed out, by game
	states map[string][]byte
	// lastIDTime is its DB's, in a write transaction (MessageIDTime)
	lastIDTime *atomic.Int64
}

// bucket is one of the store's top-level buckets (buckets), its leaves
// filled to the page when its keys grow (growing).
func (tx *Tx) bucket(name []byte) *bolt.Bucket {
	b := tx.btx.Bucket(name)
	if b != nil && growing[string(name)] {
		b.FillPercent = 1 // a split leaves the old leaf full (growing)
	}
	return b
}

// Sequence returns the next value of a named counter (stable across
// restarts, never reused).
func (tx *Tx) Sequence(name string) (uint64, error) {
	b, err := tx.bucket(bucketMeta).CreateBucketIfNotExists([]byte("seq:" + name))
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// u64 encodes n big-endian so keys sort numerically.
func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

// u64Of decodes what u64 encoded.
func u64Of(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

// putJSON stores v as JSON under key.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, raw)
}

// getJSON decodes the JSON under key into v; it reports ErrNotFound (wrapped)
// when the key is absent.
func getJSON(b *bolt.Bucket, key []byte, v any) error {
	raw := b.Get(key)
	if raw == nil {
		return fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decode %s: %w", key, err)
	}
	return nil
}
