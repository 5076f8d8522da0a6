package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/capacity"
	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/runreport"
	"github.com/goycsb/ycsb/slo"
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
	c.search.Start = r.Float64("capacity.start", 1000, props.Range("above 0 and at most 1e9 ops/s", func(v float64) bool { return v > 0 && v <= 1e9 }))
	c.search.Max = r.Float64("capacity.max", 1e7, props.Range("above 0 and at most 1e9 ops/s", func(v float64) bool { return v > 0 && v <= 1e9 }))
	c.search.Growth = r.Float64("capacity.growth", 2, props.Range("above 1 and at most 100", func(v float64) bool { return v > 1 && v <= 100 }))
	c.search.Resolution = r.Float64("capacity.resolution", 0.05, props.Range("a share of the rate above 0 and at most 1 (0.05 is 5%)", func(v float64) bool { return v > 0 && v <= 1 }))
	c.search.MaxSteps = r.Int("capacity.steps", 30, props.Range("1 to 1000", func(n int64) bool { return n >= 1 && n <= 1000 }))
	c.stepTime = r.Duration("capacity.steptime", time.Second, 10*time.Second, time.Second, time.Hour)
	c.maxStep = r.Duration("capacity.maxsteptime", time.Second, 120*time.Second, time.Second, 24*time.Hour)
	c.warmup = r.Duration("capacity.warmup", time.Second, 2*time.Second, 0, time.Hour)
	c.maxThreads = r.Int("capacity.maxthreads", max(s.threads, 256), props.Range(fmt.Sprintf("from threadcount (%d) to %d", s.threads, maxThreads),
		func(n int64) bool { return n >= int64(s.threads) && n <= maxThreads }))
	if err := r.Err(); err != nil {
		return nil, err
	}
	switch {
	case c.search.Max < c.search.Start:
		return nil, props.Errorf("capacity.max", "%g is below capacity.start (%g)", c.search.Max, c.search.Start)
	case c.maxStep < c.stepTime:
		return nil, props.Errorf("capacity.maxsteptime", "%v is below capacity.steptime (%v)", c.maxStep, c.stepTime)
	case s.objectives == nil:
		return nil, props.Errorf("slo", "missing: capacity searches for the highest rate that meets objectives (e.g. -p slo=\"READ.p99<=5ms\")")
	case s.target > 0:
		return nil, props.Errorf("target", "capacity sets each step's rate itself: give capacity.start instead")
	case s.maxExecution > 0:
		return nil, props.Errorf("maxexecutiontime", "capacity times each step itself (capacity.steptime, capacity.maxsteptime)")
	case s.warmup > 0:
		return nil, props.Errorf("warmup", "capacity warms up each step itself (capacity.warmup)")
	case s.clients.Split():
		return nil, props.Errorf("client.count", "a capacity search takes feedback from one process; a fleet's is not offered yet")
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
// latency, until the highest rate that meets them is bracketed.
func Capacity(ctx context.Context, o Options) error {
	o.Props.Set("dotransactions", "true")
	p, err := prepare(ctx, o)
	if err != nil {
		return setupErr(ctx, err)
	}
	defer p.release()
	cs, err := parseCapacity(o.Props, p.s, p.mcfg)
	if err != nil {
		return setupErr(ctx, err)
	}
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
	fmt.Fprintf(o.Stderr, "Capacity search: from %g ops/s, x%g until a step fails, then bisection to %g%%; %v steps after %v of warm-up\n",
		cs.search.Start, cs.search.Growth, cs.search.Resolution*100, cs.stepTime, cs.warmup)
	start := time.Now()
	st.start = start
	ans, searchErr := capacity.Search(ctx, cs.search, st)
	closeErr := b.closeDB()
	if ans == nil {
		return searchErr
	}
	rows := capacityRows(ans, cs, p.s)
	if err := writeReport(o.Stdout, p.s, rows); err != nil {
		return err
	}
	if p.rep.json != nil {
		doc, err := capacityReport(b, cs, ans, start, time.Now(), rows)
		if err != nil {
			return err
		}
		if err := p.rep.writeJSONReport(doc); err != nil {
			return err
		}
	}
	b.causes.WriteSummary(o.Stderr)
	if searchErr != nil && !errors.Is(searchErr, context.Canceled) {
		return searchErr
	}
	if closeErr != nil {
		return closeErr
	}
	if ans.Rate == 0 && ctx.Err() == nil {
		return &slo.Unmet{Msg: fmt.Sprintf("capacity: no rate met the objectives, down to %.0f ops/s", ans.Above)}
	}
	return nil
}

// capacityStepper runs the steps of a search on the opened binding.
type capacityStepper struct {
	start   time.Time // the search's
	b       *bench
	cs      *capacitySettings
	threads int     // the last step's, where the next starts
	meanUs  float64 // the last step's mean service latency
	n       int     // steps run
}

// maxRetries bounds the reruns of a step whose threads were too few.
const maxRetries = 3

func (c *capacityStepper) Step(ctx context.Context, rate float64) (capacity.Step, error) {
	target := int64(math.Round(rate))
	dur, trusted := c.duration(float64(target))
	if c.meanUs > 0 {
		// Little's law with room to spare: the threads the rate needs at
		// the latency the last step measured, twice over, so that a
		// moment's slowness does not leave the schedule behind.
		c.threads = min(c.cs.maxThreads, max(c.threads, int(math.Ceil(float64(target)*c.meanUs/1e6*2))+1))
	}
	for try := 0; ; try++ {
		c.n++
		sessions, err := c.sessions(ctx, c.threads)
		if err != nil {
			return capacity.Step{}, err
		}
		res := c.run(ctx, target, dur, sessions)
		j, err := runreport.Judge(c.b.s.objectives, slo.Intended, res, "")
		if err != nil {
			return capacity.Step{}, err
		}
		step := capacity.Step{Asked: float64(target), Threads: c.threads, Detail: &stepDetail{j: j, res: res, trusted: trusted}}
		if d := res.End.Sub(res.Start).Seconds(); d > 0 {
			step.Achieved = float64(res.Ops) / d
		}
		mean, _ := runreport.MeanServiceUs(res.Total)
		if mean > 0 {
			c.meanUs = mean
		}
		offered := math.Inf(1)
		if mean > 0 {
			offered = float64(c.threads) / (mean / 1e6)
		}
		// Thread-bound: at the latency measured, the threads cannot offer
		// the rate (Little's law), whatever the system's latency did.
		short := offered < float64(target)
		switch {
		case ctx.Err() != nil:
			step.Verdict, step.Why = capacity.Fail, "interrupted"
		case short && c.threads < c.cs.maxThreads && try < maxRetries:
			c.threads = min(c.cs.maxThreads, max(c.threads+1, int(math.Ceil(float64(target)*mean/1e6*2))+1))
			fmt.Fprintf(c.b.o.Stderr, "capacity: %d ops/s: %s; again with %d threads\n", target, offerNote(step.Threads, mean, offered), c.threads)
			continue
		case short:
			step.Verdict = capacity.ClientLimited
			step.Why = offerNote(step.Threads, mean, offered) + fmt.Sprintf(": the client's threads limit the search (capacity.maxthreads=%d)", c.cs.maxThreads)
		case j.Passed():
			step.Verdict = capacity.Pass
		case cpuBound(res) != "":
			// A client out of CPU measures its own queue too: the step
			// says nothing of the system.
			step.Verdict = capacity.ClientLimited
			step.Why = failedObjectives(j) + ", but " + cpuBound(res)
		default:
			step.Verdict = capacity.Fail
			step.Why = failedObjectives(j)
		}
		fmt.Fprintf(c.b.o.Stderr, "capacity: step %d: %s\n", c.n, stepLine(&step))
		return step, nil
	}
}

// duration is a step's measured time at rate: capacity.steptime, longer
// when its objectives' percentiles need more operations to be trusted
// (capacity.OpsToTrust), up to capacity.maxsteptime; trusted says whether
// they get them.
func (c *capacityStepper) duration(rate float64) (time.Duration, bool) {
	var need int64
	for _, o := range c.b.s.objectives {
		if o.Stat == slo.Percentile {
			need = max(need, capacity.OpsToTrust(o.Percentile))
		}
	}
	d := c.cs.stepTime
	if want := time.Duration(float64(need) / rate * float64(time.Second)); want > d {
		d = want
	}
	if d > c.cs.maxStep {
		return c.cs.maxStep, false
	}
	return d, true
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
// stopped early once an objective has failed beyond doubt.
func (c *capacityStepper) run(ctx context.Context, target int64, dur time.Duration, sessions []db.Session) *engine.Result {
	b := c.b
	plan := &engine.Plan{
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
		Outputs:     []engine.Output{runreport.NewSLOAbort(b.s.objectives, slo.Intended, b.mcfg, 0)},
	}
	if b.prom != nil {
		plan.Outputs = append(plan.Outputs, promOutput{e: b.prom, warmup: c.cs.warmup})
	}
	_, plan.AdaptProcs = b.database.(db.Remote)
	res := engine.Run(ctx, plan)
	// The step's time limit stopped the workload; the next step runs it
	// again.
	b.wl.(coreWorkload).Resume()
	return res
}

// stepDetail is what the report shows of a step.
type stepDetail struct {
	j       *slo.Judgement
	res     *engine.Result
	trusted bool
}

// capacityTerms are the options the client's advice names in a search.
var capacityTerms = runreport.Terms{Threads: "capacity.maxthreads", Clients: "more client machines"}

// cpuBound is the client's CPU verdict's advice when the step found the
// client out of CPU, "" otherwise.
func cpuBound(res *engine.Result) string {
	c := runreport.CheckClient(res, capacityTerms)
	if c == nil {
		return ""
	}
	for i, v := range c.Verdicts {
		if v == runreport.CPUBound {
			return c.Advice[i]
		}
	}
	return ""
}

func offerNote(threads int, meanUs, offered float64) string {
	return fmt.Sprintf("%d threads at %s offer at most %.0f ops/s", threads, slo.FormatLatency(meanUs), offered)
}

func failedObjectives(j *slo.Judgement) string {
	var f []string
	for _, r := range j.Results {
		if r.Verdict != slo.Pass {
			f = append(f, r.Text)
		}
	}
	s := strings.Join(f, ", ") + " failed"
	if j.Aborted != "" {
		s += " (stopped early: " + j.Aborted + ")"
	}
	return s
}

// stepLine is a step as one line: rates, threads, each objective's
// figure, the verdict.
func stepLine(s *capacity.Step) string {
	d := s.Detail.(*stepDetail)
	var b strings.Builder
	fmt.Fprintf(&b, "%.0f ops/s asked, %.1f achieved, %d threads", s.Asked, s.Achieved, s.Threads)
	for _, r := range d.j.Results {
		fmt.Fprintf(&b, ", %s %s", r.Text, r.Verdict)
		if r.Verdict != slo.NoData {
			fmt.Fprintf(&b, " (%s)", measuredText(r))
		}
	}
	if !d.trusted {
		b.WriteString(", too few operations to trust the percentiles (capacity.maxsteptime)")
	}
	fmt.Fprintf(&b, ": %s", s.Verdict)
	if s.Why != "" {
		b.WriteString(" — " + s.Why)
	}
	return b.String()
}

func measuredText(r slo.Result) string {
	if r.Stat == slo.ErrorRate {
		return strconv.FormatFloat(r.Measured*100, 'g', 3, 64) + "%"
	}
	return slo.FormatLatency(r.Measured)
}

// limitingWhy is why the client limited the step at a.Above.
func limitingWhy(a *capacity.Answer) string {
	for _, s := range a.Steps {
		if s.Asked == a.Above && s.Verdict == capacity.ClientLimited {
			return s.Why
		}
	}
	return "it could not offer the rate"
}

// capacityRows are the report: a row per step, then the answer.
func capacityRows(a *capacity.Answer, cs *capacitySettings, s *settings) []export.Row {
	const sec = "CAPACITY"
	var rows []export.Row
	for i := range a.Steps {
		rows = append(rows, export.Row{Metric: sec, Name: "Step " + strconv.Itoa(i+1), Value: export.Str(stepLine(&a.Steps[i]))})
	}
	var objs []string
	for _, o := range s.objectives {
		objs = append(objs, o.Text)
	}
	rows = append(rows,
		export.Row{Metric: sec, Name: "SLO", Value: export.Str(strings.Join(objs, ", "))},
		export.Row{Metric: sec, Name: "MaxThroughput(ops/sec)", Value: export.Float(a.Rate)})
	for i := len(a.Steps) - 1; i >= 0; i-- {
		if st := a.Steps[i]; st.Verdict == capacity.Pass && st.Asked == a.Rate {
			rows = append(rows, export.Row{Metric: sec, Name: "AchievedThroughput(ops/sec)", Value: export.Float(st.Achieved)})
			break
		}
	}
	if a.Above > 0 {
		rows = append(rows, export.Row{Metric: sec, Name: "FirstFailing(ops/sec)", Value: export.Float(a.Above)})
	}
	_, limit := limitOf(a, cs)
	return append(rows, export.Row{Metric: sec, Name: "Limit", Value: export.Str(limit)})
}

// capacityReport is the JSON report of a search: its steps with their
// objectives and histograms, and the answer.
func capacityReport(b *bench, cs *capacitySettings, a *capacity.Answer, start, end time.Time, rows []export.Row) ([]byte, error) {
	rep := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Tool: runreport.Tool,
		Binding: b.o.Binding, Phase: "capacity", MeasurementType: string(b.mcfg.Type), Percentiles: b.mcfg.Percentiles,
		Settings: jsonreport.MaskSettings(b.o.Props.Map()), Clients: 1, Start: start.UTC(), End: end.UTC(),
		RunTimeMs: end.Sub(start).Milliseconds(), Seed: b.seed, Intervals: []jsonreport.Interval{}, Sections: rows}
	c := &jsonreport.Capacity{MaxOpsSec: a.Rate, FirstFailingOpsSec: a.Above, Resolution: cs.search.Resolution}
	for i := range a.Steps {
		s := &a.Steps[i]
		d := s.Detail.(*stepDetail)
		ms, err := runreport.Measurements(d.res.Total, b.mcfg)
		if err != nil {
			return nil, err
		}
		c.Steps = append(c.Steps, jsonreport.CapacityStep{AskedOpsSec: s.Asked, AchievedOpsSec: s.Achieved, Threads: s.Threads,
			StartMs: d.res.Start.Sub(start).Milliseconds(), MeasuredMs: d.res.End.Sub(d.res.Start).Milliseconds(), Operations: d.res.Ops,
			Verdict: s.Verdict.String(), Why: s.Why, Trusted: d.trusted, SLO: d.j.JSON(), Measurements: ms})
		if s.Verdict == capacity.Pass && s.Asked == a.Rate {
			c.AchievedOpsSec = s.Achieved
		}
	}
	c.Limit, c.LimitWhy = limitOf(a, cs)
	rep.Capacity = c
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// limitOf says what ended the search, as a word and a sentence.
func limitOf(a *capacity.Answer, cs *capacitySettings) (string, string) {
	switch {
	case a.Limited:
		return "client", "the client: " + limitingWhy(a) + "; the system's capacity is at least this"
	case a.Exhausted:
		return "steps", fmt.Sprintf("capacity.steps (%d) ran out before the resolution", cs.search.MaxSteps)
	case a.Rate == 0:
		return "none", "no rate passed"
	case a.Above == 0:
		return "max", fmt.Sprintf("capacity.max (%g ops/s) passed", cs.search.Max)
	}
	return "system", "the system: the bracket is within capacity.resolution"
}
