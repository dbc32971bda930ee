package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbemd/demo"
	"pbemd/internal/skipnote"
	"pbemd/store"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// binary builds cmd/pbemd once per test run: these tests run what ships.
func binary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "pbemd-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "pbemd")
		out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	if os.Getenv("PBEMD_REALMAIL") != "1" {
		skipnote.Say("pbemd/cmd/pbemd: TestRealMailPageRoundTrip (docs/real-mail.md against Dovecot + Postfix) is skipped: set PBEMD_REALMAIL=1 to run it (root, after .ci/mail/install.sh)")
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// site is a data folder and a config for the real binary: the embedded
// mail server on port 0, its mailboxes in data/mail.db.
type site struct {
	dir, data, config, db string
}

func newSite(t *testing.T, http string) site {
	t.Helper()
	dir := t.TempDir()
	s := site{dir: dir, data: filepath.Join(dir, "data"), config: filepath.Join(dir, "pbemd.toml")}
	s.db = filepath.Join(s.data, "pbemd.db")
	cfg := fmt.Sprintf("data_dir = %q\nhttp = %q\n[mailserver]\nimap_addr = \"127.0.0.1:0\"\nsmtp_addr = \"127.0.0.1:0\"\n", s.data, http)
	if err := os.WriteFile(s.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.data, 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs the binary to its end (at most a minute) and returns its
// exit code and what it wrote.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("pbemd %v: %v", args, err)
	}
	return code, out.String(), errb.String()
}

var realStore struct {
	once     sync.Once
	raw, key []byte // the store file and its key file
	err      error
}

// realStoreBytes is the store a real game left: the demo plays a year of
// Ancient Mediterranean through the daemon and the embedded mail server.
func realStoreBytes(t *testing.T) []byte {
	t.Helper()
	realStore.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbemd-real-")
		if err != nil {
			realStore.err = err
			return
		}
		defer os.RemoveAll(dir)
		if _, err := demo.Run(context.Background(), demo.Options{Seed: 1, Years: 1, DataDir: dir}); err != nil {
			realStore.err = err
			return
		}
		if realStore.raw, realStore.err = os.ReadFile(filepath.Join(dir, "pbemd.db")); realStore.err == nil {
			realStore.key, realStore.err = os.ReadFile(filepath.Join(dir, "pbemd.key"))
		}
	})
	if realStore.err != nil {
		t.Fatal(realStore.err)
	}
	return bytes.Clone(realStore.raw)
}

// writeRealStore puts raw (the real store, or a damaged copy of it) and
// the real store's key into the site's data folder.
func writeRealStore(t *testing.T, s site, raw []byte) {
	t.Helper()
	if err := os.WriteFile(s.db, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.data, "pbemd.key"), realStore.key, 0o600); err != nil {
		t.Fatal(err)
	}
}

// leafPage finds a page of the store that holds data now (a leaf with
// entries), as bbolt sees it.
func leafPage(t *testing.T, raw []byte) (id, pageSize int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scan.db")
	os.WriteFile(path, raw, 0o600)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		for i := 2; ; i++ {
			p, err := tx.Page(i)
			if err != nil || p == nil {
				return err
			}
			if p.Type == "leaf" && p.Count > 3 {
				id = i
			}
		}
	})
	if id == 0 {
		t.Fatal("no leaf page in the real store")
	}
	return id, db.Info().PageSize
}

