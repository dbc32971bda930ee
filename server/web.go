package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"pbemd/daemon"
	"pbemd/web"
)

// WebConfig is the [web] table: the games' pages (package web).
type WebConfig struct {
	Dir     string   `toml:"dir"`      // the pages' folder, relative to data_dir
	Default string   `toml:"default"`  // a new game's web=: public | unlisted | off
	BaseURL string   `toml:"base_url"` // where Dir is published: results mails link to it
	Listen  string   `toml:"listen"`   // pbemd serve serves Dir here; "": off
	Hosts   []string `toml:"hosts"`    // Host names the page server answers to besides loopback
}

func (w *WebConfig) validate() error {
	if w.Dir == "" {
		return errors.New("[web] dir is empty (the default is \"web\", in data_dir)")
	}
	switch w.Default {
	case "public", "unlisted", "off":
	default:
		return fmt.Errorf("[web] default %q is not public, unlisted or off", w.Default)
	}
	if w.BaseURL != "" {
		u, err := url.Parse(w.BaseURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("[web] base_url %q: give the address the pages' folder is published at, e.g. \"https://games.example.org/pbemd/\"", w.BaseURL)
		}
	}
	if w.Listen != "" {
		if _, _, err := net.SplitHostPort(w.Listen); err != nil {
			return fmt.Errorf("[web] listen %q is not host:port: %w", w.Listen, err)
		}
	}
	for _, h := range w.Hosts {
		if h == "" || strings.ContainsAny(h, " /\r\n[]") || strings.Contains(h, ":") && net.ParseIP(h) == nil {
			return fmt.Errorf("[web] hosts %q: give a host name or address as a browser sends it in Host, without a port (e.g. \"games.example.org\")", h)
		}
	}
	return nil
}

// WebDir is the pages' folder.
func (c *Config) WebDir() string {
	if filepath.IsAbs(c.Web.Dir) {
		return c.Web.Dir
	}
	return filepath.Join(c.DataDir, c.Web.Dir)
}

// webOptions are the page builder's. A folder inside the data folder is
// private as the data folder is (pbemd serves it itself, [web] listen);
// one elsewhere is readable by a web server of its own.
func (c *Config) webOptions(log *slog.Logger) web.Options {
	rel, err := filepath.Rel(c.DataDir, c.WebDir())
	inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	return web.Options{Dir: c.WebDir(), Default: c.Web.Default, Results: daemon.PublicResults, Private: inside, Logger: log}
}

// daemonWeb is what the daemon knows of the pages; changed is the page
// builder's queue (nil: none yet).
func (c *Config) daemonWeb(changed func([]string)) daemon.Web {
	base := c.Web.BaseURL
	if base != "" && !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return daemon.Web{Default: c.Web.Default, BaseURL: base, Changed: changed}
}

// NewWebBuilder is the builder of the store's pages as cfg places them.
func (s *Server) NewWebBuilder() (*web.Builder, error) {
	return web.New(s.DB, s.cfg.webOptions(s.log))
}

// listenWeb takes the page server's address ([web] listen), so that
// WebAddr is known when Open returns.
func (s *Server) listenWeb() error {
	if s.cfg.Web.Listen == "" {
		return nil
	}
	ln, err := net.Listen("tcp", s.cfg.Web.Listen)
	if err != nil {
		return fmt.Errorf("[web] listen: %w", err)
	}
	s.webLn, s.WebAddr = ln, ln.Addr().String()
	return nil
}

// runWeb builds the pages as games change (off the daemon's path) and,
// when [web] listen is set, serves them, until ctx ends.
func (s *Server) runWeb(ctx context.Context, q *web.Queue, errc chan<- error) func() {
	q.Busy = func() bool { _, ticking := s.Daemon.TickRunning(); return ticking } // results first
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.Run(ctx)
	}()
	var srv *http.Server
	if ln := s.webLn; ln != nil {
		s.webLn = nil
		hosts := s.cfg.Web.Hosts
		srv = &http.Server{
			Handler:           web.Handler(s.cfg.WebDir(), func(h string) bool { return allowedHost(h, hosts) }),
			ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: time.Minute,
			MaxHeaderBytes: 16 << 10,
		}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("web pages: %w", err)
			}
		}()
	}
	return func() {
		if srv != nil {
			sc, c := context.WithTimeout(context.Background(), 5*time.Second)
			defer c()
			srv.Shutdown(sc)
		}
		<-done
	}
}

// buildWeb writes the pages of one game ("": of every game) and the index.
func (s *Server) buildWeb(game string) (string, error) {
	return buildWeb(s.builder, s.cfg, game)
}

func buildWeb(b *web.Builder, cfg Config, game string) (string, error) {
	if game == "" {
		if err := b.All(); err != nil {
			return "", err
		}
		return "wrote the pages of every game with pages, and the index, in " + cfg.WebDir(), nil
	}
	if err := b.Game(game); err != nil {
		return "", err
	}
	if err := b.Index(); err != nil {
		return "", err
	}
	return "wrote the pages of " + game + " (if it has pages: web=public or unlisted) and the index, in " + cfg.WebDir(), nil
}

// AdminWebBuild is `pbemd web build [GAME]`: through the running daemon,
// or from the store when none runs.
func AdminWebBuild(cfg Config, game string) (string, error) {
	resp, err := adminRequest(cfg, http.MethodPost, "/web?game="+url.QueryEscape(game), nil)
	if err == nil {
		defer resp.Body.Close()
		msg, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = errors.New(strings.TrimSpace(string(msg)))
		}
		return strings.TrimSpace(string(msg)), err
	}
	if !errors.Is(err, errNotRunning) {
		return "", err
	}
	LoadMaps(cfg, nil)
	db, err := openOffline(cfg)
	if err != nil {
		return "", err
	}
	defer db.Close()
	b, err := web.New(db, cfg.webOptions(nil))
	if err != nil {
		return "", err
	}
	return buildWeb(b, cfg, game)
}
