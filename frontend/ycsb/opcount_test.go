package ycsb

import (
	"context"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// TestIntervalsCountOperations runs workload F (half read-modify-writes)
// with dataintegrity, where one operation is up to three database calls
// (read, verify, update). Every reader of the intervals (the JSON report's
// intervals, ycsb merge's throughput, ycsb compare's test, the HTML
// report's chart) must count operations as [OVERALL] does.
func TestIntervalsCountOperations(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "f.json")
	out, stderr, err := runBasic(t, context.Background(), map[string]string{
		"readproportion": "0.5", "updateproportion": "0", "readmodifywriteproportion": "0.5",
		"dataintegrity": "true", "operationcount": "2400", "target": "2400", "threadcount": "2",
		"report.json": jsonPath, "report.interval": "0.1",
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	tp, err := strconv.ParseFloat(row(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
	if err != nil {
		t.Fatal(err)
	}
	rep := readReport(t, jsonPath)
	if rep.Operations != 2400 {
		t.Fatalf("report operations %d, want 2400", rep.Operations)
	}
	var ivOps int64
	for _, iv := range rep.Intervals {
		ivOps += iv.Ops
	}
	if ivOps != rep.Operations {
		t.Errorf("JSON intervals hold %d operations, [OVERALL] %d", ivOps, rep.Operations)
	}
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*want {
			t.Errorf("%s: %.1f ops/sec, want %.1f (within %.0f%%)", what, got, want, tol*100)
		}
	}
	merged, err := merge.Merge([]string{"a.json", "b.json"}, []*jsonreport.Report{rep, rep})
	if err != nil {
		t.Fatal(err)
	}
	// merge's window is the intervals' span, [OVERALL]'s the run time: on a
	// loaded machine they differ by a few percent. Counting database calls
	// would be 1.5 times too high.
	near("ycsb merge of the report with itself", merged.Throughput, 2*tp, 0.1)
	var cmp strings.Builder
	if err := merge.Compare(&cmp, "a.json", "b.json", rep, rep); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Overall: A mean ([0-9.]+) ops/sec`).FindStringSubmatch(cmp.String())
	if m == nil {
		t.Fatalf("no test line in:\n%s", cmp.String())
	}
	mean, _ := strconv.ParseFloat(m[1], 64)
	// The test's mean is the mean of the intervals' rates (intervals of at
	// least half the median length), which equals [OVERALL]'s throughput
	// only when the pacing held; on a loaded machine it does not, so the
	// expectation is computed from the intervals' operation counts, which
	// are checked against [OVERALL] above. Counting database calls instead
	// of operations would put it 1.5 times too high.
	near("ycsb compare's test mean", mean, intervalRateMean(rep), 0.01)
	page, err := htmlreport.Build("t", []htmlreport.Input{{Name: "f", Report: rep}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var chartOps float64
	prev := 0.0
	for _, p := range page.Runs[0].OpsSeries {
		chartOps += p[1] * (p[0] - prev)
		prev = p[0]
	}
	near("HTML report's throughput chart (integrated)", chartOps, float64(rep.Operations), 0.05)
}

// intervalRateMean is the mean rate of rep's intervals as ycsb compare
// takes it: intervals shorter than half the median length left out.
func intervalRateMean(rep *jsonreport.Report) float64 {
	var lens []int64
	for _, iv := range rep.Intervals {
		lens = append(lens, iv.EndMs-iv.StartMs)
	}
	sorted := append([]int64(nil), lens...)
	slices.Sort(sorted)
	median := sorted[len(sorted)/2]
	var sum float64
	n := 0
	for i, iv := range rep.Intervals {
		if lens[i] <= 0 || 2*lens[i] < median {
			continue
		}
		sum += float64(iv.Ops) * 1000 / float64(lens[i])
		n++
	}
	return sum / float64(n)
}
