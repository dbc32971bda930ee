package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/web"
)

// The handler serves the folder's pages and nothing else: no path out of
// it, plain or encoded, nor through a link; no dot file; no listing; GET
// and HEAD only; 421 for a Host that is not allowed; every answer with the
// strict Content-Security-Policy, and nothing of the request written back.
func TestHandlerServesOnlyTheFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "web")
	for name, text := range map[string]string{
		"web/index.html":           "<p>index</p>",
		"web/games/g1/index.html":  "<p>g1</p>",
		"web/games/g1/p1.svg":      "<svg/>",
		"web/games/g1/.pages.json": "[]",
		"web/games/g1/notes.txt":   "notes",
		"secret.db":                "SECRET-STORE",
		"web/u/k7x4/index.html":    "<p>unlisted</p>",
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "secret.db"), filepath.Join(dir, "games", "g1", "link.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(web.Handler(dir, func(h string) bool { return strings.HasPrefix(h, "127.0.0.1") || h == "games.example.org" }))
	defer ts.Close()
	do := func(method, path, host string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.URL.Opaque = path // sent as it is, encoded or not
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("Content-Security-Policy") != web.CSP {
			t.Errorf("%s %s: CSP %q", method, path, resp.Header.Get("Content-Security-Policy"))
		}
		if strings.Contains(string(b), "SECRET") {
			t.Errorf("%s %s shows a file outside the folder", method, path)
		}
		return resp.StatusCode, resp.Header, string(b)
	}
	for path, want := range map[string]string{"/": "<p>index</p>", "/index.html": "<p>index</p>", "/games/g1/": "<p>g1</p>", "/u/k7x4/": "<p>unlisted</p>", "/games/g1/p1.svg": "<svg/>"} {
		if code, _, body := do("GET", path, ""); code != 200 || body != want {
			t.Errorf("GET %s: %d %q", path, code, body)
		}
	}
	if code, h, _ := do("GET", "/games/g1", ""); code != http.StatusMovedPermanently || h.Get("Location") != "/games/g1/" {
		t.Errorf("GET /games/g1: %d to %q, want a redirect to its folder", code, h.Get("Location"))
	}
	if code, h, _ := do("GET", "/games/g1/p1.svg", "games.example.org"); code != 200 || h.Get("Content-Type") != "image/svg+xml" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the board: %d %v", code, h)
	}
	for _, path := range []string{
		"/../secret.db", "/%2e%2e/secret.db", "/games/%2e%2e/%2e%2e/secret.db", "/games/..%2f..%2fsecret.db",
		"/..%5csecret.db", "/games/g1/link.html", "/up/secret.db", "/games/g1/.pages.json", "/games/g1/%2epages.json",
		"/games/g1/notes.txt", "/games/", "/u/", "/games//g1/index.html", "/index.html%00.svg", "/games/g1/./index.html",
	} {
		if code, _, body := do("GET", path, ""); code != http.StatusNotFound && code != http.StatusBadRequest {
			t.Errorf("GET %s: %d %q, want not found", path, code, body)
		}
	}
	if code, _, body := do("GET", "/<script>x</script>.html", ""); code != 404 || strings.Contains(body, "script") {
		t.Errorf("a path is written back: %d %q", code, body)
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		if code, _, _ := do(m, "/index.html", ""); code != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d", m, code)
		}
	}
	for _, host := range []string{"evil.example", "games.example.org.evil.example"} {
		if code, _, body := do("GET", "/index.html", host); code != http.StatusMisdirectedRequest || strings.Contains(body, "index") {
			t.Errorf("Host %s: %d %q, want 421", host, code, body)
		}
	}
}
