package supremacy

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// textEntries splits a text map into its area entries: id ⇒ the entry's
// text (its lines joined). An entry starts at a line that begins with an
// area id; its continuation lines are indented.
func textEntries(sc *Scenario, text string) map[string]string {
	out := map[string]string{}
	id := ""
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			id = ""
		case line[0] != ' ':
			id = ""
			if _, ok := sc.areaByID[f[0]]; ok && len(f) > 1 {
				id = f[0]
				out[id] = line
			}
		case id != "":
			out[id] += " " + strings.TrimSpace(line)
		}
	}
	return out
}

var bordersRE = regexp.MustCompile(`borders: (?:land ([^;]*))?(?:; )?(?:seas (.*))?$`)

// The text map lets a player write orders: every area's id and name, its
// borders exactly as the scenario has them (impassable ones marked, straits
// named), who holds it and with what.
func TestTextMap(t *testing.T) {
	e, st, _ := midGame(t)
	text, err := e.TextMap(st, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text, "\n") {
		if len([]rune(line)) > textWidth {
			t.Errorf("line longer than %d: %q", textWidth, line)
		}
	}
	w, _ := decodeWorld(st)
	sc := w.sc
	entries := textEntries(sc, text)
	for a, ar := range sc.areas {
		entry, ok := entries[ar.ID]
		if !ok {
			t.Errorf("area %s has no entry", ar.ID)
			continue
		}
		if !strings.Contains(entry, ar.Name) {
			t.Errorf("%s: name %q missing in %q", ar.ID, ar.Name, entry)
		}
		m := bordersRE.FindStringSubmatch(entry)
		if m == nil {
			t.Errorf("%s: no borders in %q", ar.ID, entry)
			continue
		}
		var got []string
		for _, list := range m[1:] {
			for _, f := range strings.Split(list, ", ") {
				if f == "" {
					continue
				}
				id := strings.TrimPrefix(f, "x ")
				if strings.HasPrefix(f, "x ") != sc.impass[pair(a, sc.areaByID[id])] {
					t.Errorf("%s: %q marks impassability wrongly", ar.ID, f)
				}
				if i := strings.Index(id, " ["); i > 0 {
					ch := sc.chokeBetween(a, sc.areaByID[id[:i]])
					if ch < 0 || id[i:] != " ["+sc.chokes[ch].ID+"]" {
						t.Errorf("%s: %q names a strait that is not there", ar.ID, f)
					}
					id = id[:i]
				} else if ar.sea && sc.chokeBetween(a, sc.areaByID[id]) >= 0 {
					t.Errorf("%s: the strait to %s is not named", ar.ID, id)
				}
				got = append(got, id)
			}
		}
		var want []string
		for _, n := range ar.adj {
			want = append(want, sc.areas[n].ID)
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: borders %v, scenario %v", ar.ID, got, want)
		}
		// Who holds it.
		if i := w.controller(a); i >= 0 && !ar.sea {
			want := "held by " + w.pname(i)
			if n := w.armies(i, a); n > 0 {
				want += ": " + plural(n, "army", "armies")
			}
			if !strings.Contains(entry, want) {
				t.Errorf("%s: want %q in %q", ar.ID, want, entry)
			}
		}
	}
	for _, ch := range sc.chokes {
		if !strings.Contains(text, "\n"+ch.ID+" ") {
			t.Errorf("choke point %s not listed", ch.ID)
		}
	}
	// Some armies stand on the board in the mid-game, and the text says so.
	if !strings.Contains(text, "armies\n") && !strings.Contains(text, "armies ") {
		t.Error("no armies in the mid-game text map")
	}
}

// HELP points players to the text map.
func TestHelpPointsToMap(t *testing.T) {
	found := false
	for _, ex := range shipped(t).Info().Examples {
		if strings.HasPrefix(ex, "MAP ") {
			found = true
		}
	}
	if !found {
		t.Error("no MAP line among the HELP examples")
	}
}
