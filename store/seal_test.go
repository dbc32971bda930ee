package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// schema1Bucket names every bucket the schema-1 code made.
var schema1Buckets = []string{
	"meta", "games", "states", "tokens", "orders", "history", "deadlines", "duekey", "audit", "press", "codes", "sent",
	"outbox", "outbox-raw", "outbox-due", "outbox-msgid", "outbox-failed",
	"mail-processed", "mail-checkpoint", "mail-failures", "mail-ratelimit", "addresses", "standing",
}

// schema1Store writes a store the way the schema-1 code wrote it (with
// bbolt alone, not this package): every fill is one transaction, as the
// daemon made one per mail.
func schema1Store(t *testing.T, path string, fills ...func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range schema1Buckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), u64(1))
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, fill := range fills {
		if err := db.Update(fill); err != nil {
			t.Fatal(err)
		}
	}
}

// schema1TokenRef is the token index record of schema 1: it held the token.
type schema1TokenRef struct {
	Token   string `json:"token"`
	Game    string `json:"game"`
	Address string `json:"address,omitempty"`
	GM      bool   `json:"gm,omitempty"`
}

func put1(tx *bolt.Tx, bucket string, key []byte, v any) error {
	raw, ok := v.([]byte)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return err
		}
	}
	return tx.Bucket([]byte(bucket)).Put(key, raw)
}

func sha(token string) []byte { s := sha256.Sum256([]byte(token)); return s[:] }

