package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/clock"
	"github.com/goycsb/ycsb/internal/hostcpu"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
)

// Verdict is one finding about whether the client kept up with its work
// (issue 27): KeptUp alone, or the limits it ran into.
type Verdict uint8

const (
	KeptUp Verdict = iota
	// ThreadBound: with a target, the threads could not offer it at the
	// latency measured, or the client fell behind its schedule.
	ThreadBound
	// CPUBound: the client used, or waited for, nearly all of its cores.
	CPUBound
	// Steal: the hypervisor gave a share of the machine's CPU to other
	// guests.
	Steal
	// GCPauses: the client's garbage collector stopped its workers for a
	// share of the window.
	GCPauses
	// CPUWait: the client's threads waited for a CPU for ClientShare of
	// the operations' latency or more, though it was not CPU-bound.
	CPUWait
	// LateWakeups: the paced workers woke late for their operations'
	// due times for ClientShare of the intended latency or more.
	LateWakeups
)

func (v Verdict) String() string {
	return jsonreport.ClientVerdicts[v]
}

// The thresholds of the verdicts.
const (
	// CPUBusy is the share of its cores a client may use, or wait for,
	// before it is CPU-bound: beyond it a worker whose answer has arrived
	// often finds no idle core and waits for one, so its latency holds
	// the client's own queue (internal/procs adds a processor at 85% for
	// the same reason).
	CPUBusy = 0.90
	// LagShare is how far behind its schedule, as a share of the
	// measured window, a client may end before it counts as having fallen
	// behind: a client that ends 5% of the window late offered about 5%
	// less than its target, beyond the noise of one slow operation at the
	// end; MinLag keeps a short window's pauses out.
	LagShare = 0.05
	MinLag   = 10 * time.Millisecond
	// StealPct is the steal time above which the figures may be low: a
	// machine with no other busy guests reports well under 1%.
	StealPct = 5.0
	// MinWindow is the shortest window judged: /proc/stat counts in ticks
	// of 10 ms, so a second of two cores gives steal to 0.5%, and over
	// less the workers' start and join are much of what is measured.
	MinWindow = time.Second
	// GCPausePct is the share of the window the runtime may stop the
	// world: each pause stops every worker, so at 1% the slowest
	// percent of operations may be measuring the client.
	GCPausePct = 1.0
	// ClientShare is the share of the operations' latency that the
	// client's own waits (for a CPU, or waking late for a due time) may
	// take before the verdict names them: intended latency holds them,
	// the database never saw them, and beyond a tenth they move the
	// percentiles that objectives judge.
	ClientShare = 0.10
)

// Terms are the options a front end's user changes to act on a verdict.
type Terms struct {
	Threads string // "-threads"
	Clients string // how to run more client machines
}

// YCSBTerms are the YCSB front end's options.
var YCSBTerms = Terms{Threads: "-threads", Clients: "ycsb kube / client.count"}

// ClientFigures are what the verdict reads: the measured window's figures.
type ClientFigures struct {
	// Embedded: the database engine ran in the client's process
	// (db.Embedded), so CPU includes the engine's work, and more client
	// processes would each have a store of their own.
	Embedded bool

	Window  time.Duration
	Threads int
	Target  int64 // ops/sec; 0 unthrottled
	Ops     int64
	// MeanLatencyUs is the mean service latency over every database
	// operation of the window, failures included (MeanLatencyKnown).
	MeanLatencyUs    float64
	MeanLatencyKnown bool
	// FinalLag is how far behind its schedule the client ended (with a
	// target).
	FinalLag time.Duration
	CPU      hostcpu.Usage
	// GCPausePct is the share of the window the runtime stopped the world.
	GCPausePct float64
	// With a target: the mean lag behind the schedule over the measured
	// operations (µs), of it the client's part (run.Schedule's
	// ClientLagUs: late wake-ups and the catching up after them), and how
	// late the paced workers woke for theirs.
	MeanLagUs   float64
	ClientLagUs float64
	WakeLate    WakeLateness
}

