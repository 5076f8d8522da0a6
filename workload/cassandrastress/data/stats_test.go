package data

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

const statN = 200000

func testRand() *rand.Rand { return rand.New(rand.NewPCG(20260101, 42)) }

// chiSquare draws statN values from d and tests them against pmf over
// [lo, hi], merging neighbouring values until each bin expects at least 5.
// The bound is the chi-square quantile at p = 1e-4 (Wilson-Hilferty), so a
// correct sampler fails with a fixed seed only by design error.
func chiSquare(t *testing.T, d *Dist, lo, hi int64, pmf func(v int64) float64) {
	t.Helper()
	r := testRand()
	counts := make([]float64, hi-lo+1)
	for range statN {
		v := d.Next(r)
		if v < lo || v > hi {
			t.Fatalf("%s: %d outside [%d, %d]", d, v, lo, hi)
		}
		counts[v-lo]++
	}
	var stat, obs, exp, total float64
	bins := 0
	for i := range counts {
		obs += counts[i]
		p := pmf(lo + int64(i))
		total += p
		exp += p * statN
		if exp >= 5 || i == len(counts)-1 {
			stat += (obs - exp) * (obs - exp) / max(exp, 1e-9)
			bins++
			obs, exp = 0, 0
		}
	}
	if math.Abs(total-1) > 1e-6 {
		t.Fatalf("%s: pmf sums to %v", d, total)
	}
	df := float64(bins - 1)
	const z = 3.719 // p = 1e-4
	limit := df * math.Pow(1-2/(9*df)+z*math.Sqrt(2/(9*df)), 3)
	if stat > limit {
		t.Errorf("%s: chi-square %.1f over %d bins, limit %.1f", d, stat, bins, limit)
	}
}

func normCDF(x, mean, sd float64) float64 { return 0.5 * math.Erfc(-(x-mean)/(sd*math.Sqrt2)) }

// boundPMF is the law of DistributionBoundApache: truncation toward zero,
// then clamping to [min, max], of a continuous variable with CDF F.
func boundPMF(lo, hi int64, F func(float64) float64) func(int64) float64 {
	return func(v int64) float64 {
		a, b := F(float64(v)), F(float64(v+1))
		if v == lo {
			a = 0
		}
		if v == hi {
			b = 1
		}
		return b - a
	}
}

// offsetPMF is the law of DistributionOffsetApache for a non-negative
// variable with CDF F: min + clamp(trunc(x), 0, max-min).
func offsetPMF(lo, hi int64, F func(float64) float64) func(int64) float64 {
	return func(v int64) float64 {
		j := float64(v - lo)
		b := F(j + 1)
		if v == hi {
			b = 1
		}
		return b - F(j)
	}
}

func TestFixed(t *testing.T) {
	d := MustParseDist("FIXED(34)")
	r := testRand()
	for range 1000 {
		if v := d.Next(r); v != 34 {
			t.Fatalf("fixed: %d", v)
		}
	}
	if d.MinValue() != 34 || d.MaxValue() != 34 {
		t.Error("fixed bounds")
	}
	if MustParseDist("uniform(7..7)").Kind() != Fixed || MustParseDist("gaussian(3..3)").Kind() != Fixed {
		t.Error("a range with min == max is FIXED")
	}
}

func TestUniform(t *testing.T) {
	d := MustParseDist("uniform(1..100)")
	chiSquare(t, d, 1, 100, func(int64) float64 { return 0.01 })
	if d.MinValue() != 1 || d.MaxValue() != 100 {
		t.Errorf("bounds %d..%d", d.MinValue(), d.MaxValue())
	}
}

