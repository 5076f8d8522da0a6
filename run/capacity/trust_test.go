package capacity

import (
	"testing"
	"time"

	"github.com/goycsb/ycsb/measurement/slo"
)

func TestOpsToTrust(t *testing.T) {
	for p, want := range map[float64]int64{99: 9508, 99.9: 95944, 50: 97, 0: 0, 100: 0} {
		if got := OpsToTrust(p); got != want {
			t.Errorf("p%g: %d, want %d", p, got, want)
		}
	}
}

// TestStepTime: a step runs at least its least time, longer when its
// objectives' percentiles need more operations, at most its most, then
// untrusted.
func TestStepTime(t *testing.T) {
	p99 := []slo.Objective{{Text: "READ.p99<=5ms", Stat: slo.Percentile, Percentile: 99}, {Text: "READ.mean<=1ms", Stat: slo.Mean}}
	for _, tc := range []struct {
		objs    []slo.Objective
		rate    float64
		want    time.Duration
		trusted bool
	}{
		{p99[1:], 10, 10 * time.Second, true},
		{p99, 10_000, 10 * time.Second, true},
		// p99 needs 9,508 operations: 95.08 s at 100 ops/s.
		{p99, 100, 95080 * time.Millisecond, true},
		{p99, 10, 120 * time.Second, false},
	} {
		d, trusted := StepTime(tc.objs, tc.rate, 10*time.Second, 120*time.Second)
		if d != tc.want || trusted != tc.trusted {
			t.Errorf("%d objectives at %g ops/s: %v, trusted %v; want %v, %v", len(tc.objs), tc.rate, d, trusted, tc.want, tc.trusted)
		}
	}
	if got := JoinWhy("", "b") + "|" + JoinWhy("a", "b"); got != "b|a; b" {
		t.Errorf("JoinWhy: %q", got)
	}
}
