package capacity

import "math"

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
