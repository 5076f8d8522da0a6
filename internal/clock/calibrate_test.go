package clock

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// fakeSource is a machine whose TSC ticks at rate ticks per ns. Each read
// takes cost; a read can be preceded by a stall (the thread preempted, or
// its vCPU descheduled by the host) as stall says.
type fakeSource struct {
	now   float64 // ns since base
	rate  float64
	cost  float64
	reads int
	stall func(read int) float64
}

func (f *fakeSource) step() {
	f.reads++
	if f.stall != nil {
		f.now += f.stall(f.reads)
	}
	f.now += f.cost
}

func (f *fakeSource) source() source {
	return source{
		mono: func() time.Duration { f.step(); return time.Duration(f.now) },
		tsc:  func() uint64 { f.step(); return uint64(1e9 + f.now*f.rate) },
	}
}

// nsAt is what the calibration makes of the fake's TSC at ns.
func nsAt(f *fakeSource, tsc0, mult uint64, ns float64) float64 {
	return float64(scale(uint64(1e9+ns*f.rate)-tsc0, mult))
}

// TestCalibrateSurvivesStalls: a stall between a TSC read and the
// monotonic read it is paired with used to go into the rate whole: 5 ms in
// a 20 ms window made every latency 25% wrong. Each end of the window is
// now the tightest of several bracketed reads, and a calibration whose
// error bound is too wide is not used.
func TestCalibrateSurvivesStalls(t *testing.T) {
	cases := []struct {
		name  string
		stall func(read int) float64
	}{
		{"none", nil},
		// the second read: between the first pair
		{"first pair", func(read int) float64 { return map[bool]float64{true: 5e6}[read == 2] }},
		{"every 3rd read 1 ms", func(read int) float64 { return map[bool]float64{true: 1e6}[read%3 == 0] }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		p := 0.05 + 0.3*rng.Float64()
		r := rand.New(rand.NewPCG(uint64(i), 9))
		cases = append(cases, struct {
			name  string
			stall func(read int) float64
		}{"random", func(int) float64 {
			if r.Float64() < p {
				return r.Float64() * 5e6
			}
			return 0
		}})
	}
	for _, c := range cases {
		f := &fakeSource{now: 1e6, rate: 2.4, cost: 20, stall: c.stall}
		tsc0, mult, ok := calibrateFrom(f.source(), 20*time.Millisecond)
		if !ok {
			continue // falls back to the monotonic clock: slower, not wrong
		}
		// The scale must give elapsed times within 1e-5 and the origin
		// within 2 µs of the monotonic clock's.
		if got, want := nsAt(f, tsc0, mult, 1e9+1e6)-nsAt(f, tsc0, mult, 1e6), 1e9; math.Abs(got-want) > 1e-5*want {
			t.Errorf("%s: 1 s measures %.0f ns", c.name, got)
		}
		if off := nsAt(f, tsc0, mult, f.now) - f.now; math.Abs(off) > 2000 {
			t.Errorf("%s: the origin is %.0f ns off", c.name, off)
		}
	}
	// Stalls at every read leave no good pair: the monotonic clock is used.
	f := &fakeSource{now: 1e6, rate: 2.4, cost: 20, stall: func(int) float64 { return 1e5 }}
	if _, _, ok := calibrateFrom(f.source(), 20*time.Millisecond); ok {
		t.Error("a calibration from reads 100 µs apart each was used")
	}
}
