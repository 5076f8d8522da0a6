package merge

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/reportblock"
)

// Named is one input report and the name merge gives it: the file, the
// pod it came from, or file:line of its block in a log.
type Named struct {
	Name   string
	Report *jsonreport.Report
}

// ReadReports reads the reports in data, which came from path ("-" for
// stdin): one JSON report, or a log holding report blocks (the output of
// clients run with -p report.json=-, as kubectl logs prints it).
func ReadReports(path string, data []byte) ([]Named, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		r, err := jsonreport.Read(data)
		if err != nil {
			return nil, &InputError{Path: path, Err: err}
		}
		return []Named{{Name: path, Report: r}}, nil
	}
	name := path
	if path == "-" {
		name = "stdin"
	}
	blocks, err := reportblock.Read(data)
	if err != nil {
		return nil, &InputError{Path: name, Err: err}
	}
	if len(blocks) == 0 {
		if bytes.Contains(data, []byte("[OVERALL]")) {
			return nil, inputErr(name, "%v (it looks like the reference's text output; run the clients with -p report.json=- or -p report.json=FILE)", jsonreport.ErrNotReport)
		}
		return nil, inputErr(name, "no ycsb report in it: give JSON reports, or logs of clients run with -p report.json=-")
	}
	var out []Named
	for _, b := range blocks {
		n := fmt.Sprintf("%s:%d", name, b.Line)
		if b.Source != "" {
			// kubectl logs --prefix: "pod/NAME/CONTAINER"; the pod names the client.
			n = strings.TrimPrefix(b.Source, "pod/")
			if i := strings.LastIndexByte(n, '/'); i > 0 {
				n = n[:i]
			}
		}
		r, err := jsonreport.Read(b.Doc)
		if err != nil {
			return nil, inputErr(name, "report block at line %d: %v", b.Line, err)
		}
		out = append(out, Named{Name: n, Report: r})
	}
	return out, nil
}

// clientIndex is the client.index a report ran with, when it is a number
// (client.index=auto resolves it from the pod's JOB_COMPLETION_INDEX; a
// report that recorded only "auto" has none).
func clientIndex(r *jsonreport.Report) (int, bool) {
	i, err := strconv.Atoi(r.Settings["client.index"])
	return i, err == nil && i >= 0
}

// clientIndexes numbers the inputs: their client.index when every input
// has a distinct one, else their order.
func clientIndexes(reps []*jsonreport.Report) []int {
	idx := make([]int, len(reps))
	seen := map[int]bool{}
	for i, r := range reps {
		ci, ok := clientIndex(r)
		if !ok || seen[ci] {
			for j := range idx {
				idx[j] = j
			}
			return idx
		}
		seen[ci] = true
		idx[i] = ci
	}
	return idx
}

// Distinct refuses the same client twice: the same report given twice,
// or two reports of one client.index (a pod that was retried). ycsb merge
// checks it before Merge, which itself adds up whatever it is given.
func Distinct(paths []string, reps []*jsonreport.Report) error {
	byIndex := map[int]int{}
	for i, r := range reps {
		for j := range i {
			o := reps[j]
			if sameRun(r, o) {
				return &InputError{Path: paths[i], Err: fmt.Errorf("the same report as %s: give each client's report once", paths[j])}
			}
		}
		ci, ok := clientIndex(r)
		if !ok || r.Clients > 1 {
			continue
		}
		if j, dup := byIndex[ci]; dup {
			return &InputError{Path: paths[i], Err: fmt.Errorf("client.index=%d, as %s: two reports of one client (was it retried?); give one", ci, paths[j])}
		}
		byIndex[ci] = i
	}
	return nil
}

// sameRun reports whether a and b are one report: the same times, counts
// and histograms.
func sameRun(a, b *jsonreport.Report) bool {
	if !a.Start.Equal(b.Start) || !a.End.Equal(b.End) || a.Operations != b.Operations || len(a.Measurements) != len(b.Measurements) {
		return false
	}
	for i := range a.Measurements {
		if a.Measurements[i].Histogram != b.Measurements[i].Histogram || a.Measurements[i].Count != b.Measurements[i].Count {
			return false
		}
	}
	return true
}

// failed is the count of operations r's client saw fail, by status, and
// their total.
func failed(r *jsonreport.Report) (string, int64) {
	counts := map[string]int64{}
	var order []string
	var total int64
	for _, m := range r.Measurements {
		if m.Intended {
			continue
		}
		for _, rc := range m.Returns {
			if rc.Status == "OK" || rc.Count == 0 {
				continue
			}
			if counts[rc.Status] == 0 {
				order = append(order, rc.Status)
			}
			counts[rc.Status] += rc.Count
			total += rc.Count
		}
	}
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("Return=%s %d", s, counts[s]))
	}
	return strings.Join(parts, ", "), total
}

// minOverlap is the share of the whole span (first start to last end) the
// common window must cover for the merged throughput to describe the run.
const minOverlap = 0.9

