package mailer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"pbemd/internal/skipnote"
)

// The real-server suite runs runConformance against Dovecot 2.3 (IMAP,
// LMTP, auth) and Postfix 3.7 (SMTP) on 127.0.0.1, configured by the
// scripts in .ci/mail as instances of their own (nothing in /etc is
// written). It is off by default:
//
//	PBEMD_REALMAIL=1         TestMain configures and starts both servers
//	                         (root, Debian; .ci/mail/install.sh first) and
//	                         stops them when the tests end
//	PBEMD_REALMAIL=external  they already run (.ci/mail/up.sh, with the
//	                         default accounts); only the tests are run
//
// The ports are .ci/mail's parameters (PBEMD_MAIL_IMAP_PORT, …, see
// .ci/mail/env.sh), defaults 10143, 10024, 10025, 10026. The accounts are
// the suite's own, gm and p1 at example.test, whatever PBEMD_MAIL_USERS
// says. While it runs the suite holds RealMailLock, so suites of other
// packages that use the same servers take turns.
const realMailEnv = "PBEMD_REALMAIL"

func mailPort(env, def string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return def
}

var (
	realIMAPAddr  = "127.0.0.1:" + mailPort("PBEMD_MAIL_IMAP_PORT", "10143")
	realSMTPAddr  = "127.0.0.1:" + mailPort("PBEMD_MAIL_SMTP_PORT", "10025")
	realMailPorts = []string{realIMAPAddr, "127.0.0.1:" + mailPort("PBEMD_MAIL_LMTP_PORT", "10024"), realSMTPAddr, "127.0.0.1:" + mailPort("PBEMD_MAIL_AUTH_PORT", "10026")}
)

// realMailLock is the file whose flock the suites that use the test mail
// servers take in turn (mailer's here, cmd/pbemd's round trip).
const realMailLock = "/tmp/pbemd-realmail.lock"

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	switch os.Getenv(realMailEnv) {
	case "1", "external":
	default:
		skipnote.Say("pbemd/mailer: the real-server suite (TestRealMailServers, Dovecot + Postfix) is skipped: set %s=1 to run it (root, after .ci/mail/install.sh; see .ci/mail/README.md)", realMailEnv)
		return m.Run()
	}
	lock, err := os.OpenFile(realMailLock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", realMailLock, err)
		return 1
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", realMailLock, err)
		return 1
	}
	if os.Getenv(realMailEnv) == "external" {
		return m.Run()
	}
	stop, err := startRealMail()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=1: cannot start Dovecot + Postfix: %v\n", realMailEnv, err)
		return 1
	}
	code := m.Run()
	if err := stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping Dovecot + Postfix: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

func portOpen(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err == nil {
		c.Close()
	}
	return err == nil
}

func lookSbin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not installed: run .ci/mail/install.sh (as root)", name)
}