// A store written before tokens were sealed upgrades in place on its first
// open: every token it held in the clear (game records, the token index,
// the site GM token, the whole game record of older history records, the
// mails of the outbox) is sealed or dropped, and the file is rewritten so
// that no clear token stays in a page bbolt freed. Everything still reads
// as it did: the daemon sees the same tokens, replies by token find their
// player, queued mail goes out as it was.
func TestSchema1StoreUpgradesAndKeepsNoClearToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbemd.db")
	gmTok, siteTok := "gmtokenaaaaaaaaaaaaaaaaaaa", "sitetokenbbbbbbbbbbbbbbbbb"
	players := map[string]string{"eng@x": "engtokencccccccccccccccccc", "fra@x": "fratokendddddddddddddddddd", "old@x": "oldtokeneeeeeeeeeeeeeeeeee"}
	obsTok, sentTok := "obstokenffffffffffffffffff", "senttokengggggggggggggggggg"
	game := func(deadline string) string {
		g := strings.NewReplacer(`"token":"t1"`, `"token":"`+players["eng@x"]+`"`, `"token":"t2"`, `"token":"`+players["fra@x"]+`"`,
			`"token":"t3"`, `"token":"`+players["old@x"]+`"`, `"gm_token":"g"`, `"gm_token":"`+gmTok+`","observers":[{"address":"obs@x","token":"`+obsTok+`"}]`,
			"2026-12-08T21:00:00Z", deadline).Replace(legacyGame)
		if !json.Valid([]byte(g)) {
			t.Fatalf("test game is not JSON: %s", g)
		}
		return g
	}
	mail := func(token, text string) []byte {
		return []byte("From: gm@example.test\r\nReply-To: gm+" + token + "@example.test\r\nSubject: x\r\n\r\n" + text + "\r\n")
	}
	queued := mail(players["eng@x"], "Your password is hunter2secret.")
	schema1Store(t, path,
		func(tx *bolt.Tx) error { // the game as first written
			return put1(tx, "games", []byte("old"), []byte(game("2026-12-07T21:00:00Z")))
		},
		func(tx *bolt.Tx) error { // and written again: the old version's page is freed, not cleared
			if err := put1(tx, "games", []byte("old"), []byte(game("2026-12-08T21:00:00Z"))); err != nil {
				return err
			}
			for addr, tok := range players {
				if err := put1(tx, "tokens", sha(tok), schema1TokenRef{Token: tok, Game: "old", Address: addr}); err != nil {
					return err
				}
			}
			for _, ref := range []schema1TokenRef{{Token: gmTok, Game: "old", GM: true}, {Token: obsTok, Game: "old", Address: "obs@x"}, {Token: siteTok, GM: true}} {
				if err := put1(tx, "tokens", sha(ref.Token), ref); err != nil {
					return err
				}
			}
			if err := put1(tx, "meta", []byte("m:gm_token"), []byte(siteTok)); err != nil {
				return err
			}
			// A history record of the release before OpenPhase: the whole
			// game record, tokens and all.
			return put1(tx, "history", phaseKey("old", 1), PhaseRecord{Phase: 1, PhaseID: "F1901M", Game: []byte(game("2026-12-06T21:00:00Z"))})
		},
		func(tx *bolt.Tx) error { // a mail queued, and one sent (its bytes freed)
			for id, raw := range map[uint64][]byte{1: mail(sentTok, "sent"), 2: queued} {
				m := OutboxMessage{ID: id, MessageID: "m" + string(rune('0'+id)) + "@example.test", From: "gm@example.test", To: []string{"eng@x"}}
				if err := put1(tx, "outbox", u64(id), m); err != nil {
					return err
				}
				if err := put1(tx, "outbox-raw", u64(id), raw); err != nil {
					return err
				}
				if err := put1(tx, "outbox-due", dueKey(time.Time{}, id), []byte{}); err != nil {
					return err
				}
				if err := put1(tx, "outbox-msgid", []byte(m.MessageID), OutboxStatus{State: OutboxQueued, ID: id}); err != nil {
					return err
				}
			}
			return nil
		},
		func(tx *bolt.Tx) error { // the first mail sent
			for _, del := range [][2][]byte{{[]byte("outbox"), u64(1)}, {[]byte("outbox-raw"), u64(1)}, {[]byte("outbox-due"), dueKey(time.Time{}, 1)}} {
				if err := tx.Bucket(del[0]).Delete(del[1]); err != nil {
					return err
				}
			}
			return nil
		})
	secrets := []string{gmTok, siteTok, obsTok, sentTok, "hunter2secret"}
	for _, tok := range players {
		secrets = append(secrets, tok)
	}
	before, _ := os.ReadFile(path)
	for _, s := range secrets {
		if !bytes.Contains(before, []byte(s)) {
			t.Fatalf("the schema-1 store does not hold %q in the clear: the test would prove nothing", s)
		}
	}

	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	for _, s := range secrets {
		if bytes.Contains(after, []byte(s)) {
			t.Errorf("after the upgrade the store file still holds %q in the clear", s)
		}
	}
	if bytes.Contains(after, []byte("m:gm_token")) {
		t.Error("the site GM token's old meta key is still in the file")
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "pbemd.db pbemd.key" {
		t.Errorf("the data folder holds %v after the upgrade, want pbemd.db pbemd.key", names)
	}
	if st, err := os.Stat(KeyPath(path)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v %v", st, err)
	}

	check := func(db *DB) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			g, err := tx.Game("old")
			if err != nil {
				return err
			}
			if g.GMToken != gmTok || len(g.Observers) != 1 || g.Observers[0].Token != obsTok || !g.Deadline.Equal(time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)) {
				t.Errorf("game after the upgrade: GM token %q, observers %+v, deadline %v", g.GMToken, g.Observers, g.Deadline)
			}
			for _, p := range g.Players {
				if want, ok := players[p.Address]; ok && p.Token != want {
					t.Errorf("%s's token is %q, want %q", p.Address, p.Token, players[p.Address])
				}
			}
			if g.Locks["england"].By != "eng@x" {
				t.Errorf("the legacy lock was lost: %+v", g.Locks)
			}
			for addr, tok := range players {
				if ref, ok := tx.Token(tok); !ok || ref != (TokenRef{Game: "old", Address: addr}) {
					t.Errorf("token of %s finds %+v %v", addr, ref, ok)
				}
			}
			if ref, ok := tx.Token(gmTok); !ok || !ref.GM || ref.Game != "old" {
				t.Errorf("GM token finds %+v %v", ref, ok)
			}
			if ref, ok := tx.Token(siteTok); !ok || !ref.GM || ref.Game != "" {
				t.Errorf("site GM token finds %+v %v", ref, ok)
			}
			if site, err := tx.SiteToken(); err != nil || site != siteTok {
				t.Errorf("site GM token %q %v", site, err)
			}
			rec, err := tx.Phase("old", 1)
			if err != nil {
				return err
			}
			if rec.Game != nil || rec.Open == nil || rec.Open.PhaseID != "S1902M" || rec.Open.Locks["england"].By != "eng@x" {
				t.Errorf("history record after the upgrade: game %d bytes, open %+v", len(rec.Game), rec.Open)
			}
			ms, err := tx.DueMail(time.Now(), 10)
			if err != nil {
				return err
			}
			if len(ms) != 1 || !bytes.Equal(ms[0].Raw, queued) {
				t.Errorf("queued mail after the upgrade: %+v", ms)
			}
			if v := u64Of(tx.bucket(bucketMeta).Get([]byte("schema"))); v != SchemaVersion {
				t.Errorf("schema %d", v)
			}
			if tx.bucket(bucketMeta).Get(metaRewrite) != nil {
				t.Error("the store still says it must be rewritten")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Check(); err != nil {
			t.Fatal(err)
		}
	}
	check(db)
	// It plays on: a new mail and a game written again stay sealed.
	if err := db.Update(func(tx *Tx) error {
		g, err := tx.Game("old")
		if err != nil {
			return err
		}
		g.Players = append(g.Players, Player{Address: "new@x", Power: "france", Rank: 2, Token: "newtokenhhhhhhhhhhhhhhhhhh"})
		if err := tx.PutToken("newtokenhhhhhhhhhhhhhhhhhh", TokenRef{Game: "old", Address: "new@x"}); err != nil {
			return err
		}
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if raw, _ := os.ReadFile(path); bytes.Contains(raw, []byte("newtokenhhhhhhhhhhhhhhhhhh")) {
		t.Error("a token written after the upgrade is in the file in the clear")
	}
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check(db)
}

// A rewrite the upgrade asked for and a crash prevented is done at the
// next open: the mark stays until the file is rewritten.
func TestPendingRewriteIsDoneOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("clear-secret-in-a-freed-page")
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put([]byte("x"), secret) }); err != nil {
		t.Fatal(err)
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketMeta).Delete([]byte("x")); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(metaRewrite, []byte{1}) // as the upgrade left it
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if raw, _ := os.ReadFile(path); !bytes.Contains(raw, secret) {
		t.Fatal("the freed page does not hold the secret: the test would prove nothing")
	}
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if raw, _ := os.ReadFile(path); bytes.Contains(raw, secret) {
		t.Error("the pending rewrite was not done")
	}
	if err := db.View(func(tx *Tx) error {
		if tx.bucket(bucketMeta).Get(metaRewrite) != nil {
			t.Error("the rewrite mark stays")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// storeWithGame opens a new store at path and writes one game with a
// player's, an observer's and the GM's token, the site GM token and a
// queued mail; it returns the tokens.
func storeWithGame(t *testing.T, path string) []string {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	toks := []string{"playertokenaaaaaaaaaaaaaaa", "observertokenbbbbbbbbbbbbb", "gmtokencccccccccccccccccccc", "sitetokendddddddddddddddd"}
	err = db.Update(func(tx *Tx) error {
		g := &Game{Name: "g1", Variant: "standard", Status: Active, GMToken: toks[2],
			Players:   []Player{{Address: "p@x", Power: "england", Token: toks[0]}},
			Observers: []Observer{{Address: "o@x", Token: toks[1]}}}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		for i, ref := range []TokenRef{{Game: "g1", Address: "p@x"}, {Game: "g1", Address: "o@x"}, {Game: "g1", GM: true}, {GM: true}} {
			if err := tx.PutToken(toks[i], ref); err != nil {
				return err
			}
		}
		if err := tx.PutSiteToken(toks[3]); err != nil {
			return err
		}
		_, err := tx.EnqueueMail(OutboxMessage{MessageID: "a@x", To: []string{"p@x"}, Raw: []byte("Reply-To: gm+" + toks[0] + "@x\r\n\r\nhi\r\n")})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return toks
}

// A new store's file, and a backup of it, hold no token: the index holds
// hashes, the game records and the outbox hold them sealed. The backup
// opens only with the store's key.
func TestStoreAndBackupHoldNoToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbemd.db")
	toks := storeWithGame(t, path)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := db.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	var hot bytes.Buffer
	if _, err := db.Backup(&hot); err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		return tx.bucket(bucketTokens).ForEach(func(k, v []byte) error {
			if len(k) != sha256.Size || bytes.Contains(v, []byte("token")) {
				t.Errorf("token index entry %x → %s", k, v)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, _ := os.ReadFile(path)
	braw, _ := os.ReadFile(backup)
	for _, tok := range toks {
		for name, b := range map[string][]byte{"store": raw, "backup": braw, "hot copy": hot.Bytes()} {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("the %s holds the token %s", name, tok)
			}
		}
	}

	_, err = Open(backup)
	if !errors.Is(err, ErrKey) || !strings.Contains(err.Error(), KeyPath(backup)+" is missing") {
		t.Fatalf("a backup without its key opened: %v", err)
	}
	if _, err := os.Stat(KeyPath(backup)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening a backup without its key made a key file: %v", err)
	}
	key, _ := os.ReadFile(KeyPath(path))
	if err := os.WriteFile(KeyPath(backup), key, 0o600); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(backup)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	err = cp.View(func(tx *Tx) error {
		g, err := tx.Game("g1")
		if err != nil {
			return err
		}
		site, err := tx.SiteToken()
		if g.Players[0].Token != toks[0] || g.Observers[0].Token != toks[1] || g.GMToken != toks[2] || site != toks[3] || err != nil {
			t.Errorf("the restored copy reads %+v, site token %q %v", g, site, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A store that holds sealed tokens is refused, and left as it is, when its
// key file is missing, belongs to another store, is damaged or can be read
// by others; the message names the key file and what to do. It never makes
// a new key for it.
func TestKeyFileProblemsAreRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbemd.db")
	storeWithGame(t, path)
	other := filepath.Join(t.TempDir(), "pbemd.db")
	storeWithGame(t, other)
	keyPath := KeyPath(path)
	key, _ := os.ReadFile(keyPath)
	otherKey, _ := os.ReadFile(KeyPath(other))
	raw, _ := os.ReadFile(path)

	cases := []struct {
		name  string
		setup func()
		wants []string
	}{
		{"missing", func() { os.Remove(keyPath) },
			[]string{"holds sealed reply tokens, but its key file " + keyPath + " is missing", "does not\nmake a new one"}},
		{"another store's", func() { os.WriteFile(keyPath, otherKey, 0o600) },
			[]string{"key file " + keyPath + " is not the key of store " + path}},
		{"damaged", func() { os.WriteFile(keyPath, key[:20], 0o600) },
			[]string{"key file " + keyPath + " of store " + path + " cannot be used"}},
		{"readable by others", func() { os.WriteFile(keyPath, key, 0o600); os.Chmod(keyPath, 0o644) },
			[]string{"key file " + keyPath + " can be read by other users (mode 0644)", "chmod 600 " + keyPath}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(keyPath)
			c.setup()
			_, err := Open(path)
			if !errors.Is(err, ErrKey) {
				t.Fatalf("opened: %v", err)
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal does not say %q:\n%v", w, err)
				}
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, raw) {
				t.Error("the refused store was changed")
			}
		})
	}
	os.Remove(keyPath)
	if err := os.WriteFile(keyPath, key, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatalf("with its key back the store does not open: %v", err)
	}
	db.Close()
}

// A store that holds nothing sealed yet (no game, token or mail) may get a
// new key when its key file is gone: nothing is lost.
func TestKeyRemadeForAStoreWithNothingSealed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	old, _ := os.ReadFile(KeyPath(path))
	os.Remove(KeyPath(path))
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now, err := os.ReadFile(KeyPath(path))
	if err != nil || bytes.Equal(now, old) {
		t.Fatalf("new key %q (old %q): %v", now, old, err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutSiteToken("x") }); err != nil {
		t.Fatal(err)
	}
}
