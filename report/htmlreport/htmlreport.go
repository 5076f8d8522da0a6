// Package htmlreport turns one or more JSON reports into a single,
// self-contained HTML page (ycsb report --html): throughput over time,
// latency percentiles over time per operation, the latency percentile
// spectrum, a summary, the schedule of a paced run (-target) and the
// settings of every run, with several runs overlaid on the same charts,
// as cassandra-stress's -graph does. A report
// judged against service level objectives (its slo) adds their table and
// draws each objective as a dashed line on the charts it bounds. Capacity
// searches (ycsb capacity) draw instead as latency against throughput, a
// point per step, with the objective's limit and each search's answer
// (capacity.go); they share no page with other reports.
//
// Everything the page needs is inside it: the chart code is a small SVG
// renderer of our own (chart.js in this directory, embedded), and the data
// is computed here, in Go — the spectrum comes from decoding each
// measurement's HdrHistogram — and embedded as JSON. The page loads no
// script, style or font from anywhere and works offline.
package htmlreport

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
)

//go:embed chart.js
var chartJS string

//go:embed page.css
var pageCSS string

//go:embed page.html
var pageHTML string

var page = template.Must(template.New("page").Parse(pageHTML))

// Input is one report and the name it has on the charts.
type Input struct {
	Name   string             `json:"name"`
	Report *jsonreport.Report `json:"report"`
	// Group and Series, when set (ycsb report --html -groups), draw the
	// runs of each group on charts of their own, each series in one
	// colour throughout the page: compare-engines' workloads and engines.
	Group  string `json:"group,omitempty"`
	Series string `json:"series,omitempty"`
}

// SplitGroups sets each input's Series and Group from its name,
// "<series> <group>" (split at the first space): "pebble a" is engine
// pebble on workload a.
func SplitGroups(inputs []Input) error {
	for i := range inputs {
		series, group, ok := strings.Cut(inputs[i].Name, " ")
		if !ok || series == "" || strings.TrimSpace(group) == "" {
			return fmt.Errorf("run %q: with -groups a run is named \"<series> <group>\" (e.g. \"pebble a\")", inputs[i].Name)
		}
		inputs[i].Series, inputs[i].Group = series, strings.TrimSpace(group)
	}
	return nil
}

// Data is what the page's script draws; it is embedded as JSON.
type Data struct {
	Title      string   `json:"title"`
	Generated  string   `json:"generated"`
	Operations []string `json:"operations"` // in the order of the first run that has them
	Runs       []Run    `json:"runs"`
	// Groups and Series are the runs' distinct groups and series in the
	// order of the inputs, when they have them (Input.Group): the page
	// then draws each group's charts apart and colours runs by series.
	Groups   []string  `json:"groups,omitempty"`
	Series   []string  `json:"series,omitempty"`
	Settings []Setting `json:"settings"`
	// Engine is the embedded engines' statistics (the [ENGINE] rows: I/O,
	// block cache, compaction debt, settling), one row per statistic in
	// the order the runs report them, "" where a run lacks it; empty when
	// no run has any.
	Engine []EngineStat `json:"engine,omitempty"`
	// Thresholds are the service level objectives of the runs, one per
	// distinct objective (runs usually share them).
	Thresholds []Threshold `json:"thresholds"`
	// Capacity is the latency-against-throughput charts of capacity
	// searches, one per latency objective; set when the reports are
	// capacity searches (a page draws either kind, not both).
	Capacity []CapacityChart `json:"capacity,omitempty"`
}

// Threshold is one service level objective as the charts draw it: a
// horizontal line at Limit on the charts it applies to.
type Threshold struct {
	Objective  string  `json:"objective"`           // as written
	Operation  string  `json:"operation,omitempty"` // as written (ALL); none for errors and throughput
	Statistic  string  `json:"statistic"`           // p99, p99.9, mean, max, errors, throughput
	Comparison string  `json:"comparison"`
	Limit      float64 `json:"limit"`
	Unit       string  `json:"unit"` // us, fraction, ops/s
	// Chart is the measurement whose latency-over-time chart the line is
	// drawn on (READ, or Intended-READ when the objectives read intended
	// latency); "" for ALL, errors, throughput and operations no run drew.
	Chart string `json:"chart,omitempty"`
	// Series is the per-interval series it is compared with there (p99,
	// p99.9, max, mean), "" when the intervals do not keep the statistic.
	Series string `json:"series,omitempty"`
	// Spectrum is the key of the runs' SLOSpectrum the line is drawn on,
	// up to Percentile (a max: across), "" for a mean, errors, throughput.
	Spectrum   string    `json:"spectrum,omitempty"`
	Percentile float64   `json:"percentile,omitempty"`
	Verdicts   []Verdict `json:"verdicts"` // of the runs that have the objective
}

