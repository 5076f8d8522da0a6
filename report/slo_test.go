package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/run"
)

// TestJudgeThroughputSucceeded: a run whose every operation failed, fast,
// does not meet a throughput objective; its error rate is every
// operation.
func TestJudgeThroughputSucceeded(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	res := &run.Result{Start: start, End: start.Add(2 * time.Second), Ops: 10000, Succeeded: 1000, Total: &measurement.Snapshot{}}
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

// TestJudgeOwnRMW: read-modify-writes run as transactions (statuses of
// their own, no READ or UPDATE of them) count in ALL and in the client's
// mean latency; the reference's, made of a read and an update measured
// as such, do not.
func TestJudgeOwnRMW(t *testing.T) {
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	mcfg, err := measurement.ParseConfig(props.New())
	if err != nil {
		t.Fatal(err)
	}
	objs, err := slo.Parse("ALL.max<=5ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, own := range []bool{true, false} {
		coll := measurement.NewCollector(mcfg, measurement.YCSB)
		rec := coll.NewRecorder()
		for range 9 {
			rec.Done(measurement.Read, db.OK, 0, 1000_000, 0) // 1 ms
		}
		if own {
			rec.Done(measurement.ReadModifyWrite, db.OK, 0, 20_000_000, 0) // 20 ms, a status
		} else {
			rec.Measure(measurement.ReadModifyWrite, 0, 20_000_000, 0) // 20 ms, no status
		}
		coll.Tick()
		total := coll.Total()
		if total.OwnRMW() != own {
			t.Fatalf("own %v: OwnRMW %v", own, total.OwnRMW())
		}
		res := &run.Result{Start: start, End: start.Add(time.Second), Ops: 10, Succeeded: 10, Total: total}
		j, err := Judge(objs, slo.Service, res, "")
		if err != nil {
			t.Fatal(err)
		}
		mean, _ := MeanServiceUs(total)
		wantVerdict, wantMean := slo.Pass, 1000.0
		if own {
			wantVerdict, wantMean = slo.Fail, (9*1000+20000)/10.0
		}
		if r := j.Results[0]; r.Verdict != wantVerdict {
			t.Errorf("own %v: ALL.max %+v, want %v", own, r, wantVerdict)
		}
		if mean < wantMean*0.99 || mean > wantMean*1.01 {
			t.Errorf("own %v: mean service latency %v us, want %v", own, mean, wantMean)
		}
	}
}

// TestSLOAbortCountsFailedOperations: slo.abort's error rate counts the
// failed operations as the verdict does (run.Result: Ops - Succeeded),
// not the measurements of failures: a NOT_FOUND is an answer, and a
// read-modify-write whose read and update failed is one failed operation.
func TestSLOAbortCountsFailedOperations(t *testing.T) {
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	mcfg, err := measurement.ParseConfig(props.New())
	if err != nil {
		t.Fatal(err)
	}
	// Each records one operation of the worker loop as run/worker.go
	// does, and says whether it failed (the session's Failed grew).
	notFound := func(rec *measurement.Recorder, i int) bool {
		rec.Done(measurement.Read, db.NotFound, 0, 1_000_000, 0)
		return false
	}
	failedRead := func(rec *measurement.Recorder, i int) bool {
		rec.Done(measurement.Read, db.Error, 0, 1_000_000, 0)
		return true
	}
	// Half of them a read-modify-write whose read and update failed.
	halfRMWFailed := func(rec *measurement.Recorder, i int) bool {
		if i%2 == 0 {
			rec.Done(measurement.Read, db.OK, 0, 1_000_000, 0)
			return false
		}
		rec.Done(measurement.Read, db.Error, 0, 1_000_000, 0)
		rec.Done(measurement.Update, db.Error, 0, 1_000_000, 0)
		rec.Measure(measurement.ReadModifyWrite, 0, 2_000_000, 0)
		return true
	}
	for _, tc := range []struct {
		name      string
		objective string
		do        func(*measurement.Recorder, int) bool
		failed    int64
		halt      bool
		verdict   slo.Verdict
	}{
		{"not found", "errors<=1%", notFound, 0, false, slo.Pass},
		{"failed reads", "errors<=1%", failedRead, 2000, true, slo.Fail},
		{"read-modify-writes", "errors<=60%", halfRMWFailed, 1000, false, slo.Pass},
	} {
		for _, total := range []int64{2000, 0} {
			t.Run(fmt.Sprintf("%s of %d", tc.name, total), func(t *testing.T) {
				objs, err := slo.Parse(tc.objective)
				if err != nil {
					t.Fatal(err)
				}
				coll := measurement.NewCollector(mcfg, measurement.YCSB)
				rec := coll.NewRecorder()
				a := NewSLOAbort(objs, slo.Service, mcfg, total)
				var why string
				halted := false
				a.SetHalt(func(w string) { why, halted = w, true })
				var failed int64
				for i := range 2000 {
					if tc.do(rec, i) {
						failed++
						rec.FailedOperation()
					} else {
						rec.Operation()
					}
					if i%500 == 499 {
						a.AddInterval(0, 0, coll.Tick())
					}
				}
				if halted != tc.halt {
					t.Errorf("halted %v (%q), want %v", halted, why, tc.halt)
				}
				tot := coll.Total()
				if tot.Operations != 2000 || tot.Failed != tc.failed {
					t.Errorf("total: %d operations, %d failed, want 2000 and %d", tot.Operations, tot.Failed, tc.failed)
				}
				res := &run.Result{Start: start, End: start.Add(time.Second), Ops: 2000, Succeeded: 2000 - failed, Total: tot, Halted: why}
				j, err := Judge(objs, slo.Service, res, "")
				if err != nil {
					t.Fatal(err)
				}
				if r := j.Results[0]; r.Verdict != tc.verdict {
					t.Errorf("verdict %+v, want %v", r, tc.verdict)
				}
			})
		}
	}
}
