package daemon

import (
	"fmt"
	"strings"

	"pbemd/adjudicator"
)

// Variants from files (the server reads the files; adjudicator builds
// them): a map file a GM adds is checked here as `pbemd check-map` checks
// it, then made a variant CREATE knows.

// VariantFile is a variant file read and checked, not yet added.
type VariantFile struct {
	Name string // its variant's name (the map's variant line)
	e    adjudicator.Engine
	file string
	text []byte
}

// IsVariantFile reports whether a file's name is that of a variant file
// (an extension an engine reads: .map).
func IsVariantFile(name string) bool { return adjudicator.Buildable(name) }

// ReadVariantFile builds the variant of a file's text and runs every
// check on it; file names it in the messages.
func ReadVariantFile(file string, text []byte) (*VariantFile, error) {
	e, _, err := adjudicator.Build(file, text)
	if err != nil {
		return nil, err
	}
	if c, ok := e.(adjudicator.Checker); ok {
		if probs := c.Problems(); len(probs) > 0 {
			return nil, fmt.Errorf("%s", strings.Join(probs, "\n"))
		}
	}
	return &VariantFile{Name: e.Info().Name, e: e, file: file, text: text}, nil
}

// Add makes the variant playable under its name (replacing one added from
// a file before); a game created on it keeps its text (CreateGame).
func (v *VariantFile) Add() error { return adjudicator.AddVariant(v.e, v.file, v.text) }

// Variants lists every variant CREATE knows, compiled in or added.
func Variants() []string { return adjudicator.Names() }

// eachVariant calls fn for every variant CREATE knows, compiled in or
// added from a file, in name order, with its players and its title.
func eachVariant(fn func(name string, players int, title string)) {
	for _, name := range adjudicator.Names() {
		if e, ok := adjudicator.Lookup(name); ok {
			info := e.Info()
			fn(name, len(info.Powers), info.Title)
		}
	}
}

// VariantTable is every variant as a Markdown table: `pbemd variants`
// prints it and the README's table is it.
func VariantTable() string {
	var b strings.Builder
	b.WriteString("| variant | players | game |\n|---|---|---|\n")
	eachVariant(func(name string, players int, title string) {
		fmt.Fprintf(&b, "| `%s` | %d | %s |\n", name, players, title)
	})
	return b.String()
}

// variantList is the same list as a mail reads it (LIST VARIANTS).
func variantList() string {
	var b strings.Builder
	b.WriteString("Variants a game may be created with (CREATE <game> <variant>):\n")
	eachVariant(func(name string, players int, title string) {
		fmt.Fprintf(&b, "  %-18s %d players  %s\n", name, players, title)
	})
	b.WriteString("\nRULES in a game lists its rules and options.")
	return b.String()
}
