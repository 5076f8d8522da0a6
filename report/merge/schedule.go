package merge

import (
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// schedule is the clients' schedules merged: the JSON report's, and the
// paced starts' summed histograms the SCHEDULE rows are computed from.
type schedule struct {
	json         *jsonreport.Schedule
	wake, behind *hdrhistogram.Histogram
	// starts is false when a client's report has no paced starts
	// (jsonreport.Report.PacedStartsKnown): the sums would leave its out,
	// so the merged schedule has none.
	starts bool
}

// rows are the merged SCHEDULE section, a run's rows (measurement's).
func (s *schedule) rows() []export.Row {
	j := s.json
	rows := measurement.ScheduleRows(j.TargetOpsSec, j.MeanLagUs, j.MaxLagUs, j.FinalLagUs)
	if !s.starts {
		return rows
	}
	return append(rows, measurement.StartRows(s.wake, s.behind)...)
}

// mergeSchedule merges the clients' schedules exactly; nil unless every
// client ran paced (Warnings says when only some did). The target is the
// sum of the clients' (each client paces its share of the fleet's
// target: fleet/partition), the mean lag each client's weighted by its
// operations (a run's is its lags' sum over its operations), the maximum
// and final lags the largest of the clients' (as a run's are the largest
// of its workers'), and the wake-ups and late starts the sums of their
// histograms, with figures recomputed from the sums as a run computes
// them (jsonreport.StartsOf).
func mergeSchedule(paths []string, reps []*jsonreport.Report) (*schedule, error) {
	for _, r := range reps {
		if r.Schedule == nil {
			return nil, nil
		}
	}
	out := &schedule{json: &jsonreport.Schedule{}, starts: true}
	j := out.json
	var lagSum float64
	var ops int64
	hists := map[string]*hdrhistogram.Histogram{}
	for i, r := range reps {
		s := r.Schedule
		if s.TargetOpsSec > math.MaxInt64-j.TargetOpsSec {
			return nil, inputErr(paths[i], "schedule.target_ops_sec: %d more than can be added up", s.TargetOpsSec)
		}
		j.TargetOpsSec += s.TargetOpsSec
		lagSum += s.MeanLagUs * float64(r.Operations)
		ops += r.Operations // addClients has checked that the sum fits
		j.MaxLagUs = max(j.MaxLagUs, s.MaxLagUs)
		j.FinalLagUs = max(j.FinalLagUs, s.FinalLagUs)
		if !r.PacedStartsKnown() {
			out.starts = false
		}
		for _, st := range []struct {
			name string
			s    *jsonreport.Starts
		}{{"wake", s.Wake}, {"behind", s.Behind}} {
			if st.s == nil || st.s.Count == 0 {
				continue
			}
			h, err := jsonreport.DecodeHistogram(st.s.Histogram)
			if err != nil {
				return nil, inputErr(paths[i], "schedule.%s.histogram: %v", st.name, err)
			}
			if err := addHist(hists, st.name, h); err != nil {
				return nil, inputErr(paths[i], "schedule.%s: %v", st.name, err)
			}
		}
	}
	if ops > 0 {
		j.MeanLagUs = lagSum / float64(ops)
	}
	if !out.starts {
		return out, nil
	}
	out.wake, out.behind = hists["wake"], hists["behind"]
	if err := j.SetStarts(out.wake, out.behind); err != nil {
		return nil, err
	}
	return out, nil
}

// scheduleWarnings says what a merge leaves out of the schedule: all of
// it when some clients ran without a target, the paced starts when a
// client's report does not have them.
func scheduleWarnings(paths []string, reps []*jsonreport.Report, idx []int) []string {
	var paced, unpaced []int
	for i, r := range reps {
		if r.Schedule != nil {
			paced = append(paced, i)
		} else {
			unpaced = append(unpaced, i)
		}
	}
	if len(paced) == 0 {
		return nil
	}
	var w []string
	for _, i := range unpaced {
		w = append(w, fmt.Sprintf("client %d (%s) ran without -target, others with one: the merged report has no schedule (no [SCHEDULE] rows), which would be a part of the fleet's", idx[i], paths[i]))
	}
	if len(unpaced) > 0 {
		return w
	}
	for i, r := range reps {
		if !r.PacedStartsKnown() {
			w = append(w, fmt.Sprintf("client %d (%s): its schedule does not say how its paced operations started (a report written before they were recorded): the merged schedule has its lags, but no wake-ups or late starts", idx[i], paths[i]))
		}
	}
	return w
}
