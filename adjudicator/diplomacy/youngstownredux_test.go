package diplomacy

import (
	"sort"
	"strings"
	"testing"
)

// Youngstown Redux's special features in the DATC's style:
// testdata/youngstownredux.
func TestYoungstownReduxFeatures(t *testing.T) {
	for _, c := range loadCases(t, "testdata/youngstownredux/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

// The map's header facts: ten powers, 183 provinces and 12 coasts (195
// locations, past the old limit of 128), 81 centres, 28 to win, the start
// of the rules page.
func TestYoungstownReduxMapFacts(t *testing.T) {
	m, ok := MapByName("youngstownredux")
	if !ok {
		t.Fatal("no youngstownredux map")
	}
	if len(m.Provinces) != 183 || len(m.locs) != 195 || len(m.SupplyCentres()) != 81 || m.Victory != 28 || len(m.Powers) != 10 {
		t.Errorf("%d provinces, %d locations, %d centres, victory %d, %d powers", len(m.Provinces), len(m.locs), len(m.SupplyCentres()), m.Victory, len(m.Powers))
	}
	homes := map[string]int{"austria": 4, "britain": 5, "china": 4, "france": 4, "germany": 5, "india": 4, "italy": 4, "japan": 4, "russia": 6, "turkey": 4}
	for pw, n := range homes {
		if got := len(m.HomeCentres(pw)); got != n {
			t.Errorf("%s has %d home centres, want %d", pw, got, n)
		}
	}
	var start []string
	for _, u := range m.Start {
		start = append(start, u.Power+" "+m.UnitName(u))
	}
	sort.Strings(start)
	want := "austria A Bud,austria A Tri,austria A Vie,austria F Sar," +
		"britain F Ade,britain F Edi,britain F Lon,britain F Lvp,britain F Sig," +
		"china A Gua,china A Pek,china A Wuh,china F Sha," +
		"france A Mar,france A Par,france F Bre,france F Sai," +
		"germany A Ber,germany A Col,germany A Mun,germany F Kie,germany F Tsi," +
		"india A Cal,india A Del,india F Bom,india F Mad," +
		"italy A Mil,italy A Rom,italy F Mog,italy F Nap," +
		"japan A Kyo,japan F Osa,japan F Sap,japan F Tok," +
		"russia A Mos,russia A Oms,russia A War,russia F Sev,russia F StP/sc,russia F Vla," +
		"turkey A Bag,turkey A Con,turkey A Mec,turkey F Ank"
	if got := strings.Join(start, ","); got != want {
		t.Errorf("start units\n got %s\nwant %s", got, want)
	}
}

// godipIDs: godip's ids for the provinces whose id the map chose
// otherwise (the standard map's id, or one that reads as its name).
var godipIDs = map[string]string{
	"noi": "nwg", "not": "nth", "nay": "nwy", "tes": "tri", "vnn": "vie", "tyo": "tyr", "bug": "bur",
	"gol": "lyo", "gob": "bot", "mid": "mao", "tyh": "tys", "ems": "eas", "wms": "wes", "tur": "tkm",
	"bum": "brm", "goo": "ton", "guh": "gth", "lia": "lvn", "lie": "lvp",
}

// TestYoungstownReduxMatchesGodip holds the map, written from
// webDiplomacy's YoungstownRedux, to the second public source, godip's
// youngstownredux (testdata/youngstownredux-godip-facts.txt): every
// border and centre the same both ways, but for the two places the
// sources differ.
func TestYoungstownReduxMatchesGodip(t *testing.T) {
	m, _ := MapByName("youngstownredux")
	// godip lets armies move between the Caucasus and Omsk; webDiplomacy's
	// board (and this map) does not: Moscow lies between them, north of
	// the Caspian. webDiplomacy's Hebei borders the Yellow Sea from its
	// south coast as from its north one; godip gives the south coast only
	// the East China Sea (and Tsingtao and Shanghai). The map follows
	// webDiplomacy, where the variant is played.
	onlyGodip := map[string]bool{"army cau oms": true}
	onlyOurs := map[string]bool{"fleet heb/sc yel": true}
	rename := func(loc string) string {
		p, c, ok := strings.Cut(loc, "/")
		if id, ok := godipIDs[p]; ok {
			p = id
		}
		if ok {
			return p + "/" + c
		}
		return p
	}
	ref := map[string]bool{}
	for line := range readFacts(t, "testdata/youngstownredux-godip-facts.txt") {
		w := strings.Fields(line)
		if len(w) != 3 {
			t.Fatalf("cannot read %q", line)
		}
		a, b := rename(w[1]), w[2]
		if w[0] != "centre" {
			b = rename(b)
			if b < a {
				a, b = b, a
			}
		}
		ref[w[0]+" "+a+" "+b] = true
	}
	if len(ref) < 600 {
		t.Fatalf("read %d facts", len(ref))
	}
	ours := mapFacts(m)
	for fact := range ref {
		if ours[fact] == onlyGodip[fact] {
			t.Errorf("godip: %s; the map does not say so (or says so, though named as a difference)", fact)
		}
	}
	for fact := range ours {
		if ref[fact] == onlyOurs[fact] {
			t.Errorf("the map: %s; godip does not say so (or says so, though named as a difference)", fact)
		}
	}
}

// The golden picture of Youngstown Redux's start
// (testdata/pictures/youngstownredux-opening.*), within the mail budget of
// a board picture.
func TestYoungstownReduxPictureGolden(t *testing.T) { openingGolden(t, "youngstownredux") }

// pbemd check-map's checks find nothing to refuse in the shipped map (its
// picture included).
func TestYoungstownReduxMapSound(t *testing.T) {
	m, _ := MapByName("youngstownredux")
	for _, p := range m.Problems() {
		t.Error(p)
	}
}
