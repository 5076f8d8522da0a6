package capacity

import (
	"math"
	"time"

	"github.com/goycsb/ycsb/measurement/slo"
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

// StepTime is a step's measured time at rate: least, longer when the
// percentiles of objs need more operations to be trusted (OpsToTrust), up
// to most; trusted says whether they get them.
func StepTime(objs []slo.Objective, rate float64, least, most time.Duration) (d time.Duration, trusted bool) {
	var need int64
	for _, o := range objs {
		if o.Stat == slo.Percentile {
			need = max(need, OpsToTrust(o.Percentile))
		}
	}
	d = max(least, time.Duration(float64(need)/rate*float64(time.Second)))
	if d > most {
		return most, false
	}
	return d, true
}

// JoinWhy adds note to a step's reasons (Why, Untrusted), after a "; ".
func JoinWhy(why, note string) string {
	if why == "" {
		return note
	}
	return why + "; " + note
}
