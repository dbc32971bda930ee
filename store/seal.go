package store

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Secrets at rest. The daemon needs every reply token again for each mail
// it sends (the reply address gm+<token>@domain), so a token cannot be kept
// as a hash alone. Instead the store seals what it must give back:
//
//   - the token index (bucket tokens) is keyed by sha256(token) and holds
//     no token at all: finding the key is the proof, so a lookup never
//     compares a token;
//   - the tokens in game records (players', observers', the game's GM
//     token) and the site GM token are sealed with AES-256-GCM;
//   - so is each mail in the outbox: a mail carries its reply address in
//     Reply-To and its recipient's password in the text, and bbolt does
//     not clear the pages it frees, so a mail sent and deleted would
//     otherwise stay readable in the file.
//
// The key is in a file beside the store (KeyPath: data/pbemd.key for
// data/pbemd.db), made from crypto/rand when the store first opens and
// never changed. Neither the store file nor a backup of it ("pbemd
// backup" copies the store only) reveals a token without the key. The
// store keeps a key id (a hash of the key, not the key), so a store opened
// with another store's key is told apart from damage; Open refuses a store
// that holds sealed tokens when its key file is missing, wrong or readable
// by others, rather than make a new key that would leave every token
// unreadable.
//
// AES-GCM rather than tokens derived from the key (HMAC(key, nonce), only
// the nonce stored): a store written before sealing holds random tokens
// that players already have in their mail, and derivation could not keep
// them; sealing keeps every existing reply address working.

// ErrKey is returned (wrapped in a *KeyError) when the store's key file is
// missing, belongs to another store, is damaged or is readable by others.
var ErrKey = errors.New("store key")

// keySize is the length of the key in the key file.
const keySize = 32

// sealedPrefix marks a sealed token in a JSON record; sealedMail marks a
// sealed mail in the outbox.
const sealedPrefix = "sealed:"

var sealedMail = []byte("pbemd-sealed-mail\x00")

// KeyPath is where the key of the store at path is kept: beside it, with
// the extension .key (data/pbemd.db → data/pbemd.key).
func KeyPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".key"
}

// KeyError says what is wrong with a store's key file and what to do.
type KeyError struct {
	Store, Key string
	Problem    string // "missing", "wrong", "damaged", "not private"
	Mode       fs.FileMode
	Cause      error
}

func (e *KeyError) Is(target error) bool { return target == ErrKey }

func (e *KeyError) Unwrap() error { return e.Cause }

func (e *KeyError) Error() string {
	switch e.Problem {
	case "missing":
		return fmt.Sprintf("store %s holds sealed reply tokens, but its key file %s is missing.\n"+
			"The tokens (every reply address of every game) open only with that key, so pbemd does not\n"+
			"make a new one: that would leave them unreadable for good. Put the key file back (it never\n"+
			"changes: use the copy you keep apart from your backups) as %s, mode 0600, and start again.\n"+
			"A backup of the store opens only with the key of the store it was copied from.", e.Store, e.Key, e.Key)
	case "wrong":
		return fmt.Sprintf("key file %s is not the key of store %s (it was made for another store, or the\n"+
			"store was copied in from another data folder). The store's sealed reply tokens open only with\n"+
			"its own key: put that key file at %s and start again.", e.Key, e.Store, e.Key)
	case "not private":
		return fmt.Sprintf("key file %s can be read by other users (mode %04o): it opens every reply token\n"+
			"in store %s, so whoever read both may know them. Make it private (chmod 600 %s) and\n"+
			"start again.", e.Key, e.Mode.Perm(), e.Store, e.Key)
	default:
		return fmt.Sprintf("key file %s of store %s cannot be used: %v.\n"+
			"Put the store's own key file back (the copy you keep apart from your backups) and start again.", e.Key, e.Store, e.Cause)
	}
}

// sealer seals and opens secrets with the store's key.
type sealer struct {
	aead cipher.AEAD
	id   []byte // names the key in the store's meta (not the key)
}

func newSealer(key []byte) (*sealer, error) {
	if len(key) != keySize {
		return nil, fmt.Errorf("a key is %d bytes, not %d", keySize, len(key))
	}
	block, err := aes.NewCipher(derive(key, "pbemd store seal v1"))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead, id: derive(key, "pbemd store key id v1")[:16]}, nil
}

