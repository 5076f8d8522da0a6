package clock

import (
	"testing"
	"time"
)

func TestNowTracksMonotonicClock(t *testing.T) {
	t.Logf("clock reads the TSC: %t", useTSC)
	// A pair of reads can be split by preemption on a loaded machine, so each
	// check passes if any of a few attempts is within the tolerance.
	within := func(check func() time.Duration, limit time.Duration) (worst time.Duration, ok bool) {
		for attempt := 0; attempt < 5; attempt++ {
			d := check()
			if d < 0 {
				d = -d
			}
			if d <= limit {
				return d, true
			}
			worst = max(worst, d)
		}
		return worst, false
	}
	rate := func() time.Duration {
		a, m0 := Now(), time.Since(base)
		time.Sleep(30 * time.Millisecond)
		b, m1 := Now(), time.Since(base)
		return time.Duration(b-a) - (m1 - m0)
	}
	// A calibration is used within 1e-5 (0.3 µs over 30 ms); the rest of
	// the limit is the pairs' reads.
	if d, ok := within(rate, 20*time.Microsecond); !ok {
		t.Errorf("over 30 ms, Now and the monotonic clock differ by %v", d)
	}
	offset := func() time.Duration {
		n, m := Now(), time.Since(base)
		return time.Duration(n) - m
	}
	if d, ok := within(offset, time.Millisecond); !ok {
		t.Errorf("Now() and the monotonic time since start differ by %v", d)
	}
}

func TestNowIsMonotonic(t *testing.T) {
	prev := Now()
	for i := 0; i < 1_000_000; i++ {
		n := Now()
		if n < prev {
			t.Fatalf("Now went back from %d to %d", prev, n)
		}
		prev = n
	}
}

func BenchmarkNow(b *testing.B) {
	for b.Loop() {
		Now()
	}
}

func BenchmarkTimeSince(b *testing.B) {
	for b.Loop() {
		time.Since(base)
	}
}
