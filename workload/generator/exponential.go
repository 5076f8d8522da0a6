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
// draws fall below rangeVal: gamma = -ln(1-percentile/100)/rangeVal. It
// panics unless 0 < percentile < 100 and rangeVal > 0.
func NewExponential(percentile, rangeVal float64) *Exponential {
	if !(percentile > 0 && percentile < 100) || !(rangeVal > 0) || math.IsInf(rangeVal, 1) {
		panic(fmt.Sprintf("generator: NewExponential(%v, %v): need 0 < percentile < 100 and a finite range > 0", percentile, rangeVal))
	}
	return &Exponential{gamma: -math.Log(1-percentile/100) / rangeVal}
}

// NewExponentialMean returns a generator with the given mean (gamma =
// 1/mean). It panics unless mean is finite and > 0.
func NewExponentialMean(mean float64) *Exponential {
	if !(mean > 0) || math.IsInf(mean, 1) {
		panic(fmt.Sprintf("generator: NewExponentialMean(%v): need a finite mean > 0", mean))
	}
	return &Exponential{gamma: 1 / mean}
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
