// Package jsonreport is the JSON report of one run (or of several merged runs):
// a complete, self-describing record that ycsb merge, ycsb compare and
// other tools read. Unlike the reference's exporters it is one valid JSON
// document, and it keeps each measurement's full HdrHistogram (in the
// standard compressed, base64 form), so that runs can be combined without
// averaging percentiles.
package jsonreport

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
)

// Format identifies the document; Version changes when a reader of an older
// version could misread a newer one.
const (
	Format = "ycsb-go-report"
	// 2: interval ops count operations, not database calls; 3: a capacity
	// search's max_ops_sec is what its best passing step served (achieved,
	// at most asked), where version 2 gave that step's asked rate.
	Version = 3
)

// Report is the JSON report. Times are wall-clock; interval offsets are
// milliseconds since Start.
type Report struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Tool    string `json:"tool"`

	Binding         string    `json:"binding"`
	Phase           string    `json:"phase"` // load or run
	MeasurementType string    `json:"measurementtype"`
	Percentiles     []float64 `json:"percentiles"`
	// Settings are all properties in effect, with password-like values
	// masked.
	Settings map[string]string `json:"settings"`
	// Clients is how many client processes the report covers (1 unless
	// merged); Sources names the merged inputs.
	Clients int      `json:"clients"`
	Sources []string `json:"sources,omitempty"`
	// Client is this client's place when the work was split among client
	// processes (client.count, client.index); absent otherwise and in
	// merged reports.
	Client *Client `json:"client,omitempty"`
	// Seed is the base of the workers' random seeds (worker i's adds i
	// times a constant); absent in merged reports.
	Seed uint64 `json:"seed,string,omitempty"`
	// ClientSeeds are the merged clients' seeds, in the order of their
	// reports (decimal strings: a seed needs all 64 bits); only in merged
	// reports, so that a run can be repeated client by client.
	ClientSeeds []string `json:"client_seeds,omitempty"`
	// StartTime is the starttime the client waited for before starting.
	StartTime *time.Time `json:"starttime,omitempty"`

	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	RunTimeMs int64     `json:"runtime_ms"`
	// WarmupMs is how long the warm-up ran before Start (warmup); its
	// operations are in none of the figures.
	WarmupMs   int64   `json:"warmup_ms,omitempty"`
	Operations int64   `json:"operations"`
	Throughput float64 `json:"throughput_ops_sec"`

	// Intervals are the operations completed per interval, overall and by
	// operation name: the samples ycsb compare tests throughput with.
	Intervals []Interval `json:"intervals"`

	Measurements []Measurement `json:"measurements"`
	// Schedule is present when the run had a -target: how far behind its
	// schedule the client fell (coordinated omission made visible).
	Schedule *Schedule `json:"schedule,omitempty"`
	// Failed is how many of Operations failed; absent in reports written
	// before it existed.
	Failed *int64 `json:"failed_operations,omitempty"`
	// UnknownOutcome is, of Failed, the operations that met a write whose
	// outcome is unknown: the connection broke or timed out after the
	// request was sent, or the server could not say (a Cassandra write
	// timeout); the server may have applied it. Absent when there were
	// none.
	UnknownOutcome int64 `json:"unknown_outcome,omitempty"`
	// SLO is the run's service level objectives (slo) with their
	// verdicts; absent without objectives.
	SLO *slo.SLO `json:"slo,omitempty"`
	// Capacity is a capacity search's steps and answer (phase
	// "capacity"); absent otherwise.
	Capacity *Capacity `json:"capacity,omitempty"`
	// ClientVerdict says whether the client kept up with its work (its
	// CPU, its threads against the target, its GC pauses); absent in
	// merged reports and in those written before it existed.
	ClientVerdict *ClientVerdict `json:"client_verdict,omitempty"`
	// Validation is the closed economy's check of its invariant after the
	// run; absent for other workloads.
	Validation *Validation `json:"validation,omitempty"`
	// Interrupted says a signal stopped the run before its planned work
	// was done; absent for a complete run, including one that ended at
	// its maxexecutiontime.
	Interrupted *Interrupted `json:"interrupted,omitempty"`
	// Sections are every line of the text report, in order.
	Sections []export.Row `json:"sections"`
}

