// Package merge combines and compares finished runs: ycsb merge adds up
// the JSON reports (or HdrHistogram logs) of several client processes, and
// ycsb compare sets two reports side by side with a significance test
// (its regression gates, -gate, are package report/gate).
package merge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// InputError is a file that cannot be used: it is reported in one line and
// the command exits with code 2.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErr(path string, format string, args ...any) error {
	return &InputError{Path: path, Err: fmt.Errorf(format, args...)}
}

// ReadReport reads and checks one JSON report, without a context to end the
// wait for a named pipe's writer: ReadReportContext is the one commands use.
func ReadReport(path string) (*jsonreport.Report, error) {
	return ReadReportContext(context.Background(), path)
}

// ReadReportContext reads and checks one JSON report: a regular file or a
// pipe of at most infile.MaxReport bytes, read until ctx ends.
func ReadReportContext(ctx context.Context, path string) (*jsonreport.Report, error) {
	data, err := infile.Read(ctx, path, infile.MaxReport)
	if err != nil {
		return nil, err
	}
	r, err := jsonreport.Read(data)
	if err != nil {
		return nil, &InputError{Path: path, Err: err}
	}
	return r, nil
}

// workloadKeys are the properties that make two runs the same experiment.
// Client-specific ones (insertstart, insertcount, threads, target, output
// files) may differ between the processes being merged.
var workloadKeys = []string{
	"workload", "recordcount", "fieldcount", "fieldlength", "minfieldlength", "fieldlengthdistribution",
	"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion",
	"requestdistribution", "minscanlength", "maxscanlength", "scanlengthdistribution", "insertorder",
	"readallfields", "writeallfields", "table", "zeropadding", "dataintegrity", "hotspotdatafraction",
	"hotspotopnfraction", "measurement.interval",
}

// sameExperiment returns an error naming the first difference between two
// reports that must not be merged.
func sameExperiment(a, b *jsonreport.Report) error {
	if a.Binding != b.Binding {
		return fmt.Errorf("binding %s, but the first report has %s: reports of different bindings cannot be merged", shown.Quote(b.Binding), shown.Quote(a.Binding))
	}
	if a.Phase != b.Phase {
		return fmt.Errorf("a %s phase, but the first report is a %s phase", b.Phase, a.Phase) // both checked by Read
	}
	for _, k := range workloadKeys {
		va, vb := a.Settings[k], b.Settings[k]
		if va != vb {
			return fmt.Errorf("workload differs from the first report: %s=%s there, %s here", k, shown.Quote(va), shown.Quote(vb))
		}
	}
	return nil
}

// Merge combines the reports of client processes that ran the same
// workload at the same time: operations and Return counts add up,
// histograms are merged (so percentiles are exact up to HdrHistogram's
// precision, never averaged), and throughput is the sum of the clients'
// operations within the window all of them were running, divided by that
// window. Clients started by a rendezvous are first put on one clock
// (OnRendezvousClock). The text rows end with a [CLIENT-<i>] section per
// input. See Distinct for inputs that are one client twice, and Warnings
// for what makes a merge doubtful.
func Merge(paths []string, reps []*jsonreport.Report) (*jsonreport.Report, error) {
	if len(reps) == 0 {
		return nil, errors.New("nothing to merge")
	}
	reps = OnRendezvousClock(reps)
	first := reps[0]
	for i, r := range reps[1:] {
		if err := sameExperiment(first, r); err != nil {
			return nil, &InputError{Path: paths[i+1], Err: err}
		}
	}
	out := mergedHeader(first)
	winStart, winEnd, err := addClients(out, paths, reps)
	if err != nil {
		return nil, err
	}
	if !winEnd.After(winStart) {
		return nil, errors.New("the reports do not overlap in time, so there is no common window to sum throughput over (merge runs that ran at the same time)")
	}
	out.RunTimeMs = out.End.Sub(out.Start).Milliseconds()
	var inWindow float64
	for _, r := range reps {
		inWindow += opsWithin(r, winStart, winEnd)
	}
	out.Throughput = inWindow / winEnd.Sub(winStart).Seconds()
	if ivs, ok := alignedIntervals(reps, out.Start); ok {
		out.Intervals = ivs
	} else {
		out.Intervals = mergeIntervals(reps, out.Start)
	}
	ms, hists, err := mergeMeasurements(paths, reps)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		if err := fill(&ms[i], hists[ms[i].Name], out.Percentiles); err != nil {
			return nil, err
		}
	}
	out.Measurements = ms
	out.Failed = sumFailed(reps)
	for _, r := range reps {
		out.UnknownOutcome += r.UnknownOutcome
	}
	validation, err := mergeValidation(paths, reps)
	if err != nil {
		return nil, err
	}
	out.Validation = (*jsonreport.Validation)(validation)
	sched, err := mergeSchedule(paths, reps)
	if err != nil {
		return nil, err
	}
	out.Interrupted = mergeInterrupted(reps)
	out.Sections = jsonreport.MarkInterrupted(textRows(out, hists), out.Interrupted)
	if sched != nil {
		out.Schedule = sched.json
		out.Sections = append(out.Sections, sched.rows()...)
	}
	if validation != nil {
		out.Sections = append(out.Sections, validation.Rows()...)
	}
	out.Sections = append(out.Sections, clientRows(out, reps)...)
	return out, nil
}

