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
	"math"
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
		return scale(rdtsc()-tsc0, mult)
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

// calibrate measures ticks per nanosecond against the monotonic clock over
// a short window and switches Now to the TSC if the measure is good.
func calibrate() {
	src := source{mono: func() time.Duration { return time.Since(base) }, tsc: rdtsc}
	if c0, m, ok := calibrateFrom(src, 20*time.Millisecond); ok {
		tsc0, mult, useTSC = c0, m, true
	}
}

// source is what a calibration reads: the monotonic time since base and
// the TSC.
type source struct {
	mono func() time.Duration
	tsc  func() uint64
}

// maxRateError bounds the relative error of a calibration that is used:
// every latency is off by as much, and wall-clock times (WallTime) drift
// by it over a run (36 ms an hour).
const maxRateError = 1e-5

// sample is one reading of both clocks: the monotonic clock read between
// two reads of the TSC, whose distance bounds how far apart the pair can be.
type sample struct {
	mono  time.Duration
	tsc   uint64 // midway between the two TSC reads
	width uint64 // ticks between them
}

// tightSample is the narrowest of n bracketed reads. A thread preempted, or
// a vCPU descheduled by the host, between the reads of a pair widens it;
// unbracketed, that stall went whole into the rate (5 ms in the 20 ms
// window made every figure 25% wrong).
func tightSample(src source, n int) sample {
	best := sample{width: math.MaxUint64}
	for range n {
		a := src.tsc()
		m := src.mono()
		b := src.tsc()
		if b >= a && b-a < best.width {
			best = sample{mono: m, tsc: a + (b-a)/2, width: b - a}
		}
	}
	return best
}

// calibrateFrom measures the TSC's rate over window with a tight sample at
// each end, and returns the scale (Now = (tsc - tsc0) × mult / 2^32) that
// continues the monotonic clock. It tries three times to get a measure
// within maxRateError, then gives up: the monotonic clock is slower to read,
// never wrong.
func calibrateFrom(src source, window time.Duration) (tsc0, mult uint64, ok bool) {
	for range 3 {
		s0 := tightSample(src, 16)
		for src.mono()-s0.mono < window {
		}
		s1 := tightSample(src, 16)
		if s0.width == math.MaxUint64 || s1.width == math.MaxUint64 || s1.tsc <= s0.tsc || s1.mono <= s0.mono {
			continue
		}
		ticks := float64(s1.tsc - s0.tsc)
		ticksPerNs := ticks / float64(s1.mono-s0.mono)
		if ticksPerNs < 0.1 || ticksPerNs > 100 {
			return 0, 0, false // not a plausible TSC
		}
		// Each end is known to within half its width.
		if float64(s0.width+s1.width)/2 > maxRateError*ticks {
			continue
		}
		mult = uint64(float64(1<<32) / ticksPerNs)
		return s1.tsc - uint64(float64(s1.mono)*ticksPerNs), mult, true
	}
	return 0, 0, false
}

// scale converts TSC ticks to nanoseconds with a 32.32 fixed-point mult.
func scale(ticks, mult uint64) int64 {
	hi, lo := bits.Mul64(ticks, mult)
	return int64(hi<<32 | lo>>32)
}
