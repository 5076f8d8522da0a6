package slo

import (
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func hist(values ...int64) *hdrhistogram.Histogram {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, v := range values {
		h.RecordValue(v)
	}
	return h
}

// TestFigures: an operation's latency counts its failures; All leaves out
// the measurements that are not operations of their own; Intended reads
// the Intended- measurements when there are any.
func TestFigures(t *testing.T) {
	samples := []Sample{
		{Operation: "READ", Hist: hist(100, 100, 100)},
		{Operation: "READ", Hist: hist(9000)}, // READ-FAILED
		{Operation: "UPDATE", Hist: hist(200)},
		{Operation: "READ-MODIFY-WRITE", LeftOut: LeftOut("READ-MODIFY-WRITE", false), Hist: hist(50000)},
		{Operation: "CLEANUP", LeftOut: LeftOut("CLEANUP", false), Hist: hist(70000)},
		{Operation: "READ", Intended: true, Hist: hist(5000, 5000, 5000, 5000)},
	}
	f, err := NewFigures(samples, Service, 5, 1, true, 100)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := f.Max("READ"); m < 8990 || m > 9010 {
		t.Errorf("READ max %v: the failure left out", m)
	}
	if m, _ := f.Max(All); m > 9010 {
		t.Errorf("ALL max %v: a composite measurement counted", m)
	}
	if m, _ := f.Max("READ-MODIFY-WRITE"); m < 49000 {
		t.Errorf("READ-MODIFY-WRITE on its own: %v", m)
	}
	fi, _ := NewFigures(samples, Intended, 5, 1, true, 100)
	if m, _ := fi.Mean("READ"); m < 4990 || m > 5010 {
		t.Errorf("intended READ mean %v", m)
	}
	if _, ok := fi.Mean("UPDATE"); ok {
		t.Error("intended: UPDATE has no intended measurement, so no data")
	}
	rs := Evaluate(mustParse(t, "errors<=10%, READ.p50<=100us, throughput>=100"), f)
	if rs[0].Verdict != Fail || rs[0].Measured != 0.2 || rs[1].Verdict != Pass || rs[2].Verdict != Pass {
		t.Errorf("%+v", rs)
	}
	unknown, _ := NewFigures(samples, Service, 5, 0, false, 100)
	if r := Evaluate(mustParse(t, "errors<=10%"), unknown); r[0].Verdict != NoData {
		t.Errorf("unknown failures: %+v", r)
	}
}

func mustParse(t *testing.T, s string) []Objective {
	t.Helper()
	o, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestJudgementRows: the rows and the error name each objective as
// written with its measure; a client's share is not judged.
func TestJudgementRows(t *testing.T) {
	f, _ := NewFigures([]Sample{{Operation: "READ", Hist: hist(4000)}}, Intended, 10, 0, true, 2.5)
	j := &Judgement{Results: Evaluate(mustParse(t, "READ.p99<=5ms, throughput>=3"), f), Latency: Intended}
	var got []string
	for _, r := range j.Rows() {
		got = append(got, "["+r.Metric+"], "+r.Name+", "+r.Value.String())
	}
	want := "[SLO], Latency, intended|[SLO], READ.p99<=5ms, PASS (4 ms)|[SLO], throughput>=3, FAIL (2.5 ops/s)|[SLO], Verdict, FAIL (1 of 2 objectives)"
	if strings.Join(got, "|") != want {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if err := j.Err(); !IsUnmet(err) || err.Error() != "SLO not met: throughput>=3 (2.5 ops/s)" {
		t.Errorf("err %v", err)
	}
	js := j.JSON()
	if js.Passed || !js.Judged || js.Objectives[0].Verdict != "PASS" || js.Objectives[1].Statistic != "throughput" || *js.Objectives[0].Measured != 4001 && *js.Objectives[0].Measured != 4000 {
		t.Errorf("json %+v", js)
	}
	j.Share = "client 1 of 2"
	if j.Err() != nil || !strings.HasPrefix(j.Rows()[3].Value.String(), "NOT JUDGED (client 1 of 2") || j.JSON().Objectives[1].Verdict != "" {
		t.Errorf("share judged: %v %v", j.Err(), j.Rows())
	}
}

type fakeInterval struct {
	over, n, ops, errs int64
	sum                float64
}

func (f fakeInterval) Over(string, float64) (int64, int64, float64) { return f.over, f.n, f.sum }
func (f fakeInterval) Operations() int64                            { return f.ops }
func (f fakeInterval) Errors() int64                                { return f.errs }

// TestWatch: known answers of the abort's decisions.
func TestWatch(t *testing.T) {
	for _, c := range []struct {
		name  string
		objs  string
		total int64
		ivs   []fakeInterval
		abort int // the interval that aborts (1-based), 0 for none
	}{
		// 2% over a 1% allowance: at n=1000 the Wilson bound at 5 SE is
		// 0.69%, below 1%; at n=10000 it is 1.41%, above it.
		{"p99 statistical", "READ.p99<=5ms", 0, []fakeInterval{{over: 20, n: 1000}, {over: 180, n: 9000}}, 2},
		// Too few operations to judge, however bad.
		{"p99 minimum", "READ.p99<=5ms", 0, []fakeInterval{{over: 999, n: 999}}, 0},
		// 1.2% in 100,000: the bound is 1.04%, above 1%...
		{"p99 close", "READ.p99<=5ms", 0, []fakeInterval{{over: 1200, n: 100000}}, 1},
		// ...1.1% is not beyond doubt (bound 0.95%).
		{"p99 closer", "READ.p99<=5ms", 0, []fakeInterval{{over: 1100, n: 100000}}, 0},
		// A known total: 11 over in a run of 1,000 can never pass p99.
		{"p99 certain", "READ.p99<=5ms", 1000, []fakeInterval{{over: 11, n: 100}}, 1},
		{"max", "ALL.max<=1s", 0, []fakeInterval{{n: 5}, {over: 1, n: 5}}, 2},
		{"mean known total", "READ.mean<=1ms", 100, []fakeInterval{{n: 10, sum: 50_000}, {n: 10, sum: 60_000}}, 2},
		{"mean unknown total", "READ.mean<=1ms", 0, []fakeInterval{{n: 10, sum: 1e9}}, 0},
		{"errors", "errors<=0.1%", 0, []fakeInterval{{ops: 10000, errs: 100}}, 1},
		{"throughput never", "throughput>=1e9", 0, []fakeInterval{{ops: 1, n: 1}}, 0},
	} {
		w := NewWatch(mustParse(t, c.objs), c.total)
		got := 0
		for i, iv := range c.ivs {
			if why, failed := w.Add(iv); failed {
				got = i + 1
				if !strings.HasPrefix(why, c.objs+" failed beyond doubt: ") {
					t.Errorf("%s: why %q", c.name, why)
				}
				break
			}
		}
		if got != c.abort {
			t.Errorf("%s: aborted at %d, want %d", c.name, got, c.abort)
		}
	}
}

// TestLeftOut: the reference's read-modify-write is its read and update,
// left out of ALL; one run as a transaction is an operation of its own.
func TestLeftOut(t *testing.T) {
	for _, tc := range []struct {
		op   string
		own  bool
		want bool
	}{
		{"READ-MODIFY-WRITE", false, true}, {"READ-MODIFY-WRITE", true, false},
		{"CLEANUP", true, true}, {"VERIFY", false, true}, {"SCAN-LATENCY-PER-RECORD", true, true},
		{"READ", false, false}, {"UPDATE", true, false},
	} {
		if got := LeftOut(tc.op, tc.own); got != tc.want {
			t.Errorf("LeftOut(%s, %v) = %v", tc.op, tc.own, got)
		}
	}
}
