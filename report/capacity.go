package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/run/capacity"
)

// CapacitySection is the name of the report's rows.
const CapacitySection = "CAPACITY"

// CapacityRows are the [CAPACITY] rows of a search, of one client's share of a
// fleet's ladder, or of the fleet's merged ladder: a row per step, the
// objectives, then the answer (none in a client's share) and whether the
// steps that decided it could trust their figures.
func CapacityRows(c *jsonreport.Capacity, objectives []string) []export.Row {
	var rows []export.Row
	for i := range c.Steps {
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "Step " + strconv.Itoa(i+1), Value: export.Str(CapacityStepLine(&c.Steps[i]))})
	}
	rows = append(rows, export.Row{Metric: CapacitySection, Name: "SLO", Value: export.Str(strings.Join(objectives, ", "))})
	if c.Limit != capacity.LimitFleet {
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "MaxThroughput(ops/sec)", Value: export.Float(c.MaxOpsSec)})
		if c.MaxOpsSec > 0 {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "AchievedThroughput(ops/sec)", Value: export.Float(c.AchievedOpsSec)})
		}
		if c.FirstFailingOpsSec > 0 {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "FirstFailing(ops/sec)", Value: export.Float(c.FirstFailingOpsSec)})
		}
	}
	rows = append(rows, export.Row{Metric: CapacitySection, Name: "Limit", Value: export.Str(c.LimitWhy)})
	if c.Limit != capacity.LimitFleet {
		// Whether the steps that decided the answer could trust their
		// figures, and why not.
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "Trusted", Value: export.Str(strconv.FormatBool(c.Untrusted == ""))})
		if c.Untrusted != "" {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "Untrusted", Value: export.Str(c.Untrusted)})
		}
	}
	return rows
}

// CapacityStepLine is a step as one line: rates, threads, each objective's
// figure (and verdict, when judged), the step's verdict and why.
func CapacityStepLine(s *jsonreport.CapacityStep) string {
	var b strings.Builder
	if s.ShareOpsSec > 0 {
		fmt.Fprintf(&b, "%.0f ops/s asked of the fleet, %.0f of this client, %.1f achieved, %d threads", s.AskedOpsSec, s.ShareOpsSec, s.AchievedOpsSec, s.Threads)
	} else {
		fmt.Fprintf(&b, "%.0f ops/s asked, %.1f achieved, %d threads", s.AskedOpsSec, s.AchievedOpsSec, s.Threads)
	}
	if s.SLO != nil {
		for _, o := range s.SLO.Objectives {
			b.WriteString(", " + o.Objective)
			if o.Verdict != "" {
				b.WriteString(" " + o.Verdict)
			}
			switch {
			case o.Measured == nil && o.Verdict == "":
				b.WriteString(" no data")
				if o.Why != "" {
					b.WriteString(": " + o.Why)
				}
			case o.Measured == nil:
				if o.Why != "" {
					b.WriteString(" (" + o.Why + ")")
				}
			case o.Verdict == "":
				b.WriteString(" " + measuredText(o))
			default:
				b.WriteString(" (" + measuredText(o) + ")")
			}
		}
	}
	if !s.Trusted {
		b.WriteString(", too few operations to trust the percentiles (capacity.maxsteptime)")
	}
	if s.Untrusted != "" {
		b.WriteString(", not to be trusted")
	}
	if s.Confirms > 0 {
		fmt.Fprintf(&b, ", confirming step %d", s.Confirms)
	}
	fmt.Fprintf(&b, ": %s", s.Verdict)
	if s.Why != "" {
		b.WriteString(" — " + s.Why)
	}
	if s.Untrusted != "" {
		b.WriteString("; " + s.Untrusted)
	}
	return b.String()
}

func measuredText(o slo.SLOObjective) string {
	if o.Unit == "fraction" {
		return strconv.FormatFloat(*o.Measured*100, 'g', 3, 64) + "%"
	}
	return slo.FormatLatency(*o.Measured)
}

// CapacityStep is what a front end's capacity step is judged against
// (JudgeCapacityStep).
type CapacityStep struct {
	Target  int64 // the rate asked of this client, ops/s
	Threads int   // the step's
	// ThreadCap names the threads' cap as the front end's user sets it
	// ("capacity.maxthreads=256", "threads<=1000").
	ThreadCap string
	Unit      string  // "ops/s", "op/s"
	Shortfall float64 // capacity.Ask.Shortfall
	Terms     Terms
	// Achieved is the step's rate over its measured time (StepAchieved).
	Achieved float64
	// MaxThreads is the threads' cap (ThreadCap as a number): a step
	// whose threads could not offer its rate is run again below it
	// (CapacityStepOf).
	MaxThreads int
}