// ClientVerdict is whether the client kept up, with the figures it was
// judged on (report.JudgeClient). A figure the platform does not report is
// absent.
type ClientVerdict struct {
	// Verdicts is "KEPT UP" alone, or the limits the client ran into:
	// "THREAD-BOUND", "CPU-BOUND", "STEAL", "GC-PAUSES", "CPU-WAIT",
	// "LATE-WAKEUPS".
	Verdicts []string `json:"verdicts"`
	// Advice is a sentence per limit: what it was and what to change.
	Advice []string `json:"advice,omitempty"`
	// Embedded says the database engine ran in the client's process
	// (pebble, rocksdb): the CPU figures include the engine's work, and
	// a CPU-bound client is the engine on its machine as much as the
	// client.
	Embedded bool `json:"embedded,omitempty"`
	Threads  int  `json:"threads"`
	// Cores is how many cores the client may use (its CPU affinity,
	// cgroup quota and GOMAXPROCS); CPUCores how many it used, and
	// CPUWaitCores how many its threads spent waiting for one.
	Cores        *float64 `json:"cores,omitempty"`
	CPUCores     *float64 `json:"cpu_cores,omitempty"`
	CPUWaitCores *float64 `json:"cpu_wait_cores,omitempty"`
	// StealPct is the machine's CPU time given to other guests (%).
	StealPct   *float64 `json:"steal_pct,omitempty"`
	GCPausePct float64  `json:"gc_pause_pct"`
	// MeanLatencyUs is the mean service latency of the window's
	// operations, failures included.
	MeanLatencyUs *float64 `json:"mean_latency_us,omitempty"`
	// With a target: the target, the most the threads could offer at
	// the mean latency, and how far behind its schedule the client ended.
	TargetOpsSec     int64    `json:"target_ops_sec,omitempty"`
	MaxOfferedOpsSec *float64 `json:"max_offered_ops_sec,omitempty"`
	FinalLagUs       *int64   `json:"final_lag_us,omitempty"`
	// CPUWaitShare is the client's threads' wait for a CPU as a share of
	// the operations' latency; WakeLateShare (with a target) the paced
	// workers' lateness waking as a share of the intended latency
	// (docs/results.md, the client's verdict).
	CPUWaitShare  *float64 `json:"cpu_wait_share,omitempty"`
	WakeLateShare *float64 `json:"wake_late_share,omitempty"`
}

// Capacity is a capacity search (ycsb capacity).
type Capacity struct {
	Steps []CapacityStep `json:"steps"`
	// MaxOpsSec is the answer: the highest rate a step that met the
	// objectives served, its achieved rate at most its asked one
	// (measurement.Served; 0: none met them); FirstFailingOpsSec the lowest
	// rate asked above it that did not (0: none failed).
	MaxOpsSec          float64 `json:"max_ops_sec"`
	AchievedOpsSec     float64 `json:"achieved_ops_sec,omitempty"` // measured by the step of MaxOpsSec
	FirstFailingOpsSec float64 `json:"first_failing_ops_sec,omitempty"`
	// Limit says what ended the search: "system", "client" (the step at
	// FirstFailingOpsSec could not be offered: a lower bound), "steps",
	// "max", "none" (no rate passed) or "interrupted" (Ctrl-C or a failed
	// step ended it: MaxOpsSec is a lower bound); "fleet" in one client's
	// report of a fleet's ladder, which has no answer (ycsb merge finds it).
	Limit    string `json:"limit"`
	LimitWhy string `json:"limit_why,omitempty"`
	// Resolution is the bracket's width the search stops at, as a share
	// of the rate.
	Resolution float64 `json:"resolution"`
	// Untrusted says why the answer is not to be trusted: the steps that
	// decided it ran too few operations to trust their figures; absent
	// when they did (and in reports written before it existed).
	Untrusted string `json:"untrusted,omitempty"`
}

