package report

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
	"github.com/goycsb/ycsb/workload"
)

// Tool is the program's name in JSON reports and the YCSB banner.
const Tool = "ycsb-go"

// Intervals is the engine output of the JSON report: operations and
// latency per interval of the measured window.
type Intervals struct {
	warmup   time.Duration // the plan's: intervals count from its end
	mu       sync.Mutex    // AddInterval runs on the ticking goroutine
	originNs int64         // the start of measurement: intervals count from it
	// origin is originNs in wall time, the report's Start: absolute
	// interval times count from it too, so that they agree with Start.
	origin time.Time
	list   jsonreport.Intervals // bounded: long runs keep coarser intervals
}

// NewIntervals is the intervals of a run whose plan has warmup.
func NewIntervals(warmup time.Duration) *Intervals { return &Intervals{warmup: warmup} }

func (j *Intervals) StartRun(start time.Time, startNs int64) {
	j.mu.Lock()
	j.originNs, j.origin = startNs+int64(j.warmup), start.Add(j.warmup)
	j.mu.Unlock()
}

func (j *Intervals) AddInterval(startNs, endNs int64, iv *measurement.Snapshot) {
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

// List returns the intervals so far, never nil.
func (j *Intervals) List() []jsonreport.Interval {
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

// Run is what the JSON report records of the run besides its figures.
type Run struct {
	Binding  string
	Load     bool              // a load phase, not a run phase
	Settings map[string]string // as given; passwords are masked
	// Seed is the base of the workers' seeds; Clients this client's place
	// among several; StartTime the starttime it waited for (zero: none).
	Seed      uint64
	Clients   partition.Clients
	StartTime time.Time
	// SLO is the objectives' verdict; nil without objectives.
	SLO *slo.Judgement
	// Validation is the closed economy's check; nil for other workloads.
	Validation *workload.Validation
	// Interrupted marks a run a signal stopped (Interruption); nil for a
	// complete one.
	Interrupted *jsonreport.Interrupted
	// Terms are the options the client verdict's advice names; zero:
	// the YCSB front end's.
	Terms Terms
}

// terms are the options the advice names.
func (r *Run) terms() Terms {
	if r.Terms == (Terms{}) {
		return YCSBTerms
	}
	return r.Terms
}

// Phase is the phase as reports name it.
func Phase(load bool) string {
	if load {
		return jsonreport.PhaseLoad
	}
	return jsonreport.PhaseRun
}

// JSON assembles the JSON report from what the run measured, the text
// report's rows (its sections) and the intervals.
func JSON(run *Run, mcfg *measurement.Config, res *run.Result, rows []export.Row, intervals []jsonreport.Interval) (*jsonreport.Report, error) {
	rep := &jsonreport.Report{
		Format:          jsonreport.Format,
		Version:         jsonreport.Version,
		Tool:            Tool,
		Binding:         run.Binding,
		Phase:           Phase(run.Load),
		MeasurementType: string(mcfg.Type),
		Percentiles:     mcfg.Percentiles,
		Settings:        jsonreport.MaskSettings(run.Settings),
		Clients:         1,
		Start:           res.Start.UTC(),
		End:             res.End.UTC(),
		RunTimeMs:       res.End.Sub(res.Start).Milliseconds(),
		WarmupMs:        res.Warmup.Milliseconds(),
		Operations:      res.Ops,
		ClientVerdict:   clientVerdict(CheckClient(res, run.terms())),
		Intervals:       intervals,
	}
	if d := res.End.Sub(res.Start).Seconds(); d > 0 {
		rep.Throughput = float64(res.Ops) / d
	}
	failed := res.Ops - res.Succeeded
	rep.Failed = &failed
	rep.UnknownOutcome = res.Unknown
	if run.SLO != nil {
		rep.SLO = run.SLO.JSON()
	}
	rep.Validation = (*jsonreport.Validation)(run.Validation)
	rep.Interrupted = run.Interrupted
	rep.Seed = run.Seed
	if cl := run.Clients; cl.Split() {
		rep.Client = &jsonreport.Client{Index: cl.Index, Count: cl.Count}
	}
	if !run.StartTime.IsZero() {
		t := run.StartTime.UTC()
		rep.StartTime = &t
	}
	ms, err := Measurements(res.Total, mcfg)
	if err != nil {
		return nil, err
	}
	rep.Measurements = ms
	if rep.Schedule, err = Schedule(res.Schedule); err != nil {
		return nil, err
	}
	rep.Sections = append(rep.Sections, rows...)
	return rep, nil
}

// Document is the JSON report, written out.
func Document(run *Run, mcfg *measurement.Config, res *run.Result, rows []export.Row, intervals []jsonreport.Interval) ([]byte, error) {
	rep, err := JSON(run, mcfg, res, rows, intervals)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Schedule is the JSON report's schedule; nil without a target.
func Schedule(s *run.Schedule) (*jsonreport.Schedule, error) {
	if s == nil {
		return nil, nil
	}
	js := &jsonreport.Schedule{TargetOpsSec: s.Target, MeanLagUs: s.MeanLagUs, MaxLagUs: s.MaxLagUs, FinalLagUs: s.FinalLagUs}
	if err := js.SetStarts(s.Wake, s.Behind); err != nil {
		return nil, err
	}
	return js, nil
}

// Measurements are the JSON report's measurements of a snapshot.
func Measurements(s *measurement.Snapshot, mcfg *measurement.Config) ([]jsonreport.Measurement, error) {
	var out []jsonreport.Measurement
	for i := range s.Measurements {
		jm, err := jsonMeasurement(&s.Measurements[i], mcfg)
		if err != nil {
			return nil, err
		}
		out = append(out, jm)
	}
	return out, nil
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
		Retries:   m.Retries,
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
