package run

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// countWorkload counts its transactions and inserts; each takes pause.
type countWorkload struct {
	stop          atomic.Bool
	pause         time.Duration
	txns, inserts atomic.Int64
}

func (c *countWorkload) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &countWorker{c: c, s: s}
}
func (c *countWorkload) Stop()                  { c.stop.Store(true) }
func (c *countWorkload) StopFlag() *atomic.Bool { return &c.stop }
func (c *countWorkload) Resume()                { c.stop.Store(false) }

type countWorker struct {
	c *countWorkload
	s *measured.Session
}

func (w *countWorker) do(n *atomic.Int64) bool {
	start := measurement.Now()
	time.Sleep(w.c.pause)
	w.s.MeasureTransaction(measurement.Read, start, measurement.Now())
	n.Add(1)
	return true
}

func (w *countWorker) DoTransaction(context.Context) bool { return w.do(&w.c.txns) }
func (w *countWorker) DoInsert(context.Context) bool      { return w.do(&w.c.inserts) }

// nopSession is a binding's session that only closes: these tests'
// workloads measure their operations themselves and call none of it.
type nopSession struct{ db.Session }

func (nopSession) Close(context.Context) error { return nil }

// nopSessions are n of them, a plan's sessions for n workers.
func nopSessions(n int) []db.Session {
	s := make([]db.Session, n)
	for i := range s {
		s[i] = nopSession{}
	}
	return s
}

// intervals counts the intervals an output sees and when it started.
type intervals struct {
	n       int
	started bool
}

func (iv *intervals) AddInterval(int64, int64, *measurement.Snapshot) { iv.n++ }
func (iv *intervals) StartRun(time.Time, int64)                       { iv.started = true }

// TestPlanWithoutSessionsIsRefused: every worker runs on a binding's
// session; a plan without them (a workload that would talk to its
// database past the binding, uncounted by the session) is refused.
func TestPlanWithoutSessionsIsRefused(t *testing.T) {
	for _, sessions := range [][]db.Session{nil, nopSessions(1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New with %d sessions for 2 workers did not panic", len(sessions))
				}
			}()
			New(&Plan{Threads: 2, OpCount: 2, Workload: &countWorkload{}, Sessions: sessions})
		}()
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name          string
		plan          Plan
		workers       int
		txns, inserts int64
		stopped       bool
	}{
		{"operations shared", Plan{Threads: 3, OpCount: 10}, 3, 10, 0, false},
		{"fewer operations than threads", Plan{Threads: 8, OpCount: 5}, 5, 5, 0, false},
		{"a load", Plan{Threads: 2, OpCount: 6, Load: true}, 2, 0, 6, false},
		{"time limit", Plan{Threads: 2, TimeLimit: 50 * time.Millisecond}, 2, -1, 0, true},
		// A run's own table, whose CLEANUP is not at YCSB's index.
		{"named operations", Plan{Threads: 2, OpCount: 4, Ops: mustOps(t, "insert", "q1", measurement.CleanupName)}, 2, 4, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wl := &countWorkload{pause: time.Millisecond}
			out := &intervals{}
			p := tc.plan
			p.Workload, p.Measurement, p.Interval = wl, &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, 10*time.Millisecond
			p.Outputs = []Output{out}
			p.Sessions = nopSessions(p.Threads)
			if got := p.Workers(); got != tc.workers {
				t.Errorf("Workers() = %d, want %d", got, tc.workers)
			}
			res := Run(context.Background(), &p)
			if tc.txns >= 0 && (wl.txns.Load() != tc.txns || wl.inserts.Load() != tc.inserts) {
				t.Errorf("%d transactions and %d inserts, want %d and %d", wl.txns.Load(), wl.inserts.Load(), tc.txns, tc.inserts)
			}
			// A load's insert succeeds when the session inserted the
			// record, which these inserts do not do.
			if want := wl.txns.Load() + wl.inserts.Load(); res.Ops != want || res.Succeeded != wl.txns.Load() {
				t.Errorf("Ops %d, Succeeded %d, want %d and %d", res.Ops, res.Succeeded, want, wl.txns.Load())
			}
			if res.Stopped != tc.stopped {
				t.Errorf("Stopped = %v", res.Stopped)
			}
			// Neither the end of the work nor the time limit interrupts.
			if res.Interrupted || res.Done != res.Ops {
				t.Errorf("Interrupted %v, Done %d; want false and Ops %d", res.Interrupted, res.Done, res.Ops)
			}
			if !out.started || out.n == 0 {
				t.Errorf("the output started %v, saw %d intervals", out.started, out.n)
			}
			// Without a binding's sessions the CLEANUP is still timed, once
			// per worker.
			var cleanups int64
			for _, m := range res.Total.Measurements {
				if m.Operation == measurement.CleanupName && !m.Intended {
					cleanups = m.Hist.TotalCount()
				}
			}
			if cleanups != int64(tc.workers) || len(res.CloseErrs) != 0 {
				t.Errorf("%d CLEANUPs, close errors %v; want %d and none", cleanups, res.CloseErrs, tc.workers)
			}
		})
	}
}