// AnswerStep is the passing step that served MaxOpsSec (the last, when
// more did), nil when there is none.
func (c *Capacity) AnswerStep() *CapacityStep {
	var best *CapacityStep
	for i := range c.Steps {
		s := &c.Steps[i]
		// A version 2 report's answer is the step's asked rate.
		if c.MaxOpsSec > 0 && s.Verdict == StepPassed && (measurement.Served(s.AskedOpsSec, s.AchievedOpsSec) == c.MaxOpsSec || s.AskedOpsSec == c.MaxOpsSec) {
			best = s
		}
	}
	return best
}

// StepPassed is the Verdict of a step that met its objectives (the
// capacity search's Pass, as it writes it).
const StepPassed = "PASS"

// CapacityStep is one step of a search: a run at a target rate, judged.
type CapacityStep struct {
	AskedOpsSec float64 `json:"asked_ops_sec"` // a fleet's step: the fleet's rate
	// ShareOpsSec is, in one client's report of a fleet's ladder, this
	// client's share of AskedOpsSec; absent otherwise.
	ShareOpsSec    float64 `json:"share_ops_sec,omitempty"`
	AchievedOpsSec float64 `json:"achieved_ops_sec"`
	Threads        int     `json:"threads"`
	StartMs        int64   `json:"start_ms"` // since the report's start
	MeasuredMs     int64   `json:"measured_ms"`
	Operations     int64   `json:"operations"`
	// Failed is how many of Operations failed (what an errors objective
	// reads, when ycsb merge judges a fleet's step).
	Failed  int64  `json:"failed_operations,omitempty"`
	Verdict string `json:"verdict"` // StepPassed, FAIL, CLIENT-LIMITED; NOT JUDGED in a client's share of a fleet
	Why     string `json:"why,omitempty"`
	// Confirms is, for a step run again because the one before did not
	// pass, that step's number (1-based); its verdict is the rate's.
	Confirms int `json:"confirms,omitempty"`
	// Client is the client's figures over the step and its verdicts (as
	// a run's client_verdict), which say whether the client, not the
	// system, explains a failure; absent for a step too short to judge.
	Client *ClientVerdict `json:"client,omitempty"`
	// Trusted says the step ran the operations its objectives'
	// percentiles need (capacity.OpsToTrust).
	Trusted bool `json:"trusted"`
	// Untrusted says why a failed step may be the machine's failure, not
	// the system's: the client's threads waited for a CPU, woke late or
	// fell behind, or the machine lost CPU to steal; absent otherwise.
	Untrusted string `json:"untrusted,omitempty"`
	// SLO is the step's objectives, judged on intended latency.
	SLO *slo.SLO `json:"slo"`
	// Measurements are the step's latency histograms (as Report's).
	Measurements []Measurement `json:"measurements,omitempty"`
}

// Interval is one sampling interval.
type Interval struct {
	StartMs int64 `json:"start_ms"`
	EndMs   int64 `json:"end_ms"`
	// StartUnixMs and EndUnixMs are the interval in ms since the Unix
	// epoch, by which merge lines up the intervals of clients started at
	// the same starttime. Older reports have none.
	StartUnixMs int64            `json:"start_unix_ms,omitempty"`
	EndUnixMs   int64            `json:"end_unix_ms,omitempty"`
	Ops         int64            `json:"ops"`
	ByOp        map[string]int64 `json:"by_op,omitempty"`
	// Latency is each measurement's latency within the interval, keyed by
	// measurement name (READ, READ-FAILED, Intended-READ). Reports written
	// before it existed have none; readers must cope with its absence.
	Latency map[string]IntervalLatency `json:"latency,omitempty"`
}

// IntervalLatency is one measurement's latency within one interval.
// Percentiles holds p50, p90, p95, p99 and p99.9 (PercentileKey).
type IntervalLatency struct {
	Count       int64            `json:"count"`
	MeanUs      float64          `json:"mean_us"`
	MaxUs       int64            `json:"max_us"`
	Percentiles map[string]int64 `json:"percentiles_us"`
	// Histogram is the interval's HdrHistogram, in Measurement.Histogram's
	// form, so that merge can combine the intervals of several clients
	// exactly. Older reports have none.
	Histogram string `json:"histogram,omitempty"`
}

