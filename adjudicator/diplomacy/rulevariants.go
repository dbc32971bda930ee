package diplomacy

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"pbemd/adjudicator"
	"pbemd/picture"
)

// Rule variants: games played on an embedded map's board with other
// powers, another start or another build rule. Each is one value of
// ruleVariants; its map is the board's own, made again with the
// variant's powers, home centres, start units and rules, sharing the
// board's provinces, borders and geometry. Facts come from published
// rules (each value names its source); code holds only the two real rule
// differences (Map.BuildAnywhere, Map.WinterStart). A variant may move or
// change start units (ruleVariant.restart); its powers still own their
// home centres, with or without a unit in them.

// ruleVariant is one rule variant of a board.
type ruleVariant struct {
	name, title, base string
	// keep are the base's powers that play (nil: all). The home centres
	// of the others start neutral and their units do not stand.
	keep []string
	// restart changes start units: the base's unit in each key's province
	// stands as the value instead (another type, or another place), the
	// power's own; all changes at once.
	restart map[string]Unit
	// chaos gives every supply centre a power of its own, named for it,
	// whose one home centre it is; the game opens with Winter builds.
	chaos         bool
	buildAnywhere bool
	fog           bool // each power sees only its part of the board (fog.go)
	victory       int  // 0: the base's
	rules         string
}

// ruleVariants are the rule variants pbemd ships.
var ruleVariants = []ruleVariant{
	{
		name: "buildanywhere", title: "Diplomacy, Build Anywhere (standard map)", base: "standard", buildAnywhere: true,
		rules: "Build Anywhere (webDiplomacy's and vDiplomacy's BuildAnywhere variant, the judges'\n" +
			"  chaos builds): a power builds in any vacant supply centre it owns, not only in\n" +
			"  its home centres. Everything else is the standard game.",
	},
	{
		name: "chaos", title: "Chaos (standard map, 34 powers)", base: "standard", chaos: true, buildAnywhere: true, victory: 18,
		rules: "Chaos (the judges' variant of 1990, info.chaos on diplom.org): 34 powers, each\n" +
			"  owning one supply centre of the standard map and named for it. The game opens\n" +
			"  in Winter 1900 with no unit on the board: each power builds its first unit,\n" +
			"  army or fleet, in its centre (a build not ordered is waived). Builds are made\n" +
			"  in any vacant supply centre the power owns. Victory at 18 centres.",
	},
	{
		name: "evt", title: "England vs Turkey (standard map, two players)", base: "standard", keep: []string{"england", "turkey"}, victory: 18,
		restart: map[string]Unit{
			"edi": {Type: Fleet, Loc: Location{Province: "nth"}},
			"lon": {Type: Fleet, Loc: Location{Province: "eng"}},
			"lvp": {Type: Army, Loc: Location{Province: "lon"}},
		},
		rules: "England vs Turkey (two players; vDiplomacy's ClassicEvT, \"England* vs Turkey\"):\n" +
			"  only England and Turkey play. To offset England's corner, its fleets start at\n" +
			"  sea: F North Sea, F English Channel and A London (Edinburgh and Liverpool start\n" +
			"  English and empty); Turkey has its usual units. The home centres of Austria,\n" +
			"  France, Germany, Italy and Russia start neutral and empty. Victory at 18 centres.",
	},
	{
		name: "fleetrome", title: "Diplomacy, Fleet Rome (standard map)", base: "standard",
		restart: map[string]Unit{"rom": {Type: Fleet, Loc: Location{Province: "rom"}}},
		rules: "Fleet Rome (Richard Sharp's; the Variant Bank's rb41, the judges' fleet_rome,\n" +
			"  webDiplomacy's FleetRome, godip's Fleet Rome): Italy starts with a fleet in Rome\n" +
			"  instead of an army. Everything else is the standard game.",
	},
	{
		name: "fog", title: "Diplomacy, Fog of War (standard map)", base: "standard", fog: true,
		rules: "Fog of War (webDiplomacy's and vDiplomacy's fog of war games): each power sees\n" +
			"  only the provinces its units stand in or border and the centres it owns with\n" +
			"  their borders; its results, STATUS, HISTORY and pictures show only that (orders\n" +
			"  with their outcomes, not their reasons). The GM's and observers' pictures show\n" +
			"  the whole board. Everything else is the standard game.",
	},
	{
		name: "fva", title: "France vs Austria (standard map, two players)", base: "standard", keep: []string{"austria", "france"}, victory: 18,
		rules: "France vs Austria (two players; godip's and vDiplomacy's ClassicFvA): only France\n" +
			"  and Austria play, with their usual units. The home centres of England, Germany,\n" +
			"  Italy, Russia and Turkey start neutral and empty. Victory at 18 centres.",
	},
	{
		name: "gvi", title: "Germany vs Italy (standard map, two players)", base: "standard", keep: []string{"germany", "italy"}, victory: 18,
		rules: "Germany vs Italy (two players; godip's and vDiplomacy's ClassicGvI): only Germany\n" +
			"  and Italy play, with their usual units. The home centres of Austria, England,\n" +
			"  France, Russia and Turkey start neutral and empty. Victory at 18 centres.",
	},
}