// Verdict is one run's outcome of a threshold.
type Verdict struct {
	Run      int      `json:"run"`     // index in Runs
	Verdict  string   `json:"verdict"` // PASS, FAIL, NO DATA; "" when not judged
	Measured *float64 `json:"measured,omitempty"`
	// Why says why there is no measure (the report's SLOObjective.Why).
	Why string `json:"why,omitempty"`
}

// Run is one report's series.
type Run struct {
	Name       string  `json:"name"`
	Binding    string  `json:"binding"`
	Phase      string  `json:"phase"`
	Start      string  `json:"start"`
	RunTimeMs  int64   `json:"runtime_ms"`
	WarmupMs   int64   `json:"warmup_ms"`
	Operations int64   `json:"operations"`
	Throughput float64 `json:"throughput"`
	Clients    int     `json:"clients"`
	Group      string  `json:"group,omitempty"`
	Series     string  `json:"series,omitempty"`
	// Verdict is the client's verdict ("CPU-BOUND, GC-PAUSES", "KEPT
	// UP"), "" for a report without one.
	Verdict string `json:"verdict,omitempty"`
	// Throughput over time: [seconds since start, ops/s] at each interval's end.
	OpsSeries [][2]float64 `json:"ops_series"`
	// Latency over time per measurement and percentile key (p50, p99,
	// max): [seconds, µs]. Empty for reports without per-interval latency.
	LatencySeries map[string]map[string][][2]float64 `json:"latency_series"`
	// Spectrum per measurement: [percentile, µs] from the full histogram.
	Spectrum map[string][][2]float64 `json:"spectrum"`
	Summary  []Summary               `json:"summary"`
	// SLO is the report's objectives and verdicts, if it has any.
	SLO *slo.SLO `json:"slo,omitempty"`
	// SLOSpectrum is the spectrum of each operation an objective bounds
	// (by Threshold.Spectrum: the lower-case operation, or ALL), read as
	// the verdict reads it: failures included, ALL merging every
	// operation, intended latency when the objectives read it.
	SLOSpectrum map[string][][2]float64 `json:"slo_spectrum,omitempty"`
	// Capacity is a capacity search's steps and answer.
	Capacity *CapacityRun `json:"capacity,omitempty"`
	// Validation is the closed economy's check of its invariant.
	Validation *jsonreport.Validation `json:"validation,omitempty"`
	// Interrupted says how far a run a signal stopped got ("interrupted
	// by SIGTERM after 5299 of 100000 operations"); "" for a complete one.
	Interrupted string `json:"interrupted,omitempty"`
	// Schedule is the run's pacing under -target; nil without one.
	Schedule *Schedule `json:"schedule,omitempty"`
}

// Schedule is a paced run's schedule, the [SCHEDULE] rows' figures: its
// target, how far behind it the operations started (µs), and the paced
// starts split in two, the wake-ups (how late the workers woke for the
// operations they had time to wait for: the client's own timing) and the
// late starts (those started behind their due time, which the lags
// measure).
type Schedule struct {
	TargetOpsSec int64   `json:"target_ops_sec"`
	MeanLagUs    float64 `json:"mean_lag_us"`
	MaxLagUs     int64   `json:"max_lag_us"`
	FinalLagUs   int64   `json:"final_lag_us"`
	// StartsKnown is false for a report that does not say how its paced
	// operations started (jsonreport.Report.PacedStartsKnown): its
	// wake-ups and late starts are unknown, not none.
	StartsKnown bool                     `json:"starts_known"`
	Wake        *jsonreport.StartFigures `json:"wake,omitempty"` // nil: none
	LateStarts  int64                    `json:"late_starts"`
	// WakeLateShare is the client verdict's: the wake-ups' lateness as a
	// share of the intended latency; absent without one (merged reports).
	WakeLateShare *float64 `json:"wake_late_share,omitempty"`
}

