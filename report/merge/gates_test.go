package merge_test

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/report/gate"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// TestGatesInterrupted: no gate over an interrupted report is judged
// (NO DATA, exit 4), whatever its figures say.
func TestGatesInterrupted(t *testing.T) {
	full := merge.RoundTrip(t, merge.Fake(t, 10, 0, 30, 1000, 800))
	stopped := merge.RoundTrip(t, merge.Interrupted(merge.Fake(t, 11, 0, 30, 500, 800), "SIGTERM", 100000, 16000))
	gates, err := gate.ParseGates("throughput:-5%, READ.p99:+10%")
	if err != nil {
		t.Fatal(err)
	}
	judged := gate.JudgeGates(gates, full, stopped)
	for _, r := range judged {
		if r.Verdict != gate.NoData || !strings.HasPrefix(r.Why, "B interrupted by SIGTERM") || (r.Gate.Stat == gate.GateThroughput && math.IsNaN(r.A)) {
			t.Errorf("%s: %s (%s), figures %v %v; want NO DATA, B interrupted, with the figures", r.Gate.Text, r.Verdict, r.Why, r.A, r.B)
		}
	}
	if err := gate.WriteGates(&bytes.Buffer{}, judged); !gate.IsUnjudged(err) {
		t.Errorf("WriteGates: %v, want not judged (exit 4)", err)
	}
	// The throughput gate would fail on the figures alone.
	if r := gate.JudgeGates(gates[:1], full, merge.RoundTrip(t, merge.Fake(t, 11, 0, 30, 500, 800)))[0]; r.Verdict != gate.Fail {
		t.Errorf("the same figures, complete: %s, want FAIL", r.Verdict)
	}
	if r := gate.JudgeGates(gates[:1], stopped, stopped)[0]; !strings.HasPrefix(r.Why, "A and B interrupted") {
		t.Errorf("both interrupted: %q", r.Why)
	}
}

// TestGateMergedReport: a merge of aligned clients carries the merged
// interval histograms, so its latency gates are tested; against itself
// every gate passes, and its p99 is that of the merged report's.
func TestGateMergedReport(t *testing.T) {
	c0, _ := merge.Ticked(t, 1, 0, 25)
	c1, _ := merge.Ticked(t, 2, 3*time.Millisecond, 25)
	m, err := merge.Merge([]string{"c0.json", "c1.json"}, []*jsonreport.Report{c0, c1})
	if err != nil {
		t.Fatal(err)
	}
	gates, _ := gate.ParseGates("READ.p99:+0%, ALL.mean:+0%, throughput:-0%")
	for _, r := range gate.JudgeGates(gates, m, m) {
		if r.Verdict != gate.Pass {
			t.Errorf("%s: %v %s", r.Gate.Text, r.Verdict, r.Why)
		}
	}
	r := gate.JudgeGates(gates[:1], m, m)[0]
	if want := float64(m.Find("READ").Percentiles["p99"]); r.A != want {
		t.Errorf("the gate's p99 %v, the merged report's %v", r.A, want)
	}
}