// MaxOffered is the most Threads can offer at MeanLatencyUs, each waiting
// for its answer before the next operation: an upper bound, as each
// worker's time between operations is left out. ok is false without a
// latency.
func (f *ClientFigures) MaxOffered() (opsPerSec float64, ok bool) {
	if !f.MeanLatencyKnown || f.MeanLatencyUs <= 0 {
		return 0, false
	}
	return float64(f.Threads) * 1e6 / f.MeanLatencyUs, true
}

// Achieved is the operations per second of the window.
func (f *ClientFigures) Achieved() float64 {
	if f.Window <= 0 {
		return 0
	}
	return float64(f.Ops) / f.Window.Seconds()
}

// Lagging says the client ended its window behind its schedule by more
// than LagShare of it (and MinLag).
func (f *ClientFigures) Lagging() bool {
	return f.Target > 0 && f.FinalLag >= MinLag && float64(f.FinalLag) >= LagShare*float64(f.Window)
}

// ClientCheck is the figures and the verdicts with their advice.
type ClientCheck struct {
	ClientFigures
	Verdicts []Verdict // KeptUp alone, or the findings in Verdict's order
	Advice   []string  // a sentence per finding
}

// KeptUp says the client ran into no limit.
func (c *ClientCheck) KeptUp() bool { return len(c.Verdicts) == 1 && c.Verdicts[0] == KeptUp }

// ClientFiguresOf reads the figures of res; ok is false for a window that
// measured nothing or is shorter than MinWindow.
func ClientFiguresOf(res *run.Result) (ClientFigures, bool) {
	f := ClientFigures{Embedded: res.Client.Embedded, Window: res.End.Sub(res.Start), Threads: res.Client.Workers,
		Target: res.Client.Target, Ops: res.Ops, CPU: res.Client.CPU}
	if f.Window < MinWindow || res.Ops == 0 || res.WarmupCut {
		return f, false
	}
	f.MeanLatencyUs, f.MeanLatencyKnown = MeanServiceUs(res.Total)
	if res.Schedule != nil {
		f.FinalLag = time.Duration(res.Schedule.FinalLagUs) * time.Microsecond
		f.MeanLagUs = res.Schedule.MeanLagUs
		f.ClientLagUs = res.Schedule.ClientLagUs
		f.WakeLate = wakeLatenessOf(res.Schedule)
	}
	// Over the time between the two reads of the GC figures, which the
	// CPU samples follow at once: the pauses fall within it.
	between := f.Window
	if f.CPU.Wall > 0 {
		between = f.CPU.Wall
	}
	pause := res.GC.End.PauseTotalNs - res.GC.Start.PauseTotalNs
	f.GCPausePct = min(float64(pause)/float64(between)*100, 100)
	return f, true
}

