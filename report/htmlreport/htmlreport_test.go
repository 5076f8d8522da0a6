package htmlreport

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload"
)

// fakeReport is a run of n seconds with READ and UPDATE latencies around
// base µs, one interval per second with per-interval latency.
func fakeReport(t *testing.T, binding string, seconds int, base int64, seed uint64) *jsonreport.Report {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	r := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: binding, Phase: "run",
		Settings: map[string]string{"recordcount": "1000", "engine.dir": "/data/" + binding, "db.password": jsonreport.Mask},
		Clients:  1, Start: start, End: start.Add(time.Duration(seconds) * time.Second), RunTimeMs: int64(seconds) * 1000, WarmupMs: 500}
	total := map[string]*hdrhistogram.Histogram{}
	for s := 0; s < seconds; s++ {
		iv := jsonreport.Interval{StartMs: int64(s) * 1000, EndMs: int64(s+1) * 1000, ByOp: map[string]int64{}, Latency: map[string]jsonreport.IntervalLatency{}}
		for _, op := range []string{"READ", "UPDATE"} {
			h := hdrhistogram.New(1, 3_600_000_000, 3)
			for i := 0; i < 2000; i++ {
				v := base + int64(rng.ExpFloat64()*float64(base))
				if op == "UPDATE" {
					v *= 2
				}
				h.RecordValue(v)
			}
			if total[op] == nil {
				total[op] = hdrhistogram.New(1, 3_600_000_000, 3)
			}
			total[op].Merge(h)
			iv.Ops += h.TotalCount()
			iv.ByOp[op] = h.TotalCount()
			il := jsonreport.IntervalLatency{Count: h.TotalCount(), MeanUs: h.Mean(), MaxUs: h.Max(), Percentiles: map[string]int64{}}
			for _, p := range jsonreport.IntervalPercentiles {
				il.Percentiles[jsonreport.PercentileKey(p)] = h.ValueAtQuantile(p)
			}
			iv.Latency[op] = il
		}
		r.Operations += iv.Ops
		r.Intervals = append(r.Intervals, iv)
	}
	r.Throughput = float64(r.Operations) / float64(seconds)
	for _, op := range []string{"READ", "UPDATE"} {
		enc, err := jsonreport.EncodeHistogram(total[op])
		if err != nil {
			t.Fatal(err)
		}
		r.Measurements = append(r.Measurements, jsonreport.Measurement{Name: op, Operation: op, Count: total[op].TotalCount(),
			Histogram: enc, Returns: []jsonreport.Return{{Status: "OK", Count: total[op].TotalCount()}}})
	}
	return r
}

func TestBuild(t *testing.T) {
	a, b := fakeReport(t, "pebble", 10, 100, 1), fakeReport(t, "rocksdb", 8, 150, 2)
	d, err := Build("t", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Operations, ","); got != "READ,UPDATE" {
		t.Errorf("operations %s", got)
	}
	if len(d.Runs) != 2 || len(d.Runs[0].OpsSeries) != 10 || d.Runs[0].OpsSeries[0] != [2]float64{1, 4000} {
		t.Fatalf("throughput series %v", d.Runs[0].OpsSeries)
	}
	if n := len(d.Runs[1].LatencySeries["UPDATE"]["p99"]); n != 8 {
		t.Errorf("%d p99 points for rocksdb UPDATE, want 8", n)
	}
	sp := d.Runs[0].Spectrum["READ"]
	// 20000 samples resolve the spectrum to 99.99% and a bit (k=43).
	if len(sp) < 40 || sp[0][0] != 0 || sp[len(sp)-1][0] < 99.99 {
		t.Errorf("spectrum %v", sp)
	}
	for i := 1; i < len(sp); i++ {
		if sp[i][1] < sp[i-1][1] || sp[i][0] <= sp[i-1][0] {
			t.Fatalf("spectrum not monotonic at %d: %v", i, sp[i-1:i+1])
		}
	}
	if s := d.Runs[0].Summary[0]; s.Name != "READ" || s.Count != 20000 || s.P50 < 150 || s.P50 > 190 {
		t.Errorf("summary %+v (the median of 100+Exp(100) is about 169)", s)
	}
	var differ []string
	for _, s := range d.Settings {
		if s.Differ {
			differ = append(differ, s.Name)
		}
	}
	if strings.Join(differ, ",") != "engine.dir" {
		t.Errorf("differing settings %v", differ)
	}
}