// IntervalPercentiles are the percentiles kept per interval.
var IntervalPercentiles = []float64{50, 90, 95, 99, 99.9}

// Measurement is one measurement (READ, READ-FAILED, Intended-READ, ...).
// The summary figures are derived from Histogram and kept for readers that
// do not decode it.
type Measurement struct {
	Name        string           `json:"name"`
	Operation   string           `json:"operation"` // READ for READ-FAILED and Intended-READ
	Intended    bool             `json:"intended,omitempty"`
	Count       int64            `json:"count"`
	MeanUs      float64          `json:"mean_us"`
	MinUs       int64            `json:"min_us"`
	MaxUs       int64            `json:"max_us"`
	Percentiles map[string]int64 `json:"percentiles_us,omitempty"`
	Returns     []Return         `json:"returns,omitempty"`
	// Retries counts the binding's retries of the operation (serialization
	// failures); on the plain-named measurement only.
	Retries int64 `json:"retries,omitempty"`
	// Histogram is the HdrHistogram of latencies in µs, V2 compressed and
	// base64-encoded (hdrhistogram-go's Encode, Java's
	// encodeIntoCompressedByteBuffer).
	Histogram string `json:"histogram,omitempty"`
}

// Client is one client's place among Count (client.index, client.count).
type Client struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Return is one Return=<STATUS> count.
type Return struct {
	Status string `json:"status"`
	Count  int64  `json:"count"`
}

// Schedule is the client's lag behind its -target schedule.
type Schedule struct {
	TargetOpsSec int64   `json:"target_ops_sec"`
	MeanLagUs    float64 `json:"mean_lag_us"`
	MaxLagUs     int64   `json:"max_lag_us"`
	FinalLagUs   int64   `json:"final_lag_us"`
	// Wake is how late the workers woke for the operations they had time
	// to wait for: the client's own timing error. Behind is how far
	// behind its due time each operation started that the worker had no
	// time to wait for. Absent when none, and in reports written before
	// they existed.
	Wake   *Starts `json:"wake,omitempty"`
	Behind *Starts `json:"behind,omitempty"`
}

// Starts is a distribution of paced starts (µs): its figures, with its
// HdrHistogram (Measurement.Histogram's encoding) for ycsb merge.
type Starts struct {
	StartFigures
	Histogram string `json:"histogram"`
}

// StartFigures are the figures of a distribution of paced starts (µs),
// from its histogram; the HTML page shows them without the histogram.
type StartFigures struct {
	Count  int64   `json:"count"`
	MeanUs float64 `json:"mean_us"`
	P50Us  int64   `json:"p50_us"`
	P99Us  int64   `json:"p99_us"`
	MaxUs  int64   `json:"max_us"`
}

// StartFiguresOf is the StartFigures of st, a histogram's statistics.
func StartFiguresOf(st measurement.Stats) StartFigures {
	return StartFigures{Count: st.Count, MeanUs: st.Mean, P50Us: st.Percentile(50), P99Us: st.Percentile(99), MaxUs: st.Max}
}

// EncodeHistogram returns h in the standard compressed base64 form.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", err
	}
	return string(b), nil // Encode already returns base64 text
}

// DecodeHistogram reads a histogram written by EncodeHistogram.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return nil, fmt.Errorf("histogram is not base64: %w", err)
	}
	return hdrhistogram.Decode([]byte(s))
}

// Mask is what a password-like setting's value becomes.
const Mask = secret.Mask

// MaskSettings returns m with secrets masked: secret-like properties
// (secret.IsSecret), URL passwords and password= parameters in any value.
func MaskSettings(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = secret.Value(k, v)
	}
	return out
}

