package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pbemd/store"
)

// AdminTokenFile is where serve writes the token that the offline commands
// (`pbemd backup`, `pbemd game create`) present to the running daemon's
// loopback endpoint. It lives in the data folder with mode 0600.
const AdminTokenFile = "admin.token"

// Handler serves the loopback endpoint:
//
//	GET  /healthz         200 "ok" when the store answers and can write and
//	                      mail moves; else 503 "failing" and one line per
//	                      problem (store cannot write, IMAP login refused,
//	                      SMTP unreachable, mail waiting to be retried)
//	GET  /metrics         Prometheus text format
//	GET  /backup          a consistent copy of the store (admin token)
//	POST /games           create a game: JSON {name, variant, gm, options} (admin token)
//
// The admin token comes in the Authorization header ("Bearer <token>").
func (s *Server) Handler(adminToken string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := s.DB.View(func(tx *store.Tx) error { tx.Meta("schema"); return nil }); err != nil {
			http.Error(w, "store: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if problems := s.healthProblems(); len(problems) > 0 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "failing")
			for _, p := range problems {
				fmt.Fprintln(w, p)
			}
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		s.writeMetrics(w)
	})
	admin := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			if adminToken == "" || subtle.ConstantTimeCompare([]byte(got), []byte(adminToken)) != 1 {
				http.Error(w, "admin token required", http.StatusUnauthorized)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /backup", admin(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		if _, err := s.DB.Backup(w); err != nil {
			s.log.Error("backup over http", "err", err)
		}
	}))
	mux.HandleFunc("POST /games", admin(func(w http.ResponseWriter, r *http.Request) {
		var req CreateRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
			http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
			return
		}
		msg, err := s.Daemon.CreateAndAnnounce(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		fmt.Fprintln(w, msg)
	}))
	return mux
}

// healthProblems lists what is wrong now: the store's last commit failed,
// or mail does not move (mailProblems).
func (s *Server) healthProblems() []string {
	out := append([]string(nil), s.maps...) // variant files refused at start (maps.go)
	if f := s.DB.LastWriteFailure(); f != nil {
		out = append(out, fmt.Sprintf("store: %s cannot be written since %s: %v", s.DB.Path(), f.At.UTC().Format(time.RFC3339), f.Err))
	}
	return append(out, s.mailProblems()...)
}

// WriteAdminToken creates (or reuses) the admin token file in dataDir.
func WriteAdminToken(dataDir string) (string, error) {
	path := filepath.Join(dataDir, AdminTokenFile)
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 26 {
		return strings.TrimSpace(string(b)), nil
	}
	tok := strings.ToLower(rand.Text()) // as reply tokens: redacted from logs alike
	if err := os.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", err
	}
	return tok, nil
}

// ReadAdminToken reads the admin token file of a data folder.
func ReadAdminToken(dataDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, AdminTokenFile))
	return strings.TrimSpace(string(b)), err
}
