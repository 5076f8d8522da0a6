package htmlreport

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run/capacity"
)

// realCapacity is testdata/capacity.json: a real search of the basic
// binding (workload A, 4 threads sleeping 1 ms, READ.p99<=50ms and
// UPDATE.p99<=50ms), written by
//
//	ycsb capacity basic -P workloads/workloada -threads 4 -p capacity.maxthreads=4 -p basicdb.simulatedelay=1 -p basicdb.randomizedelay=false -p slo="READ.p99<=50ms, UPDATE.p99<=50ms" -p capacity.steptime=2 -p capacity.warmup=0.5 -p capacity.start=1000 -p report.json=capacity.json
//
// Steps (asked: verdict, READ.p99): 1000 PASS 3.48 ms, 2000 FAIL 69.18 ms,
// 1414 PASS 8.01 ms, 1682 PASS 5.41 ms, 1834 PASS 3.46 ms, 1915 PASS
// 2.49 ms; the answer 1915 ops/s (1914.19 achieved), first failing 2000.
func realCapacity(t *testing.T) *jsonreport.Report {
	t.Helper()
	data, err := os.ReadFile("testdata/capacity.json")
	if err != nil {
		t.Fatal(err)
	}
	var r jsonreport.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// capStep is a step of a made-up search: the rate asked and achieved, the
// step's verdict, and READ.p99's figure (µs).
type capStep struct {
	asked, achieved float64
	verdict         string
	p99             float64
}

// fakeCapacity is a capacity search judged on READ.p99<=limit with the
// steps given, its answer what the passing step asked max served.
func fakeCapacity(binding string, limitUs float64, steps []capStep, max, failing float64, limit, why string) *jsonreport.Report {
	c := &jsonreport.Capacity{MaxOpsSec: max, FirstFailingOpsSec: failing, Limit: limit, LimitWhy: why, Resolution: 0.05}
	for _, s := range steps {
		m := s.p99
		v := "PASS"
		if m > limitUs {
			v = "FAIL"
		}
		c.Steps = append(c.Steps, jsonreport.CapacityStep{AskedOpsSec: s.asked, AchievedOpsSec: s.achieved, Threads: 8,
			Verdict: s.verdict, Trusted: true, SLO: &slo.SLO{Latency: "intended", Judged: true, Passed: v == "PASS",
				Objectives: []slo.SLOObjective{{Objective: "READ.p99<=2ms", Operation: "READ", Statistic: "p99",
					Comparison: "<=", Limit: limitUs, Unit: "us", Measured: &m, Verdict: v}}}})
		if s.asked == max && s.verdict == "PASS" {
			// The answer is what the step at max served.
			c.MaxOpsSec, c.AchievedOpsSec = measurement.Served(s.asked, s.achieved), s.achieved
		}
	}
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: binding,
		Phase: "capacity", Settings: map[string]string{"slo": "READ.p99<=2ms"}, Clients: 1, Start: start,
		End: start.Add(time.Minute), RunTimeMs: 60000, Intervals: []jsonreport.Interval{}, Capacity: c}
}

// pebbleSearch passes up to 8000, fails at 16000 and 10000 (p99 past
// the knee, two decades above the start), and answers 8000.
func pebbleSearch() *jsonreport.Report {
	return fakeCapacity("pebble", 2000, []capStep{{1000, 999, "PASS", 300}, {2000, 1998, "PASS", 320}, {4000, 3990, "PASS", 400},
		{8000, 7950, "PASS", 900}, {16000, 11800, "FAIL", 95000}, {10000, 9870, "FAIL", 4200}, {8944, 8901, "FAIL", 2600},
		{8458, 8420, "PASS", 1500}}, 8458, 8944, "system", "the system: the bracket is within capacity.resolution")
}

