package daemon

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The package comment's claims, held against the code: the daemon is the
// game master only. It opens no socket and no file (no net package but
// net/mail, whose address type mailer's compose takes; no os, syscall or
// file system package), reads no config file and runs no cron; of pbemd
// it imports the store, orders, adjudicator and mailer, and of mailer
// only what composes a mail (and the log's redaction); it reads the clock
// only through Options.Now (no time.Now, no timer).
func TestDaemonIsTheGameMasterOnly(t *testing.T) {
	forbidden := func(p string) bool {
		switch {
		case p == "net/mail":
			return false
		case p == "net" || strings.HasPrefix(p, "net/"),
			p == "os" || strings.HasPrefix(p, "os/"),
			p == "syscall", p == "io/fs", p == "io/ioutil", p == "path/filepath", p == "embed",
			strings.Contains(p, "toml"), strings.Contains(p, "cron"), p == "go.etcd.io/bbolt":
			return true
		}
		return false
	}
	allowed := map[string]bool{ // beyond the standard library
		"pbemd/store": true, "pbemd/orders": true, "pbemd/adjudicator": true, "pbemd/mailer": true, "pbemd/outbox": true, "pbemd/internal/logredact": true, "pbemd/rating": true,
		"golang.org/x/crypto/bcrypt": true,
	}
	fromMailer := map[string]bool{"Compose": true, "Outgoing": true, "HeaderField": true, "Auto": true,
		"Attachment": true, "Base64Lines": true, "Composed": true} // the pictures it attaches (pictures.go)
	clock := map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "AfterFunc": true, "Tick": true, "NewTimer": true, "NewTicker": true}

	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files++
		names := map[string]string{} // the name a file gives an import → its path
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			local := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			names[local] = p
			stdlib := !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") && !strings.HasPrefix(p, "pbemd")
			switch {
			case forbidden(p):
				t.Errorf("%s imports %s: the game master opens no socket or file and runs no clock of its own (that is package server)", path, p)
			case !stdlib && !allowed[p]:
				t.Errorf("%s imports %s: the daemon imports of pbemd only store, orders, adjudicator, mailer and rating", path, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch names[pkg.Name] {
			case "time":
				if clock[sel.Sel.Name] {
					t.Errorf("%s: time.%s: the daemon reads the clock only through Options.Now", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			case "pbemd/mailer":
				if !fromMailer[sel.Sel.Name] {
					t.Errorf("%s: mailer.%s: the daemon uses mailer only to compose its mail", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	if files < 10 {
		t.Fatalf("only %d files of the daemon read", files)
	}
}
