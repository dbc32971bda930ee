package diplomacy

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"pbemd/orders"
)

//go:embed maps/*.map
var mapFiles embed.FS

// ProvinceKind is the terrain of a province.
type ProvinceKind uint8

const (
	Land        ProvinceKind = iota + 1 // inland: armies only
	Coast                               // armies and fleets
	Sea                                 // fleets only; fleets here may convoy
	Archipelago                         // army or fleet; armies arrive and leave only by convoy; fleets here may convoy
)

// kindNames are the kinds as a map file writes them, in ProvinceKind
// order (a table, not a map: nothing to build at package init).
var kindNames = [...]string{Land: "land", Coast: "coast", Sea: "sea", Archipelago: "archipelago"}

// kindNamed returns the kind a map file names.
func kindNamed(name string) (ProvinceKind, bool) {
	for k, n := range kindNames {
		if n != "" && n == name {
			return ProvinceKind(k), true
		}
	}
	return 0, false
}

// Province is one space of a map.
type Province struct {
	ID           string // lower-case id, e.g. "stp"
	Abbrev       string // abbreviation as printed, e.g. "StP"
	Full         string // full name, e.g. "St Petersburg"
	Aliases      []string
	Kind         ProvinceKind
	SupplyCenter bool
	Home         string   // power id when this is a home centre, else ""
	Coasts       []string // coast ids of a multi-coast province ("nc", "sc")
}

// Power is one player of a map.
type Power struct {
	ID      string // lower-case id, e.g. "england"
	Name    string // as printed, e.g. "England"
	Aliases []string
}

// Unit is a unit on the board.
type Unit struct {
	Power string
	Type  UnitType
	Loc   Location
}

// Map is a loaded, validated map. It is immutable and safe for concurrent use.
type Map struct {
	Name       string // registry name, e.g. "standard"
	Title      string
	StartYear  int
	YearSuffix string // "" or e.g. "AUC": years are written "451 AUC"
	Victory    int    // supply centres needed for a solo victory
	Powers     []Power
	Provinces  []Province
	Start      []Unit
	// YearStep is how many years each movement turn is written after the
	// one before, Spring's and Fall's alike (Hundred: 5); 0 is the
	// classical calendar, Spring and Fall in one year (calendar.go).
	YearStep int
	// BuildAnywhere lets a power build in any supply centre it owns, not
	// only its home centres (a rule variant's, rulevariants.go, or the
	// map's build-anywhere directive).
	BuildAnywhere bool
	// WinterStart opens the game with the adjustments of the Winter
	// before StartYear, on a board without units (Chaos).
	WinterStart bool
	// variantRules are a rule variant's own rules, or a map file's
	// (its rules lines), as RULES shows them.
	variantRules string

	provIdx  map[string]int
	powerIdx map[string]int
	locs     []location     // location index -> province and coast
	locIdx   map[string]int // "stp/nc", "lon"
	coastLoc [][]int        // province -> its coast locations (nil when single-coast)
	army     []bitset       // province -> provinces an army may move to
	fleet    []bitset       // location -> locations a fleet may move to
	fleetTo  []bitset       // location -> provinces a fleet may move to
	seaNear  []bitset       // province -> provinces touching it by any fleet border
	homes    [][]int        // power -> home centre provinces (sorted)
	scs      []int          // supply centre provinces
	names    []string       // province -> printed name (Abbrev)
	lex      *Lexicon
	geometry func() (*Geometry, error) // parsed at first use (geometry.go)
	board    func() (*board, error)    // what every picture shares, made at the first (draw.go)

	file     string // the file's name, for messages
	provLine []int  // province -> line of its directive (nil when loaded from a table)

	provFind, powerFind nameIndex   // provIdx, powerIdx for the resolver
	states              *stateCache // states decoded on this map (statecache.go)
}

type location struct {
	prov  int
	coast string
}

// maxLocs bounds the number of locations (provinces plus coasts) of a map, so
// that adjacency fits in a fixed-size bit set.
const maxLocs = 256

// bitset is a set of locations (or provinces) by index, below maxLocs.
type bitset [maxLocs / 64]uint64

