package ycsb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/run/capacity"
	"github.com/goycsb/ycsb/workload"
)

// capacitySettings are the capacity.* properties of ycsb capacity.
type capacitySettings struct {
	search     capacity.Config
	stepTime   time.Duration // the least measured time of a step
	maxStep    time.Duration // the most, however many operations its percentiles need
	warmup     time.Duration // each step's, not measured
	maxThreads int           // threads grow up to it (Little's law)
}

func parseCapacity(p *props.Properties, s *settings, mcfg *measurement.Config) (*capacitySettings, error) {
	r := props.NewReader(p)
	c := &capacitySettings{}
	c.search.Start = r.Float64("capacity.start", 1000, props.Range("at least 1 and at most 1e9 ops/s", func(v float64) bool { return v >= 1 && v <= 1e9 }))
	c.search.Max = r.Float64("capacity.max", 1e7, props.Range("at least 1 and at most 1e9 ops/s", func(v float64) bool { return v >= 1 && v <= 1e9 }))
	c.search.Growth = r.Float64("capacity.growth", 2, props.Range("above 1 and at most 100", func(v float64) bool { return v > 1 && v <= 100 }))
	c.search.Resolution = r.Float64("capacity.resolution", 0.05, props.Range("a share of the rate above 0 and at most 1 (0.05 is 5%)", func(v float64) bool { return v > 0 && v <= 1 }))
	c.search.MaxSteps = r.Int("capacity.steps", 30, props.Range("1 to 1000", func(n int64) bool { return n >= 1 && n <= 1000 }))
	c.stepTime = r.Duration("capacity.steptime", time.Second, 10*time.Second, minStepTime, time.Hour)
	c.maxStep = r.Duration("capacity.maxsteptime", time.Second, 120*time.Second, minStepTime, 24*time.Hour)
	c.warmup = r.Duration("capacity.warmup", time.Second, 2*time.Second, 0, time.Hour)
	c.search.Cooldown = r.Duration("capacity.cooldown", time.Second, DefaultCooldown, 0, capacity.MaxCooldown)
	c.maxThreads = r.Int("capacity.maxthreads", max(s.threads, 256), props.Range(fmt.Sprintf("from threadcount (%d) to %d", s.threads, maxThreads),
		func(n int64) bool { return n >= int64(s.threads) && n <= maxThreads }))
	if err := r.Err(); err != nil {
		return nil, err
	}
	switch {
	case c.search.Max < math.Round(c.search.Start):
		// Targets are whole ops/s: the first step asks the start rounded.
		return nil, props.Errorf("capacity.max", "%g is below capacity.start rounded to whole ops/s (%g)", c.search.Max, math.Round(c.search.Start))
	case c.maxStep < c.stepTime:
		return nil, props.Errorf("capacity.maxsteptime", "%v is below capacity.steptime (%v)", c.maxStep, c.stepTime)
	case workload.RunsTransactions(p):
		return nil, props.Errorf("workload", "the closed economy is not offered with capacity: its check of the balances belongs to one run")
	case s.objectives == nil:
		return nil, props.Errorf("slo", "missing: capacity searches for the highest rate that meets objectives (e.g. -p slo=\"READ.p99<=5ms\")")
	case s.target > 0:
		return nil, props.Errorf("target", "capacity sets each step's rate itself: give capacity.start instead")
	case s.maxExecution > 0:
		return nil, props.Errorf("maxexecutiontime", "capacity times each step itself (capacity.steptime, capacity.maxsteptime)")
	case s.warmup > 0:
		return nil, props.Errorf("warmup", "capacity warms up each step itself (capacity.warmup)")
	case s.clients.Count > 1 && s.startTime.IsZero() && s.meet.addr == "":
		return nil, props.Errorf("client.count", "a fleet's capacity runs a fixed ladder of steps on a schedule every client shares: give starttime or client.rendezvous")
	case s.clients.Split() && c.search.Start < float64(s.clients.Count):
		return nil, props.Errorf("capacity.start", "%g is less than client.count=%d: it is the fleet's rate, and a client would get none", c.search.Start, s.clients.Count)
	case s.clients.Split() && p.Has("capacity.resolution"):
		return nil, props.Errorf("capacity.resolution", "a fleet (client.count) runs a fixed ladder, capacity.start·capacity.growth^k, with no bisection")
	case s.status:
		return nil, props.Errorf("status", "capacity prints a line per step on stderr; -s is not offered")
	case mcfg.HdrFileOutput:
		return nil, props.Errorf("hdrhistogram.fileoutput", "not offered with capacity: report.json keeps each step's histograms")
	case mcfg.HasRaw():
		return nil, props.Errorf("measurementtype", "%s: capacity keeps HdrHistograms (hdrhistogram)", mcfg.Type)
	case s.exporter == JSONReportExporter:
		return nil, props.Errorf("exporter", "capacity writes its JSON report to report.json; the exporter formats its rows (text, json, jsonarray)")
	}
	for _, o := range s.objectives {
		if o.Stat == slo.Throughput {
			return nil, props.Errorf("slo", "%s: capacity finds the throughput; give latency and error objectives", o.Text)
		}
	}
	return c, nil
}