// clientSearch: the step at 4000 could not be offered (CLIENT-LIMITED,
// 3100 achieved): the answer, 2000, is a lower bound the client set.
func clientSearch() *jsonreport.Report {
	return fakeCapacity("rocksdb", 2000, []capStep{{1000, 1000, "PASS", 500}, {2000, 1999, "PASS", 700}, {4000, 3100, "CLIENT-LIMITED", 800}},
		2000, 4000, "client", "the client: 8 threads at 2.5 ms offer at most 3200 ops/s (capacity.maxthreads); the system's capacity is at least this")
}

func TestBuildCapacity(t *testing.T) {
	d, err := Build("t", []Input{{Name: "basic capacity", Report: realCapacity(t)}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Capacity) != 2 || d.Capacity[0].Objective != "READ.p99<=50ms" || d.Capacity[1].Objective != "UPDATE.p99<=50ms" {
		t.Fatalf("charts %+v", d.Capacity)
	}
	c := d.Capacity[0]
	if c.Limit != 50000 || c.Statistic != "p99" || c.Operation != "READ" || len(c.Series) != 1 || c.Series[0].Run != 0 {
		t.Fatalf("READ chart %+v", c)
	}
	// In order of the rate asked, with the step's number in search order.
	var asked, step []float64
	for _, p := range c.Series[0].Points {
		asked, step = append(asked, p.Asked), append(step, float64(p.Step))
	}
	if want := []float64{1000, 1414, 1682, 1834, 1915, 2000}; !equal(asked, want) || !equal(step, []float64{1, 3, 4, 5, 6, 2}) {
		t.Errorf("points asked %v, steps %v", asked, step)
	}
	last := c.Series[0].Points[5]
	if last.Verdict != "FAIL" || last.Objective != "FAIL" || last.Measured != 69183 || math.Abs(last.Achieved-2004.1) > 0.01 ||
		!strings.Contains(last.Why, "READ.p99<=50ms") {
		t.Errorf("the failing step %+v", last)
	}
	if p := c.Series[0].Points[0]; p.Verdict != "PASS" || p.Measured != 3481 || math.Abs(p.Achieved-999.64) > 0.01 {
		t.Errorf("the first step %+v", p)
	}
	// 2.5 ms to 69 ms: more than a decade.
	if !c.LogY || !d.Capacity[1].LogY {
		t.Error("linear y over 28x")
	}
	cr := d.Runs[0].Capacity
	if cr == nil || len(cr.Steps) != 6 {
		t.Fatalf("run's search %+v", cr)
	}
	for _, s := range cr.Steps {
		if s.Measurements != nil {
			t.Fatal("a step's histograms on the page")
		}
	}
	a := cr.Answer
	// The answer is what step 6 served: 1914.19 of the 1915 ops/s asked.
	if a.MaxOpsSec != 1914.1859691425932 || a.FirstFailingOpsSec != 2000 || math.Abs(a.X-1914.19) > 0.01 || math.Abs(a.XFailing-2004.1) > 0.01 ||
		a.Limit != "system" || a.Headline != "max 1914 ops/s achieved (1915 asked), first failing 2000 ops/s" ||
		a.LimitWhy != "the system: the bracket is within capacity.resolution" {
		t.Errorf("answer %+v", a)
	}
	if len(d.Thresholds) != 0 || len(d.Operations) != 0 {
		t.Errorf("time-series charts' data in a capacity page: %v %v", d.Thresholds, d.Operations)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBuildCapacityOverlaid: two searches at one objective are two series
// of one chart, each with its answer; a client-limited answer says the
// client set it.
func TestBuildCapacityOverlaid(t *testing.T) {
	d, err := Build("t", []Input{{Name: "pebble", Report: pebbleSearch()}, {Name: "rocksdb", Report: clientSearch()}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Capacity) != 1 || len(d.Capacity[0].Series) != 2 {
		t.Fatalf("charts %+v", d.Capacity)
	}
	c := d.Capacity[0]
	if len(c.Series[0].Points) != 8 || len(c.Series[1].Points) != 3 || c.Series[1].Run != 1 {
		t.Errorf("series %+v", c.Series)
	}
	if p := c.Series[1].Points[2]; p.Verdict != "CLIENT-LIMITED" || p.Objective != "PASS" || p.Achieved != 3100 {
		t.Errorf("client-limited step %+v", p)
	}
	if !c.LogY {
		t.Error("300 µs to 95 ms on a linear axis")
	}
	pa, ra := d.Runs[0].Capacity.Answer, d.Runs[1].Capacity.Answer
	if pa.X != 8420 || pa.XFailing != 8901 || pa.Headline != "max 8420 ops/s achieved (8458 asked), first failing 8944 ops/s" {
		t.Errorf("pebble's answer %+v", pa)
	}
	want := "at least 1999 ops/s achieved (2000 asked): the client, not the system, limited the step at 4000 ops/s asked (3100 achieved), so this is a lower bound, not the system's limit"
	if ra.X != 1999 || ra.XFailing != 3100 || ra.Limit != "client" || ra.Headline != want {
		t.Errorf("rocksdb's answer %+v", ra)
	}
	// Within a decade: linear.
	d, err = Build("t", []Input{{Name: "rocksdb", Report: clientSearch()}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if d.Capacity[0].LogY {
		t.Error("log y over 500 µs to 2 ms")
	}
}

// TestCapacityHeadline: each way a search ends, in a line.
func TestCapacityHeadline(t *testing.T) {
	for _, tc := range []struct {
		c    jsonreport.Capacity
		want string
	}{
		{jsonreport.Capacity{Limit: "none", FirstFailingOpsSec: 1000}, "no rate met the objectives (the lowest asked, 1000 ops/s, failed)"},
		// The answer is what its step achieved, short of the rate asked
		// (within the shortfall), never shown above it.
		{jsonreport.Capacity{Limit: "max", MaxOpsSec: 63990.7, AchievedOpsSec: 63990.7, Steps: []jsonreport.CapacityStep{{AskedOpsSec: 64000, AchievedOpsSec: 63990.7, Verdict: "PASS"}}},
			"at least 63990 ops/s achieved (64000 asked): the highest rate the search could ask passed"},
		// A step that ran ahead of its rate: the answer is the rate asked.
		{jsonreport.Capacity{Limit: "max", MaxOpsSec: 64000, AchievedOpsSec: 64010, Steps: []jsonreport.CapacityStep{{AskedOpsSec: 64000, AchievedOpsSec: 64010, Verdict: "PASS"}}},
			"at least 64000 ops/s (64010 achieved): the highest rate the search could ask passed"},
		{jsonreport.Capacity{Limit: "steps", MaxOpsSec: 2000, AchievedOpsSec: 2001, FirstFailingOpsSec: 4000},
			"max 2000 ops/s (2001 achieved), first failing 4000 ops/s: the steps ran out before the resolution"},
		{jsonreport.Capacity{Limit: "system", MaxOpsSec: 2000, AchievedOpsSec: 2001, FirstFailingOpsSec: 2100},
			"max 2000 ops/s (2001 achieved), first failing 2100 ops/s"},
		// An answer on steps too short to trust says so.
		{jsonreport.Capacity{Limit: "system", MaxOpsSec: 2000, AchievedOpsSec: 2001, FirstFailingOpsSec: 2100, Untrusted: "step 4 (2000 ops/s, PASS): too few operations"},
			"max 2000 ops/s (2001 achieved), first failing 2100 ops/s; not to be trusted: step 4 (2000 ops/s, PASS): too few operations"},
		{jsonreport.Capacity{Limit: capacity.LimitUntrusted, MaxOpsSec: 2000, AchievedOpsSec: 2001, FirstFailingOpsSec: 2100, Untrusted: "step 5 (2100 ops/s, FAIL): too few operations"},
			"max 2000 ops/s (2001 achieved), first failing 2100 ops/s, but that failure is not to be trusted: neither the system nor the client is shown to be the limit; not to be trusted: step 5 (2100 ops/s, FAIL): too few operations"},
		// Issue 48: a hopeless search's lowest step achieved its rate: the
		// client limited it otherwise, and nothing was judged.
		{jsonreport.Capacity{Limit: "client", FirstFailingOpsSec: 16, Steps: []jsonreport.CapacityStep{{AskedOpsSec: 16, AchievedOpsSec: 16, Verdict: "CLIENT-LIMITED"}}},
			"no rate was judged: the client, not the system, limited the steps down to 16 ops/s asked (16 achieved)"},
		{jsonreport.Capacity{Limit: "client", MaxOpsSec: 2000, AchievedOpsSec: 2001, FirstFailingOpsSec: 2100,
			Steps: []jsonreport.CapacityStep{{AskedOpsSec: 2000, AchievedOpsSec: 2001, Verdict: "PASS"}, {AskedOpsSec: 2100, AchievedOpsSec: 2098, Verdict: "CLIENT-LIMITED"}}},
			"at least 2000 ops/s (2001 achieved): the client, not the system, limited the step at 2100 ops/s asked (2098 achieved), so this is a lower bound, not the system's limit"},
		// One client's share of a fleet's ladder has no answer.
		{jsonreport.Capacity{Limit: capacity.LimitFleet, LimitWhy: "not judged: client 1 of 3; ycsb merge judges each step on the fleet's merged histograms"},
			"not judged: one client's share of a fleet's steps; ycsb merge the clients' reports for the answer"},
		// A kind this page does not know: its sentence as written, no figures.
		{jsonreport.Capacity{Limit: "interrupted", MaxOpsSec: 2000, LimitWhy: "interrupted after 3 steps"}, "interrupted after 3 steps"},
		{jsonreport.Capacity{Limit: "later"}, `the search ended by "later", with no answer given`},
	} {
		if got := headline(&tc.c); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.c.Limit, got, tc.want)
		}
	}
}

// TestBuildMixed: a capacity search and a run share no chart: refused.
func TestBuildMixed(t *testing.T) {
	for _, in := range [][]Input{
		{{Name: "a", Report: fakeReport(t, "basic", 2, 100, 1)}, {Name: "b", Report: clientSearch()}},
		{{Name: "b", Report: clientSearch()}, {Name: "a", Report: fakeReport(t, "basic", 2, 100, 1)}},
	} {
		_, err := Build("t", in, time.Unix(0, 0))
		if err == nil || err.Error() != `"b" is a capacity search and "a" is not: draw them on separate pages` {
			t.Errorf("error %v", err)
		}
	}
}

// TestPageCapacity: the charts and answers reach the page's data.
func TestPageCapacity(t *testing.T) {
	d, err := Build("t", []Input{{Name: "pebble", Report: pebbleSearch()}, {Name: "rocksdb", Report: clientSearch()}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	got := pageData(t, buf.String())
	if len(got.Capacity) != 1 || len(got.Capacity[0].Series[0].Points) != 8 || got.Capacity[0].Limit != 2000 ||
		got.Runs[1].Capacity == nil || got.Runs[1].Capacity.Answer.Limit != "client" || len(got.Runs[0].Capacity.Steps) != 8 {
		t.Errorf("capacity on the page: %+v", got.Capacity)
	}
}

// TestChromiumCapacity loads the real search's page in headless Chromium:
// two charts (READ and UPDATE), six points each, a limit and an answer on
// each, the failing step red, and its table; then two searches overlaid,
// one client-limited.
func TestChromiumCapacity(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	d, err := Build("basic capacity", []Input{{Name: "basic capacity", Report: realCapacity(t)}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	page, st := load(t, bin, t.TempDir(), d)
	if st.charts != 2 || st.points != 12 || st.empty != 0 || st.thresholds != 2 || st.answers != 2 {
		t.Errorf("charts %d, points %d, empty %d, thresholds %d, answers %d", st.charts, st.points, st.empty, st.thresholds, st.answers)
	}
	for _, want := range []struct {
		s string
		n int
	}{
		{`class="step pass"`, 10},
		{`class="step fail"`, 2},
		{`class="answer"`, 2},
		{`class="bracket"`, 2},
		{`>max 1,914 ops/s</text>`, 2},
		{`>READ.p99&lt;=50ms (the limit)</tspan>`, 1},
		{`<b>Answer: max 1914 ops/s achieved (1915 asked), first failing 2000 ops/s.</b> Limit: the system: the bracket is within capacity.resolution.`, 1},
		{`<td style="color:#c62828;font-weight:600">69.2ms</td>`, 1},
	} {
		if n := strings.Count(st.dom, want.s); n != want.n {
			t.Errorf("%d of %s, want %d", n, want.s, want.n)
		}
	}
	img := screenshot(t, bin, page, 1400)
	red := pixels(img, func(r, g, b uint32) bool { return r > 0xb0 && g < 0x50 && b < 0x50 })
	green := pixels(img, func(r, g, b uint32) bool { return r < 0x40 && g > 0x60 && g < 0x90 && b > 0x30 && b < 0x48 })
	if red < 20 || green < 50 {
		t.Errorf("%d red and %d green pixels: the verdicts' colours are not on the picture", red, green)
	}
	if p := os.Getenv("YCSB_SCREENSHOT_CAPACITY"); p != "" {
		data, _ := os.ReadFile(strings.TrimSuffix(page, ".html") + ".png")
		os.WriteFile(p, data, 0o644)
	}

	d, err = Build("pebble vs rocksdb", []Input{{Name: "pebble", Report: pebbleSearch()}, {Name: "rocksdb", Report: clientSearch()}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, st = load(t, bin, t.TempDir(), d)
	if st.charts != 1 || st.points != 11 || st.thresholds != 1 || st.answers != 2 {
		t.Errorf("overlaid: charts %d, points %d, thresholds %d, answers %d", st.charts, st.points, st.thresholds, st.answers)
	}
	for _, want := range []struct {
		s string
		n int
	}{
		{`class="step client-limited"`, 1},
		// Its figure in the table is grey: the client's queue, not the system's.
		{`<td style="color:#6b7280;font-weight:600">800µs</td>`, 1},
		{`>CLIENT-LIMITED</text>`, 1},
		{`>rocksdb: ≥ 1,999 ops/s (client-limited)</text>`, 1},
		{`>pebble: max 8,420 ops/s</text>`, 1},
		{`the client, not the system, limited the step at 4000 ops/s asked (3100 achieved), so this is a lower bound, not the system's limit.</b> Limit: the client: 8 threads`, 2},
		{`<path d="M`, 2}, // the two series: pebble's markers are circles, rocksdb's squares
	} {
		if n := strings.Count(st.dom, want.s); n != want.n {
			t.Errorf("overlaid: %d of %s, want %d", n, want.s, want.n)
		}
	}
}

// TestChromiumCapacityNoLatency: a search judged on its error rate alone
// has no chart, says so, and still lists its steps.
func TestChromiumCapacityNoLatency(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	r := clientSearch()
	for i := range r.Capacity.Steps {
		m := 0.0
		r.Capacity.Steps[i].SLO.Objectives = []slo.SLOObjective{{Objective: "errors<=1%", Statistic: "errors", Comparison: "<=",
			Limit: 0.01, Unit: "fraction", Measured: &m, Verdict: "PASS"}}
	}
	d, err := Build("t", []Input{{Name: "rocksdb", Report: r}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Capacity) != 0 {
		t.Fatalf("charts %+v", d.Capacity)
	}
	_, st := load(t, bin, t.TempDir(), d)
	if st.charts != 0 || st.points != 0 || !strings.Contains(st.dom, `class="no-charts"`) || strings.Count(st.dom, `<td style="color:#1a7f37;font-weight:600">0%</td>`) != 2 ||
		strings.Count(st.dom, `<td style="color:#6b7280;font-weight:600">0%</td>`) != 1 {
		t.Errorf("charts %d, points %d:\n%.3000s", st.charts, st.points, st.dom)
	}
}
