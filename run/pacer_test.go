package run

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

func pacedPlan(wl workload.Workload, threads int, target, ops int64) *Plan {
	return &Plan{Threads: threads, Sessions: nopSessions(threads), OpCount: ops, Target: target, Workload: wl,
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

// TestScheduleLagParts: of a worker's lag behind its schedule, only what
// its operations took beyond the tick is the database's; a late start of
// the worker's own, and the catching up after it, are the client's.
func TestScheduleLagParts(t *testing.T) {
	const ms = int64(time.Millisecond)
	type start struct{ lag, since int64 } // since 0: the first start
	for _, tc := range []struct {
		name             string
		tick             int64
		starts           []start
		wantDB, wantClnt int64 // of the last start's lag; the sum's client part
	}{
		// 3 ms operations at a 1 ms tick: every ms behind is the
		// database's.
		{"slow database", ms, []start{{0, 0}, {2 * ms, 3 * ms}, {4 * ms, 3 * ms}}, 4 * ms, 0},
		// Woke 10 ms late, then 0.1 ms operations back to back: the
		// whole lag is the client's until it is paid down.
		{"late wake-up", ms, []start{{10 * ms, 0}, {9*ms + ms/10, ms / 10}, {8*ms + ms/5, ms / 10}}, 0, 10*ms + 9*ms + ms/10 + 8*ms + ms/5},
		// Behind by the client's 5 ms, then a 4 ms operation at a 1 ms
		// tick: 3 ms more, the database's.
		{"both", ms, []start{{5 * ms, 0}, {8 * ms, 4 * ms}}, 3 * ms, 5*ms + 5*ms},
		// The database's part never exceeds the lag.
		{"caught up", ms, []start{{0, 0}, {ms, 10 * ms}}, ms, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l scheduleLag
			for _, s := range tc.starts {
				l.add(s.lag, s.since, tc.tick)
			}
			if l.db != tc.wantDB || l.client != tc.wantClnt {
				t.Errorf("database's part %v, client's sum %v; want %v, %v", time.Duration(l.db), time.Duration(l.client),
					time.Duration(tc.wantDB), time.Duration(tc.wantClnt))
			}
			if l.client > l.sum {
				t.Errorf("client's part %v above the lag %v", l.client, l.sum)
			}
		})
	}
}

// heldWorkload's first worker is held up in its first operation until the
// run stops (as a binding's wait for a pooled connection that never comes),
// which then fails uncounted; the others do nothing.
type heldWorkload struct {
	countWorkload
	n atomic.Int64
}

func (h *heldWorkload) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &heldWorker{countWorker: countWorker{c: &h.countWorkload, s: s}, held: h.n.Add(1) == 1}
}

type heldWorker struct {
	countWorker
	held bool
}

func (w *heldWorker) DoTransaction(ctx context.Context) bool {
	if !w.held {
		return w.countWorker.DoTransaction(ctx)
	}
	for !w.c.stop.Load() {
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestScheduleSeesHeldWorker: a worker held up in one operation for the
// whole window records nothing, yet the schedule's final lag is the
// window: the client did not keep its schedule (issue 48: capacity steps
// passed at a third of their rate).
func TestScheduleSeesHeldWorker(t *testing.T) {
	wl := &heldWorkload{}
	p := pacedPlan(wl, 4, 400, 0)
	p.TimeLimit = 1200 * time.Millisecond
	res := Run(context.Background(), p)
	if res.Schedule == nil {
		t.Fatal("no schedule with a target")
	}
	if got := time.Duration(res.Schedule.FinalLagUs) * time.Microsecond; got < time.Second {
		t.Errorf("final lag %v with a worker held for the whole 1.2 s window, want at least 1 s", got)
	}
}
