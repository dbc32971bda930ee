// Command pbemd is the play-by-email game master daemon.
//
//	pbemd serve [-config FILE]
//	pbemd demo [-game G] [-variant V] [-seed N] [-years N] [-length N] [-phases N] [-mails DIR]
//	pbemd adjudicate [-config FILE] < in.json > out.json
//	pbemd map [-config FILE] [-variant MAPFILE] [-o FILE.png|FILE.svg] < in.json
//	pbemd check-orders [-config FILE] -variant V -power P < orders.txt
//	pbemd check-map FILE…
//	pbemd game create [-config FILE] NAME VARIANT [key=value…]
//	pbemd backup [-config FILE] FILE
//	pbemd check [-config FILE] [FILE…]
//	pbemd config example
//	pbemd auth login [-config FILE]
//	pbemd variants
//
// Everything testable lives in packages; this file parses flags, builds
// the config and the logger, wires and waits for a signal.
//
// # Start-up
//
// A command's start is the Go runtime, the init of every package the
// binary links, then the command. No engine reads its map, scenario,
// deck or world before it is used, and no package compiles a pattern at
// init (TestStartupReadsNoGameData); the Diplomacy maps load from tables
// generated from their files (adjudicator/diplomacy's maptable.go).
// Build the binary you install with CGO_ENABLED=0: pbemd uses no C, and
// a static binary spares every start the dynamic linker's work. To see
// where a start's time goes:
//
//	go test ./cmd/pbemd -run XXX -bench Startup -count 5   # whole processes, beside a Go hello-world
//	GODEBUG=inittrace=1 pbemd help                        # each package init: time, bytes, allocations
//	go test ./adjudicator/diplomacy -run XXX -bench 'StandardMap|JSONOpening' -benchmem
//
// BenchmarkStartup runs `pbemd help` and `pbemd adjudicate` (the Spring
// 1901 opening) as built by go build and with CGO_ENABLED=0, a Go program
// that only writes a line, one that links only the libraries pbemd is
// required to build on, and one that links pbemd's dependencies but none
// of its own packages: the floors a start cannot go below.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"pbemd/adjudicator"
	"pbemd/adjudicator/diplomacy" // the engines this binary ships (they register from init)
	_ "pbemd/adjudicator/empire"
	_ "pbemd/adjudicator/supplychain"
	_ "pbemd/adjudicator/supremacy"
	"pbemd/demo"
	"pbemd/server"
)