// Capacity is ycsb capacity: the binding opened once, then open-loop steps
// at rising rates, each judged against the objectives on intended
// latency, until the highest rate that meets them is bracketed. A client
// of a fleet (client.count) runs a fixed ladder of steps instead, on the
// schedule every client shares, and leaves the judging to ycsb merge.
func Capacity(ctx context.Context, o Options) error {
	o.Props.Set("dotransactions", "true")
	o.capacity = true
	p, err := prepare(ctx, o)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer p.release()
	cs := p.cs
	// Every step has a target: intended latency is recorded, as a run
	// with slo and a target records it.
	if p.mcfg.Interval == measurement.IntervalOp {
		p.mcfg.Interval = measurement.IntervalBoth
	}
	b, err := p.open(ctx)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer b.stopProfile()
	b.writeStartLines()
	// Each step opens its own sessions, which its run closes (sending what
	// a session buffers), so that what a step counts as done is done.
	for _, sess := range b.sessions {
		sess.Close(ctx)
	}
	b.sessions = nil
	st := &capacityStepper{b: b, cs: cs, threads: p.s.threads}
	ans, searchErr := st.search(ctx)
	closeErr := b.closeDB()
	if ans == nil {
		return searchErr
	}
	c := capacityObject(ans, cs, p.s)
	rows := report.CapacityRows(c, objectiveTexts(p.s.objectives))
	var exportErr error
	if err := writeReport(o.Stdout, p.s, rows); err != nil {
		if p.s.exportFile == "" {
			return err
		}
		exportErr = exportFailed(o.Stdout, rows, err)
	}
	if p.rep.json != nil {
		doc, err := capacityReport(b, c, st.start, time.Now(), rows)
		if err != nil {
			return err
		}
		if err := p.rep.writeJSONReport(doc); err != nil {
			return err
		}
	}
	// A search that ended by itself is complete: a signal that came while
	// its report waited for a FIFO's reader interrupted no work.
	complete := !ans.Interrupted && (searchErr == nil || !errors.Is(searchErr, context.Canceled))
	if complete && o.Complete != nil {
		*o.Complete = true
	}
	b.causes.WriteSummary(o.Stderr)
	for _, err := range []error{exportErr, b.stopProfile()} {
		if closeErr == nil {
			closeErr = err
		}
	}
	b.linger(ctx)
	if searchErr != nil && !errors.Is(searchErr, context.Canceled) {
		return searchErr
	}
	if closeErr != nil {
		return closeErr
	}
	if !p.s.clients.Split() && ans.Rate == 0 && (ctx.Err() == nil || complete) {
		return unmet(ans)
	}
	return nil
}

