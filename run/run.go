package run

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/internal/clock"
	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/internal/procs"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// StopGrace is how long operations in flight may take to finish once the run
// is stopped (Ctrl-C, the time limit) before their context is cancelled.
const StopGrace = 2 * time.Second

// stopper stops the run on Ctrl-C or the time limit: workers poll an
// atomic flag and start nothing new; the operations in flight get StopGrace
// to finish, then their context (ops, which Ctrl-C does not cancel by
// itself) is cancelled, so a hung server cannot hold the run past the
// limit. A cancelled operation is not counted (measured.Session).
type stopper struct {
	ops       context.Context
	cancelOps context.CancelFunc
	// closing is the parent of the workers' closes, which send what their
	// sessions buffered. A stop by signal ends it with ops: the closes
	// share StopGrace with the operations in flight, so that a flush to a
	// hung server cannot hold Ctrl-C past it (rows not sent count as not
	// inserted, rows sent and unanswered as of unknown outcome). After the
	// time limit a close has closeTimeout of its own.
	closing       context.Context
	cancelClosing context.CancelFunc
	wl            workload.Workload
	once          sync.Once
	stopped       atomic.Bool // by Ctrl-C or the time limit, not by the end of the work
	// interrupted: the end of the run's context (Ctrl-C, SIGTERM) stopped
	// it, before the time limit or an output did.
	interrupted atomic.Bool
	// timers are the paced workers' (set before they start): a stop wakes
	// those that sleep until their next operation is due, which at a low
	// target can be seconds away.
	timers []*clock.Timer
	halted atomic.Pointer[string]
	// at is the Now value of the stop; 0 until one came.
	at atomic.Int64
}

// halt stops the run for an output's reason (a Halter's). The reason is
// kept only when it is what stopped the run: not after the time limit,
// Ctrl-C or another halt, nor once the workers have joined (done).
func (st *stopper) halt(reason string) { st.stopFor(&reason, false) }

// done ends the stopper's part once the workers have joined: nothing can
// stop the run after its work ended.
func (st *stopper) done() { st.once.Do(func() {}) }

func newStopper(ctx context.Context, wl workload.Workload) *stopper {
	st := &stopper{wl: wl}
	st.ops, st.cancelOps = context.WithCancel(context.WithoutCancel(ctx))
	st.closing, st.cancelClosing = context.WithCancel(context.WithoutCancel(ctx))
	return st
}

func (st *stopper) stop() { st.stopFor(nil, false) }

// interrupt stops the run because its context ended.
func (st *stopper) interrupt() { st.stopFor(nil, true) }

func (st *stopper) stopFor(reason *string, interrupted bool) {
	st.once.Do(func() {
		if reason != nil {
			st.halted.Store(reason)
		}
		st.interrupted.Store(interrupted)
		st.at.Store(measurement.Now())
		st.stopped.Store(true)
		st.wl.Stop()
		for _, t := range st.timers {
			t.Interrupt()
		}
		time.AfterFunc(StopGrace, func() {
			st.cancelOps()
			if interrupted {
				st.cancelClosing()
			}
		})
	})
}

// stopOnCancel stops the run when ctx ends before the work does; close the
// returned channel when the workers have joined.
func (st *stopper) stopOnCancel(ctx context.Context) chan<- struct{} {
	workDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			st.interrupt()
		case <-workDone:
		}
	}()
	return workDone
}

// timeLimit stops the run after the plan's TimeLimit.
type timeLimit struct {
	timer *time.Timer
	done  chan struct{} // closed when the callback has finished writing
}

func startTimeLimit(d time.Duration, say func(string), st *stopper) *timeLimit {
	if d <= 0 {
		return nil
	}
	if say == nil {
		say = func(string) {}
	}
	tl := &timeLimit{done: make(chan struct{})}
	tl.timer = time.AfterFunc(d, func() {
		defer close(tl.done)
		say("Maximum time elapsed. Requesting stop for the workload.")
		st.stop()
		say("Stop requested for workload. Now Joining!")
	})
	return tl
}

// wait lets a time limit that fired finish its lines before the report.
func (tl *timeLimit) wait() {
	if tl != nil && !tl.timer.Stop() {
		<-tl.done
	}
}

// Engine is a plan with its workers built, each with its session and its
// share of the work, so that Run starts them at once: a front end builds
// it before it waits for a start time.
type Engine struct {
	p         *Plan
	collector *measurement.Collector
	workers   []*worker
}

// New builds p's workers. p is not to change after it.
func New(p *Plan) *Engine {
	ops := p.Ops
	if ops == nil {
		ops = measurement.YCSB
	}
	e := &Engine{p: p, collector: measurement.NewCollector(p.Measurement, ops)}
	e.workers = newWorkers(p, e.collector)
	return e
}

// Run runs p until its work is done or it is stopped (Ctrl-C: ctx ends;
// the time limit; the workload's Stop) and returns what was measured.
func Run(ctx context.Context, p *Plan) *Result { return New(p).Run(ctx) }

