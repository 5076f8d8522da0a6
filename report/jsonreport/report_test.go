package jsonreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/run/capacity"
	"github.com/goycsb/ycsb/workload"
)

func TestMaskSettings(t *testing.T) {
	got := MaskSettings(map[string]string{
		"postgres.password": "pw", "db.passwd": "pw", "DB.PASSWORD": "pw", "cassandra.password": "",
		"db.url": "postgres://bob:pw@127.0.0.1:5432/ycsb", "plain": "postgres://127.0.0.1/ycsb", "fieldcount": "10",
	})
	want := map[string]string{
		"postgres.password": Mask, "db.passwd": Mask, "DB.PASSWORD": Mask, "cassandra.password": "",
		"db.url": "postgres://bob:" + Mask + "@127.0.0.1:5432/ycsb", "plain": "postgres://127.0.0.1/ycsb", "fieldcount": "10",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestReadRejects(t *testing.T) {
	for _, in := range []string{"", "   ", "[OVERALL], RunTime(ms), 1", "[ {\"metric\" : \"OVERALL\"} ]", `{"format":"other"}`,
		`{"format":"ycsb-go-report","version":99}`, `{"format":"ycsb-go-report","version":1,"measurements":[{"name":"READ","count":3,"histogram":"!!"}]}`,
		`{"format":"ycsb-go-report"`, `{"format":"ycsb-go-report"} {}`} {
		if _, err := Read([]byte(in)); err == nil {
			t.Errorf("Read(%q) accepted it", in)
		}
	}
}

// TestReadVersion1Intervals: a version 1 report counted database calls in
// its intervals (2 per read-modify-write); Read scales them to the
// operations the report holds, so that they add up to them exactly.
func TestReadVersion1Intervals(t *testing.T) {
	r := valid(t)
	r.Version = 1
	r.Intervals[0].Ops, r.Intervals[1].Ops = 4, 2
	got, err := Read(encode(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if got.Intervals[0].Ops != 2 || got.Intervals[1].Ops != 1 {
		t.Errorf("intervals %+v, want 2 and 1 operations", got.Intervals)
	}
	// Three intervals of 3 calls for 4 operations: 1.33 each, which
	// rounding alone would make 3 in all.
	r.Operations, r.Throughput = 4, 2
	r.Intervals = append(r.Intervals, Interval{StartMs: 2000, EndMs: 2000})
	r.Intervals[0].Ops, r.Intervals[1].Ops, r.Intervals[2].Ops = 3, 3, 3
	r.Intervals[0].ByOp["READ"] = 3
	r.Measurements = append(r.Measurements, Measurement{Name: "READ-FAILED", Operation: "READ", Count: 1, MeanUs: 100, MinUs: 100, MaxUs: 100, Histogram: hist(t, 100)})
	r.Measurements[0].Returns = append(r.Measurements[0].Returns, Return{Status: "ERROR", Count: 1})
	r.Measurements[0].Returns[0].Count = 3
	if got, err = Read(encode(t, r)); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, iv := range got.Intervals {
		sum += iv.Ops
	}
	if sum != 4 {
		t.Errorf("intervals %+v add up to %d, want 4", got.Intervals, sum)
	}
}

// hist is the encoded histogram of values.
func hist(t testing.TB, values ...int64) string {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, v := range values {
		h.RecordValue(v)
	}
	enc, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// valid is a small report that Read accepts; tests change one field.
func valid(t testing.TB) *Report {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, v := range []int64{100, 200, 300} {
		h.RecordValue(v)
	}
	enc, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &Report{
		Format: Format, Version: Version, Binding: "basic", Phase: "run", Percentiles: []float64{50, 99.9},
		Clients: 1, Start: start, End: start.Add(2 * time.Second), RunTimeMs: 2000, Operations: 3, Throughput: 1.5,
		Intervals: []Interval{
			{StartMs: 0, EndMs: 1000, Ops: 2, ByOp: map[string]int64{"READ": 2},
				Latency: map[string]IntervalLatency{"READ": {Count: 2, MeanUs: 150, MaxUs: 200, Percentiles: map[string]int64{"p50": 100}}}},
			{StartMs: 1000, EndMs: 2000, Ops: 1, ByOp: map[string]int64{"READ": 1},
				Latency: map[string]IntervalLatency{"READ": {Count: 1, MeanUs: 300, MaxUs: 300, Percentiles: map[string]int64{"p50": 300}}}},
		},
		Measurements: []Measurement{{Name: "READ", Operation: "READ", Count: 3, MeanUs: 200, MinUs: 100, MaxUs: 300,
			Percentiles: map[string]int64{"p50": 200}, Returns: []Return{{Status: "OK", Count: 3}}, Histogram: enc}},
		Schedule: &Schedule{TargetOpsSec: 10, MeanLagUs: 5},
	}
}

// withCapacity gives r a capacity search of one step, whose
// measurements are r's, and returns it.
func withCapacity(r *Report) *Capacity {
	r.Phase = PhaseCapacity
	r.Capacity = &Capacity{MaxOpsSec: 99, AchievedOpsSec: 99, Limit: "max", Resolution: 0.05,
		Steps: []CapacityStep{{AskedOpsSec: 100, AchievedOpsSec: 99, Threads: 4, StartMs: 0, MeasuredMs: 1000,
			Operations: 3, Verdict: "PASS", Trusted: true, Measurements: slices.Clone(r.Measurements)}}}
	return r.Capacity
}

func encode(t testing.TB, r *Report) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadChecksFigures: a report whose figures no run can produce (a
// negative count, an interval that ends before it starts, a NaN) is
// refused with the field named, before merge adds it up, compare tests it
// or report --html draws it.
func TestReadChecksFigures(t *testing.T) {
	if _, err := Read(encode(t, valid(t))); err != nil {
		t.Fatalf("the valid report: %v", err)
	}
	withCap := valid(t)
	withCapacity(withCap)
	if _, err := Read(encode(t, withCap)); err != nil {
		t.Fatalf("the valid report with a capacity search: %v", err)
	}
	for _, tt := range []struct {
		change func(r *Report)
		want   string
	}{
		{func(r *Report) { r.Operations = -5 }, "operations: -5 is negative"},
		{func(r *Report) { r.RunTimeMs = -1 }, "runtime_ms: -1 is negative"},
		{func(r *Report) { r.WarmupMs = -1 }, "warmup_ms: -1 is negative"},
		{func(r *Report) { r.Clients = -2 }, "clients: -2 is negative"},
		{func(r *Report) { r.Throughput = -1.5 }, "throughput_ops_sec: -1.5 is negative"},
		{func(r *Report) { r.End = r.Start.Add(-time.Second) }, "end: 2026-03-01T11:59:59Z is before start 2026-03-01T12:00:00Z"},
		{func(r *Report) { r.Percentiles[1] = 101 }, "percentiles[1]: 101 is not a percentile from 0 to 100"},
		{func(r *Report) { r.Intervals[1].Ops = -7 }, "intervals[1].ops: -7 is negative"},
		{func(r *Report) { r.Intervals[1].StartMs = -1 }, "intervals[1].start_ms: -1 is negative"},
		{func(r *Report) { r.Intervals[1].EndMs = 500 }, "intervals[1].end_ms: 500 is before start_ms 1000"},
		{func(r *Report) { r.Intervals[0].ByOp["READ"] = -1 }, "intervals[0].by_op.READ: -1 is negative"},
		{func(r *Report) { r.Intervals[0].StartUnixMs, r.Intervals[0].EndUnixMs = 2000, 1000 }, "intervals[0].end_unix_ms: 1000 is before start_unix_ms 2000"},
		{func(r *Report) {
			l := r.Intervals[0].Latency["READ"]
			l.MaxUs = -3
			r.Intervals[0].Latency["READ"] = l
		}, "intervals[0].latency.READ.max_us: -3 is negative"},
		{func(r *Report) { r.Intervals[0].Latency["READ"].Percentiles["p50"] = -1 }, "intervals[0].latency.READ.percentiles_us.p50: -1 is negative"},
		{func(r *Report) { r.Measurements[0].MeanUs = -200 }, "measurements[0] (READ).mean_us: -200 is negative"},
		{func(r *Report) { r.Measurements[0].MinUs = 400 }, "measurements[0] (READ).min_us: 400 is above max_us 300"},
		{func(r *Report) { r.Measurements[0].Percentiles["p50"] = -200 }, "measurements[0] (READ).percentiles_us.p50: -200 is negative"},
		{func(r *Report) { r.Measurements[0].Returns[0].Count = -3 }, "measurements[0] (READ).returns[0] (OK).count: -3 is negative"},
		{func(r *Report) { r.Measurements[0].Count = 4 }, "measurements[0] (READ).histogram: holds 3 values, count says 4"},
		{func(r *Report) { r.Measurements[0].Count = -3 }, "measurements[0] (READ).count: -3 is negative"},
		{func(r *Report) { r.Measurements[0].Histogram = "" }, "measurements[0] (READ).histogram: missing, but count is 3"},
		{func(r *Report) { r.Schedule.TargetOpsSec = -10 }, "schedule.target_ops_sec: -10 is negative"},
		{func(r *Report) { r.Schedule.MeanLagUs = -5 }, "schedule.mean_lag_us: -5 is negative"},
		{func(r *Report) { r.Schedule.MaxLagUs = -1 }, "schedule.max_lag_us: -1 is negative"},
		{func(r *Report) { r.Schedule.FinalLagUs = -1 }, "schedule.final_lag_us: -1 is negative"},
		{func(r *Report) {
			r.Schedule.Wake = &Starts{StartFigures: StartFigures{Count: 4, MeanUs: 200, P50Us: 200, P99Us: 300, MaxUs: 300}, Histogram: r.Measurements[0].Histogram}
		}, "schedule.wake.histogram: holds 3 values, count says 4"},
		{func(r *Report) {
			r.Schedule.Behind = &Starts{StartFigures: StartFigures{Count: 3, MeanUs: 200, P50Us: 300, P99Us: 200, MaxUs: 300}, Histogram: r.Measurements[0].Histogram}
		}, "schedule.behind.p99_us: 200 is not between p50_us 300 and max_us 300"},
		{func(r *Report) { r.Validation = &Validation{Status: "MAYBE"} }, `validation.status: "MAYBE" is not SUCCESS, FAILED or ERROR`},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, 10, 5, -1, nil, workload.Tally{Cash: 10, Accounts: 5}))
		}, "validation.operations: -1 is negative"},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, -10, 5, 1, nil, workload.Tally{Cash: 10, Accounts: 5}))
		}, "validation.total_cash: -10 is negative"},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, 10, 5, 1, nil, workload.Tally{Cash: 10, Accounts: -5}))
		}, "validation.accounts: -5 is negative"},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, 10, 5, 1, &workload.Start{Tally: workload.Tally{Cash: -3, Accounts: 5}}, workload.Tally{Cash: 10, Accounts: 5}))
		}, "validation.start_cash: -3 is negative"},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, 10, 5, 1, &workload.Start{Tally: workload.Tally{Cash: 8, Accounts: 5}}, workload.Tally{Cash: 8, Accounts: 5}))
			*r.Validation.EarlierChange = 0
		}, "validation.earlier_change: 0 is not start_cash 8 less total_cash 10"},
		{func(r *Report) {
			r.Validation = (*Validation)(workload.NewValidation(workload.ByQuery, 10, 5, 1, &workload.Start{Tally: workload.Tally{Cash: 8, Accounts: 5}}, workload.Tally{Cash: 8, Accounts: 5}))
			r.Validation.StartAccounts = nil
		}, "validation.start_cash: start_cash, start_accounts and earlier_change come together"},
		{func(r *Report) { withCapacity(r).Steps[0].Operations = -5 }, "capacity.steps[0].operations: -5 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].Failed = -1 }, "capacity.steps[0].failed_operations: -1 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].Failed = 4 }, "capacity.steps[0].failed_operations: 4 is above operations 3"},
		{func(r *Report) { withCapacity(r).Steps[0].AskedOpsSec = -100 }, "capacity.steps[0].asked_ops_sec: -100 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].ShareOpsSec = -50 }, "capacity.steps[0].share_ops_sec: -50 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].AchievedOpsSec = -1 }, "capacity.steps[0].achieved_ops_sec: -1 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].Threads = -4 }, "capacity.steps[0].threads: -4 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].StartMs = -1 }, "capacity.steps[0].start_ms: -1 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].StartMs = math.MaxInt64 }, "capacity.steps[0].start_ms: 9223372036854775807 ms is more than 100 years"},
		{func(r *Report) { withCapacity(r).Steps[0].MeasuredMs = -1000 }, "capacity.steps[0].measured_ms: -1000 is negative"},
		{func(r *Report) { withCapacity(r).Steps[0].Measurements[0].Count = 4 }, "capacity.steps[0].measurements[0] (READ).histogram: holds 3 values, count says 4"},
		{func(r *Report) { withCapacity(r).Steps[0].Measurements[0].MinUs = -1 }, "capacity.steps[0].measurements[0] (READ).min_us: -1 is negative"},
		{func(r *Report) { withCapacity(r).MaxOpsSec = -1 }, "capacity.max_ops_sec: -1 is negative"},
		{func(r *Report) { withCapacity(r).FirstFailingOpsSec = -1 }, "capacity.first_failing_ops_sec: -1 is negative"},
		{func(r *Report) { withCapacity(r).AchievedOpsSec = -1 }, "capacity.achieved_ops_sec: -1 is negative"},
		{func(r *Report) { withCapacity(r).Resolution = -0.05 }, "capacity.resolution: -0.05 is negative"},
	} {
		r := valid(t)
		tt.change(r)
		_, err := Read(encode(t, r))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Read = %v, want %q", err, tt.want)
		}
	}
	// JSON has no NaN; a number too large for a float64 is refused too.
	doc := bytes.Replace(encode(t, valid(t)), []byte(`"throughput_ops_sec": 1.5`), []byte(`"throughput_ops_sec": 1e999`), 1)
	if _, err := Read(doc); err == nil {
		t.Errorf("Read accepted a throughput of 1e999")
	}
}

