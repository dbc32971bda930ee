package server

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"pbemd/daemon"
)

// Variants a GM adds without a rebuild: every file in the data folder's
// maps/ (and in the folder the maps key names) whose extension an engine
// reads (.map: a Diplomacy map, MAPFORMAT.md) is a variant named by the
// file itself (its variant line), playable by CREATE and listed by LIST
// and HELP. The folders are read at start; a file that fails its checks
// is refused with its message in the log and in /healthz, and the daemon
// runs on without it. A game keeps the text of the file it was created
// with (daemon.CreateGame), so editing or removing the file afterwards
// changes no game already made: it changes what the next CREATE gets,
// after a restart.

// MapsDir is the folder of the data folder that holds variant files.
const MapsDir = "maps"

// maxMapFile bounds a variant file (the shipped standard map, with its
// drawn coastlines, is a tenth of this).
const maxMapFile = 4 << 20

// MapFolders are the folders whose variant files cfg adds: the data
// folder's maps/, then the maps key's folder.
func (c *Config) MapFolders() []string {
	dirs := []string{filepath.Join(c.DataDir, MapsDir)}
	if c.Maps != "" {
		dirs = append(dirs, c.Maps)
	}
	return dirs
}

// LoadMaps adds the variants of the variant files in cfg's folders
// (adjudicator.AddVariant) and returns what it refused, one line per file
// naming it and its first problems. A missing folder is no problem.
func LoadMaps(cfg Config, log *slog.Logger) (refused []string) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	from := map[string]string{} // variant → the file that added it here
	for _, dir := range cfg.MapFolders() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !os.IsNotExist(err) {
				refused = append(refused, fmt.Sprintf("maps: %v", err))
			}
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !daemon.IsVariantFile(e.Name()) {
				continue
			}
			path := filepath.Join(dir, e.Name())
			name, err := loadMapFile(path, from)
			if err != nil {
				log.Error("variant file refused", "file", path, "err", err)
				refused = append(refused, fmt.Sprintf("map %s refused: %s", path, firstLines(err.Error(), 3)))
				continue
			}
			from[name] = path
			log.Info("variant added from file", "variant", name, "file", path)
		}
	}
	return refused
}

// loadMapFile reads, builds, checks and adds one variant file.
func loadMapFile(path string, from map[string]string) (string, error) {
	text, err := ReadMapFile(path)
	if err != nil {
		return "", err
	}
	v, err := daemon.ReadVariantFile(path, text)
	if err != nil {
		return "", err
	}
	if other, dup := from[v.Name]; dup {
		return "", fmt.Errorf("variant %q is already the variant of %s", v.Name, other)
	}
	return v.Name, v.Add()
}

// ReadMapFile reads a variant file, refusing one over the size limit.
func ReadMapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxMapFile+1))
	if err != nil {
		return nil, err
	}
	if len(text) > maxMapFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxMapFile)
	}
	return text, nil
}

// firstLines is s cut to its first n lines, saying how many more there are.
func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return strings.Join(lines, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(lines[:n], "; "), len(lines)-n)
}

// VariantTable is every variant CREATE knows, with its players and title
// (`pbemd variants`; the README's table).
func VariantTable() string { return daemon.VariantTable() }
