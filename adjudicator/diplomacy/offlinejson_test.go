package diplomacy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestOfflineJSONAsEncoder: what `pbemd adjudicate` writes is what
// encoding/json's Encoder writes (indented by two spaces) for the same
// outcome, byte for byte: for every phase of the corpus adjudicated
// through the offline contract, and for outcomes with every field set or
// empty and strings that need escaping.
func TestOfflineJSONAsEncoder(t *testing.T) {
	check := func(t *testing.T, out *offlineOut) {
		t.Helper()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			t.Fatal(err)
		}
		if got := out.appendJSON(nil); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("appendJSON wrote\n%s\nencoding/json\n%s", got, want.Bytes())
		}
	}
	t.Run("corpus", func(t *testing.T) {
		for i, c := range loadCorpus(t) {
			m := c.pos.Map
			in := offlineIn{jsonPosition: *encodePosition(c.pos, m.PowerName), Orders: map[string][]string{}}
			for _, o := range c.ords {
				p := m.PowerName(o.Power)
				in.Orders[p] = append(in.Orders[p], Format(o.Order, m.Lexicon()))
			}
			if i%7 == 0 {
				in.Orders[m.PowerName(m.Powers[0].ID)] = append(in.Orders[m.PowerName(m.Powers[0].ID)], "not an order <&>")
			}
			out, err := in.adjudicate()
			if err != nil {
				t.Fatalf("phase %d: %v", i, err)
			}
			check(t, out)
		}
	})
	var odd strings.Builder
	for c := range 128 {
		odd.WriteByte(byte(c))
	}
	odd.WriteString("\u2028\u2029é€😀\xff\xc3(\u00a0")
	s := odd.String()
	units := []jsonUnit{
		{Power: s, Type: "army", Province: "par"},
		{Power: "France", Type: "fleet", Province: "spa", Coast: "sc", AttackerFrom: s, ByConvoy: true, Options: []string{"por", s}},
		{Power: "France", Type: "fleet", Province: "spa", Options: []string{}},
	}
	for name, out := range map[string]*offlineOut{
		"zero":  {},
		"empty": {Results: []offlineResult{}, Standoffs: []string{}, Next: &jsonPosition{Units: []jsonUnit{}, SupplyCenters: map[string]string{}}},
		"full": {
			Phase:     &jsonPhase{Season: "spring", Year: -1901, Type: s},
			Results:   []offlineResult{{Power: s, Order: s, Outcome: Illegal, Reason: s}, {Power: "a", Order: "b", Outcome: Succeeded}, {Outcome: 200}},
			Standoffs: []string{"bur", s},
			Next: &jsonPosition{
				Version: 3, Variant: s, Phase: &jsonPhase{}, Units: units, Dislodged: units, Standoffs: []string{s},
				SupplyCenters: map[string]string{"par": "France", s: s, "": "", "PAR": "x", "zzz": "<"}, Over: true, Winners: []string{s, ""},
			},
			Winner: s,
		},
		"nil lists":   {Next: &jsonPosition{Dislodged: []jsonUnit{}, Winners: []string{}}},
		"every field": everyFieldSet(t),
	} {
		t.Run(name, func(t *testing.T) { check(t, out) })
	}
}

// everyFieldSet is an outcome with every field reachable from it set, by
// reflection: a field added to the outcome or the position, which
// appendJSON does not write, fails TestOfflineJSONAsEncoder.
func everyFieldSet(t *testing.T) *offlineOut {
	out := new(offlineOut)
	n := 0
	var fill func(v reflect.Value, path string)
	fill = func(v reflect.Value, path string) {
		n++
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), path)
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			for i := range 2 {
				fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
			for range 2 {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(k, path+" key")
				fill(e, path+" value")
				v.SetMapIndex(k, e)
			}
		case reflect.String:
			v.SetString(fmt.Sprintf("s%d<", n))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(int64(n%3 + 1))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(n%3 + 1)) // small: an Outcome has a name
		default:
			t.Fatalf("%s: a %s in the offline outcome: teach appendJSON and this test about it", path, v.Type())
		}
	}
	fill(reflect.ValueOf(out).Elem(), "offlineOut")
	return out
}