// Summary is one measurement's totals.
type Summary struct {
	Name   string  `json:"name"`
	Count  int64   `json:"count"`
	MeanUs float64 `json:"mean_us"`
	P50    int64   `json:"p50"`
	P95    int64   `json:"p95"`
	P99    int64   `json:"p99"`
	P999   int64   `json:"p999"`
	MaxUs  int64   `json:"max_us"`
	Errors int64   `json:"errors"` // returns other than OK
	// Retries is how many times the binding ran the operations again
	// (serialization failures of transactions).
	Retries int64 `json:"retries"`
}

// Setting is one property across the runs ("" where a run lacks it).
type Setting struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Differ bool     `json:"differ"`
}

// EngineStat is one [ENGINE] row across the runs.
type EngineStat struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// engineStats gathers the runs' [ENGINE] rows: names in first-seen order.
func engineStats(inputs []Input) []EngineStat {
	var out []EngineStat
	at := map[string]int{}
	for i, in := range inputs {
		for _, r := range in.Report.Sections {
			if r.Metric != "ENGINE" {
				continue
			}
			j, ok := at[r.Name]
			if !ok {
				j = len(out)
				at[r.Name] = j
				out = append(out, EngineStat{Name: r.Name, Values: make([]string, len(inputs))})
			}
			out[j].Values[i] = r.Value.String()
		}
	}
	return out
}

// SpectrumPercentiles are the points of the spectrum: 1-10^(-k/10) for k
// up to 60 (99.9999%), the HdrHistogram plotter's log-scaled x axis, as far
// as count samples resolve them.
func SpectrumPercentiles(count int64) []float64 {
	var ps []float64
	for k := 0; k <= 60; k++ {
		tail := math.Pow(10, -float64(k)/10)
		// Past the last sample the curve is flat: stop there.
		if k > 0 && tail*float64(count) < 0.5 {
			break
		}
		ps = append(ps, 100*(1-tail))
	}
	return ps
}

// Build computes the page data from the reports.
func Build(title string, inputs []Input, now time.Time) (*Data, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no reports")
	}
	d := &Data{Title: title, Generated: now.UTC().Format(time.RFC3339)}
	if err := checkKinds(inputs); err != nil {
		return nil, err
	}
	if isCapacity(inputs[0].Report) {
		buildCapacity(d, inputs)
		return d, nil
	}
	rank := map[string]int{} // by measurement name, of those in d.Operations
	for _, in := range inputs {
		r := in.Report
		run := Run{
			Name: in.Name, Binding: r.Binding, Phase: r.Phase, Start: r.Start.UTC().Format(time.RFC3339),
			RunTimeMs: r.RunTimeMs, WarmupMs: r.WarmupMs, Operations: r.Operations, Throughput: r.Throughput,
			Clients: r.Clients, OpsSeries: [][2]float64{}, LatencySeries: map[string]map[string][][2]float64{},
			Spectrum: map[string][][2]float64{}, Summary: []Summary{}, Group: in.Group, Series: in.Series,
		}
		if cv := r.ClientVerdict; cv != nil {
			run.Verdict = strings.Join(cv.Verdicts, ", ")
		}
		if in.Group != "" && !slices.Contains(d.Groups, in.Group) {
			d.Groups = append(d.Groups, in.Group)
		}
		if in.Series != "" && !slices.Contains(d.Series, in.Series) {
			d.Series = append(d.Series, in.Series)
		}
		intervalSeries(&run, r.Intervals)
		var samples []slo.Sample
		own := r.OwnRMW()
		for _, m := range r.Measurements {
			if m.Count == 0 || m.Histogram == "" {
				continue
			}
			h, err := jsonreport.DecodeHistogram(m.Histogram)
			if err != nil {
				return nil, fmt.Errorf("%s: measurement %s: %w", in.Name, m.Name, err)
			}
			samples = append(samples, slo.Sample{Operation: operation(&m), Intended: m.Intended, LeftOut: slo.LeftOut(operation(&m), own), Hist: h})
			st := measurement.StatsOf(h)
			var sp [][2]float64
			for _, p := range SpectrumPercentiles(st.Count) {
				sp = append(sp, [2]float64{p, float64(st.Percentile(p))})
			}
			run.Spectrum[m.Name] = sp
			s := Summary{Name: m.Name, Count: st.Count, MeanUs: round(st.Mean), P50: st.Percentile(50), P95: st.Percentile(95),
				P99: st.Percentile(99), P999: st.Percentile(99.9), MaxUs: st.Max, Retries: m.Retries}
			for _, rc := range m.Returns {
				if rc.Status != "OK" {
					s.Errors += rc.Count
				}
			}
			run.Summary = append(run.Summary, s)
			if _, ok := rank[m.Name]; !ok && m.Name != "CLEANUP" {
				rank[m.Name] = opRank(&m)
				d.Operations = append(d.Operations, m.Name)
			}
		}
		run.Validation = r.Validation
		if r.Interrupted != nil {
			run.Interrupted = r.Interrupted.String()
		}
		var err error
		if run.Schedule, err = schedule(r); err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		if r.SLO != nil {
			run.SLO = r.SLO
			if err := sloSpectra(&run, samples); err != nil {
				return nil, fmt.Errorf("%s: %w", in.Name, err)
			}
		}
		d.Runs = append(d.Runs, run)
	}
	d.Thresholds = thresholds(inputs, d)
	// Plain operations first, then failures and intended latency.
	sort.SliceStable(d.Operations, func(i, j int) bool { return rank[d.Operations[i]] < rank[d.Operations[j]] })
	d.Settings = settings(inputs)
	d.Engine = engineStats(inputs)
	return d, nil
}