func (b *bitset) set(i int)     { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func (b bitset) or(c bitset) bitset {
	for w := range b {
		b[w] |= c[w]
	}
	return b
}

// and returns the locations in both sets.
func (b bitset) and(c bitset) bitset {
	for w := range b {
		b[w] &= c[w]
	}
	return b
}

// minus returns the locations of b not in c.
func (b bitset) minus(c bitset) bitset {
	for w := range b {
		b[w] &^= c[w]
	}
	return b
}

// first returns the lowest location in the set, -1 when it is empty.
func (b bitset) first() int {
	for w, x := range b {
		if x != 0 {
			return w<<6 | bits.TrailingZeros64(x)
		}
	}
	return -1
}

// embedded holds one loader per embedded map file by variant name (the
// file's name without ".map"). A map is loaded at its first use, once: a
// program that never plays on it never reads it.
var embedded = func() map[string]func() (*Map, error) {
	entries, err := mapFiles.ReadDir("maps")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	out := make(map[string]func() (*Map, error), len(entries))
	for _, e := range entries {
		file := e.Name()
		name := strings.TrimSuffix(file, ".map")
		out[name] = sync.OnceValues(func() (*Map, error) {
			m, err := loadEmbedded(mapFiles, file)
			if err == nil && m.Name != name {
				err = fmt.Errorf("map %s: variant %q, but the file is named for %q", file, m.Name, name)
			}
			return m, err
		})
	}
	return out
}()

// loadEmbedded loads maps/file of fsys: from its table (maptable.go) while
// the file is what the table was made from, else by parsing the file.
func loadEmbedded(fsys fs.FS, file string) (*Map, error) {
	mapLoads.Add(1)
	path := "maps/" + file
	if t := mapTableFor(file); t != nil && t.fresh(fsys, path) {
		mapTableLoads.Add(1)
		return t.load(fsys, path)
	}
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	return ParseMap(file, data)
}

// mapLoads counts the embedded maps loaded, mapTableLoads those of them
// loaded from their tables (tests read both).
var mapLoads, mapTableLoads atomic.Int32

// Maps returns the embedded maps by name ("standard", "ancientmed"),
// loading those not used yet. It panics if an embedded map fails
// validation: that is a build defect, caught by tests.
func Maps() map[string]*Map {
	out := make(map[string]*Map, len(embedded))
	for name := range embedded {
		m, _ := MapByName(name)
		out[name] = m
	}
	return out
}

// MapByName returns an embedded map or a rule variant's (rulevariants.go),
// loading it at its first use. It panics
// if the map fails validation (a build defect, caught by tests).
func MapByName(name string) (*Map, bool) {
	load, ok := embedded[name]
	if !ok {
		load, ok = ruleMaps[name] // rulevariants.go
	}
	if !ok {
		return nil, false
	}
	m, err := load()
	if err != nil {
		panic(err)
	}
	return m, true
}

// singleDirective reports whether a directive may appear only once in a
// map file.
func singleDirective(key string) bool {
	switch key {
	case "variant", "title", "start-year", "year-suffix", "year-step", "build-anywhere", "victory", "provinces", "centres":
		return true
	}
	return false
}

// mapSource is what the directives of a map file give, before the steps
// of ParseMap check and index it.
type mapSource struct {
	file                       string
	adj                        []adjLine
	units                      []unitLine
	coasts                     []coastLine
	geo                        []geoLine // parsed at first use, not here (geometry.go)
	geoTail                    []byte    // the section after the geometry marker, unread
	geoTailLine                int       // its first line's number
	wantProvinces, wantCentres int
	belowMajority              bool           // "victory N | below-majority"
	keyLine                    map[string]int // single directive -> its line
	powerLine                  []int          // power -> line of its directive
}

// provLine, powerLine and keyLine are the lines that messages name: that of
// a province's, a power's or a header directive; 1 when the map was loaded
// from a table or the directive is missing.
func (m *Map) lineOfProv(i int) int {
	if i < len(m.provLine) {
		return m.provLine[i]
	}
	return 1
}

func (src *mapSource) lineOfPower(i int) int {
	if i < len(src.powerLine) {
		return src.powerLine[i]
	}
	return 1
}

func (src *mapSource) lineOfKey(key string) int {
	if no, ok := src.keyLine[key]; ok {
		return no
	}
	return 1
}

type adjLine struct {
	line  int
	from  string
	to    []string
	fleet bool
}

type unitLine struct {
	line         int
	power, ut, l string
	extra        bool // an extra-unit line: off the power's home centres
}

type coastLine struct {
	line   int
	prov   string
	coasts []string
}

func (src *mapSource) fail(no int, format string, a ...any) error {
	return fmt.Errorf("map %s line %d: %s", src.file, no, fmt.Sprintf(format, a...))
}

// ParseMap reads and validates a map file (format in MAPFORMAT.md). file
// names the source in error messages. It reads the directives, then checks
// and indexes them step by step; the geometry section is kept for its first
// use.
func ParseMap(file string, data []byte) (*Map, error) {
	m := &Map{provIdx: map[string]int{}, powerIdx: map[string]int{}, locIdx: map[string]int{}, states: newStateCache(), file: file}
	src, err := m.readDirectives(file, data)
	if err != nil {
		return nil, err
	}
	for _, step := range []func(*mapSource) error{
		m.checkRequired, m.addCoasts, m.addLocations, m.addAdjacency, m.addDerivedAdjacency,
		m.checkNames, m.addCentres, m.addStartUnits, m.addLexicon,
	} {
		if err := step(src); err != nil {
			return nil, err
		}
	}
	m.initGeometry(file, src.geo, src.geoTail, src.geoTailLine)
	return m, nil
}

// readDirectives reads the file line by line into m (header, powers,
// provinces) and src (borders, coasts, units, geometry), refusing unknown
// directives and wrong field counts.
func (m *Map) readDirectives(file string, data []byte) (*mapSource, error) {
	src := &mapSource{file: file, wantProvinces: -1, wantCentres: -1, keyLine: map[string]int{}}
	// The generated geometry section is kept whole for its first use.
	if i := bytes.Index(data, []byte("\n"+geometryMarker)); i >= 0 {
		src.geoTail, src.geoTailLine = data[i+1:], bytes.Count(data[:i+1], []byte("\n"))+1
		data = data[:i+1]
	}
	seen := map[string]bool{}
	for i, raw := range strings.Split(string(data), "\n") {
		no := i + 1
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		errf := func(format string, a ...any) error {
			return fmt.Errorf("map %s line %d: %s", file, no, fmt.Sprintf(format, a...))
		}
		fields := func(n int) ([]string, error) {
			f := strings.Split(rest, "|")
			if len(f) != n {
				return nil, errf("%s wants %d fields separated by |, got %d", key, n, len(f))
			}
			for j := range f {
				f[j] = strings.TrimSpace(f[j])
			}
			return f, nil
		}
		if singleDirective(key) {
			if seen[key] {
				return nil, errf("%s given twice", key)
			}
			seen[key] = true
			src.keyLine[key] = no
		}
		switch key {
		case "variant":
			m.Name = rest
		case "title":
			m.Title = rest
		case "rules":
			// The variant's own rules, as RULES shows them: one line of
			// text per directive, continued with an indent.
			if m.variantRules != "" {
				m.variantRules += "\n  "
			}
			m.variantRules += rest
		case "year-suffix":
			m.YearSuffix = rest
		case "year-step":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 {
				return nil, errf("year-step wants a number of years of at least 1, got %q", rest)
			}
			m.YearStep = n
		case "build-anywhere":
			if rest != "" {
				return nil, errf("build-anywhere takes no value, got %q", rest)
			}
			m.BuildAnywhere = true
		case "start-year", "victory", "provinces", "centres":
			if key == "victory" {
				// "victory 28 | below-majority": the author means a mark
				// that several powers may pass at once (Youngstown Redux).
				if n, flag, ok := strings.Cut(rest, "|"); ok {
					if strings.TrimSpace(flag) != "below-majority" {
						return nil, errf("victory: unknown option %q (below-majority is the only one)", strings.TrimSpace(flag))
					}
					rest, src.belowMajority = strings.TrimSpace(n), true
				}
			}
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 {
				return nil, errf("%s wants a number, got %q", key, rest)
			}
			switch key {
			case "start-year":
				m.StartYear = n
			case "victory":
				m.Victory = n
			case "provinces":
				src.wantProvinces = n
			case "centres":
				src.wantCentres = n
			}
		case "power":
			f, err := fields(3)
			if err != nil {
				return nil, err
			}
			if !isID(f[0]) || f[1] == "" {
				return nil, errf("power wants an id and a name")
			}
			if _, dup := m.powerIdx[f[0]]; dup {
				return nil, errf("power %s declared twice", f[0])
			}
			src.powerLine = append(src.powerLine, no)
			m.powerIdx[f[0]] = len(m.Powers)
			m.Powers = append(m.Powers, Power{ID: f[0], Name: f[1], Aliases: splitList(f[2])})
		case "province":
			f, err := fields(6)
			if err != nil {
				return nil, err
			}
			p := Province{ID: f[0], Abbrev: f[1], Full: f[4], Aliases: splitList(f[5])}
			if !isID(p.ID) {
				return nil, errf("province id %q must be lower-case letters", p.ID)
			}
			if _, dup := m.provIdx[p.ID]; dup {
				return nil, errf("province %s declared twice", p.ID)
			}
			if p.Abbrev == "" || p.Full == "" {
				return nil, errf("province %s needs an abbreviation and a full name", p.ID)
			}
			k, ok := kindNamed(f[2])
			if !ok {
				return nil, errf("province %s: unknown kind %q (land, coast, sea, archipelago)", p.ID, f[2])
			}
			p.Kind = k
			switch f[3] {
			case "-":
			case "sc":
				p.SupplyCenter = true
			default:
				if _, ok := m.powerIdx[f[3]]; !ok {
					return nil, errf("province %s: home centre of unknown power %q (declare powers first)", p.ID, f[3])
				}
				p.SupplyCenter, p.Home = true, f[3]
			}
			if p.SupplyCenter && p.Kind == Sea {
				return nil, errf("province %s: a sea cannot be a supply centre", p.ID)
			}
			m.provIdx[p.ID] = len(m.Provinces)
			m.Provinces = append(m.Provinces, p)
			m.provLine = append(m.provLine, no)
		case "coasts":
			f, err := fields(2)
			if err != nil {
				return nil, err
			}
			src.coasts = append(src.coasts, coastLine{no, f[0], strings.Fields(f[1])})
		case "army", "fleet":
			f, err := fields(2)
			if err != nil {
				return nil, err
			}
			src.adj = append(src.adj, adjLine{no, f[0], strings.Fields(f[1]), key == "fleet"})
		case "unit", "extra-unit":
			f, err := fields(2)
			if err != nil {
				return nil, err
			}
			ut, l, ok := strings.Cut(f[1], " ")
			if !ok {
				return nil, errf("%s wants <A|F> <location>", key)
			}
			src.units = append(src.units, unitLine{no, f[0], ut, strings.TrimSpace(l), key == "extra-unit"})
		default:
			if strings.HasPrefix(key, "geo-") {
				src.geo = append(src.geo, geoLine{no, key, rest})
				continue
			}
			return nil, errf("unknown directive %q", key)
		}
	}
	return src, nil
}

// checkRequired checks the header and that there are powers and provinces.
func (m *Map) checkRequired(src *mapSource) error {
	if m.Name == "" || m.Title == "" || m.Victory == 0 {
		return src.fail(1, "variant, title and victory are required (missing: %s)", missingHeader(m))
	}
	if len(m.Powers) == 0 || len(m.Provinces) == 0 {
		return src.fail(1, "no powers or no provinces")
	}
	return nil
}

// addCoasts gives multi-coast provinces their coasts.
func (m *Map) addCoasts(src *mapSource) error {
	for _, c := range src.coasts {
		pi, ok := m.provIdx[c.prov]
		if !ok {
			return src.fail(c.line, "coasts of unknown province %q", c.prov)
		}
		p := &m.Provinces[pi]
		if p.Kind != Coast {
			return src.fail(c.line, "province %s: only a coastal province has coasts", p.ID)
		}
		if p.Coasts != nil {
			return src.fail(c.line, "province %s: coasts given twice", p.ID)
		}
		if len(c.coasts) < 2 {
			return src.fail(c.line, "province %s: a multi-coast province needs at least two coasts", p.ID)
		}
		for j, id := range c.coasts {
			if !isID(id) || slicesIndex(c.coasts[:j], id) >= 0 {
				return src.fail(c.line, "province %s: bad or repeated coast %q", p.ID, id)
			}
		}
		p.Coasts = c.coasts
	}
	return nil
}

// addLocations indexes the locations: provinces first (index = province
// index), then coasts.
func (m *Map) addLocations(src *mapSource) error {
	m.coastLoc = make([][]int, len(m.Provinces))
	for i, p := range m.Provinces {
		m.locs = append(m.locs, location{prov: i})
		m.locIdx[p.ID] = i
	}
	for i, p := range m.Provinces {
		for _, c := range p.Coasts {
			m.coastLoc[i] = append(m.coastLoc[i], len(m.locs))
			m.locIdx[p.ID+"/"+c] = len(m.locs)
			m.locs = append(m.locs, location{prov: i, coast: c})
		}
	}
	if len(m.locs) > maxLocs {
		// Name the province at which the count passes the limit.
		n := 0
		for i, p := range m.Provinces {
			if n += 1 + len(p.Coasts); n > maxLocs {
				return src.fail(m.lineOfProv(i), "province %s: the map has %d locations (provinces plus coasts), at most %d supported", p.ID, len(m.locs), maxLocs)
			}
		}
	}
	return nil
}

// addAdjacency reads the army and fleet borders and checks them: known
// neighbours, terrain, coasts named, mirrored, none missing.
func (m *Map) addAdjacency(src *mapSource) error {
	m.army = make([]bitset, len(m.Provinces))
	m.fleet = make([]bitset, len(m.locs))
	armySeen := make([]bool, len(m.Provinces))
	fleetSeen := make([]bool, len(m.locs))
	for _, a := range src.adj {
		if !a.fleet {
			pi, ok := m.provIdx[a.from]
			if !ok {
				return src.fail(a.line, "army border of unknown province %q", a.from)
			}
			p := m.Provinces[pi]
			if p.Kind != Land && p.Kind != Coast {
				return src.fail(a.line, "province %s: a %s has no army borders", p.ID, kindName(p.Kind))
			}
			if armySeen[pi] {
				return src.fail(a.line, "province %s: army borders given twice", p.ID)
			}
			armySeen[pi] = true
			for _, t := range a.to {
				ti, ok := m.provIdx[t]
				if !ok {
					return src.fail(a.line, "province %s: army neighbour %q does not exist", p.ID, t)
				}
				if ti == pi {
					return src.fail(a.line, "province %s: borders itself", p.ID)
				}
				tk := m.Provinces[ti].Kind
				if tk != Land && tk != Coast {
					return src.fail(a.line, "province %s: army neighbour %s is a %s", p.ID, t, kindName(tk))
				}
				m.army[pi].set(ti)
			}
			continue
		}
		li, ok := m.locIdx[a.from]
		if !ok {
			return src.fail(a.line, "fleet border of unknown location %q", a.from)
		}
		pf := m.Provinces[m.locs[li].prov]
		if pf.Kind == Land {
			return src.fail(a.line, "province %s: an inland province has no fleet borders", pf.ID)
		}
		if len(pf.Coasts) > 0 && m.locs[li].coast == "" {
			return src.fail(a.line, "province %s: give fleet borders per coast (%s/%s …)", pf.ID, pf.ID, pf.Coasts[0])
		}
		if fleetSeen[li] {
			return src.fail(a.line, "location %s: fleet borders given twice", a.from)
		}
		fleetSeen[li] = true
		for _, t := range a.to {
			ti, ok := m.locIdx[t]
			if !ok {
				return src.fail(a.line, "location %s: fleet neighbour %q does not exist", a.from, t)
			}
			pt := m.Provinces[m.locs[ti].prov]
			if len(pt.Coasts) > 0 && m.locs[ti].coast == "" {
				return src.fail(a.line, "location %s: fleet neighbour %s needs a coast (%s/%s …)", a.from, t, pt.ID, pt.Coasts[0])
			}
			if pt.Kind == Land {
				return src.fail(a.line, "location %s: fleet neighbour %s is inland", a.from, t)
			}
			if m.locs[ti].prov == m.locs[li].prov {
				return src.fail(a.line, "location %s: borders its own province", a.from)
			}
			m.fleet[li].set(ti)
		}
	}
	for i := range m.Provinces {
		for j := range m.Provinces {
			if m.army[i].has(j) && !m.army[j].has(i) {
				return src.fail(m.lineOfProv(i), "province %s: army border to %s is not mirrored (%s lacks %s)", m.Provinces[i].ID, m.Provinces[j].ID, m.Provinces[j].ID, m.Provinces[i].ID)
			}
		}
	}
	for i := range m.locs {
		for j := range m.locs {
			if m.fleet[i].has(j) && !m.fleet[j].has(i) {
				return src.fail(m.lineOfProv(m.locs[i].prov), "province %s: fleet border to %s is not mirrored (%s lacks %s)", m.locName(i), m.locName(j), m.locName(j), m.locName(i))
			}
		}
	}
	for i, p := range m.Provinces {
		switch p.Kind {
		case Land:
			if m.army[i].count() == 0 {
				return src.fail(m.lineOfProv(i), "province %s: inland province without army borders", p.ID)
			}
		case Coast:
			if len(p.Coasts) == 0 && m.fleet[i].count() == 0 {
				return src.fail(m.lineOfProv(i), "province %s: coastal province without fleet borders", p.ID)
			}
			for _, l := range m.coastLoc[i] {
				if m.fleet[l].count() == 0 {
					return src.fail(m.lineOfProv(i), "province %s: coast %s has no fleet borders", p.ID, m.locs[l].coast)
				}
			}
		case Sea, Archipelago:
			if m.fleet[i].count() == 0 {
				return src.fail(m.lineOfProv(i), "province %s: %s without fleet borders", p.ID, kindName(p.Kind))
			}
		}
	}
	return nil
}

// addDerivedAdjacency computes the provinces each location's fleet reaches.
func (m *Map) addDerivedAdjacency(src *mapSource) error {
	m.fleetTo = make([]bitset, len(m.locs))
	m.seaNear = make([]bitset, len(m.Provinces))
	for l := range m.locs {
		for t := range m.locs {
			if m.fleet[l].has(t) {
				m.fleetTo[l].set(m.locs[t].prov)
			}
		}
		m.seaNear[m.locs[l].prov] = m.seaNear[m.locs[l].prov].or(m.fleetTo[l])
	}
	return nil
}

// checkNames refuses a name that names two provinces.
func (m *Map) checkNames(src *mapSource) error {
	names := map[string]string{}
	claim := func(line int, name, owner string) error {
		k := strings.ToLower(name)
		if prev, dup := names[k]; dup && prev != owner {
			return src.fail(line, "%s: name %q is also a name of %s", owner, name, prev)
		}
		names[k] = owner
		return nil
	}
	for i, p := range m.Provinces {
		for _, n := range append([]string{p.ID, p.Abbrev, p.Full}, p.Aliases...) {
			if err := claim(m.lineOfProv(i), n, "province "+p.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// addCentres indexes supply centres and home centres and checks the
// declared counts and the victory count.
func (m *Map) addCentres(src *mapSource) error {
	m.homes = make([][]int, len(m.Powers))
	for i, p := range m.Provinces {
		if p.SupplyCenter {
			m.scs = append(m.scs, i)
		}
		if p.Home != "" {
			pw := m.powerIdx[p.Home]
			// The power's own id string: the positions' owners share it,
			// so comparing them with the map's ids is a pointer compare.
			m.Provinces[i].Home = m.Powers[pw].ID
			m.homes[pw] = append(m.homes[pw], i)
		}
	}
	if src.wantProvinces >= 0 && src.wantProvinces != len(m.Provinces) {
		return src.fail(src.lineOfKey("provinces"), "declares %d provinces but lists %d (last: province %s)", src.wantProvinces, len(m.Provinces), m.Provinces[len(m.Provinces)-1].ID)
	}
	if src.wantCentres >= 0 && src.wantCentres != len(m.scs) {
		return src.fail(src.lineOfKey("centres"), "declares %d supply centres but lists %d (%s)", src.wantCentres, len(m.scs), m.provList(m.scs))
	}
	if m.Victory > len(m.scs) {
		return src.fail(src.lineOfKey("victory"), "victory at %d centres is more than the %d centres (%s)", m.Victory, len(m.scs), m.provList(m.scs))
	}
	if m.Victory <= len(m.scs)/2 && !src.belowMajority {
		return src.fail(src.lineOfKey("victory"), "victory at %d centres must be a majority of the %d centres (%s), or say \"victory %d | below-majority\"", m.Victory, len(m.scs), m.provList(m.scs), m.Victory)
	}
	for pw, h := range m.homes {
		if len(h) == 0 {
			return src.fail(src.lineOfPower(pw), "power %s has no home centre (no province names it as its centre)", m.Powers[pw].ID)
		}
	}
	return nil
}

// addStartUnits reads the start units: each on its power's home centre, one
// per province and per home centre, of a type that can stand there; an
// extra unit (Hundred's French army in Provence) stands off every home
// centre and is not counted against them.
func (m *Map) addStartUnits(src *mapSource) error {
	occupied := make([]bool, len(m.Provinces))
	perPower := make([]int, len(m.Powers))
	for _, u := range src.units {
		pw, ok := m.powerIdx[u.power]
		if !ok {
			return src.fail(u.line, "unit of unknown power %q", u.power)
		}
		li, ok := m.locIdx[u.l]
		if !ok {
			return src.fail(u.line, "unit in unknown location %q", u.l)
		}
		pi := m.locs[li].prov
		p := m.Provinces[pi]
		var ut UnitType
		switch u.ut {
		case "A":
			ut = Army
			if p.Kind == Sea || m.locs[li].coast != "" {
				return src.fail(u.line, "province %s: an army cannot stand at %s", p.ID, u.l)
			}
		case "F":
			ut = Fleet
			if p.Kind == Land || (len(p.Coasts) > 0 && m.locs[li].coast == "") {
				return src.fail(u.line, "province %s: a fleet cannot stand at %s", p.ID, u.l)
			}
		default:
			return src.fail(u.line, "unit type %q is not A or F", u.ut)
		}
		switch {
		case u.extra && p.Home == u.power:
			return src.fail(u.line, "province %s: extra start unit of %s on its own home centre (write it as a unit line)", p.ID, u.power)
		case u.extra && p.Home != "":
			return src.fail(u.line, "province %s: extra start unit of %s on a home centre of %s", p.ID, u.power, p.Home)
		case !u.extra && p.Home != u.power:
			return src.fail(u.line, "province %s: start unit of %s is not on one of its home centres (an extra-unit line places one elsewhere)", p.ID, u.power)
		}
		if occupied[pi] {
			return src.fail(u.line, "province %s: two start units", p.ID)
		}
		occupied[pi] = true
		if !u.extra {
			perPower[pw]++
		}
		m.Start = append(m.Start, Unit{Power: m.Powers[pw].ID, Type: ut, Loc: Location{Province: p.ID, Coast: m.locs[li].coast}})
	}
	for pw, n := range perPower {
		if n != len(m.homes[pw]) {
			return src.fail(src.lineOfPower(pw), "power %s starts with %d units on %d home centres (%s): one unit per home centre", m.Powers[pw].ID, n, len(m.homes[pw]), m.provList(m.homes[pw]))
		}
	}
	return nil
}

// addLexicon builds the printed names and the order parser's lexicon.
func (m *Map) addLexicon(src *mapSource) error {
	file := src.file
	m.names = make([]string, len(m.Provinces))
	ids := make([]string, len(m.Provinces))
	for i, p := range m.Provinces {
		m.names[i], ids[i] = p.Abbrev, p.ID
	}
	powerIDs := make([]string, len(m.Powers))
	for i, p := range m.Powers {
		powerIDs[i] = p.ID
	}
	m.provFind, m.powerFind = newNameIndex(ids), newNameIndex(powerIDs)
	lex, err := m.buildLexicon()
	if err != nil {
		return fmt.Errorf("map %s: names: %w", file, err)
	}
	m.lex = lex
	return nil
}

func (m *Map) buildLexicon() (*Lexicon, error) {
	provs, powers := make([]orders.Name, 0, len(m.Provinces)), make([]orders.Name, 0, len(m.Powers))
	for _, p := range m.Provinces {
		provs = append(provs, orders.Name{ID: p.ID, Full: p.Full, Abbrev: p.Abbrev, Aliases: p.Aliases, Coasts: p.Coasts})
	}
	for _, p := range m.Powers {
		powers = append(powers, orders.Name{ID: p.ID, Full: p.Name, Abbrev: p.Name, Aliases: p.Aliases})
	}
	return NewLexicon(provs, powers)
}

// Lexicon returns the names of the map for the order parser. It is built
// once; callers must not modify it.
func (m *Map) Lexicon() *Lexicon { return m.lex }

// Province returns the province with the given id.
func (m *Map) Province(id string) (Province, bool) {
	i, ok := m.provIdx[id]
	if !ok {
		return Province{}, false
	}
	return m.Provinces[i], true
}

// PowerName returns the printed name of a power id (the id itself if unknown).
func (m *Map) PowerName(id string) string {
	if i, ok := m.powerIdx[id]; ok {
		return m.Powers[i].Name
	}
	return id
}

// PowerID finds a power by id, name or alias, case-insensitively.
func (m *Map) PowerID(name string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(name))
	for _, p := range m.Powers {
		if k == p.ID || k == strings.ToLower(p.Name) || slicesIndex(p.Aliases, k) >= 0 {
			return p.ID, true
		}
	}
	return "", false
}

// HomeCentres lists the home centre ids of a power, sorted.
func (m *Map) HomeCentres(power string) []string {
	pw, ok := m.powerIdx[power]
	if !ok {
		return nil
	}
	var out []string
	for _, p := range m.homes[pw] {
		out = append(out, m.Provinces[p].ID)
	}
	sort.Strings(out)
	return out
}

// buildSites are the provinces where power pw may build when it owns
// them: its home centres, or every supply centre under BuildAnywhere.
func (m *Map) buildSites(pw int) []int {
	if m.BuildAnywhere {
		return m.scs
	}
	return m.homes[pw]
}

// BuildSites lists the ids of the provinces where a power may build
// while it owns them, sorted: its home centres, or every supply centre
// under BuildAnywhere.
func (m *Map) BuildSites(power string) []string {
	if !m.BuildAnywhere {
		return m.HomeCentres(power)
	}
	out := m.SupplyCentres()
	sort.Strings(out)
	return out
}

// SupplyCentres lists the ids of all supply centres in map order.
func (m *Map) SupplyCentres() []string {
	out := make([]string, len(m.scs))
	for i, p := range m.scs {
		out[i] = m.Provinces[p].ID
	}
	return out
}

// ArmyBorder reports whether an army may move from province a to province b.
func (m *Map) ArmyBorder(a, b string) bool {
	ai, ok1 := m.provIdx[a]
	bi, ok2 := m.provIdx[b]
	return ok1 && ok2 && m.army[ai].has(bi)
}

// FleetBorder reports whether a fleet may move from location a to location b
// (locations written "lon" or "stp/nc").
func (m *Map) FleetBorder(a, b string) bool {
	ai, ok1 := m.locIdx[a]
	bi, ok2 := m.locIdx[b]
	return ok1 && ok2 && m.fleet[ai].has(bi)
}

// locName prints a location as "stp/nc" or "lon".
func (m *Map) locName(l int) string {
	p := m.Provinces[m.locs[l].prov].ID
	if c := m.locs[l].coast; c != "" {
		return p + "/" + c
	}
	return p
}

// locOf returns the location index of a province and coast ("" = the
// province itself). ok is false for an unknown province or coast.
func (m *Map) locOf(prov int, coast string) (int, bool) {
	if coast == "" {
		return prov, true
	}
	for _, l := range m.coastLoc[prov] {
		if m.locs[l].coast == coast {
			return l, true
		}
	}
	return 0, false
}

// convoyable reports whether a fleet in province p may convoy.
func (m *Map) convoyable(p int) bool {
	k := m.Provinces[p].Kind
	return k == Sea || k == Archipelago
}

func kindName(k ProvinceKind) string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "?"
}

func isID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func splitList(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, strings.ToLower(a))
		}
	}
	return out
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// missingHeader names the required header directives a map lacks.
func missingHeader(m *Map) string {
	var out []string
	if m.Name == "" {
		out = append(out, "variant")
	}
	if m.Title == "" {
		out = append(out, "title")
	}
	if m.Victory == 0 {
		out = append(out, "victory")
	}
	return strings.Join(out, ", ")
}

// provList names provinces by id for a message: "lon, edi, lvp".
func (m *Map) provList(idx []int) string {
	ids := make([]string, len(idx))
	for i, p := range idx {
		ids[i] = m.Provinces[p].ID
	}
	return strings.Join(ids, ", ")
}