// search runs the steps: a search, or a fleet's client's share of the
// ladder once the fleet's start has come.
func (c *capacityStepper) search(ctx context.Context) (*capacity.Answer, error) {
	b, cs := c.b, c.cs
	if b.s.clients.Split() {
		if err := b.waitForStart(ctx); err != nil {
			return nil, err
		}
		return c.ladder(ctx)
	}
	fmt.Fprintf(b.o.Stderr, "Capacity search: from %g ops/s, x%g until a step fails, then bisection to %g%%; %v steps after %v of warm-up, %v idle before each; a step that does not pass is run again to confirm it\n",
		cs.search.Start, cs.search.Growth, cs.search.Resolution*100, cs.stepTime, cs.warmup, cs.search.Cooldown)
	c.start = time.Now()
	return capacity.Search(ctx, cs.search, c)
}

// unmet is the error of a search that found no rate meeting the
// objectives, a.Rate 0.
func unmet(a *capacity.Answer) error {
	if a.Unjudged {
		_, why := a.Limit(capacity.Config{}, capacityNames)
		return &slo.Unmet{Msg: "capacity: no rate was judged: " + why}
	}
	if a.Hopeless != "" {
		return &slo.Unmet{Msg: fmt.Sprintf("capacity: no rate was judged: the client cannot hold the objectives on this machine (%s), at %.0f ops/s", a.Hopeless, a.Above)}
	}
	return &slo.Unmet{Msg: fmt.Sprintf("capacity: no rate met the objectives, down to %.0f ops/s", a.Above)}
}

func objectiveTexts(objs []slo.Objective) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Text)
	}
	return out
}

// capacityStepper runs the steps of a search on the opened binding.
type capacityStepper struct {
	start   time.Time // the search's (a fleet's: the shared start)
	b       *bench
	cs      *capacitySettings
	threads int     // the last step's, where the next starts
	meanUs  float64 // the last step's mean service latency
	n       int     // steps run
}

func (c *capacityStepper) Step(ctx context.Context, ask capacity.Ask) (capacity.Step, error) {
	target := int64(math.Round(ask.Rate))
	if ask.Confirms > 0 {
		fmt.Fprintf(c.b.o.Stderr, "capacity: %d ops/s did not pass: again, to confirm it\n", target)
	}
	dur, trusted := c.duration(float64(target))
	c.sizeThreads(target)
	for try := 0; ; try++ {
		c.n++
		sessions, err := c.sessions(ctx, c.threads)
		if err != nil {
			return capacity.Step{}, err
		}
		res := c.run(ctx, target, dur, sessions, true)
		j, err := report.Judge(c.b.s.objectives, slo.Intended, res, "")
		if err != nil {
			return capacity.Step{}, err
		}
		step, rerun, mean := report.CapacityStepOf(res, j, report.CapacityStep{Target: target, Threads: c.threads,
			ThreadCap: fmt.Sprintf("capacity.maxthreads=%d", c.cs.maxThreads), Unit: "ops/s", Shortfall: ask.Shortfall, Terms: capacityTerms,
			Achieved: report.StepAchieved(res, dur), MaxThreads: c.cs.maxThreads}, ctx.Err() != nil, try)
		c.keepMean(mean)
		if rerun > 0 {
			// Thread-bound: at the latency measured, the threads cannot
			// offer the rate (Little's law), whatever the system's
			// latency did.
			c.threads = rerun
			fmt.Fprintf(c.b.o.Stderr, "capacity: step %d, %d ops/s: %s; again with %d threads\n", ask.N, target, capacity.OfferNote(step.Threads, mean, "ops/s"), c.threads)
			continue
		}
		load := step.Untrusted
		if !trusted {
			step.Untrusted = capacity.JoinWhy(step.Untrusted, untrustedStep)
		}
		step.Unjudged = step.Verdict == capacity.Fail && j.Unjudged()
		if err := c.detail(&step, res, j, trusted, 0); err != nil {
			return capacity.Step{}, err
		}
		d := step.Detail.(*jsonreport.CapacityStep)
		d.Untrusted, d.Confirms = load, ask.Confirms
		fmt.Fprintf(c.b.o.Stderr, "capacity: step %d: %s\n", ask.N, report.CapacityStepLine(d))
		return step, nil
	}
}

// sizeThreads raises the threads for a step at target: Little's law at
// the latency the last step measured, with room (capacity.ThreadsFor);
// within capacity.maxthreads.
func (c *capacityStepper) sizeThreads(target int64) {
	c.threads = capacity.ThreadsFor(float64(target), c.meanUs, c.threads, c.cs.maxThreads)
}

