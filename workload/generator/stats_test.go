package generator

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Statistical helpers. All tests use fixed seeds, so they are deterministic;
// thresholds are at p = 0.001, so a correct generator passes for almost any
// seed while a wrong distribution fails at these sample sizes.

const z999 = 3.090232306167813 // upper 0.001 quantile of N(0,1)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// chiSquareCrit is the p = 0.001 upper critical value for df degrees of
// freedom (Wilson–Hilferty; slightly conservative for df < 3).
func chiSquareCrit(df int) float64 {
	k := float64(df)
	a := 2 / (9 * k)
	return k * math.Pow(1-a+z999*math.Sqrt(a), 3)
}

// chiSquare returns Pearson's statistic for observed counts against
// probabilities p, and its degrees of freedom. Bins expected below 5 are
// pooled; a draw in a bin of probability 0 gives +Inf.
func chiSquare(obs []int64, p []float64) (stat float64, df int) {
	var n int64
	for _, o := range obs {
		n += o
	}
	var poolObs, poolExp float64
	bins := 0
	for i, o := range obs {
		e := p[i] * float64(n)
		if e == 0 {
			if o != 0 {
				return math.Inf(1), 1
			}
			continue
		}
		if e < 5 {
			poolObs += float64(o)
			poolExp += e
			continue
		}
		d := float64(o) - e
		stat += d * d / e
		bins++
	}
	if poolExp > 0 {
		d := poolObs - poolExp
		stat += d * d / poolExp
		bins++
	}
	return stat, bins - 1
}

// chiSquareOK reports whether obs fits p at p = 0.001, logging the figures.
func chiSquareOK(t *testing.T, name string, obs []int64, p []float64) bool {
	t.Helper()
	stat, df := chiSquare(obs, p)
	crit := chiSquareCrit(df)
	t.Logf("%s: chi2 = %.1f, df = %d, crit(0.001) = %.1f", name, stat, df, crit)
	return stat < crit
}

// ksOK runs a one-sample Kolmogorov–Smirnov test of sample against cdf at
// p = 0.001. It sorts sample.
func ksOK(t *testing.T, name string, sample []float64, cdf func(float64) float64) bool {
	t.Helper()
	slices.Sort(sample)
	n := float64(len(sample))
	d := 0.0
	for i, x := range sample {
		f := cdf(x)
		d = max(d, f-float64(i)/n, float64(i+1)/n-f)
	}
	crit := math.Sqrt(-0.5*math.Log(0.001/2)) / math.Sqrt(n)
	t.Logf("%s: KS D = %.5f, crit(0.001) = %.5f", name, d, crit)
	return d < crit
}

// binomialOK reports whether k successes in n trials fit probability p
// (normal approximation, two-sided p = 0.001).
func binomialOK(t *testing.T, name string, k, n int64, p float64) bool {
	t.Helper()
	z := (float64(k) - float64(n)*p) / math.Sqrt(float64(n)*p*(1-p))
	t.Logf("%s: %d/%d = %.5f, want %.5f, z = %.2f", name, k, n, float64(k)/float64(n), p, z)
	return math.Abs(z) < 3.290526731491926
}

func uniformP(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

func TestChiSquareCrit(t *testing.T) {
	// Exact p = 0.001 quantiles; Wilson–Hilferty must be close and never
	// below them by more than 0.5%.
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 10.828}, {3, 16.266}, {10, 29.588}, {99, 148.23}, {999, 1143.9}} {
		got := chiSquareCrit(c.df)
		if got < c.want*0.995 || got > c.want*1.05 {
			t.Errorf("chiSquareCrit(%d) = %.3f, want about %.3f", c.df, got, c.want)
		}
	}
}

// Each helper must reject a mildly wrong distribution at the sample sizes
// the tests use, or passing tests would prove nothing.
func TestHelpersDiscriminate(t *testing.T) {
	r := newRand(1)
	const n = 200_000
	obs := make([]int64, 10)
	for range n {
		obs[r.IntN(10)]++
	}
	if !chiSquareOK(t, "uniform vs uniform", obs, uniformP(10)) {
		t.Error("chi-square rejects a correct uniform sample")
	}
	skew := uniformP(10)
	skew[0], skew[9] = 0.103, 0.097 // 3% off in two bins
	if chiSquareOK(t, "uniform vs 3% skew", obs, skew) {
		t.Error("chi-square accepts a 3% skew")
	}
	zero := uniformP(10)
	zero[0], zero[1] = 0, 0.2
	if s, _ := chiSquare(obs, zero); !math.IsInf(s, 1) {
		t.Errorf("draws in a zero-probability bin give chi2 %v, want +Inf", s)
	}

	sample := make([]float64, n)
	for i := range sample {
		sample[i] = r.ExpFloat64()
	}
	if !ksOK(t, "exp(1) vs exp(1)", slices.Clone(sample), func(x float64) float64 { return 1 - math.Exp(-x) }) {
		t.Error("KS rejects a correct exponential sample")
	}
	if ksOK(t, "exp(1) vs exp(1.03)", sample, func(x float64) float64 { return 1 - math.Exp(-1.03*x) }) {
		t.Error("KS accepts a 3% rate error")
	}

	var k int64
	for range n {
		if r.Float64() < 0.3 {
			k++
		}
	}
	if !binomialOK(t, "p=0.3 vs 0.3", k, n, 0.3) {
		t.Error("binomial rejects a correct proportion")
	}
	if binomialOK(t, "p=0.3 vs 0.305", k, n, 0.305) {
		t.Error("binomial accepts a 0.005 error")
	}
}
