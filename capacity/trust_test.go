package capacity

import (
	"math/rand/v2"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func TestOpsToTrust(t *testing.T) {
	for p, want := range map[float64]int64{99: 9508, 99.9: 95944, 50: 97, 0: 0, 100: 0} {
		if got := OpsToTrust(p); got != want {
			t.Errorf("p%g: %d, want %d", p, got, want)
		}
	}
}

// TestPercentileCI: over many samples of a known distribution the 95%
// interval holds the true percentile about 95 times in 100 (fixed seed).
// Latencies are uniform on 1..100000 µs, whose p99 is 99,000 µs.
func TestPercentileCI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	covered := 0
	const trials = 200
	for i := 0; i < trials; i++ {
		h := hdrhistogram.New(1, 1_000_000, 3)
		for j := 0; j < 10000; j++ {
			h.RecordValue(1 + rng.Int64N(100000))
		}
		lo, hi, ok := PercentileCI(h, 99)
		if !ok || lo > hi {
			t.Fatalf("interval %d..%d", lo, hi)
		}
		if lo <= 99000 && 99000 <= hi {
			covered++
		}
	}
	// 95% nominal; the histogram's buckets (0.1%) widen it slightly.
	if covered < 180 || covered > 199 {
		t.Errorf("covered %d of %d, want about 190", covered, trials)
	}
	if _, _, ok := PercentileCI(hdrhistogram.New(1, 10, 1), 99); ok {
		t.Error("an empty histogram has no interval")
	}
}