// keepMean keeps a step's mean service latency (µs, 0 unknown) for the
// next step's threads.
func (c *capacityStepper) keepMean(meanUs float64) {
	if meanUs > 0 {
		c.meanUs = meanUs
	}
}

// offered is the step's mean service latency and the most its threads
// could offer at it (Little's law; +Inf without a latency). It keeps the
// latency for the next step's threads.
func (c *capacityStepper) offered(res *run.Result) (meanUs, offered float64) {
	mean, _ := report.MeanServiceUs(res.Total)
	c.keepMean(mean)
	return mean, capacity.Offered(c.threads, mean)
}

// detail sets the step's record for the report: its figures, judgement
// and histograms; share is this client's part of a fleet's rate (0: not
// a fleet).
func (c *capacityStepper) detail(s *capacity.Step, res *run.Result, j *slo.Judgement, trusted bool, share int64) error {
	ms, err := report.Measurements(res.Total, c.b.mcfg)
	if err != nil {
		return err
	}
	s.Detail = &jsonreport.CapacityStep{AskedOpsSec: s.Asked, ShareOpsSec: float64(share), AchievedOpsSec: s.Achieved, Threads: s.Threads,
		StartMs: res.Start.Sub(c.start).Milliseconds(), MeasuredMs: res.End.Sub(res.Start).Milliseconds(), Operations: res.Ops,
		Failed: res.Ops - res.Succeeded, Verdict: s.Verdict.String(), Why: s.Why, Trusted: trusted, SLO: j.JSON(), Measurements: ms,
		Client: report.ClientVerdictOf(res, capacityTerms)}
	return nil
}

// minStepTime is the least capacity.steptime and capacity.maxsteptime. A
// variable for the package's tests alone, whose searches run shorter steps
// (testmain_test.go).
var minStepTime = time.Second

// DefaultCooldown is capacity.cooldown's default: the idle time before
// each step. A step that failed leaves the system a backlog (queued
// requests, memtables to flush, compactions, connections to settle) and
// the client garbage to collect; the next step's warm-up runs load and
// would measure some of it. Two seconds, as long as the default warm-up,
// add a fifth to a step of the default length (10 s).
const DefaultCooldown = 2 * time.Second

// untrustedStep is why a step whose objectives' percentiles needed more
// operations than capacity.maxsteptime allowed is not to be trusted.
const untrustedStep = "too few operations to trust the percentiles (capacity.maxsteptime)"

// ladderGap separates a fleet's steps: room for a step's run to end
// (its sessions closed) and the next one's sessions to open before the
// shared schedule starts it.
const ladderGap = time.Second

