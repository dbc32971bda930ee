package mailer

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
)

// faultProxy is a loopback TCP proxy that can cut a connection at a
// chosen point of the byte stream, to test what a dropped connection in
// the middle of a FETCH or a DATA does.
type faultProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	conns int
	rule  *cutRule
	cuts  int
	live  []net.Conn
	wg    sync.WaitGroup
}

// cutRule cuts connection number conn (0-based) once the stream in one
// direction has carried pattern, after forwarding extra more bytes.
type cutRule struct {
	conn       int
	fromServer bool // direction: server→client, else client→server
	pattern    []byte
	extra      int
}

func startProxy(t testing.TB, target string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *faultProxy) addr() string { return p.ln.Addr().String() }

func (p *faultProxy) cutWhen(r cutRule) {
	p.mu.Lock()
	p.rule = &r
	p.mu.Unlock()
}

func (p *faultProxy) cutCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

func (p *faultProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.live {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *faultProxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.mu.Lock()
		n := p.conns
		p.conns++
		rule := p.rule
		p.live = append(p.live, client, server)
		p.mu.Unlock()
		if rule != nil && rule.conn != n {
			rule = nil
		}
		kill := func() {
			client.Close()
			server.Close()
		}
		p.wg.Add(2)
		go func() { defer p.wg.Done(); p.pipe(server, client, rule, false, kill) }()
		go func() { defer p.wg.Done(); p.pipe(client, server, rule, true, kill) }()
	}
}

// pipe copies src to dst; with a rule for this direction it cuts both
// connections when the pattern (plus extra bytes) has gone through.
func (p *faultProxy) pipe(dst, src net.Conn, rule *cutRule, fromServer bool, kill func()) {
	defer kill()
	if rule == nil || rule.fromServer != fromServer {
		io.Copy(dst, src)
		return
	}
	var seen []byte
	buf := make([]byte, 4096)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			start := len(seen)
			seen = append(seen, chunk...)
			if i := bytes.Index(seen, rule.pattern); i >= 0 {
				cut := i + len(rule.pattern) + rule.extra
				if cut < len(seen) {
					if cut > start {
						dst.Write(chunk[:cut-start])
					}
					p.mu.Lock()
					p.cuts++
					p.mu.Unlock()
					return
				}
			}
			if _, werr := dst.Write(chunk); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
