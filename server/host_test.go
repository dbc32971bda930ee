package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The loopback endpoint answers only requests whose Host names loopback
// (localhost, 127.x, [::1], any port) or a name of http_hosts: a web page
// whose name an attacker points at 127.0.0.1 (DNS rebinding) sends its
// own name and gets 421, on every path, before any other check.
func TestEndpointAnswersOnlyLoopbackAndConfiguredHosts(t *testing.T) {
	e := newE2EWith(t, func(c *Config) { c.HTTPHosts = []string{"pbemd.internal"} })
	base := serveEndpoint(t, e.srv)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	get := func(host, path string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("GET", base+path, nil)
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
		return resp.StatusCode, string(b)
	}
	for _, host := range []string{"localhost:" + port, "LocalHost:" + port, "127.0.0.1:" + port, "127.0.0.1", "[::1]:" + port, "pbemd.internal", "PBEMD.Internal:" + port} {
		for _, path := range []string{"/healthz", "/metrics"} {
			if code, body := get(host, path); code != http.StatusOK {
				t.Errorf("Host %s, %s: %d %q", host, path, code, body)
			}
		}
	}
	for _, host := range []string{"evil.example", "evil.example:" + port, "localhost.evil.example:" + port, "127.0.0.1.evil.example", "10.0.0.1:" + port, "internal"} {
		for _, path := range []string{"/healthz", "/metrics", "/backup"} {
			code, body := get(host, path)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "misdirected request") {
				t.Errorf("Host %s, %s: %d %q, want 421", host, path, code, body)
			}
			if strings.Contains(body, "pbemd_") || strings.TrimSpace(body) == "ok" {
				t.Errorf("Host %s, %s: the answer shows the endpoint's data: %q", host, path, body)
			}
		}
	}
}

// http_hosts takes names or addresses without a port.
func TestConfigHTTPHostsAreNames(t *testing.T) {
	for _, bad := range []string{`["pbemd.internal:8025"]`, `[""]`, `["http://pbemd.internal"]`, `["[::1]"]`} {
		cfg := DefaultConfig()
		if err := DecodeConfig("http_hosts = "+bad, &cfg); err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "http_hosts") {
			t.Errorf("http_hosts = %s: %v", bad, err)
		}
	}
	cfg := DefaultConfig()
	if err := DecodeConfig(`http_hosts = ["pbemd.internal", "::1", "192.0.2.7"]`, &cfg); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("names and addresses: %v", err)
	}
}
