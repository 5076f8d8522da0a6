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
	"net"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload"
)

// SetupError is a failure before the run started: bad input, a binding that
// cannot connect. It is bad input (props.IsBadInput): the command line exits
// with code 2 for it.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }
func (e *SetupError) BadInput()     {}

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
	// CommandLine is the command line as given, without the program's
	// name; when set, it heads the start-up lines on Stderr, with Version,
	// once setup has succeeded (as the reference prints its command line).
	// Passwords in it are masked.
	CommandLine []string
	Version     string
}

// banner is the first of the start-up lines: the command line and the
// version, when Run was given a command line.
func (o *Options) banner() string {
	if o.CommandLine == nil {
		return ""
	}
	return fmt.Sprintf("Command line: %s\n%s %s, binding %s\n\n", strings.Join(secret.Args(o.CommandLine), " "), toolName, o.Version, o.Binding)
}

// stopGrace is how long operations in flight may take to finish once the run
// is stopped (Ctrl-C, maxexecutiontime) before their context is cancelled.
const stopGrace = 2 * time.Second

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
	fmt.Fprint(&prelude, o.banner())
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
	gc := startGCWindow()
	wu := startWarmup(s.warmup)
	if wu.on() {
		fmt.Fprintf(o.Stderr, "Warm-up: the first %s are not measured.\n", wu.length)
		for _, w := range workers {
			w.warmEnd = wu.endNs()
		}
		gc.skip(wu)
	}

	if s.maxExecution > 0 {
		// Before the status or progress output starts, which it would cut.
		fmt.Fprintf(o.Stderr, "Maximum execution time specified as: %d secs\n", int64(s.maxExecution/time.Second))
	}
	var pl *progressLine
	if !s.status && s.progress != "false" {
		fd := terminal(rawStderr)
		if s.progress == "true" || (fd >= 0 && os.Getenv("TERM") != "dumb") {
			pl = newProgressLine(o.Stderr, fd, s, workers, wu)
			causes.SetSay(pl.message)
		}
	}
	rep.start(s.status, wu, pl)
	var status *statusTicker
	if s.status {
		status = startStatus(rep.statusOut(), s, collector, workers, wu.start)
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

	tick := tickFor(s.target, s.threads)
	var wg sync.WaitGroup
	for _, w := range workers {
		w.pace = pacer{tick: tick, spin: s.spin}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(opCtx, wl, s, mcfg)
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
	gcStart, gcEnd := gc.end()

	if pl != nil {
		pl.finish(end)
	}
	// With a warm-up, the run time, the throughput and the operations cover
	// the measured part only.
	measured := wu.measuredFrom(end)
	if wu.on() && wu.end().After(end) {
		fmt.Fprintln(o.Stderr, "Warning: the run ended during the warm-up: nothing was measured.")
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
	if wu.on() {
		// After the reference's two OVERALL rows, so parsers keyed on them
		// keep working.
		rep.warmupMs = measured.Sub(wu.start).Milliseconds()
		rows = slices.Insert(rows, 2, measurement.Row{Metric: "OVERALL", Name: "Warmup(ms)", Value: export.Int(rep.warmupMs)})
	}
	// Ours, after the reference's OVERALL rows: a dead cluster that fails
	// fast must not look fast.
	rows = slices.Insert(rows, overallEnd(rows), measurement.Row{Metric: "OVERALL", Name: "SuccessfulThroughput(ops/sec)",
		Value: export.Float(rate(succeeded, end.Sub(measured)))})
	rows = append(rows, total.Rows(mcfg)...)
	var sched *schedule
	if tick > 0 {
		sched = newSchedule(s.target, ops, workers)
		rows = append(rows, sched.rows()...)
	}
	for _, st := range stats {
		rows = append(rows, measurement.Row{Metric: st.Section, Name: st.Name, Value: statValue(st.Value)})
	}
	err = rep.finish(total, rows, sched, measured, end, ops)
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
func overallEnd(rows []measurement.Row) int {
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
