package merge

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// lcg is a small deterministic generator for test data.
type lcg uint64

func (l *lcg) next() float64 {
	*l = *l*6364136223846793005 + 1442695040888963407
	return float64(uint64(*l)>>11) / (1 << 53)
}

// fake builds a report of a client that ran from t0+offset for secs
// seconds at about rate ops/sec, with READ latencies around meanUs.
func fake(t testing.TB, seed uint64, offset time.Duration, secs int, rate, meanUs float64) *jsonreport.Report {
	t.Helper()
	g := lcg(seed)
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	r := &jsonreport.Report{
		Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: "basic", Phase: "run",
		MeasurementType: "hdrhistogram", Percentiles: []float64{50, 95, 99}, Clients: 1,
		Settings: map[string]string{"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000", "readproportion": "1"},
		Start:    t0.Add(offset), End: t0.Add(offset + time.Duration(secs)*time.Second),
		RunTimeMs: int64(secs) * 1000,
	}
	for i := 0; i < secs; i++ {
		n := int64(rate + (g.next()-0.5)*rate*0.1)
		for j := int64(0); j < n; j++ {
			h.RecordValue(int64(meanUs * 2 * g.next()))
		}
		r.Intervals = append(r.Intervals, jsonreport.Interval{StartMs: int64(i) * 1000, EndMs: int64(i+1) * 1000, Ops: n, ByOp: map[string]int64{"READ": n}})
		r.Operations += n
	}
	r.Throughput = float64(r.Operations) / float64(secs)
	m := jsonreport.Measurement{Name: "READ", Operation: "READ", Returns: []jsonreport.Return{{Status: "OK", Count: r.Operations - 3}, {Status: "ERROR", Count: 3}}}
	if err := fill(&m, h, r.Percentiles); err != nil {
		t.Fatal(err)
	}
	r.Measurements = []jsonreport.Measurement{m}
	r.Sections = textRows(r, map[string]*hdrhistogram.Histogram{"READ": h})
	return r
}