// sumFailed is the clients' failed operations; nil when a report has no
// count of them.
func sumFailed(reps []*jsonreport.Report) *int64 {
	var n int64
	for _, r := range reps {
		if r.Failed == nil {
			return nil
		}
		n += *r.Failed
	}
	return &n
}

// mergedHeader is the merged report before the clients are added: the
// first report's tool, binding, phase, percentiles, times and workload.
func mergedHeader(first *jsonreport.Report) *jsonreport.Report {
	out := &jsonreport.Report{
		Format:          jsonreport.Format,
		Version:         jsonreport.Version,
		Tool:            first.Tool,
		Binding:         first.Binding,
		Phase:           first.Phase,
		MeasurementType: string(measurement.HdrHistogram),
		Percentiles:     first.Percentiles,
		Settings:        map[string]string{},
		Start:           first.Start,
		End:             first.End,
	}
	for _, k := range workloadKeys {
		if v, ok := first.Settings[k]; ok {
			out.Settings[k] = v
		}
	}
	return out
}

// addClients adds up the clients, their sources, seeds and operations into
// out and widens its times to cover them all; it returns the common
// window, when every client was running.
func addClients(out *jsonreport.Report, paths []string, reps []*jsonreport.Report) (winStart, winEnd time.Time, err error) {
	winStart, winEnd = reps[0].Start, reps[0].End
	for i, r := range reps {
		if r.Operations > math.MaxInt64-out.Operations {
			return winStart, winEnd, inputErr(paths[i], "operations: %d more than can be added up", r.Operations)
		}
		out.Clients += r.Clients
		out.Sources = append(out.Sources, r.Sources...)
		out.ClientSeeds = append(out.ClientSeeds, r.ClientSeeds...)
		if r.Seed != 0 {
			out.ClientSeeds = append(out.ClientSeeds, strconv.FormatUint(r.Seed, 10))
		}
		out.Operations += r.Operations
		if r.Start.Before(out.Start) {
			out.Start = r.Start
		}
		if r.End.After(out.End) {
			out.End = r.End
		}
		if r.Start.After(winStart) {
			winStart = r.Start
		}
		if r.End.Before(winEnd) {
			winEnd = r.End
		}
	}
	for _, p := range paths {
		out.Sources = append(out.Sources, filepath.Base(p))
	}
	return winStart, winEnd, nil
}

