package data

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fdlibmLog agrees with the golden nextGaussian values; here it is also held
// to within one ulp of math.Log over the range nextGaussian feeds it, and to
// the special cases.
func TestFdlibmLog(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		x := r.Float64()
		if x == 0 {
			continue
		}
		got, want := fdlibmLog(x), math.Log(x)
		if d := math.Abs(got - want); d > 2*math.Abs(math.Nextafter(want, 0)-want) {
			t.Fatalf("log(%v) = %v, math.Log %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float64 }{{1, 0}, {math.E, 1}, {0, math.Inf(-1)}, {math.Inf(1), math.Inf(1)}, {2, math.Ln2}} {
		if got := fdlibmLog(c.x); got != c.want && math.Abs(got-c.want) > 1e-15 {
			t.Errorf("log(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(fdlibmLog(-1)) {
		t.Error("log(-1) is not NaN")
	}
	// ln(2^-1074); math.Log on amd64 gets subnormals wrong (-709.09).
	if got := fdlibmLog(5e-324); got != -744.4400719213812 {
		t.Errorf("log(5e-324) = %v", got)
	}
}
