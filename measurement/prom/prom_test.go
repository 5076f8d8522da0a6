package prom

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
)

// harvest records samples into a Collector and returns its next harvest.
func harvest(t *testing.T, c *measurement.Collector, rec *measurement.Recorder, reads, failed int) *measurement.Snapshot {
	t.Helper()
	for i := 0; i < reads; i++ {
		// 80% at 200 µs, 20% at 30 ms.
		lat := int64(200_000)
		if i%5 == 4 {
			lat = 30_000_000
		}
		rec.Done(measurement.Read, status.OK, 0, lat, 0)
	}
	for i := 0; i < failed; i++ {
		rec.Done(measurement.Update, status.Error, 0, 2_000_000, 0)
	}
	// Each read and each failed update is one operation of the worker loop,
	// and every tenth read is a read-modify-write's (its update left out).
	for i := 0; i < reads-reads/10; i++ {
		rec.Operation()
	}
	for i := 0; i < failed; i++ {
		rec.FailedOperation()
	}
	return c.Tick()
}

// TestScrape serves the metrics on a real socket, scrapes them with an
// HTTP client and parses them with Prometheus's own text parser.
func TestScrape(t *testing.T) {
	cfg, err := measurement.ParseConfig(props.New())
	if err != nil {
		t.Fatal(err)
	}
	c := measurement.NewCollector(cfg, measurement.YCSB)
	rec := c.NewRecorder()
	e, err := Listen("127.0.0.1:0", Info{Binding: "basic", Phase: "run"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Observe(harvest(t, c, rec, 100, 3))
	e.Observe(harvest(t, c, rec, 50, 0))

	resp, err := http.Get("http://" + e.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("not the text exposition format: %v\n%s", err, body)
	}
	counter := func(op, status string) float64 {
		for _, m := range fams["ycsb_operations_total"].GetMetric() {
			l := map[string]string{}
			for _, lp := range m.GetLabel() {
				l[lp.GetName()] = lp.GetValue()
			}
			if l["operation"] == op && l["status"] == status {
				return m.GetCounter().GetValue()
			}
		}
		return -1
	}
	for _, c := range []struct {
		op, status string
		want       float64
	}{{"read", "OK", 150}, {"update", "ERROR", 3}, {"update", "OK", -1}} {
		if got := counter(c.op, c.status); got != c.want {
			t.Errorf("ycsb_operations_total{operation=%q,status=%q} = %v, want %v", c.op, c.status, got, c.want)
		}
	}
	ops := fams["ycsb_overall_operations_total"]
	if ops == nil || len(ops.GetMetric()) != 1 || ops.GetMetric()[0].GetCounter().GetValue() != 100+3-10+50-5 {
		t.Errorf("ycsb_overall_operations_total is not the 138 operations of the worker loops:\n%s", body)
	}
	failedOps := fams["ycsb_overall_failed_operations_total"]
	if failedOps == nil || len(failedOps.GetMetric()) != 1 || failedOps.GetMetric()[0].GetCounter().GetValue() != 3 {
		t.Errorf("ycsb_overall_failed_operations_total is not the 3 failed operations of the worker loops:\n%s", body)
	}
	lat := fams["ycsb_operation_latency_seconds"]
	if lat == nil {
		t.Fatalf("no latency histogram:\n%s", body)
	}
	found := false
	for _, m := range lat.GetMetric() {
		l := map[string]string{}
		for _, lp := range m.GetLabel() {
			l[lp.GetName()] = lp.GetValue()
		}
		h := m.GetHistogram()
		switch {
		case l["operation"] == "read" && l["result"] == "ok":
			found = true
			if h.GetSampleCount() != 150 {
				t.Errorf("read count %d", h.GetSampleCount())
			}
			for _, b := range h.GetBucket() {
				want := uint64(0)
				switch {
				case b.GetUpperBound() >= 0.05:
					want = 150
				case b.GetUpperBound() >= 0.00025:
					want = 120
				}
				if b.GetCumulativeCount() != want {
					t.Errorf("read le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
				}
			}
			if s := h.GetSampleSum(); s < 0.92 || s > 0.93 { // 120×200µs + 30×30ms = 0.924 s (+HDR rounding)
				t.Errorf("read sum %v", s)
			}
		case l["operation"] == "update" && l["result"] == "failed":
			if h.GetSampleCount() != 3 {
				t.Errorf("update-failed count %d", h.GetSampleCount())
			}
		default:
			t.Errorf("unexpected series %v", l)
		}
	}
	if !found {
		t.Error("no read latency series")
	}
	if fams["ycsb_run_info"] == nil || fams["ycsb_warmup"].GetMetric()[0].GetGauge().GetValue() != 0 {
		t.Errorf("run info or warm-up gauge missing:\n%s", body)
	}
	if !strings.Contains(string(body), `ycsb_operations_total{operation="read",status="OK"} 150`) {
		t.Errorf("exposition:\n%s", body)
	}
}

func TestListenBadAddress(t *testing.T) {
	if _, err := Listen("127.0.0.1:notaport", Info{}); err == nil || !strings.Contains(err.Error(), "127.0.0.1:notaport") {
		t.Errorf("got %v", err)
	}
}

func TestQuote(t *testing.T) {
	if got := quote("a\"b\\c\nd"); got != `"a\"b\\c\nd"` {
		t.Error(got)
	}
}

// TestEveryInterface: the listen addresses that serve every network
// interface (an empty host, 0.0.0.0, ::, in any spelling) get the
// warning; a host of one interface does not.
func TestEveryInterface(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{":9109", true},
		{"0.0.0.0:9109", true},
		{"[::]:9109", true},
		{"[0:0::0]:9109", true},
		{"[::ffff:0.0.0.0]:9109", true},
		{"0.0.0.0:0", true},
		{"127.0.0.1:9109", false},
		{"[::1]:9109", false},
		{"localhost:9109", false},
		{"10.1.2.3:9109", false},
		{"[fe80::1%lo]:9109", false},
		{"9109", false}, // not host:port: Listen refuses it
	}
	for _, tt := range tests {
		if got := EveryInterface(tt.addr); got != tt.want {
			t.Errorf("EveryInterface(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// sloLines are the ycsb_slo lines of e's exposition, comments included.
func sloLines(t *testing.T, e *Exporter) string {
	t.Helper()
	var buf bytes.Buffer
	e.WriteText(&buf)
	var p expfmt.TextParser
	if _, err := p.TextToMetricFamilies(strings.NewReader(buf.String())); err != nil {
		t.Fatalf("not the text exposition format: %v\n%s", err, buf.String())
	}
	var out []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, "ycsb_slo_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// TestSLO: the limits are there from the start, in seconds, as a ratio or
// in operations per second; the judgement adds what was measured and the
// verdicts (the lines are in testdata/slo.golden).
func TestSLO(t *testing.T) {
	objs, err := slo.Parse("READ.p99<=5ms, ALL.max<=1s, UPDATE.p99.9<2.5ms, errors<=0.1%, throughput>=10000, SCAN.mean<=20ms")
	if err != nil {
		t.Fatal(err)
	}
	e := New(Info{Binding: "basic", Phase: "run", SLO: objs})
	before := sloLines(t, e)
	for _, want := range []string{
		`ycsb_slo_limit{objective="READ.p99<=5ms",operation="read",statistic="p99",comparison="<=",unit="seconds"} 0.005`,
		`ycsb_slo_limit{objective="errors<=0.1%",statistic="errors",comparison="<=",unit="ratio"} 0.001`,
		`ycsb_slo_limit{objective="throughput>=10000",statistic="throughput",comparison=">=",unit="ops_per_second"} 10000`,
	} {
		if !strings.Contains(before, want+"\n") {
			t.Errorf("before the judgement, no line %s in:\n%s", want, before)
		}
	}
	if strings.Contains(before, "ycsb_slo_measured") || strings.Contains(before, "passed") {
		t.Errorf("a verdict before the judgement:\n%s", before)
	}
	measured := []float64{3400, 1.2e6, 2100, 0.0004, 12000.5, 0}
	verdicts := []slo.Verdict{slo.Pass, slo.Fail, slo.Pass, slo.Pass, slo.Pass, slo.NoData}
	j := &slo.Judgement{}
	for i, o := range objs {
		j.Results = append(j.Results, slo.Result{Objective: o, Measured: measured[i], Verdict: verdicts[i]})
	}
	e.SetSLO(j)
	after := sloLines(t, e)
	ycsbtest.Golden(t, filepath.Join("testdata", "slo.golden"), []byte(after))

	// One client's share of a fleet: measured, not judged.
	j.Share = "client 1 of 2"
	share := sloLines(t, e)
	if !strings.Contains(share, `ycsb_slo_measured{objective="READ.p99<=5ms",operation="read",statistic="p99",comparison="<=",unit="seconds"} 0.0034`) ||
		strings.Contains(share, "passed") {
		t.Errorf("a client's share:\n%s", share)
	}
}

// TestSLOLabelEscapes: an objective's text is a label value as written;
// the exposition escapes what needs it and Prometheus's parser reads the
// text back.
func TestSLOLabelEscapes(t *testing.T) {
	text := `we"ird\op` + "\n" + `.p99<=5ms`
	e := New(Info{SLO: []slo.Objective{{Text: text, Op: `we"ird\op`, Stat: slo.Percentile, Percentile: 99, Limit: 5000}}})
	var buf bytes.Buffer
	e.WriteText(&buf)
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	ms := fams["ycsb_slo_limit"].GetMetric()
	if len(ms) != 1 {
		t.Fatalf("%d limits:\n%s", len(ms), buf.String())
	}
	for _, lp := range ms[0].GetLabel() {
		if lp.GetName() == "objective" && lp.GetValue() != text {
			t.Errorf("objective read back as %q, want %q", lp.GetValue(), text)
		}
	}
}

// scheduleLines are the ycsb_schedule lines of e's exposition, comments
// included, after Prometheus's parser has read all of it.
func scheduleLines(t *testing.T, e *Exporter) string {
	t.Helper()
	var buf bytes.Buffer
	e.WriteText(&buf)
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatalf("not the text exposition format: %v\n%s", err, buf.String())
	}
	for _, name := range []string{"ycsb_schedule_wake_lateness_seconds", "ycsb_schedule_late_start_seconds"} {
		if f := fams[name]; f != nil && (len(f.GetMetric()) != 1 || f.GetMetric()[0].GetHistogram() == nil) {
			t.Errorf("%s is not one histogram:\n%s", name, buf.String())
		}
	}
	var out []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, "ycsb_schedule_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// TestSchedule: the paced starts of the interval harvests add up into
// two histograms, how late the workers woke and how far behind the late
// starts began (the lines are in testdata/schedule.golden); an unpaced
// run serves neither.
func TestSchedule(t *testing.T) {
	cfg, err := measurement.ParseConfig(props.New())
	if err != nil {
		t.Fatal(err)
	}
	c := measurement.NewCollector(cfg, measurement.YCSB)
	rec := c.NewRecorder()
	e := New(Info{Binding: "basic", Phase: "run"})
	e.Observe(harvest(t, c, rec, 10, 0))
	if got := scheduleLines(t, e); got != "\n" {
		t.Errorf("an unpaced run serves\n%s", got)
	}
	// Two harvests: 60 wake-ups 30 µs late and 3 of 2 ms, then 40 of
	// 120 µs; 5 starts 700 µs behind, then 2 of 3 s.
	for i := 0; i < 60; i++ {
		rec.Woke(30_000)
	}
	for i := 0; i < 3; i++ {
		rec.Woke(2_000_000)
	}
	for i := 0; i < 5; i++ {
		rec.StartedBehind(700_000)
	}
	e.Observe(c.Tick())
	for i := 0; i < 40; i++ {
		rec.Woke(120_000)
	}
	rec.StartedBehind(3_000_000_000)
	rec.StartedBehind(3_000_000_000)
	e.Observe(c.Tick())
	ycsbtest.Golden(t, filepath.Join("testdata", "schedule.golden"), []byte(scheduleLines(t, e)))
}
