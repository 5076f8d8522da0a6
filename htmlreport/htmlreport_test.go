package htmlreport

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement/jsonreport"
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
	d, err := Build("t", []Input{{"pebble", a}, {"rocksdb", b}}, time.Unix(0, 0))
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
	d, err := Build("t", []Input{{"a", a}}, time.Unix(0, 0))
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
	d, err := Build("t", []Input{{"basic", a}}, time.Unix(0, 0))
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
	d, err := Build("x </title> y", []Input{{"basic", a}}, time.Unix(0, 0))
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

// TestChromium loads a two-run page in a real headless Chromium: the page
// writes its own status into the DOM, which must say ok with every chart
// drawn and holding data; no console error may appear; and a screenshot
// is taken and checked to be a real picture.
func TestChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	a, b := fakeReport(t, "pebble", 12, 100, 1), fakeReport(t, "rocksdb", 12, 140, 2)
	d, err := Build("pebble vs rocksdb", []Input{{"pebble", a}, {"rocksdb", b}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	dom, logs := headless(t, bin, page, "--virtual-time-budget=5000", "--dump-dom")
	m := regexp.MustCompile(`<p id="status" data-status="(\w+)"(?: data-charts="(\d+)" data-points="(\d+)" data-empty="(\d+)")?>([^<]*)`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no status in the DOM:\n%.2000s", dom)
	}
	if m[1] != "ok" {
		t.Fatalf("the page says %s: %s", m[1], m[5])
	}
	charts, _ := strconv.Atoi(m[2])
	points, _ := strconv.Atoi(m[3])
	// Throughput, then latency over time and spectrum for READ and UPDATE.
	if charts != 5 || m[4] != "0" || points < 2*12+4*2*12+4*30 {
		t.Errorf("charts %s, points %s, empty %s", m[2], m[3], m[4])
	}
	if n := strings.Count(dom, "<path "); n < 2+8+4 {
		t.Errorf("%d drawn series", n)
	}
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("console: %s", l)
		}
	}

	shot := filepath.Join(dir, "report.png")
	headless(t, bin, page, "--hide-scrollbars", "--window-size=1280,2000", "--virtual-time-budget=5000", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if bd := img.Bounds(); bd.Dx() != 1280 || bd.Dy() != 2000 {
		t.Errorf("screenshot %v", bd)
	}
	// The series colours must be on the picture: count the pebble blue.
	blue := 0
	for y := 0; y < img.Bounds().Dy(); y += 2 {
		for x := 0; x < img.Bounds().Dx(); x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 < 0x40 && g>>8 > 0x60 && g>>8 < 0x90 && b>>8 > 0x98 {
				blue++
			}
		}
	}
	if blue < 100 {
		t.Errorf("only %d pixels of the first series' colour in the screenshot", blue)
	}
	if p := os.Getenv("YCSB_SCREENSHOT"); p != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(p, data, 0o644)
	}
}

// TestEmbeddedInputs: a page written with its inputs gives them back,
// a script end inside a setting included, and a plain page has none.
func TestEmbeddedInputs(t *testing.T) {
	a := fakeReport(t, "basic", 3, 100, 1)
	a.Settings["evil"] = "</script><script>alert(1)</script>"
	b := fakeReport(t, "basic", 2, 50, 2)
	in := []Input{{"rev1", a}, {"rev2", b}}
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