func mustOps(t *testing.T, names ...string) *measurement.Ops {
	ops, err := measurement.NewOps(names...)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

// TestRunCancelled: Ctrl-C (ctx) stops the workers, and the result says so.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	wl := &countWorkload{pause: time.Millisecond}
	res := Run(ctx, &Plan{Threads: 2, Sessions: nopSessions(2), Workload: wl, Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, Interval: time.Second})
	if !res.Stopped || res.Ops == 0 || res.End.Before(res.Start) {
		t.Errorf("Stopped %v after %d operations, window %v to %v", res.Stopped, res.Ops, res.Start, res.End)
	}
	if !res.Interrupted || res.Done != res.Ops {
		t.Errorf("Interrupted %v, Done %d; want true and Ops %d", res.Interrupted, res.Done, res.Ops)
	}
}

// TestRunCancelledAfterWork: a context that ends once every planned
// operation is done interrupted nothing; Done counts the warm-up's
// operations too, as OpCount does.
func TestRunCancelledAfterWork(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wl := &countWorkload{pause: 0}
	p := &Plan{Threads: 2, Sessions: nopSessions(2), OpCount: 20, Workload: wl, Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}}
	e := New(p)
	cancel() // before the run: the workers may finish first, or be stopped
	res := e.Run(ctx)
	if res.Interrupted != (res.Done < 20) {
		t.Errorf("Interrupted %v after %d of 20 operations", res.Interrupted, res.Done)
	}
}

// halter halts the run at its third interval.
type halter struct {
	n    int
	halt func(string)
}

func (h *halter) SetHalt(halt func(string)) { h.halt = halt }
func (h *halter) AddInterval(int64, int64, *measurement.Snapshot) {
	if h.n++; h.n == 3 {
		h.halt("enough")
		h.halt("a second reason is not kept")
	}
}

// TestRunHalted: an output that halts the run stops it as the time limit
// would, and its first reason is the result's.
func TestRunHalted(t *testing.T) {
	wl := &countWorkload{pause: time.Millisecond}
	start := time.Now()
	res := Run(context.Background(), &Plan{Threads: 2, Sessions: nopSessions(2), Workload: wl, Interval: 10 * time.Millisecond,
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, Outputs: []Output{&halter{}}})
	if !res.Stopped || res.Halted != "enough" || res.Ops == 0 || res.Interrupted {
		t.Errorf("Stopped %v, Halted %q, %d operations, Interrupted %v", res.Stopped, res.Halted, res.Ops, res.Interrupted)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("ran %v: not halted", d)
	}
}