// intervalSeries adds the intervals' throughput and latency over time to
// run's series.
func intervalSeries(run *Run, intervals []jsonreport.Interval) {
	for _, iv := range intervals {
		secs := float64(iv.EndMs-iv.StartMs) / 1000
		if secs <= 0 {
			continue
		}
		t := float64(iv.EndMs) / 1000
		run.OpsSeries = append(run.OpsSeries, [2]float64{t, round(float64(iv.Ops) / secs)})
		for name, l := range iv.Latency {
			if l.Count == 0 {
				continue
			}
			ls := run.LatencySeries[name]
			if ls == nil {
				ls = map[string][][2]float64{}
				run.LatencySeries[name] = ls
			}
			for k, v := range l.Percentiles {
				ls[k] = append(ls[k], [2]float64{t, float64(v)})
			}
			ls["max"] = append(ls["max"], [2]float64{t, float64(l.MaxUs)})
			ls["mean"] = append(ls["mean"], [2]float64{t, round(l.MeanUs)})
		}
	}
}

// schedule is r's Schedule for the page, the wake-ups' figures computed
// from their histogram as the summary's are; nil without a target.
func schedule(r *jsonreport.Report) (*Schedule, error) {
	js := r.Schedule
	if js == nil {
		return nil, nil
	}
	s := &Schedule{TargetOpsSec: js.TargetOpsSec, MeanLagUs: js.MeanLagUs, MaxLagUs: js.MaxLagUs, FinalLagUs: js.FinalLagUs,
		StartsKnown: r.PacedStartsKnown()}
	if cv := r.ClientVerdict; cv != nil {
		s.WakeLateShare = cv.WakeLateShare
	}
	if js.Behind != nil {
		s.LateStarts = js.Behind.Count
	}
	if js.Wake == nil || js.Wake.Count == 0 {
		return s, nil
	}
	h, err := jsonreport.DecodeHistogram(js.Wake.Histogram)
	if err != nil {
		return nil, fmt.Errorf("schedule.wake: %w", err)
	}
	wake := jsonreport.StartFiguresOf(measurement.StatsOf(h))
	wake.MeanUs = round(wake.MeanUs)
	s.Wake = &wake
	return s, nil
}