// ruleMaps loads each rule variant's map once, at its first use.
var ruleMaps = func() map[string]func() (*Map, error) {
	out := make(map[string]func() (*Map, error), len(ruleVariants))
	for i := range ruleVariants {
		rv := &ruleVariants[i]
		out[rv.name] = sync.OnceValues(func() (*Map, error) {
			load, ok := embedded[rv.base]
			if !ok {
				return nil, fmt.Errorf("rule variant %s: no map %q", rv.name, rv.base)
			}
			base, err := load()
			if err != nil {
				return nil, err
			}
			return rv.derive(base)
		})
	}
	return out
}()

// ruleEngine is the engine of a rule variant's map.
func ruleEngine(m *Map) adjudicator.Engine {
	for _, rv := range ruleVariants {
		if rv.name == m.Name && rv.fog {
			return FogEngine{&Engine{m: m}}
		}
	}
	return &Engine{m: m}
}

// RuleVariantNames lists the rule variants' names, in their table's order.
func RuleVariantNames() []string {
	out := make([]string, len(ruleVariants))
	for i, rv := range ruleVariants {
		out[i] = rv.name
	}
	return out
}

// derive makes the variant's map of its base's.
func (rv *ruleVariant) derive(base *Map) (*Map, error) {
	d := *base
	m := &d
	m.Name, m.Title = rv.name, rv.title
	m.BuildAnywhere, m.variantRules = rv.buildAnywhere, rv.rules
	if rv.victory > 0 {
		m.Victory = rv.victory
	}
	m.Provinces = append([]Province(nil), base.Provinces...)
	m.Powers, m.Start = nil, nil
	switch {
	case rv.chaos:
		m.WinterStart = true
		for _, i := range base.scs {
			p := base.Provinces[i]
			m.Powers = append(m.Powers, Power{ID: idOf(p.Full), Name: p.Full})
		}
	case rv.keep != nil:
		for _, p := range base.Powers {
			if slicesIndex(rv.keep, p.ID) >= 0 {
				m.Powers = append(m.Powers, p)
			}
		}
		if len(m.Powers) != len(rv.keep) {
			return nil, fmt.Errorf("rule variant %s: powers %v are not all powers of %s", rv.name, rv.keep, base.Name)
		}
		for _, u := range base.Start {
			if slicesIndex(rv.keep, u.Power) >= 0 {
				m.Start = append(m.Start, u)
			}
		}
	default:
		m.Powers, m.Start = base.Powers, base.Start
	}
	if rv.restart != nil {
		start := make([]Unit, 0, len(m.Start))
		taken := map[string]bool{}
		for _, u := range m.Start {
			if nu, ok := rv.restart[u.Loc.Province]; ok {
				nu.Power = u.Power
				u = nu
			}
			if taken[u.Loc.Province] {
				return nil, fmt.Errorf("rule variant %s: two start units in %s", rv.name, u.Loc.Province)
			}
			taken[u.Loc.Province] = true
			start = append(start, u)
		}
		for prov := range rv.restart {
			if !slices.ContainsFunc(m.Start, func(u Unit) bool { return u.Loc.Province == prov }) {
				return nil, fmt.Errorf("rule variant %s: no start unit in %s to change", rv.name, prov)
			}
		}
		m.Start = start
	}
	m.powerIdx = make(map[string]int, len(m.Powers))
	powerIDs := make([]string, len(m.Powers))
	for i, p := range m.Powers {
		if _, dup := m.powerIdx[p.ID]; dup || !isID(p.ID) {
			return nil, fmt.Errorf("rule variant %s: bad or repeated power id %q", rv.name, p.ID)
		}
		m.powerIdx[p.ID], powerIDs[i] = i, p.ID
	}
	m.homes = make([][]int, len(m.Powers))
	for k, i := range base.scs {
		p := &m.Provinces[i]
		if rv.chaos {
			p.Home = m.Powers[k].ID
		} else if pw, ok := m.powerIdx[p.Home]; ok {
			p.Home = m.Powers[pw].ID
		} else {
			p.Home = ""
		}
		if pw, ok := m.powerIdx[p.Home]; ok {
			m.homes[pw] = append(m.homes[pw], i)
		}
	}
	if m.Victory <= len(m.scs)/2 || m.Victory > len(m.scs) {
		return nil, fmt.Errorf("rule variant %s: victory at %d is not a majority of %d centres", rv.name, m.Victory, len(m.scs))
	}
	m.powerFind = newNameIndex(powerIDs)
	lex, err := m.buildLexicon()
	if err != nil {
		return nil, fmt.Errorf("rule variant %s: names: %w", rv.name, err)
	}
	m.lex = lex
	m.states = newStateCache()
	colours := chaosColours(len(m.Powers))
	m.geometry = sync.OnceValues(func() (*Geometry, error) {
		g, err := base.Geometry()
		if err != nil || !rv.chaos {
			return g, err
		}
		own := *g
		own.Colors = make(map[string]picture.Color, len(m.Powers))
		for i, p := range m.Powers {
			own.Colors[p.ID] = colours[i]
		}
		return &own, nil
	})
	m.board = sync.OnceValues(func() (*board, error) { return newBoard(m) })
	if err := m.NewPosition().Validate(); err != nil {
		return nil, fmt.Errorf("rule variant %s: start: %w", rv.name, err)
	}
	return m, nil
}

// idOf is a power id made of a name: its letters, in lower case
// ("St Petersburg" → "stpetersburg").
func idOf(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// chaosColours are n colours around the colour wheel for Chaos's powers:
// neighbours in the list apart in hue and alternately light and dark.
func chaosColours(n int) []picture.Color {
	out := make([]picture.Color, n)
	for i := range out {
		// Step by a golden-ratio fraction of the wheel: every hue differs
		// from its neighbours' by more than a third of a turn.
		h := math.Mod(float64(i)*0.381966, 1)
		l := 0.45
		if i%2 == 1 {
			l = 0.62
		}
		out[i] = hsl(h, 0.7, l)
	}
	return out
}

// hsl is a colour from hue (turns), saturation and lightness in [0, 1].
func hsl(h, s, l float64) picture.Color {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h*6, 2)-1))
	var r, g, b float64
	switch int(h * 6) {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	mm := l - c/2
	v := func(f float64) uint32 { return uint32(math.Round((f + mm) * 255)) }
	return picture.Hex(v(r)<<16 | v(g)<<8 | v(b))
}
