package web

import (
	"bytes"
	"embed"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

//go:embed assets
var assets embed.FS

// templates are parsed at their first use, not by every start of pbemd.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").ParseFS(assets, "assets/*.tmpl"))
})

// pageData is what one page shows.
type pageData struct {
	Game      string // the game's name
	GameTitle string // the variant's title
	Title     string // the page's phase
	N         int
	First     string // links, "" when there is none
	Prev      string
	Next      string
	Latest    string
	Board     string // the board's file, "" when the game draws none
	BoardAlt  string
	Results   string // the public results text
	Press     []pressItem
	Now       *nowData // the game now (front page only)
	Chart     bool
	ChartName string
}

// nowData is the game as it stands, on its front page.
type nowData struct {
	Phase    string
	Deadline string
	Waiting  string
	State    string // "over", "paused", "forming", … in words
}

// pressItem is one public message.
type pressItem struct {
	From string
	When string
	Body string
}

// render executes the page template.
func render(d pageData) ([]byte, error) {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, "page.tmpl", d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pageData is page p of the snapshot's game; entries are the pages up to
// it.
func (b *Builder) pageData(s *snapshot, info adjudicator.Info, p page, entries []entry, board string) pageData {
	d := pageData{
		Game: s.g.Name, GameTitle: info.Title, Title: entries[p.n].Title, N: p.n,
		Board: board, Chart: true, ChartName: scoreName(info),
	}
	if p.rec != nil {
		d.Title = p.rec.Title + ": results"
		d.Results = b.opt.Results(s.g, p.rec)
		var after time.Time
		if p.n >= 2 {
			after = entries[p.n-1].Processed
		}
		d.Press = pressBetween(s, after, p.rec.Processed)
	}
	if board != "" {
		d.BoardAlt = "The board: " + d.Title
	}
	if p.n > 0 {
		d.First, d.Prev = store.WebPage(-1), store.WebPage(p.n-2)
	}
	if p.n < s.published {
		d.Next, d.Latest = store.WebPage(p.n), "index.html"
	}
	return d
}

// scoreName is what the chart counts.
func scoreName(info adjudicator.Info) string {
	if info.Game == "diplomacy" {
		return "Supply centres"
	}
	return "Score"
}

// powerName is a power's name as players read it.
func powerName(info adjudicator.Info, id string) string {
	if n, ok := info.PowerNames[id]; ok {
		return n
	}
	if id == "" {
		return ""
	}
	return strings.ToUpper(id[:1]) + id[1:]
}

// now is the game as it stands.
func (b *Builder) now(s *snapshot, info adjudicator.Info) *nowData {
	g := s.g
	n := &nowData{Phase: g.PhaseTitle}
	switch {
	case g.Status == store.Forming:
		n.State = "The game is taking sign-ups."
		n.Phase = ""
	case g.Status == store.Finished:
		n.Phase = ""
		n.State = "The game is over"
		if len(g.Winners) > 0 {
			names := make([]string, len(g.Winners))
			for i, w := range g.Winners {
				names[i] = powerName(info, w)
			}
			if g.EndedAs == "draw" {
				n.State += ": a draw shared by " + strings.Join(names, ", ")
			} else {
				n.State += ": won by " + strings.Join(names, ", ")
			}
		}
		n.State += "."
	case g.Pending != nil:
		// the phase the results open, and who orders in it, would tell
		// what the results are
		n.Phase = ""
		n.State = "The last results wait for the GM."
	case g.Paused:
		n.State = "The game is paused."
	}
	if g.Status == store.Active && !g.Deadline.IsZero() {
		n.Deadline = g.Deadline.UTC().Format("Monday 2 January 2006, 15:04 UTC")
	}
	if g.Status == store.Active && g.Pending == nil {
		var names []string
		for _, w := range g.Waiting {
			names = append(names, powerName(info, w))
		}
		n.Waiting = strings.Join(names, ", ")
	}
	return n
}

// pressBetween is the public press sent after one time and up to another
// (the phase a results page ends).
func pressBetween(s *snapshot, after, until time.Time) []pressItem {
	var out []pressItem
	for _, p := range s.press {
		if p.Time.After(after) && !p.Time.After(until) {
			out = append(out, pressOf(s, p))
		}
	}
	return out
}

// pressSince is the public press of the open phase.
func pressSince(s *snapshot, after time.Time) []pressItem {
	var out []pressItem
	for _, p := range s.press {
		if p.Time.After(after) {
			out = append(out, pressOf(s, p))
		}
	}
	return out
}

// pressOf is one public message as its readers got it, but that an
// observer's comment is signed "an observer" (no address is shown).
func pressOf(s *snapshot, p store.Press) pressItem {
	info := s.e.Info()
	it := pressItem{When: p.Time.UTC().Format("2 Jan 2006 15:04 UTC"), Body: p.Body}
	switch {
	case p.Kind == store.PressPSA:
		it.From = "Anonymous announcement"
	case p.As != "":
		who := "the GM"
		if p.As != "GM" {
			who = powerName(info, p.As)
		}
		it.From = "Grey broadcast, said to be from " + who + " (unverified)"
	case p.Observer:
		it.From = "Comment from an observer"
	case p.From == "GM":
		it.From = "Broadcast from the GM"
	default:
		it.From = "Broadcast from " + powerName(info, p.From)
	}
	return it
}

// writeAssets writes the style sheet and the stepping script at the root.
func (b *Builder) writeAssets() error {
	dir := b.opt.Dir
	for _, name := range []string{"style.css", "step.js"} {
		raw, err := assets.ReadFile("assets/" + name)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, raw) {
			continue
		}
		if err := b.writeFile(path, raw); err != nil {
			return err
		}
	}
	return nil
}

// indexGame is one line of the site's index.
type indexGame struct {
	Name, Title, Phase, State string
}

// Index writes the site's index of the public games.
func (b *Builder) Index() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.index()
}

func (b *Builder) index() error {
	var games []indexGame
	err := b.db.View(func(tx *store.Tx) error {
		return tx.EachGame(func(g *store.Game) error {
			if !g.WebListed(b.opt.Default) {
				return nil
			}
			ig := indexGame{Name: g.Name, Title: g.Variant, Phase: g.PhaseTitle}
			if e, err := engineOf(g); err == nil {
				ig.Title = e.Info().Title
			}
			switch {
			case g.Status == store.Forming:
				ig.State, ig.Phase = "taking sign-ups", ""
			case g.Status == store.Finished:
				ig.State, ig.Phase = "over", ""
			case g.Pending != nil: // the phase the results open would tell them
				ig.State, ig.Phase = "results wait for the GM", ""
			default:
				if g.Paused {
					ig.State = "paused"
				}
			}
			games = append(games, ig)
			return nil
		})
	})
	if err != nil {
		return err
	}
	slices.SortFunc(games, func(x, y indexGame) int { return strings.Compare(x.Name, y.Name) })
	if _, err := os.Stat(b.opt.Dir); len(games) == 0 && err != nil {
		return nil // nothing published yet: no folder
	}
	if err := os.MkdirAll(b.opt.Dir, b.dirMode()); err != nil {
		return err
	}
	if err := b.writeAssets(); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := templates().ExecuteTemplate(&buf, "index.tmpl", games); err != nil {
		return err
	}
	return b.writeFile(filepath.Join(b.opt.Dir, "index.html"), buf.Bytes())
}
