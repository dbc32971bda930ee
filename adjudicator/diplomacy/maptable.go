package diplomacy

import (
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"slices"
)

// mapTable is an embedded map file as ParseMap reads it, kept in Go
// (maptables.go, generated from the map files by
// `go test ./adjudicator/diplomacy -run TestMapTables -update-tables`): loading
// it indexes what the file's directives say without reading, splitting
// and checking the text again, so a process that plays one phase (`pbemd
// adjudicate`) pays a few microseconds for its map rather than the
// parse's third of a megabyte. The map file stays the source of truth:
// a table is used only while the part of the file it was made from (all
// of it but the geometry section) is unchanged, byte for byte by length
// and CRC, and TestMapTables fails while a table differs from what
// ParseMap makes of its file.
type mapTable struct {
	file string // "standard.map"
	// head is the length of the file's part before its geometry section
	// (the whole file when it has none; geo says which), headCRC its
	// CRC-32 (IEEE).
	head    int
	headCRC uint32
	geo     bool

	name, title, yearSuffix string
	rules                   string // the rules lines, as Map.variantRules
	startYear, victory      int
	yearStep                int  // year-step (0: none)
	buildAnywhere           bool // build-anywhere
	powers                  []Power
	provinces               []Province // coasts filled in, Home the power's id
	start                   []Unit
	army                    []bitset // by province
	fleet                   []bitset // by location (provinces, then coasts in province order)
}

// mapTableFor returns the table made from an embedded map file, if any.
func mapTableFor(file string) *mapTable {
	for i := range mapTables {
		if mapTables[i].file == file {
			return &mapTables[i]
		}
	}
	return nil
}

// fresh reports whether the file the table was made from still has the
// same part before its geometry section. It reads only that part (and
// the marker after it), in small pieces.
func (t *mapTable) fresh(fsys fs.FS, path string) bool {
	f, err := fsys.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var buf [4096]byte
	crc, left := uint32(0), t.head
	for left > 0 {
		n, err := f.Read(buf[:min(left, len(buf))])
		crc = crc32.Update(crc, crc32.IEEETable, buf[:n])
		left -= n
		if err != nil && left > 0 {
			return false
		}
	}
	if crc != t.headCRC {
		return false
	}
	// What follows: the geometry marker, or nothing.
	n, err := io.ReadFull(f, buf[:len(geometryMarker)])
	if t.geo {
		return n == len(geometryMarker) && string(buf[:n]) == geometryMarker
	}
	return n == 0 && errors.Is(err, io.EOF)
}

// load builds the map the table describes: the same Map ParseMap makes of
// the file (TestMapTableLoadsAsParsed), its geometry read from the file at
// first use. The names' alias and coast lists stay the table's own (a Map
// is immutable); the rest is the Map's.
func (t *mapTable) load(fsys fs.FS, path string) (*Map, error) {
	m := &Map{
		Name: t.name, Title: t.title, StartYear: t.startYear, YearSuffix: t.yearSuffix, Victory: t.victory, variantRules: t.rules,
		YearStep: t.yearStep, BuildAnywhere: t.buildAnywhere,
		Powers: slices.Clone(t.powers), Provinces: slices.Clone(t.provinces),
		provIdx: make(map[string]int, len(t.provinces)), powerIdx: make(map[string]int, len(t.powers)),
		locIdx: make(map[string]int, len(t.fleet)), states: newStateCache(), file: t.file,
	}
	for i, p := range m.Powers {
		m.powerIdx[p.ID] = i
	}
	for i, p := range m.Provinces {
		m.provIdx[p.ID] = i
	}
	// The file passed every check when the table was made from it
	// (TestMapTables), its victory mark included: a mark below a majority
	// was marked so there.
	src := &mapSource{file: t.file, wantProvinces: -1, wantCentres: -1, belowMajority: true}
	if err := m.addLocations(src); err != nil {
		return nil, err
	}
	if len(t.army) != len(m.Provinces) || len(t.fleet) != len(m.locs) {
		return nil, errors.New("map " + t.file + ": table does not fit its provinces")
	}
	m.army, m.fleet = slices.Clone(t.army), slices.Clone(t.fleet)
	for _, step := range []func(*mapSource) error{m.addDerivedAdjacency, m.addCentres} {
		if err := step(src); err != nil {
			return nil, err
		}
	}
	m.Start = make([]Unit, len(t.start))
	for i, u := range t.start {
		// The power's own id string, as addStartUnits gives it.
		u.Power = m.Powers[m.powerIdx[u.Power]].ID
		m.Start[i] = u
	}
	if err := m.addLexicon(src); err != nil {
		return nil, err
	}
	m.initGeometryFrom(t.file, func() ([]geoLine, error) {
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return nil, err
		}
		scratch := &Map{provIdx: map[string]int{}, powerIdx: map[string]int{}, locIdx: map[string]int{}}
		src, err := scratch.readDirectives(t.file, data)
		if err != nil {
			return nil, err
		}
		return geoLines(t.file, src.geo, src.geoTail, src.geoTailLine)
	})
	return m, nil
}
