package report

import (
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/run/capacity"
)

// TestJudgeCapacityStep: the one rule both front ends judge a capacity
// step by, on fixed figures. A step that fell short of its rate, or failed
// while the machine's own load was in what it measured, is never the
// system's trusted failure.
func TestJudgeCapacityStep(t *testing.T) {
	// 4 threads at 1 ms asked 2,000 ops/s: they offer 4,000.
	calm := ClientFigures{Window: 10 * time.Second, Threads: 4, Target: 2000, Ops: 20000, MeanLatencyUs: 1000, MeanLatencyKnown: true, CPU: idle,
		WakeLate: WakeLateness{MeanUs: 50, P99Us: 200, MaxUs: 400, WakeUps: 19000, PacedOps: 20000, Known: true}}
	with := func(f func(f *ClientFigures)) ClientFigures {
		c := calm
		f(&c)
		return c
	}
	step := CapacityStep{Target: 2000, Threads: 4, ThreadCap: "capacity.maxthreads=4", Unit: "ops/s", Shortfall: 0.05, Terms: capacityTestTerms}
	for _, tc := range []struct {
		name      string
		f         ClientFigures
		meanUs    float64
		achieved  float64
		j         string // the objective; measured below
		measured  float64
		want      capacity.Verdict
		why       string // a fragment
		untrusted bool
		hopeless  bool
	}{
		{"pass", calm, 1000, 1999, "READ.p99<=5ms", 2000, capacity.Pass, "", false, false},
		{"the system failed", calm, 1000, 1999, "READ.p99<=5ms", 9000, capacity.Fail, "READ.p99<=5ms failed", false, false},
		// 4 threads at 3 ms offer 1,333 ops/s.
		{"threads", calm, 3000, 1300, "READ.p99<=5ms", 9000, capacity.ClientLimited, "4 threads at 3 ms offer at most 1333 ops/s: the client's threads limit the search (capacity.maxthreads=4)", false, false},
		// Issue 48: the objectives passed on what the step ran, a third
		// of its rate.
		{"passed at a third of its rate", with(func(f *ClientFigures) { f.FinalLag = 3 * time.Second; f.Ops = 6660 }), 1000, 666, "READ.p99<=5ms", 2000,
			capacity.ClientLimited, "666.0 of the 2000 ops/s asked achieved: the step did not keep its schedule: THREAD-BOUND", false, false},
		// The threads kept the rate on average but fell behind the
		// schedule (a loaded machine's suite): the client's threads, not
		// the system, nor the machine's load.
		{"threads behind the schedule", with(func(f *ClientFigures) { f.Window = time.Second; f.FinalLag = 80 * time.Millisecond; f.Ops = 1990 }), 1900, 1990, "READ.p99<=5ms", 9000,
			capacity.ClientLimited, "the client's threads fell behind its schedule (THREAD-BOUND)", false, false},
		{"within the shortfall", calm, 1000, 1920, "READ.p99<=5ms", 2000, capacity.Pass, "", false, false},
		// Issue 48: two busy loops beside the client; its threads waited
		// for a CPU and woke late, though not by the whole excess.
		{"failed on a busy machine", with(func(f *ClientFigures) {
			f.CPU.CPU, f.CPU.Wait = 0.2, 0.6
			f.WakeLate = WakeLateness{MeanUs: 900, P99Us: 2000, MaxUs: 40000, WakeUps: 19000, PacedOps: 20000, Known: true}
		}), 1000, 1990, "READ.p99<=5ms", 9000, capacity.Fail, "READ.p99<=5ms failed", true, false},
		{"late by the whole excess", with(func(f *ClientFigures) {
			f.WakeLate = WakeLateness{MeanUs: 900, P99Us: 4500, MaxUs: 40000, WakeUps: 19000, PacedOps: 20000, Known: true}
		}), 1000, 1990, "READ.p99<=5ms", 9000, capacity.ClientLimited, "no more than the client woke late", false, false},
		// The client's own lateness waking reaches the limit: no rate can
		// pass on this machine.
		{"hopeless", with(func(f *ClientFigures) {
			f.WakeLate = WakeLateness{MeanUs: 900, P99Us: 7600, MaxUs: 147000, WakeUps: 19000, PacedOps: 20000, Known: true}
		}), 1000, 1990, "READ.p99<=5ms", 9000, capacity.ClientLimited, "no more than the client woke late", false, true},
		{"steal", with(func(f *ClientFigures) { f.CPU.StealPct = 12 }), 1000, 1990, "READ.p99<=5ms", 9000, capacity.Fail, "READ.p99<=5ms failed", true, false},
		// An embedded engine that used the cores itself: the engine's
		// failure on this machine.
		{"embedded, out of CPU", with(func(f *ClientFigures) { f.Embedded = true; f.CPU.CPU = 1.95 }), 1000, 1990, "READ.p99<=5ms", 9000,
			capacity.Fail, "out of CPU: the process (client and embedded engine) used 1.95 of 2 cores", false, false},
		// An embedded engine whose threads waited for others' CPU: not the
		// engine's failure.
		{"embedded, starved", with(func(f *ClientFigures) { f.Embedded = true; f.CPU.CPU, f.CPU.Wait = 0.9, 1.2 }), 1000, 1990, "READ.p99<=5ms", 9000,
			capacity.ClientLimited, "waited for a CPU 1.20 cores' worth", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := judged(t, tc.j, tc.measured)
			v := judgeCapacityStep(stepFigures{meanUs: tc.meanUs, achieved: tc.achieved, client: tc.f, known: true}, j, step)
			if v.Verdict != tc.want || !strings.Contains(v.Why, tc.why) {
				t.Errorf("%s — %q, want %s — %q", v.Verdict, v.Why, tc.want, tc.why)
			}
			if (v.Untrusted != "") != tc.untrusted {
				t.Errorf("untrusted %q, want %v", v.Untrusted, tc.untrusted)
			}
			if (v.Hopeless != "") != tc.hopeless {
				t.Errorf("hopeless %q, want %v", v.Hopeless, tc.hopeless)
			}
			if v.Verdict == capacity.Fail && v.Untrusted == "" && !tc.f.Embedded && c(tc.f).own() != "" {
				t.Errorf("a trusted failure of the system with the client's own verdicts %q", c(tc.f).own())
			}
		})
	}
}

