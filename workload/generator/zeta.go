package generator

import "math"

const (
	// exactTerms is the largest number of terms summed one by one, in YCSB's
	// order, so zeta values for up to a million items match Java's.
	exactTerms = 1_000_000
	// emStart is where the Euler–Maclaurin tail takes over; from here on the
	// third Bernoulli correction is below 1e-25, far under double precision.
	emStart = 10_000
)

// Zeta returns sum_{k=1..n} k^-theta (0 for n <= 0). Up to a million terms
// are summed exactly; beyond that an Euler–Maclaurin tail is used, accurate to
// about 1e-13 relative, so n = 10^10 costs about as much as n = 10^4.
func Zeta(n int64, theta float64) float64 {
	return zetaStatic(0, n, theta, 0)
}

// zetaStatic mirrors YCSB's zetastatic: initial + sum_{i=st..n-1} (i+1)^-theta.
func zetaStatic(st, n int64, theta, initial float64) float64 {
	st = max(st, 0)
	if n <= st {
		return initial
	}
	if n-st <= exactTerms {
		sum := initial
		for i := st; i < n; i++ {
			sum += 1 / math.Pow(float64(i+1), theta)
		}
		return sum
	}
	a := st + 1 // first k of the range
	head := 0.0
	if a < emStart {
		head = zetaStatic(st, emStart-1, theta, 0)
		a = emStart
	}
	return initial + head + powSumEM(a, n, theta)
}

// powSumEM returns sum_{k=a..b} k^-theta for 1 <= a <= b by Euler–Maclaurin:
// integral + half the end terms + three Bernoulli corrections.
func powSumEM(a, b int64, theta float64) float64 {
	fa, fb := float64(a), float64(b)
	pa, pb := math.Pow(fa, -theta), math.Pow(fb, -theta)
	// log1p of the exact difference avoids cancellation when b is close to a.
	l := math.Log1p((fb - fa) / fa)
	var integral float64
	if s := 1 - theta; s == 0 {
		integral = l
	} else {
		integral = math.Pow(fa, s) * math.Expm1(s*l) / s
	}
	// Odd derivatives of x^-theta: f^(2j-1)(x) = -c_j x^-theta / x^(2j-1).
	c1 := theta
	c3 := c1 * (theta + 1) * (theta + 2)
	c5 := c3 * (theta + 3) * (theta + 4)
	d := func(c float64, p, x float64, k int) float64 {
		return -c * p / math.Pow(x, float64(k))
	}
	corr := (d(c1, pb, fb, 1)-d(c1, pa, fa, 1))/12 -
		(d(c3, pb, fb, 3)-d(c3, pa, fa, 3))/720 +
		(d(c5, pb, fb, 5)-d(c5, pa, fa, 5))/30240
	return integral + (pa+pb)/2 + corr
}
