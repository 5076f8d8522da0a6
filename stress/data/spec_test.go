package data

import (
	"errors"
	"testing"

	"github.com/goycsb/ycsb/stress/settings"
)

// TestOneGrammar: ParseDist parses with stress/settings' grammar (its
// errors are settings' DistError), and a settings.Dist gives the same
// sampler through FromSpec as its spec through ParseDist.
func TestOneGrammar(t *testing.T) {
	for _, bad := range []string{"NOPE(1)", "uniform(5..1)", "extreme(1..10,0)", "qextreme(1..10,2,0)", "seq(3..3)", "gaussian"} {
		_, err := ParseDist(bad)
		var de *settings.DistError
		if !errors.As(err, &de) {
			t.Errorf("ParseDist(%q): %v, want a settings.DistError", bad, err)
		}
	}
	for _, spec := range []string{"fixed(7)", "uniform(1..1k)", "~gaussian(1..100,5)", "gauss(1..100,40,5)", "exp(1..1M)",
		"extr(1..1000,1.5)", "qextreme(1..1000,1.5,10)", "seq(1..9)", "uniform(4..4)"} {
		sp, err := settings.ParseDist(spec)
		if err != nil {
			t.Fatal(err)
		}
		a, b := MustParseDist(spec), FromSpec(sp)
		if a.String() != spec || b.String() != sp.String() {
			t.Errorf("%s: String %q and %q", spec, a.String(), b.String())
		}
		for _, p := range []float64{0, 0.1, 0.5, 0.9, 0.99, 1} {
			if x, y := a.InverseCumProb(p), b.InverseCumProb(p); x != y {
				t.Errorf("%s at %v: %d from ParseDist, %d from FromSpec", spec, p, x, y)
			}
		}
	}
}
