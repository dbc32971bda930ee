package store

import "fmt"

// Who may read a game's web pages (GameOptions.Web).
const (
	WebPublic   = "public"   // on the site's index, at games/<name>/
	WebUnlisted = "unlisted" // off the index, at u/<WebKey>/: a link the GM shares
	WebOff      = "off"      // no pages
)

// WebDir is the folder of g's pages under the web root, with forward
// slashes: "games/<name>" for a public game, "u/<key>" for an unlisted
// one, "" for none. def is the site's default, for a game whose Web is
// empty (made before the option existed). An unlisted game without a key
// has no pages.
func (g *Game) WebDir(def string) string {
	v := g.Options.Web
	if v == "" {
		v = def
	}
	switch v {
	case WebPublic:
		return "games/" + g.Name
	case WebUnlisted:
		if g.Options.WebKey != "" {
			return "u/" + g.Options.WebKey
		}
	}
	return ""
}

// WebListed tells whether g is on the site's index of games.
func (g *Game) WebListed(def string) bool {
	v := g.Options.Web
	if v == "" {
		v = def
	}
	return v == WebPublic
}

// WebPage is the file name, in a game's web folder, of the page of the
// position after history record rec (rec -1: the start).
func WebPage(rec int) string { return fmt.Sprintf("p%d.html", rec+1) }
