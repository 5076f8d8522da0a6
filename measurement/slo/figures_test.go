package slo

import (
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// times is n copies of v.
func times(v int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

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
		{Operation: "READ", Hist: hist(times(100, 19)...)},
		{Operation: "READ", Hist: hist(9000)}, // READ-FAILED: 20 in all, what a p50 needs
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
	f, _ := NewFigures([]Sample{{Operation: "READ", Hist: hist(times(4000, 1000)...)}}, Intended, 1000, 0, true, 2.5)
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

// TestOpsForPercentile: known answers of ⌈10/(1−p/100)⌉, with p's binary
// representation not adding an operation (99.9 is not 10,001).
func TestOpsForPercentile(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want int64
	}{
		{0.1, 11}, {50, 20}, {75, 40}, {90, 100}, {95, 200}, {99, 1000}, {99.5, 2000},
		{99.9, 10000}, {99.99, 100000}, {99.999, 1000000},
	} {
		if got := OpsForPercentile(tt.p); got != tt.want {
			t.Errorf("OpsForPercentile(%v) = %d, want %d", tt.p, got, tt.want)
		}
		if TooFewOps(tt.want, tt.p) != "" || TooFewOps(tt.want-1, tt.p) == "" {
			t.Errorf("p%v: TooFewOps(%d) and (%d) disagree with OpsForPercentile", tt.p, tt.want, tt.want-1)
		}
	}
}

// TestEvaluateTooFew: a percentile judged on fewer operations than
// OpsForPercentile is NO DATA with the count and the need, whatever the
// figure; at the need it is judged. Other statistics are judged on any
// count.
func TestEvaluateTooFew(t *testing.T) {
	for _, tt := range []struct {
		objective string
		n         int
		want      Verdict
		why       string
	}{
		{"READ.p99<=5ms", 7, NoData, "7 READ operations; a p99 needs at least 1000 operations, 10 beyond it"},
		{"READ.p99<=5ms", 999, NoData, "999 READ operations; a p99 needs at least 1000 operations, 10 beyond it"},
		{"READ.p99<=5ms", 1000, Pass, ""},
		{"READ.p99<=1ms", 1000, Fail, ""},
		{"read.p50<=5ms", 19, NoData, "19 READ operations; a p50 needs at least 20 operations, 10 beyond it"},
		{"READ.p50<=5ms", 20, Pass, ""},
		{"READ.p99.9<=5ms", 9999, NoData, "9999 READ operations; a p99.9 needs at least 10000 operations, 10 beyond it"},
		{"READ.p99.9<=5ms", 10000, Pass, ""},
		{"ALL.p99<=5ms", 500, NoData, "500 operations; a p99 needs at least 1000 operations, 10 beyond it"},
		{"READ.max<=5ms", 1, Pass, ""},
		{"READ.mean<=5ms", 1, Pass, ""},
		{"UPDATE.p99<=5ms", 1000, NoData, "no UPDATE operations measured"},
	} {
		f, err := NewFigures([]Sample{{Operation: "READ", Hist: hist(times(2000, tt.n)...)}}, Service, int64(tt.n), 0, true, 100)
		if err != nil {
			t.Fatal(err)
		}
		r := Evaluate(mustParse(t, tt.objective), f)[0]
		if r.Verdict != tt.want || r.Why != tt.why {
			t.Errorf("%s on %d: %v %q, want %v %q", tt.objective, tt.n, r.Verdict, r.Why, tt.want, tt.why)
		}
		if r.Verdict == NoData && r.Measured != 0 {
			t.Errorf("%s on %d: NO DATA measured %v", tt.objective, tt.n, r.Measured)
		}
	}
}

// TestJudgementTooFew: the rows, the JSON and the error say why an
// objective is NO DATA, and it fails the run as nothing measured does; a
// client's share reports the reason instead of a figure.
func TestJudgementTooFew(t *testing.T) {
	f, _ := NewFigures([]Sample{{Operation: "READ", Hist: hist(times(2000, 7)...)}}, Service, 7, 0, true, 100)
	j := &Judgement{Results: Evaluate(mustParse(t, "READ.p99<=5ms, READ.max<=5ms"), f), Latency: Service}
	why := "7 READ operations; a p99 needs at least 1000 operations, 10 beyond it"
	var got []string
	for _, r := range j.Rows() {
		got = append(got, r.Name+", "+r.Value.String())
	}
	want := "Latency, service|READ.p99<=5ms, NO DATA (" + why + ")|READ.max<=5ms, PASS (2 ms)|Verdict, FAIL (1 of 2 objectives)"
	if strings.Join(got, "|") != want {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if err := j.Err(); !IsUnmet(err) || err.Error() != "SLO not met: READ.p99<=5ms (no data: "+why+")" {
		t.Errorf("err %v", err)
	}
	js := j.JSON()
	if o := js.Objectives[0]; js.Passed || o.Verdict != "NO DATA" || o.Measured != nil || o.Why != why || js.Objectives[1].Why != "" {
		t.Errorf("json %+v", js)
	}
	j.Share = "client 0 of 2"
	if v := j.Rows()[1].Value.String(); v != "no data: "+why {
		t.Errorf("a share's row %q", v)
	}
}