// opRank is 0 for an operation's own measurement, 1 for its failures
// (READ-FAILED, q01-ERROR), 2 for intended latency. The name is the
// run's own (a user profile's ops(...) may have a hyphen in it): only a
// report that does not say its operation is read by the name.
func opRank(m *jsonreport.Measurement) int {
	switch {
	case m.Intended || strings.HasPrefix(m.Name, "Intended-"):
		return 2
	case m.Operation != "" && m.Name != m.Operation:
		return 1
	case m.Operation == "" && strings.Contains(m.Name, "-") && m.Name != "READ-MODIFY-WRITE" && m.Name != "SCAN-LATENCY-PER-RECORD":
		return 1
	}
	return 0
}

// operation is the operation a measurement times: READ for READ,
// READ-FAILED and Intended-READ; a report that does not say is read by
// the name.
func operation(m *jsonreport.Measurement) string {
	if m.Operation != "" {
		return m.Operation
	}
	name := strings.TrimPrefix(m.Name, "Intended-")
	if opRank(m) == 1 {
		if i := strings.LastIndex(name, "-"); i > 0 {
			name = name[:i]
		}
	}
	return name
}

// spectrumKey is the SLOSpectrum key of an objective's operation.
func spectrumKey(op string) string {
	if op == slo.All {
		return op
	}
	return strings.ToLower(op)
}

// sloSpectra fills run.SLOSpectrum for the operations the run's latency
// objectives bound, from slo.Figures: the histograms the verdict reads.
func sloSpectra(run *Run, samples []slo.Sample) error {
	lat := slo.Service
	if run.SLO.Latency == slo.Intended.String() {
		lat = slo.Intended
	}
	f, err := slo.NewFigures(samples, lat, 0, 0, false, 0)
	if err != nil {
		return err
	}
	useIntended := false
	for _, s := range samples {
		useIntended = useIntended || (lat == slo.Intended && s.Intended)
	}
	for _, o := range run.SLO.Objectives {
		if o.Unit != "us" || o.Statistic == "mean" {
			continue
		}
		key := spectrumKey(o.Operation)
		if _, done := run.SLOSpectrum[key]; done {
			continue
		}
		name, count := "", int64(0)
		for _, s := range samples {
			if s.Intended != useIntended {
				continue
			}
			if key == slo.All && !s.LeftOut || strings.EqualFold(s.Operation, o.Operation) {
				count += s.Hist.TotalCount()
				name = s.Operation
			}
		}
		if count == 0 {
			continue
		}
		if key == slo.All {
			name = slo.All
		}
		var sp [][2]float64
		for _, p := range SpectrumPercentiles(count) {
			v, _ := f.Percentile(name, p)
			sp = append(sp, [2]float64{p, v})
		}
		if run.SLOSpectrum == nil {
			run.SLOSpectrum = map[string][][2]float64{}
		}
		run.SLOSpectrum[key] = sp
	}
	return nil
}

// thresholds gathers the runs' objectives, one per objective text, with
// the charts each is drawn on.
func thresholds(inputs []Input, d *Data) []Threshold {
	out := []Threshold{}
	index := map[string]int{}
	for ri, in := range inputs {
		s := in.Report.SLO
		if s == nil {
			continue
		}
		for _, o := range s.Objectives {
			i, ok := index[o.Objective]
			if !ok {
				i = len(out)
				index[o.Objective] = i
				out = append(out, newThreshold(&o, s.Latency, in.Report, d))
			}
			out[i].Verdicts = append(out[i].Verdicts, Verdict{Run: ri, Verdict: o.Verdict, Measured: o.Measured, Why: o.Why})
		}
	}
	return out
}

