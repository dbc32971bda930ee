package diplomacy

import (
	"fmt"
	"strings"
	"testing"
)

// shippedMap returns the text of an embedded map file.
func shippedMap(t *testing.T, name string) string {
	t.Helper()
	data, err := mapFiles.ReadFile("maps/" + name + ".map")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The geometry is read at the first picture, not when the map loads: a
// broken geometry line leaves the game playable and fails the picture with
// the line's number.
func TestGeometryReadAtFirstUse(t *testing.T) {
	text := shippedMap(t, "standard") + "geo-shape narnia | 1,1 2,2 3,1\n"
	m, err := ParseMap("standard.map", []byte(text))
	if err != nil {
		t.Fatalf("a bad geometry line refused the map: %v", err)
	}
	line := fmt.Sprintf("line %d:", strings.Count(text, "\n"))
	if _, err := m.Geometry(); err == nil || !strings.Contains(err.Error(), `unknown province "narnia"`) || !strings.Contains(err.Error(), line) {
		t.Errorf("Geometry: %v, want the unknown province and %s", err, line)
	}
	e := &Engine{m: m}
	st, _ := e.New(nil, 0)
	if _, err := e.Draw(st, nil, ""); err == nil {
		t.Error("a map with a broken geometry drew a picture")
	}
}

func TestGeometryChecks(t *testing.T) {
	base := shippedMap(t, "standard")
	head := base[:strings.Index(base, "# ---- geometry")]
	geo := base[len(head):]
	drop := func(prefix string) string {
		var out []string
		for _, l := range strings.Split(geo, "\n") {
			if !strings.HasPrefix(l, prefix) {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, tc := range []struct{ name, geo, want string }{
		{"no geometry", "", "has no geometry"},
		{"point outside", geo + "geo-coast spa/nc | 99999,5\n", "outside the"},
		{"bad point", geo + "geo-coast spa/nc | 5;5\n", "bad point"},
		{"a province without a shape", drop("geo-shape bel "), "province bel has no geo-shape"},
		{"a province without a place", drop("geo-place bel "), "province bel has no geo-place"},
		{"a coast without a point", drop("geo-coast spa/sc "), "coast spa/sc has no geo-coast"},
		{"a link between strangers", geo + "geo-link mos spa | 1,1 2,2\n", "not adjacent"},
		{"a colour of nobody", geo + "geo-colour narnia | #123456\n", "unknown power"},
		{"a bad colour", geo + "geo-colour france | blue\n", "want #rrggbb"},
		{"unknown directive", geo + "geo-river lon | 1,1 2,2\n", `unknown directive "geo-river"`},
		{"a map directive in the geometry", geo + "army lon | wal\n", "only geo- directives go there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseMap("standard.map", []byte(head+tc.geo))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Geometry(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Every shipped map has a geometry that reads.
func TestShippedGeometry(t *testing.T) {
	for _, name := range MapNames() {
		m, _ := MapByName(name)
		g, err := m.Geometry()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(g.Colors) != len(m.Powers) {
			t.Errorf("%s: %d power colours for %d powers", name, len(g.Colors), len(m.Powers))
		}
	}
}
