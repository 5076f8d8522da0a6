package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Exponential draws from an exponential distribution: YCSB's
// ExponentialGenerator. Shareable (read-only).
type Exponential struct {
	gamma float64
}

// NewExponential returns a generator for which percentile percent of the
// draws fall below rangeVal: gamma = -ln(1-percentile/100)/rangeVal. As in
// YCSB, rangeVal 0 or percentile 100 give an infinite gamma and every draw
// is 0. It panics when gamma would be NaN, negative or 0.
func NewExponential(percentile, rangeVal float64) *Exponential {
	return newExponential(-math.Log(1-percentile/100)/rangeVal, "NewExponential(%v, %v)", percentile, rangeVal)
}

// NewExponentialMean returns a generator with the given mean (gamma =
// 1/mean); mean 0 makes every draw 0. It panics unless 0 <= mean < +Inf.
func NewExponentialMean(mean float64) *Exponential {
	return newExponential(1/mean, "NewExponentialMean(%v)", mean)
}

func newExponential(gamma float64, format string, args ...any) *Exponential {
	// gamma 0 would make every draw +Inf (or NaN for U = 0).
	if !(gamma > 0) {
		panic(fmt.Sprintf("generator: "+format+": rate %v is not positive", append(args, gamma)...))
	}
	return &Exponential{gamma: gamma}
}

// NextFloat returns -ln(U)/gamma. It uses 1-U, which has the same
// distribution but is never 0, so the result is always finite.
func (e *Exponential) NextFloat(r *rand.Rand) float64 {
	return -math.Log1p(-r.Float64()) / e.gamma
}

// Next returns int64(NextFloat), saturating like Java's (long) cast.
func (e *Exponential) Next(r *rand.Rand) int64 {
	f := e.NextFloat(r)
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}
