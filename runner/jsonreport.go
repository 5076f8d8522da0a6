package runner

import (
	"fmt"
	"sync"
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
)

// JSONReportExporter is the exporter name of our own JSON report
// (measurement/jsonreport); the reference's exporters live in
// measurement/export.
const JSONReportExporter = "jsonreport"

// toolName is written into JSON reports and the banner.
var toolName = "ycsb-go"

// jsonIntervals is the interval output of the JSON report: operations and
// latency per interval of the measured window.
type jsonIntervals struct {
	mu       sync.Mutex // addInterval runs on the ticking goroutine
	originNs int64      // the start of measurement: intervals count from it
	// origin is originNs in wall time, the report's Start: absolute
	// interval times count from it too, so that they agree with Start.
	origin time.Time
	list   jsonreport.Intervals // bounded: long runs keep coarser intervals
}

func (j *jsonIntervals) startRun(wu warmup) {
	j.mu.Lock()
	j.originNs, j.origin = wu.endNs(), wu.end()
	j.mu.Unlock()
}

func (j *jsonIntervals) addInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	j.mu.Lock()
	origin, wall := j.originNs, j.origin
	j.mu.Unlock()
	if endNs <= origin {
		return // an interval of the warm-up: nothing was recorded
	}
	in := jsonreport.Interval{Ops: iv.Ops(), ByOp: map[string]int64{}, Latency: intervalLatency(iv)}
	// The first interval starts where measurement does, like StartMs.
	in.StartUnixMs = wall.Add(time.Duration(max(startNs-origin, 0))).UnixMilli()
	in.EndUnixMs = wall.Add(time.Duration(endNs - origin)).UnixMilli()
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		if m.Intended || m.Kind != measurement.KindOK {
			continue
		}
		var n int64
		for _, rc := range m.Returns {
			n += rc.Count
		}
		if n > 0 {
			in.ByOp[m.Name] = n
		}
	}
	in.StartMs = max(startNs-origin, 0) / 1e6
	in.EndMs = (endNs - origin) / 1e6
	j.mu.Lock()
	j.list.Add(in)
	j.mu.Unlock()
}

// intervals returns the intervals so far, never nil.
func (j *jsonIntervals) intervals() []jsonreport.Interval {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.list.List()
}

// intervalLatency is the per-interval latency of the JSON report.
func intervalLatency(iv *measurement.Snapshot) map[string]jsonreport.IntervalLatency {
	out := map[string]jsonreport.IntervalLatency{}
	for i := range iv.Measurements {
		m := &iv.Measurements[i]
		if m.Hist == nil || m.Hist.TotalCount() == 0 {
			continue
		}
		out[m.Name] = jsonreport.IntervalLatencyOf(m.Hist)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// buildJSONReport assembles the JSON report from what the run measured,
// the text report's rows (its sections) and the intervals.
func buildJSONReport(o *Options, s *settings, mcfg *measurement.Config, m *measured, rows []export.Row, intervals []jsonreport.Interval) (*jsonreport.Report, error) {
	rep := &jsonreport.Report{
		Format:          jsonreport.Format,
		Version:         jsonreport.Version,
		Tool:            toolName,
		Binding:         o.Binding,
		Phase:           phaseName(s.transactions),
		MeasurementType: string(mcfg.Type),
		Percentiles:     mcfg.Percentiles,
		Settings:        jsonreport.MaskSettings(o.Props.Map()),
		Clients:         1,
		Start:           m.start.UTC(),
		End:             m.end.UTC(),
		RunTimeMs:       m.end.Sub(m.start).Milliseconds(),
		WarmupMs:        m.warmupMs,
		Operations:      m.ops,
		Schedule:        m.schedule.report(),
		Intervals:       intervals,
	}
	if d := m.end.Sub(m.start).Seconds(); d > 0 {
		rep.Throughput = float64(m.ops) / d
	}
	rep.Seed = m.seed
	if cl := m.clients; cl.Split() {
		rep.Client = &jsonreport.Client{Index: cl.Index, Count: cl.Count}
	}
	if !m.startTime.IsZero() {
		t := m.startTime.UTC()
		rep.StartTime = &t
	}
	for i := range m.total.Measurements {
		jm, err := jsonMeasurement(&m.total.Measurements[i], mcfg)
		if err != nil {
			return nil, err
		}
		rep.Measurements = append(rep.Measurements, jm)
	}
	rep.Sections = append(rep.Sections, rows...)
	return rep, nil
}

// jsonMeasurement is one measurement's totals with its histogram.
func jsonMeasurement(m *measurement.Measurement, mcfg *measurement.Config) (jsonreport.Measurement, error) {
	st := measurement.StatsOf(m.Hist)
	jm := jsonreport.Measurement{
		Name:      m.Name,
		Operation: m.Operation,
		Intended:  m.Intended,
		Count:     st.Count,
		MeanUs:    st.Mean,
		MinUs:     st.Min,
		MaxUs:     st.Max,
	}
	if st.Count > 0 {
		jm.Percentiles = map[string]int64{}
		for _, p := range []float64{50, 90, 95, 99, 99.9, 99.99, 100} {
			jm.Percentiles[jsonreport.PercentileKey(p)] = st.Percentile(p)
		}
		for _, p := range mcfg.Percentiles {
			jm.Percentiles[jsonreport.PercentileKey(p)] = st.Percentile(p)
		}
		enc, err := jsonreport.EncodeHistogram(m.Hist)
		if err != nil {
			return jm, fmt.Errorf("report: encode %s: %w", m.Name, err)
		}
		jm.Histogram = enc
	}
	for _, rc := range m.Returns {
		jm.Returns = append(jm.Returns, jsonreport.Return{Status: rc.Status.String(), Count: rc.Count})
	}
	return jm, nil
}

// phaseName is the phase as reports name it.
func phaseName(transactions bool) string {
	if transactions {
		return "run"
	}
	return "load"
}