// mergeMeasurements adds up the measurements of reps by name, in the order
// they first appear: their Return counts, and their histograms into hists.
func mergeMeasurements(paths []string, reps []*jsonreport.Report) ([]jsonreport.Measurement, map[string]*hdrhistogram.Histogram, error) {
	hists := map[string]*hdrhistogram.Histogram{}
	var out []jsonreport.Measurement
	index := map[string]int{}
	for i, r := range reps {
		for _, m := range r.Measurements {
			j, ok := index[m.Name]
			if !ok {
				j = len(out)
				index[m.Name] = j
				out = append(out, jsonreport.Measurement{Name: m.Name, Operation: m.Operation, Intended: m.Intended})
			}
			if err := addReturns(&out[j], m.Returns, paths[i]); err != nil {
				return nil, nil, err
			}
			if m.Retries < 0 || m.Retries > math.MaxInt64-out[j].Retries {
				return nil, nil, inputErr(paths[i], "measurement %s: retries %d: negative or more than can be added up", m.Name, m.Retries)
			}
			out[j].Retries += m.Retries
			if m.Histogram == "" {
				continue
			}
			h, err := jsonreport.DecodeHistogram(m.Histogram)
			if err != nil {
				return nil, nil, inputErr(paths[i], "measurement %s: %v", m.Name, err)
			}
			if err := addHist(hists, m.Name, h); err != nil {
				return nil, nil, inputErr(paths[i], "measurement %s: %v", m.Name, err)
			}
		}
	}
	return out, hists, nil
}

// addReturns adds the Return counts rcs, read from path, to agg's.
func addReturns(agg *jsonreport.Measurement, rcs []jsonreport.Return, path string) error {
	for _, rc := range rcs {
		if _, ok := db.ParseStatus(rc.Status); !ok {
			return inputErr(path, "measurement %s: unknown status %s", agg.Name, rc.Status)
		}
		j := slices.IndexFunc(agg.Returns, func(x jsonreport.Return) bool { return x.Status == rc.Status })
		switch {
		case j < 0:
			agg.Returns = append(agg.Returns, rc)
		case rc.Count > math.MaxInt64-agg.Returns[j].Count:
			return inputErr(path, "measurement %s: Return=%s: %d more than can be added up", agg.Name, rc.Status, rc.Count)
		default:
			agg.Returns[j].Count += rc.Count
		}
	}
	return nil
}

// addHist merges h into hists[name], widening the range when the inputs
// were recorded with different hdrhistogram.highestlatency.
func addHist(hists map[string]*hdrhistogram.Histogram, name string, h *hdrhistogram.Histogram) error {
	cur := hists[name]
	if cur == nil {
		hists[name] = h
		return nil
	}
	if h.HighestTrackableValue() > cur.HighestTrackableValue() {
		cur, h = h, cur
		hists[name] = cur
	}
	if dropped := cur.Merge(h); dropped != 0 {
		return fmt.Errorf("%d values did not fit the merged histogram", dropped)
	}
	return nil
}

// fill sets m's figures from h.
func fill(m *jsonreport.Measurement, h *hdrhistogram.Histogram, percentiles []float64) error {
	if h == nil || h.TotalCount() == 0 {
		m.MinUs, m.MaxUs = 0, 0
		return nil
	}
	st := measurement.StatsOf(h)
	m.Count, m.MeanUs, m.MinUs, m.MaxUs = st.Count, st.Mean, st.Min, st.Max
	m.Percentiles = map[string]int64{}
	for _, p := range append([]float64{50, 90, 95, 99, 99.9, 99.99, 100}, percentiles...) {
		m.Percentiles[jsonreport.PercentileKey(p)] = st.Percentile(p)
	}
	enc, err := jsonreport.EncodeHistogram(h)
	if err != nil {
		return fmt.Errorf("encode %s: %w", m.Name, err)
	}
	m.Histogram = enc
	return nil
}

// opsWithin estimates r's operations between from and to from its
// intervals, assuming a constant rate within each interval.
func opsWithin(r *jsonreport.Report, from, to time.Time) float64 {
	if len(r.Intervals) == 0 {
		// No samples: spread the total evenly over the run.
		return float64(r.Operations) * overlap(r.Start, r.End, from, to)
	}
	var n float64
	for _, iv := range r.Intervals {
		s := r.Start.Add(time.Duration(iv.StartMs) * time.Millisecond)
		e := r.Start.Add(time.Duration(iv.EndMs) * time.Millisecond)
		n += float64(iv.Ops) * overlap(s, e, from, to)
	}
	return n
}

