package runner

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/internal/partition"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/prom"
)

// stopGrace is how long operations in flight may take to finish once the run
// is stopped (Ctrl-C, maxexecutiontime) before their context is cancelled.
const stopGrace = 2 * time.Second

// stopper stops the run on Ctrl-C or maxexecutiontime: workers poll an
// atomic flag and start nothing new; the operations in flight get stopGrace
// to finish, then their context (ops, which Ctrl-C does not cancel by
// itself) is cancelled, so a hung server cannot hold the run past the
// limit. A cancelled operation is not counted (measurement.Session).
type stopper struct {
	ops       context.Context
	cancelOps context.CancelFunc
	wl        Workload
	once      sync.Once
	stopped   atomic.Bool // by Ctrl-C or the time limit, not by the end of the work
}

func newStopper(ctx context.Context, wl Workload) *stopper {
	st := &stopper{wl: wl}
	st.ops, st.cancelOps = context.WithCancel(context.WithoutCancel(ctx))
	return st
}

func (st *stopper) stop() {
	st.once.Do(func() {
		st.stopped.Store(true)
		st.wl.Stop()
		time.AfterFunc(stopGrace, st.cancelOps)
	})
}

// stopOnCancel stops the run when ctx ends before the work does; close the
// returned channel when the workers have joined.
func (st *stopper) stopOnCancel(ctx context.Context) chan<- struct{} {
	workDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			st.stop()
		case <-workDone:
		}
	}()
	return workDone
}

// timeLimit stops the run after maxexecutiontime.
type timeLimit struct {
	timer *time.Timer
	done  chan struct{} // closed when the callback has finished writing
}