// Write writes r as indented JSON.
func Write(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// ErrNotReport is returned by Read for valid JSON that is not a report.
var ErrNotReport = errors.New("not a ycsb-go JSON report")

// Read parses and checks a report: the format marker, the version, that
// every count, duration, latency and percentile is a non-negative finite
// number, that every interval ends after it starts, and that every
// histogram decodes and agrees with its count. An error names the field:
// "intervals[2].ops: -5 is negative".
func Read(data []byte) (*Report, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("empty file")
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("%w (it looks like the reference's text or jsonarray output; write reports with exporter=jsonreport or report.json)", ErrNotReport)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("not valid JSON (truncated or corrupt): %v", err)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%w: field %s has the wrong type", ErrNotReport, te.Field)
		}
		if terr := badTime(data); terr != nil {
			return nil, terr
		}
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value (the reference's json exporter? use exporter=jsonreport)", ErrNotReport)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("%w (format %s)", ErrNotReport, shown.Quote(r.Format))
	}
	if r.Version > Version {
		return nil, fmt.Errorf("report version %d is newer than this ycsb (%d)", r.Version, Version)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	if r.Clients < 1 {
		r.Clients = 1
	}
	if r.Version < 2 {
		rescaleV1Intervals(&r)
	}
	return &r, nil
}

// badTime names the time field of data that is not a time, which the
// decoder's error does not: "start: "not-a-date" is not a time ...".
func badTime(data []byte) error {
	var times struct {
		Start     json.RawMessage `json:"start"`
		End       json.RawMessage `json:"end"`
		StartTime json.RawMessage `json:"starttime"`
	}
	if json.Unmarshal(data, &times) != nil {
		return nil
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"start", times.Start}, {"end", times.End}, {"starttime", times.StartTime}} {
		var t time.Time
		if len(f.raw) == 0 || t.UnmarshalJSON(f.raw) == nil {
			continue
		}
		var s string
		shown := strconv.Quote(string(f.raw))
		var compact bytes.Buffer
		switch {
		case json.Unmarshal(f.raw, &s) == nil:
			shown = strconv.Quote(s)
		case json.Compact(&compact, f.raw) == nil:
			shown = compact.String() // one line
		}
		if len(shown) > 60 {
			shown = shown[:57] + "..."
		}
		return fmt.Errorf("%s: %s is not a time in RFC 3339 form (2026-03-01T12:00:00Z)", f.name, shown)
	}
	return nil
}

