package clock

import (
	"testing"
	"time"
)

func TestNowTracksMonotonicClock(t *testing.T) {
	t.Logf("clock source: %s", Source())
	for i := 0; i < 5; i++ {
		a, m0 := Now(), time.Since(base)
		time.Sleep(30 * time.Millisecond)
		b, m1 := Now(), time.Since(base)
		got, want := time.Duration(b-a), m1-m0
		// Allow scheduling jitter between the paired reads, and 0.1% of rate.
		if d := got - want; d < -200*time.Microsecond || d > 200*time.Microsecond {
			t.Errorf("Now advanced %v while the monotonic clock advanced %v", got, want)
		}
		// Both clocks agree on the absolute value too.
		if d := time.Duration(b) - m1; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("Now() = %v, monotonic since base %v", time.Duration(b), m1)
		}
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
