package runreport

import (
	"testing"
	"time"

	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/slo"
)

// TestJudgeThroughputSucceeded: a run whose every operation failed, fast,
// does not meet a throughput objective; its error rate is every
// operation.
func TestJudgeThroughputSucceeded(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	res := &engine.Result{Start: start, End: start.Add(2 * time.Second), Ops: 10000, Succeeded: 1000, Total: &measurement.Snapshot{}}
	objs, err := slo.Parse("throughput>=1000, errors<=50%")
	if err != nil {
		t.Fatal(err)
	}
	j, err := Judge(objs, slo.Service, res, "")
	if err != nil {
		t.Fatal(err)
	}
	if r := j.Results[0]; r.Verdict != slo.Fail || r.Measured != 500 {
		t.Errorf("throughput: %+v, want FAIL at 500 ops/s (the successful ones)", r)
	}
	if r := j.Results[1]; r.Verdict != slo.Fail || r.Measured != 0.9 {
		t.Errorf("errors: %+v", r)
	}
}
