// Package runner runs a load or a run phase: it opens the binding, starts the
// workers with their pacing, the status ticker and the time limit, and writes
// the final report.
package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload"
)

// SetupError is a failure before the run started: bad input, a binding that
// cannot connect. The command line exits with code 2 for it.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// setupErr marks err as a setup failure. When ctx has ended (Ctrl-C during
// setup) the failure is the interruption's, not bad input's: the command
// line then exits 130, not 2.
func setupErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted during setup (%v)", err)
	}
	return &SetupError{Err: err}
}

// Options are what the command line hands to a run.
type Options struct {
	Props   *props.Properties // files and command line merged
	Driver  db.Driver
	Binding string // the binding's primary name
	Stdout  io.Writer
	Stderr  io.Writer
	// Banner is printed to Stderr once setup has succeeded (the command line
	// and version, as the reference prints them at start).
	Banner string
}

// stopGrace is how long operations in flight may take to finish once the run
// is stopped (Ctrl-C, maxexecutiontime) before their context is cancelled.
const stopGrace = 2 * time.Second

// closeTimeout bounds a session's close, which sends its buffered writes.
const closeTimeout = 5 * time.Second

// settings are the Client-level properties of §1.3.
type settings struct {
	transactions   bool
	threads        int
	target         int64
	status         bool
	statusInterval time.Duration
	label          string
	maxExecution   time.Duration
	opCount        int64
	exporter       string
	exportFile     string
	spin           bool
	warmup         time.Duration // operations in the first warmup are not measured
	progress       string        // auto, true, false: the live progress line
	promAddr       string        // prometheus.addr: serve /metrics there
	cpuProfile     string        // cpuprofile: write a CPU profile of the run there
}

var workloadClasses = map[string]bool{
	"site.ycsb.workloads.CoreWorkload":      true,
	"com.yahoo.ycsb.workloads.CoreWorkload": true,
	"core":                                  true,
}

func parseSettings(p *props.Properties) (*settings, error) {
	s := &settings{}
	var err error
	wl, ok := p.Word("workload")
	if !ok {
		return nil, props.Errorf("workload", "missing: give a workload file with -P (for example -P workloads/workloada) or -p workload=site.ycsb.workloads.CoreWorkload")
	}
	if !workloadClasses[wl] {
		return nil, props.Invalid("workload", wl, "site.ycsb.workloads.CoreWorkload (the only workload class)")
	}
	if s.transactions, err = p.Bool("dotransactions", true); err != nil {
		return nil, err
	}
	if s.threads, err = p.NonNegInt("threadcount", 1); err != nil {
		return nil, err
	}
	if s.threads < 1 {
		return nil, props.Invalid("threadcount", "0", "at least 1")
	}
	if s.threads > maxThreads {
		return nil, props.Errorf("threadcount", "%d is too many: at most %d workers", s.threads, maxThreads)
	}
	if s.target, err = p.NonNegInt64("target", 0); err != nil {
		return nil, err
	}
	if s.status, err = p.Bool("status", false); err != nil {
		return nil, err
	}
	if s.statusInterval, err = p.Seconds("status.interval", 10, 0.01); err != nil {
		return nil, err
	}
	s.label = p.String("label", "")
	secs, err := p.NonNegInt64("maxexecutiontime", 0)
	if err != nil {
		return nil, err
	}
	s.maxExecution = time.Duration(secs) * time.Second
	if s.transactions {
		s.opCount, err = p.NonNegInt64("operationcount", 0)
	} else if p.Has("insertcount") {
		s.opCount, err = p.NonNegInt64("insertcount", 0)
	} else {
		s.opCount, err = p.NonNegInt64("recordcount", 0)
	}
	if err != nil {
		return nil, err
	}
	s.exporter = p.String("exporter", "text")
	if err := checkExporter(s.exporter); err != nil {
		return nil, err
	}
	s.exportFile = p.String("exportfile", "")
	if s.exportFile != "" {
		if err := checkWritable("exportfile", s.exportFile, false); err != nil {
			return nil, err
		}
	}
	s.cpuProfile = p.String("cpuprofile", "")
	if s.cpuProfile != "" {
		if err := checkWritable("cpuprofile", s.cpuProfile, true); err != nil {
			return nil, err
		}
	}

	if s.spin, err = p.Bool("spin.sleep", false); err != nil {
		return nil, err
	}
	if s.warmup, err = p.Seconds("warmup", 0, 0); err != nil {
		return nil, err
	}
	if s.progress, err = p.OneOf("progress", "auto", "auto", "true", "false"); err != nil {
		return nil, err
	}
	if s.progress == "true" && s.status {
		return nil, props.Errorf("progress", "progress=true replaces the status lines of -s (status=true); give one of them")
	}
	s.promAddr = p.String("prometheus.addr", "")
	return s, nil
}

