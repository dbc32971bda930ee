package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Variants from files. A GM adds a variant without a rebuild by dropping
// a data file (a Diplomacy .map) in a folder the program reads at start
// (the server reads the data folder's maps/). An engine family that can
// be built from such a file registers a Builder for its extension; the
// program reads the file and hands its text to Build, which makes the
// engine once per distinct text in a process. AddVariant then makes it
// playable under its Info().Name beside the engines compiled in.
//
// A game created on such a variant keeps the file's text (VariantText
// gives it and its hash at creation; the daemon stores both): its engine
// is the one Build makes of that text, found again by the text's hash
// (Built), so editing, renaming or deleting the file never changes a game
// already made from it. This package does no I/O: it never reads a file.

// Builder makes an engine from the text of a data file. file names the
// file in its error messages, which say line and place of each mistake.
type Builder func(file string, text []byte) (Engine, error)

var (
	builders = map[string]Builder{} // extension with its dot → builder
	built    = map[string]Engine{}  // text hash → engine made of the text
	// fileVariants are the variants added from files, by name: the
	// engine, and the hash and text it was made of.
	fileVariants = map[string]fileVariant{}
)

type fileVariant struct {
	e          Engine
	hash, file string
	text       []byte
}

// RegisterBuilder makes Build use b for files whose name ends in ext
// (".map"). It panics on a duplicate extension.
func RegisterBuilder(ext string, b Builder) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := builders[ext]; dup {
		panic(fmt.Sprintf("adjudicator: builder for %q registered twice", ext))
	}
	builders[ext] = b
}

// Buildable reports whether Build knows the extension of file.
func Buildable(file string) bool {
	mu.RLock()
	defer mu.RUnlock()
	_, ok := builders[strings.ToLower(path.Ext(file))]
	return ok
}

// TextHash is the hash by which a variant's text is kept and found again:
// the SHA-256 of the text, in hex.
func TextHash(text []byte) string {
	h := sha256.Sum256(text)
	return hex.EncodeToString(h[:])
}

// Build returns the engine text describes, made by the builder of file's
// extension. The same text gives the same engine, made once per process.
func Build(file string, text []byte) (Engine, string, error) {
	hash := TextHash(text)
	mu.RLock()
	e, ok := built[hash]
	b := builders[strings.ToLower(path.Ext(file))]
	mu.RUnlock()
	if ok {
		return e, hash, nil
	}
	if b == nil {
		return nil, "", fmt.Errorf("%s: no game is read from %q files", file, path.Ext(file))
	}
	e, err := b(file, text)
	if err != nil {
		return nil, "", err
	}
	mu.Lock()
	defer mu.Unlock()
	if prev, ok := built[hash]; ok {
		return prev, hash, nil // built meanwhile by another caller
	}
	built[hash] = e
	return e, hash, nil
}

// Built returns the engine Build made of the text with this hash, if it
// made one in this process.
func Built(hash string) (Engine, bool) {
	mu.RLock()
	defer mu.RUnlock()
	e, ok := built[hash]
	return e, ok
}

// AddVariant makes an engine built from a file's text playable under its
// name: Lookup and Names find it. It replaces a variant added before
// under that name (a program rereading its folder), and refuses the name
// of an engine compiled in.
func AddVariant(e Engine, file string, text []byte) error {
	name := e.Info().Name
	mu.Lock()
	defer mu.Unlock()
	if _, ok := fileVariants[name]; !ok {
		if _, compiled := engines[name]; compiled {
			return fmt.Errorf("variant %q is the name of a game compiled into pbemd; name the map another way", name)
		}
	}
	hash := TextHash(text)
	fileVariants[name] = fileVariant{e: e, hash: hash, file: path.Base(file), text: text}
	built[hash] = e
	engines[name] = func() Engine { return e }
	return nil
}

// VariantText returns the file name and text a variant added from a file
// was made of, and the text's hash; ok is false for an engine compiled in.
func VariantText(name string) (hash, file string, text []byte, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	v, ok := fileVariants[name]
	return v.hash, v.file, v.text, ok
}

// FileVariants lists the names of the variants added from files, sorted.
func FileVariants() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(fileVariants))
	for n := range fileVariants {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Checker is implemented by engines built from a file that can say what
// is wrong with it beyond what Build refuses (a map that would be drawn
// misleadingly): a program adding variants from files refuses one whose
// Problems are not empty.
type Checker interface {
	Problems() []string
}