// ladder runs this client's share of a fleet's ladder
// (capacity.Ladder): step k starts at the shared start plus the periods
// of the steps before it, each its warm-up, its measured time (from the
// fleet's rate, so the same on every client), ladderGap and the
// cool-down (capacity.cooldown). No step
// stops early and none is rerun: one client cannot judge the fleet, and
// the schedule must hold. ctx ending keeps the steps done.
func (c *capacityStepper) ladder(ctx context.Context) (*capacity.Answer, error) {
	b, cl := c.b, c.b.s.clients
	c.start = b.s.startTime
	if c.start.IsZero() { // a fleet of one, started now
		c.start = time.Now()
	}
	rates := capacity.Ladder(c.cs.search)
	fmt.Fprintf(b.o.Stderr, "Capacity ladder of a fleet of %d clients, this one client.index=%d: %d steps from %g ops/s, x%g, each client its share; %v steps after %v of warm-up, %v apart; ycsb merge judges the fleet\n",
		cl.Count, cl.Index, len(rates), rates[0], c.cs.search.Growth, c.cs.stepTime, c.cs.warmup, ladderGap+c.cs.search.Cooldown)
	var steps []capacity.Step
	at := c.start
	for k, rate := range rates {
		target := int64(rate)
		share := cl.Share(target)
		dur, trusted := c.duration(rate)
		next := at.Add(c.cs.warmup + dur + ladderGap + c.cs.search.Cooldown)
		c.sizeThreads(share)
		c.n++
		sessions, err := c.sessions(ctx, c.threads)
		if err != nil {
			return &capacity.Answer{Steps: steps, Interrupted: true}, err
		}
		late := time.Since(at)
		if !within.Sleep(ctx, -late) {
			for _, s := range sessions {
				s.Close(ctx)
			}
			return &capacity.Answer{Steps: steps, Interrupted: true}, ctx.Err()
		}
		res := c.run(ctx, share, dur, sessions, false)
		if ctx.Err() != nil {
			return &capacity.Answer{Steps: steps, Interrupted: true}, ctx.Err() // an unfinished step is not kept
		}
		j, err := report.Judge(b.s.objectives, slo.Intended, res, b.s.share())
		if err != nil {
			return nil, err
		}
		step := capacity.Step{Asked: rate, Threads: c.threads, Achieved: report.StepAchieved(res, dur), Verdict: capacity.NotJudged}
		mean, offered := c.offered(res)
		switch {
		case offered < float64(share):
			step.Verdict = capacity.ClientLimited
			step.Why = capacity.OfferNote(step.Threads, mean, "ops/s") + fmt.Sprintf(" of its %d: the client's threads limit the fleet (capacity.maxthreads=%d)", share, c.cs.maxThreads)
		case capacity.Short(float64(share), step.Achieved, c.cs.search.Shortfall()):
			// Its share's schedule not kept, the fleet's step measured
			// another rate (report.JudgeCapacityStep's rule).
			step.Verdict = capacity.ClientLimited
			step.Why = fmt.Sprintf("%.1f of its share's %d ops/s achieved: the step did not keep its schedule", step.Achieved, share)
		case cpuBound(res) != "":
			// Out of CPU, this client measured its own queue too,
			// whatever the fleet's verdict.
			step.Verdict, step.Why = capacity.ClientLimited, cpuBound(res)
		}
		if late > lateNote {
			step.Why = strings.TrimPrefix(step.Why+fmt.Sprintf("; started %v after the schedule", late.Round(time.Millisecond)), "; ")
		}
		if err := c.detail(&step, res, j, trusted, share); err != nil {
			return nil, err
		}
		fmt.Fprintf(b.o.Stderr, "capacity: step %d of %d: %s\n", k+1, len(rates), report.CapacityStepLine(step.Detail.(*jsonreport.CapacityStep)))
		steps = append(steps, step)
		at = next
	}
	return &capacity.Answer{Steps: steps}, nil
}

// lateNote is how late after the schedule a fleet's step may start
// without the report saying so.
const lateNote = 50 * time.Millisecond

// duration is a step's measured time at rate: capacity.steptime, longer
// when its objectives' percentiles need more operations to be trusted
// (capacity.OpsToTrust), up to capacity.maxsteptime; trusted says whether
// they get them.
func (c *capacityStepper) duration(rate float64) (time.Duration, bool) {
	return capacity.StepTime(c.b.s.objectives, rate, c.cs.stepTime, c.cs.maxStep)
}

// sessions opens a step's n sessions; its run closes them.
func (c *capacityStepper) sessions(ctx context.Context, n int) ([]db.Session, error) {
	out := make([]db.Session, 0, n)
	for i := 0; i < n; i++ {
		sess, err := c.b.database.Session(ctx, i, n)
		if err != nil {
			for _, s := range out {
				s.Close(ctx)
			}
			return nil, fmt.Errorf("%s: session: %w", c.b.o.Binding, err)
		}
		out = append(out, sess)
	}
	return out, nil
}