// MaxStepReruns bounds the reruns of a step whose threads were too few.
const MaxStepReruns = 3

// CapacityStepOf is the step s that ran res, the reruns'th time, whose
// objectives j judged: "interrupted" when the run was (Ctrl-C), else
// JudgeCapacityStep's verdict. When the step's threads could not offer
// its rate at the mean service latency measured (Little's law) and may
// grow (below s.MaxThreads, fewer than MaxStepReruns reruns), the step is
// not judged: rerun is the threads to run it again with (0 otherwise),
// and meanUs the latency for the front end's note.
func CapacityStepOf(res *run.Result, j *slo.Judgement, s CapacityStep, interrupted bool, reruns int) (step capacity.Step, rerun int, meanUs float64) {
	step = capacity.Step{Asked: float64(s.Target), Threads: s.Threads, Achieved: s.Achieved}
	meanUs, _ = MeanServiceUs(res.Total)
	switch {
	case interrupted:
		step.Verdict, step.Why = capacity.Fail, "interrupted"
	case capacity.Offered(s.Threads, meanUs) < float64(s.Target) && s.Threads < s.MaxThreads && reruns < MaxStepReruns:
		return step, capacity.ThreadsFor(float64(s.Target), meanUs, s.Threads+1, s.MaxThreads), meanUs
	default:
		v := JudgeCapacityStep(res, j, s)
		step.Verdict, step.Why, step.Hopeless, step.Untrusted = v.Verdict, v.Why, v.Hopeless, v.Untrusted
	}
	return step, 0, meanUs
}

// StepAchieved is the rate a step that ran res achieved over its measured
// time, planned to be planned: the operations over the window, which
// ends once the workers have joined, at most the planned time (the
// workers' wind-down after the stop is no part of the schedule).
func StepAchieved(res *run.Result, planned time.Duration) float64 {
	d := res.End.Sub(res.Start)
	if planned > 0 && d > planned {
		d = planned
	}
	if d <= 0 {
		return 0
	}
	return float64(res.Ops) / d.Seconds()
}

// CapacityStepVerdict is a step's verdict, why, and whether what it
// measured is to be trusted.
type CapacityStepVerdict struct {
	Verdict capacity.Verdict
	Why     string
	// Untrusted says why the step's failure may be the machine's, not the
	// system's: the client's threads waited for a CPU, woke late, fell
	// behind, or the machine lost CPU to steal, without explaining every
	// objective it missed. "" otherwise.
	Untrusted string
	// Hopeless is capacity.Step.Hopeless.
	Hopeless string
}

// JudgeCapacityStep judges a capacity step that ran res, whose objectives
// j judged, one rule for every front end:
//   - threads that could not offer the rate at the latency measured
//     (Little's law): CLIENT-LIMITED;
//   - an achieved rate short of the asked one by more than the shortfall:
//     the step did not keep its schedule, CLIENT-LIMITED, whatever its
//     objectives say (operations that never ended record nothing);
//   - objectives met: PASS;
//   - an embedded engine's process that used its cores itself: FAIL, the
//     engine on this machine;
//   - every failure explained by the client (ClientExplains: CPU-bound,
//     GC pauses, its own lateness waking): CLIENT-LIMITED;
//   - a failure while the client waited for a CPU, woke late, fell behind
//     its schedule or lost CPU to steal: FAIL, Untrusted (the machine's own
//     load is in what it measured), never the system's trusted failure;
//   - otherwise FAIL.
//
// A step that did not pass is Hopeless when the client's own lateness
// waking, at an objective's statistic, reaches that objective's limit.
func JudgeCapacityStep(res *run.Result, j *slo.Judgement, s CapacityStep) CapacityStepVerdict {
	mean, _ := MeanServiceUs(res.Total)
	f, known := ClientFiguresOf(res)
	return judgeCapacityStep(stepFigures{meanUs: mean, achieved: s.Achieved, client: f, known: known}, j, s)
}

// stepFigures are what a step's judgement reads of its run: the mean
// service latency (µs; 0 unknown), the rate achieved, and the client's
// figures (known false for a window too short to judge).
type stepFigures struct {
	meanUs, achieved float64
	client           ClientFigures
	known            bool
}

