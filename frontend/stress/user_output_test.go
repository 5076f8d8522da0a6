package stress

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/jsonreport"
	yresults "github.com/goycsb/ycsb/report/merge"
	"github.com/goycsb/ycsb/report/stressreport"
)

// testOp is an op of ops(...) as the metrics see it: its name, its row,
// the partitions and rows it reported.
type testOp struct {
	name        string
	op          measurement.Op
	parts, rows atomic.Int64
}

// newTestMetrics is newUserMetrics of ops.
func newTestMetrics(out io.Writer, fixed bool, ops []*testOp) (*stressreport.Metrics, error) {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return newUserMetrics(out, fixed, names, func(k int) (int64, int64) { return ops[k].parts.Load(), ops[k].rows.Load() })
}

// userHdrOps are two ops of ops(singlepost=2,insert=1), given out of their
// names' order.
func userHdrOps() []*testOp {
	return []*testOp{{name: "singlepost", op: 0}, {name: "insert", op: 1}}
}

// userHdrRun feeds a user run's metrics with an hdrfile= log two
// intervals, with or without a rate (response and wait times), and returns
// the log.
func userHdrRun(t *testing.T, rated bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "user.hdr")
	const s = int64(time.Second)
	const baseMs = 1_700_000_000_000
	lg, err := measurement.CreateTaggedHdrLog(path, stressreport.HdrComment, baseMs)
	if err != nil {
		t.Fatal(err)
	}
	ops := userHdrOps()
	m, err := newTestMetrics(io.Discard, false, ops)
	if err != nil {
		t.Fatal(err)
	}
	m.HDR = lg
	m.GCSample = func() stressreport.GCStats { return stressreport.GCStats{} }
	m.WallMs = func(ns int64) int64 { return baseMs + ns/1e6 }
	if rated {
		m.Waits = func(into []*hdrhistogram.Histogram) {
			into[ops[0].op].RecordValue(40)
			into[ops[0].op].RecordValue(60)
			into[ops[1].op].RecordValue(5)
		}
	}
	m.StartRun(time.Unix(0, 0), 0)
	for i := int64(0); i < 2; i++ {
		ms := []measurement.Measurement{
			{Op: ops[0].op, Kind: measurement.KindOK, Hist: hist(1800, 1900, 2500)},
			{Op: ops[1].op, Kind: measurement.KindOK, Hist: hist(900)},
		}
		if rated {
			ms = append(ms,
				measurement.Measurement{Op: ops[0].op, Intended: true, Hist: hist(1850, 1950, 2600)},
				measurement.Measurement{Op: ops[1].op, Intended: true, Hist: hist(910)})
		}
		m.AddInterval(i*s, (i+1)*s, &measurement.Snapshot{Measurements: ms})
	}
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The project's reader of interval logs decodes it.
	if _, err := yresults.ReadHdrLog(context.Background(), path); err != nil {
		t.Fatalf("ReadHdrLog: %v", err)
	}
	return string(b)
}

// TestUserHdrFile: -log hdrfile= of a user run tags each op's intervals
// with its name as typed in ops(...), <name>-st, -rt and -wt, in the
// names' order, as the original's StressMetrics does with the Timer's
// name; the log is the predefined commands' otherwise.
func TestUserHdrFile(t *testing.T) {
	for _, c := range []struct {
		name  string
		rated bool
		tags  []string
	}{
		{"user_hdrfile_unrated", false, []string{"insert-st", "singlepost-st", "insert-st", "singlepost-st"}},
		{"user_hdrfile_rated", true, []string{"insert-st", "insert-rt", "insert-wt", "singlepost-st", "singlepost-rt", "singlepost-wt",
			"insert-st", "insert-rt", "insert-wt", "singlepost-st", "singlepost-rt", "singlepost-wt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := userHdrRun(t, c.rated)
			ycsbtest.Golden(t, "testdata/"+c.name+".golden", []byte(log))
			rd := hdrhistogram.NewHistogramLogReader(strings.NewReader(log))
			var tags []string
			counts := map[string]int64{}
			for {
				h, err := rd.NextIntervalHistogram()
				if err != nil {
					t.Fatal(err)
				}
				if h == nil {
					break
				}
				tags = append(tags, h.Tag())
				counts[h.Tag()] += h.TotalCount()
				if h.Tag() == "singlepost-wt" && (h.ValueAtQuantile(0) < 40_000 || h.ValueAtQuantile(0) > 41_000) {
					t.Errorf("singlepost-wt: min %d ns, want 40 µs", h.ValueAtQuantile(0))
				}
			}
			if strings.Join(tags, " ") != strings.Join(c.tags, " ") {
				t.Errorf("tags %v, want %v", tags, c.tags)
			}
			want := map[string]int64{"singlepost-st": 6, "insert-st": 2}
			if c.rated {
				want = map[string]int64{"singlepost-st": 6, "singlepost-rt": 6, "singlepost-wt": 4, "insert-st": 2, "insert-rt": 2, "insert-wt": 2}
			}
			for tag, n := range want {
				if counts[tag] != n {
					t.Errorf("%s: %d values, want %d", tag, counts[tag], n)
				}
			}
		})
	}
}

