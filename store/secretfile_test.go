package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealedFile(t *testing.T) {
	dir := t.TempDir()
	db, path := filepath.Join(dir, "pbemd.db"), filepath.Join(dir, "secret")
	if _, err := ReadSealedFile(db, path, "k"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if err := WriteSealedFile(db, path, "k", []byte("refresh-token-1")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "refresh-token-1") {
		t.Error("the file holds the secret in clear")
	}
	if got, err := ReadSealedFile(db, path, "k"); err != nil || string(got) != "refresh-token-1" {
		t.Fatalf("read back %q, %v", got, err)
	}
	if _, err := ReadSealedFile(db, path, "other kind"); err == nil {
		t.Error("a secret of one kind opened as another")
	}
	// the store made later keeps the key the file was sealed with
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got, err := ReadSealedFile(db, path, "k"); err != nil || string(got) != "refresh-token-1" {
		t.Fatalf("after the store opened: %q, %v", got, err)
	}
	// a store without its key: refused with what to do
	other := filepath.Join(t.TempDir(), "pbemd.db")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteSealedFile(other, filepath.Join(filepath.Dir(other), "s"), "k", []byte("x")); err == nil || !strings.Contains(err.Error(), "start pbemd serve once") {
		t.Errorf("store without a key: %v", err)
	}
}
