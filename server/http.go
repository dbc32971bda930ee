package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net"
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
//	GET  /healthz         200 "ok" when the store answers and can write,
//	                      mail moves and deadlines are processed; else 503
//	                      "failing" and one line per problem (store cannot
//	                      write, a deadline check running for over a
//	                      minute, IMAP login refused, SMTP unreachable,
//	                      mail waiting to be retried)
//	GET  /metrics         Prometheus text format
//	GET  /backup          a consistent copy of the store (admin token)
//	POST /games           create a game: JSON {name, variant, gm, options} (admin token)
//
// The admin token comes in the Authorization header ("Bearer <token>").
// Every request must name a loopback host or one of http_hosts in its
// Host header (allowedHost); any other gets 421 Misdirected Request.
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
	mux.HandleFunc("POST /web", admin(func(w http.ResponseWriter, r *http.Request) {
		msg, err := s.buildWeb(r.URL.Query().Get("game"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		fmt.Fprintln(w, msg)
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowedHost(r.Host, s.cfg.HTTPHosts) {
			http.Error(w, "misdirected request: this endpoint answers to localhost, loopback addresses and the config's http_hosts only", http.StatusMisdirectedRequest)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// allowedHost reports whether a request's Host header (host or host:port)
// names this machine's loopback (localhost, 127.0.0.0/8, ::1) or one of
// the configured names, in any case. The endpoint listens on loopback
// only, but a web page whose name an attacker points at 127.0.0.1 (DNS
// rebinding) reaches it too, with its own name in Host: that one is
// refused.
func allowedHost(host string, names []string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	if ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(strings.TrimSuffix(n, "."), host) {
			return true
		}
	}
	return false
}

// LongTick is how long one deadline check (Daemon.Tick) may run before
// /healthz calls it a failure: one usually takes well under a second, a
// burst of thousands of deadlines some seconds; while one runs no other
// deadline and no GM's PROCESS is processed.
const LongTick = time.Minute

// healthProblems lists what is wrong now: the store's last commit failed,
// the deadline check in progress has run longer than LongTick, or mail
// does not move (mailProblems).
func (s *Server) healthProblems() []string {
	out := append([]string(nil), s.maps...) // variant files refused at start (maps.go)
	if f := s.DB.LastWriteFailure(); f != nil {
		out = append(out, fmt.Sprintf("store: %s cannot be written since %s: %v", s.DB.Path(), f.At.UTC().Format(time.RFC3339), f.Err))
	}
	if since, ok := s.Daemon.TickRunning(); ok {
		if d := s.now().Sub(since); d > LongTick {
			out = append(out, fmt.Sprintf("tick: the deadline check has run for %s (since %s): no deadline or PROCESS is processed until it ends", d.Round(time.Second), since.Format(time.RFC3339)))
		}
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