// derive makes a key for one purpose from the key in the file.
func derive(key []byte, purpose string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// seal encrypts plain for one kind of use (the kind is authenticated, so a
// sealed mail never opens as a token): a fresh random nonce, then the
// ciphertext with its tag.
func (s *sealer) seal(kind string, plain []byte) []byte {
	out := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return s.aead.Seal(out, out, plain, []byte(kind))
}

func (s *sealer) open(kind string, sealed []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return nil, errors.New("sealed value too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(kind))
	if err != nil {
		return nil, errors.New("sealed value does not open with the store's key")
	}
	return plain, nil
}

// sealToken seals a token for a JSON record ("" stays "").
func (tx *Tx) sealToken(token string) (string, error) {
	if token == "" {
		return "", nil
	}
	if tx.seal == nil {
		return "", errors.New("store opened without its key")
	}
	return sealedPrefix + base64.RawStdEncoding.EncodeToString(tx.seal.seal("token", []byte(token))), nil
}

// openToken opens what sealToken made.
func (tx *Tx) openToken(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	if tx.seal == nil {
		return "", errors.New("store opened without its key")
	}
	raw, ok := strings.CutPrefix(v, sealedPrefix)
	if !ok {
		return "", errors.New("a token is not sealed")
	}
	b, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil {
		return "", fmt.Errorf("sealed token: %w", err)
	}
	plain, err := tx.seal.open("token", b)
	return string(plain), err
}

func (tx *Tx) sealMail(raw []byte) ([]byte, error) {
	if tx.seal == nil {
		return nil, errors.New("store opened without its key")
	}
	return append(bytes.Clone(sealedMail), tx.seal.seal("mail", raw)...), nil
}

func (tx *Tx) openMail(v []byte) ([]byte, error) {
	if tx.seal == nil {
		return nil, errors.New("store opened without its key")
	}
	b, ok := bytes.CutPrefix(v, sealedMail)
	if !ok {
		return nil, errors.New("a mail is not sealed")
	}
	return tx.seal.open("mail", b)
}

// sealGame returns a copy of g whose tokens are sealed (g is unchanged).
func (tx *Tx) sealGame(g *Game) (*Game, error) {
	c := *g
	var err error
	if c.GMToken, err = tx.sealToken(g.GMToken); err != nil {
		return nil, fmt.Errorf("game %q: %w", g.Name, err)
	}
	c.Players = append([]Player(nil), g.Players...)
	for i := range c.Players {
		if c.Players[i].Token, err = tx.sealToken(c.Players[i].Token); err != nil {
			return nil, fmt.Errorf("game %q: %w", g.Name, err)
		}
	}
	c.Observers = append([]Observer(nil), g.Observers...)
	for i := range c.Observers {
		if c.Observers[i].Token, err = tx.sealToken(c.Observers[i].Token); err != nil {
			return nil, fmt.Errorf("game %q: %w", g.Name, err)
		}
	}
	return &c, nil
}

// openGame opens the tokens of a game record in place.
func (tx *Tx) openGame(g *Game) error {
	var err error
	if g.GMToken, err = tx.openToken(g.GMToken); err != nil {
		return fmt.Errorf("game %q: GM token: %w", g.Name, err)
	}
	for i := range g.Players {
		if g.Players[i].Token, err = tx.openToken(g.Players[i].Token); err != nil {
			return fmt.Errorf("game %q: token of %s: %w", g.Name, g.Players[i].Address, err)
		}
	}
	for i := range g.Observers {
		if g.Observers[i].Token, err = tx.openToken(g.Observers[i].Token); err != nil {
			return fmt.Errorf("game %q: token of observer %s: %w", g.Name, g.Observers[i].Address, err)
		}
	}
	return nil
}

// ---- the key file ----

// readKey reads the key file at path. It refuses a file other users can
// read: the key opens every token of the store.
func readKey(store, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &KeyError{Store: store, Key: path, Problem: "damaged", Cause: err}
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, &KeyError{Store: store, Key: path, Problem: "not private", Mode: st.Mode()}
	}
	buf := make([]byte, 2*keySize+16)
	n, _ := f.Read(buf)
	key, err := hex.DecodeString(strings.TrimSpace(string(buf[:n])))
	if err != nil || len(key) != keySize {
		return nil, &KeyError{Store: store, Key: path, Problem: "damaged", Cause: fmt.Errorf("it holds %d bytes, not a key of %d hex digits", st.Size(), 2*keySize)}
	}
	return key, nil
}

// createKey makes a new key file at path (mode 0600), whole or not at all.
// It fails if a key file appeared there meanwhile.
func createKey(path string) ([]byte, error) {
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := writePrivate(path, []byte(hex.EncodeToString(key)+"\n"), false); err != nil {
		return nil, err
	}
	return key, nil
}

// writePrivate writes data to path with mode 0600, whole or not at all:
// written and synced under a temporary name, then put in place. With
// replace false it fails if path exists (linked, not renamed, where the
// file system has links).
func writePrivate(path string, data []byte, replace bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if replace {
		err = os.Rename(tmp.Name(), path)
	} else if err = os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		// No hard links here (some network and FAT file systems).
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// loadKey reads the store's key, or makes one when the store holds no
// sealed secret yet (a new store, or one written before sealing).
func (db *DB) loadKey() error {
	db.keyPath = KeyPath(db.path)
	var sealed bool
	var id []byte
	if err := db.bolt.View(func(btx *bolt.Tx) error {
		if meta := btx.Bucket(bucketMeta); meta != nil {
			sealed, id = holdsSealed(btx), bytes.Clone(meta.Get(metaKeyID))
		}
		return nil
	}); err != nil {
		return err
	}
	key, err := readKey(db.path, db.keyPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !sealed:
		if key, err = createKey(db.keyPath); err != nil {
			return fmt.Errorf("make key file %s for store %s: %w", db.keyPath, db.path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		return &KeyError{Store: db.path, Key: db.keyPath, Problem: "missing"}
	case err != nil:
		var ke *KeyError
		if errors.As(err, &ke) {
			return err
		}
		return &KeyError{Store: db.path, Key: db.keyPath, Problem: "damaged", Cause: err}
	}
	s, err := newSealer(key)
	if err != nil {
		return &KeyError{Store: db.path, Key: db.keyPath, Problem: "damaged", Cause: err}
	}
	if sealed && id != nil && !hmac.Equal(id, s.id) {
		return &KeyError{Store: db.path, Key: db.keyPath, Problem: "wrong"}
	}
	db.seal = s
	return nil
}

// metaKeyID is the meta key of the key id.
var metaKeyID = []byte("key_id")

// holdsSealed tells whether the store holds anything sealed with its key:
// a schema that seals, and a game, a token, a site GM token or a mail.
func holdsSealed(btx *bolt.Tx) bool {
	meta := btx.Bucket(bucketMeta)
	if meta == nil {
		return false
	}
	raw := meta.Get([]byte("schema"))
	if len(raw) != 8 || u64Of(raw) < 2 {
		return false
	}
	if meta.Get(metaSiteToken) != nil {
		return true
	}
	for _, name := range [][]byte{bucketGames, bucketTokens, bucketOutboxRaw} {
		if b := btx.Bucket(name); b != nil {
			if k, _ := b.Cursor().First(); k != nil {
				return true
			}
		}
	}
	return false
}

// ---- the upgrade from schema 1 ----

// sealSecrets is the upgrade from schema 1, which kept every token in
// the clear: in game records, in the token index, in the meta key
// m:gm_token, in the whole game record older history records kept, and
// in the mails of the outbox. It seals or drops each in place; Open then
// rewrites the file, since the pages this frees still hold them.
func sealSecrets(tx *Tx) error {
	games := tx.bucket(bucketGames)
	if err := rewriteEach(games, func(k, v []byte) ([]byte, error) {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return nil, fmt.Errorf("game %q: %w", k, err)
		}
		sealed, err := tx.sealGame(&g)
		if err != nil {
			return nil, err
		}
		return json.Marshal(sealed)
	}); err != nil {
		return err
	}
	if err := rewriteEach(tx.bucket(bucketTokens), func(k, v []byte) ([]byte, error) {
		var ref TokenRef // has no token field: decoding drops it
		if err := json.Unmarshal(v, &ref); err != nil {
			return nil, fmt.Errorf("token index: %w", err)
		}
		return json.Marshal(ref)
	}); err != nil {
		return err
	}
	meta := tx.bucket(bucketMeta)
	if plain := meta.Get([]byte("m:gm_token")); plain != nil {
		if err := tx.PutSiteToken(string(plain)); err != nil {
			return err
		}
		if err := meta.Delete([]byte("m:gm_token")); err != nil {
			return err
		}
	}
	if err := rewriteEach(tx.bucket(bucketHistory), func(k, v []byte) ([]byte, error) {
		var old struct {
			Game []byte `json:"game"`
		}
		if err := json.Unmarshal(v, &old); err != nil {
			return nil, fmt.Errorf("history record %q: %w", k, err)
		}
		if len(old.Game) == 0 {
			return nil, nil // keep as it is
		}
		// The whole game record (tokens and all) was kept only for its
		// open phase: keep that instead.
		var rec PhaseRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return nil, fmt.Errorf("history record %q: %w", k, err)
		}
		open, err := rec.Reopen()
		if err != nil {
			return nil, err
		}
		rec.Open, rec.Game = &open, nil
		return json.Marshal(rec)
	}); err != nil {
		return err
	}
	return rewriteEach(tx.bucket(bucketOutboxRaw), func(_, v []byte) ([]byte, error) {
		return tx.sealMail(v)
	})
}

// rewriteEach replaces each value of b by what fn makes of it (nil: keep
// it). Values are collected first: bbolt does not allow writes while a
// cursor walks.
func rewriteEach(b *bolt.Bucket, fn func(k, v []byte) ([]byte, error)) error {
	var keys [][]byte
	if err := b.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil }); err != nil {
		return err
	}
	for _, k := range keys {
		v := b.Get(k)
		if v == nil {
			continue // a nested bucket
		}
		nv, err := fn(k, bytes.Clone(v))
		if err != nil {
			return err
		}
		if nv == nil {
			continue
		}
		if err := b.Put(k, nv); err != nil {
			return err
		}
	}
	return nil
}