// maxThreads bounds threadcount before any worker is built: each holds its
// session, recorders and buffers, and far more than this would exhaust memory
// instead of failing with a message.
const maxThreads = 100_000

// worker is one client thread.
type worker struct {
	id       int
	closeErr error // the session's Close, for Run to report
	opCount  int64 // 0: until stopped
	session  *measurement.Session
	wl       *workload.Worker
	done     atomic.Int64 // operations done, published every few operations
	_        [56]byte     // keep neighbours' counters off this cache line
	finished int64
	warmEnd  int64 // Now value the warm-up ends at; 0 without one (read-only)
	warmOps  int64 // operations done during the warm-up
	// Transactions that succeeded (see successful), in all and during the
	// warm-up.
	succeeded, warmSucceeded int64
	start                    int64 // Now value the worker's schedule starts from
	warming                  bool  // still in the warm-up

	// How far behind the -target schedule operations started (ns).
	lagSum, lagMax, lagLast int64
}

// Run runs one phase and writes its report. It returns after the report is
// written, also when ctx is cancelled (Ctrl-C): the report then covers the
// work done.
func Run(ctx context.Context, o Options) error {
	var prelude bytes.Buffer
	// Workers (insert retries), the status ticker, the progress line and the
	// time limit all write to stderr: one lock keeps their lines whole.
	rawStderr := o.Stderr
	o.Stderr = &syncWriter{w: o.Stderr}
	p := o.Props
	s, err := parseSettings(p)
	if err != nil {
		return setupErr(ctx, err)
	}
	mcfg, err := measurement.ParseConfig(p)
	if err != nil {
		return setupErr(ctx, err)
	}
	rep, err := newReporter(o, s, mcfg)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer rep.close()
	// The start-up lines wait until setup has worked: bad input gets its one
	// error line and nothing else.
	fmt.Fprint(&prelude, o.Banner)
	fmt.Fprintln(&prelude, "Loading workload...")
	wl, err := workload.New(p, s.transactions, o.Stderr)
	if err != nil {
		return setupErr(ctx, err)
	}
	if wl.DataIntegrity {
		fmt.Fprintln(o.Stdout, "Data integrity is enabled.")
	}
	threads := s.threads
	if s.opCount > 0 && int64(threads) > s.opCount {
		threads = int(s.opCount)
		fmt.Fprintln(o.Stdout, "Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!")
	}

	// Every property and output path has been checked: the Prometheus
	// port is the last, then the binding opens (and may create or empty a
	// store). From here on a failure closes what was opened.
	if err := rep.listen(); err != nil {
		return setupErr(ctx, err)
	}
	if ctx.Err() != nil {
		return setupErr(ctx, ctx.Err())
	}
	octx := db.WithOutput(ctx, o.Stdout)
	database, err := o.Driver.Open(octx, p)
	if err != nil {
		return setupErr(ctx, err) // bindings name themselves or the property
	}
	closeDB := func() error {
		if err := database.Close(); err != nil {
			return fmt.Errorf("%s: close: %w", o.Binding, err)
		}
		return nil
	}

	collector := measurement.NewCollector(mcfg)
	rep.attach(collector)
	workers := make([]*worker, 0, threads)
	causes := measurement.NewCauses(func(line string) { fmt.Fprintln(o.Stderr, line) })
	// abandon closes the sessions and the binding when setup fails after
	// Open.
	abandon := func(err error) error {
		for _, w := range workers {
			w.session.Unwrap().Close(ctx)
		}
		closeDB()
		return setupErr(ctx, err)
	}
	seed := uint64(time.Now().UnixNano())
	for i := 0; i < threads; i++ {
		sess, err := database.Session(octx, i, threads)
		if err != nil {
			return abandon(fmt.Errorf("%s: session: %w", o.Binding, err))
		}
		ms := measurement.NewSession(sess, collector.NewRecorder())
		ms.Causes = causes
		w := &worker{id: i, session: ms, wl: wl.NewWorker(ms, seed+uint64(i)*0x9e3779b97f4a7c15)}
		w.opCount = s.opCount / int64(threads)
		if int64(i) < s.opCount%int64(threads) {
			w.opCount++
		}
		workers = append(workers, w)
	}
	if err := rep.create(); err != nil {
		return abandon(err)
	}
	if s.cpuProfile != "" {
		f, err := os.Create(s.cpuProfile)
		if err != nil {
			return abandon(props.Errorf("cpuprofile", "%v", err))
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			os.Remove(s.cpuProfile)
			return abandon(props.Errorf("cpuprofile", "%v", err))
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	if ctx.Err() != nil {
		return abandon(ctx.Err())
	}

	// Stop on Ctrl-C or maxexecutiontime: workers poll an atomic flag and
	// start nothing new; the operations in flight get stopGrace to finish,
	// then their context (opCtx, which Ctrl-C does not cancel by itself) is
	// cancelled, so a hung server cannot hold the run past the limit. A
	// cancelled operation is not counted (measurement.Session).
	opCtx, cancelOps := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelOps()
	var stopOnce sync.Once
	var stopped atomic.Bool // by Ctrl-C or the time limit, not by the end of the work
	stop := func() {
		stopOnce.Do(func() {
			stopped.Store(true)
			wl.Stop()
			time.AfterFunc(stopGrace, cancelOps)
		})
	}
	workDone := make(chan struct{}) // closed when the workers have joined
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-workDone:
		}
	}()

	o.Stderr.Write(prelude.Bytes())
	// Every property has been read by now (the sessions are open): what is
	// left unread is most likely a typo or another program's property.
	for _, w := range p.Warnings() {
		fmt.Fprintln(o.Stderr, w)
	}
	if rep.prom != nil {
		fmt.Fprintf(o.Stderr, "Prometheus metrics at http://%s/metrics\n", rep.prom.Addr())
		if host, port, err := net.SplitHostPort(s.promAddr); err == nil && host == "" {
			// net.Listen takes an empty host as every address of the machine.
			fmt.Fprintf(o.Stderr, "warning: prometheus.addr=%s listens on every network interface: give a host, such as 127.0.0.1:%s, to serve this machine only\n", s.promAddr, port)
		}
	}
	fmt.Fprintln(o.Stderr, "Starting test.")
	var gcStart runtime.MemStats
	runtime.ReadMemStats(&gcStart)
	start := time.Now()
	startNs := measurement.Now()
	// The GC rows, like the others, leave the warm-up out: the figures at its
	// end replace those at the start.
	var gcMu sync.Mutex
	var gcTimer *time.Timer
	if s.warmup > 0 {
		fmt.Fprintf(o.Stderr, "Warm-up: the first %s are not measured.\n", s.warmup)
		for _, w := range workers {
			w.warmEnd = startNs + int64(s.warmup)
		}
		gcTimer = time.AfterFunc(s.warmup, func() {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			gcMu.Lock()
			gcStart = ms
			gcMu.Unlock()
		})
	}

	if s.maxExecution > 0 {
		// Before the status or progress output starts, which it would cut.
		fmt.Fprintf(o.Stderr, "Maximum execution time specified as: %d secs\n", int64(s.maxExecution/time.Second))
	}
	var pl *progressLine
	if !s.status && s.progress != "false" {
		fd := terminal(rawStderr)
		if s.progress == "true" || (fd >= 0 && os.Getenv("TERM") != "dumb") {
			pl = newProgressLine(o.Stderr, fd, s, workers, start)
			causes.SetSay(pl.message)
		}
	}
	rep.start(s.status, start, startNs, pl)
	var status *statusTicker
	if s.status {
		status = startStatus(rep.statusOut(), s, collector, workers, start)
	}
	var timer *time.Timer
	timerDone := make(chan struct{}) // closed when the time limit's callback has finished writing
	if s.maxExecution > 0 {
		timer = time.AfterFunc(s.maxExecution, func() {
			defer close(timerDone)
			say := func(msg string) { fmt.Fprintln(o.Stderr, msg) }
			if pl != nil {
				say = pl.message
			}
			say("Maximum time elapsed. Requesting stop for the workload.")
			stop()
			say("Stop requested for workload. Now Joining!")
		})
	}

	var tick int64 // ns between one worker's operations; 0 is unthrottled
	if s.target > 0 {
		// Per worker, from the requested thread count as the reference does.
		tick = int64(float64(time.Second) * float64(s.threads) / float64(s.target))
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(opCtx, wl, s, mcfg, tick)
		}()
	}
	wg.Wait()
	end := time.Now()
	if timer != nil && !timer.Stop() {
		<-timerDone // it fired: let it finish its lines before the report
	}
	close(workDone)
	if status != nil {
		status.stop()
	}
	rep.stop()
	// Now that nothing else writes to stderr.
	for _, w := range workers {
		if w.closeErr != nil {
			fmt.Fprintf(o.Stderr, "worker %d: cleanup: %v\n", w.id, w.closeErr)
		}
	}
	var gcEnd runtime.MemStats
	runtime.ReadMemStats(&gcEnd)
	if gcTimer != nil {
		gcTimer.Stop()
	}
	gcMu.Lock()
	defer gcMu.Unlock()

	if pl != nil {
		pl.finish(end)
	}
	// With a warm-up, the run time, the throughput and the operations cover
	// the measured part only.
	measured := start.Add(s.warmup)
	if measured.After(end) {
		measured = end
		if s.warmup > 0 {
			fmt.Fprintln(o.Stderr, "Warning: the run ended during the warm-up: nothing was measured.")
		}
	}
	var ops, succeeded, inserted int64
	for _, w := range workers {
		ops += w.finished - w.warmOps
		// A write acknowledged as buffered whose batch was lost did not
		// succeed after all.
		succeeded += w.succeeded - w.warmSucceeded - w.session.Lost
		inserted += w.session.Inserted
	}
	collector.Tick()
	total := collector.Total()
	var stats []db.Stat
	if sr, ok := database.(db.StatsReporter); ok {
		stats = sr.Stats()
	}
	closeErr := closeDB()

	rows := overallRows(end.Sub(measured), ops, &gcStart, &gcEnd)
	if s.warmup > 0 {
		// After the reference's two OVERALL rows, so parsers keyed on them
		// keep working.
		rep.warmupMs = measured.Sub(start).Milliseconds()
		rows = slices.Insert(rows, 2, export.Row{Metric: "OVERALL", Name: "Warmup(ms)", Value: export.Int(rep.warmupMs)})
	}
	// Ours, after the reference's OVERALL rows: a dead cluster that fails
	// fast must not look fast.
	rows = slices.Insert(rows, overallEnd(rows), export.Row{Metric: "OVERALL", Name: "SuccessfulThroughput(ops/sec)",
		Value: export.Float(rate(succeeded, end.Sub(measured)))})
	rows = append(rows, total.Rows(mcfg)...)
	if tick > 0 {
		rows = append(rows, scheduleRows(s.target, ops, workers)...)
	}
	for _, st := range stats {
		rows = append(rows, export.Row{Metric: st.Section, Name: st.Name, Value: statValue(st.Value)})
	}
	err = rep.finish(total, rows, measured, end, ops)
	causes.WriteSummary(o.Stderr)
	if err != nil {
		return err
	}
	if !s.transactions && s.opCount > 0 && inserted < s.opCount && !stopped.Load() {
		msg := fmt.Sprintf("load incomplete: %d of %d records inserted", inserted, s.opCount)
		if first := causes.First(); first != "" {
			msg += "; first error: " + first
		}
		return errors.New(msg)
	}
	return closeErr
}

