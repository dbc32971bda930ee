package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/store"
)

// The game's web pages (package web writes them): the web= option, the
// link line in results mails, and the word to the page builder after a
// commit that queued a game's mail.

// Web is what the daemon knows of the site's web pages.
type Web struct {
	// Default is the web= of a game whose CREATE names none:
	// store.WebPublic, store.WebUnlisted or store.WebOff ("": off).
	Default string
	// BaseURL is where the web folder is published, ending in "/" (e.g.
	// "https://games.example.org/pbemd/"): every results mail of a game
	// with pages then links to its phase's page. Empty: no link.
	BaseURL string
	// Changed is told, after each commit that queued mail of some games
	// (results, press, announcements: what their pages may show), which
	// games; it must return at once (the page builder works later, off
	// the daemon's path). Nil: nobody is told.
	Changed func(games []string)
}

// webOption is CREATE's and SET's web=: who may read the game's pages.
// An unlisted game gets its unguessable folder name the first time.
func webOption(o *store.GameOptions, v string) error {
	switch v {
	case store.WebPublic, store.WebOff:
	case store.WebUnlisted:
		if o.WebKey == "" {
			o.WebKey = newToken()
		}
	default:
		return fmt.Errorf("web is public (listed on the site's index), unlisted (at a link nobody can guess, which the results mails give) or off")
	}
	o.Web = v
	return nil
}

// webDefault gives a new game the site's default web=, so a later change
// of the default publishes no game made under another one.
func (d *Daemon) webDefault(o *store.GameOptions) {
	v := d.opt.Web.Default
	if v == "" {
		v = store.WebOff
	}
	if err := webOption(o, v); err != nil {
		o.Web = store.WebOff
	}
}

// webLine is the results' link to the phase's page, "" when the site
// names no base URL or the game has no pages.
func (d *Daemon) webLine(g *store.Game, rec *store.PhaseRecord) string {
	if d.opt.Web.BaseURL == "" {
		return ""
	}
	dir := g.WebDir(d.opt.Web.Default)
	if dir == "" {
		return ""
	}
	return "\nOn the web: " + strings.TrimSuffix(d.opt.Web.BaseURL, "/") + "/" + dir + "/" + store.WebPage(rec.Phase) + "\n"
}

// webChanged tells the page builder which games the commit queued mail
// of.
func (d *Daemon) webChanged(mails []*Outgoing) {
	if d.opt.Web.Changed == nil || len(mails) == 0 {
		return
	}
	var games []string
	for _, m := range mails {
		if m.Game != "" && !slices.Contains(games, m.Game) {
			games = append(games, m.Game)
		}
	}
	if len(games) > 0 {
		d.opt.Web.Changed(games)
	}
}

// PublicResults is the part of a processed phase's results every reader
// gets alike, as its results mails begin (without the link to the web
// page): the web pages show it.
func PublicResults(g *store.Game, rec *store.PhaseRecord) string {
	return resultsPublic(g, rec)
}