func judgeCapacityStep(sf stepFigures, j *slo.Judgement, s CapacityStep) CapacityStepVerdict {
	mean, achieved, f, known := sf.meanUs, sf.achieved, sf.client, sf.known
	var c ClientCheck
	if known {
		c = JudgeClient(f, s.Terms)
	}
	v := CapacityStepVerdict{Hopeless: hopeless(f, known, j)}
	switch {
	case capacity.Offered(s.Threads, mean) < float64(s.Target):
		v.Verdict = capacity.ClientLimited
		v.Why = capacity.OfferNote(s.Threads, mean, s.Unit) + ": the client's threads limit the search (" + s.ThreadCap + ")"
	case capacity.Short(float64(s.Target), achieved, s.Shortfall):
		v.Verdict = capacity.ClientLimited
		v.Why = capacity.ShortNote(float64(s.Target), achieved, s.Unit)
		if own := c.own(); own != "" {
			v.Why += ": " + own
		}
	case j.Passed():
		v.Verdict, v.Hopeless = capacity.Pass, ""
	case known && f.Embedded && f.CPU.CPUKnown && f.CPU.CoresKnown && f.CPU.CPU >= CPUBusy*f.CPU.Cores:
		// An embedded engine's CPU is the database's: the engine on this
		// machine failed the step.
		v.Verdict = capacity.Fail
		v.Why = capacity.FailedObjectives(j) + ", out of CPU: " + c.adviceOf(CPUBound)
	case known && ClientExplains(f, j, s.Terms) != "":
		// A client out of CPU, or late for its own schedule, measured
		// itself too: the step says nothing of the system.
		v.Verdict = capacity.ClientLimited
		v.Why = capacity.FailedObjectives(j) + ", but " + ClientExplains(f, j, s.Terms)
	case known && c.adviceOf(ThreadBound) != "":
		// The threads fell behind the schedule: more of them could have
		// kept it, so the step measured the client's threads.
		v.Verdict = capacity.ClientLimited
		v.Why = capacity.FailedObjectives(j) + ", but the client's threads fell behind its schedule (THREAD-BOUND): " + c.adviceOf(ThreadBound) + " (" + s.ThreadCap + ")"
	default:
		v.Verdict = capacity.Fail
		v.Why = capacity.FailedObjectives(j)
		if own := c.own(); own != "" {
			v.Untrusted = "the machine's own load is in what it measured: " + own
		}
	}
	return v
}

// own is the client's verdicts that say the machine, not the system, may
// have slowed a step, with their advice: "" when there are none.
func (c *ClientCheck) own() string {
	var out []string
	for i, v := range c.Verdicts {
		switch v {
		case ThreadBound, CPUBound, Steal, GCPauses, CPUWait, LateWakeups:
			out = append(out, v.String()+", "+c.Advice[i])
		}
	}
	return strings.Join(out, "; ")
}

// adviceOf is the advice of verdict v, "" when c does not have it.
func (c *ClientCheck) adviceOf(v Verdict) string {
	for i, w := range c.Verdicts {
		if w == v {
			return c.Advice[i]
		}
	}
	return ""
}

// hopeless says why no rate can meet j's failed objectives on this
// machine: the client's own lateness waking, at an objective's statistic,
// reaches its limit; "" when it does not, or j failed none of them.
func hopeless(f ClientFigures, known bool, j *slo.Judgement) string {
	if !known || !f.WakeLate.Known || f.WakeLate.WakeUps == 0 {
		return ""
	}
	for _, r := range j.Results {
		latency := r.Verdict == slo.Fail && (r.Stat == slo.Percentile || r.Stat == slo.Mean || r.Stat == slo.Max) &&
			(r.Cmp == slo.AtMost || r.Cmp == slo.Below)
		if own := f.WakeLate.at(r.Stat, r.Percentile); latency && own >= r.Limit {
			return fmt.Sprintf("its own lateness waking for its operations' due times (%s %s) alone reaches %s's limit",
				wakeStat(r.Stat, r.Percentile), slo.FormatLatency(own), r.Text)
		}
	}
	return ""
}

// wakeStat names the lateness WakeLateness.at sets against stat at
// percentile p.
func wakeStat(stat slo.Stat, p float64) string {
	if stat == slo.Max || (stat == slo.Percentile && p >= 99) {
		return "p99"
	}
	return "mean"
}
