package main

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// serveProcess runs the real pbemd (serve -config cfg) as the crash tests
// need it: started again and again, killed or stopped, its output in
// daemon.log beside the config.
type serveProcess struct {
	t   *testing.T
	bin string
	cfg string
	log *os.File
	cmd *exec.Cmd
}

// newServeProcess returns a serveProcess not started yet; the test's end
// stops one still running (SIGTERM).
func newServeProcess(t *testing.T, bin, cfg string) *serveProcess {
	t.Helper()
	log, err := os.Create(filepath.Join(filepath.Dir(cfg), "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{t: t, bin: bin, cfg: cfg, log: log}
	t.Cleanup(func() {
		p.stop()
		log.Close()
	})
	return p
}

func (p *serveProcess) start() {
	p.t.Helper()
	p.cmd = exec.Command(p.bin, "serve", "-config", p.cfg)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
}

// kill ends the process with SIGKILL and waits for it.
func (p *serveProcess) kill() { p.end(syscall.SIGKILL) }

// stop ends the process with SIGTERM (a clean shutdown) and waits for it.
func (p *serveProcess) stop() { p.end(syscall.SIGTERM) }

func (p *serveProcess) end(sig syscall.Signal) {
	if p.cmd != nil && p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(sig)
		p.cmd.Wait()
	}
}

// outboxEmpty reports whether the metrics endpoint at httpAddr says the
// outbox is empty.
func outboxEmpty(httpAddr string) bool {
	resp, err := http.Get("http://" + httpAddr + "/metrics")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.Contains(string(b), "\npbemd_outbox_depth 0\n")
}
