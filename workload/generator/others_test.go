package generator

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestHotspot(t *testing.T) {
	const lb, ub, draws = 100, 1099, 1_000_000
	h, err := NewHotspot(lb, ub, 0.2, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	r := newRand(30)
	obs := make([]int64, ub-lb+1)
	var hot int64
	for range draws {
		v := h.Next(r)
		if v < lb || v > ub {
			t.Fatalf("Next = %d, outside [%d, %d]", v, lb, ub)
		}
		obs[v-lb]++
		if v < lb+200 {
			hot++
		}
	}
	if !binomialOK(t, "hot share", hot, draws, 0.8) {
		t.Error("hot set does not get 80% of draws")
	}
	// Uniform within each set: 200 hot values share 0.8, 800 cold share 0.2.
	p := make([]float64, len(obs))
	for i := range p {
		if i < 200 {
			p[i] = 0.8 / 200
		} else {
			p[i] = 0.2 / 800
		}
	}
	if !chiSquareOK(t, "hotspot vs two-level uniform", obs, p) {
		t.Error("draws are not uniform within the hot and cold sets")
	}
	if chiSquareOK(t, "hotspot vs uniform", obs, uniformP(len(obs))) {
		t.Error("chi-square cannot tell hotspot from uniform")
	}
}

func TestHotspotErrors(t *testing.T) {
	for _, c := range []struct {
		lb, ub   int64
		set, opn float64
		want     string
	}{
		{0, 9, -0.1, 0.5, "data fraction"},
		{0, 9, 1.1, 0.5, "data fraction"},
		{0, 9, math.NaN(), 0.5, "data fraction"},
		{0, 9, 0.5, 1.5, "operation fraction"},
		{0, 9, 0.5, -1, "operation fraction"},
		{9, 0, 0.5, 0.5, "lower bound 9 above upper bound 0"},
		{0, 3, 0.2, 0.5, "hotspot set is empty"},
		{0, 9, 1, 0.5, "cold set is empty"},
		{math.MinInt64, math.MaxInt64, 0.5, 0.5, "too large"},
	} {
		_, err := NewHotspot(c.lb, c.ub, c.set, c.opn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewHotspot(%d, %d, %v, %v) err = %v, want one mentioning %q", c.lb, c.ub, c.set, c.opn, err, c.want)
		}
	}
	// Empty sets are fine when they are never drawn from.
	r := newRand(31)
	for _, c := range []struct{ set, opn float64 }{{0, 0}, {1, 1}} {
		h, err := NewHotspot(0, 9, c.set, c.opn)
		if err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			if v := h.Next(r); v < 0 || v > 9 {
				t.Fatalf("Next = %d", v)
			}
		}
	}
}

