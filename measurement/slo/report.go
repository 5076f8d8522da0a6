package slo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/measurement/export"
)

// Unmet is the error of a run that finished, with its report, but failed
// an objective or a regression gate: exit code 3, so that CI can gate on
// it.
type Unmet struct{ Msg string }

func (e *Unmet) Error() string { return e.Msg }

// IsUnmet says whether err is (or wraps) an Unmet.
func IsUnmet(err error) bool {
	var u *Unmet
	return errors.As(err, &u)
}

// Judgement is a run's results and how they are to be read.
type Judgement struct {
	Results []Result
	Latency Latency
	// Share, when set, says the run is one client of a fleet
	// ("client 1 of 2"): its figures are reported, not judged.
	Share string
	// Aborted is why the run stopped early (slo.abort); "" if it did not.
	Aborted string
}

// Judged says whether the verdict counts (not a client's share).
func (j *Judgement) Judged() bool { return j.Share == "" }

// Passed says whether the run met every objective; a share never fails.
func (j *Judgement) Passed() bool { return !j.Judged() || Passed(j.Results) }

// Unjudged says whether an objective of j could not be judged (NoData):
// nothing it reads was measured, or too few operations for its
// percentile.
func (j *Judgement) Unjudged() bool {
	for _, r := range j.Results {
		if r.Verdict == NoData {
			return true
		}
	}
	return false
}

// Err is the Unmet error of a failed judgement, nil otherwise.
func (j *Judgement) Err() error {
	if j.Passed() {
		return nil
	}
	var failed []string
	for _, r := range j.Results {
		if r.Verdict != Pass {
			failed = append(failed, r.Text+" ("+measured(r)+")")
		}
	}
	msg := fmt.Sprintf("SLO not met: %s", strings.Join(failed, ", "))
	if j.Aborted != "" {
		msg += "; stopped early: " + j.Aborted
	}
	return &Unmet{Msg: msg}
}

// Section is the name of the report's rows.
const Section = "SLO"

// Rows are the report's [SLO] rows: the latency read, one row per
// objective with its verdict and measure, and the run's verdict.
func (j *Judgement) Rows() []export.Row {
	rows := []export.Row{{Metric: Section, Name: "Latency", Value: export.Str(j.Latency.String())}}
	for _, r := range j.Results {
		v := r.Verdict.String()
		switch {
		case !j.Judged():
			v = measured(r)
		case r.Verdict != NoData:
			v += " (" + measured(r) + ")"
		case r.Why != "":
			v += " (" + r.Why + ")"
		}
		rows = append(rows, export.Row{Metric: Section, Name: r.Text, Value: export.Str(v)})
	}
	if j.Aborted != "" {
		rows = append(rows, export.Row{Metric: Section, Name: "Aborted", Value: export.Str(j.Aborted)})
	}
	return append(rows, export.Row{Metric: Section, Name: "Verdict", Value: export.Str(j.verdict())})
}

func (j *Judgement) verdict() string {
	if !j.Judged() {
		return "NOT JUDGED (" + j.Share + ": ycsb merge judges the fleet)"
	}
	failed := 0
	for _, r := range j.Results {
		if r.Verdict != Pass {
			failed++
		}
	}
	if failed == 0 {
		return "PASS"
	}
	return fmt.Sprintf("FAIL (%d of %d objectives)", failed, len(j.Results))
}

// JSON is the JSON report's form of j.
func (j *Judgement) JSON() *SLO {
	out := &SLO{Latency: j.Latency.String(), Judged: j.Judged(), Passed: j.Judged() && j.Passed(), Aborted: j.Aborted}
	for _, r := range j.Results {
		o := SLOObjective{Objective: r.Text, Operation: r.Op, Statistic: r.statName(),
			Comparison: r.Cmp.String(), Limit: r.Limit, Unit: r.unit()}
		if r.Verdict != NoData {
			m := r.Measured
			o.Measured = &m
		}
		o.Why = r.Why
		if j.Judged() {
			o.Verdict = r.Verdict.String()
		}
		out.Objectives = append(out.Objectives, o)
	}
	return out
}

func (o *Objective) statName() string {
	switch o.Stat {
	case Percentile:
		return "p" + strconv.FormatFloat(o.Percentile, 'f', -1, 64)
	case Mean:
		return "mean"
	case Max:
		return "max"
	case ErrorRate:
		return "errors"
	}
	return "throughput"
}

func (o *Objective) unit() string {
	switch o.Stat {
	case ErrorRate:
		return "fraction"
	case Throughput:
		return "ops/s"
	}
	return "us"
}

// measured is r's figure as a reader wants it, or why there is none.
func measured(r Result) string {
	if r.Verdict == NoData {
		if r.Why == "" {
			return "no data"
		}
		return "no data: " + r.Why
	}
	switch r.Stat {
	case ErrorRate:
		return strconv.FormatFloat(r.Measured*100, 'g', 3, 64) + "%"
	case Throughput:
		return strconv.FormatFloat(r.Measured, 'f', 1, 64) + " ops/s"
	}
	return FormatLatency(r.Measured)
}

// FormatLatency writes µs as a reader wants them: 412 us, 3.41 ms, 1.2 s.
func FormatLatency(us float64) string {
	switch {
	case us < 1000:
		return short(us) + " us"
	case us < 1e6:
		return short(us/1e3) + " ms"
	}
	return short(us/1e6) + " s"
}

// short is v with at most two decimals, trailing zeros dropped.
func short(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
