package runreport

import (
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
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
		res := &engine.Result{Start: start, End: start.Add(time.Second), Ops: 10, Succeeded: 10, Total: total}
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