// TestReadCapacityAnswer: the answer is what a passing step served (its
// achieved rate, at most its asked one), never a rate asked that the step
// fell short of nor a failing step's.
func TestReadCapacityAnswer(t *testing.T) {
	const refused = "capacity.max_ops_sec: %v is what no passing step served (its achieved rate, at most its asked one)"
	for _, c := range []struct {
		name               string
		asked, achieved    float64 // the passing step's
		failAsked, failAch float64 // a failing step's above it
		max                float64
		want               string // "" accepted
	}{
		{"achieved below asked", 100, 99, 200, 150, 99, ""},
		{"achieved above asked", 100, 101, 200, 150, 100, ""},
		{"the asked rate the step fell short of", 100, 99, 200, 150, 100, fmt.Sprintf(refused, 100)},
		{"achieved above asked, the achieved", 100, 101, 200, 150, 101, fmt.Sprintf(refused, 101)},
		{"the failing step's rate", 100, 99, 200, 150, 200, fmt.Sprintf(refused, 200)},
		{"the failing step's achieved", 100, 99, 200, 150, 150, fmt.Sprintf(refused, 150)},
		{"none passed", 100, 99, 200, 150, 0, ""},
	} {
		r := valid(t)
		cp := withCapacity(r)
		cp.Steps[0].AskedOpsSec, cp.Steps[0].AchievedOpsSec = c.asked, c.achieved
		fail := cp.Steps[0]
		fail.AskedOpsSec, fail.AchievedOpsSec, fail.Verdict, fail.Operations = c.failAsked, c.failAch, "FAIL", 0
		fail.Measurements = nil
		cp.Steps = append(cp.Steps, fail)
		cp.MaxOpsSec, cp.AchievedOpsSec, cp.FirstFailingOpsSec, cp.Limit = c.max, c.achieved, c.failAsked, "system"
		if c.max == 0 {
			cp.Steps[0].Verdict, cp.AchievedOpsSec, cp.FirstFailingOpsSec, cp.Limit = "FAIL", 0, c.asked, "none"
		}
		_, err := Read(encode(t, r))
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || err.Error() != c.want)) {
			t.Errorf("%s: Read = %v, want %q", c.name, err, c.want)
		}
	}
}