func startTimeLimit(d time.Duration, say func(string), st *stopper) *timeLimit {
	if d <= 0 {
		return nil
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

// measured is what the run measured, as the final report shows it: the
// measured window (after the warm-up) and the figures within it.
type measured struct {
	start, end time.Time
	warmedUp   bool  // the run had a warm-up
	warmupMs   int64 // how long it ran, within the run
	ops        int64 // operations done in the window
	succeeded  int64 // of them, those that succeeded (see SuccessfulThroughput)
	total      *measurement.Snapshot
	schedule   *schedule // nil without a target
	// The GC figures at both ends of the window.
	gcStart, gcEnd runtime.MemStats
	inserted       int64 // records inserted, warm-up included
	stopped        bool  // by Ctrl-C or the time limit, not by the end of the work
	// What the JSON report records of the client: the base of its seeds,
	// its place among several, the starttime it waited for.
	seed      uint64
	clients   partition.Clients
	startTime time.Time
}

// execute runs the workers until they are done or stopped, with the
// start-up lines, the status or progress output and the time limit, and
// returns what was measured.
func (b *bench) execute(ctx context.Context) *measured {
	o, s := &b.o, b.s
	st := newStopper(ctx, b.wl)
	defer st.cancelOps()
	workDone := st.stopOnCancel(ctx)

	if !o.Quiet {
		fmt.Fprintln(o.Stderr, "Starting test.")
	}
	gc := startGCWindow()
	wu := startWarmup(s.warmup)
	if wu.on() {
		fmt.Fprintf(o.Stderr, "Warm-up: the first %s are not measured.\n", wu.length)
		for _, w := range b.workers {
			w.warmEnd = wu.endNs()
		}
		gc.skip(wu)
	}
	if s.maxExecution > 0 {
		// Before the status or progress output starts, which it would cut.
		fmt.Fprintf(o.Stderr, "Maximum execution time specified as: %d secs\n", int64(s.maxExecution/time.Second))
	}
	say := func(msg string) { fmt.Fprintln(o.Stderr, msg) }
	if pl := b.progressLine(wu); pl != nil {
		b.causes.SetSay(pl.message)
		say = pl.message
		b.outs.add(pl)
	}
	b.outs.start(b.collector, wu, s.status)
	var status *statusTicker
	if s.status {
		status = startStatus(statusOut(o, b.mcfg), s, b.collector, b.workers, wu.start)
	}
	limit := startTimeLimit(s.maxExecution, say, st)

	tick := tickFor(s.target, s.threads)
	end := b.runWorkers(st.ops, tick)
	limit.wait()
	close(workDone)
	if status != nil {
		status.stop()
	}
	b.outs.stopTicking()
	// Now that nothing else writes to stderr.
	for _, w := range b.workers {
		if w.closeErr != nil {
			fmt.Fprintf(o.Stderr, "worker %d: cleanup: %v\n", w.id, w.closeErr)
		}
	}
	m := &measured{end: end, stopped: st.stopped.Load(), seed: b.seed, clients: s.clients, startTime: s.startTime}
	m.gcStart, m.gcEnd = gc.end()
	b.outs.endRun(end)
	b.measure(m, wu, tick)
	return m
}

// measure fills in what the workers measured in the window after wu.
func (b *bench) measure(m *measured, wu warmup, tick int64) {
	o, s, end := &b.o, b.s, m.end
	// With a warm-up, the run time, the throughput and the operations cover
	// the measured part only.
	m.start = wu.measuredFrom(end)
	if wu.on() {
		if wu.end().After(end) {
			fmt.Fprintln(o.Stderr, "Warning: the run ended during the warm-up: nothing was measured.")
		}
		m.warmedUp = true
		m.warmupMs = m.start.Sub(wu.start).Milliseconds()
	}
	for _, w := range b.workers {
		m.ops += w.finished - w.warmOps
		// A write acknowledged as buffered whose batch was lost did not
		// succeed after all.
		m.succeeded += w.succeeded - w.warmSucceeded - w.session.Lost
		m.inserted += w.session.Inserted
	}
	if tick > 0 {
		m.schedule = newSchedule(s.target, m.ops, b.workers)
	}
	b.collector.Tick()
	m.total = b.collector.Total()
}

// writeStartLines writes the start-up lines, once setup has worked, before
// any wait for the starttime.
func (b *bench) writeStartLines() {
	o, s := &b.o, b.s
	o.Stderr.Write(b.prelude.Bytes())
	if o.Quiet {
		return
	}
	// Every property has been read by now (the sessions are open): what is
	// left unread is most likely a typo or another program's property.
	for _, w := range o.Props.Warnings() {
		fmt.Fprintln(o.Stderr, w)
	}
	if b.prom != nil {
		fmt.Fprintf(o.Stderr, "Prometheus metrics at http://%s/metrics\n", b.prom.Addr())
		if _, port, err := net.SplitHostPort(s.promAddr); err == nil && prom.EveryInterface(s.promAddr) {
			fmt.Fprintf(o.Stderr, "warning: prometheus.addr=%s listens on every network interface: give a host, such as 127.0.0.1:%s, to serve this machine only\n", s.promAddr, port)
		}
	}
}

// waitForStart waits for the starttime, once the binding and its sessions
// are open, so that every client starts measuring at that instant. When
// ctx ends first nothing has run, and the error says so.
func (b *bench) waitForStart(ctx context.Context) error {
	tty := terminal(b.rawStderr) >= 0 && os.Getenv("TERM") != "dumb"
	if err := waitForStart(ctx, b.o.Stderr, b.s.startTime, tty); err != nil {
		return fmt.Errorf("interrupted while waiting for starttime %s: nothing was run", b.s.startTime.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// runWorkers runs every worker to its end, each paced to tick, and returns
// when the last has joined.
func (b *bench) runWorkers(ctx context.Context, tick int64) time.Time {
	var wg sync.WaitGroup
	for _, w := range b.workers {
		w.pace = pacer{tick: tick, spin: b.s.spin}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(ctx, b.wl, b.s, b.mcfg)
		}()
	}
	wg.Wait()
	return time.Now()
}

// progressLine is the live progress line, on a terminal (progress=auto) or
// anywhere (progress=true); nil when there is none or the status lines
// (-s) replace it.
func (b *bench) progressLine(wu warmup) *progressLine {
	if b.s.status || b.s.progress == progressOff {
		return nil
	}
	fd := terminal(b.rawStderr)
	if b.s.progress != progressOn && (fd < 0 || os.Getenv("TERM") == "dumb") {
		return nil
	}
	return newProgressLine(b.o.Stderr, fd, b.s, b.workers, wu)
}

// statusOut is where status lines go: stderr, and also stdout with the
// timeseries type, as in the reference.
func statusOut(o *Options, mcfg *measurement.Config) io.Writer {
	if mcfg.Type == measurement.TimeSeries {
		return io.MultiWriter(o.Stderr, o.Stdout)
	}
	return o.Stderr
}
