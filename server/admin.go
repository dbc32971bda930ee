package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"pbemd/daemon"
	"pbemd/store"
)

// The offline commands talk to a running daemon through its loopback
// endpoint (bbolt allows one process at a time); when no daemon runs they
// open the store themselves.

// errNotRunning means no daemon answered on the endpoint.
var errNotRunning = errors.New("no daemon is running")

func adminRequest(cfg Config, method, path string, body io.Reader) (*http.Response, error) {
	if cfg.HTTP == "" {
		return nil, errNotRunning
	}
	token, err := ReadAdminToken(cfg.DataDir)
	if err != nil {
		return nil, errNotRunning
	}
	req, err := http.NewRequest(method, "http://"+cfg.HTTP+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 5 * time.Minute}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, errNotRunning
		}
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil, fmt.Errorf("daemon: %s", strings.TrimSpace(string(msg)))
	}
	return resp, nil
}

// CreateRequest is a game to create (`pbemd game create`, POST /games).
type CreateRequest = daemon.CreateRequest

// CheckOrders is `pbemd check-orders`: what the variant's engine makes of
// order text at its start position, line by line (daemon.CheckOrders).
func CheckOrders(variant, power string, in io.Reader, out io.Writer) error {
	return daemon.CheckOrders(variant, power, in, out)
}

// AdminCreate creates a game through the running daemon, or in the store
// when none runs (the GM's mail then leaves when the daemon next starts).
func AdminCreate(cfg Config, req CreateRequest) (string, error) {
	body, _ := json.Marshal(req)
	resp, err := adminRequest(cfg, http.MethodPost, "/games", bytes.NewReader(body))
	if err == nil {
		defer resp.Body.Close()
		msg, err := io.ReadAll(resp.Body)
		return strings.TrimSpace(string(msg)), err
	}
	if !errors.Is(err, errNotRunning) {
		return "", err
	}
	// Refuse an unknown variant before the store is opened (and made).
	if refused := LoadMaps(cfg, nil); !slices.Contains(daemon.Variants(), strings.ToLower(req.Variant)) {
		return "", fmt.Errorf("unknown variant %q (known: %s)%s", req.Variant, strings.Join(daemon.Variants(), ", "), refusedNote(refused))
	}
	db, err := openOffline(cfg)
	if err != nil {
		return "", err
	}
	defer db.Close()
	d, err := daemon.New(db, daemon.Options{Address: cfg.Address, GM: cfg.GM, Schedule: cfg.Schedule, Zone: cfg.TimeZone, Now: time.Now, Web: cfg.daemonWeb(nil)})
	if err != nil {
		return "", err
	}
	msg, err := d.CreateAndAnnounce(req)
	return msg + " (the daemon is not running: the GM's mail leaves when it starts)", err
}

// AdminBackup writes a consistent copy of the store to path.
func AdminBackup(cfg Config, path string) (string, error) {
	resp, err := adminRequest(cfg, http.MethodGet, "/backup", nil)
	if err == nil {
		defer resp.Body.Close()
		tmp := path + ".partial"
		f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return "", err
		}
		n, err := io.Copy(f, resp.Body)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && n == 0 {
			err = errors.New("the daemon sent an empty copy")
		}
		if err != nil {
			os.Remove(tmp)
			return "", err
		}
		if err := checkStoreFile(tmp); err != nil {
			os.Remove(tmp)
			return "", fmt.Errorf("the copy does not open as a store: %w", err)
		}
		return fmt.Sprintf("hot copy of %d bytes from the running daemon; %s", n, backupKeyNote(cfg)), os.Rename(tmp, path)
	}
	if !errors.Is(err, errNotRunning) {
		return "", err
	}
	db, err := openOffline(cfg)
	if err != nil {
		return "", err
	}
	defer db.Close()
	return "copied from the store file; no daemon was running; " + backupKeyNote(cfg), db.BackupFile(path)
}

// backupKeyNote says what a backup needs besides itself.
func backupKeyNote(cfg Config) string {
	return "its reply tokens are sealed: restoring it needs the key file " + store.KeyPath(cfg.DBPath()) + " too"
}

// checkStoreFile checks a copy without opening it as a store: a copy
// opens only with the store's key, which is not copied (store.KeyPath).
func checkStoreFile(path string) error {
	r, err := store.CheckFile(path, store.StartValues)
	if err != nil {
		return err
	}
	if !r.OK() {
		return &store.DamagedError{Path: path, Report: r}
	}
	return nil
}

func openOffline(cfg Config) (*store.DB, error) {
	// A game may be made before the daemon first ran: the data folder is
	// made (or tightened) as serve would.
	if err := prepareDataDir(cfg.DataDir, slog.New(slog.DiscardHandler)); err != nil {
		return nil, err
	}
	db, err := store.Open(cfg.DBPath())
	if err != nil {
		return nil, fmt.Errorf("%w (is the daemon running with its http endpoint off? it holds the store)", err)
	}
	return db, nil
}

// refusedNote adds the variant files refused at start to a message.
func refusedNote(refused []string) string {
	if len(refused) == 0 {
		return ""
	}
	return "\n" + strings.Join(refused, "\n")
}