// goldens are reports the tool wrote, kept by the packages that read them.
var goldens = []string{
	filepath.Join("..", "merge", "testdata", "run.json"),
	filepath.Join("..", "merge", "testdata", "merge.json"),
	filepath.Join("..", "htmlreport", "testdata", "capacity.json"),
}

// TestGoldensRead: the goldens pass every check.
func TestGoldensRead(t *testing.T) {
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Read(data); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
}

// FuzzRead: no input makes Read panic, and every report it accepts holds
// only figures merge, compare and report --html can use.
func FuzzRead(f *testing.F) {
	f.Add(encode(f, valid(f)))
	f.Add([]byte(`{"format":"ycsb-go-report","version":1,"operations":200,"intervals":[{"start_ms":0,"end_ms":1000,"ops":300}]}`))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"operations":-5}`))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"validation":{"status":"FAILED","method":"QUERY","total_cash":5000,"counted_cash":5003,"accounts":5,"expected_accounts":5,"operations":300,"anomaly_score":0.01}}`))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"measurements":[{"name":"READ","count":1,"histogram":"HISTFAAAAB542pNpmSzMwMDAxQABzFCaEUrzTGCAAQA="}]}`))
	withCap := valid(f)
	withCapacity(withCap)
	f.Add(encode(f, withCap))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"capacity":{"steps":[{"asked_ops_sec":100,"achieved_ops_sec":99,"threads":4,"start_ms":18446744075,"measured_ms":1000,"operations":3,"failed_operations":1,"verdict":"PASS","trusted":true,"measurements":[{"name":"READ","count":1,"histogram":"HISTFAAAAB542pNpmSzMwMDAxQABzFCaEUrzTGCAAQA="}]}],"max_ops_sec":100,"limit":"max","resolution":0.05}}`))
	overlap := valid(f)
	withUnixTimes(overlap)
	f.Add(encode(f, overlap))
	f.Add([]byte(`{"format":"ycsb-go-report","version":2,"phase":"run","clients":1e12,"start":"2026-03-01T12:00:00Z","end":"2026-03-01T12:00:00Z","runtime_ms":4000,"operations":8001,"intervals":null}`))
	// The reports a run, a merge and a capacity search wrote.
	for _, golden := range goldens {
		data, err := os.ReadFile(golden)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if err := r.check(); err != nil {
			t.Fatalf("accepted a report that fails its own check: %v", err)
		}
		if r.Clients < 1 {
			t.Fatalf("accepted %d clients", r.Clients)
		}
		merged := len(r.Sources) > 0 || r.Clients > 1
		for i, iv := range r.Intervals {
			if iv.Ops < 0 || iv.EndMs < iv.StartMs {
				t.Fatalf("accepted interval %+v", iv)
			}
			if i > 0 && !merged && iv.StartMs < r.Intervals[i-1].EndMs {
				t.Fatalf("accepted overlapping intervals %+v and %+v", r.Intervals[i-1], iv)
			}
		}
		if r.Clients > maxClients {
			t.Fatalf("accepted %d clients", r.Clients)
		}
		for _, m := range r.Measurements {
			if m.Count < 0 || m.MeanUs < 0 || math.IsNaN(m.MeanUs) {
				t.Fatalf("accepted measurement %+v", m)
			}
		}
		if c := r.Capacity; c != nil {
			for _, st := range c.Steps {
				if st.Operations < 0 || st.Failed < 0 || st.Failed > st.Operations || st.StartMs < 0 || st.StartMs > MaxDurationMs ||
					st.MeasuredMs < 0 || st.MeasuredMs > MaxDurationMs || st.AskedOpsSec < 0 || st.ShareOpsSec < 0 || st.AchievedOpsSec < 0 {
					t.Fatalf("accepted capacity step %+v", st)
				}
			}
		}
		if r.Operations < 0 || r.RunTimeMs < 0 || r.Throughput < 0 || math.IsNaN(r.Throughput) {
			t.Fatalf("accepted operations %d, runtime %d, throughput %v", r.Operations, r.RunTimeMs, r.Throughput)
		}
	})
}

