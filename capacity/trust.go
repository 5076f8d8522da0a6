package capacity

import (
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// TailShareWidth and TrustZ decide when a step's percentile is trusted:
// with n operations, the 95% confidence interval of the pNN's rank,
// n·q ± TrustZ·√(n·q·(1−q)) for q = NN/100, must stay within
// ±TailShareWidth of the tail's n·(1−q) operations. For p99 that takes
// 9,508 operations (the interval spans p98.8 to p99.2), for p99.9 95,944,
// for p50 97.
const (
	TailShareWidth = 0.2
	TrustZ         = 1.96
)

// OpsToTrust is how many operations a pNN needs to be trusted.
func OpsToTrust(percentile float64) int64 {
	q := percentile / 100
	if q <= 0 || q >= 1 {
		return 0
	}
	k := TrustZ / TailShareWidth
	return int64(math.Ceil(k * k * q / (1 - q)))
}

// PercentileCI is the 95% confidence interval of h's pNN from order
// statistics: the values at ranks n·q ∓ TrustZ·√(n·q·(1−q)), clamped to
// the smallest and largest values. ok is false without values.
func PercentileCI(h *hdrhistogram.Histogram, percentile float64) (lo, hi int64, ok bool) {
	n := float64(h.TotalCount())
	if n == 0 {
		return 0, 0, false
	}
	q := percentile / 100
	half := TrustZ * math.Sqrt(n*q*(1-q))
	loRank, hiRank := math.Floor(n*q-half), math.Ceil(n*q+half)
	return valueAtRank(h, loRank), valueAtRank(h, hiRank), true
}

// valueAtRank is the value of the rank-th smallest recorded value
// (1-based, clamped to the recorded ones), as its bucket's highest
// equivalent value, the way percentiles are read.
func valueAtRank(h *hdrhistogram.Histogram, rank float64) int64 {
	n := h.TotalCount()
	r := int64(math.Max(1, math.Min(rank, float64(n))))
	var cum int64
	for _, b := range h.Distribution() {
		cum += b.Count
		if cum >= r {
			return b.To
		}
	}
	return h.Max()
}