// overallEnd is the index after the last OVERALL row.
func overallEnd(rows []export.Row) int {
	i := 0
	for i < len(rows) && rows[i].Metric == "OVERALL" {
		i++
	}
	return i
}

// rate is n per second of d, 0 for an empty d.
func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// scheduleRows makes coordinated omission visible: how far behind the
// -target schedule operations started. Intended latency includes this lag.
func scheduleRows(target, ops int64, workers []*worker) []export.Row {
	var sum, maxLag, final int64
	for _, w := range workers {
		sum += w.lagSum
		maxLag = max(maxLag, w.lagMax)
		final = max(final, w.lagLast)
	}
	mean := 0.0
	if ops > 0 {
		mean = float64(sum) / float64(ops) / 1000
	}
	return []export.Row{
		{Metric: "SCHEDULE", Name: "Target(ops/sec)", Value: export.Int(target)},
		{Metric: "SCHEDULE", Name: "MeanLag(us)", Value: export.Float(mean)},
		{Metric: "SCHEDULE", Name: "MaxLag(us)", Value: export.Int(maxLag / 1000)},
		{Metric: "SCHEDULE", Name: "FinalLag(us)", Value: export.Int(final / 1000)},
	}
}

func statValue(v any) export.Value {
	switch x := v.(type) {
	case int:
		return export.Int(int64(x))
	case int64:
		return export.Int(x)
	case uint64:
		return export.Int(int64(x))
	case float64:
		return export.Float(x)
	}
	return export.Float(math.NaN())
}