// overlap is the fraction of [s, e) that lies within [from, to).
func overlap(s, e, from, to time.Time) float64 {
	if !e.After(s) {
		if !s.Before(from) && s.Before(to) {
			return 1
		}
		return 0
	}
	lo, hi := s, e
	if from.After(lo) {
		lo = from
	}
	if to.Before(hi) {
		hi = to
	}
	if !hi.After(lo) {
		return 0
	}
	return float64(hi.Sub(lo)) / float64(e.Sub(s))
}

// maxBuckets bounds the merged intervals: a second each for runs up to
// about 12 days, whole seconds each beyond, so that a report claiming a
// run of years merges into a bounded report.
const maxBuckets = 1 << 20

// mergeIntervals sums the clients' intervals on a common grid from start,
// one second wide (wider for a very long run, maxBuckets), assuming a
// constant rate within each interval, so that a merged report can itself
// be compared. jsonreport.Read has bounded the intervals' total length by
// the run's, so the work is that of the buckets and the intervals.
func mergeIntervals(reps []*jsonreport.Report, start time.Time) []jsonreport.Interval {
	var extent time.Duration
	for _, r := range reps {
		for _, iv := range r.Intervals {
			extent = max(extent, r.Start.Add(time.Duration(iv.EndMs)*time.Millisecond).Sub(start))
		}
	}
	width := time.Second
	if n := extent / time.Second; n > maxBuckets {
		width = (n/maxBuckets + 1) * time.Second
	}
	var out []jsonreport.Interval
	bucket := func(b int) *jsonreport.Interval {
		for len(out) <= b {
			k := int64(len(out))
			w := width.Milliseconds()
			out = append(out, jsonreport.Interval{StartMs: k * w, EndMs: (k + 1) * w, ByOp: map[string]int64{}})
		}
		return &out[b]
	}
	for _, r := range reps {
		for _, iv := range r.Intervals {
			s := r.Start.Add(time.Duration(iv.StartMs) * time.Millisecond)
			e := r.Start.Add(time.Duration(iv.EndMs) * time.Millisecond)
			first := max(0, int(s.Sub(start)/width))
			last := max(first, int((e.Sub(start)-1)/width))
			// Each bucket takes the rounded running share less what the
			// buckets before it took, so that the interval's operations
			// are counted once in all, however the shares round.
			var cum float64
			for b := first; b <= last; b++ {
				bs := start.Add(time.Duration(b) * width)
				prev := cum
				if cum += overlap(s, e, bs, bs.Add(width)); first == last || b == last {
					cum = 1
				}
				o := bucket(b)
				o.Ops += share(iv.Ops, prev, cum)
				for op, n := range iv.ByOp {
					o.ByOp[op] += share(n, prev, cum)
				}
			}
		}
	}
	return out
}

// share is the part of n between the running fractions from and to (0 to
// 1) of an interval: shares of consecutive fractions add up to n exactly.
func share(n int64, from, to float64) int64 {
	return int64(math.Round(float64(n)*min(to, 1))) - int64(math.Round(float64(n)*min(from, 1)))
}

// textRows renders the merged report as the text exporter's rows, in
// hdrhistogram form; hists are the merged histograms by measurement name.
func textRows(r *jsonreport.Report, hists map[string]*hdrhistogram.Histogram) []export.Row {
	rows := []export.Row{
		{Metric: export.Overall, Name: export.RunTime, Value: export.Int(r.RunTimeMs)},
		{Metric: export.Overall, Name: export.Throughput, Value: export.Float(r.Throughput)},
		{Metric: export.Overall, Name: "Clients", Value: export.Int(int64(r.Clients))},
		{Metric: export.Overall, Name: export.Operations, Value: export.Int(r.Operations)},
	}
	if r.UnknownOutcome > 0 {
		rows = append(rows, export.Row{Metric: export.Overall, Name: export.UnknownOutcome, Value: export.Int(r.UnknownOutcome)})
	}
	return appendSections(rows, r, hists)
}

