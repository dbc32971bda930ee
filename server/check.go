package server

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pbemd/store"
)

// AdminCheck is "pbemd check": it checks the store and the embedded mail
// server's file of cfg (or the files given: a backup before restoring it,
// say) for damage and writes what it found to w. It returns an error when
// a file is damaged or cannot be checked.
//
// A store held by a running daemon is checked through a hot copy from its
// endpoint (the copy is what the daemon's file holds at one instant).
func AdminCheck(cfg Config, files []string, w io.Writer) error {
	type target struct {
		path  string
		depth store.Depth
		mail  bool
	}
	var targets []target
	if len(files) == 0 {
		targets = append(targets, target{path: cfg.DBPath(), depth: store.AllValues})
		if mf := cfg.mailStateFile(); mf != "" {
			if _, err := os.Stat(mf); err == nil {
				targets = append(targets, target{path: mf, depth: store.Pages, mail: true})
			}
		}
	}
	for _, f := range files {
		targets = append(targets, target{path: f, depth: store.AllValues, mail: samePath(f, cfg.mailStateFile())})
		if samePath(f, cfg.mailStateFile()) {
			targets[len(targets)-1].depth = store.Pages
		}
	}
	damaged := 0
	for _, t := range targets {
		r, how, err := checkOne(cfg, t.path, t.depth)
		if err != nil {
			fmt.Fprintf(w, "%s: cannot check: %v\n", t.path, err)
			damaged++
			continue
		}
		if r.OK() {
			fmt.Fprintf(w, "%s%s\n", r.Summary(), how)
			for _, n := range r.Notes {
				fmt.Fprintf(w, "  note: %s\n", n)
			}
			continue
		}
		damaged++
		fmt.Fprintf(w, "%s: DAMAGED%s, %d problem(s):\n", t.path, how, len(r.Problems)+r.More)
		for _, p := range r.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
		if r.More > 0 {
			fmt.Fprintf(w, "  - and %d more\n", r.More)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		if t.mail {
			fmt.Fprintln(w, mailFileHint(t.path))
		} else {
			fmt.Fprintln(w, store.RestoreHint(t.path))
		}
	}
	if damaged > 0 {
		return fmt.Errorf("%d of %d file(s) damaged or not checked", damaged, len(targets))
	}
	return nil
}

// checkOne checks path; a live store a daemon holds is checked through a
// hot copy (how then says so).
func checkOne(cfg Config, path string, depth store.Depth) (r *store.Report, how string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	if st.IsDir() {
		return nil, "", errors.New("a folder, not a store file")
	}
	r, err = store.CheckFile(path, depth)
	if !errors.Is(err, store.ErrInUse) {
		return r, "", err
	}
	if !samePath(path, cfg.DBPath()) {
		return nil, "", fmt.Errorf("%w (a running pbemd holds it; it is checked at that daemon's next start)", err)
	}
	tmp, err := os.CreateTemp(cfg.DataDir, ".check-*.db")
	if err != nil {
		return nil, "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if _, err := AdminBackup(cfg, tmp.Name()); err != nil {
		if errors.Is(err, errNotRunning) || errors.Is(err, store.ErrInUse) {
			return nil, "", fmt.Errorf("a running pbemd holds it and its http endpoint is off: stop the daemon to check the file, or turn http on so a hot copy can be checked")
		}
		return nil, "", fmt.Errorf("a running pbemd holds it, and its hot copy failed: %w", err)
	}
	r, err = store.CheckFile(tmp.Name(), depth)
	if r != nil {
		r.Path = path
	}
	return r, " (a hot copy from the running daemon)", err
}

// mailStateFile is the embedded mail server's file ("" when it keeps its
// mailboxes in memory or real accounts are used).
func (c *Config) mailStateFile() string {
	f := c.Mailserver.StateFile
	if f == "" || !c.UsesEmbedded() {
		return ""
	}
	if !filepath.IsAbs(f) {
		f = filepath.Join(c.DataDir, f)
	}
	return f
}

func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
