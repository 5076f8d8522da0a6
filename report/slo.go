package report

import (
	"strings"
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/run"
)

// SLOLatency is the latency a run's objectives read: intended with a
// target, when the run records it; service time otherwise.
func SLOLatency(target int64, mcfg *measurement.Config) slo.Latency {
	if target > 0 && mcfg.Interval != measurement.IntervalOp {
		return slo.Intended
	}
	return slo.Service
}

// samples are the snapshot's latency histograms for slo.
func samples(s *measurement.Snapshot) []slo.Sample {
	out := make([]slo.Sample, 0, len(s.Measurements))
	own := s.OwnRMW()
	for i := range s.Measurements {
		m := &s.Measurements[i]
		out = append(out, slo.Sample{Operation: m.Operation, Intended: m.Intended, LeftOut: slo.LeftOut(m.Operation, own), Hist: m.Hist})
	}
	return out
}

// Judge judges the run's measured window against objs. share is "" for a
// run judged on its own, or names this client's place in a fleet, whose
// share is reported but not judged.
func Judge(objs []slo.Objective, l slo.Latency, res *run.Result, share string) (*slo.Judgement, error) {
	// Successful operations only, as [OVERALL], SuccessfulThroughput: a
	// cluster that fails fast must not meet a throughput objective.
	perSec := rate(res.Succeeded, res.End.Sub(res.Start))
	f, err := slo.NewFigures(samples(res.Total), l, res.Ops, res.Ops-res.Succeeded, true, perSec)
	if err != nil {
		return nil, err
	}
	return &slo.Judgement{Results: slo.Evaluate(objs, f), Latency: l, Share: share, Aborted: res.Halted}, nil
}

// SLOAbort is the engine output of slo.abort: it feeds each measured
// interval to an slo.Watch and halts the run once an objective has failed
// beyond doubt.
type SLOAbort struct {
	watch    *slo.Watch
	intended bool // read the Intended- measurements
	mu       sync.Mutex
	halt     func(string)
}

// NewSLOAbort watches objs in latency l over a run of total operations
// (0: unknown).
func NewSLOAbort(objs []slo.Objective, l slo.Latency, mcfg *measurement.Config, total int64) *SLOAbort {
	return &SLOAbort{watch: slo.NewWatch(objs, total), intended: l == slo.Intended && mcfg.Interval == measurement.IntervalBoth}
}

func (a *SLOAbort) SetHalt(halt func(string)) { a.halt = halt }

func (a *SLOAbort) AddInterval(_, _ int64, iv *measurement.Snapshot) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.halt == nil {
		return
	}
	if why, failed := a.watch.Add(&sloInterval{iv: iv, intended: a.intended}); failed {
		a.halt(why)
		a.halt = nil
	}
}

// sloInterval is an interval snapshot as an slo.Watch reads it.
type sloInterval struct {
	iv       *measurement.Snapshot
	intended bool
}

func (s *sloInterval) Over(op string, limitUs float64) (over, n int64, sum float64) {
	own := s.iv.OwnRMW()
	for i := range s.iv.Measurements {
		m := &s.iv.Measurements[i]
		if m.Intended != s.intended || m.Hist == nil {
			continue
		}
		if op == slo.All {
			if slo.LeftOut(m.Operation, own) {
				continue
			}
		} else if !strings.EqualFold(m.Operation, op) {
			continue
		}
		o, c, su := overLimit(m.Hist, limitUs)
		over, n, sum = over+o, n+c, sum+su
	}
	return over, n, sum
}

// overLimit counts h's values surely above limit (their bucket starts
// above it), all its values and their sum.
func overLimit(h *hdrhistogram.Histogram, limit float64) (over, n int64, sum float64) {
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		n += b.Count
		sum += float64(b.From) * float64(b.Count)
		if float64(b.From) > limit {
			over += b.Count
		}
	}
	return over, n, sum
}

func (s *sloInterval) Operations() int64 { return s.iv.Operations }

// Errors are the interval's failed operations, counted as the verdict
// counts them (see measurement.Snapshot.Failed), not its measurements of
// failures: a NOT_FOUND is an answer, and a read-modify-write whose read
// and update failed is one failed operation.
func (s *sloInterval) Errors() int64 { return s.iv.Failed }
