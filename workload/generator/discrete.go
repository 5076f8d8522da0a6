package generator

import (
	"math"
	"math/rand/v2"
)

// Discrete picks one of several int values with given weights: YCSB's
// DiscreteGenerator, used to choose operations. Add is not safe for
// concurrent use; once built, Next is read-only and shareable.
type Discrete struct {
	values []int
	cum    []float64 // running sum of weights, in insertion order
}

// NewDiscrete returns an empty chooser.
func NewDiscrete() *Discrete { return &Discrete{} }

// Add appends value with the given weight. Weights need not sum to 1.
// Entries whose weight is not a finite positive number are ignored, as
// YCSB never picks a zero-weight operation.
func (d *Discrete) Add(weight float64, value int) {
	if !(weight > 0) || math.IsInf(weight, 1) {
		return
	}
	total := 0.0
	if n := len(d.cum); n > 0 {
		total = d.cum[n-1]
	}
	d.values = append(d.values, value)
	d.cum = append(d.cum, total+weight)
}

// Len returns the number of entries with positive weight.
func (d *Discrete) Len() int { return len(d.values) }

// Next returns a value with probability weight/sum of weights. Callers must
// check Len() > 0 first: on an empty Discrete, Next returns 0 rather than
// panicking.
func (d *Discrete) Next(r *rand.Rand) int {
	n := len(d.cum)
	if n <= 1 {
		if n == 0 {
			return 0
		}
		return d.values[0] // one choice: no random number needed
	}
	// Scaling u by the total instead of normalising each weight avoids a
	// division per entry; the order of the scan matches YCSB's.
	x := r.Float64() * d.cum[n-1]
	for i, c := range d.cum[:n-1] {
		if x < c {
			return d.values[i]
		}
	}
	return d.values[n-1] // also catches x rounding up to the total
}
