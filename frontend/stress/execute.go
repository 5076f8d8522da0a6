package stress

import (
	"context"
	"fmt"
	"time"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/stopsignal"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report"
	"github.com/goycsb/ycsb/report/stressreport"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/workload/cassandrastress"
)

// execute runs plan, whose workload's state is st, with the metrics met
// and the outputs outs: the metrics see every interval and, unless the
// run failed, print the Results block; then the outputs are finished. A
// warm-up has neither. A failed operation ends the run in ErrFailure; a
// failed run has no Results block, as the original's StressMetrics cancels
// it.
func (r *stressRun) execute(ctx context.Context, plan *run.Plan, st *cassandrastress.RunState, met summariser, outs *stressreport.Outputs, warmup bool) error {
	if err := ctx.Err(); err != nil {
		return outs.Done(err) // Ctrl-C before the run: nothing runs
	}
	s := r.s
	plan.Ops = met.Ops()
	plan.Causes = measurement.NewCauses(plan.Ops, func(line string) { r.errLine(line) })
	var timer *time.Timer
	objs := s.SLO.Objectives
	if warmup {
		objs = nil
	}
	latency := report.SLOLatency(plan.Target, plan.Measurement)
	if !warmup {
		plan.Outputs = append(outs.EngineOutputs(), met, startHook(func() {
			if r.env.onStart != nil {
				r.env.onStart()
			}
			if s.Command.Stop == settings.StopDuration && r.step == nil {
				timer = time.AfterFunc(s.Command.Duration, plan.Workload.Stop)
			}
		}))
		if objs != nil && (s.SLO.Abort || r.step != nil) {
			plan.Outputs = append(plan.Outputs, report.NewSLOAbort(objs, latency, plan.Measurement, plan.OpCount))
		}
	}
	st.Begin(ctx)
	defer st.End()
	res := run.Run(ctx, plan)
	r.lastRes = res
	if timer != nil {
		timer.Stop()
	}
	var judgement *slo.Judgement
	if objs != nil {
		j, err := report.Judge(objs, latency, res, "")
		if err != nil {
			return outs.Done(err)
		}
		judgement, r.judgement = j, j
	}
	client := report.CheckClient(res, stressreport.ClientTerms)
	// The duration= is the time planned: plan.TimeLimit is not set for it.
	planned := plan.TimeLimit
	if s.Command.Stop == settings.StopDuration && r.step == nil {
		planned = s.Command.Duration
	}
	in := report.Interruption(res, string(stopsignal.By(ctx)), plan.OpCount, planned)
	err := outs.WriteReport(plan, res, judgement, s.SLO.Text, in, func() {
		if !warmup && !s.Log.NoSummary && st.Failed() == "" {
			met.Summarise(r.out)
			stressreport.WriteClient(r.out, client)
		}
		if judgement != nil && st.Failed() == "" {
			stressreport.WriteObjectives(r.out, judgement)
		}
	})
	plan.Causes.WriteSummary(r.env.Stderr)
	if n := client.Note(); !warmup && n != "" {
		fmt.Fprintln(r.env.Stderr, n)
	}
	if err = outs.Done(err); err != nil {
		return err
	}
	if msg := st.Failed(); msg != "" {
		// The original's Consumer prints the exception to the output (and
		// its -log file=) as it happens (onFail), then StressAction prints
		// FAILURE; the warm-up's goes here.
		if warmup {
			r.println(msg)
		}
		return fmt.Errorf("%w: %s (-errors ignore goes on after failed operations)", ErrFailure, msg)
	}
	return reportErr(outs.Graph(r.ctx, s.Rate.Ramp()))
}