// check is Read's validation of the figures, so that merge, compare and
// report --html never add, test or draw a negative count or a NaN.
func (r *Report) check() error {
	var c checker
	c.count("clients", int64(r.Clients))
	c.duration("runtime_ms", r.RunTimeMs)
	c.duration("warmup_ms", r.WarmupMs)
	c.count("operations", r.Operations)
	c.count("unknown_outcome", r.UnknownOutcome)
	if r.UnknownOutcome > 0 && (r.Failed == nil || r.UnknownOutcome > *r.Failed) {
		c.fail("unknown_outcome", "%d is above failed_operations (%s): each is a failed operation", r.UnknownOutcome, failedText(r.Failed))
	}
	c.real("throughput_ops_sec", r.Throughput)
	if !r.Start.IsZero() && !r.End.IsZero() && r.End.Before(r.Start) {
		c.fail("end", "%s is before start %s", r.End.Format(time.RFC3339Nano), r.Start.Format(time.RFC3339Nano))
	}
	for i, p := range r.Percentiles {
		if math.IsNaN(p) || p < 0 || p > 100 {
			c.fail(fmt.Sprintf("percentiles[%d]", i), "%v is not a percentile from 0 to 100", p)
		}
	}
	var lasting int64 // the intervals' lengths, added up
	for i, iv := range r.Intervals {
		f := fmt.Sprintf("intervals[%d].", i)
		c.duration(f+"start_ms", iv.StartMs)
		c.duration(f+"end_ms", iv.EndMs)
		c.count(f+"ops", iv.Ops)
		if iv.EndMs < iv.StartMs {
			c.fail(f+"end_ms", "%d is before start_ms %d", iv.EndMs, iv.StartMs)
		} else if c.err == nil {
			lasting += iv.EndMs - iv.StartMs
		}
		c.count(f+"start_unix_ms", iv.StartUnixMs)
		if iv.EndUnixMs < iv.StartUnixMs {
			c.fail(f+"end_unix_ms", "%d is before start_unix_ms %d", iv.EndUnixMs, iv.StartUnixMs)
		}
		for _, op := range sortedKeys(iv.ByOp) {
			c.count(f+"by_op."+op, iv.ByOp[op])
		}
		for _, name := range sortedKeys(iv.Latency) {
			l := iv.Latency[name]
			lf := f + "latency." + name + "."
			c.count(lf+"count", l.Count)
			c.real(lf+"mean_us", l.MeanUs)
			c.count(lf+"max_us", l.MaxUs)
			for _, k := range sortedKeys(l.Percentiles) {
				c.count(lf+"percentiles_us."+k, l.Percentiles[k])
			}
			c.histogram(lf+"histogram", l.Histogram, l.Count, false) // older reports have none
		}
	}
	// The intervals follow one another within the run; the intervals of a
	// merge, on a common grid, may overlap by a little each.
	if limit := r.RunTimeMs + int64(len(r.Intervals))*1000; c.err == nil && lasting > limit {
		c.fail("intervals", "they last %d ms in all, more than the run (runtime_ms %d)", lasting, r.RunTimeMs)
	}
	c.measurements("", r.Measurements)
	if cp := r.Capacity; cp != nil {
		c.capacity(cp)
	}
	if v := r.Validation; v != nil {
		switch v.Status {
		case ValidationSuccess, ValidationFailed, ValidationError:
		default:
			c.fail("validation.status", "%s is not SUCCESS, FAILED or ERROR", shown.Quote(v.Status))
		}
		c.count("validation.total_cash", v.TotalCash)
		c.count("validation.accounts", v.Accounts)
		c.count("validation.expected_accounts", v.ExpectedAccounts)
		c.count("validation.operations", v.Operations)
		if (v.StartCash == nil) != (v.StartAccounts == nil) || (v.StartCash == nil) != (v.EarlierChange == nil) {
			c.fail("validation.start_cash", "start_cash, start_accounts and earlier_change come together")
		} else if v.StartCash != nil {
			c.count("validation.start_cash", *v.StartCash)
			c.count("validation.start_accounts", *v.StartAccounts)
			if *v.EarlierChange != *v.StartCash-v.TotalCash {
				c.fail("validation.earlier_change", "%d is not start_cash %d less total_cash %d", *v.EarlierChange, *v.StartCash, v.TotalCash)
			}
		}
		c.real("validation.anomaly_score", v.AnomalyScore)
	}
	if in := r.Interrupted; in != nil {
		c.interrupted(r, in)
	}
	if s := r.Schedule; s != nil {
		c.count("schedule.target_ops_sec", s.TargetOpsSec)
		c.real("schedule.mean_lag_us", s.MeanLagUs)
		c.count("schedule.max_lag_us", s.MaxLagUs)
		c.count("schedule.final_lag_us", s.FinalLagUs)
		c.starts("schedule.wake.", s.Wake)
		c.starts("schedule.behind.", s.Behind)
	}
	c.plausible(r)
	c.consistent(r)
	return c.err
}

// LoadIncomplete is the line that says a load inserted fewer records than
// want, as the client and ycsb merge say it: inserted that it knows went
// in, and unknown more whose insert failed after it may have reached the
// server (UnknownOutcome).
func LoadIncomplete(inserted, unknown, want int64) string {
	if unknown == 0 {
		return fmt.Sprintf("load incomplete: %d of %d records inserted", inserted, want)
	}
	return fmt.Sprintf("load incomplete: at least %d of %d records inserted; %d more with unknown outcome (the server may have applied them)",
		inserted, want, unknown)
}

// failedText is failed_operations as a reader of the report sees it.
func failedText(n *int64) string {
	if n == nil {
		return "absent"
	}
	return strconv.FormatInt(*n, 10)
}

// checker keeps the first failed check of a report.
type checker struct{ err error }

