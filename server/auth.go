package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"pbemd/mailauth"
)

// AuthLogin signs the config's mailbox in with OAuth 2.0 (the device-code
// sign-in of the [oauth] table) and keeps the token, sealed, in the data
// folder, where serve finds it: at its start, or at once when its own
// sign-in had stopped working. client is the HTTP client (nil: the
// default).
func AuthLogin(ctx context.Context, cfg Config, client *http.Client, out io.Writer) error {
	if cfg.OAuth == nil {
		return errors.New("the config has no [oauth] table: OAuth signs in to the [imap] and [smtp] account of a provider that takes no password (docs/real-mail.md)")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return err
	}
	tok, err := mailauth.Login(ctx, *cfg.OAuth, client, out)
	if err != nil {
		return err
	}
	f := cfg.OAuthTokenFile()
	if err := f.Save(tok); err != nil {
		return fmt.Errorf("keep the token in %s: %w", f.Path, err)
	}
	fmt.Fprintf(out, "Signed in. The token is kept, sealed with the store's key, in %s; pbemd serve uses it.\n", f.Path)
	return nil
}
