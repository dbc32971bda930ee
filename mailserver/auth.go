package mailserver

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Passwords. An account is one of three kinds:
//
//   - system (the daemon's and the site GM's): a password generated from
//     crypto/rand, 128 bits, kept in Config.PasswordFile; nothing else
//     opens it;
//   - configured ([[mailserver.accounts]], AddAccount): its own password;
//   - automatic (any other address at the domain): the local part,
//     compared without regard to case, or Config.PlayerPassword.
//
// The passwords of system and configured accounts are stored only as
// bcrypt hashes (the state file never holds them in clear). bcrypt
// because a configured password is chosen by a person and may be weak: a
// copy of the state file must not make guessing cheap; a generated one
// would be safe under any hash. An automatic account's password is not
// stored at all: it is a rule over the address, which is public.
//
// Every comparison is constant-time in the password: bcrypt's own
// comparison, or subtle.ConstantTimeCompare of SHA-256 digests (the rule
// passwords, and the digest of the last password that passed bcrypt,
// kept in memory only so that a client that logs in for every poll does
// not pay bcrypt each time; a wrong password pays it, within the limits
// of the login throttle, throttle.go).

// errAuth is every failed login: it does not say whether the account
// exists.
var errAuth = errors.New("mailserver: invalid credentials")

func digest(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func equalDigest(a, b [32]byte) bool { return subtle.ConstantTimeCompare(a[:], b[:]) == 1 }

// hashPassword returns the bcrypt hash of pw. bcrypt reads at most 72
// bytes; longer passwords are digested first so that no byte is ignored.
func (s *Server) hashPassword(pw string) ([]byte, error) {
	cost := s.cfg.HashCost
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return bcrypt.GenerateFromPassword(bcryptInput(pw), cost)
}

func bcryptInput(pw string) []byte {
	if len(pw) > 72 {
		d := digest(pw)
		return []byte(base32.StdEncoding.EncodeToString(d[:]))
	}
	return []byte(pw)
}

func checkHash(hash []byte, pw string) bool {
	return len(hash) > 0 && bcrypt.CompareHashAndPassword(hash, bcryptInput(pw)) == nil
}

// newPassword is 128 bits from crypto/rand in lower-case base32 (26
// letters and digits: nothing a mail client or a shell mangles).
func newPassword() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// systemPasswords returns a password for every system account: those in
// the password file, new ones for the others (then the file is rewritten,
// mode 0600), and which of them are new (made). A file that others may
// read is refused: its passwords may have leaked.
func systemPasswords(path string, addrs []string) (map[string]string, map[string]bool, error) {
	out, made := map[string]string{}, map[string]bool{}
	lines := map[string]string{} // everything in the file, kept on rewrite
	if path != "" {
		raw, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, nil, fmt.Errorf("mailserver: password file: %w", err)
		default:
			fi, err := os.Stat(path)
			if err != nil {
				return nil, nil, fmt.Errorf("mailserver: password file: %w", err)
			}
			if fi.Mode().Perm()&0o077 != 0 {
				return nil, nil, fmt.Errorf("mailserver: password file %s has mode %04o: others may have read it. Delete it (new passwords are made at start) or chmod 600 it", path, fi.Mode().Perm())
			}
			sc := bufio.NewScanner(bytes.NewReader(raw))
			for n := 1; sc.Scan(); n++ {
				line := strings.TrimSpace(sc.Text())
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				addr, pw, ok := strings.Cut(line, " ")
				pw = strings.TrimSpace(pw)
				if !ok || pw == "" {
					return nil, nil, fmt.Errorf("mailserver: password file %s line %d: want \"address password\"", path, n)
				}
				lines[strings.ToLower(addr)] = pw
			}
		}
	}
	changed := false
	for _, a := range addrs {
		if pw, ok := lines[a]; ok {
			out[a] = pw
			continue
		}
		pw, err := newPassword()
		if err != nil {
			return nil, nil, err
		}
		out[a], lines[a], made[a] = pw, pw, true
		changed = true
	}
	if changed && path != "" {
		if err := writePasswordFile(path, lines); err != nil {
			return nil, nil, err
		}
	}
	return out, made, nil
}

func writePasswordFile(path string, lines map[string]string) error {
	var b strings.Builder
	b.WriteString("# pbemd embedded mail server: passwords of the system accounts.\n# Generated at first start; delete this file to get new ones. Keep it mode 0600.\n")
	addrs := make([]string, 0, len(lines))
	for a := range lines {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, a := range addrs {
		fmt.Fprintf(&b, "%s %s\n", a, lines[a])
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".passwords-*")
	if err != nil {
		return fmt.Errorf("mailserver: password file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename: a no-op
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.WriteString(b.String())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("mailserver: password file: %w", err)
	}
	return nil
}