func TestGaussian(t *testing.T) {
	// GAUSSIAN(min..max[,stdvrng]): mean in the middle, stdev (max-min)/2/stdvrng
	for _, c := range []struct {
		spec        string
		mean, stdev float64
	}{
		{"gaussian(1..100)", 50.5, 16.5},
		{"GAUSS(1..1000,5)", 500.5, 99.9},
		{"normal(1..1000,200,50)", 200, 50},
		{"norm(1..100,10,30)", 10, 30}, // heavy clamping at min
	} {
		d := MustParseDist(c.spec)
		if d.Mean() != c.mean || math.Abs(d.Stdev()-c.stdev) > 1e-9 {
			t.Errorf("%s: mean %v stdev %v, want %v %v", c.spec, d.Mean(), d.Stdev(), c.mean, c.stdev)
		}
		chiSquare(t, d, d.Min(), d.Max(), boundPMF(d.Min(), d.Max(), func(x float64) float64 { return normCDF(x, c.mean, c.stdev) }))
	}
}

func TestExp(t *testing.T) {
	d := MustParseDist("exp(1..1000)")
	// mean (max-min)/-ln(sqrt(1/(max-min))): 289.282024 in the original
	if math.Abs(d.Mean()-289.282024) > 1e-6 {
		t.Errorf("mean %v", d.Mean())
	}
	chiSquare(t, d, 1, 1000, offsetPMF(1, 1000, func(x float64) float64 { return 1 - math.Exp(-x/d.Mean()) }))
}

func weibullCDF(d *Dist) func(float64) float64 {
	return func(x float64) float64 { return 1 - math.Exp(-math.Pow(x/d.Scale(), d.Shape())) }
}

func TestExtreme(t *testing.T) {
	for _, spec := range []string{"extreme(1..1000,1.5)", "extr(1..1000,0.5)"} {
		d := MustParseDist(spec)
		chiSquare(t, d, 1, 1000, offsetPMF(1, 1000, weibullCDF(d)))
	}
	if _, err := ParseDist("weibull(1..10,2)"); err == nil {
		t.Error("weibull is not a name the original knows")
	}
}

func TestQExtreme(t *testing.T) {
	d := MustParseDist("qextreme(1..1000,2,4)")
	if len(d.bounds) != 5 || d.bounds[0] != 1 || d.bounds[4] != 1001 {
		t.Fatalf("bounds %v", d.bounds)
	}
	// The bucket of a Weibull draw is chosen with the Weibull's weight
	// (values equal to a bound belong to the bucket below, min to the first),
	// then the value is uniform within it.
	F := offsetPMF(1, 1000, weibullCDF(d))
	bucket := make([]float64, 4)
	for v := int64(1); v <= 1000; v++ {
		bucket[max(d.quanta(v), 0)] += F(v)
	}
	chiSquare(t, d, 1, 1000, func(v int64) float64 {
		q := sort64(d.bounds, v)
		return bucket[q] / float64(d.bounds[q+1]-d.bounds[q])
	})
	if d.MaxValue() != 1001 {
		t.Errorf("MaxValue %d: the original reports max+1", d.MaxValue())
	}
	// where the original throws (a draw of exactly min), we stay in range
	small := MustParseDist("qextreme(1..10,2,2)")
	r := testRand()
	for range 10000 {
		if v := small.Next(r); v < 1 || v > 10 {
			t.Fatalf("qextreme(1..10,2,2): %d", v)
		}
	}
}

// sort64 is the bucket holding v by position: bounds[q] <= v < bounds[q+1].
func sort64(b []int64, v int64) int {
	for q := len(b) - 2; q >= 0; q-- {
		if v >= b[q] {
			return q
		}
	}
	return 0
}