func newThreshold(o *slo.SLOObjective, latency string, r *jsonreport.Report, d *Data) Threshold {
	t := Threshold{Objective: o.Objective, Operation: o.Operation, Statistic: o.Statistic, Comparison: o.Comparison,
		Limit: o.Limit, Unit: o.Unit, Verdicts: []Verdict{}}
	if o.Unit != "us" {
		return t
	}
	if o.Statistic != "mean" {
		t.Spectrum = spectrumKey(o.Operation)
		if p, ok := strings.CutPrefix(o.Statistic, "p"); ok {
			t.Percentile, _ = strconv.ParseFloat(p, 64)
		}
	}
	if o.Operation == slo.All {
		return t
	}
	// The chart of the measurement the verdict reads: the operation's, or
	// its intended latency's when the objectives read that and it exists.
	intended := false
	if latency == slo.Intended.String() {
		for _, m := range r.Measurements {
			intended = intended || (m.Intended && m.Count > 0)
		}
	}
	for _, m := range r.Measurements {
		if m.Intended == intended && opRank(&m) != 1 && strings.EqualFold(operation(&m), o.Operation) && slices.Contains(d.Operations, m.Name) {
			t.Chart = m.Name
		}
	}
	if t.Chart != "" {
		for _, run := range d.Runs {
			if _, ok := run.LatencySeries[t.Chart][o.Statistic]; ok {
				t.Series = o.Statistic
			}
		}
	}
	return t
}

func round(v float64) float64 { return math.Round(v*100) / 100 }

func settings(inputs []Input) []Setting {
	keys := map[string]bool{}
	for _, in := range inputs {
		for k := range in.Report.Settings {
			keys[k] = true
		}
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make([]Setting, 0, len(names))
	for _, k := range names {
		s := Setting{Name: k}
		for _, in := range inputs {
			// Masked again: the report may predate a name counting as secret.
			s.Values = append(s.Values, secret.Value(k, in.Report.Settings[k]))
		}
		for _, v := range s.Values[1:] {
			if v != s.Values[0] {
				s.Differ = true
			}
		}
		out = append(out, s)
	}
	return out
}

// Names gives each input a distinct chart name: its label if given, else
// "<binding> <phase>", with the file name added where two would clash.
func Names(labels, files []string, reps []*jsonreport.Report) []string {
	names := make([]string, len(reps))
	count := map[string]int{}
	for i, r := range reps {
		if labels[i] != "" {
			names[i] = labels[i]
		} else {
			names[i] = r.Binding + " " + r.Phase
		}
		count[names[i]]++
	}
	for i := range names {
		if count[names[i]] > 1 && labels[i] == "" {
			names[i] += " (" + files[i] + ")"
		}
	}
	return names
}

// Write renders the page.
func Write(w io.Writer, d *Data) error { return write(w, d, nil) }

// WriteWithInputs renders the page with its inputs' reports embedded (a
// JSON script block), so that ReadInputs can take them back and a later
// page can add a run to them (ycsb stress -graph).
func WriteWithInputs(w io.Writer, d *Data, inputs []Input) error {
	return write(w, d, &embedded{Title: d.Title, Inputs: inputs})
}

// embedded is the inputs block of a page: the title and every report.
type embedded struct {
	Title  string  `json:"title"`
	Inputs []Input `json:"inputs"`
}

const inputsOpen = `<script type="application/json" id="ycsb-inputs">`

func write(w io.Writer, d *Data, in *embedded) error {
	js, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("htmlreport: %w", err)
	}
	var inputs []byte
	if in != nil {
		// json.Marshal escapes <, > and &: no "</script>" can appear.
		if inputs, err = json.Marshal(in); err != nil {
			return fmt.Errorf("htmlreport: %w", err)
		}
	}
	return page.Execute(w, struct {
		Title  string
		CSS    template.CSS
		JS     template.JS
		Data   template.JS
		Inputs template.JS
	}{d.Title, template.CSS(pageCSS), template.JS(chartJS), template.JS(js), template.JS(inputs)})
}

// ReadInputs returns the title and the inputs embedded in a page that
// WriteWithInputs wrote.
func ReadInputs(page []byte) (title string, inputs []Input, err error) {
	_, rest, ok := strings.Cut(string(page), inputsOpen)
	if !ok {
		return "", nil, fmt.Errorf("htmlreport: the page has no embedded reports (not written by ycsb stress -graph)")
	}
	body, _, ok := strings.Cut(rest, "</script>")
	if !ok {
		return "", nil, fmt.Errorf("htmlreport: the embedded reports are cut short")
	}
	var in embedded
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		return "", nil, fmt.Errorf("htmlreport: the embedded reports: %w", err)
	}
	return in.Title, in.Inputs, nil
}