const usage = `pbemd — play-by-email game master

usage:
  pbemd serve [-config FILE]          run the daemon (embedded mail server if the config names no accounts)
  pbemd demo [-game G] [-variant V] [-seed N] [-years N] [-length N] [-phases N] [-mails DIR]
                                      a scripted game by mail, one line per phase (G: diplomacy
                                      (Ancient Mediterranean, the default), supremacy, supplychain, empire);
                                      -mails DIR writes every mail each player got as DIR/<address>/NNNN.eml
  pbemd adjudicate [-config FILE]     JSON position and orders on stdin, outcome on stdout
  pbemd map [-o FILE.png|FILE.svg]    draw adjudicate's JSON (a position, or its output with results);
                                      PNG on stdout without -o; -variant MAPFILE: the start of that map
  pbemd check-orders -variant V -power P   parse orders on stdin and say what was understood
  pbemd check-map FILE…               every check of a map file (loading and drawing); exit 0 when sound
                                      (adjudicate, map and check-orders also know the maps of the
                                      config's maps folders: -config FILE, default ./data/maps)
  pbemd game create [-config FILE] NAME VARIANT [key=value…]
  pbemd web build [-config FILE] [GAME]   write the web pages of GAME (or of every game) and the
                                      index into the config's [web] dir (serve writes them after each phase)
  pbemd backup [-config FILE] FILE    consistent copy of the store (hot, while serve runs)
  pbemd check [-config FILE] [FILE…]  look for damage in the store and the embedded mail server's
                                      file (or in FILE, e.g. a backup before restoring it)
  pbemd config example                print a commented config file
  pbemd variants                      the variants CREATE knows (a Markdown table)
  pbemd auth login [-config FILE]     sign the mailbox in with OAuth 2.0 (the config's [oauth] table):
                                      prints a code to enter in a browser, keeps the token
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "demo":
		err = runDemo(args)
	case "adjudicate":
		if err = loadFileVariants("adjudicate", args); err == nil {
			err = diplomacy.AdjudicateJSON(os.Stdin, os.Stdout)
		}
		if errors.Is(err, diplomacy.ErrBadInput) {
			fmt.Fprintln(os.Stderr, "pbemd adjudicate:", err)
			os.Exit(2)
		}
	case "map":
		err = drawMap(args, os.Stdin, os.Stdout)
		if errors.Is(err, diplomacy.ErrBadInput) {
			fmt.Fprintln(os.Stderr, "pbemd map:", err)
			os.Exit(2)
		}
	case "check-orders":
		err = checkOrders(args, os.Stdin, os.Stdout)
	case "check-map":
		err = checkMap(args, os.Stdout)
	case "game":
		err = game(args)
	case "web":
		err = webBuild(args)
	case "backup":
		err = backup(args)
	case "check":
		err = check(args)
	case "auth":
		err = auth(args)
	case "variants":
		fmt.Print(server.VariantTable())
		return
	case "config":
		if len(args) == 1 && args[0] == "example" {
			fmt.Print(server.ExampleConfig())
			return
		}
		err = errors.New("usage: pbemd config example")
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "pbemd: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pbemd %s: %v\n", cmd, err)
		os.Exit(1)
	}
}

// auth runs `pbemd auth login`.
func auth(args []string) error {
	fs := flag.NewFlagSet("auth", flag.ContinueOnError)
	path := fs.String("config", "", "config file")
	if len(args) == 0 || args[0] != "login" {
		return errors.New("usage: pbemd auth login [-config FILE]")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return server.AuthLogin(ctx, cfg, nil, os.Stdout)
}

// loadConfig reads -config, or the defaults when none is given.
func loadConfig(path string) (server.Config, error) {
	if path == "" {
		cfg := server.DefaultConfig()
		return cfg, cfg.Validate()
	}
	return server.LoadConfig(path)
}

func logger(level string) *slog.Logger { return loggerTo(os.Stderr, level) }

func loggerTo(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// heldWriter holds what is written to it until Release (at most a
// megabyte, then it lets go): the start-up log waits until the banner is
// out, so the banner is one block on a terminal that shows both streams.
type heldWriter struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
	open bool
}

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.open && len(h.held)+len(p) <= 1<<20 {
		h.held = append(h.held, p...)
		return len(p), nil
	}
	h.releaseLocked()
	return h.w.Write(p)
}

// Release writes what was held and passes everything on from now on.
func (h *heldWriter) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.releaseLocked()
}

func (h *heldWriter) releaseLocked() {
	if !h.open {
		h.open = true
		h.w.Write(h.held)
		h.held = nil
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	path := fs.String("config", "", "config file (default: built-in defaults with the embedded mail server)")
	fs.Parse(args)
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	server.TuneGC() // for as long as the process serves
	held := &heldWriter{w: os.Stderr}
	defer held.Release()
	log := loggerTo(held, cfg.LogLevel)
	srv, err := server.Open(cfg, log, nil)
	if err != nil {
		return err
	}
	var banner bytes.Buffer
	srv.Describe(&banner)
	os.Stdout.Write(banner.Bytes()) // one write: nothing can come between its lines
	held.Release()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Shutdown is logged when it begins and when it ends. After the first
	// signal the default handling is back: a second one stops at once.
	stopping, watched := make(chan struct{}), make(chan struct{})
	var began time.Time
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
		case <-stopping:
			if ctx.Err() == nil {
				return
			}
		}
		began = time.Now()
		log.Info("shutdown began: taking no new mail, finishing the work in hand (a second signal stops at once)", "signal", context.Cause(ctx))
		stop()
	}()
	log.Info("pbemd serving", "address", cfg.Address)
	err = srv.Run(ctx)
	close(stopping)
	<-watched
	if cerr := srv.Close(); err == nil {
		err = cerr
	}
	if !began.IsZero() {
		if err != nil {
			log.Error("shutdown complete, with an error", "took", time.Since(began).Round(time.Millisecond), "err", err)
		} else {
			log.Info("shutdown complete", "took", time.Since(began).Round(time.Millisecond))
		}
	}
	return err
}

func check(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	path := fs.String("config", "", "config file")
	fs.Parse(args)
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	return server.AdminCheck(cfg, fs.Args(), os.Stdout)
}

func runDemo(args []string) error {
	fs := flag.NewFlagSet("demo", flag.ExitOnError)
	game := fs.String("game", demo.Diplomacy, "the game: "+strings.Join(demo.Games, ", "))
	seed := fs.Int64("seed", 1, "seed of the scripted players")
	variant := fs.String("variant", "", "diplomacy: the variant (default "+demo.Variant+"; standard for the standard map)")
	years := fs.Int("years", 20, "diplomacy: stop after this many game years")
	length := fs.Int("length", 2, "supremacy: turns; empire: rounds")
	phases := fs.Int("phases", 150, "supremacy, supplychain, empire: stop after this many phases")
	mails := fs.String("mails", "", "write every mail each player received to `DIR`/<address>/NNNN.eml")
	verbose := fs.Bool("v", false, "log the daemon's work")
	fs.Parse(args)
	level := "error" // the mail server warns of every connection dropped at shutdown
	switch {
	case *years <= 0:
		return errors.New("-years must be at least 1")
	case *length <= 0:
		return errors.New("-length must be at least 1")
	case *phases <= 0:
		return errors.New("-phases must be at least 1")
	}
	if *verbose {
		level = "info"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err := demo.Run(ctx, demo.Options{Game: *game, Variant: *variant, Seed: *seed, Years: *years, Length: *length, Phases: *phases, Mails: *mails, Out: os.Stdout, Logger: logger(level)})
	return err
}

// drawMap is `pbemd map`: the picture of adjudicate's JSON, as PNG or SVG
// by the -o file's extension (PNG on stdout without -o).
func drawMap(args []string, in io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	out := fs.String("o", "", "write the picture to this .png or .svg file (default: PNG on stdout)")
	variant := fs.String("variant", "", "draw the start of this map `FILE` (no JSON is read)")
	config := fs.String("config", "", "config `FILE` whose maps folders add variants")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", diplomacy.ErrBadInput, err)
	}
	if err := addFileVariants(*config); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q (the JSON comes on stdin)", diplomacy.ErrBadInput, fs.Args())
	}
	svg := strings.HasSuffix(strings.ToLower(*out), ".svg")
	if *out != "" && !svg && !strings.HasSuffix(strings.ToLower(*out), ".png") {
		return fmt.Errorf("%w: -o %s: want a .png or .svg file", diplomacy.ErrBadInput, *out)
	}
	var pic drawing
	var err error
	if *variant != "" {
		pic, err = drawMapFile(*variant)
	} else {
		pic, err = diplomacy.DrawJSON(in)
	}
	if err != nil {
		return err
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if svg {
		err = pic.WriteSVG(w)
	} else {
		err = pic.WritePNG(w)
	}
	if err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		return f.Close()
	}
	return nil
}

func checkOrders(args []string, in io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("check-orders", flag.ExitOnError)
	variant := fs.String("variant", "standard", "variant: "+strings.Join(adjudicator.Names(), ", ")+", or one of the config's maps folders")
	power := fs.String("power", "", "the power whose orders these are (default: the variant's first)")
	config := fs.String("config", "", "config `FILE` whose maps folders add variants")
	fs.Parse(args)
	if err := addFileVariants(*config); err != nil {
		return err
	}
	return server.CheckOrders(*variant, *power, in, out)
}

// loadFileVariants is the -config flag of a command that takes no other
// (adjudicate): the variants of the config's maps folders are added.
func loadFileVariants(name string, args []string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	config := fs.String("config", "", "config `FILE` whose maps folders add variants")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", diplomacy.ErrBadInput, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q (the JSON comes on stdin)", diplomacy.ErrBadInput, fs.Args())
	}
	return addFileVariants(*config)
}

// addFileVariants adds the variants of the maps folders of the config at
// path (the defaults' ./data/maps without one). A refused map file is
// said on stderr; it stops nothing but its own variant.
func addFileVariants(path string) error {
	cfg, err := loadConfig(path)
	if err != nil {
		return err
	}
	for _, r := range server.LoadMaps(cfg, nil) {
		fmt.Fprintln(os.Stderr, "pbemd:", r)
	}
	return nil
}

// checkMap is `pbemd check-map FILE…`: every check the loader and the
// drawing make, each problem on a line naming file, line and province.
// An error (exit 1) when any file is not sound.
func checkMap(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: pbemd check-map FILE…")
	}
	bad := 0
	for _, file := range args {
		text, err := server.ReadMapFile(file)
		if err != nil {
			fmt.Fprintln(out, err)
			bad++
			continue
		}
		m, probs := diplomacy.CheckMap(file, text)
		for _, p := range probs {
			fmt.Fprintln(out, p)
		}
		if len(probs) > 0 {
			bad++
			continue
		}
		fmt.Fprintf(out, "%s: sound: variant %s, %d powers, %d provinces, %d supply centres\n", file, m.Name, len(m.Powers), len(m.Provinces), len(m.SupplyCentres()))
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d map files are not sound", bad, len(args))
	}
	return nil
}

// drawing is a picture as `pbemd map` writes it.
type drawing interface {
	WritePNG(io.Writer) error
	WriteSVG(io.Writer) error
}

// drawMapFile draws the start of a map file, once it passes every check.
func drawMapFile(file string) (drawing, error) {
	text, err := server.ReadMapFile(file)
	if err != nil {
		return nil, err
	}
	m, probs := diplomacy.CheckMap(file, text)
	if len(probs) > 0 {
		return nil, fmt.Errorf("%w: %s", diplomacy.ErrBadInput, strings.Join(probs, "\n"))
	}
	return m.DrawStart()
}

func game(args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: pbemd game create [-config FILE] NAME VARIANT [key=value…]")
	}
	fs := flag.NewFlagSet("game create", flag.ExitOnError)
	path := fs.String("config", "", "config file")
	gm := fs.String("gm", "", "the game's GM address (default: the first site GM)")
	fs.Parse(args[1:])
	if fs.NArg() < 2 {
		return errors.New("usage: pbemd game create [-config FILE] NAME VARIANT [key=value…]")
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	req := server.CreateRequest{Name: fs.Arg(0), Variant: fs.Arg(1), GM: *gm, Options: map[string]string{}}
	for _, kv := range fs.Args()[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("option %q is not key=value", kv)
		}
		req.Options[k] = v
	}
	msg, err := server.AdminCreate(cfg, req)
	if err != nil {
		return err
	}
	fmt.Println(msg)
	return nil
}

// webBuild runs `pbemd web build`.
func webBuild(args []string) error {
	const use = "usage: pbemd web build [-config FILE] [GAME]"
	if len(args) == 0 || args[0] != "build" {
		return errors.New(use)
	}
	fs := flag.NewFlagSet("web build", flag.ExitOnError)
	path := fs.String("config", "", "config file")
	fs.Parse(args[1:])
	if fs.NArg() > 1 {
		return errors.New(use)
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	msg, err := server.AdminWebBuild(cfg, fs.Arg(0))
	if err != nil {
		return err
	}
	fmt.Println(msg)
	return nil
}

func backup(args []string) error {
	fs := flag.NewFlagSet("backup", flag.ExitOnError)
	path := fs.String("config", "", "config file")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("usage: pbemd backup [-config FILE] FILE")
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		return err
	}
	how, err := server.AdminBackup(cfg, fs.Arg(0))
	if err != nil {
		return err
	}
	fmt.Printf("backup written to %s (%s)\n", fs.Arg(0), how)
	return nil
}
