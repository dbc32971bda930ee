package adjudicator

import (
	"sync"
	"sync/atomic"
	"testing"
)

type namedEngine struct{ name string }

func (e namedEngine) Info() Info                                 { return Info{Name: e.name} }
func (namedEngine) New(map[string]string, int64) ([]byte, error) { return nil, nil }
func (namedEngine) Status([]byte) (Status, error)                { return Status{}, nil }
func (namedEngine) Check([]byte, string, string) (Check, error)  { return Check{}, nil }
func (namedEngine) Resolve([]byte, map[string][]string, int64) (Outcome, error) {
	return Outcome{}, nil
}

// TestRegisterLazy: a lazily registered engine is listed at once, built at
// its first Lookup and never again, also when many look it up together.
func TestRegisterLazy(t *testing.T) {
	var built atomic.Int32
	RegisterLazy("test-lazy", func() Engine {
		built.Add(1)
		return namedEngine{"test-lazy"}
	})
	found := false
	for _, n := range Names() {
		found = found || n == "test-lazy"
	}
	if !found || built.Load() != 0 {
		t.Fatalf("after registration: listed %v, built %d times", found, built.Load())
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e, ok := Lookup("test-lazy"); !ok || e.Info().Name != "test-lazy" {
				t.Errorf("Lookup = %v, %v", e, ok)
			}
		}()
	}
	wg.Wait()
	if built.Load() != 1 {
		t.Errorf("built %d times, want once", built.Load())
	}
	defer func() {
		if recover() == nil {
			t.Error("a second registration of one name did not panic")
		}
	}()
	Register(namedEngine{"test-lazy"})
}

func TestList(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"Red"}, "Red"}, {[]string{"Red", "Blue"}, "Red and Blue"}, {[]string{"Red", "Blue", "Green"}, "Red, Blue and Green"}} {
		if got := List(tc.in); got != tc.want {
			t.Errorf("List(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
