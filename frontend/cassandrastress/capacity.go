package stress

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/goycsb/ycsb/frontend/cassandrastress/settings"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/run/capacity"
)

// capacityWarmup is each step's warm-up, not measured (as the YCSB mode's
// capacity.warmup); capacityMaxStep bounds a step that its percentiles
// would make longer; capacityMax and capacitySteps bound the search.
const (
	capacityWarmup  = 2 * time.Second
	capacityMaxStep = 120 * time.Second
	capacityMax     = 1e7
	capacitySteps   = 30
)

// capStep is the step a capacity search runs: the plan takes its rate,
// warm-up and time limit (plan), the run its line (stopMode).
type capStep struct {
	n    int // 1-based
	rate int64
	dur  time.Duration
}

// capStepper runs the steps of -rate capacity; run runs one at threads.
type capStepper struct {
	r       *stressRun
	run     func(ctx context.Context, threads int) error
	threads int
	meanUs  float64
}

// capacitySearch is -rate capacity (ours): the search of package capacity
// over runs at a fixed= rate, each judged against -slo on intended
// latency; then its summary. run runs one step at threads workers.
func (r *stressRun) capacitySearch(ctx context.Context, run func(ctx context.Context, threads int) error) error {
	c := r.s.Rate.Capacity
	cfg := capacity.Config{Start: c.Start, Max: math.Max(capacityMax, c.Start), Growth: c.Growth, Resolution: c.Resolution, MaxSteps: capacitySteps,
		Cooldown: c.Cooldown}
	st := &capStepper{r: r, run: run, threads: r.s.Rate.MinThreads}
	ans, err := capacity.Search(ctx, cfg, st)
	r.step = nil
	r.judgement = nil // each step's; the search's answer is below
	if ans != nil {
		r.writeCapacity(ans, cfg)
	}
	if err != nil || ctx.Err() != nil {
		return err
	}
	if ans.Rate == 0 && ans.Unjudged {
		return &slo.Unmet{Msg: "-rate capacity: no rate was judged: the objectives could not be judged at " + jf(ans.Above, 0, true) + " op/s, and a lower rate runs fewer operations"}
	}
	if ans.Rate == 0 && ans.Hopeless != "" {
		return &slo.Unmet{Msg: fmt.Sprintf("-rate capacity: no rate was judged: the client cannot hold -slo on this machine (%s), at %.0f op/s", ans.Hopeless, ans.Above)}
	}
	if ans.Rate == 0 {
		return &slo.Unmet{Msg: fmt.Sprintf("-rate capacity: no rate met -slo, down to %.0f op/s", ans.Above)}
	}
	return nil
}

func (c *capStepper) Step(ctx context.Context, ask capacity.Ask) (capacity.Step, error) {
	r := c.r
	target := int64(math.Round(ask.Rate))
	if ask.Confirms > 0 {
		r.println(fmt.Sprintf("Capacity: %d op/s did not pass: again, to confirm it", target))
	}
	dur, trusted := c.duration(float64(target))
	c.threads = capacity.ThreadsFor(float64(target), c.meanUs, c.threads, r.s.Rate.MaxThreads)
	for try := 0; ; try++ {
		r.step = &capStep{n: ask.N, rate: target, dur: dur}
		r.println("")
		if err := c.run(ctx, c.threads); err != nil {
			return capacity.Step{}, err
		}
		res, j := r.lastRes, r.judgement
		// The same rule as ycsb capacity's steps.
		step, rerun, mean := report.CapacityStepOf(res, j, report.CapacityStep{Target: target, Threads: c.threads,
			ThreadCap: fmt.Sprintf("threads<=%d", r.s.Rate.MaxThreads), Unit: "op/s", Shortfall: ask.Shortfall, Terms: clientTerms,
			Achieved: report.StepAchieved(res, dur), MaxThreads: r.s.Rate.MaxThreads}, ctx.Err() != nil, try)
		if mean > 0 {
			c.meanUs = mean
		}
		if rerun > 0 {
			c.threads = rerun
			r.println(fmt.Sprintf("Capacity: step %d: %s; again with %d threads", ask.N, capacity.OfferNote(step.Threads, mean, "op/s"), c.threads))
			continue
		}
		if step.Untrusted != "" {
			step.Why = capacity.JoinWhy(step.Why, "not to be trusted: "+step.Untrusted)
		}
		if !trusted && ctx.Err() == nil {
			untrusted := fmt.Sprintf("too few operations to trust the percentiles (a step runs at most %s)", capacityMaxStep)
			step.Untrusted = capacity.JoinWhy(step.Untrusted, untrusted)
			step.Why = capacity.JoinWhy(step.Why, untrusted)
		}
		step.Unjudged = step.Verdict == capacity.Fail && ctx.Err() == nil && j.Unjudged()
		return step, nil
	}
}