// run runs one step: threads workers at target for a warm-up and dur,
// stopped early, with abort, once an objective has failed beyond doubt.
func (c *capacityStepper) run(ctx context.Context, target int64, dur time.Duration, sessions []db.Session, abort bool) *run.Result {
	b := c.b
	plan := &run.Plan{
		Threads:     c.threads,
		Target:      target,
		Spin:        b.s.spin,
		Warmup:      c.cs.warmup,
		TimeLimit:   c.cs.warmup + dur,
		Interval:    time.Second,
		Workload:    b.wl,
		Sessions:    sessions,
		Measurement: b.mcfg,
		Causes:      b.causes,
		Seed:        b.seed + uint64(c.n)*0x9e3779b97f4a7c15,
	}
	if abort {
		plan.Outputs = append(plan.Outputs, report.NewSLOAbort(b.s.objectives, slo.Intended, b.mcfg, 0))
	}
	if b.prom != nil {
		plan.Outputs = append(plan.Outputs, promOutput{e: b.prom, warmup: c.cs.warmup})
	}
	_, plan.AdaptProcs = b.database.(db.Remote)
	plan.Embedded = b.embedded
	res := run.Run(ctx, plan)
	// The step's time limit stopped the workload; the next step runs it
	// again.
	b.wl.Resume()
	return res
}

// capacityTerms are the options the client's advice names in a search.
var capacityTerms = report.Terms{Threads: "capacity.maxthreads", Clients: "client.count: a fleet runs a ladder of steps"}

// cpuBound is the client's advice when it ran out of CPU in the step, ""
// otherwise.
func cpuBound(res *run.Result) string { return report.CPUBoundAdvice(res, capacityTerms) }

// capacityObject is the JSON report's capacity: the steps and the answer
// (none in a client's share of a fleet's ladder).
func capacityObject(a *capacity.Answer, cs *capacitySettings, s *settings) *jsonreport.Capacity {
	// The answer is what the best passing step served (Answer.Max).
	max, best := a.Max()
	c := &jsonreport.Capacity{Steps: []jsonreport.CapacityStep{}, MaxOpsSec: max, FirstFailingOpsSec: a.Above, Resolution: cs.search.Resolution}
	for i := range a.Steps {
		st := &a.Steps[i]
		d := *st.Detail.(*jsonreport.CapacityStep)
		d.Confirms = st.Confirms
		c.Steps = append(c.Steps, d)
		if i+1 == best {
			c.AchievedOpsSec = st.Achieved
		}
	}
	if s.clients.Split() {
		// The ladder's bracket is a step's width.
		c.Resolution = cs.search.Growth - 1
		c.Limit = capacity.LimitFleet
		c.LimitWhy = "not judged: " + s.share() + "; ycsb merge judges each step on the fleet's merged histograms"
		if a.Interrupted { // ycsb merge reads it
			c.LimitWhy = fmt.Sprintf("%s after %d of the ladder's steps; %s", capacity.LimitInterrupted, len(a.Steps), c.LimitWhy)
		}
		return c
	}
	c.Limit, c.LimitWhy = a.Limit(cs.search, capacityNames)
	c.Untrusted = a.Untrusted("ops/s")
	return c
}

// capacityReport is the JSON report of a search: its steps with their
// objectives and histograms, and the answer.
func capacityReport(b *bench, c *jsonreport.Capacity, start, end time.Time, rows []export.Row) ([]byte, error) {
	rep := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Tool: report.Tool,
		Binding: b.o.Binding, Phase: jsonreport.PhaseCapacity, MeasurementType: string(b.mcfg.Type), Percentiles: b.mcfg.Percentiles,
		Settings: jsonreport.MaskSettings(b.o.Props.Map()), Clients: 1, Start: start.UTC(), End: end.UTC(),
		RunTimeMs: end.Sub(start).Milliseconds(), Seed: b.seed, Intervals: []jsonreport.Interval{}, Sections: rows, Capacity: c}
	for _, s := range c.Steps {
		rep.Operations += s.Operations
	}
	if cl := b.s.clients; cl.Split() {
		rep.Client = &jsonreport.Client{Index: cl.Index, Count: cl.Count}
	}
	if !b.s.startTime.IsZero() {
		t := b.s.startTime.UTC()
		rep.StartTime = &t
	}
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// capacityNames are the options the answer's sentences name.
var capacityNames = capacity.Names{Resolution: "capacity.resolution", Steps: "capacity.steps", Max: "capacity.max", Unit: "ops/s", StepTime: "capacity.maxsteptime"}
