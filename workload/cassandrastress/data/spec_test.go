package data

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// TestOneGrammar: ParseDist parses with frontend/stress/settings' grammar (its
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

// TestReadLookback: reads look back from the count of seeds written in a
// row from 1 (the original's LookbackableWriteGenerator), which a seed
// written out of order joins once the gap closes.
func TestReadLookback(t *testing.T) {
	p, err := SeqPopulationLookback(1, 100, false, MustParseDist("fixed(3)"))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	read := func() int64 {
		idx, ok := p.NextRead(r)
		if !ok {
			t.Fatal("no read")
		}
		return idx
	}
	if got := read(); got != 1 {
		t.Errorf("nothing written: read %d, want 1 (the first seed)", got)
	}
	for _, s := range []int64{1, 2, 4, 5} {
		p.Wrote(s)
	}
	if got := read(); got != 1+3%2 {
		t.Errorf("1..2 written (4, 5 waiting): read %d, want %d (lookback %% count)", got, 1+3%2)
	}
	p.Wrote(3)
	if got := read(); got != 1+5-3 {
		t.Errorf("1..5 written: read %d, want 3", got)
	}
	for s := int64(6); s <= 100; s++ {
		p.Wrote(s)
	}
	if got := read(); got != 98 {
		t.Errorf("all written: read %d, want 98", got)
	}
	if _, err := SeqPopulationLookback(1, 100, false, MustParseDist("uniform(1..102)")); err == nil ||
		err.Error() != "-pop read-lookback=uniform(1..102): its largest value 102 is beyond the sequence, which ends at 101" {
		t.Errorf("lookback beyond the sequence: %v", err)
	}
	// No allocation per write in the hot path once the heap has grown.
	q, _ := SeqPopulationLookback(1, 1<<40, true, MustParseDist("fixed(1)"))
	var s int64
	if a := testing.AllocsPerRun(1000, func() { s += 2; q.Wrote(s); q.Wrote(s - 1) }); a != 0 {
		t.Errorf("Wrote allocates %v per run", a)
	}
}
