package web

import (
	"net/http"
	"os"
	"path"
	"strings"
)

// CSP is the Content-Security-Policy of every answer: the pages load
// their style sheet, script and pictures from the site itself and nothing
// else, may not be framed and post no form.
const CSP = "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// types are the files served, by extension; anything else is not found.
var types = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
}

// Handler serves the folder dir as static files: GET and HEAD only, to
// requests whose Host allowHost accepts (421 for others, as the health
// endpoint), with no file outside dir (os.Root: neither "..", an encoded
// one, nor a link leads out), no listing of a folder and no name that
// begins with a dot. Errors are fixed texts: nothing of the request is
// written back.
func Handler(dir string, allowHost func(host string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if !allowHost(r.Host) {
			http.Error(w, "misdirected request", http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := cleanPath(r.URL.Path)
		if !ok {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		defer root.Close()
		if name == "" || strings.HasSuffix(name, "/") {
			name += "index.html"
		} else if st, err := root.Stat(name); err == nil && st.IsDir() {
			// a game's folder without its slash: its front page
			http.Redirect(w, r, path.Base(name)+"/", http.StatusMovedPermanently)
			return
		}
		ctype, ok := types[path.Ext(name)]
		if !ok {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		f, err := root.Open(name)
		if err != nil { // missing, or a link out of the folder
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		h.Set("Content-Type", ctype)
		h.Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "", st.ModTime(), f)
	})
}

// cleanPath is the request's path as a name in the folder ("" for its
// root), and false for any path that is not plainly one: "..", ".", an
// empty segment, a backslash, a NUL or a name that begins with a dot
// (the manifests, temporary files).
func cleanPath(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	p = p[1:]
	if p == "" {
		return "", true
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s == "" && i == len(segs)-1 {
			continue // a folder's trailing slash
		}
		if s == "" || strings.HasPrefix(s, ".") {
			return "", false
		}
	}
	return p, true
}