// The real binary refuses a damaged store: it exits non-zero with a message
// that names the file and the way back, never a panic, and leaves the file
// as it was; pbemd check finds the same damage and says the same way back.
func TestBinaryRefusesDamagedStore(t *testing.T) {
	raw := realStoreBytes(t)
	pg, ps := leafPage(t, raw)
	cases := map[string][]byte{
		"truncated":   raw[:len(raw)/3],
		"empty":       {},
		"page damage": bytes.Clone(raw),
	}
	for i := range 64 { // a run of noise over the page's element table
		cases["page damage"][pg*ps+16+i] ^= byte(0x5a + i)
	}
	for name, damaged := range cases {
		t.Run(name, func(t *testing.T) {
			s := newSite(t, "")
			writeRealStore(t, s, damaged)
			code, stdout, stderr := run(t, "serve", "-config", s.config)
			if code != 1 {
				t.Fatalf("pbemd serve exited %d on a %s store:\n%s%s", code, name, stdout, stderr)
			}
			for _, want := range []string{"pbemd serve: store " + s.db, "pbemd backup", "mv " + s.db + " " + s.db + ".damaged", "pbemd check " + s.db} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr)
				}
			}
			for _, crash := range []string{"panic", "goroutine ", "fatal error", "SIGBUS"} {
				if strings.Contains(stderr, crash) {
					t.Errorf("pbemd crashed (%q):\n%s", crash, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("pbemd printed a banner for a store it refused:\n%s", stdout)
			}
			if after, _ := os.ReadFile(s.db); !bytes.Equal(after, damaged) {
				t.Errorf("the damaged store was changed (%d bytes, was %d)", len(after), len(damaged))
			}

			code, stdout, stderr = run(t, "check", "-config", s.config)
			if code != 1 || !strings.Contains(stdout, s.db+": DAMAGED") || !strings.Contains(stdout, "pbemd backup") || !strings.Contains(stderr, "damaged") {
				t.Errorf("pbemd check exited %d:\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// pbemd check says a sound store and the embedded server's file are sound
// (exit 0), and checks a file given by name, such as a backup.
func TestBinaryCheckSoundStore(t *testing.T) {
	s := newSite(t, "")
	writeRealStore(t, s, realStoreBytes(t))
	// One start and stop writes the mail server's file too.
	serveUntil(t, s, syscall.SIGTERM)
	code, stdout, stderr := run(t, "check", "-config", s.config)
	if code != 0 || !strings.Contains(stdout, s.db+": sound") || !strings.Contains(stdout, filepath.Join(s.data, "mail.db")+": sound") {
		t.Fatalf("pbemd check exited %d:\n%s%s", code, stdout, stderr)
	}
	backup := filepath.Join(s.dir, "backup.db")
	if code, out, errs := run(t, "backup", "-config", s.config, backup); code != 0 {
		t.Fatalf("pbemd backup: %s%s", out, errs)
	}
	code, stdout, stderr = run(t, "check", backup)
	if code != 0 || !strings.Contains(stdout, backup+": sound") || strings.Contains(stdout, "mail.db") {
		t.Fatalf("pbemd check FILE exited %d:\n%s%s", code, stdout, stderr)
	}
}

// While the daemon runs, pbemd check checks a hot copy of its store (it
// cannot read a file the daemon is writing).
func TestBinaryCheckWhileServing(t *testing.T) {
	s := newSite(t, freePort(t))
	cmd, out := startServe(t, s)
	code, stdout, stderr := run(t, "check", "-config", s.config)
	if code != 1 || !strings.Contains(stdout, s.db+": sound") || !strings.Contains(stdout, "(a hot copy from the running daemon)") ||
		!strings.Contains(stdout, "mail.db: cannot check") {
		t.Errorf("pbemd check beside a running daemon exited %d:\n%s%s", code, stdout, stderr)
	}
	stopServe(t, cmd, out, syscall.SIGTERM)
}

// lockedBuffer is one buffer for both of a process's streams.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe starts pbemd serve with stdout and stderr in one buffer, as a
// terminal shows them, and waits until it serves.
func startServe(t *testing.T, s site) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	out := &lockedBuffer{}
	cmd := exec.Command(binary(t), "serve", "-config", s.config)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), `msg="pbemd serving"`) {
		if time.Now().After(deadline) {
			t.Fatalf("pbemd serve did not start:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, out
}

func stopServe(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, sig syscall.Signal) string {
	t.Helper()
	cmd.Process.Signal(sig)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("pbemd serve after %v: %v\n%s", sig, err, out)
	}
	return out.String()
}

func serveUntil(t *testing.T, s site, sig syscall.Signal) string {
	t.Helper()
	cmd, out := startServe(t, s)
	return stopServe(t, cmd, out, sig)
}

// On a terminal that shows both streams the banner is one block, before
// any log line (the start-up log waits for it), and a SIGINT or SIGTERM is
// logged when shutdown begins and when it is complete.
func TestBinaryBannerIsOneBlockAndShutdownIsLogged(t *testing.T) {
	for sig, name := range map[syscall.Signal]string{syscall.SIGTERM: "terminated", syscall.SIGINT: "interrupt"} {
		t.Run(name, func(t *testing.T) {
			s := newSite(t, "")
			text := serveUntil(t, s, sig)
			lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
			banner := 0
			for banner < len(lines) && !strings.HasPrefix(lines[banner], "time=") {
				banner++
			}
			if banner < 4 || !strings.HasPrefix(lines[0], "embedded mail server: IMAP 127.0.0.1:") || !strings.HasPrefix(lines[banner-1], "state: "+s.db) {
				t.Fatalf("the output does not begin with the banner:\n%s", text)
			}
			for i, l := range lines[banner:] {
				if !strings.HasPrefix(l, "time=") {
					t.Errorf("line %d is neither banner nor log, or the banner is split: %q\n%s", banner+i+1, l, text)
				}
			}
			began := strings.Index(text, `msg="shutdown began`)
			done := strings.Index(text, `msg="shutdown complete"`)
			if began < 0 || done < began || !strings.Contains(text[began:], `signal="`+name+` signal received"`) {
				t.Errorf("shutdown is not logged from beginning to end:\n%s", text)
			}
			if !strings.Contains(text, `msg="embedded mail server listening"`) {
				t.Errorf("the log held until the banner was lost:\n%s", text)
			}
		})
	}
}

// pbemd backup copies the store only: neither the store a real game left
// nor its backup holds a reply token in the clear (any player's,
// observer's, the game GM's or the site GM's), the command says the key is
// needed to restore, and the copy opens only with the store's key.
func TestBinaryBackupHoldsNoToken(t *testing.T) {
	s := newSite(t, "")
	writeRealStore(t, s, realStoreBytes(t))
	backup := filepath.Join(s.dir, "backup.db")
	code, stdout, stderr := run(t, "backup", "-config", s.config, backup)
	if code != 0 || !strings.Contains(stdout, "restoring it needs the key file "+filepath.Join(s.data, "pbemd.key")+" too") {
		t.Fatalf("pbemd backup exited %d:\n%s%s", code, stdout, stderr)
	}
	db, err := store.Open(s.db)
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	err = db.View(func(tx *store.Tx) error {
		site, err := tx.SiteToken()
		tokens = append(tokens, site)
		if err != nil {
			return err
		}
		return tx.EachGame(func(g *store.Game) error {
			tokens = append(tokens, g.GMToken)
			for _, p := range g.Players {
				tokens = append(tokens, p.Token)
			}
			for _, o := range g.Observers {
				tokens = append(tokens, o.Token)
			}
			return nil
		})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) < 7 || slices.Contains(tokens, "") {
		t.Fatalf("the real store has tokens %q: want the site GM's, the GM's and five players'", tokens)
	}
	for _, file := range []string{s.db, backup} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range tokens {
			if bytes.Contains(raw, []byte(tok)) {
				t.Errorf("%s holds the token %s", file, tok)
			}
		}
	}
	if _, err := store.Open(backup); !errors.Is(err, store.ErrKey) {
		t.Errorf("the backup opened without its key: %v", err)
	}
	// The key lost, pbemd serve refuses the store, names the key file and
	// makes no new key.
	key := filepath.Join(s.data, "pbemd.key")
	os.Remove(key)
	code, stdout, stderr = run(t, "serve", "-config", s.config)
	if code != 1 || !strings.Contains(stderr, "store "+s.db+" holds sealed reply tokens, but its key file "+key+" is missing") {
		t.Errorf("pbemd serve without the store's key exited %d:\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(key); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pbemd serve made a new key for a store that had one: %v", err)
	}
}
