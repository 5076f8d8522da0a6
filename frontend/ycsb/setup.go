package ycsb

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/oserr"
	"github.com/goycsb/ycsb/internal/outfile"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/prom"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/workload"
)

// prepared is a run checked and ready to open: every property has been read
// and every output path checked, and nothing has been opened, created or
// written but the notes on stdout the reference prints as it sets up.
type prepared struct {
	o         Options   // o.Stderr is shared by the run's goroutines
	rawStderr io.Writer // the caller's Stderr, to find a terminal
	s         *settings
	mcfg      *measurement.Config
	rep       *reporter
	outs      *intervalOutputs
	wl        workload.Workload
	// validator is the workload's check after the run (the closed
	// economy's); nil when it has none.
	validator workload.Validator
	cs        *capacitySettings // ycsb capacity's (Options.capacity), else nil
	// bindingProps are the properties the binding is opened with
	// (bindingProps).
	bindingProps *props.Properties
	// embedded: the binding is an engine in this process (db.Embedded),
	// which the engine's plans and so the client's verdict say.
	embedded bool
	// prelude holds the start-up lines, which wait until setup has
	// worked: bad input gets its one error line and nothing else.
	prelude bytes.Buffer
}

// prepare reads and checks the properties and output paths.
func prepare(ctx context.Context, o Options) (*prepared, error) {
	// Workers (insert retries), the status ticker, the progress line and the
	// time limit all write to stderr: one lock keeps their lines whole.
	p := &prepared{o: o, rawStderr: o.Stderr, outs: &intervalOutputs{}}
	p.o.Stderr = &syncWriter{w: o.Stderr}
	var err error
	if p.s, err = parseSettings(o.Props); err != nil {
		return nil, err
	}
	if err := checkEmbeddedFleet(p.s.clients, o.Binding); err != nil {
		return nil, err
	}
	p.embedded = db.KindOf(o.Binding) == db.Embedded
	if p.mcfg, err = measurement.ParseConfig(o.Props); err != nil {
		return nil, err
	}
	if o.capacity {
		// Before anything is printed (the data integrity note).
		if p.cs, err = parseCapacity(o.Props, p.s, p.mcfg); err != nil {
			return nil, err
		}
	}
	if p.s.objectives != nil && p.s.target > 0 && p.mcfg.Interval == measurement.IntervalOp {
		// Under a target the objectives read intended latency, which
		// measurement.interval=op does not record.
		p.mcfg.Interval = measurement.IntervalBoth
		fmt.Fprintln(&p.prelude, "note: slo with a target reads intended latency, recorded as measurement.interval=both does (Intended-<OP> sections)")
	}
	if p.rep, err = newReporter(p.o, p.s, p.mcfg, p.outs); err != nil {
		return nil, err
	}
	if p.s.sloAbort && p.s.share() == "" {
		p.outs.add(report.NewSLOAbort(p.s.objectives, p.s.sloLatency(p.mcfg), p.mcfg, p.s.opCount))
	}
	fmt.Fprint(&p.prelude, p.o.banner())
	fmt.Fprintln(&p.prelude, "Loading workload...")
	wcfg, err := workload.ParseConfigFor(o.Props, p.s.transactions, p.s.clients)
	if err == nil {
		p.bindingProps, err = bindingProps(o.Props)
	}
	if err == nil && p.cs != nil {
		// A step opens up to capacity.maxthreads sessions: a binding that
		// sizes what they share from threadcount (jdbc's connection pool)
		// must have room for them all, or the sessions beyond it wait the
		// whole step and the step measures the others alone.
		p.bindingProps.Set("threadcount", strconv.Itoa(p.cs.maxThreads))
	}
	if err == nil {
		err = checkTransactions(wcfg, o.Driver, o.Binding, p.bindingProps)
	}
	if err != nil {
		p.release()
		return nil, err
	}
	wl, err := wcfg.Workload(ctx, p.o.Stderr)
	if err != nil {
		p.release()
		return nil, err
	}
	fmt.Fprint(&p.prelude, p.clientLine(wcfg))
	if wcfg.DataIntegrity {
		fmt.Fprintln(o.Stdout, "Data integrity is enabled.")
	}
	p.wl = wl
	p.validator, _ = wl.(workload.Validator)
	if p.s.opCount > 0 && int64(p.s.threads) > p.s.opCount {
		fmt.Fprintln(o.Stdout, "Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!")
	}
	return p, nil
}

// release gives back what the run opened and the report did not close.
func (p *prepared) release() {
	p.outs.release()
	p.rep.release()
}

