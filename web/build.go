package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// Options configure a Builder.
type Options struct {
	// Dir is the folder the pages are written to (made when missing).
	Dir string
	// Default is the site's web= for a game that has none
	// (store.WebPublic, store.WebUnlisted, store.WebOff; "": off).
	Default string
	// Results is the public part of a phase's results, as every results
	// mail of it begins (daemon.PublicResults). Nil: the engine's public
	// report with the position.
	Results func(*store.Game, *store.PhaseRecord) string
	// Private writes the folders 0700 and the files 0600, as the data
	// folder's own (for a folder inside it: pbemd serves it itself);
	// else 0755 and 0644, for a web server of its own to read.
	Private bool
	Logger  *slog.Logger
}

// Builder writes the pages of a store's games.
type Builder struct {
	db  *store.DB
	opt Options
	log *slog.Logger
	mu  sync.Mutex // one build at a time writes the folder
}

// New returns a builder of db's pages into opt.Dir.
func New(db *store.DB, opt Options) (*Builder, error) {
	if opt.Dir == "" {
		return nil, errors.New("web: no folder for the pages")
	}
	switch opt.Default {
	case "", store.WebPublic, store.WebUnlisted, store.WebOff:
	default:
		return nil, fmt.Errorf("web: default %q is not public, unlisted or off", opt.Default)
	}
	if opt.Results == nil {
		opt.Results = func(_ *store.Game, rec *store.PhaseRecord) string { return rec.Public + rec.Position }
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Builder{db: db, opt: opt, log: opt.Logger}, nil
}

// Dir is the folder the pages are written to.
func (b *Builder) Dir() string { return b.opt.Dir }

// entry is what a game's manifest keeps of one page, so that a later
// build renders only the pages that are new (and the one before them,
// whose "next" link changes) and draws the chart without reading every
// phase again.
type entry struct {
	Rec       int            `json:"rec"` // the history record (-1: the start)
	Title     string         `json:"title"`
	Processed time.Time      `json:"processed,omitzero"`
	Scores    map[string]int `json:"scores,omitempty"`
}

// manifestFile is a game's manifest, in its folder (public facts only:
// titles and scores).
const manifestFile = ".pages.json"

// page is one page to render: its record (nil for the start) and state.
type page struct {
	n       int // page number: the record's number + 1
	rec     *store.PhaseRecord
	state   []byte
	results []byte
	redraw  bool // the board is drawn (a page new since the manifest)
}

// snapshot is what one build reads of a game, in one read transaction.
type snapshot struct {
	g         *store.Game
	e         adjudicator.Engine
	dir       string
	published int // history records readers may see (0..published-1)
	kept      []entry
	pages     []page
	press     []store.Press
}

// Game writes the pages of one game, or removes them when it has none
// (web=off); the site's index is left to Index.
func (b *Builder) Game(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.game(name)
}

// All writes every game's pages and the index.
func (b *Builder) All() error {
	var names []string
	if err := b.db.View(func(tx *store.Tx) error { names = tx.Games(); return nil }); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []error
	for _, n := range names {
		if err := b.game(n); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, b.index())
	return errors.Join(errs...)
}

func (b *Builder) game(name string) error {
	var s *snapshot
	if err := b.db.View(func(tx *store.Tx) (err error) {
		s, err = b.read(tx, name)
		return err
	}); err != nil {
		return fmt.Errorf("web pages of %s: %w", name, err)
	}
	if s == nil {
		return nil
	}
	if err := b.write(s); err != nil {
		return fmt.Errorf("web pages of %s: %w", name, err)
	}
	return nil
}

// engineOf finds a game's engine as the daemon does: a game on a map file
// is played on the text it was created with.
func engineOf(g *store.Game) (adjudicator.Engine, error) {
	if g.Map != "" {
		if e, ok := adjudicator.Built(g.Map); ok {
			return e, nil
		}
		return nil, fmt.Errorf("its map (variant %q) is not loaded", g.Variant)
	}
	e, ok := adjudicator.Lookup(g.Variant)
	if !ok {
		return nil, fmt.Errorf("variant %q is not compiled in", g.Variant)
	}
	return e, nil
}

// read takes what a build needs of a game. It removes the folders the game
// no longer has (public made unlisted, or off); nil: no pages.
func (b *Builder) read(tx *store.Tx, name string) (*snapshot, error) {
	g, err := tx.Game(name)
	if err != nil {
		return nil, err
	}
	dir := g.WebDir(b.opt.Default)
	for _, old := range []string{"games/" + g.Name, "u/" + g.Options.WebKey} {
		if old != dir && old != "u/" {
			if err := os.RemoveAll(filepath.Join(b.opt.Dir, filepath.FromSlash(old))); err != nil {
				return nil, err
			}
		}
	}
	if dir == "" {
		return nil, nil
	}
	e, err := engineOf(g)
	if err != nil {
		return nil, err
	}
	s := &snapshot{g: g, e: e, dir: dir, published: g.Phase}
	if g.Pending != nil {
		s.published = g.Pending.Phase // the GM's preview is not public
	}
	if g.Status == store.Forming {
		s.published = 0
	}
	kept := b.manifest(dir)
	// Pages kept stand while their record does (a ROLLBACK deletes
	// records and the phases played again are new ones).
	for len(kept) > 0 {
		last := kept[len(kept)-1]
		if last.Rec < 0 {
			break
		}
		if last.Rec < s.published {
			if rec, err := tx.Phase(name, last.Rec); err == nil && rec.Processed.Equal(last.Processed) {
				break
			}
		}
		kept = kept[:len(kept)-1]
	}
	from := max(len(kept)-1, 0) // the last page kept shows a new "next" link
	s.kept = kept[:from]
	for n := from; n <= s.published; n++ {
		p := page{n: n, redraw: n >= len(kept)}
		if n == 0 {
			switch {
			case g.Status == store.Forming:
			case g.Phase > 0: // (the first record, published or not)
				rec, err := tx.Phase(name, 0)
				if err != nil {
					return nil, err
				}
				p.state = rec.StateBefore
			default:
				if p.state, err = tx.State(name); err != nil {
					return nil, err
				}
			}
		} else {
			if p.rec, err = tx.Phase(name, n-1); err != nil {
				return nil, err
			}
			p.state, p.results = p.rec.StateAfter, p.rec.Data
		}
		s.pages = append(s.pages, p)
	}
	press, err := tx.PressLog(name)
	if err != nil {
		return nil, err
	}
	for _, p := range press {
		if p.Kind == store.PressBroadcast || p.Kind == store.PressPSA {
			s.press = append(s.press, p)
		}
	}
	return s, nil
}

// manifest reads a game folder's manifest (none: nothing kept).
func (b *Builder) manifest(dir string) []entry {
	raw, err := os.ReadFile(filepath.Join(b.opt.Dir, filepath.FromSlash(dir), manifestFile))
	if err != nil {
		return nil
	}
	var m []entry
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for i, e := range m {
		if e.Rec != i-1 {
			return nil // not ours: build every page again
		}
	}
	return m
}

// write renders a snapshot's pages and writes them with the game's
// front page, chart and manifest, and removes pages past the last
// published one.
func (b *Builder) write(s *snapshot) error {
	folder := filepath.Join(b.opt.Dir, filepath.FromSlash(s.dir))
	if err := os.MkdirAll(folder, b.dirMode()); err != nil {
		return err
	}
	if err := b.writeAssets(); err != nil {
		return err
	}
	info := s.e.Info()
	if err := b.drawBoards(s, folder); err != nil {
		return err
	}
	_, drawer := s.e.(adjudicator.Drawer)
	entries := s.kept
	var last pageData
	for _, p := range s.pages {
		en := entry{Rec: p.n - 1, Title: "The start"}
		if p.rec != nil {
			en.Title, en.Processed = p.rec.Title, p.rec.Processed
		}
		if p.state != nil {
			if st, err := s.e.Status(p.state); err == nil {
				en.Scores = st.Scores
			}
		}
		entries = append(entries, en)
		board := ""
		if drawer && p.state != nil {
			board = boardFile(p.n)
		}
		d := b.pageData(s, info, p, entries, board)
		html, err := render(d)
		if err != nil {
			return err
		}
		if err := b.writeFile(filepath.Join(folder, store.WebPage(p.n-1)), html); err != nil {
			return err
		}
		last = d
	}
	// The front page: the last published page with the game as it is now.
	last.Now = b.now(s, info)
	last.Press = append(last.Press, pressSince(s, entries[len(entries)-1].Processed)...)
	html, err := render(last)
	if err != nil {
		return err
	}
	if err := b.writeFile(filepath.Join(folder, "index.html"), html); err != nil {
		return err
	}
	if err := b.writeFile(filepath.Join(folder, "chart.svg"), chart(info, lineColors(info, s.e), entries)); err != nil {
		return err
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	if err := b.writeFile(filepath.Join(folder, manifestFile), raw); err != nil {
		return err
	}
	return removePagesAfter(folder, len(entries)-1)
}

// drawBoards draws the boards of the snapshot's new pages (and of any
// whose file is missing) as SVG, on every core: drawing is most of a
// build's work.
func (b *Builder) drawBoards(s *snapshot, folder string) error {
	drawer, ok := s.e.(adjudicator.Drawer)
	if !ok {
		return nil
	}
	var todo []page
	for _, p := range s.pages {
		if p.state == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(folder, boardFile(p.n))); p.redraw || err != nil {
			todo = append(todo, p)
		}
	}
	errs := make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := todo[i]
				pic, err := drawer.Draw(p.state, p.results, "")
				if err != nil {
					b.log.Warn("web: board not drawn", "game", s.g.Name, "page", p.n, "err", err)
					pic = adjudicator.NoPicture("The board could not be drawn.")
				}
				var buf bytes.Buffer
				if err := pic.WriteSVG(&buf); err != nil {
					errs[i] = err
					continue
				}
				errs[i] = b.writeFile(filepath.Join(folder, boardFile(p.n)), buf.Bytes())
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// dirMode is the mode of the folders the builder makes.
func (b *Builder) dirMode() os.FileMode {
	if b.opt.Private {
		return 0o700
	}
	return 0o755
}

// boardFile is the board of page n.
func boardFile(n int) string { return "p" + strconv.Itoa(n) + ".svg" }

// removePagesAfter removes the pages (and boards) numbered after last: a
// ROLLBACK's, or those of results the GM took back.
func removePagesAfter(folder string, last int) error {
	des, err := os.ReadDir(folder)
	if err != nil {
		return err
	}
	for _, de := range des {
		name := de.Name()
		base, ok := strings.CutPrefix(name, "p")
		if !ok {
			continue
		}
		base = strings.TrimSuffix(strings.TrimSuffix(base, ".html"), ".svg")
		if n, err := strconv.Atoi(base); err == nil && n > last {
			if err := os.Remove(filepath.Join(folder, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// writeFile replaces path's content whole (a reader never sees half a
// page), readable by the web server.
func (b *Builder) writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), b.dirMode()&0o666)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
