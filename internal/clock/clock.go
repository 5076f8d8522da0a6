// Package clock is the benchmark's monotonic clock: nanoseconds since
// process start, read twice per operation.
//
// On amd64 Linux machines whose kernel itself keeps time with an invariant
// TSC, it reads the TSC directly and scales it with a ratio calibrated
// against the monotonic clock at start-up: a few nanoseconds instead of a
// vDSO call on the system stack, which is the largest single cost of the
// client's hot path. Everywhere else it is time.Since.
package clock

import (
	"math/bits"
	"os"
	"strings"
	"time"
)

var (
	base = time.Now()

	useTSC bool
	tsc0   uint64
	mult   uint64 // ns per tick as a 32.32 fixed-point number
)

// Now returns monotonic nanoseconds since process start.
func Now() int64 {
	if useTSC {
		hi, lo := bits.Mul64(rdtsc()-tsc0, mult)
		return int64(hi<<32 | lo>>32)
	}
	return int64(time.Since(base))
}

// Base returns the wall-clock time at which Now was zero.
func Base() time.Time { return base }

func init() {
	if !tscUsable() || os.Getenv("YCSB_CLOCK") == "monotonic" {
		return
	}
	calibrate()
}

func tscUsable() bool {
	if !hasInvariantTSC() {
		return false
	}
	cs, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	return err == nil && strings.TrimSpace(string(cs)) == "tsc"
}

// calibrate measures ticks per nanosecond over a short window. The error is
// the jitter of the two clock reads over the window, about 1e-5.
func calibrate() {
	const window = 20 * time.Millisecond
	t0 := time.Now()
	c0 := rdtsc()
	for time.Since(t0) < window {
	}
	c1 := rdtsc()
	elapsed := time.Since(t0)
	if c1 <= c0 || elapsed <= 0 {
		return
	}
	ticksPerNs := float64(c1-c0) / float64(elapsed)
	if ticksPerNs < 0.1 || ticksPerNs > 100 {
		return // not a plausible TSC
	}
	mult = uint64(float64(1<<32) / ticksPerNs)
	// Now() continues time.Since(base) from here on.
	off := uint64(time.Since(base))
	c := rdtsc()
	tsc0 = c - uint64(float64(off)*ticksPerNs)
	useTSC = true
}
