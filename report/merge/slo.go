package merge

import (
	"fmt"

	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// FleetObjectives are the objectives a merged run is judged against: the
// ones given (ycsb merge -slo), or else the slo setting every client's
// report carries (a fleet run with -p slo, as ycsb kube writes it). No
// objectives at all is nil; clients that disagree are an error.
func FleetObjectives(given string, reps []*jsonreport.Report) ([]slo.Objective, error) {
	if given != "" {
		return slo.Parse(given)
	}
	var text string
	for i, r := range reps {
		v := r.Settings["slo"]
		if i > 0 && v != text {
			return nil, fmt.Errorf("the clients' reports have different slo settings (%s and %s): give the fleet's with -slo", shown.Quote(text), shown.Quote(v))
		}
		text = v
	}
	if text == "" {
		return nil, nil
	}
	return slo.Parse(text)
}

// JudgeMerged judges a merged report from its merged histograms: a fleet's
// p99 is the p99 of every client's operations together, never an average
// of the clients' p99s; its throughput is the merged one.
func JudgeMerged(objs []slo.Objective, merged *jsonreport.Report, reps []*jsonreport.Report) (*slo.Judgement, error) {
	l := fleetLatency(reps)
	samples := make([]slo.Sample, 0, len(merged.Measurements))
	own := merged.OwnRMW()
	for _, m := range merged.Measurements {
		if m.Histogram == "" {
			continue
		}
		h, err := jsonreport.DecodeHistogram(m.Histogram)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		samples = append(samples, slo.Sample{Operation: m.Operation, Intended: m.Intended, LeftOut: slo.LeftOut(m.Operation, own), Hist: h})
	}
	var failed int64
	if merged.Failed != nil {
		failed = *merged.Failed
	}
	// The throughput of the operations that succeeded: the merged
	// throughput less the fleet's share of failures.
	perSec := merged.Throughput
	if merged.Operations > 0 {
		perSec *= 1 - float64(failed)/float64(merged.Operations)
	}
	f, err := slo.NewFigures(samples, l, merged.Operations, failed, merged.Failed != nil, perSec)
	if err != nil {
		return nil, err
	}
	return &slo.Judgement{Results: slo.Evaluate(objs, f), Latency: l}, nil
}

// fleetLatency is the latency the clients' objectives read: what their
// reports say, or intended when they ran under a target and recorded it.
func fleetLatency(reps []*jsonreport.Report) slo.Latency {
	for _, r := range reps {
		if r.SLO != nil {
			if r.SLO.Latency == slo.Intended.String() {
				return slo.Intended
			}
			return slo.Service
		}
	}
	for _, r := range reps {
		if r.Schedule == nil {
			continue
		}
		if r.Settings["measurement.interval"] == "intended" {
			return slo.Intended
		}
		for _, m := range r.Measurements {
			if m.Intended {
				return slo.Intended
			}
		}
	}
	return slo.Service
}