// run is one worker's loop. With a target rate, operation k is due at
// start + k*tick; a worker that is behind runs back to back until it has
// caught up, as in the reference, and each operation's intended start time
// is its due time.
func (w *worker) run(ctx context.Context, wl *workload.CoreWorkload, s *settings, mcfg *measurement.Config, tick int64) {
	defer func() {
		w.done.Store(w.finished)
		// Reported by Run after the join: workers must not share a writer.
		// The close sends what the session buffered, so it gets a context
		// of its own: a stop (Ctrl-C, the time limit) cancels ctx, and the
		// buffered writes, already counted as BATCHED_OK, must still go out
		// or be counted as lost.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		defer cancel()
		w.closeErr = w.session.Close(cctx)
	}()
	if tick >= int64(time.Millisecond) {
		// Spread workers over the first tick so they do not fire together.
		time.Sleep(time.Duration(rand.Int64N(tick)))
	}
	w.start = measurement.Now()
	// During the warm-up the worker reads the clock before each operation
	// and compares it with its read-only warmEnd; after it, nothing.
	w.warming = w.warmEnd > 0
	w.session.Recorder().SetWarmup(w.warming)
	loop := func() { w.loop(ctx, wl, s, mcfg, tick) }
	for !w.session.Guard(ctx, loop) {
		// The binding panicked: that operation was counted as an ERROR and
		// the rest of its transaction abandoned. The transaction is done.
		if ctx.Err() != nil {
			break
		}
		w.finished++
		w.session.Recorder().Operation()
		w.done.Store(w.finished)
	}
	if w.warming {
		w.warmOps = w.finished
		w.warmSucceeded = w.succeeded
		w.lagSum, w.lagMax, w.lagLast = 0, 0, 0
	}
	w.session.Intended = 0
}