// TestPacedStartsKnown: a schedule over operations says how they started
// unless it has neither wake-ups nor late starts (a report written before
// they were recorded).
func TestPacedStartsKnown(t *testing.T) {
	some := &Starts{StartFigures: StartFigures{Count: 1}}
	for _, tt := range []struct {
		name  string
		sched *Schedule
		ops   int64
		want  bool
	}{
		{"no schedule", nil, 10, false},
		{"no operations", &Schedule{}, 0, true},
		{"neither", &Schedule{}, 10, false},
		{"wake-ups", &Schedule{Wake: some}, 10, true},
		{"late starts", &Schedule{Behind: some}, 10, true},
	} {
		r := &Report{Schedule: tt.sched, Operations: tt.ops}
		if got := r.PacedStartsKnown(); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestReadMeasurementRules: the measurements that follow rules of their
// own are read as runs write them (a lost buffered insert, a verification
// without a value, a failed close, the reference's read-modify-write), and
// refused past those rules.
func TestReadMeasurementRules(t *testing.T) {
	m := func(name, op string, values []int64, returns ...Return) Measurement {
		ms := Measurement{Name: name, Operation: op, Count: int64(len(values)), Returns: returns}
		if len(values) > 0 {
			h := hdrhistogram.New(1, 3_600_000_000, 3)
			for _, v := range values {
				h.RecordValue(v)
			}
			st := hdrStats(h)
			ms.MeanUs, ms.MinUs, ms.MaxUs, ms.Histogram = st.mean, st.min, st.max, hist(t, values...)
		}
		ms.Intended = strings.HasPrefix(name, "Intended-")
		return ms
	}
	ok := func(n int64) Return { return Return{Status: "OK", Count: n} }
	fail := func(n int64) Return { return Return{Status: "ERROR", Count: n} }
	for _, tt := range []struct {
		name  string
		extra []Measurement
		byOp  map[string]int64 // added to the first interval's
		want  string           // "" when read
	}{
		{"a lost buffered insert", []Measurement{m("INSERT", "INSERT", []int64{5, 6, 7}, ok(2), fail(2))}, map[string]int64{"INSERT": 5}, ""},
		{"more lost than failed", []Measurement{m("INSERT", "INSERT", []int64{5, 6, 7}, ok(4), fail(1))}, map[string]int64{"INSERT": 5},
			"measurements[1] (INSERT).returns: they add up to 5, but INSERT's measurements hold 3 latencies (one for each return)"},
		{"a verification without its value", []Measurement{m("VERIFY", "VERIFY", nil, fail(3))}, map[string]int64{"VERIFY": 3}, ""},
		{"a verification with fewer values", []Measurement{m("VERIFY", "VERIFY", []int64{1, 1}, fail(3))}, map[string]int64{"VERIFY": 3},
			"measurements[1] (VERIFY).returns: they add up to 3, but VERIFY's measurements hold 2 latencies (one for each return)"},
		{"a failed close", []Measurement{m("CLEANUP", "CLEANUP", []int64{40, 50}, fail(1))}, map[string]int64{"CLEANUP": 1}, ""},
		{"more failed closes than closes", []Measurement{m("CLEANUP", "CLEANUP", []int64{40, 50}, fail(3))}, map[string]int64{"CLEANUP": 3},
			"measurements[1] (CLEANUP).returns: they add up to 3, more than the 2 closes counted"},
		{"the reference's read-modify-write", []Measurement{m("READ-MODIFY-WRITE", "READ-MODIFY-WRITE", []int64{9})}, nil, ""},
		{"statuses on a failure's measurement", []Measurement{m("READ-FAILED", "READ", nil, fail(1))}, nil,
			"measurements[1] (READ-FAILED).returns: on READ-FAILED, but statuses are counted on the operation's own measurement READ"},
		{"an intended latency for each", []Measurement{m("Intended-READ", "READ", []int64{100, 250, 400})}, nil, ""},
		{"an intended latency short", []Measurement{m("Intended-READ", "READ", []int64{100, 250})}, nil,
			"measurements[1] (Intended-READ).count: 2, but READ counts 3 (intended latency is measured beside each service latency)"},
		{"an intended latency alone", []Measurement{m("Intended-UPDATE", "UPDATE", []int64{100})}, nil,
			"measurements[1] (Intended-UPDATE).count: 1 intended latencies, but there is no measurement UPDATE"},
	} {
		r := valid(t)
		for i := range r.Intervals {
			r.Intervals[i].Latency = nil // as reports written before it had none
		}
		r.Measurements = append(r.Measurements, tt.extra...)
		for op, n := range tt.byOp {
			r.Intervals[0].ByOp[op] = n
		}
		_, err := Read(encode(t, r))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
		}
	}
}

type stats struct {
	mean     float64
	min, max int64
}

// hdrStats are h's figures as runs write them.
func hdrStats(h *hdrhistogram.Histogram) stats {
	st := measurement.StatsOf(h)
	return stats{st.Mean, st.Min, st.Max}
}

// TestReadCapacityAnswerVersion2: a version 2 report's answer is its best
// passing step's asked rate, which that version wrote; read as it was
// written, while version 3 refuses it.
func TestReadCapacityAnswerVersion2(t *testing.T) {
	for _, version := range []int{2, 3} {
		r := valid(t)
		r.Version = version
		cp := withCapacity(r)
		cp.Steps[0].AskedOpsSec, cp.Steps[0].AchievedOpsSec = 100, 99
		cp.MaxOpsSec, cp.AchievedOpsSec = 100, 99
		_, err := Read(encode(t, r))
		if version == 2 && err != nil {
			t.Errorf("version 2: Read = %v, want the asked rate accepted", err)
		}
		if version == 3 && err == nil {
			t.Errorf("version 3: Read accepted the asked rate a step fell short of")
		}
	}
}

// TestSchemaNamesAreTheProducers: the values the schema checks are the
// ones its producers write: the closed economy's statuses (package
// workload's Validation converts to the schema's) and a passing capacity
// step's verdict.
func TestSchemaNamesAreTheProducers(t *testing.T) {
	for _, c := range []struct{ schema, producer string }{
		{ValidationSuccess, workload.ValidationSuccess},
		{ValidationFailed, workload.ValidationFailed},
		{ValidationError, workload.ValidationError},
		{StepPassed, capacity.Pass.String()},
	} {
		if c.schema != c.producer {
			t.Errorf("the schema checks %q where its producer writes %q", c.schema, c.producer)
		}
	}
}

// TestStartFiguresOf: a histogram's figures, as the report's schedule and
// the HTML page show them, and Starts's JSON form, the figures followed by
// the histogram.
func TestStartFiguresOf(t *testing.T) {
	for _, tt := range []struct {
		name   string
		values []int64
		want   StartFigures
	}{
		{"empty", nil, StartFigures{}},
		{"one", []int64{250}, StartFigures{Count: 1, MeanUs: 250, P50Us: 250, P99Us: 250, MaxUs: 250}},
		{"spread", []int64{100, 100, 100, 100, 1000}, StartFigures{Count: 5, MeanUs: 280, P50Us: 100, P99Us: 1000, MaxUs: 1000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := hdrhistogram.New(1, 3_600_000_000, 3)
			for _, v := range tt.values {
				if err := h.RecordValue(v); err != nil {
					t.Fatal(err)
				}
			}
			if got := StartFiguresOf(measurement.StatsOf(h)); got != tt.want {
				t.Errorf("StartFiguresOf = %+v, want %+v", got, tt.want)
			}
		})
	}
	b, err := json.Marshal(Starts{StartFigures: StartFigures{Count: 2, MeanUs: 1.5, P50Us: 1, P99Us: 2, MaxUs: 2}, Histogram: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"count":2,"mean_us":1.5,"p50_us":1,"p99_us":2,"max_us":2,"histogram":"h"}`; string(b) != want {
		t.Errorf("Starts as JSON = %s, want %s", b, want)
	}
}

// TestSetStarts: a schedule's Wake and Behind are their histograms'
// Starts, nil for none or an empty one.
func TestSetStarts(t *testing.T) {
	hist := func(values ...int64) *hdrhistogram.Histogram {
		h := hdrhistogram.New(1, 3_600_000_000, 3)
		for _, v := range values {
			h.RecordValue(v)
		}
		return h
	}
	for _, tt := range []struct {
		name                   string
		wake, behind           *hdrhistogram.Histogram
		wakeCount, behindCount int64 // -1: nil
	}{
		{"none", nil, nil, -1, -1},
		{"empty", hist(), hist(), -1, -1},
		{"wake only", hist(40, 3000), nil, 2, -1},
		{"both", hist(40), hist(20_000, 20_000, 30_000), 1, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &Schedule{Wake: &Starts{}, Behind: &Starts{}}
			if err := s.SetStarts(tt.wake, tt.behind); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				got  *Starts
				h    *hdrhistogram.Histogram
				want int64
			}{{"wake", s.Wake, tt.wake, tt.wakeCount}, {"behind", s.Behind, tt.behind, tt.behindCount}} {
				if c.want < 0 {
					if c.got != nil {
						t.Errorf("%s = %+v, want nil", c.name, c.got)
					}
					continue
				}
				want, err := StartsOf(c.h)
				if err != nil {
					t.Fatal(err)
				}
				if c.got == nil || *c.got != *want || c.got.Count != c.want {
					t.Errorf("%s = %+v, want %+v (count %d)", c.name, c.got, want, c.want)
				}
			}
		})
	}
}