// TestOperationOrder: an operation's own measurement comes before its
// failures, then intended latency, whatever its name: a user profile's
// op may have a hyphen in it. A report that does not say a measurement's
// operation is read by the name.
func TestOperationOrder(t *testing.T) {
	a := fakeReport(t, "cassandra-stress", 1, 100, 1)
	enc := a.Measurements[0].Histogram
	m := func(name, op string, intended bool) jsonreport.Measurement {
		return jsonreport.Measurement{Name: name, Operation: op, Intended: intended, Count: 1, Histogram: enc}
	}
	a.Measurements = []jsonreport.Measurement{m("Intended-single-post", "single-post", true), m("single-post-FAILED", "single-post", false),
		m("single-post", "single-post", false), m("READ-FAILED", "", false), m("READ-MODIFY-WRITE", "", false), m("q01", "q01", false)}
	d, err := Build("t", []Input{{Name: "a", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := "single-post,READ-MODIFY-WRITE,q01,single-post-FAILED,READ-FAILED,Intended-single-post"
	if got := strings.Join(d.Operations, ","); got != want {
		t.Errorf("operations %s, want %s", got, want)
	}
}

func TestNames(t *testing.T) {
	a, b := fakeReport(t, "pebble", 1, 100, 1), fakeReport(t, "pebble", 1, 100, 2)
	got := Names([]string{"", ""}, []string{"a.json", "b.json"}, []*jsonreport.Report{a, b})
	if strings.Join(got, "|") != "pebble run (a.json)|pebble run (b.json)" {
		t.Error(got)
	}
	got = Names([]string{"before", ""}, []string{"a.json", "b.json"}, []*jsonreport.Report{a, b})
	if strings.Join(got, "|") != "before|pebble run" {
		t.Error(got)
	}
}

// TestOlderReport: a report without per-interval latency still draws.
func TestOlderReport(t *testing.T) {
	a := fakeReport(t, "basic", 3, 100, 1)
	for i := range a.Intervals {
		a.Intervals[i].Latency = nil
	}
	d, err := Build("t", []Input{{Name: "basic", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
}

// TestSelfContained: nothing in the page is fetched from elsewhere, and no
// setting can close the script element.
func TestSelfContained(t *testing.T) {
	a := fakeReport(t, "basic", 3, 100, 1)
	a.Settings["evil"] = "</script><script>alert(1)</script>"
	d, err := Build("x </title> y", []Input{{Name: "basic", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<script src", "<link", "@import", "url(", "</script><script>alert", "x </title>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if n := strings.Count(page, "</script>"); n != 1 {
		t.Errorf("%d script ends, want 1", n)
	}
}

// chromium finds the browser: in CI it is installed if missing, outside CI
// the test skips without it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "true" {
		t.Skip("chromium is not installed (apt-get install -y chromium); in CI this test installs it")
	}
	out, err := exec.Command("apt-get", "install", "-y", "chromium").CombinedOutput()
	if err != nil {
		t.Fatalf("CI: installing chromium: %v\n%s", err, out)
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("CI: chromium installed but not on PATH")
	}
	return p
}

// headless runs Chromium on page with the flags a container needs and a
// fresh profile, and returns its stdout and stderr.
func headless(t *testing.T, bin, page string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, args...)
	all = append(all, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, all...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// pageStatus is what a page says of itself in a browser.
type pageStatus struct {
	charts, points, empty, thresholds, answers int
	dom                                        string
}

// load writes d's page into dir, loads it in headless Chromium and returns
// the status the page wrote into its DOM, failing the test unless it is ok
// and no console error appeared.
func load(t *testing.T, bin, dir string, d *Data) (page string, st pageStatus) {
	t.Helper()
	page = filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, logs := headless(t, bin, page, "--virtual-time-budget=5000", "--dump-dom")
	m := regexp.MustCompile(`<p id="status" data-status="(\w+)"(?: data-charts="(\d+)" data-points="(\d+)" data-empty="(\d+)" data-thresholds="(\d+)" data-answers="(\d+)")?>([^<]*)`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no status in the DOM:\n%.2000s", dom)
	}
	if m[1] != "ok" {
		t.Fatalf("the page says %s: %s", m[1], m[7])
	}
	st.dom = dom
	st.charts, _ = strconv.Atoi(m[2])
	st.points, _ = strconv.Atoi(m[3])
	st.empty, _ = strconv.Atoi(m[4])
	st.thresholds, _ = strconv.Atoi(m[5])
	st.answers, _ = strconv.Atoi(m[6])
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("console: %s", l)
		}
	}
	return page, st
}

// screenshot takes a 1280×height picture of page.
func screenshot(t *testing.T, bin, page string, height int) image.Image {
	t.Helper()
	shot := strings.TrimSuffix(page, ".html") + ".png"
	headless(t, bin, page, "--hide-scrollbars", "--window-size=1280,"+strconv.Itoa(height), "--virtual-time-budget=5000", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if bd := img.Bounds(); bd.Dx() != 1280 || bd.Dy() != height {
		t.Errorf("screenshot %v", bd)
	}
	return img
}

// pixels counts the pixels (every other one each way) that match.
func pixels(img image.Image, match func(r, g, b uint32) bool) int {
	n := 0
	for y := 0; y < img.Bounds().Dy(); y += 2 {
		for x := 0; x < img.Bounds().Dx(); x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			if match(r>>8, g>>8, b>>8) {
				n++
			}
		}
	}
	return n
}

// TestChromium loads a two-run page in a real headless Chromium: the page
// writes its own status into the DOM, which must say ok with every chart
// drawn and holding data; no console error may appear; and a screenshot
// is taken and checked to be a real picture.
func TestChromium(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	dir := t.TempDir()
	a, b := fakeReport(t, "pebble", 12, 100, 1), fakeReport(t, "rocksdb", 12, 140, 2)
	d, err := Build("pebble vs rocksdb", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	page, st := load(t, bin, dir, d)
	// Throughput, then latency over time and spectrum for READ and UPDATE.
	if st.charts != 5 || st.empty != 0 || st.thresholds != 0 || st.points < 2*12+4*2*12+4*30 {
		t.Errorf("charts %d, points %d, empty %d, thresholds %d", st.charts, st.points, st.empty, st.thresholds)
	}
	if n := strings.Count(st.dom, "<path "); n < 2+8+4 {
		t.Errorf("%d drawn series", n)
	}
	img := screenshot(t, bin, page, 2000)
	// The series colours must be on the picture: count the pebble blue.
	blue := pixels(img, func(r, g, b uint32) bool { return r < 0x40 && g > 0x60 && g < 0x90 && b > 0x98 })
	if blue < 100 {
		t.Errorf("only %d pixels of the first series' colour in the screenshot", blue)
	}
	if p := os.Getenv("YCSB_SCREENSHOT"); p != "" {
		data, _ := os.ReadFile(strings.TrimSuffix(page, ".html") + ".png")
		os.WriteFile(p, data, 0o644)
	}
}

// TestChromiumSLO draws two runs with the same objectives and different
// verdicts: each objective's line once on each chart it applies to, the
// objectives' table and the verdicts in their colours.
func TestChromiumSLO(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	dir := t.TempDir()
	a := withSLO(fakeReport(t, "pebble", 12, 100, 1), "service", "PASS", "FAIL", "PASS", "PASS", "PASS", "PASS", "PASS")
	b := withSLO(fakeReport(t, "rocksdb", 12, 140, 2), "service", "PASS", "FAIL", "PASS", "PASS", "PASS", "PASS", "PASS")
	d, err := Build("pebble vs rocksdb", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	page, st := load(t, bin, dir, d)
	// Throughput (1), READ over time (p99, mean), UPDATE (p99.9), the
	// spectra the objectives read: READ (p99, p75), UPDATE (p99.9), ALL (max).
	if st.thresholds != 8 {
		t.Errorf("%d threshold lines, want 8", st.thresholds)
	}
	// The five charts, and the spectra of READ, UPDATE and ALL.
	if st.charts != 8 || st.empty != 0 {
		t.Errorf("charts %d, empty %d", st.charts, st.empty)
	}
	for _, want := range []string{
		`<tspan>UPDATE.p99.9&lt;=2ms  </tspan>`,
		`<tspan fill="#1a7f37" font-weight="bold">PASS</tspan><tspan> (both runs)</tspan>`,
		`<tspan fill="#c62828" font-weight="bold">FAIL</tspan><tspan> (both runs)</tspan>`,
		`<td class="l" style="color:#c62828;font-weight:600">FAIL (1 of 7)</td>`,
		`<td class="l">throughput&gt;=1000</td>`,
		// UPDATE's p99.9 is drawn to compare with its line.
		`<title>pebble p99.9</title>`,
	} {
		if !strings.Contains(st.dom, want) {
			t.Errorf("the page has no %s", want)
		}
	}
	if n := strings.Count(st.dom, `class="threshold"`); n != 8 {
		t.Errorf("%d threshold elements", n)
	}
	img := screenshot(t, bin, page, 2800)
	red := pixels(img, func(r, g, b uint32) bool { return r > 0xb0 && g < 0x50 && b < 0x50 })
	green := pixels(img, func(r, g, b uint32) bool { return r < 0x40 && g > 0x60 && g < 0x90 && b > 0x30 && b < 0x48 })
	if red < 50 || green < 100 {
		t.Errorf("%d red and %d green pixels: the verdicts' colours are not on the picture", red, green)
	}
	if p := os.Getenv("YCSB_SCREENSHOT_SLO"); p != "" {
		data, _ := os.ReadFile(strings.TrimSuffix(page, ".html") + ".png")
		os.WriteFile(p, data, 0o644)
	}
}

// TestEmbeddedInputs: a page written with its inputs gives them back,
// a script end inside a setting included, and a plain page has none.
func TestEmbeddedInputs(t *testing.T) {
	a := fakeReport(t, "basic", 3, 100, 1)
	a.Settings["evil"] = "</script><script>alert(1)</script>"
	b := fakeReport(t, "basic", 2, 50, 2)
	in := []Input{{Name: "rev1", Report: a}, {Name: "rev2", Report: b}}
	d, err := Build("two", in, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteWithInputs(&buf, d, in); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "</script>"); n != 2 {
		t.Errorf("%d script ends, want 2", n)
	}
	title, got, err := ReadInputs(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if title != "two" || len(got) != 2 || got[0].Name != "rev1" || got[1].Name != "rev2" ||
		got[0].Report.Operations != a.Operations || got[0].Report.Settings["evil"] != a.Settings["evil"] {
		t.Errorf("read back %q %+v", title, got)
	}
	buf.Reset()
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadInputs(buf.Bytes()); err == nil {
		t.Error("a page without inputs: no error")
	}
}

// TestSettingsMasked: a report written before a name counted as secret
// (or edited by hand) shows no secret's value on the page.
func TestSettingsMasked(t *testing.T) {
	rep := &jsonreport.Report{Settings: map[string]string{"s3.secretkey": "hunter2", "db.url": "postgres://u:hunter2@h/d", "recordcount": "10"}}
	got := settings([]Input{{Name: "a", Report: rep}})
	for _, s := range got {
		if strings.Contains(strings.Join(s.Values, " "), "hunter2") {
			t.Errorf("%s shown as %q", s.Name, s.Values)
		}
		if s.Name == "recordcount" && s.Values[0] != "10" {
			t.Errorf("recordcount = %q", s.Values)
		}
	}
}

// sloObjectives are the objectives the SLO tests give a report: one of
// each kind, a percentile the intervals do not keep (p75), and verdicts
// as given.
var sloObjectives = []slo.SLOObjective{
	{Objective: "READ.p99<=300us", Operation: "READ", Statistic: "p99", Comparison: "<=", Limit: 300, Unit: "us"},
	{Objective: "UPDATE.p99.9<=2ms", Operation: "UPDATE", Statistic: "p99.9", Comparison: "<=", Limit: 2000, Unit: "us"},
	{Objective: "ALL.max<=100ms", Operation: "ALL", Statistic: "max", Comparison: "<=", Limit: 100000, Unit: "us"},
	{Objective: "READ.mean<=1ms", Operation: "READ", Statistic: "mean", Comparison: "<=", Limit: 1000, Unit: "us"},
	{Objective: "READ.p75<=1ms", Operation: "READ", Statistic: "p75", Comparison: "<=", Limit: 1000, Unit: "us"},
	{Objective: "errors<=0.1%", Statistic: "errors", Comparison: "<=", Limit: 0.001, Unit: "fraction"},
	{Objective: "throughput>=1000", Statistic: "throughput", Comparison: ">=", Limit: 1000, Unit: "ops/s"},
}

// withSLO gives r the objectives with the verdicts (in sloObjectives'
// order; "" when not judged) and a measure for each that has a verdict
// other than NO DATA, which says why it has none.
func withSLO(r *jsonreport.Report, latency string, verdicts ...string) *jsonreport.Report {
	s := &slo.SLO{Latency: latency, Judged: verdicts[0] != "", Passed: true}
	for i, o := range sloObjectives {
		o.Verdict = verdicts[i]
		if o.Verdict == "NO DATA" {
			o.Why = "no operations measured"
		} else {
			m := o.Limit * 0.9
			if o.Verdict == "FAIL" {
				m = o.Limit * 1.5
			}
			o.Measured = &m
		}
		s.Passed = s.Passed && o.Verdict == "PASS"
		s.Objectives = append(s.Objectives, o)
	}
	r.SLO = s
	return r
}

// withFailures adds n READ-FAILED latencies of us µs to r.
func withFailures(t *testing.T, r *jsonreport.Report, n int, us int64) *jsonreport.Report {
	t.Helper()
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for i := 0; i < n; i++ {
		h.RecordValue(us)
	}
	enc, err := jsonreport.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	r.Measurements = append(r.Measurements, jsonreport.Measurement{Name: "READ-FAILED", Operation: "READ", Count: int64(n),
		Histogram: enc, Returns: []jsonreport.Return{{Status: "ERROR", Count: int64(n)}}})
	return r
}

// TestBuildSLO: two runs with the same objectives give one threshold per
// objective with both runs' verdicts, each on the charts it applies to;
// the spectrum an objective is drawn on is the one its verdict reads (an
// operation with its failures, ALL every operation together).
func TestBuildSLO(t *testing.T) {
	a := withSLO(withFailures(t, fakeReport(t, "pebble", 10, 100, 1), 100, 50_000), "service",
		"PASS", "FAIL", "PASS", "PASS", "PASS", "PASS", "PASS")
	b := withSLO(fakeReport(t, "rocksdb", 8, 150, 2), "service", "FAIL", "FAIL", "PASS", "PASS", "PASS", "PASS", "NO DATA")
	c := fakeReport(t, "badger", 3, 100, 3) // no objectives
	d, err := Build("t", []Input{{Name: "pebble", Report: a}, {Name: "badger", Report: c}, {Name: "rocksdb", Report: b}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		chart, series, spectrum string
		percentile              float64
	}{
		{"READ", "p99", "read", 99},
		{"UPDATE", "p99.9", "update", 99.9},
		{"", "", "ALL", 0},
		{"READ", "mean", "", 0},
		{"READ", "", "read", 75}, // the intervals keep no p75
		{"", "", "", 0},
		{"", "", "", 0},
	}
	if len(d.Thresholds) != len(want) {
		t.Fatalf("%d thresholds, want %d: %+v", len(d.Thresholds), len(want), d.Thresholds)
	}
	for i, th := range d.Thresholds {
		w := want[i]
		if th.Objective != sloObjectives[i].Objective || th.Limit != sloObjectives[i].Limit || th.Unit != sloObjectives[i].Unit ||
			th.Chart != w.chart || th.Series != w.series || th.Spectrum != w.spectrum || th.Percentile != w.percentile {
			t.Errorf("threshold %d: %+v, want %+v", i, th, w)
		}
		if len(th.Verdicts) != 2 || th.Verdicts[0].Run != 0 || th.Verdicts[1].Run != 2 {
			t.Errorf("%s: verdicts %+v, want runs 0 and 2", th.Objective, th.Verdicts)
		}
	}
	if v := d.Thresholds[0].Verdicts; v[0].Verdict != "PASS" || v[1].Verdict != "FAIL" || *v[1].Measured != 450 {
		t.Errorf("READ.p99 verdicts %+v", v)
	}
	if v := d.Thresholds[6].Verdicts[1]; v.Verdict != "NO DATA" || v.Measured != nil || v.Why != "no operations measured" {
		t.Errorf("throughput of rocksdb %+v", v)
	}
	if d.Runs[1].SLO != nil || d.Runs[1].SLOSpectrum != nil || d.Runs[0].SLO != a.SLO {
		t.Error("runs' objectives not as their reports")
	}
	// The mean is kept per interval for a mean objective's line.
	if n := len(d.Runs[0].LatencySeries["READ"]["mean"]); n != 10 {
		t.Errorf("%d mean points, want 10", n)
	}

	sp := d.Runs[0].SLOSpectrum
	if keys := strings.Join(slices.Sorted(maps.Keys(sp)), ","); keys != "ALL,read,update" {
		t.Fatalf("objective spectra %s", keys)
	}
	last := func(s [][2]float64) [2]float64 { return s[len(s)-1] }
	// READ's own spectrum ends at its slowest success; the objectives read
	// the 100 failures at 50 ms too: 100 of 20100 latencies, so 99.5% of
	// them are at most the successes' maximum.
	if own := last(d.Runs[0].Spectrum["READ"]); own[1] >= 50_000 {
		t.Errorf("READ's spectrum ends at %v", own)
	}
	if got := last(sp["read"]); got[1] < 50_000 || got[1] > 50_050 {
		t.Errorf("the objectives' READ spectrum ends at %v, want 50 ms (within HDR's 0.1%%)", got)
	}
	at := func(s [][2]float64, p float64) float64 {
		for _, pt := range s {
			if pt[0] >= p {
				return pt[1]
			}
		}
		return -1
	}
	if v := at(sp["read"], 99); v >= 50_000 {
		t.Errorf("READ p99 with failures %v µs: 0.5%% failures do not reach p99", v)
	}
	if v := at(sp["read"], 99.9); v < 50_000 {
		t.Errorf("READ p99.9 with failures %v µs, want the failures' 50 ms", v)
	}
	// ALL is READ (with failures) and UPDATE together: its median lies
	// between theirs, its maximum is the failures'.
	if r, u, all := at(sp["read"], 50), at(sp["update"], 50), at(sp["ALL"], 50); !(r < all && all < u) {
		t.Errorf("medians READ %v, UPDATE %v, ALL %v", r, u, all)
	}
	if got := last(sp["ALL"]); got[1] < 50_000 {
		t.Errorf("ALL ends at %v", got)
	}
}

// TestBuildSLOIntended: objectives that read intended latency are drawn
// on the intended latency's chart and spectrum.
func TestBuildSLOIntended(t *testing.T) {
	a := withSLO(fakeReport(t, "basic", 3, 100, 1), "intended", "PASS", "PASS", "PASS", "PASS", "PASS", "PASS", "PASS")
	in := a.Measurements[0] // READ
	in.Name, in.Intended = "Intended-READ", true
	h, err := jsonreport.DecodeHistogram(in.Histogram)
	if err != nil {
		t.Fatal(err)
	}
	h2 := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, b := range h.Distribution() {
		h2.RecordValues(b.From+5000, b.Count) // queued 5 ms behind the schedule
	}
	if in.Histogram, err = jsonreport.EncodeHistogram(h2); err != nil {
		t.Fatal(err)
	}
	a.Measurements = append(a.Measurements, in)
	for i := range a.Intervals {
		a.Intervals[i].Latency["Intended-READ"] = a.Intervals[i].Latency["READ"]
	}
	d, err := Build("t", []Input{{Name: "basic", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if th := d.Thresholds[0]; th.Chart != "Intended-READ" || th.Series != "p99" {
		t.Errorf("READ.p99 of intended latency drawn on %q %q", th.Chart, th.Series)
	}
	if v := d.Runs[0].SLOSpectrum["read"][0][1]; v < 5000 {
		t.Errorf("the intended spectrum starts at %v µs, below the 5 ms queue", v)
	}
	// UPDATE has no intended latency here: the objectives read none of it.
	if th := d.Thresholds[1]; th.Chart != "" {
		t.Errorf("UPDATE.p99.9 drawn on %q", th.Chart)
	}
	if _, ok := d.Runs[0].SLOSpectrum["update"]; ok {
		t.Error("an UPDATE spectrum of service latency among intended objectives")
	}
}

// pageData is the YCSB_DATA a page embeds.
func pageData(t *testing.T, page string) *Data {
	t.Helper()
	_, rest, ok := strings.Cut(page, "var YCSB_DATA = ")
	if !ok {
		t.Fatal("no YCSB_DATA in the page")
	}
	js, _, _ := strings.Cut(rest, ";\n")
	var d Data
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatalf("YCSB_DATA: %v", err)
	}
	return &d
}

// TestPageSLO: the thresholds and verdicts reach the page's data.
func TestPageSLO(t *testing.T) {
	a := withSLO(fakeReport(t, "pebble", 3, 100, 1), "service", "PASS", "FAIL", "PASS", "PASS", "PASS", "PASS", "PASS")
	d, err := Build("t", []Input{{Name: "pebble", Report: a}}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	got := pageData(t, buf.String())
	if len(got.Thresholds) != len(sloObjectives) || got.Thresholds[1].Objective != "UPDATE.p99.9<=2ms" ||
		got.Thresholds[1].Verdicts[0].Verdict != "FAIL" || got.Thresholds[6].Limit != 1000 {
		t.Errorf("thresholds on the page: %+v", got.Thresholds)
	}
	if got.Runs[0].SLO == nil || got.Runs[0].SLO.Passed || len(got.Runs[0].SLOSpectrum["ALL"]) == 0 {
		t.Errorf("run's objectives on the page: %+v", got.Runs[0].SLO)
	}
}

// TestChromiumEconomy draws two closed-economy runs, one whose invariant
// held and one whose did not, with transaction retries: the economy's
// table with both checks, and the summary's retries column.
func TestChromiumEconomy(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	bin := chromium(t)
	a, b := fakeReport(t, "jdbc", 6, 100, 1), fakeReport(t, "jdbc", 6, 100, 2)
	a.Validation = (*jsonreport.Validation)(workload.NewValidation(workload.ByQuery, 1000000, 1000, 20000, nil, workload.Tally{Cash: 1000000, Accounts: 1000}))
	b.Validation = (*jsonreport.Validation)(workload.NewValidation(workload.ByQuery, 1000000, 1000, 20000, nil, workload.Tally{Cash: 999674, Accounts: 1000}))
	a.Measurements[1].Retries = 2833
	d, err := Build("economy", []Input{{Name: "serializable", Report: a}, {Name: "read committed", Report: b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if d.Runs[1].Validation.Status != workload.ValidationFailed || d.Runs[0].Summary[1].Retries != 2833 {
		t.Fatalf("data: validation %+v, summary %+v", d.Runs[1].Validation, d.Runs[0].Summary[1])
	}
	_, st := load(t, bin, t.TempDir(), d)
	for _, want := range []string{"Closed economy", "999,674", "0.0163", "SUCCESS", "FAILED", ">retries<", "2,833"} {
		if !strings.Contains(st.dom, want) {
			t.Errorf("no %q in the page", want)
		}
	}
}

// TestChromiumInterrupted draws a complete run beside one a signal
// stopped: the page says which run was interrupted and how far it got.
func TestChromiumInterrupted(t *testing.T) {
	t.Parallel() // a browser of its own, its own profile and page
	a, b := fakeReport(t, "pebble", 6, 100, 1), fakeReport(t, "pebble", 3, 100, 2)
	b.Interrupted = &jsonreport.Interrupted{By: "SIGTERM", PlannedOperations: 100000, DoneOperations: b.Operations + 7}
	d, err := Build("stopped", []Input{{Name: "full", Report: a}, {Name: "stopped", Report: b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := "interrupted by SIGTERM after 12007 of 100000 operations"
	if d.Runs[0].Interrupted != "" || d.Runs[1].Interrupted != want {
		t.Fatalf("data: %q and %q, want none and %q", d.Runs[0].Interrupted, d.Runs[1].Interrupted, want)
	}
	bin := chromium(t)
	_, st := load(t, bin, t.TempDir(), d)
	if !strings.Contains(st.dom, `<p class="interrupted">stopped: `+want+". Its figures cover part of the planned run.</p>") {
		t.Errorf("the page does not mark the interrupted run:\n%s", st.dom)
	}
	if strings.Count(st.dom, `class="interrupted"`) != 1 {
		t.Error("more than the interrupted run is marked")
	}
}

// TestChromiumEngine: the [ENGINE] rows of two runs are one table on the
// page, a statistic one run lacks shown as "-"; a page of runs without
// them has no such section.
func TestChromiumEngine(t *testing.T) {
	a, b := fakeReport(t, "pebble", 4, 100, 1), fakeReport(t, "rocksdb", 4, 100, 2)
	a.Sections = append(a.Sections,
		export.Row{Metric: "ENGINE", Name: "L0SublevelsAtEnd", Value: export.Int(7)},
		export.Row{Metric: "ENGINE", Name: "SettleTime(ms)", Value: export.Int(91234)})
	b.Sections = append(b.Sections,
		export.Row{Metric: "ENGINE", Name: "L0SublevelsAtEnd", Value: export.Int(3)},
		export.Row{Metric: "ENGINE", Name: "BlockCacheDataHitRate(%)", Value: export.Float(61.5)})
	d, err := Build("engines", []Input{{Name: "pebble", Report: a}, {Name: "rocksdb", Report: b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := []EngineStat{{"L0SublevelsAtEnd", []string{"7", "3"}}, {"SettleTime(ms)", []string{"91234", ""}},
		{"BlockCacheDataHitRate(%)", []string{"", "61.5"}}}
	if !reflect.DeepEqual(d.Engine, want) {
		t.Fatalf("Engine %v, want %v", d.Engine, want)
	}
	bin := chromium(t)
	_, st := load(t, bin, t.TempDir(), d)
	for _, s := range []string{"<h2>Engine statistics</h2>", "<td class=\"l\">L0SublevelsAtEnd</td><td title=\"7\">7</td><td title=\"3\">3</td>",
		"<td class=\"l\">SettleTime(ms)</td><td title=\"91234\">91.23s</td><td>-</td>"} {
		if !strings.Contains(st.dom, s) {
			t.Errorf("no %q in the page", s)
		}
	}
	plain, err := Build("plain", []Input{{Name: "a", Report: fakeReport(t, "basic", 4, 100, 1)}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, st := load(t, bin, t.TempDir(), plain); strings.Contains(st.dom, "<h2>Engine statistics</h2>") {
		t.Error("a page without [ENGINE] rows has an engine section")
	}
}

// TestGroups: runs named "<series> <group>" are split into groups and
// series; each group gets its own charts and engine table, every run of a
// series the same colour, and the client's verdict is in the runs table.
func TestGroups(t *testing.T) {
	var in []Input
	for i, name := range []string{"pebble load", "rocksdb load", "pebble a", "rocksdb a"} {
		r := fakeReport(t, strings.Fields(name)[0], 4, 100, uint64(i+1))
		r.Sections = append(r.Sections, export.Row{Metric: "ENGINE", Name: "DiskSize(bytes)", Value: export.Int(344860461)})
		r.ClientVerdict = &jsonreport.ClientVerdict{Verdicts: []string{"CPU-BOUND", "GC-PAUSES"}}
		in = append(in, Input{Name: name, Report: r})
	}
	if err := SplitGroups([]Input{{Name: "pebble"}}); err == nil {
		t.Error("SplitGroups took a name with no group")
	}
	if err := SplitGroups(in); err != nil {
		t.Fatal(err)
	}
	d, err := Build("engines", in, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Groups, []string{"load", "a"}) || !reflect.DeepEqual(d.Series, []string{"pebble", "rocksdb"}) {
		t.Fatalf("groups %v, series %v", d.Groups, d.Series)
	}
	if d.Runs[2].Group != "a" || d.Runs[2].Series != "pebble" || d.Runs[2].Verdict != "CPU-BOUND, GC-PAUSES" {
		t.Fatalf("run 2: group %q series %q verdict %q", d.Runs[2].Group, d.Runs[2].Series, d.Runs[2].Verdict)
	}
	bin := chromium(t)
	_, st := load(t, bin, t.TempDir(), d)
	for _, s := range []string{"<h3>load: operations per second</h3>", "<h3>a: operations per second</h3>", "<h3>a: READ latency over time</h3>",
		"<h3>a</h3>", `<td title="344860461">328.9 MiB</td>`, "CPU-BOUND, GC-PAUSES"} {
		if !strings.Contains(st.dom, s) {
			t.Errorf("no %q in the page", s)
		}
	}
	// One colour per engine: the runs table's swatches repeat per series.
	for _, c := range []string{"#1f77b4", "#d62728"} {
		if n := strings.Count(st.dom, `<td class="run"><span class="swatch" style="background:`+c+`">`); n != 2 {
			t.Errorf("colour %s on %d runs, want 2", c, n)
		}
	}
}