// bench is an opened run: the binding with a session per worker, the
// engine's workers over them, and the outputs opened during setup.
type bench struct {
	*prepared
	database db.DB
	causes   *measurement.Causes
	sessions []db.Session
	engine   *run.Engine    // the workers, over the sessions
	prom     *prom.Exporter // nil without prometheus.addr
	profile  *profileFile   // the CPU profile being written, if any
	seed     uint64         // the workers' seeds derive from it, for the report
	// economyStart is the closed economy's balances before the run
	// (countStart), counted at economyCounted; nil otherwise.
	economyStart   *workload.Start
	economyCounted time.Time
}

// open takes the Prometheus port, the last check (a port in use is found
// only by taking it), then opens the binding, which may create or empty a
// store, its sessions, and the files written during the run. When it fails,
// what it opened is closed again.
func (p *prepared) open(ctx context.Context) (*bench, error) {
	b := &bench{prepared: p}
	if p.s.promAddr != "" {
		e, err := prom.Listen(p.s.promAddr, prom.Info{Binding: p.o.Binding, Phase: report.Phase(!p.s.transactions), SLO: p.s.objectives})
		if err != nil {
			return nil, props.Errorf("prometheus.addr", "%v", err)
		}
		b.prom = e
		p.outs.add(promOutput{e: e, warmup: p.s.warmup})
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	database, err := p.o.Driver.Open(ctx, p.bindingProps, p.o.Stdout)
	if err != nil {
		return nil, err // bindings name themselves or the property
	}
	b.database = database
	b.causes = measurement.NewCauses(measurement.YCSB, func(line string) { fmt.Fprintln(p.o.Stderr, line) })
	if err := b.startSessions(ctx); err != nil {
		return nil, b.abandon(ctx, err)
	}
	b.engine = run.New(b.enginePlan())
	if err := p.rep.create(); err != nil {
		return nil, b.abandon(ctx, err)
	}
	if err := b.startProfile(); err != nil {
		return nil, b.abandon(ctx, err)
	}
	if ctx.Err() != nil {
		return nil, b.abandon(ctx, ctx.Err())
	}
	return b, nil
}

// startSessions opens a session of the binding per worker.
func (b *bench) startSessions(octx context.Context) error {
	threads := (&run.Plan{Threads: b.s.threads, OpCount: b.s.opCount}).Workers()
	b.sessions = make([]db.Session, 0, threads)
	// Each client's own (partition.Clients.Seed), even if two clients
	// read the same clock.
	b.seed = b.s.clients.Seed(uint64(time.Now().UnixNano()))
	for i := 0; i < threads; i++ {
		sess, err := b.database.Session(octx, i, threads)
		if err != nil {
			return fmt.Errorf("%s: session: %w", b.o.Binding, err)
		}
		b.sessions = append(b.sessions, sess)
	}
	return nil
}

// abandon closes the sessions and the binding when setup fails after the
// binding opened, and returns err.
func (b *bench) abandon(ctx context.Context, err error) error {
	for _, sess := range b.sessions {
		sess.Close(ctx)
	}
	b.closeDB()
	return err
}

func (b *bench) closeDB() error {
	if err := b.database.Close(); err != nil {
		return fmt.Errorf("%s: close: %w", b.o.Binding, err)
	}
	return nil
}

// linger keeps /metrics served for prometheus.linger after the report,
// so that a scraper takes the last figures and the objectives' verdicts;
// Ctrl-C ends it.
func (b *bench) linger(ctx context.Context) {
	if b.prom == nil || b.s.promLinger <= 0 || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(b.o.Stderr, "Prometheus metrics stay at http://%s/metrics for %v (prometheus.linger; Ctrl-C ends it)\n", b.prom.Addr(), b.s.promLinger)
	within.Sleep(ctx, b.s.promLinger)
}

// startProfile starts the CPU profile (cpuprofile).
func (b *bench) startProfile() error {
	if b.s.cpuProfile == "" {
		return nil
	}
	f, err := outfile.Create(b.s.cpuProfile)
	if err != nil {
		return props.Errorf("cpuprofile", "%v", err)
	}
	b.profile = &profileFile{f: f}
	if err := pprof.StartCPUProfile(b.profile); err != nil {
		f.Close()
		b.profile = nil
		return props.Errorf("cpuprofile", "%v", err)
	}
	return nil
}

// profileFile is cpuprofile's file. It keeps the first write error, which
// pprof drops: a profile that could not be written fails the run.
type profileFile struct {
	f   *os.File
	err error
}

func (p *profileFile) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.f.Write(b)
	p.err = err
	return n, err
}

// stopProfile ends the CPU profile, once the report is written, and says
// why it could not be written.
func (b *bench) stopProfile() error {
	p := b.profile
	if p == nil {
		return nil
	}
	b.profile = nil
	pprof.StopCPUProfile()
	if err := p.f.Close(); p.err == nil {
		p.err = err
	}
	if p.err != nil {
		return fmt.Errorf("cpuprofile: cannot write %s: %v", b.s.cpuProfile, oserr.Reason(p.err))
	}
	return nil
}
