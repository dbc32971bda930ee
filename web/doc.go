// Package web writes every game's story as static web pages: a page per
// phase with its board (the engine's picture as the observers' results
// mail draws it, as SVG), the phase's public results as the public
// results mail gives them, the public press and announcements, a chart of
// each power's supply centres (or the game's own score) over time, and on
// the game's front page the current phase, its deadline and whom the game
// waits for; an index page lists the games the GM publishes. The pages are
// made with html/template from the store, after each phase (Queue: they
// follow the results mails, off the daemon's path), under one folder any
// web server can serve; Handler serves that folder itself.
//
// The pages show only what an observer of the game may see: the engine's
// picture for viewer "" (no fog lifted, no hand of cards), the public part
// of each results mail, broadcasts and announcements, never private
// press, orders not yet processed, a player's address or results the GM
// has not published yet. The package must never write outside its
// folder, and its Handler never serves a path outside it, reflects
// nothing from a request and answers only GET and HEAD.
package web