func roundTrip(t *testing.T, r *jsonreport.Report) *jsonreport.Report {
	t.Helper()
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := jsonreport.Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestMerge(t *testing.T) {
	reps := []*jsonreport.Report{
		fake(t, 1, 0, 10, 1000, 800),
		fake(t, 2, 2*time.Second, 10, 1000, 900),
		fake(t, 3, 1*time.Second, 8, 500, 2000),
	}
	for i := range reps {
		reps[i] = roundTrip(t, reps[i])
	}
	m, err := Merge([]string{"a.json", "b.json", "c.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	// Counts add up.
	var ops int64
	union := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, r := range reps {
		ops += r.Operations
		h, _ := jsonreport.DecodeHistogram(r.Measurements[0].Histogram)
		union.Merge(h)
	}
	if m.Operations != ops || m.Measurements[0].Count != ops {
		t.Errorf("merged operations %d/%d, want %d", m.Operations, m.Measurements[0].Count, ops)
	}
	if got := m.Measurements[0].Returns; got[0].Count != ops-9 || got[1].Count != 9 {
		t.Errorf("returns %v", got)
	}
	// Percentiles come from the merged histogram.
	for _, p := range []float64{50, 95, 99} {
		if got, want := m.Measurements[0].Percentiles[jsonreport.PercentileKey(p)], union.ValueAtPercentile(p); math.Abs(float64(got-want)) > float64(want)/1000+1 {
			t.Errorf("p%v = %d, want %d", p, got, want)
		}
	}
	// The common window is [t0+2s, t0+9s): all three ran then.
	want := 0.0
	for _, r := range reps {
		for _, iv := range r.Intervals {
			s := r.Start.Add(time.Duration(iv.StartMs) * time.Millisecond)
			if !s.Before(t0.Add(2*time.Second)) && s.Before(t0.Add(9*time.Second)) {
				want += float64(iv.Ops)
			}
		}
	}
	want /= 7
	if math.Abs(m.Throughput-want) > 1e-9*want {
		t.Errorf("throughput %v, want %v", m.Throughput, want)
	}
	var text bytes.Buffer
	for _, r := range m.Sections {
		text.WriteString(r.Metric + ", " + r.Name + ", " + Num(float(r.Value)) + "\n")
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "merge.txt"), text.Bytes())
	var doc bytes.Buffer
	jsonreport.Write(&doc, m)
	ycsbtest.Golden(t, filepath.Join("testdata", "merge.json"), doc.Bytes())
}

func TestCompare(t *testing.T) {
	a := roundTrip(t, fake(t, 10, 0, 30, 1000, 800))
	b := roundTrip(t, fake(t, 11, 0, 30, 1100, 700))
	c := roundTrip(t, fake(t, 12, 0, 30, 1002, 800))
	for _, tt := range []struct {
		name   string
		a, b   *jsonreport.Report
		signif bool
	}{
		{"compare_faster.txt", a, b, true},
		{"compare_same.txt", a, c, false},
	} {
		var out bytes.Buffer
		if err := Compare(&out, "a.json", "b.json", tt.a, tt.b); err != nil {
			t.Fatal(err)
		}
		if got := Welch(Rates(tt.a, ""), Rates(tt.b, "")).Significant(); got != tt.signif {
			t.Errorf("%s: significant = %v, want %v", tt.name, got, tt.signif)
		}
		if !strings.Contains(out.String(), "Welch's t-test") {
			t.Errorf("%s: the test is not named:\n%s", tt.name, out.String())
		}
		ycsbtest.Golden(t, filepath.Join("testdata", tt.name), out.Bytes())
	}
}

func TestStudent(t *testing.T) {
	// Two-sided p-values from statistical tables.
	for _, tt := range []struct{ t, df, p float64 }{
		{2.0, 10, 0.07339},
		{2.228, 10, 0.05},
		{1.96, 1e6, 0.05},
		{0, 5, 1},
		{12.706, 1, 0.05},
		{-3.0, 20, 0.00707},
	} {
		if got := StudentTwoSided(tt.t, tt.df); math.Abs(got-tt.p) > 5e-4 {
			t.Errorf("p(t=%v, df=%v) = %.5f, want %.5f", tt.t, tt.df, got, tt.p)
		}
	}
}

func TestEffectiveSampleSize(t *testing.T) {
	// A slowly drifting series is worth fewer samples than it has.
	var drift, noise []float64
	g := lcg(5)
	for i := 0; i < 100; i++ {
		drift = append(drift, float64(i))
		noise = append(noise, g.next())
	}
	_, _, rd := MeanVar(drift)
	_, _, rn := MeanVar(noise)
	if ne := effective(100, rd); ne > 10 {
		t.Errorf("drift: effective size %.1f of 100 (r1=%.2f), want few", ne, rd)
	}
	if ne := effective(100, rn); ne < 70 {
		t.Errorf("noise: effective size %.1f of 100 (r1=%.2f), want most", ne, rn)
	}
}

func TestMergeRefuses(t *testing.T) {
	base := func() *jsonreport.Report { return fake(t, 1, 0, 5, 100, 100) }
	tests := []struct {
		name   string
		change func(r *jsonreport.Report)
		want   string
	}{
		{"binding", func(r *jsonreport.Report) { r.Binding = "pebble" }, "different bindings"},
		{"phase", func(r *jsonreport.Report) { r.Phase = "load" }, "load phase"},
		{"workload", func(r *jsonreport.Report) { r.Settings["readproportion"] = "0.5" }, "readproportion"},
		{"disjoint", func(r *jsonreport.Report) {
			r.Start = r.Start.Add(time.Hour)
			r.End = r.End.Add(time.Hour)
		}, "do not overlap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base()
			tt.change(b)
			_, err := Merge([]string{"a.json", "b.json"}, []*jsonreport.Report{base(), b})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Merge = %v, want an error about %q", err, tt.want)
			}
		})
	}
}

// float is v as a float64, as merge.txt prints every value.
func float(v export.Value) float64 {
	if v.Float {
		return v.F
	}
	return float64(v.I)
}