func TestSeq(t *testing.T) {
	d := MustParseDist("seq(5..9)")
	r := testRand()
	for i := range 12 {
		if v, want := d.Next(r), int64(5+i%5); v != want {
			t.Fatalf("#%d: %d, want %d", i, v, want)
		}
	}
	// every worker shares the sequence: 8 workers draw 0..7999 exactly once
	d = MustParseDist("seq(0..1000000)")
	var mu sync.Mutex
	seen := map[int64]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r := testRand()
			for range 1000 {
				v := d.Next(r)
				mu.Lock()
				if seen[v] {
					t.Errorf("%d twice", v)
				}
				seen[v] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i := int64(0); i < 8000; i++ {
		if !seen[i] {
			t.Fatalf("%d never drawn", i)
		}
	}
	for _, bad := range []string{"seq(3..3)", "seq(4..3)"} {
		if _, err := ParseDist(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestInverted(t *testing.T) {
	d := MustParseDist("~exp(1..1000)")
	if !d.Inverted() || d.MinValue() != 1000 || d.MaxValue() != 1 {
		t.Errorf("~exp bounds %d..%d (the original's are 1000..1)", d.MinValue(), d.MaxValue())
	}
	base := offsetPMF(1, 1000, func(x float64) float64 { return 1 - math.Exp(-x/d.Mean()) })
	chiSquare(t, d, 1, 1000, func(v int64) float64 { return base(1001 - v) })
	g := MustParseDist("~gaussian(1..100,10,5)")
	gb := boundPMF(1, 100, func(x float64) float64 { return normCDF(x, 10, 5) })
	chiSquare(t, g, 1, 100, func(v int64) float64 { return gb(101 - v) })
}

func TestRatio(t *testing.T) {
	r := testRand()
	q, err := ParseRatio("fixed(1)/1")
	if err != nil || q.Next(r) != 1 || q.Min() != 1 || q.Max() != 1 {
		t.Fatalf("fixed(1)/1: %v %v", q, err)
	}
	q, err = ParseRatio("uniform(1..10)/10")
	if err != nil {
		t.Fatal(err)
	}
	// nextDouble is the sample clamped, not truncated: uniform on [1, 11)
	// clamped to 10, so the mean is (4.95 + 1)/10.
	var sum float64
	for range statN {
		v := q.Next(r)
		if v < 0.1 || v > 1 {
			t.Fatalf("ratio %v", v)
		}
		sum += v
	}
	if mean := sum / statN; math.Abs(mean-0.595) > 0.003 {
		t.Errorf("mean %v, want 0.595", mean)
	}
	q, _ = ParseRatio("fixed(5)/2k")
	if q.Divisor != 2000 || q.Next(r) != 0.0025 {
		t.Errorf("fixed(5)/2k: %v", q)
	}
	if _, err := ParseRatio("fixed(1)"); err == nil {
		t.Error("a ratio needs /divisor")
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"", "uniform", "uniform(1..)", "foo(1..2)", "gaussian(1..10,1,2,3)", "exp(1..10,2)",
		"extreme(1..10)", "qextreme(1..10,2)", "uniform(10..1)", "fixed(x)"} {
		if d, err := ParseDist(bad); err == nil {
			t.Errorf("%q accepted as %v", bad, d)
		}
	}
	for spec, want := range map[string][2]int64{"uniform(1..100B)": {1, 100e9}, "UNIFORM(2k...3M)": {2000, 3e6}, "fixed(5m)": {5e6, 5e6}} {
		d, err := ParseDist(spec)
		if err != nil || d.Min() != want[0] || d.Max() != want[1] {
			t.Errorf("%s: %v %v", spec, d, err)
		}
	}
}

func TestPopulation(t *testing.T) {
	r := testRand()
	p := DefaultPopulation(true, 3)
	for i, want := range []int64{1, 2, 3, 1} {
		if v, ok := p.Next(r); !ok || v != want {
			t.Fatalf("#%d: %d %v", i, v, ok)
		}
	}
	p = SeqPopulation(1, 2, false)
	p.Next(r)
	p.Next(r)
	if _, ok := p.Next(r); ok {
		t.Error("no-wrap sequence did not end")
	}
	if d := DefaultPopulation(false, 0).Dist(); d.String() != "gaussian(1..1000000)" {
		t.Errorf("read default %v", d)
	}
	deltas := CounterDeltas(nil, 5, MustParseDist(DefaultCounterAdd), r)
	if len(deltas) != 5 || deltas[4] != 1 {
		t.Errorf("deltas %v", deltas)
	}
}
