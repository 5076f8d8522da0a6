package jsonreport

import (
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
)

// MaxIntervals bounds the intervals a report keeps, so that a run of days
// keeps a bounded footprint (about 3 KB an interval with its latency
// histograms: 12 MB at most). 4096 one-second harvests are 68 minutes.
const MaxIntervals = 4096

// Intervals keeps a run's intervals in bounded memory. Up to MaxIntervals
// harvests are kept as they come; then adjacent pairs are merged into
// intervals twice as long, and each later harvest is added to the last
// interval until it is as long as the others, so that at most MaxIntervals
// intervals of equal length (the last may be shorter) tile the run. A
// merged interval's latency comes from the merged histograms. The zero
// value is ready to use; it is not safe for concurrent use.
type Intervals struct {
	list  []Interval
	span  int // harvests in each kept interval; 0 until the first merge
	lastN int // harvests in the last kept interval
}

// Add adds one harvest's interval.
func (l *Intervals) Add(in Interval) {
	span := max(l.span, 1)
	if len(l.list) > 0 && l.lastN < span {
		mergeInterval(&l.list[len(l.list)-1], in)
		l.lastN++
		return
	}
	if len(l.list) == MaxIntervals {
		for i := 0; i < len(l.list)/2; i++ {
			a := l.list[2*i]
			mergeInterval(&a, l.list[2*i+1])
			l.list[i] = a
		}
		clear(l.list[len(l.list)/2:]) // drop their maps and histograms
		l.list = l.list[:len(l.list)/2]
		// Every kept interval was full (Add appends only after a full
		// one): the pairs are full at twice the span.
		l.span = 2 * span
	}
	l.list = append(l.list, in)
	l.lastN = 1
}

// List returns the intervals kept, never nil.
func (l *Intervals) List() []Interval {
	if l.list == nil {
		return []Interval{}
	}
	return slices.Clone(l.list)
}

// mergeInterval adds b, the interval that follows a, to a.
func mergeInterval(a *Interval, b Interval) {
	a.EndMs, a.EndUnixMs = b.EndMs, b.EndUnixMs
	a.Ops += b.Ops
	for op, n := range b.ByOp {
		if a.ByOp == nil {
			a.ByOp = map[string]int64{}
		}
		a.ByOp[op] += n
	}
	for name, bl := range b.Latency {
		if a.Latency == nil {
			a.Latency = map[string]IntervalLatency{}
		}
		al, ok := a.Latency[name]
		if !ok {
			a.Latency[name] = bl
			continue
		}
		a.Latency[name] = mergeLatency(al, bl)
	}
}

// mergeLatency is the latency of two intervals together: from their
// merged histograms, or, when either has none, the count, mean and the
// larger maximum and percentiles (a bound, not the exact figure).
func mergeLatency(a, b IntervalLatency) IntervalLatency {
	ha, errA := DecodeHistogram(a.Histogram)
	hb, errB := DecodeHistogram(b.Histogram)
	if a.Histogram != "" && b.Histogram != "" && errA == nil && errB == nil {
		if hb.HighestTrackableValue() > ha.HighestTrackableValue() {
			ha, hb = hb, ha
		}
		if ha.Merge(hb) == 0 {
			return IntervalLatencyOf(ha)
		}
	}
	out := IntervalLatency{Count: a.Count + b.Count, MaxUs: max(a.MaxUs, b.MaxUs), Percentiles: map[string]int64{}}
	if out.Count > 0 {
		out.MeanUs = (a.MeanUs*float64(a.Count) + b.MeanUs*float64(b.Count)) / float64(out.Count)
	}
	for k, v := range a.Percentiles {
		out.Percentiles[k] = max(v, b.Percentiles[k])
	}
	for k, v := range b.Percentiles {
		out.Percentiles[k] = max(v, out.Percentiles[k])
	}
	return out
}

// IntervalLatencyOf is the latency of one interval with histogram h.
func IntervalLatencyOf(h *hdrhistogram.Histogram) IntervalLatency {
	st := measurement.StatsOf(h)
	il := IntervalLatency{Count: st.Count, MeanUs: st.Mean, MaxUs: st.Max, Percentiles: map[string]int64{}}
	for _, p := range IntervalPercentiles {
		il.Percentiles[PercentileKey(p)] = st.Percentile(p)
	}
	// Encoding fails only for a histogram it cannot size; the interval
	// then keeps its figures without the histogram.
	il.Histogram, _ = EncodeHistogram(h)
	return il
}