// TestRunClient: the result says how many workers ran at what target, and
// what the client used over the measured window, its cores capped by the
// processor count of a run that does not size it itself.
func TestRunClient(t *testing.T) {
	wl := &countWorkload{pause: time.Millisecond}
	p := Plan{Threads: 8, Sessions: nopSessions(8), OpCount: 5, Target: 2000, Workload: wl,
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	res := Run(context.Background(), &p)
	c := res.Client
	if c.Workers != 5 || c.Target != 2000 || c.Embedded {
		t.Errorf("Client: %d workers at %d ops/s, embedded %v; want 5 at 2000, not embedded", c.Workers, c.Target, c.Embedded)
	}
	p.Embedded = true
	if c := Run(context.Background(), &p).Client; !c.Embedded {
		t.Error("Client of a plan with an embedded engine: not Embedded")
	}
	if runtime.GOOS != "linux" {
		return
	}
	if !c.CPU.CoresKnown || c.CPU.Cores != 1 || !c.CPU.CPUKnown || c.CPU.Wall <= 0 {
		t.Errorf("Client.CPU = %+v, want 1 core (GOMAXPROCS) and the CPU known", c.CPU)
	}
}

// TestRunClientSkipsWarmup: the client's CPU is sampled again when the
// warm-up ends, so its window is the measured one, not the whole run.
func TestRunClientSkipsWarmup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPU figures are Linux's")
	}
	wl := &countWorkload{pause: time.Millisecond}
	p := Plan{Threads: 2, Sessions: nopSessions(2), Warmup: 200 * time.Millisecond, TimeLimit: 300 * time.Millisecond, Workload: wl,
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}}
	res := Run(context.Background(), &p)
	// The measured window is the last 100 ms or so of a run of 300; half
	// the warm-up more would still be well short of the whole run.
	if w, limit := res.Client.CPU.Wall, res.End.Sub(res.Start)+p.Warmup/2; w <= 0 || w >= limit {
		t.Errorf("the CPU window lasted %v, want the measured window's %v (under %v)", w, res.End.Sub(res.Start), limit)
	}
}

// lateHalter halts on every interval after the first wait.
type lateHalter struct {
	start time.Time
	wait  time.Duration
	halt  func(string)
}

func (h *lateHalter) SetHalt(halt func(string)) { h.halt = halt }
func (h *lateHalter) AddInterval(int64, int64, *measurement.Snapshot) {
	if time.Since(h.start) > h.wait {
		h.halt("too late")
	}
}

// TestRunHaltAfterStop: a halt that comes after the time limit stopped the
// run (while operations in flight finish) is not the run's reason.
func TestRunHaltAfterStop(t *testing.T) {
	wl := &countWorkload{pause: 300 * time.Millisecond}
	h := &lateHalter{start: time.Now(), wait: 100 * time.Millisecond}
	res := Run(context.Background(), &Plan{Threads: 2, Sessions: nopSessions(2), Workload: wl, Interval: 10 * time.Millisecond, TimeLimit: 30 * time.Millisecond,
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, Outputs: []Output{h}})
	if !res.Stopped || res.Halted != "" {
		t.Errorf("Stopped %v, Halted %q: want stopped by the time limit, not halted", res.Stopped, res.Halted)
	}
}

// progressTicker keeps the Progress it is started with.
type progressTicker struct{ p chan *Progress }

func (t progressTicker) Start(p *Progress) { t.p <- p }
func (progressTicker) Stop()               {}

// gatedWorkload's transactions return at once until each worker has done
// free of them, then wait for release.
type gatedWorkload struct {
	countWorkload
	free    int
	release chan struct{}
}

func (g *gatedWorkload) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &gatedWorker{g: g, s: s}
}

type gatedWorker struct {
	g    *gatedWorkload
	s    *measured.Session
	done int
}

func (w *gatedWorker) DoTransaction(context.Context) bool {
	if w.done == w.g.free {
		<-w.g.release
	}
	w.done++
	start := measurement.Now()
	w.s.MeasureTransaction(measurement.Read, start, measurement.Now())
	return true
}
func (w *gatedWorker) DoInsert(ctx context.Context) bool { return w.DoTransaction(ctx) }

// TestProgressCountsEveryOperation: the live outputs' count of operations
// done includes each one as it ends. With many threads at a low rate each
// worker does few operations a second, and a count a worker published only
// every few operations showed none for many seconds.
func TestProgressCountsEveryOperation(t *testing.T) {
	wl := &gatedWorkload{free: 3, release: make(chan struct{})}
	ticker := progressTicker{p: make(chan *Progress, 1)}
	p := Plan{Threads: 4, OpCount: 40, Workload: wl, Ticker: ticker, Sessions: nopSessions(4),
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}}
	res := make(chan *Result, 1)
	go func() { res <- Run(context.Background(), &p) }()
	prog := <-ticker.p
	deadline := time.Now().Add(5 * time.Second)
	done, left := prog.Done()
	for done < 12 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		done, left = prog.Done()
	}
	close(wl.release)
	<-res
	if done != 12 || left != 28 {
		t.Errorf("with 4 workers that each did 3 operations and wait, Done() = %d, %d left; want 12, 28", done, left)
	}
}