// loop runs transactions until the worker is done. It may be cut short by a
// binding's panic (see measurement.Session.Guard) and called again: all it
// needs to go on is in w.
func (w *worker) loop(ctx context.Context, wl *workload.CoreWorkload, s *settings, mcfg *measurement.Config, tick int64) {
	trackIntended := mcfg.Interval != measurement.IntervalOp
	start, n, warming := w.start, w.finished, w.warming
	for (w.opCount == 0 || n < w.opCount) && !wl.Stopped() {
		if warming && measurement.Now() >= w.warmEnd {
			warming = false
			w.warming = false
			w.session.Recorder().SetWarmup(false)
			w.warmOps = n
			w.warmSucceeded = w.succeeded
			w.lagSum, w.lagMax = 0, 0
		}
		if tick > 0 {
			due := start + n*tick
			if now := measurement.Now(); due > now {
				sleepUntil(due, s.spin)
				w.lagLast = 0
			} else {
				lag := now - due
				w.lagSum += lag
				w.lagLast = lag
				if lag > w.lagMax {
					w.lagMax = lag
				}
			}
			if trackIntended {
				w.session.Intended = due
			}
		}
		// A transaction succeeded when none of its operations failed
		// (OK, BATCHED_OK or NOT_FOUND); a load's insert when the record
		// went in, after retries if need be.
		var ok bool
		failed, inserted := w.session.Failed, w.session.Inserted
		if s.transactions {
			ok = w.wl.DoTransaction(ctx)
		} else {
			ok = w.wl.DoInsert(ctx)
		}
		if !ok {
			return
		}
		if ctx.Err() != nil {
			return // the last operation was interrupted and is not counted
		}
		if s.transactions && w.session.Failed == failed || !s.transactions && w.session.Inserted > inserted {
			w.succeeded++
		}
		n++
		w.finished = n
		w.session.Recorder().Operation()
		if n&15 == 0 {
			w.done.Store(n)
		}
	}
}

func sleepUntil(due int64, spin bool) {
	for {
		d := due - measurement.Now()
		if d <= 0 {
			return
		}
		if spin {
			continue
		}
		time.Sleep(time.Duration(d))
	}
}

// IsSetup reports whether err happened before the run started.
func IsSetup(err error) bool {
	var se *SetupError
	return errors.As(err, &se) || props.IsBadInput(err)
}

// syncWriter serializes writes from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
