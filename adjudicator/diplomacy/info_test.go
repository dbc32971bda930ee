package diplomacy

import (
	"reflect"
	"testing"
)

// Info is made once per engine; a caller that changes the slices it got
// changes nothing another caller gets.
func TestInfoOwnCopy(t *testing.T) {
	e, _ := NewEngine("standard")
	first := e.Info()
	if len(first.Powers) == 0 || len(first.Examples) == 0 {
		t.Fatalf("info %+v", first)
	}
	first.Powers[0], first.Examples[0] = "changed", "changed"
	if got, want := e.Info(), e.makeInfo(); !reflect.DeepEqual(got, want) {
		t.Errorf("Info after a caller changed its copy:\n%+v\nwant\n%+v", got, want)
	}
}