// appendSections appends a section per measurement of r.
func appendSections(rows []export.Row, r *jsonreport.Report, hists map[string]*hdrhistogram.Histogram) []export.Row {
	for _, m := range r.Measurements {
		st := measurement.StatsOf(hists[m.Name])
		rows = measurement.AppendHdrSection(rows, m.Name, &st, r.Percentiles, statusCounts(m.Returns))
		rows = measurement.AppendRetries(rows, m.Name, m.Retries)
	}
	return rows
}

// statusCounts returns a report's Return counts in the reference's order.
// Merge has checked that every status is known.
func statusCounts(rs []jsonreport.Return) []measurement.StatusCount {
	if len(rs) == 0 {
		return nil
	}
	out := make([]measurement.StatusCount, len(rs))
	for i, r := range rs {
		out[i].Status, _ = db.ParseStatus(r.Status)
		out[i].Count = r.Count
	}
	measurement.SortReturns(out)
	return out
}

// HdrLog is one HdrHistogram interval log, summed over its intervals.
type HdrLog struct {
	Name string // from the "#[Logging for: NAME]" comment, else the file name
	Hist *hdrhistogram.Histogram
}

var loggingFor = regexp.MustCompile(`(?m)^#\[Logging for: ([^\]]+)\]`)

// ReadHdrLog reads an HdrHistogram interval log, a regular file or a pipe
// of at most infile.MaxReport bytes read until ctx ends, and adds up its
// intervals.
func ReadHdrLog(ctx context.Context, path string) (*HdrLog, error) {
	data, err := infile.Read(ctx, path, infile.MaxReport)
	if err != nil {
		return nil, err
	}
	return parseHdrLog(path, data)
}

// parseHdrLog is ReadHdrLog of the log's content, data. Every line is an
// interval or a comment: the library's reader skips a line it cannot
// match, and reads "-5.0" as 5, so the lines are read here. The decoder
// refuses negative counts and totals beyond an int64 (FuzzParseHdrLog).
func parseHdrLog(path string, data []byte) (*HdrLog, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if m := loggingFor.FindSubmatch(data); m != nil {
		name = string(m[1])
	}
	if !bytes.Contains(data, []byte("Histogram log format version")) && !bytes.Contains(data, []byte("HIST")) {
		return nil, inputErr(path, "not an HdrHistogram log")
	}
	var total *hdrhistogram.Histogram
	n := 0
	last := map[string]hdrLine{} // each tag's interval before
	for i, text := range strings.Split(string(data), "\n") {
		line, err := hdrInterval(strings.TrimRight(text, "\r"))
		if err == nil && line.h != nil {
			if prev, ok := last[line.tag]; ok && line.start < prev.start {
				err = fmt.Errorf("StartTimestamp %s is before the interval before it (%s): the intervals are out of order", line.startText, prev.startText)
			}
			last[line.tag] = line
		}
		if err != nil {
			return nil, inputErr(path, "corrupt HdrHistogram log: line %d: %v", i+1, err)
		}
		h := line.h
		if h == nil {
			continue
		}
		n++
		if total == nil {
			total = h
			continue
		}
		if total.HighestTrackableValue() < h.HighestTrackableValue() {
			total, h = h, total
		}
		if dropped := total.Merge(h); dropped != 0 {
			return nil, inputErr(path, "line %d: %d values out of range", i+1, dropped)
		}
	}
	if n == 0 {
		return nil, inputErr(path, "no interval histograms (truncated or not an HdrHistogram log)")
	}
	return &HdrLog{Name: name, Hist: total}, nil
}

// hdrColumns are an interval line's columns (HdrHistogram's log format).
var hdrColumns = []string{"StartTimestamp", "Interval_Length", "Interval_Max", "Interval_Compressed_Histogram"}