// Run runs the workers until their work is done or they are stopped, and
// returns what was measured. The sessions of the plan are closed by then;
// what the outputs hold is theirs.
func (e *Engine) Run(ctx context.Context) *Result {
	p, collector, workers := e.p, e.collector, e.workers
	st := newStopper(ctx, p.Workload)
	defer st.cancelOps()
	defer st.cancelClosing()
	tick := tickFor(p.Target, p.Threads)
	st.timers = pace(p, workers, tick)
	workDone := st.stopOnCancel(ctx)

	if p.AdaptProcs {
		defer procs.Adapt().Stop()
	}
	gc := startGCWindow()
	wu := startWarmup(p.Warmup)
	if wu.on() {
		for _, w := range workers {
			w.warmEnd = wu.endNs()
		}
		gc.skip(wu)
	}
	prog := &Progress{Start: wu.start, Collector: collector, workers: workers}
	outs := &outputs{list: p.Outputs, every: p.Interval, halt: st.halt}
	outs.start(collector, wu, prog, p.Ticker != nil)
	if p.Ticker != nil {
		p.Ticker.Start(prog)
	}
	limit := startTimeLimit(p.TimeLimit, p.Say, st)

	end := runWorkers(st, p, workers)
	endNs := measurement.Now()
	collector.EndAt(endNs)
	st.done() // no stop can use the timers after this
	for _, t := range st.timers {
		t.Close()
	}
	limit.wait()
	close(workDone)
	if p.Ticker != nil {
		p.Ticker.Stop()
	}
	outs.stopTicking()
	res := &Result{End: end, Stopped: st.stopped.Load(), Interrupted: st.interrupted.Load()}
	if r := st.halted.Load(); r != nil {
		res.Halted = *r
	}
	for _, w := range workers {
		if w.closeErr != nil {
			res.CloseErrs = append(res.CloseErrs, WorkerError{Worker: w.id, Err: w.closeErr})
		}
	}
	ends := gc.end()
	res.GC = ends.gc
	cores, known := clientCores(p)
	res.Client = Client{Workers: len(workers), Target: p.Target,
		CPU: hostcpu.Between(ends.cpuStart, ends.cpuEnd, cores, known), Embedded: p.Embedded}
	outs.endRun(end)
	stopNs := st.at.Load()
	if stopNs == 0 {
		stopNs = endNs
	}
	measure(res, p, workers, collector, wu, tick, stopNs)
	return res
}

// newWorkers builds the workers, each with a session of its own and its
// share of the operations.
func newWorkers(p *Plan, c *measurement.Collector) []*worker {
	n := p.Workers()
	if len(p.Sessions) < n {
		panic(fmt.Sprintf("run: %d sessions for %d workers: every worker runs on a binding's session (Plan.Sessions)", len(p.Sessions), n))
	}
	workers := make([]*worker, 0, n)
	for i := 0; i < n; i++ {
		ms := measured.NewSession(p.Sessions[i], c.NewRecorder())
		ms.Causes = p.Causes
		w := &worker{id: i, session: ms, wl: p.Workload.NewTransactor(ms, p.Seed+uint64(i)*0x9e3779b97f4a7c15)}
		w.opCount = p.OpCount / int64(n)
		if int64(i) < p.OpCount%int64(n) {
			w.opCount++
		}
		workers = append(workers, w)
	}
	return workers
}

// pace gives each worker its pacer for tick (0: unthrottled) and returns
// their timers.
func pace(p *Plan, workers []*worker, tick int64) []*clock.Timer {
	var timers []*clock.Timer
	for _, w := range workers {
		w.pace = pacer{tick: tick, spin: p.Spin, rec: w.session.Recorder()}
		if tick > 0 {
			w.pace.timer = clock.NewTimer()
			timers = append(timers, w.pace.timer)
		}
	}
	return timers
}

// runWorkers runs every worker to its end and returns when the last has
// joined.
func runWorkers(st *stopper, p *Plan, workers []*worker) time.Time {
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(st.ops, st.closing, p)
		}()
	}
	wg.Wait()
	return time.Now()
}

// measure fills in what the workers measured in the window after wu;
// stopNs is the Now value the run stopped or ended at.
func measure(res *Result, p *Plan, workers []*worker, c *measurement.Collector, wu warmup, tick, stopNs int64) {
	// With a warm-up, the run time, the throughput and the operations cover
	// the measured part only.
	res.Start = wu.measuredFrom(res.End)
	if wu.on() {
		res.WarmupCut = wu.end().After(res.End)
		res.WarmedUp = true
		res.Warmup = res.Start.Sub(wu.start)
	}
	for _, w := range workers {
		res.Done += w.finished
		res.Ops += w.finished - w.warmOps
		// A write acknowledged as buffered whose batch was lost did not
		// succeed after all.
		res.Succeeded += w.succeeded - w.warmSucceeded - w.session.Lost
		res.Inserted += w.session.Inserted
		res.Unknown += w.session.Unknown - w.warmUnknown
		res.UnknownAll += w.session.Unknown
	}
	// A stop that came once every planned operation was done interrupted
	// nothing.
	if p.OpCount > 0 && res.Done >= p.OpCount {
		res.Interrupted = false
	}
	c.Tick()
	res.Total = c.Total()
	if tick > 0 {
		res.Schedule = newSchedule(p.Target, res.Ops, workers, res.Total, stopNs)
	}
}