// startRealMail configures Dovecot and Postfix with the .ci/mail scripts,
// starts both in the foreground as children of the test binary and
// returns the function that stops them.
func startRealMail() (stop func() error, err error) {
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("needs root (Dovecot delivers as the mail user, Postfix runs as postfix)")
	}
	dovecot, err := lookSbin("dovecot")
	if err != nil {
		return nil, err
	}
	postfix, err := lookSbin("postfix")
	if err != nil {
		return nil, err
	}
	for _, p := range realMailPorts {
		if portOpen(p) {
			return nil, fmt.Errorf("port %s is in use (servers from .ci/mail/up.sh still running? use %s=external, or run down.sh)", p, realMailEnv)
		}
	}
	scripts, err := filepath.Abs("../.ci/mail")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pbemd-realmail-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the mail user walks into it
		return nil, err
	}
	// The scripts' parameters: the ports above, the suite's accounts.
	env := append(os.Environ(), "PBEMD_MAIL_DIR="+dir, "PBEMD_MAIL_DOMAIN="+testDomain, "PBEMD_MAIL_USERS=gm:gmpass p1:p1pass")
	for i, name := range []string{"IMAP", "LMTP", "SMTP", "AUTH"} {
		_, port, _ := net.SplitHostPort(realMailPorts[i])
		env = append(env, "PBEMD_MAIL_"+name+"_PORT="+port)
	}
	run := func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", filepath.Base(name), err, out)
		}
		return nil
	}
	if err := run(filepath.Join(scripts, "dovecot-config.sh"), dir); err != nil {
		return nil, err
	}
	if err := run(filepath.Join(scripts, "postfix-config.sh"), dir); err != nil {
		return nil, err
	}
	pfconf := filepath.Join(dir, "postfix")
	dlog, _ := os.Create(filepath.Join(dir, "dovecot.stdout"))
	dv := exec.Command(dovecot, "-c", filepath.Join(dir, "dovecot.conf"), "-F")
	dv.Stdout, dv.Stderr = dlog, dlog
	if err := dv.Start(); err != nil {
		return nil, err
	}
	plog, _ := os.Create(filepath.Join(dir, "postfix.stdout"))
	pf := exec.Command(postfix, "-c", pfconf, "start-fg")
	pf.Stdout, pf.Stderr = plog, plog
	if err := pf.Start(); err != nil {
		dv.Process.Signal(syscall.SIGTERM)
		dv.Wait()
		return nil, err
	}
	exited := make(chan string, 2)
	go func() { dv.Wait(); exited <- "dovecot" }()
	go func() { pf.Wait(); exited <- "postfix" }()

	stop = func() error {
		var errs []error
		if err := run(postfix, "-c", pfconf, "stop"); err != nil {
			errs = append(errs, err)
		}
		dv.Process.Signal(syscall.SIGTERM)
		timeout := time.After(15 * time.Second)
		for range 2 {
			select {
			case <-exited:
			case <-timeout:
				dv.Process.Kill()
				pf.Process.Kill()
				errs = append(errs, fmt.Errorf("servers did not stop within 15s; killed"))
				<-exited
			}
		}
		dlog.Close()
		plog.Close()
		if len(errs) == 0 {
			os.RemoveAll(dir)
		} else {
			errs = append(errs, fmt.Errorf("logs kept in %s", dir))
		}
		return errors.Join(errs...)
	}
	deadline := time.After(15 * time.Second)
	for {
		up := true
		for _, p := range realMailPorts {
			up = up && portOpen(p)
		}
		if up {
			fmt.Fprintf(os.Stderr, "%s=1: Dovecot (pid %d) and Postfix (pid %d) up, state in %s\n", realMailEnv, dv.Process.Pid, pf.Process.Pid, dir)
			return stop, nil
		}
		select {
		case who := <-exited:
			exited <- who
			stop()
			return nil, fmt.Errorf("%s exited at start; see %s (dovecot.log, postfix.log, *.stdout)", who, dir)
		case <-deadline:
			stop()
			return nil, fmt.Errorf("ports %v not all open after 15s; see %s", realMailPorts, dir)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestRealMailServers runs the conformance suite against Dovecot +
// Postfix. go test ./... skips it unless PBEMD_REALMAIL is set.
func TestRealMailServers(t *testing.T) {
	switch os.Getenv(realMailEnv) {
	case "1", "external":
	default:
		t.Skipf("real mail servers not requested: set %s=1 to run this suite against Dovecot + Postfix started by the test (root, after .ci/mail/install.sh), or %s=external if .ci/mail/up.sh already started them", realMailEnv, realMailEnv)
	}
	for _, p := range []string{realIMAPAddr, realSMTPAddr} {
		if !portOpen(p) {
			t.Fatalf("%s is not listening", p)
		}
	}
	runConformance(t, &mailEnv{name: "dovecot+postfix", imapAddr: realIMAPAddr, smtpAddr: realSMTPAddr, smtpAuth: []string{"plain", "login"}})
}