// logSeconds is a time or a maximum as the log writes them: "12.345".
var logSeconds = regexp.MustCompile(`^[0-9]*\.?[0-9]*$`)

// maxLogSeconds bounds a log's times, in seconds: its header's since the
// epoch (the year 2286) and its intervals' since its base time.
const maxLogSeconds = 1e10

// logTime is a header's time: "#[StartTime: 1796614304.000 (seconds since
// epoch), ...]" and "#[BaseTime: ...]", which the library's reader reads
// with ParseFloat (NaN, any size).
var logTime = regexp.MustCompile(`^#\[(StartTime|BaseTime): (\S*)`)

// hdrLine is one line of a log: an interval's histogram, its tag and its
// start; no histogram for a comment, the legend or a blank line.
type hdrLine struct {
	h         *hdrhistogram.Histogram
	tag       string
	start     float64
	startText string
}

// hdrInterval reads one line of a log, and checks a header's times.
func hdrInterval(line string) (hdrLine, error) {
	if m := logTime.FindStringSubmatch(line); m != nil {
		if v, err := strconv.ParseFloat(m[2], 64); err != nil || !logSeconds.MatchString(m[2]) || v > maxLogSeconds {
			return hdrLine{}, fmt.Errorf("%s %s is not a time in seconds since the epoch (from 0 to %.0f)", m[1], shown.Quote(m[2]), maxLogSeconds)
		}
	}
	if strings.TrimSpace(line) == "" || line[0] == '#' || line[0] == '"' {
		return hdrLine{}, nil
	}
	var out hdrLine
	if rest, ok := strings.CutPrefix(line, "Tag="); ok {
		if out.tag, line, ok = strings.Cut(rest, ","); !ok {
			return hdrLine{}, errors.New("a tag without an interval")
		}
	}
	fields := strings.SplitN(line, ",", len(hdrColumns))
	if len(fields) != len(hdrColumns) {
		return hdrLine{}, fmt.Errorf("not an interval (%s)", strings.Join(hdrColumns, ","))
	}
	for k, f := range fields[:3] {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !logSeconds.MatchString(f) {
			return hdrLine{}, fmt.Errorf("%s %s is not a number of 0 or more", hdrColumns[k], shown.Quote(f))
		}
		if v > maxLogSeconds {
			return hdrLine{}, fmt.Errorf("%s %s is more than %.0f seconds", hdrColumns[k], f, maxLogSeconds)
		}
		if k == 0 {
			out.start, out.startText = v, f
		}
	}
	h, err := hdrhistogram.Decode([]byte(strings.TrimSpace(fields[3])))
	if err != nil {
		return hdrLine{}, fmt.Errorf("%s: %v", hdrColumns[3], err)
	}
	out.h = h
	return out, nil
}

// MergeHdrLogs merges logs by measurement name into a report that has
// measurements only (the logs carry no run times or return codes).
func MergeHdrLogs(paths []string, logs []*HdrLog, percentiles []float64) (*jsonreport.Report, error) {
	out := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, MeasurementType: string(measurement.HdrHistogram), Percentiles: percentiles}
	hists := map[string]*hdrhistogram.Histogram{}
	var order []string
	for i, l := range logs {
		if hists[l.Name] == nil {
			order = append(order, l.Name)
		}
		if err := addHist(hists, l.Name, l.Hist); err != nil {
			return nil, inputErr(paths[i], "%v", err)
		}
		out.Sources = append(out.Sources, filepath.Base(paths[i]))
	}
	out.Clients = len(logs)
	for _, name := range order {
		m := jsonreport.Measurement{Name: name, Operation: strings.TrimPrefix(name, "Intended-"), Intended: strings.HasPrefix(name, "Intended-")}
		if err := fill(&m, hists[name], percentiles); err != nil {
			return nil, err
		}
		out.Measurements = append(out.Measurements, m)
	}
	out.Sections = appendSections(nil, out, hists)
	return out, nil
}