func TestExponential(t *testing.T) {
	const draws = 200_000
	for _, c := range []struct {
		name  string
		e     *Exponential
		gamma float64
		below float64 // expected P(X < 857.1428571), 0 to skip
	}{
		{"percentile 95 of 857", NewExponential(95, 857.1428571), -math.Log(0.05) / 857.1428571, 0.95},
		{"mean 40", NewExponentialMean(40), 1.0 / 40, 0},
	} {
		if relErr(c.e.gamma, c.gamma) > 1e-15 {
			t.Errorf("%s: gamma %v, want %v", c.name, c.e.gamma, c.gamma)
		}
		r := newRand(32)
		sample := make([]float64, draws)
		for i := range sample {
			sample[i] = c.e.NextFloat(r)
			if !(sample[i] >= 0) || math.IsInf(sample[i], 0) {
				t.Fatalf("%s: NextFloat = %v", c.name, sample[i])
			}
		}
		var below int64
		for _, x := range sample {
			if x < 857.1428571 {
				below++
			}
		}
		if c.below > 0 && !binomialOK(t, c.name+": P(X < range)", below, draws, c.below) {
			t.Errorf("%s: %d of %d below range, want %v", c.name, below, draws, c.below)
		}
		cdf := func(g float64) func(float64) float64 {
			return func(x float64) float64 { return 1 - math.Exp(-g*x) }
		}
		if !ksOK(t, c.name, slices.Clone(sample), cdf(c.gamma)) {
			t.Errorf("%s: sample does not fit 1-exp(-gamma x)", c.name)
		}
		if ksOK(t, c.name+" vs gamma*1.03", sample, cdf(c.gamma*1.03)) {
			t.Errorf("%s: KS cannot tell a 3%% rate error", c.name)
		}
		// Next truncates NextFloat.
		ra, rb := newRand(33), newRand(33)
		for range 1000 {
			if a, b := c.e.Next(ra), int64(c.e.NextFloat(rb)); a != b {
				t.Fatalf("%s: Next = %d, int64(NextFloat) = %d", c.name, a, b)
			}
		}
	}
	if v := NewExponentialMean(1e300).Next(newRand(34)); v != math.MaxInt64 {
		t.Errorf("huge mean: Next = %d, want saturation at MaxInt64", v)
	}
	// YCSB's degenerate limits: an infinite rate draws only 0.
	for _, e := range []*Exponential{NewExponential(95, 0), NewExponential(100, 10), NewExponentialMean(0)} {
		r := newRand(35)
		for range 100 {
			if x := e.NextFloat(r); x != 0 {
				t.Fatalf("infinite rate: NextFloat = %v, want 0", x)
			}
		}
	}
	for _, f := range []func(){
		func() { NewExponential(0, 10) },
		func() { NewExponential(101, 10) },
		func() { NewExponential(-5, 10) },
		func() { NewExponential(95, -1) },
		func() { NewExponential(95, math.Inf(1)) },
		func() { NewExponential(math.NaN(), 10) },
		func() { NewExponentialMean(-1) },
		func() { NewExponentialMean(math.Inf(1)) },
		func() { NewExponentialMean(math.NaN()) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("invalid exponential parameters did not panic")
				}
			}()
			f()
		}()
	}
}

func TestDiscrete(t *testing.T) {
	d := NewDiscrete()
	if d.Len() != 0 || d.Next(newRand(40)) != 0 {
		t.Fatal("empty Discrete: want Len 0 and Next 0")
	}
	d.Add(0.5, 10)
	d.Add(0, 11)           // ignored
	d.Add(-1, 12)          // ignored
	d.Add(math.NaN(), 13)  // ignored
	d.Add(math.Inf(1), 14) // ignored
	d.Add(0.3, 15)
	d.Add(0.15, 16)
	d.Add(0.05, 17)
	if d.Len() != 4 {
		t.Fatalf("Len = %d, want 4", d.Len())
	}
	idx := map[int]int{10: 0, 15: 1, 16: 2, 17: 3}
	r := newRand(41)
	const draws = 400_000
	obs := make([]int64, 4)
	for range draws {
		i, ok := idx[d.Next(r)]
		if !ok {
			t.Fatal("Next returned an ignored or unknown value")
		}
		obs[i]++
	}
	if !chiSquareOK(t, "discrete vs weights", obs, []float64{0.5, 0.3, 0.15, 0.05}) {
		t.Error("draws do not follow the weights")
	}
	if chiSquareOK(t, "discrete vs shifted weights", obs, []float64{0.495, 0.305, 0.15, 0.05}) {
		t.Error("chi-square cannot tell a 1% weight shift")
	}
	// Weights are relative: scaling them changes nothing.
	s := NewDiscrete()
	s.Add(50, 1)
	s.Add(150, 2)
	ra, rb := newRand(42), newRand(42)
	u := NewDiscrete()
	u.Add(0.25, 1)
	u.Add(0.75, 2)
	for range 1000 {
		if s.Next(ra) != u.Next(rb) {
			t.Fatal("scaled weights draw differently")
		}
	}
}