// TestWelchKnownAnswers: the test's statistic, degrees of freedom and
// p-value against values worked out by hand (alternating samples have a
// negative lag-1 autocorrelation, so no sample size is reduced; p by
// numerical integration of Student's t density), and its edge cases.
func TestWelchKnownAnswers(t *testing.T) {
	rep := func(x ...float64) []float64 {
		var out []float64
		for range 3 {
			out = append(out, x...)
		}
		return out
	}
	for _, tt := range []struct {
		name      string
		a, b      []float64
		tv, df, p float64
	}{
		{"equal variances", rep(1, 3), rep(2, 4), 1.58114, 10, 0.14493},
		{"unequal variances", rep(1, 3), rep(5, 9), 5, 7.35294, 0.0013535},
		{"the same samples", rep(1, 3), rep(1, 3), 0, 10, 1},
		{"no variance, same mean", rep(7, 7), rep(7, 7), 0, 10, 1},
	} {
		w := Welch(tt.a, tt.b)
		if !w.OK || math.Abs(w.T-tt.tv) > 1e-4 || math.Abs(w.DF-tt.df) > 1e-4 || math.Abs(w.P-tt.p) > 1e-5 {
			t.Errorf("%s: t=%.5f df=%.5f p=%.7f, want t=%v df=%v p=%v", tt.name, w.T, w.DF, w.P, tt.tv, tt.df, tt.p)
		}
	}
	if w := Welch([]float64{1, 2}, []float64{1, 2, 3}); w.OK || w.Significant() {
		t.Errorf("two samples were tested: %+v", w)
	}
}

// TestCompareResolution: a difference below what the intervals can count,
// or below what the change column shows, is never significant, even when
// both runs are so steady that the t statistic is infinite; one above it
// is.
func TestCompareResolution(t *testing.T) {
	steady := func(perInterval int64) *jsonreport.Report {
		r := fake(t, 1, 0, 10, 100, 100)
		r.Operations = 0
		for i := range r.Intervals {
			r.Intervals[i].Ops = perInterval
			r.Intervals[i].ByOp = map[string]int64{"READ": perInterval}
			r.Operations += perInterval
		}
		r.Throughput = float64(r.Operations) / 10
		return r
	}
	for _, tt := range []struct {
		name   string
		a, b   int64 // operations per one-second interval
		signif bool
		want   string
	}{
		{"no difference", 1000, 1000, false, "not significant (a difference below the resolution, 1 ops/sec)"},
		{"+0.0%", 100000, 100001, false, "not significant (a difference below the resolution, 50 ops/sec)"},
		{"+0.1%, one operation per interval", 1000, 1001, true, "significant (p=<0.0001)"},
		{"+10%", 1000, 1100, true, "significant (p=<0.0001)"},
	} {
		a, b := steady(tt.a), steady(tt.b)
		test := throughputTest(a, b, "")
		if test.Significant() != tt.signif || verdict(test) != tt.want {
			t.Errorf("%s: significant %v, %q; want %v, %q", tt.name, test.Significant(), verdict(test), tt.signif, tt.want)
		}
		var out bytes.Buffer
		if err := Compare(&out, "a.json", "b.json", a, b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("%s: the comparison does not say %q:\n%s", tt.name, tt.want, out.String())
		}
	}
}

// TestMergeRetries: the clients' retries add up, with the section's
// Retries row; a negative count is refused.
func TestMergeRetries(t *testing.T) {
	reps := []*jsonreport.Report{fake(t, 1, 0, 10, 1000, 800), fake(t, 2, 0, 10, 1000, 900)}
	reps[0].Measurements[0].Retries, reps[1].Measurements[0].Retries = 3, 4
	m, err := Merge([]string{"a.json", "b.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	name := m.Measurements[0].Name
	if m.Measurements[0].Retries != 7 {
		t.Errorf("retries %d, want 7", m.Measurements[0].Retries)
	}
	found := false
	for _, r := range m.Sections {
		if r.Metric == name && r.Name == "Retries" {
			found = r.Value.I == 7
		}
	}
	if !found {
		t.Errorf("no [%s], Retries, 7 in the merged rows", name)
	}
	reps[1].Measurements[0].Retries = -1
	if _, err := Merge([]string{"a.json", "b.json"}, reps); err == nil || !strings.Contains(err.Error(), "b.json: measurement") {
		t.Errorf("negative retries: %v", err)
	}
}
