package supremacy

import (
	"reflect"
	"testing"

	"pbemd/adjudicator"
)

// Info is made once per engine; a caller that changes the slices and map
// it got changes nothing another caller gets.
func TestInfoOwnCopy(t *testing.T) {
	ae, ok := adjudicator.Lookup("supremacy")
	if !ok {
		t.Fatal("supremacy not registered")
	}
	e := ae.(*Engine)
	first := e.Info()
	if len(first.Powers) == 0 || len(first.Examples) == 0 || len(first.PowerNames) == 0 {
		t.Fatalf("info %+v", first)
	}
	first.Powers[0], first.Examples[0], first.PowerNames[first.Powers[1]] = "changed", "changed", "changed"
	if got, want := e.Info(), e.makeInfo(); !reflect.DeepEqual(got, want) {
		t.Errorf("Info after a caller changed its copy:\n%+v\nwant\n%+v", got, want)
	}
}
