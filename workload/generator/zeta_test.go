package generator

import (
	"math"
	"testing"
)

// kahanZeta sums k^-theta for k = a..b with compensation, smallest first: a
// reference much more accurate than the naive sum.
func kahanZeta(a, b int64, theta float64) float64 {
	s, c := 0.0, 0.0
	for k := b; k >= a; k-- {
		y := math.Pow(float64(k), -theta) - c
		t := s + y
		c = (t - s) - y
		s = t
	}
	return s
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

func TestZetaVerified(t *testing.T) {
	// Values verified against the reference's ZipfianGenerator.zetastatic in
	// Java; up to 10^6 terms we sum in
	// Java's order, so they agree to the last bit or two.
	for _, c := range []struct {
		n    int64
		want float64
		tol  float64
	}{
		{2, 1.5034777750283594, 1e-15},
		{10, 2.9561075165103636, 1e-15},
		{1000, 7.728953217284729, 1e-15},
		{1_000_000, 15.391849746037371, 1e-15},
		// True value (mpmath, zeta(0.99) - hurwitz(0.99, 10^10+1)); the
		// Euler–Maclaurin tail gets within a few ulps.
		{10_000_000_000, 26.46902820175148181, 1e-13},
		// YCSB's ZETAN is a naive double sum of 10^10 terms and carries
		// 1.2e-12 of rounding error; we match it only to that level.
		{10_000_000_000, 26.46902820178302, 2e-12},
	} {
		got := Zeta(c.n, 0.99)
		if e := relErr(got, c.want); e > c.tol {
			t.Errorf("Zeta(%d, 0.99) = %.17g, want %.17g (rel err %.2g > %.0g)", c.n, got, c.want, e, c.tol)
		}
	}
	if z := Zeta(0, 0.99); z != 0 {
		t.Errorf("Zeta(0) = %v", z)
	}
}

func TestZetaTail(t *testing.T) {
	// The Euler–Maclaurin sum against compensated summation over several
	// exponents and ranges, including a single term.
	for _, theta := range []float64{0.1, 0.5, 0.9, 0.99, 0.9999, 1, 1.5} {
		for _, c := range []struct{ a, b int64 }{{emStart, emStart}, {emStart, 210_000}, {1_000_000, 1_100_000}} {
			got, want := powSumEM(c.a, c.b, theta), kahanZeta(c.a, c.b, theta)
			if e := relErr(got, want); e > 1e-14 {
				t.Errorf("sum k=%d..%d of k^-%v = %.17g, Kahan %.17g, rel err %.2g", c.a, c.b, theta, got, want, e)
			}
		}
	}
	// Just past the exact limit Zeta switches paths.
	n := int64(exactTerms + 1)
	if got, want := Zeta(n, 0.99), kahanZeta(1, n, 0.99); relErr(got, want) > 1e-14 {
		t.Errorf("Zeta(%d) = %.17g, Kahan %.17g", n, got, want)
	}
	// zeta(1/2) + 2 sqrt(n) + n^-1/2 / 2 is the asymptotic expansion for
	// theta 1/2; the next term is below 1e-16 at n = 10^10.
	const zetaHalf = -1.4603545088095868
	nf := 1e10
	want := zetaHalf + 2*math.Sqrt(nf) + 0.5/math.Sqrt(nf)
	if got := Zeta(int64(nf), 0.5); relErr(got, want) > 1e-13 {
		t.Errorf("Zeta(1e10, 0.5) = %.17g, want %.17g", got, want)
	}
}

func TestZetaIncremental(t *testing.T) {
	// Extending a sum must agree with computing it from scratch, for small
	// deltas (exact terms) and large ones (Euler–Maclaurin over the range).
	const theta = 0.99
	for _, c := range []struct{ from, to int64 }{
		{100, 200},
		{999_999, 1_000_500},
		{1000, 3_000_000},
		{5_000_000, 5_000_010},
		{5_000_000, 900_000_000},
		{3, 10_000_000_000},
	} {
		got := zetaStatic(c.from, c.to, theta, Zeta(c.from, theta))
		want := Zeta(c.to, theta)
		if e := relErr(got, want); e > 1e-13 {
			t.Errorf("zeta %d extended to %d = %.17g, want %.17g (rel err %.2g)", c.from, c.to, got, want, e)
		}
	}
	// The extension itself against compensated summation of the new terms.
	got := zetaStatic(2_000_000, 4_500_000, theta, 0)
	if want := kahanZeta(2_000_001, 4_500_000, theta); relErr(got, want) > 1e-13 {
		t.Errorf("sum k=2e6+1..4.5e6 = %.17g, want %.17g", got, want)
	}
}
