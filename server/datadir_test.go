package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

// embeddedConfig is the default config on a data folder of the test's,
// with every listener on port 0.
func embeddedConfig(dir string) Config {
	cfg := DefaultConfig()
	cfg.DataDir = dir
	cfg.HTTP = "127.0.0.1:0"
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	return cfg
}

// runBriefly starts the server, lets it write what it writes at start (the
// admin token, the mail server's file, the welcome mail), and stops it.
func runBriefly(t *testing.T, cfg Config, log *slog.Logger) {
	t.Helper()
	srv, err := Open(cfg, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, AdminTokenFile)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not write its admin token")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
}

// private checks that dir is 0700 and every file pbemd left in it 0600.
func private(t *testing.T, dir string) {
	t.Helper()
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("data folder is mode %04o, want 0700", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) < 3 {
		t.Errorf("data folder holds only %d files: the server did not run", len(entries))
	}
	for _, e := range entries {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s is mode %04o, want 0600", e.Name(), info.Mode().Perm())
		}
	}
}

// An existing data folder of mode 0755, with files an older pbemd left
// readable by everyone, is made private at start: the folder 0700, each
// file 0600, and the log says so.
func TestExistingDataFolderIsMadePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) // whatever the umask
	db, err := store.Open(filepath.Join(dir, "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for name, text := range map[string]string{AdminTokenFile: "an-old-admin-token-of-26-chars\n", "notes.txt": "the GM's own notes\n"} {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	for _, name := range []string{"pbemd.db", AdminTokenFile, "notes.txt"} {
		os.Chmod(filepath.Join(dir, name), 0o644)
	}
	var logs strings.Builder
	runBriefly(t, embeddedConfig(dir), slog.New(slog.NewTextHandler(&logs, nil)))
	private(t, dir)
	for _, want := range []string{"data folder was readable by others: made it private", "file=" + filepath.Join(dir, AdminTokenFile) + " was=0644 now=0600"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, logs.String())
		}
	}
}

// A new data folder is private from the start, and so is every file pbemd
// writes in it, whatever the umask.
func TestNewDataFolderIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	runBriefly(t, embeddedConfig(dir), slog.New(slog.DiscardHandler))
	private(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "mail.db")); err != nil {
		t.Errorf("the embedded server wrote no mail.db: %v", err)
	}
}

// The embedded mail server's file is checked before the server opens it:
// empty or damaged, it is refused with a message naming it and the way
// back, instead of a new empty file (every mailbox lost) or a crash.
func TestDamagedMailFileIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	cfg := embeddedConfig(dir)
	cfg.HTTP = ""
	// A real mail.db: the server's own, with a mail in it.
	srv, err := Open(cfg, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Mail.Deliver("alice@pbemd.localhost", []string{"gm@pbemd.localhost"}, []byte("From: alice@pbemd.localhost\r\nSubject: hi\r\n\r\n"+strings.Repeat("LIST\r\n", 2000))); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	path := filepath.Join(dir, "mail.db")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := store.CheckFile(path, store.Pages)
	if err != nil || !r.OK() {
		t.Fatalf("the mail server's own file does not verify: %v %v", err, r)
	}
	end := int64(r.Pages) * int64(r.PageSize)
	for name, raw := range map[string][]byte{"empty": nil, "cut short": good[:end-1], "a page zeroed": zeroPage(good, r.PageSize, r.Pages-1)} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			srv, err := Open(cfg, slog.New(slog.DiscardHandler), nil)
			if err == nil {
				srv.Close()
				t.Fatal("a damaged mail.db was opened")
			}
			for _, want := range []string{path, "mv " + path + " " + path + ".damaged", "not games"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the message does not say %q:\n%v", want, err)
				}
			}
			after, _ := os.ReadFile(path)
			if len(after) != len(raw) {
				t.Errorf("the damaged file was changed: %d bytes, was %d", len(after), len(raw))
			}
		})
	}
}

// zeroPage returns a copy of raw with the last data page before hwm that
// is a tree page zeroed.
func zeroPage(raw []byte, ps int, last uint64) []byte {
	out := append([]byte(nil), raw...)
	for id := int(last); id >= 2; id-- {
		p := out[id*ps : (id+1)*ps]
		if flags := uint16(p[8]) | uint16(p[9])<<8; flags == 0x02 && p[10] > 1 {
			clear(p)
			return out
		}
	}
	return out
}

// A store key readable by others is not quietly tightened with the rest
// of the data folder: it may have leaked, so pbemd refuses to start and
// says what to do.
func TestStoreKeyReadableByOthersIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	runBriefly(t, embeddedConfig(dir), slog.New(slog.DiscardHandler))
	key := filepath.Join(dir, "pbemd.key")
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(embeddedConfig(dir), slog.New(slog.DiscardHandler), nil)
	if err == nil || !strings.Contains(err.Error(), "key file "+key+" can be read by other users (mode 0644)") || !strings.Contains(err.Error(), "chmod 600 "+key) {
		t.Fatalf("a readable store key: %v", err)
	}
}
