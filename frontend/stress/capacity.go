package stress

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/stressreport"
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
		var objs []string
		for _, o := range r.s.SLO.Objectives {
			objs = append(objs, o.Text)
		}
		stressreport.WriteCapacity(func(line string) { r.println(line) }, ans, cfg, objs, capacityMaxStep)
	}
	if err != nil || ctx.Err() != nil {
		return err
	}
	if ans.Rate == 0 && ans.Unjudged {
		return &slo.Unmet{Msg: "-rate capacity: no rate was judged: the objectives could not be judged at " + javafmt.FixedGrouped(ans.Above, 0) + " op/s, and a lower rate runs fewer operations"}
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
			ThreadCap: fmt.Sprintf("threads<=%d", r.s.Rate.MaxThreads), Unit: "op/s", Shortfall: ask.Shortfall, Terms: stressreport.ClientTerms,
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
