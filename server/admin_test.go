package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbemd/store"
	"pbemd/store/storetest"
)

// The offline commands reach a running daemon through its loopback
// endpoint (bbolt admits one process): game creation and a hot backup, and
// fall back to the store file when no daemon runs.
func TestAdminEndpointCreateBackupHealthMetrics(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = addr
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr, cfg.Mailserver.StateFile = "127.0.0.1:0", "127.0.0.1:0", ""
	srv, err := Open(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		srv.Close()
	}()
	waitHTTP(t, "http://"+addr+"/healthz")

	msg, err := AdminCreate(cfg, CreateRequest{Name: "adm1", Variant: "standard", Options: map[string]string{"pace": "fast"}})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, msg, "game adm1 (standard) created")
	if _, err := AdminCreate(cfg, CreateRequest{Name: "adm2", Variant: "chess"}); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Fatalf("unknown variant: %v", err)
	}
	// Without the admin token the endpoint refuses.
	resp, err := http.Get("http://" + addr + "/backup")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("backup without token: %s", resp.Status)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	how, err := AdminBackup(cfg, copyPath)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, how, "hot copy")
	// The copy opens only with the store's key, which it does not hold.
	if _, err := store.Open(copyPath); !errors.Is(err, store.ErrKey) || !strings.Contains(err.Error(), store.KeyPath(copyPath)+" is missing") {
		t.Fatalf("the hot copy opened without its key: %v", err)
	}
	key, err := os.ReadFile(store.KeyPath(cfg.DBPath()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.KeyPath(copyPath), key, 0o600); err != nil {
		t.Fatal(err)
	}
	db := storetest.OpenFile(t, copyPath)
	var g *store.Game
	err = db.View(func(tx *store.Tx) (err error) { g, err = tx.Game("adm1"); return err })
	if err != nil || g.Options.Pace != "fast" {
		t.Fatalf("the hot copy lacks the game: %v %+v", err, g)
	}
	body := get(t, "http://"+addr+"/metrics")
	mustContain(t, body, "pbemd_mails_queued_total", "pbemd_outbox_depth", "pbemd_phases_processed_total", "pbemd_pictures_drawn_total")
}

func TestAdminFallsBackToTheStoreFile(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = "127.0.0.1:1" // nothing listens there
	db, err := store.Open(cfg.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := WriteAdminToken(cfg.DataDir); err != nil {
		t.Fatal(err)
	}
	msg, err := AdminCreate(cfg, CreateRequest{Name: "off1", Variant: "ancientmed"})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, msg, "not running")
	how, err := AdminBackup(cfg, filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, how, "no daemon was running")
}

func waitHTTP(t *testing.T, url string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			return
		}
		sleepBriefly()
	}
	t.Fatalf("%s never answered", url)
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func sleepBriefly() { time.Sleep(25 * time.Millisecond) }

// Data files hold tokens, password hashes and mail: only their owner may
// read them.
func TestDataFilesArePrivate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = filepath.Join(t.TempDir(), "data")
	cfg.HTTP = ""
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	srv, err := Open(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := WriteAdminToken(cfg.DataDir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{"": 0o700, "pbemd.db": 0o600, "mail.db": 0o600, AdminTokenFile: 0o600} {
		fi, err := os.Stat(filepath.Join(cfg.DataDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", filepath.Join(cfg.DataDir, name), got, want)
		}
	}
}