// MeanServiceUs is the mean service latency (µs) of every operation of
// total that is a database operation of its own (not slo.LeftOut),
// successes and failures alike.
func MeanServiceUs(total *measurement.Snapshot) (float64, bool) {
	var n int64
	var sum float64
	own := total.OwnRMW()
	for i := range total.Measurements {
		m := &total.Measurements[i]
		if m.Intended || slo.LeftOut(m.Operation, own) {
			continue
		}
		switch {
		case m.Hist != nil && m.Hist.TotalCount() > 0:
			n += m.Hist.TotalCount()
			sum += m.Hist.Mean() * float64(m.Hist.TotalCount())
		case m.Hist == nil && m.Count > 0:
			n += m.Count
			sum += float64(m.Sum)
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// CheckClient judges the client of res; nil for a window that measured
// nothing or is shorter than MinWindow.
func CheckClient(res *run.Result, t Terms) *ClientCheck {
	f, ok := ClientFiguresOf(res)
	if !ok {
		return nil
	}
	c := JudgeClient(f, t)
	return &c
}

// CPUBoundAdvice is the client's advice when it ran out of CPU in res
// (CPUBound), "" otherwise.
func CPUBoundAdvice(res *run.Result, t Terms) string {
	c := CheckClient(res, t)
	if c == nil {
		return ""
	}
	for i, v := range c.Verdicts {
		if v == CPUBound {
			return c.Advice[i]
		}
	}
	return ""
}

// JudgeClient gives the verdicts of f, with advice in the terms of t.
func JudgeClient(f ClientFigures, t Terms) ClientCheck {
	c := ClientCheck{ClientFigures: f}
	add := func(v Verdict, advice string) {
		c.Verdicts = append(c.Verdicts, v)
		c.Advice = append(c.Advice, advice)
	}
	if f.Target > 0 {
		target := float64(f.Target)
		if offered, ok := f.MaxOffered(); ok && offered < target {
			need := int(math.Ceil(target * f.MeanLatencyUs / 1e6))
			add(ThreadBound, fmt.Sprintf("at the measured latency of %s, %d threads offer at most %s ops/s, below the target %d: raise %s to at least %d (or lower the target)",
				latency(f.MeanLatencyUs), f.Threads, roundRate(offered), f.Target, t.Threads, need))
		} else if f.Lagging() {
			need := f.Threads + 1
			if a := f.Achieved(); a > 0 {
				need = max(need, int(math.Ceil(float64(f.Threads)*target/a)))
			}
			add(ThreadBound, fmt.Sprintf("the client ended %s behind its schedule of %d ops/s (it did %s ops/s): raise %s to at least %d (or lower the target)",
				f.FinalLag.Round(time.Millisecond), f.Target, roundRate(f.Achieved()), t.Threads, need))
		}
	}
	if u := f.CPU; u.CoresKnown && u.CPUKnown {
		wait := 0.0
		if u.WaitKnown {
			wait = u.Wait
		}
		if u.CPU+wait >= CPUBusy*u.Cores {
			add(CPUBound, cpuBoundAdvice(f, wait, t))
		}
	}
	if u := f.CPU; u.StealKnown && u.StealPct >= StealPct {
		add(Steal, fmt.Sprintf("the machine lost %.1f%% of its CPU to other guests (steal): figures may be low", u.StealPct))
	}
	if f.GCPausePct >= GCPausePct {
		add(GCPauses, fmt.Sprintf("the client's garbage collector stopped its workers for %.1f%% of the window: that much of the latency may be the client's; a larger GOGC makes collections rarer", f.GCPausePct))
	}
	if perOp, share, ok := f.CPUWaitShare(); ok && share >= ClientShare && !slices.Contains(c.Verdicts, CPUBound) {
		add(CPUWait, fmt.Sprintf("the client's threads waited for a CPU %.2f cores' worth, %s per operation, about %.0f%% of the operations' latency: other processes on the machine, or more threads than cores; that wait is in the latency measured, not in the database",
			f.CPU.Wait, latency(perOp), share*100))
	}
	if share, ok := f.WakeShare(); ok && share >= ClientShare {
		w := f.WakeLate
		behind := ""
		if f.ClientLagUs > 0 {
			behind = fmt.Sprintf(" and fell %s behind per operation catching up after them", latency(f.ClientLagUs))
		}
		add(LateWakeups, fmt.Sprintf("the paced workers woke %s late on average (p99 %s, max %s) for the operations they waited for%s: about %.0f%% of the intended latency is the client's own timing, not the database's (the [SCHEDULE] wake-up rows)%s",
			latency(w.MeanUs), latency(w.P99Us), latency(w.MaxUs), behind, share*100, wakeCause(f)))
	}
	if len(c.Verdicts) == 0 {
		c.Verdicts = []Verdict{KeptUp}
	}
	return c
}

// cpuBoundAdvice is CPUBound's sentence for f, whose threads waited for a
// CPU wait cores' worth. An embedded engine's work is in the process's
// CPU, and more client machines would each benchmark a store of their
// own: the advice is fewer threads or a larger machine.
func cpuBoundAdvice(f ClientFigures, wait float64, t Terms) string {
	u := f.CPU
	who := "the client"
	if f.Embedded {
		who = "the process (client and embedded engine)"
	}
	used := fmt.Sprintf("%s used %.2f of %s cores", who, u.CPU, cores(u.Cores))
	if u.CPU < CPUBusy*u.Cores {
		used += fmt.Sprintf(" and its threads waited for a CPU %.2f cores' worth (other processes on the machine, or more threads than cores)", wait)
	}
	if f.Embedded {
		return used + ": the engine runs in the client's process, so this CPU is the database's as much as the client's, and the engine on this machine may be the limit; more client machines cannot share its store: use fewer threads (" + t.Threads + ") or a machine with more cores"
	}
	return used + ": the client, not the database, may be the limit; use more client machines (" + t.Clients + ") or fewer threads of work per client"
}

// intendedUs is an estimate of the mean intended latency of an operation
// (µs): its lateness waking, its lag behind the schedule and its service
// latency. The service latency is per database call, so a transaction of
// several calls makes it low and the client's share high: the verdict
// then errs towards naming the client.
func (f *ClientFigures) intendedUs() (float64, bool) {
	if !f.MeanLatencyKnown {
		return 0, false
	}
	us := f.MeanLatencyUs + f.MeanLagUs + f.WakeLate.PerOpUs()
	return us, us > 0
}

// WakeShare is the client's own timing as a share of the operations'
// intended latency: the paced workers' lateness waking, and the lag behind
// the schedule that lateness (or a wait between operations) left them in,
// which they caught up on back to back (ClientLagUs): a worker that woke
// 100 ms late is 100 ms behind for its next operations whatever the
// database did. ok is false without a target, wake-ups or a latency.
func (f *ClientFigures) WakeShare() (share float64, ok bool) {
	w := f.WakeLate
	intended, known := f.intendedUs()
	if f.Target <= 0 || !w.Known || w.WakeUps == 0 || !known {
		return 0, false
	}
	return min(f.ownTimingUs(slo.Mean, 0)/intended, 1), true
}

// CPUWaitShare is how long the client's threads waited for a CPU per
// operation (µs), and that as a share of the operations' latency
// (intended latency with a target, service latency without); ok is
// false without the figures.
func (f *ClientFigures) CPUWaitShare() (perOpUs, share float64, ok bool) {
	u := f.CPU
	intended, known := f.intendedUs()
	if !u.WaitKnown || f.Ops <= 0 || f.Window <= 0 || !known {
		return 0, 0, false
	}
	perOpUs = u.Wait * float64(f.Window.Microseconds()) / float64(f.Ops)
	return perOpUs, min(perOpUs/(intended+perOpUs), 1), true
}

// wakeCause is what the lateness of f may come from, as a clause.
func wakeCause(f ClientFigures) string {
	switch {
	case f.CPU.WaitKnown && f.CPU.Wait >= 0.05:
		return fmt.Sprintf("; the client's threads waited for a CPU %.2f cores' worth (other processes on the machine, or more threads than cores)", f.CPU.Wait)
	case !clock.Precise():
		return "; this platform's timers are coarse (see docs/results.md)"
	}
	return "; at a latency this low the machine's wake-up time is much of what intended latency measures: service-time latency (measurement.interval=both) is the database's alone"
}

// latency is a mean latency for people: µs below a millisecond, ms above.
func latency(us float64) string {
	if us < 1000 {
		return fmt.Sprintf("%.0f µs", us)
	}
	return fmt.Sprintf("%.2f ms", us/1000)
}

// roundRate is a rate to a tenth.
func roundRate(r float64) string { return fmt.Sprintf("%.1f", r) }

// cores is a core count: whole, or to a hundredth for a quota.
func cores(n float64) string {
	if n == math.Trunc(n) {
		return fmt.Sprintf("%.0f", n)
	}
	return fmt.Sprintf("%.2f", n)
}

// round is x to d decimals, for rows that people read.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// EmbeddedRow is the value of the CLIENT section's Database row, there
// for an embedded engine only.
const EmbeddedRow = "embedded in this process (its work is in the CPU figures)"

// ClientRows are the text report's CLIENT section: the figures, those
// unknown left out, then a Verdict row per verdict.
func ClientRows(c *ClientCheck) []export.Row {
	if c == nil {
		return nil
	}
	row := func(name string, v export.Value) export.Row {
		return export.Row{Metric: "CLIENT", Name: name, Value: v}
	}
	var rows []export.Row
	if c.Embedded {
		// First: it says what the CPU rows below measure.
		rows = append(rows, row("Database", export.Str(EmbeddedRow)))
	}
	rows = append(rows, row("Threads", export.Int(int64(c.Threads))))
	u := c.CPU
	if u.CoresKnown {
		rows = append(rows, row("Cores", export.Float(round(u.Cores, 2))))
	}
	if u.CPUKnown {
		rows = append(rows, row("CPU(cores)", export.Float(round(u.CPU, 2))))
		if u.CoresKnown {
			rows = append(rows, row("CPU(%)", export.Float(round(u.CPU/u.Cores*100, 1))))
		}
	}
	if u.WaitKnown {
		rows = append(rows, row("CPUWait(cores)", export.Float(round(u.Wait, 2))))
	}
	if u.StealKnown {
		rows = append(rows, row("Steal(%)", export.Float(round(u.StealPct, 1))))
	}
	rows = append(rows, row("GCPause(%)", export.Float(round(c.GCPausePct, 1))))
	if c.Target > 0 {
		if c.MeanLatencyKnown {
			rows = append(rows, row("MeanLatency(us)", export.Float(round(c.MeanLatencyUs, 1))))
		}
		if offered, ok := c.MaxOffered(); ok {
			rows = append(rows, row("MaxOffered(ops/sec)", export.Float(round(offered, 1))))
		}
	}
	if _, share, ok := c.CPUWaitShare(); ok {
		rows = append(rows, row("CPUWaitShare(%)", export.Float(round(share*100, 1))))
	}
	if share, ok := c.WakeShare(); ok {
		rows = append(rows, row("WakeLateShare(%)", export.Float(round(share*100, 1))))
	}
	for _, v := range c.Verdicts {
		rows = append(rows, row("Verdict", export.Str(v.String())))
	}
	return rows
}

// Note is the one line for stderr when the client did not keep up; "" when
// it did.
func (c *ClientCheck) Note() string {
	if c == nil || c.KeptUp() {
		return ""
	}
	who := "the client"
	if c.Embedded {
		who = "the client and its embedded engine"
	}
	what := " did not keep up ("
	if !slices.ContainsFunc(c.Verdicts, func(v Verdict) bool { return v != CPUWait && v != LateWakeups }) {
		// It kept up; its own waits are in the latency measured.
		what = "'s own waits are in the latency measured ("
	}
	return "note: " + who + what + verdictList(c.Verdicts) + "): " + strings.Join(c.Advice, "; ")
}

func verdictList(vs []Verdict) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}

// WriteClientNote writes the note of res's client to w, when it did not
// keep up.
func WriteClientNote(w io.Writer, res *run.Result, t Terms) {
	if n := CheckClient(res, t).Note(); n != "" {
		fmt.Fprintln(w, n)
	}
}

// ClientVerdictOf is the JSON report's client_verdict of res (a run's, a
// capacity step's); nil for a window CheckClient does not judge.
func ClientVerdictOf(res *run.Result, t Terms) *jsonreport.ClientVerdict {
	return clientVerdict(CheckClient(res, t))
}

// clientVerdict is the JSON report's client_verdict; nil without one.
func clientVerdict(c *ClientCheck) *jsonreport.ClientVerdict {
	if c == nil {
		return nil
	}
	known := func(v float64, ok bool) *float64 {
		if !ok {
			return nil
		}
		return &v
	}
	u := c.CPU
	cv := &jsonreport.ClientVerdict{
		Embedded:      c.Embedded,
		Threads:       c.Threads,
		TargetOpsSec:  c.Target,
		Cores:         known(u.Cores, u.CoresKnown),
		CPUCores:      known(u.CPU, u.CPUKnown),
		CPUWaitCores:  known(u.Wait, u.WaitKnown),
		StealPct:      known(u.StealPct, u.StealKnown),
		GCPausePct:    c.GCPausePct,
		MeanLatencyUs: known(c.MeanLatencyUs, c.MeanLatencyKnown),
		Advice:        c.Advice,
	}
	if c.Target > 0 {
		cv.MaxOfferedOpsSec = known(c.MaxOffered())
		lag := c.FinalLag.Microseconds()
		cv.FinalLagUs = &lag
	}
	if _, share, ok := c.CPUWaitShare(); ok {
		cv.CPUWaitShare = &share
	}
	cv.WakeLateShare = known(c.WakeShare())
	for _, v := range c.Verdicts {
		cv.Verdicts = append(cv.Verdicts, v.String())
	}
	return cv
}