// measurements checks a report's or a capacity step's measurements;
// prefix is the field of the list's owner ("capacity.steps[0].").
func (c *checker) measurements(prefix string, ms []Measurement) {
	for i, m := range ms {
		f := fmt.Sprintf("%smeasurements[%d] (%s).", prefix, i, m.Name)
		c.count(f+"count", m.Count)
		c.real(f+"mean_us", m.MeanUs)
		c.count(f+"min_us", m.MinUs)
		c.count(f+"max_us", m.MaxUs)
		if m.Count > 0 && m.MinUs > m.MaxUs {
			c.fail(f+"min_us", "%d is above max_us %d", m.MinUs, m.MaxUs)
		}
		for _, k := range sortedKeys(m.Percentiles) {
			c.count(f+"percentiles_us."+k, m.Percentiles[k])
		}
		for j, rc := range m.Returns {
			if _, ok := status.ParseStatus(rc.Status); !ok {
				c.fail(fmt.Sprintf("%sreturns[%d].status", f, j), "%s is not a status (OK, ERROR, NOT_FOUND, ...)", shown.Quote(rc.Status))
			}
			c.count(fmt.Sprintf("%sreturns[%d] (%s).count", f, j, rc.Status), rc.Count)
		}
		c.count(f+"retries", m.Retries)
		c.histogram(f+"histogram", m.Histogram, m.Count, true)
	}
}

// capacity checks a capacity search's figures, which ycsb merge adds
// up and turns into times.
func (c *checker) capacity(cp *Capacity) {
	c.real("capacity.max_ops_sec", cp.MaxOpsSec)
	c.real("capacity.achieved_ops_sec", cp.AchievedOpsSec)
	c.real("capacity.first_failing_ops_sec", cp.FirstFailingOpsSec)
	c.real("capacity.resolution", cp.Resolution)
	for i, st := range cp.Steps {
		f := fmt.Sprintf("capacity.steps[%d].", i)
		c.real(f+"asked_ops_sec", st.AskedOpsSec)
		c.real(f+"share_ops_sec", st.ShareOpsSec)
		c.real(f+"achieved_ops_sec", st.AchievedOpsSec)
		c.count(f+"threads", int64(st.Threads))
		c.duration(f+"start_ms", st.StartMs)
		c.duration(f+"measured_ms", st.MeasuredMs)
		c.count(f+"operations", st.Operations)
		c.count(f+"failed_operations", st.Failed)
		if st.Confirms < 0 || st.Confirms > i {
			c.fail(f+"confirms", "%d is not the number of a step before it", st.Confirms)
		}
		if st.Failed > st.Operations {
			c.fail(f+"failed_operations", "%d is above operations %d", st.Failed, st.Operations)
		}
		c.measurements(f, st.Measurements)
	}
}

func (c *checker) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...))
	}
}

func (c *checker) count(field string, n int64) {
	if n < 0 {
		c.fail(field, "%d is negative", n)
	}
}

// MaxDurationMs bounds every duration and time offset of a report: no run
// lasts 100 years, and times within that fit a time.Duration.
const MaxDurationMs = 100 * 365 * 24 * 3600 * 1000

func (c *checker) duration(field string, ms int64) {
	c.count(field, ms)
	if ms > MaxDurationMs {
		c.fail(field, "%d ms is more than 100 years", ms)
	}
}

func (c *checker) real(field string, v float64) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.fail(field, "%v is not a finite number", v)
	case v < 0:
		c.fail(field, "%v is negative", v)
	}
}

// PacedStartsKnown says whether r's schedule says how its paced operations
// started: a run records every paced start as a wake-up or a late start,
// so a schedule over operations with neither is a report written before
// they were recorded (or a merge of one), whose absent Wake and Behind
// are not "none". False without a schedule.
func (r *Report) PacedStartsKnown() bool {
	s := r.Schedule
	return s != nil && (r.Operations == 0 || s.Wake != nil || s.Behind != nil)
}

// SetStarts sets s's Wake and Behind to the Starts of the wake-ups'
// and the late starts' histograms (StartsOf), as a run's report and a
// merged one both write them.
func (s *Schedule) SetStarts(wake, behind *hdrhistogram.Histogram) error {
	var err error
	if s.Wake, err = StartsOf(wake); err != nil {
		return err
	}
	s.Behind, err = StartsOf(behind)
	return err
}

