package slo

import (
	"fmt"
	"math"
)

// Abort decides, while a run goes, whether an objective has failed beyond
// doubt (slo.abort), from the operations measured so far:
//
//   - max: one latency above the limit fails it, whatever follows;
//   - a percentile pNN, and the error rate: the run passes only if at
//     most a share 1−NN/100 of its operations (or the error rate's share)
//     exceed the limit (or fail). With a known number of operations
//     (operationcount), more exceedances than that share of all of them
//     fail it for certain. Otherwise, once MinAbortOps operations of the
//     objective are measured, it has failed beyond doubt when the Wilson
//     score interval's lower bound of the share exceeding the limit, at
//     AbortZ standard errors, is above the allowed share: the probability
//     that a run which meets the objective looks that bad at one look is
//     below 3·10⁻⁷, so below 10⁻³ over an hour of checks each second. The
//     test takes operations as independent; a stall makes them otherwise,
//     which is why the bar is this high.
//   - mean: with a known number of operations, when the latencies so far
//     already sum to more than the limit times that number.
//   - throughput is judged at the end only.
//
// A Watch is fed each interval's figures, in the latency its objectives
// read; it is not safe for concurrent use.
type Watch struct {
	objs  []Objective
	total int64 // operations the run will do; 0 when unknown
	seen  []watched
}

type watched struct {
	n, over int64   // operations of the objective, and those over the limit (or failed)
	sum     float64 // µs, for mean
}

// MinAbortOps is how many operations an objective needs before a
// statistical abort.
const MinAbortOps = 1000

// AbortZ is the standard errors of the abort's one-sided test.
const AbortZ = 5.0

// NewWatch watches objs over a run of total operations (0: unknown).
func NewWatch(objs []Objective, total int64) *Watch {
	return &Watch{objs: objs, total: total, seen: make([]watched, len(objs))}
}

// Interval is one interval's figures for a Watch.
type Interval interface {
	// Over is how many of op's operations took more than limitUs (All:
	// every operation), with their count and the sum of their latencies.
	Over(op string, limitUs float64) (over, n int64, sumUs float64)
	// Operations and Errors count the interval's operations and failed
	// ones.
	Operations() int64
	Errors() int64
}

// Add takes an interval and returns the objective that has failed beyond
// doubt with why, or ok false.
func (w *Watch) Add(iv Interval) (why string, failed bool) {
	for i := range w.objs {
		o, s := &w.objs[i], &w.seen[i]
		switch o.Stat {
		case Throughput:
			continue
		case ErrorRate:
			s.n += iv.Operations()
			s.over += iv.Errors()
		default:
			// With "<", a latency equal to the limit fails too; counting
			// only those above it errs on the side of running on.
			over, n, sum := iv.Over(o.Op, o.Limit)
			s.n, s.over, s.sum = s.n+n, s.over+over, s.sum+sum
		}
		if why, ok := w.beyondDoubt(o, s); ok {
			return o.Text + " failed beyond doubt: " + why, true
		}
	}
	return "", false
}

func (w *Watch) beyondDoubt(o *Objective, s *watched) (string, bool) {
	switch o.Stat {
	case Max:
		if s.over > 0 {
			return fmt.Sprintf("%d operations took longer than %s", s.over, FormatLatency(o.Limit)), true
		}
		return "", false
	case Mean:
		if w.total > 0 && s.sum/float64(w.total) > o.Limit {
			return fmt.Sprintf("the latencies so far sum to more than %s for each of the run's %d operations", FormatLatency(o.Limit), w.total), true
		}
		return "", false
	}
	allowed := o.Limit // the error rate's share
	what := "failed"
	if o.Stat == Percentile {
		allowed = 1 - o.Percentile/100
		what = "took longer than " + FormatLatency(o.Limit)
	}
	if w.total > 0 && float64(s.over) > allowed*float64(w.total) {
		return fmt.Sprintf("%d operations %s, more than %.4g%% of the run's %d", s.over, what, allowed*100, w.total), true
	}
	if s.n < MinAbortOps {
		return "", false
	}
	if lo := wilsonLower(s.over, s.n, AbortZ); lo > allowed {
		return fmt.Sprintf("%d of %d operations %s (%.3g%%; at least %.3g%% at %g standard errors, %.4g%% allowed)",
			s.over, s.n, what, 100*float64(s.over)/float64(s.n), 100*lo, AbortZ, 100*allowed), true
	}
	return "", false
}

// wilsonLower is the lower bound of the Wilson score interval of k
// successes in n trials at z standard errors.
func wilsonLower(k, n int64, z float64) float64 {
	if n == 0 {
		return 0
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	centre := p + z2/(2*nf)
	margin := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return (centre - margin) / (1 + z2/nf)
}
