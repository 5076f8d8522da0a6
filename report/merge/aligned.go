package merge

import (
	"slices"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// alignedIntervals merges the intervals of clients that ticked together
// (started at the same starttime, with the same report.interval): each
// client interval belongs whole to one slot of a common grid, so the
// slot's operations are the clients' sums and its latency the merge of
// their interval histograms, exact rather than estimated. It reports false
// when the reports lack absolute interval times or their intervals do not
// line up within a quarter of an interval; mergeIntervals then spreads
// operations over a one-second grid and keeps no latency.
func alignedIntervals(reps []*jsonreport.Report, start time.Time) ([]jsonreport.Interval, bool) {
	var lengths []int64
	origin := int64(-1)
	for _, r := range reps {
		if len(r.Intervals) == 0 {
			return nil, false
		}
		for _, iv := range r.Intervals {
			if iv.StartUnixMs == 0 || iv.EndUnixMs < iv.StartUnixMs {
				return nil, false
			}
			lengths = append(lengths, iv.EndUnixMs-iv.StartUnixMs)
		}
		if s := r.Intervals[0].StartUnixMs; origin < 0 || s < origin {
			origin = s
		}
	}
	slices.Sort(lengths)
	step := lengths[len(lengths)/2] // the last interval of each client may be short
	if step <= 0 {
		return nil, false
	}
	type slot struct {
		iv    jsonreport.Interval
		hists map[string]*hdrhistogram.Histogram
		exact map[string]bool // every client's interval had the histogram
	}
	var slots []*slot
	// Aligned clients fill their slots densely: a slot far beyond the
	// intervals there are is a client that is not aligned (or a report
	// that claims an interval years away), merged by mergeIntervals.
	maxSlot := int64(2*len(lengths) + 16)
	for _, r := range reps {
		used := map[int64]bool{}
		for _, iv := range r.Intervals {
			off := iv.StartUnixMs - origin
			b := (off + step/2) / step
			if d := off - b*step; d > step/4 || d < -step/4 || used[b] || b < 0 || b > maxSlot {
				return nil, false
			}
			used[b] = true
			for int64(len(slots)) <= b {
				k := int64(len(slots))
				s0 := origin + k*step
				slots = append(slots, &slot{
					iv:    jsonreport.Interval{StartUnixMs: s0, EndUnixMs: s0, ByOp: map[string]int64{}},
					hists: map[string]*hdrhistogram.Histogram{}, exact: map[string]bool{},
				})
			}
			s := slots[b]
			s.iv.EndUnixMs = max(s.iv.EndUnixMs, iv.EndUnixMs)
			s.iv.Ops += iv.Ops
			for op, n := range iv.ByOp {
				s.iv.ByOp[op] += n
			}
			for name, l := range iv.Latency {
				if _, seen := s.exact[name]; !seen {
					s.exact[name] = true
				}
				h, err := decodeInterval(l)
				if err != nil || h == nil {
					s.exact[name] = false
					continue
				}
				if addHist(s.hists, name, h) != nil {
					s.exact[name] = false
				}
			}
		}
	}
	out := make([]jsonreport.Interval, len(slots))
	for i, s := range slots {
		iv := s.iv
		iv.StartMs = max(iv.StartUnixMs-start.UnixMilli(), 0)
		iv.EndMs = iv.EndUnixMs - start.UnixMilli()
		for name, h := range s.hists {
			if !s.exact[name] {
				continue
			}
			if iv.Latency == nil {
				iv.Latency = map[string]jsonreport.IntervalLatency{}
			}
			iv.Latency[name] = intervalLatency(h)
		}
		out[i] = iv
	}
	return out, true
}

func decodeInterval(l jsonreport.IntervalLatency) (*hdrhistogram.Histogram, error) {
	if l.Histogram == "" {
		return nil, nil
	}
	return jsonreport.DecodeHistogram(l.Histogram)
}

// intervalLatency is one merged interval's latency, as the run writes it.
func intervalLatency(h *hdrhistogram.Histogram) jsonreport.IntervalLatency {
	st := measurement.StatsOf(h)
	l := jsonreport.IntervalLatency{Count: st.Count, MeanUs: st.Mean, MaxUs: st.Max, Percentiles: map[string]int64{}}
	for _, p := range jsonreport.IntervalPercentiles {
		l.Percentiles[jsonreport.PercentileKey(p)] = st.Percentile(p)
	}
	l.Histogram, _ = jsonreport.EncodeHistogram(h)
	return l
}