// StartsOf is h's Starts with measurement.StatsOf's figures, as a run's
// report (report) and a merged one (ycsb merge) both write them; nil
// for an empty h.
func StartsOf(h *hdrhistogram.Histogram) (*Starts, error) {
	if h == nil || h.TotalCount() == 0 {
		return nil, nil
	}
	enc, err := EncodeHistogram(h)
	if err != nil {
		return nil, fmt.Errorf("encoding a schedule histogram: %w", err)
	}
	return &Starts{StartFigures: StartFiguresOf(measurement.StatsOf(h)), Histogram: enc}, nil
}

// starts checks a Schedule's Starts: figures that are not negative, in
// order, and a histogram of Count values.
func (c *checker) starts(prefix string, s *Starts) {
	if s == nil {
		return
	}
	c.count(prefix+"count", s.Count)
	c.real(prefix+"mean_us", s.MeanUs)
	c.count(prefix+"p50_us", s.P50Us)
	c.count(prefix+"p99_us", s.P99Us)
	c.count(prefix+"max_us", s.MaxUs)
	if c.err == nil && (s.P50Us > s.P99Us || s.P99Us > s.MaxUs) {
		c.fail(prefix+"p99_us", "%d is not between p50_us %d and max_us %d", s.P99Us, s.P50Us, s.MaxUs)
	}
	if c.err == nil && s.Count > 0 && (s.MeanUs > float64(s.MaxUs)) {
		c.fail(prefix+"mean_us", "%v is above max_us %d", s.MeanUs, s.MaxUs)
	}
	c.histogram(prefix+"histogram", s.Histogram, s.Count, true)
}

// histogram checks that enc, when present, decodes to a histogram of
// count values; a missing one is refused for a non-zero count when
// required.
func (c *checker) histogram(field, enc string, count int64, required bool) {
	if c.err != nil {
		return
	}
	if enc == "" {
		if required && count != 0 {
			c.fail(field, "missing, but count is %d", count)
		}
		return
	}
	h, err := DecodeHistogram(enc)
	if err != nil {
		c.fail(field, "corrupt histogram: %v", err)
		return
	}
	if h.TotalCount() != count {
		c.fail(field, "holds %d values, count says %d", h.TotalCount(), count)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// rescaleV1Intervals corrects a version 1 report, whose interval ops
// counted database calls (a read-modify-write twice, a verified read
// twice): each interval is scaled so that they add up to Operations, which
// was always counted right. Exact for a steady operation mix. Each takes
// the rounded running share less what those before it took, so that the
// shares add up to Operations however they round.
func rescaleV1Intervals(r *Report) {
	var calls int64
	for _, iv := range r.Intervals {
		calls = addUp(calls, iv.Ops)
	}
	if calls <= r.Operations || calls == 0 {
		return
	}
	f := float64(r.Operations) / float64(calls)
	var cum float64
	var taken int64
	for i := range r.Intervals {
		prev := cum
		cum += float64(r.Intervals[i].Ops)
		n := int64(math.Round(cum*f)) - int64(math.Round(prev*f))
		if i == len(r.Intervals)-1 {
			n = r.Operations - taken // whatever the floats rounded to
		}
		n = max(n, 0)
		r.Intervals[i].Ops, taken = n, taken+n
	}
}

// Find returns the measurement named name, or nil.
func (r *Report) Find(name string) *Measurement {
	i := slices.IndexFunc(r.Measurements, func(m Measurement) bool { return m.Name == name })
	if i < 0 {
		return nil
	}
	return &r.Measurements[i]
}

// PercentileKey is the key of a percentile in Measurement.Percentiles:
// "p50", "p99.9".
func PercentileKey(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// OwnRMW says whether the report's read-modify-writes are operations of
// their own, with statuses (measurement.Snapshot.OwnRMW).
func (r *Report) OwnRMW() bool {
	return slices.ContainsFunc(r.Measurements, func(m Measurement) bool {
		return m.Operation == "READ-MODIFY-WRITE" && !m.Intended && len(m.Returns) > 0
	})
}