// Warnings says what makes a merge of these reports doubtful: clients that
// ran together for only part of the span, clients that saw failed
// operations, a load that did not insert all its records, and fewer
// reports than client.count. A client that failed before writing its
// report shows only as a missing one. Clients started by a rendezvous
// are compared on one clock (OnRendezvousClock), as Merge does.
func Warnings(paths []string, reps []*jsonreport.Report) []string {
	if len(reps) == 0 {
		return nil
	}
	reps = OnRendezvousClock(reps)
	var w []string
	idx := clientIndexes(reps)
	first, last := reps[0].Start, reps[0].End
	winStart, winEnd := first, last
	for _, r := range reps {
		if r.Start.Before(first) {
			first = r.Start
		}
		if r.End.After(last) {
			last = r.End
		}
		if r.Start.After(winStart) {
			winStart = r.Start
		}
		if r.End.Before(winEnd) {
			winEnd = r.End
		}
	}
	if span := last.Sub(first); span > 0 && winEnd.After(winStart) {
		if share := float64(winEnd.Sub(winStart)) / float64(span); share < minOverlap {
			w = append(w, fmt.Sprintf("the clients ran together for %s of %s (%.0f%%): throughput is over that common window only; start them together (starttime)",
				secs(winEnd.Sub(winStart)), secs(span), 100*share))
		}
	}
	for i, r := range reps {
		if detail, n := failed(r); n > 0 {
			w = append(w, fmt.Sprintf("client %d (%s): %d operations failed (%s)", idx[i], paths[i], n, detail))
		}
	}
	if reps[0].Phase == "load" {
		if done, want, ok := loadCounts(reps); ok && done < want {
			var unknown int64
			for _, r := range reps {
				unknown += r.UnknownOutcome
			}
			w = append(w, jsonreport.LoadIncomplete(done, unknown, want))
		}
	}
	w = append(w, scheduleWarnings(paths, reps, idx)...)
	if n, err := strconv.Atoi(reps[0].Settings["client.count"]); err == nil && n > 0 {
		got := 0
		for _, r := range reps {
			got += max(r.Clients, 1)
		}
		if got < n {
			w = append(w, fmt.Sprintf("%d of client.count=%d clients' reports%s: a client failed or its report is missing, and the merged figures cover only these", got, n, missing(reps, n)))
		}
	}
	return w
}

// missing names the client indexes absent from reps, when they are known.
func missing(reps []*jsonreport.Report, n int) string {
	have := map[int]bool{}
	for _, r := range reps {
		i, ok := clientIndex(r)
		if !ok {
			return ""
		}
		have[i] = true
	}
	var m []string
	for i := range n {
		if !have[i] {
			m = append(m, strconv.Itoa(i))
		}
	}
	if len(m) == 0 {
		return ""
	}
	return " (client.index " + strings.Join(m, ", ") + " absent)"
}

// loadCounts returns the records a load inserted (Return=OK of INSERT) and
// the records it was to insert: with client.count, insertcount (or
// recordcount less insertstart) is the whole load's, split between the
// clients; without, each client's own.
func loadCounts(reps []*jsonreport.Report) (done, want int64, ok bool) {
	target := func(r *jsonreport.Report) (int64, bool) {
		if v, err := strconv.ParseInt(r.Settings["insertcount"], 10, 64); err == nil {
			return v, true
		}
		rc, err1 := strconv.ParseInt(r.Settings["recordcount"], 10, 64)
		is, err2 := strconv.ParseInt(cmp(r.Settings["insertstart"], "0"), 10, 64)
		return rc - is, err1 == nil && err2 == nil
	}
	_, split := reps[0].Settings["client.count"]
	for i, r := range reps {
		if m := r.Find("INSERT"); m != nil {
			for _, rc := range m.Returns {
				if rc.Status == "OK" {
					done += rc.Count
				}
			}
		}
		if split && i > 0 {
			continue
		}
		t, ok := target(r)
		if !ok {
			return 0, 0, false
		}
		want += t
	}
	return done, want, true
}

func cmp(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s" }

// clientRows are one section per input, [CLIENT-<i>], after the
// reference's sections so that a parser of its format is not disturbed:
// each client's own run time, throughput and operations, when it started
// relative to the merged run, and its failed operations.
func clientRows(out *jsonreport.Report, reps []*jsonreport.Report) []export.Row {
	idx := clientIndexes(reps)
	order := make([]int, len(reps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return idx[a] - idx[b] })
	var rows []export.Row
	for _, i := range order {
		r := reps[i]
		metric := "CLIENT-" + strconv.Itoa(idx[i])
		_, n := failed(r)
		rows = append(rows,
			export.Row{Metric: metric, Name: export.RunTime, Value: export.Int(r.RunTimeMs)},
			export.Row{Metric: metric, Name: export.Throughput, Value: export.Float(r.Throughput)},
			export.Row{Metric: metric, Name: export.Operations, Value: export.Int(r.Operations)},
			export.Row{Metric: metric, Name: "StartOffset(ms)", Value: export.Int(r.Start.Sub(out.Start).Milliseconds())},
			export.Row{Metric: metric, Name: "FailedOperations", Value: export.Int(n)},
		)
	}
	return rows
}

// Aligned returns a copy of r as if it had started at start: its
// intervals shift by the time between, so that the clients' lines and the
// merged total share one time axis on the HTML report.
func Aligned(r *jsonreport.Report, start time.Time) *jsonreport.Report {
	c := *r
	off := r.Start.Sub(start).Milliseconds()
	c.Start = start
	c.Intervals = make([]jsonreport.Interval, len(r.Intervals))
	for i, iv := range r.Intervals {
		iv.StartMs += off
		iv.EndMs += off
		c.Intervals[i] = iv
	}
	return &c
}

// ClientNames names the inputs for the HTML report: "client <i>", and the
// source when it says more than the index.
func ClientNames(paths []string, reps []*jsonreport.Report) []string {
	idx := clientIndexes(reps)
	out := make([]string, len(reps))
	for i := range reps {
		out[i] = fmt.Sprintf("client %d (%s)", idx[i], paths[i])
	}
	return out
}
