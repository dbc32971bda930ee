package mailauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"time"

	"golang.org/x/oauth2"
)

// browserLogin is the authorization code grant with PKCE for an app on the
// GM's own machine (RFC 8252): pbemd listens on a loopback port of its
// choosing, prints the provider's sign-in address, and the provider sends
// the browser back to that port with a code, which pbemd trades for the
// token. A GM on a server without a browser forwards the port over SSH.
func browserLogin(ctx context.Context, oc *oauth2.Config, out io.Writer) (*oauth2.Token, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	cfg := *oc
	cfg.RedirectURL = "http://" + ln.Addr().String() + "/"
	state := rand.Text()
	verifier := oauth2.GenerateVerifier()

	type answer struct {
		code string
		err  error
	}
	got := make(chan answer, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			http.Error(w, "This is not the answer to pbemd's sign-in.", http.StatusBadRequest)
			return
		}
		var a answer
		if e := q.Get("error"); e != "" {
			a.err = fmt.Errorf("oauth: the provider refused the sign-in: %s", e)
			fmt.Fprintf(w, "<p>pbemd was not signed in: %s. You may close this page.</p>", html.EscapeString(e))
		} else if a.code = q.Get("code"); a.code == "" {
			a.err = errors.New("oauth: the provider's answer had no code")
			http.Error(w, "no code", http.StatusBadRequest)
		} else {
			fmt.Fprint(w, "<p>pbemd is signed in. You may close this page.</p>")
		}
		select {
		case got <- a:
		default:
		}
	})}
	go srv.Serve(ln)
	defer func() {
		// Shutdown, not Close: the page that says "signed in" is still
		// being written when its code arrives here.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx) // the sign-in's outcome is already known
	}()

	url := cfg.AuthCodeURL(state, oauth2.AccessTypeOffline, oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("prompt", "consent"))
	fmt.Fprintf(out, "To let pbemd use the mailbox, open this address in a browser on this machine\n"+
		"(on a server, forward port %d first: ssh -L %d:127.0.0.1:%d <server>):\n\n  %s\n\nWaiting for you to sign in …\n",
		ln.Addr().(*net.TCPAddr).Port, ln.Addr().(*net.TCPAddr).Port, ln.Addr().(*net.TCPAddr).Port, url)
	select {
	case a := <-got:
		if a.err != nil {
			return nil, a.err
		}
		tok, err := cfg.Exchange(ctx, a.code, oauth2.VerifierOption(verifier))
		if err != nil {
			return nil, fmt.Errorf("oauth: trade the sign-in code for a token: %w", err)
		}
		return tok, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("oauth: sign-in was not completed: %w", ctx.Err())
	}
}