// TestUserOpsTable: the run measures user's ops under their names as
// typed, as many as ops(...) gives, then its own CLEANUP; CLEANUP is not
// an op's name, as the run's close would be filed under it.
func TestUserOpsTable(t *testing.T) {
	var names []string
	for i := range 21 {
		names = append(names, fmt.Sprintf("q%02d", i))
	}
	m, err := newMetrics(io.Discard, false, names)
	if err != nil {
		t.Fatal(err)
	}
	ops := m.Ops()
	if ops.Len() != 22 || ops.Name(20) != "q20" || ops.Name(21) != measurement.CleanupName {
		t.Errorf("table of %d: %s ... %s", ops.Len(), ops.Name(0), ops.Name(measurement.Op(ops.Len()-1)))
	}
	if _, err := newMetrics(io.Discard, false, []string{"insert", "CLEANUP"}); err == nil {
		t.Error("an op named CLEANUP is taken")
	}
}

// userNamedReport is a JSON report as the run writes one of
// ops(singlepost=2,insert=1) under a rate: measured under the ops' names.
func userNamedReport(t *testing.T, start time.Time) *jsonreport.Report {
	t.Helper()
	enc := func(us ...int64) string {
		s, err := jsonreport.EncodeHistogram(hist(us...))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sp, in := "singlepost", "insert"
	il := func(us ...int64) jsonreport.IntervalLatency {
		st := measurement.StatsOf(hist(us...))
		return jsonreport.IntervalLatency{Count: int64(len(us)), MeanUs: st.Mean, MaxUs: us[len(us)-1], Percentiles: map[string]int64{"p50": us[0]}, Histogram: enc(us...)}
	}
	return &jsonreport.Report{
		Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: "cassandra-stress", Phase: "run",
		MeasurementType: "hdrhistogram", Settings: map[string]string{"threadcount": "2"}, Clients: 1,
		Start: start, End: start.Add(2 * time.Second), RunTimeMs: 2000, Operations: 5, Throughput: 2.5,
		Intervals: []jsonreport.Interval{
			{StartMs: 0, EndMs: 1000, Ops: 3, ByOp: map[string]int64{sp: 2, in: 1},
				Latency: map[string]jsonreport.IntervalLatency{sp: il(1800, 1900), in: il(900), "Intended-" + sp: il(1850, 1950)}},
			{StartMs: 1000, EndMs: 2000, Ops: 2, ByOp: map[string]int64{sp: 1, in: 1},
				Latency: map[string]jsonreport.IntervalLatency{sp: il(2500), in + "-FAILED": il(12000), "CLEANUP": il(3), "Intended-" + sp: il(2550)}},
		},
		Measurements: []jsonreport.Measurement{
			{Name: sp, Operation: sp, Count: 3, MeanUs: 2066, MinUs: 1800, MaxUs: 2500, Histogram: enc(1800, 1900, 2500),
				Returns: []jsonreport.Return{{Status: "OK", Count: 3}}},
			{Name: in, Operation: in, Count: 1, MeanUs: 900, MinUs: 900, MaxUs: 900, Histogram: enc(900),
				Returns: []jsonreport.Return{{Status: "OK", Count: 1}, {Status: "ERROR", Count: 1}}},
			{Name: in + "-FAILED", Operation: in, Count: 1, MeanUs: 12000, MinUs: 12000, MaxUs: 12000, Histogram: enc(12000)},
			{Name: "CLEANUP", Operation: "CLEANUP", Count: 1, MeanUs: 3, MinUs: 3, MaxUs: 3, Histogram: enc(3)},
			{Name: "Intended-" + sp, Operation: sp, Intended: true, Count: 3, MeanUs: 2117, MinUs: 1850, MaxUs: 2551, Histogram: enc(1850, 1950, 2550)},
		},
		Sections: []export.Row{
			{Metric: "OVERALL", Name: "Operations", Value: export.Int(5)},
			{Metric: sp, Name: "Operations", Value: export.Int(3)},
			{Metric: in, Name: "Return=ERROR", Value: export.Int(1)},
			{Metric: in + "-FAILED", Name: "Operations", Value: export.Int(1)},
			{Metric: "CLEANUP", Name: "Operations", Value: export.Int(1)},
			{Metric: "Intended-" + sp, Name: "Operations", Value: export.Int(3)},
		},
	}
}

// TestUserReportNames: the -log json= report of a user run names each
// measurement by its op as typed in ops(...) (measurements, intervals,
// sections), beside the run's CLEANUP; it is one that ycsb merge,
// compare and report --html read like any other.
func TestUserReportNames(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var paths []string
	for i, client := range []string{"a", "b"} {
		path := filepath.Join(dir, client+".json")
		// two clients, the second started 100 ms later
		rep := userNamedReport(t, start.Add(time.Duration(i)*100*time.Millisecond))
		rep.Seed = uint64(i + 1)
		var b bytes.Buffer
		if err := jsonreport.Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	got, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	ycsbtest.Golden(t, "testdata/user_report.golden", got)

	var reps []*jsonreport.Report
	for _, p := range paths {
		r, err := yresults.ReadReport(p)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, r)
	}
	var ms []string
	for _, m := range reps[0].Measurements {
		ms = append(ms, m.Name+"/"+m.Operation)
	}
	if want := "singlepost/singlepost insert/insert insert-FAILED/insert CLEANUP/CLEANUP Intended-singlepost/singlepost"; strings.Join(ms, " ") != want {
		t.Errorf("measurements %s, want %s", strings.Join(ms, " "), want)
	}
	// ycsb merge
	if err := yresults.Distinct(paths, reps); err != nil {
		t.Fatal(err)
	}
	merged, err := yresults.Merge(paths, reps)
	if err != nil {
		t.Fatal(err)
	}
	if m := merged.Find("singlepost"); m == nil || m.Count != 6 {
		t.Errorf("merged singlepost: %+v", m)
	}
	if m := merged.Find("insert-FAILED"); m == nil || m.Count != 2 || m.Operation != "insert" {
		t.Errorf("merged insert-FAILED: %+v", m)
	}
	// ycsb compare
	var cmp bytes.Buffer
	if err := yresults.Compare(&cmp, "a", "b", reps[0], reps[1]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cmp.String(), "singlepost") || !strings.Contains(cmp.String(), "insert") {
		t.Errorf("compare names neither op:\n%s", cmp.String())
	}
	// ycsb report --html
	d, err := htmlreport.Build("user", []htmlreport.Input{{Name: "a", Report: reps[0]}, {Name: "b", Report: reps[1]}}, start)
	if err != nil {
		t.Fatal(err)
	}
	if want := "singlepost insert insert-FAILED Intended-singlepost"; strings.Join(d.Operations, " ") != want {
		t.Errorf("page operations %v, want %s", d.Operations, want)
	}
	if _, ok := d.Runs[1].LatencySeries["singlepost"]; !ok {
		t.Errorf("no singlepost latency series: %v", d.Runs[1].LatencySeries)
	}
}

// hist is a histogram of the given latencies in µs.
func hist(us ...int64) *hdrhistogram.Histogram {
	h := hdrhistogram.New(1, stressreport.HistMaxUs, 3)
	for _, v := range us {
		h.RecordValue(v)
	}
	return h
}
