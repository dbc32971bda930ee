package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"pbemd/web"
)

// pbemd serve with [web] set: a game played by mail gets its pages after
// the phase (the results mail links to them), served on the listen
// address with the strict Content-Security-Policy, to loopback and the
// hosts named only.
func TestE2EWebPagesFollowTheResults(t *testing.T) {
	e := newE2EWith(t, func(c *Config) {
		c.Web = WebConfig{Dir: "web", Default: "public", BaseURL: "https://games.example.org/pbemd", Listen: "127.0.0.1:0", Hosts: []string{"games.example.org"}}
	})
	if e.srv.WebAddr == "" {
		t.Fatal("no page server")
	}
	_, pl := e.standardGame("w1")
	eng := pl["england"]
	e.send(eng.addr, tokenAddr(eng.token), "F Lon - Nth")
	e.next(eng.addr, "Re:")
	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	res := e.next(eng.addr, "Spring 1901 Movement — results")
	mustContain(t, res.Text, "On the web: https://games.example.org/pbemd/games/w1/p1.html")

	get := func(host, path string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest("GET", "http://"+e.srv.WebAddr+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	// The pages follow the mails: wait for them.
	var code int
	var body string
	var h http.Header
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if code, h, body = get("games.example.org", "/games/w1/p1.html"); code == http.StatusOK {
			break
		}
	}
	if code != http.StatusOK {
		t.Fatalf("the phase's page: %d %q", code, body)
	}
	mustContain(t, body, "Spring 1901 Movement: results", "F Lon - Nth", `src="p1.svg"`)
	if h.Get("Content-Security-Policy") != web.CSP {
		t.Errorf("CSP %q", h.Get("Content-Security-Policy"))
	}
	if strings.Contains(body, "@pbemd.localhost") {
		t.Error("the page shows an address")
	}
	if code, _, _ := get("127.0.0.1", "/"); code != http.StatusOK {
		t.Errorf("the index to loopback: %d", code)
	}
	if code, _, _ := get("evil.example", "/games/w1/p1.html"); code != http.StatusMisdirectedRequest {
		t.Errorf("Host evil.example: %d, want 421", code)
	}
	if code, _, _ := get("127.0.0.1", "/../pbemd.db"); code != http.StatusNotFound {
		t.Errorf("the store through the page server: %d", code)
	}
}
