package stress

import (
	"context"
	"fmt"
	"strconv"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/javafmt"
	"github.com/goycsb/ycsb/report/stressreport"
)

// nextThreads is the ramp's next thread count: doubled below 16, else
// ×1.5, as Apache Cassandra's StressAction.runMulti steps (the Scylla
// fork steps by +100 instead).
func nextThreads(n int) int {
	if n < 16 {
		return n * 2
	}
	return int(float64(n) * 1.5)
}

// averageImprovement is the mean relative op-rate gain over the last count
// steps.
func averageImprovement(rates []float64, count int) float64 {
	var imp float64
	for i := len(rates) - count; i < len(rates); i++ {
		imp += (rates[i] - rates[i-1]) / rates[i-1]
	}
	return imp / float64(count)
}

func hasAverageImprovement(rates []float64, count int, min float64) bool {
	return len(rates) < count+1 || averageImprovement(rates, count) >= min
}

// runMulti runs every thread count from threads>= up to threads<=; with
// auto, only while the op rate keeps improving: the last 3 steps by ≥ 0 on
// average and the last 5 by ≥ the err< target (-1 with n= or duration=,
// so only the 3-step test applies). Then the summary table.
func (r *stressRun) runMulti(ctx context.Context) error {
	return r.ramp(ctx, func(ctx context.Context, threads int) (rampResult, error) {
		met, err := r.runOnce(ctx, r.kinds, threads, r.count(), false)
		if met == nil {
			return nil, err
		}
		return met, err
	})
}

// rampResult is one thread count's run: its op rate, and its rows of the
// ramp's summary table.
type rampResult interface {
	OpRate() float64
	SummaryRows(prefix string) []string
}

// ramp runs step at each thread count of the ramp (see runMulti).
func (r *stressRun) ramp(ctx context.Context, step func(ctx context.Context, threads int) (rampResult, error)) error {
	s := r.s
	target := -1.0
	if s.Command.Stop == settings.StopUncertainty {
		target = s.Command.TargetUncertainty
		r.println("WARNING: uncertainty mode (err<) results in uneven workload between thread runs, so should be used for high level analysis only")
	}
	var results []rampResult
	var rates []float64
	var ids []string
	prev := -1
	threads := s.Rate.MinThreads
	for {
		r.println("")
		r.println(fmt.Sprintf("Running with %d threadCount", threads))
		if s.Command.Truncate == settings.TruncateAlways {
			if err := r.truncate(ctx); err != nil {
				return err
			}
		}
		met, err := step(ctx, threads)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		results = append(results, met)
		rates = append(rates, met.OpRate())
		if prev > 0 {
			// The original prints this on System.out, not into -log file=.
			fmt.Fprintf(r.env.Stdout, "Improvement over %d threadCount: %s%%\n", prev, javafmt.Fixed(100*averageImprovement(rates, 1), 0))
		}
		ids = append(ids, strconv.Itoa(threads)+" threadCount")
		prev = threads
		threads = nextThreads(threads)
		if threads > s.Rate.MaxThreads {
			break
		}
		if s.Command.Type.Updates() {
			r.println("Sleeping for 15s")
			sleep(ctx, rampPause)
		}
		if s.Rate.Auto && !(hasAverageImprovement(rates, 3, 0) && hasAverageImprovement(rates, 5, target)) {
			break
		}
	}
	r.summariseAll(ids, results)
	return nil
}

// summariseAll is StressMetrics.summarise over the thread counts: one row
// per op type and a total per count, prefixed by the count.
func (r *stressRun) summariseAll(ids []string, results []rampResult) {
	w := 0
	for _, id := range ids {
		w = max(w, len(id))
	}
	prefix := func(id string) string { return fmt.Sprintf("%*s, ", w, id) }
	r.println(stressreport.Header(prefix("id")))
	for i, m := range results {
		for _, l := range m.SummaryRows(prefix(ids[i])) {
			r.println(l)
		}
	}
}
