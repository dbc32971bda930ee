package server

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"pbemd/store"
)

// prepareDataDir makes the data folder (mode 0700) or tightens an existing
// one to 0700, and every file in it to 0600: the store holds credentials
// and the folder the admin token, and both were once made 0755/0644. When
// pbemd may not change a mode (the folder is someone else's), it refuses
// to start and says what to do.
func prepareDataDir(dir string, log *slog.Logger) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data folder %s: %w", dir, err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data folder %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("data folder %s is not a folder", dir)
	}
	if mode := st.Mode().Perm(); mode&0o077 != 0 {
		if err := os.Chmod(dir, mode&0o700|0o700); err != nil {
			return fmt.Errorf("data folder %s is mode %04o: others may read the store and the admin token, and pbemd cannot make it private (%w); run chmod 700 %s, or set data_dir to a folder of your own", dir, mode, err, dir)
		}
		log.Warn("data folder was readable by others: made it private", "dir", dir, "was", fmt.Sprintf("%04o", mode), "now", "0700")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("data folder %s: %w", dir, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() { // symlinks and folders are the owner's business
			continue
		}
		if e.Name() == MailPasswordFile || e.Name() == filepath.Base(store.KeyPath("pbemd.db")) {
			// Passwords or a store key others could read may have
			// leaked: the mail server and the store refuse those files
			// and say what to do, rather than having them quietly
			// tightened here.
			continue
		}
		path := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil {
			continue // gone since ReadDir
		}
		if mode := info.Mode().Perm(); mode&0o077 != 0 {
			if err := os.Chmod(path, mode&0o600|0o600); err != nil {
				return fmt.Errorf("%s is mode %04o and pbemd cannot make it private (%w); run chmod 600 %s", path, mode, err, path)
			}
			log.Warn("file in the data folder was readable by others: made it private", "file", path, "was", fmt.Sprintf("%04o", mode), "now", "0600")
		}
	}
	return nil
}

// mailFileHint is the way back from a damaged mail server file.
func mailFileHint(path string) string {
	return fmt.Sprintf("It holds only the embedded mail server's mailboxes, not games (pbemd backup does not copy it). To start with empty mailboxes, move it aside (mv %[1]s %[1]s.damaged) and start again: mail in them that pbemd had not read yet is lost.", path)
}

// checkMailFile refuses an embedded mail server file that is empty or
// damaged before the server opens it (bbolt would start afresh on an empty
// one, or fault on a truncated one). A missing file is a first start.
func checkMailFile(path string) error {
	if path == "" {
		return nil
	}
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("embedded mail server file: %w", err)
	}
	way := mailFileHint(path)
	if st.Size() == 0 {
		return fmt.Errorf("the embedded mail server's file %s exists but is empty (0 bytes): it was cut off or overwritten, and starting afresh on it would silently lose every mailbox.\n%s", path, way)
	}
	r, err := store.CheckFile(path, store.Pages)
	if err != nil {
		return fmt.Errorf("check the embedded mail server's file: %w", err)
	}
	if !r.OK() {
		return fmt.Errorf("the embedded mail server's file %s is damaged: %s.\n%s", path, strings.Join(r.Problems, "; "), way)
	}
	return nil
}
