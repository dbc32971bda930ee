package mailserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseDir parses the non-test Go files of a package directory.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

func imports(f *ast.File) []string {
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}

// The server is its own package: mailserver imports nothing of pbemd
// (DESIGN.md allows mailer at most; it needs none), and mailer, the
// client, holds no server: no IMAP server library, no bbolt, no
// mailserver.
func TestPackageBoundaries(t *testing.T) {
	for _, f := range parseDir(t, ".") {
		for _, p := range imports(f) {
			if p == "pbemd" || strings.HasPrefix(p, "pbemd/") {
				t.Errorf("mailserver/%s imports %s", f.Name.Name, p)
			}
		}
	}
	forbidden := map[string]bool{
		"github.com/emersion/go-imap/v2/imapserver": true,
		"go.etcd.io/bbolt":                          true,
		"pbemd/mailserver":                          true,
	}
	for _, f := range parseDir(t, "../mailer") {
		for _, p := range imports(f) {
			if forbidden[p] {
				t.Errorf("mailer imports %s: the server side belongs in mailserver", p)
			}
		}
	}
}

// Passwords are compared in constant time: no password (a name holding
// "password", or pw) is an operand of == or != (but against "") or of
// bytes.Equal, strings.EqualFold, strings.Compare; comparisons go through
// equalDigest (subtle.ConstantTimeCompare) or bcrypt.
func TestPasswordsAreComparedInConstantTime(t *testing.T) {
	secret := func(e ast.Expr) bool {
		var name string
		switch x := e.(type) {
		case *ast.Ident:
			name = x.Name
		case *ast.SelectorExpr:
			name = x.Sel.Name
		default:
			return false
		}
		name = strings.ToLower(name)
		return strings.Contains(name, "password") || name == "pw"
	}
	empty := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Value == `""`
	}
	paths, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && (secret(x.X) || secret(x.Y)) && !empty(x.X) && !empty(x.Y) {
					t.Errorf("%s: a password compared with %s", fset.Position(x.Pos()), x.Op)
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				if pkg == nil || !(pkg.Name == "bytes" && sel.Sel.Name == "Equal" || pkg.Name == "strings" && (sel.Sel.Name == "EqualFold" || sel.Sel.Name == "Compare")) {
					return true
				}
				for _, a := range x.Args {
					if secret(a) {
						t.Errorf("%s: a password compared with %s.%s", fset.Position(x.Pos()), pkg.Name, sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
}