// duration is a step's measured time at rate: step=, longer when the
// objectives' percentiles need more operations to be trusted.
func (c *capStepper) duration(rate float64) (time.Duration, bool) {
	return capacity.StepTime(c.r.s.SLO.Objectives, rate, c.r.s.Rate.Capacity.Step, capacityMaxStep)
}

// writeCapacity writes the search's summary: a line per step, then the
// answer.
func (r *stressRun) writeCapacity(a *capacity.Answer, cfg capacity.Config) {
	var objs []string
	for _, o := range r.s.SLO.Objectives {
		objs = append(objs, o.Text)
	}
	r.println("")
	r.println("Capacity (ours), against " + strings.Join(objs, ", ") + " on intended latency:")
	r.println(fmt.Sprintf("%5s %12s %14s %8s  %s", "step", "asked op/s", "achieved op/s", "threads", "verdict"))
	for i, s := range a.Steps {
		line := fmt.Sprintf("%5d %12s %14s %8d  %s", i+1, jf(s.Asked, 0, true), jf(s.Achieved, 0, true), s.Threads, s.Verdict)
		if s.Confirms > 0 {
			line += fmt.Sprintf(" (confirms step %d)", s.Confirms)
		}
		if s.Why != "" {
			line += ": " + s.Why
		}
		r.println(line)
	}
	// What the best passing step served: its achieved rate, at most its
	// asked one (Answer.Max).
	answer := "none: no rate met the objectives"
	if max, best := a.Max(); max > 0 {
		answer = jf(math.Floor(max), 0, true) + " op/s" // never shown above what the step achieved
		if asked := a.Steps[best-1].Asked; asked > max {
			answer += fmt.Sprintf(" achieved by step %d (%s asked)", best, jf(asked, 0, true))
		}
	}
	r.println(fmt.Sprintf("%-26s: %s", "Max op rate meeting -slo", answer))
	if a.Above > 0 {
		r.println(fmt.Sprintf("%-26s: %s op/s", "First failing op rate", jf(a.Above, 0, true)))
	}
	_, limit := a.Limit(cfg, capacity.Names{Resolution: fmt.Sprintf("resolution=%g%%", cfg.Resolution*100),
		Steps: "the steps", Max: "the highest rate", Unit: "op/s", StepTime: fmt.Sprintf("a step runs at most %s", capacityMaxStep)})
	r.println(fmt.Sprintf("%-26s: %s", "Limit", limit))
	if why := a.Untrusted("op/s"); why != "" {
		r.println(fmt.Sprintf("%-26s: no: %s", "Trusted", why))
	}
}

// checkCapacity refuses what -rate capacity cannot honour, before
// anything is opened.
func checkCapacity(s *settings.Settings) error {
	if s.Rate.Capacity == nil {
		return nil
	}
	switch {
	case s.SLO.Objectives == nil:
		return bad("-rate capacity: searches for the highest rate that meets objectives: give them with -slo (e.g. -slo \"write.p99<=5ms\")")
	case s.Log.JSONFile != "":
		return bad("%s: not offered with -rate capacity yet (one report per run)", s.Option("-log", "json=", s.Log.JSONFile))
	case s.Graph.File != "":
		return bad("%s: not offered with -rate capacity yet", s.Option("-graph", "file=", s.Graph.File))
	}
	for _, o := range s.SLO.Objectives {
		if o.Stat == slo.Throughput {
			return bad("-slo %s: -rate capacity finds the throughput; give latency and error objectives", o.Text)
		}
	}
	cmd := s.Command.Type.String()
	for _, name := range []string{"n=", "duration=", "err<", "n>", "n<"} {
		if w := s.Typed(cmd, name); w != "" {
			return bad("%s: -rate capacity times its steps itself (-rate capacity step=)", w)
		}
	}
	return nil
}
