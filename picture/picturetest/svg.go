package picturetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"pbemd/picture"
)

// Drawer is an engine that draws its states (adjudicator.Drawer).
type Drawer interface {
	Draw(state, results []byte, viewer string) (*picture.Picture, error)
}

// MustDraw is d's picture of state and results as viewer sees it ("" for
// the public one); a failure to draw fails the test.
func MustDraw(t testing.TB, d Drawer, state, results []byte, viewer string) *picture.Picture {
	t.Helper()
	p, err := d.Draw(state, results, viewer)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// SVG is p written as SVG.
func SVG(t testing.TB, p *picture.Picture) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// WalkText calls f for every text among items, in groups and layers too.
func WalkText(items []picture.Item, f func(*picture.Text)) {
	for _, it := range items {
		switch v := it.(type) {
		case *picture.Text:
			f(v)
		case *picture.Group:
			WalkText(v.Items, f)
		case *picture.Layer:
			WalkText(v.Items(), f)
		}
	}
}

// GoldenFile checks got against the golden file testdata/pictures/name,
// byte for byte; with update (the package's -update flag) it writes got
// there instead.
func GoldenFile(t *testing.T, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", "pictures", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden picture: look at both, then go test -update", path)
	}
}