func c(f ClientFigures) *ClientCheck {
	cc := JudgeClient(f, capacityTestTerms)
	return &cc
}

// TestCapacityStepOf: a step whose threads could not offer its rate at the
// latency measured is run again with more, up to the cap and
// MaxStepReruns times, unjudged; then judged; an interrupted one fails as
// such.
func TestCapacityStepOf(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	// 4 threads at 3 ms offer 1,333 ops/s of the 2,000 asked.
	res := &run.Result{Start: start, End: start.Add(time.Second), Ops: 10, Succeeded: 10,
		Total: &measurement.Snapshot{Measurements: []measurement.Measurement{{Name: "READ", Operation: "READ", Count: 10, Sum: 30_000}}}}
	s := CapacityStep{Target: 2000, Threads: 4, ThreadCap: "capacity.maxthreads=64", Unit: "ops/s", Shortfall: 0.05, Terms: capacityTestTerms,
		Achieved: 1300, MaxThreads: 64}
	for _, tc := range []struct {
		name        string
		maxThreads  int
		reruns      int
		interrupted bool
		rerun       int
		verdict     capacity.Verdict
		why         string
	}{
		// Little's law at 3 ms: 2,000 ops/s need 6 threads, twice over 13.
		{"more threads", 64, 0, false, 13, 0, ""},
		{"capped", 4, 0, false, 0, capacity.ClientLimited, "the client's threads limit the search (capacity.maxthreads=64)"},
		{"reruns spent", 64, MaxStepReruns, false, 0, capacity.ClientLimited, "offer at most 1333 ops/s"},
		{"interrupted", 64, 0, true, 0, capacity.Fail, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := s
			s.MaxThreads = tc.maxThreads
			step, rerun, mean := CapacityStepOf(res, nil, s, tc.interrupted, tc.reruns)
			if mean != 3000 || rerun != tc.rerun || step.Verdict != tc.verdict || !strings.Contains(step.Why, tc.why) {
				t.Errorf("mean %g µs, rerun %d, %v: %q; want 3000, %d, %v: %q", mean, rerun, step.Verdict, step.Why, tc.rerun, tc.verdict, tc.why)
			}
			if step.Asked != 2000 || step.Threads != 4 || step.Achieved != 1300 {
				t.Errorf("step %+v, want asked 2000, 4 threads, 1300 achieved", step)
			}
		})
	}
}
