package run

import (
	"context"
	"testing"
	"time"

	"github.com/goycsb/ycsb/measurement"
)

func pacedPlan(wl Workload, threads int, target, ops int64) *Plan {
	return &Plan{Threads: threads, OpCount: ops, Target: target, Workload: wl,
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6},
		// Ticks during the run: the Collector harvests while workers record.
		Interval: 5 * time.Millisecond}
}

// TestScheduleSplitsStarts: every paced operation is recorded once, either
// as a wake-up (the worker waited for it) or as a late start (it was due
// before the worker was free), and the schedule reports both.
func TestScheduleSplitsStarts(t *testing.T) {
	for _, tc := range []struct {
		name           string
		pause          time.Duration
		target         int64
		ops            int64
		wantWake, late bool
	}{
		// 2 threads at 20 ops/s: 100 ms between a worker's operations
		// that take none, so it waits for each (a busy machine may make
		// a worker a window late for a few: not for most).
		{"kept up", 0, 20, 10, true, false},
		// 2 ms operations at 20,000 ops/s: always behind, the more so
		// on a busy machine.
		{"behind", 2 * time.Millisecond, 20000, 40, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wl := &countWorkload{pause: tc.pause}
			res := Run(context.Background(), pacedPlan(wl, 2, tc.target, tc.ops))
			s := res.Schedule
			if s == nil {
				t.Fatal("no schedule with a target")
			}
			var wake, behind int64
			if s.Wake != nil {
				wake = s.Wake.TotalCount()
			}
			if s.Behind != nil {
				behind = s.Behind.TotalCount()
			}
			if wake+behind != res.Ops {
				t.Errorf("%d wake-ups + %d late starts, want the %d operations", wake, behind, res.Ops)
			}
			// The first operation of each worker is due at once (late by
			// the clock reads); every other one is on one side: all of
			// them behind, most of them wake-ups.
			if tc.wantWake && wake <= res.Ops/2 || tc.late && behind < res.Ops-2 {
				t.Errorf("%d wake-ups, %d late starts of %d operations", wake, behind, res.Ops)
			}
		})
	}
}

// TestPacedStopWakesSleepers: a stop ends a run whose workers sleep until
// operations due seconds away.
func TestPacedStopWakesSleepers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wl := &countWorkload{}
	done := make(chan *Result)
	// 100 threads at 1 op/s: each worker's operations are 100 s apart,
	// the first spread over those 100 s.
	go func() { done <- Run(ctx, pacedPlan(wl, 100, 1, 0)) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case res := <-done:
		if !res.Stopped || res.Ops > 100 {
			t.Errorf("Stopped %v after %d operations, want a stop within the first 100", res.Stopped, res.Ops)
		}
	case <-time.After(50 * time.Second):
		t.Fatal("the stop did not wake the sleeping workers")
	}
}
