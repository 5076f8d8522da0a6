package ycsb

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	_ "github.com/goycsb/ycsb/db/basic"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// syncBuffer is a bytes.Buffer safe for a run's goroutines and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runBasic runs the basic binding with the workload A mix and extra
// properties, and returns stdout and stderr.
func runBasic(t *testing.T, ctx context.Context, extra map[string]string) (string, string, error) {
	t.Helper()
	m := map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000", "operationcount": "0",
		"readproportion": "0.5", "updateproportion": "0.5", "dotransactions": "true",
	}
	for k, v := range extra {
		m[k] = v
	}
	d, name, err := db.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr syncBuffer
	err = Run(ctx, Options{Props: props.FromMap(m), Driver: d, Binding: name, Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), err
}

// row returns the value of "[metric], name, value" in a text report.
func row(t *testing.T, out, metric, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(metric) + `\], ` + regexp.QuoteMeta(name) + `, (.*)$`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no [%s], %s in:\n%s", metric, name, out)
	}
	return m[1]
}

// readReport reads and checks the JSON report a run wrote to path.
func readReport(t *testing.T, path string) *jsonreport.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := jsonreport.Read(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rep
}

func rowInt(t *testing.T, out, metric, name string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(row(t, out, metric, name), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWarmup paces 3000 operations over one second and leaves the first
// 0.4 s out: the report, the JSON report and the HDR logs must all count
// the same measured operations, and the run time must be the measured part.
func TestWarmup(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "r.json")
	out, stderr, err := runBasic(t, context.Background(), map[string]string{
		"operationcount": "3000", "target": "3000", "threadcount": "2", "warmup": "0.4",
		"report.json": jsonPath, "report.interval": "0.2",
		"hdrhistogram.fileoutput": "true", "hdrhistogram.output.path": dir + "/",
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "[OVERALL], RunTime(ms), ") ||
		!strings.HasPrefix(lines[1], "[OVERALL], Throughput(ops/sec), ") || lines[2] != "[OVERALL], Warmup(ms), 400" {
		t.Fatalf("the OVERALL rows are not RunTime, Throughput, Warmup(ms) 400:\n%s", out)
	}
	runtime := rowInt(t, out, "OVERALL", "RunTime(ms)")
	// About 600 ms and 1800 operations when the pacing holds; the bounds
	// are wide because on a loaded machine workers fall behind during the
	// warm-up and catch up after it. What must hold exactly is below: every
	// output counts the same measured operations.
	if runtime < 450 || runtime > 3000 {
		t.Errorf("RunTime(ms) %d: want the measured ~600 ms", runtime)
	}
	reads, updates := rowInt(t, out, "READ", "Operations"), rowInt(t, out, "UPDATE", "Operations")
	measured := reads + updates
	if measured < 600 || measured > 2850 {
		t.Errorf("%d operations measured, want about 1800 of 3000, and some left out", measured)
	}
	if ok := rowInt(t, out, "READ", "Return=OK"); ok != reads {
		t.Errorf("READ Return=OK %d, Operations %d", ok, reads)
	}
	tp, _ := strconv.ParseFloat(row(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
	if want := float64(measured) / (float64(runtime) / 1000); tp < want*0.95 || tp > want*1.05 {
		t.Errorf("throughput %v, want about %v (measured operations over measured time)", tp, want)
	}

	rep := readReport(t, jsonPath)
	if rep.WarmupMs != 400 || rep.Operations != measured || rep.RunTimeMs != runtime {
		t.Errorf("JSON report: warmup_ms %d, operations %d, runtime_ms %d; text: %d, %d", rep.WarmupMs, rep.Operations, rep.RunTimeMs, measured, runtime)
	}
	var ivOps int64
	for _, iv := range rep.Intervals {
		ivOps += iv.Ops
		if iv.StartMs < 0 || iv.EndMs < iv.StartMs {
			t.Errorf("interval %+v", iv)
		}
		// Each operation the interval holds has its latencies there (a
		// short last interval on a loaded machine may hold no READ).
		for op, n := range iv.ByOp {
			if n > 0 && iv.Latency[op].Count == 0 {
				t.Errorf("interval without %s latency: %+v", op, iv)
			}
		}
		if iv.Ops > 0 && len(iv.ByOp) == 0 {
			t.Errorf("interval without operations by kind: %+v", iv)
		}
	}
	if ivOps != measured {
		t.Errorf("intervals hold %d operations, the report %d", ivOps, measured)
	}
	log, err := merge.ReadHdrLog(context.Background(), filepath.Join(dir, "READ.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	if log.Hist.TotalCount() != reads {
		t.Errorf("READ.hdr holds %d values, the report %d", log.Hist.TotalCount(), reads)
	}
}

// TestWarmupLongerThanRun: nothing is measured, nothing crashes.
func TestWarmupLongerThanRun(t *testing.T) {
	out, stderr, err := runBasic(t, context.Background(), map[string]string{
		"operationcount": "100", "warmup": "30",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "the run ended during the warm-up") {
		t.Errorf("no warning:\n%s", stderr)
	}
	if rowInt(t, out, "OVERALL", "RunTime(ms)") != 0 || strings.Contains(out, "[READ]") {
		t.Errorf("warm-up operations reached the report:\n%s", out)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		p    map[string]string
		want string
	}{
		{map[string]string{"warmup": "-1"}, "warmup"},
		{map[string]string{"warmup": "soon"}, "warmup"},
		{map[string]string{"progress": "maybe"}, "progress"},
		{map[string]string{"progress": "true", "status": "true"}, "progress"},
		{map[string]string{"prometheus.addr": "127.0.0.1:notaport"}, "prometheus.addr"},
		{map[string]string{"prometheus.linger": "5"}, "prometheus.linger"},
		{map[string]string{"prometheus.addr": "127.0.0.1:0", "prometheus.linger": "7200"}, "prometheus.linger"},
		{map[string]string{"slo": "READ.p99<=5"}, "slo"},
		{map[string]string{"status.interval": "0.001"}, "status.interval"},
	} {
		_, _, err := runBasic(t, context.Background(), c.p)
		if err == nil || !props.IsBadInput(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want a setup error naming %s", c.p, err, c.want)
		}
	}
}

// TestProgressForced draws the progress line into a buffer (progress=true):
// carriage returns, the erase sequence, the bar, and a final line ending.
func TestProgressForced(t *testing.T) {
	_, stderr, err := runBasic(t, context.Background(), map[string]string{
		"operationcount": "1500", "target": "1000", "progress": "true", "report.interval": "0.25", "warmup": "0.5",
	})
	if err != nil {
		t.Fatal(err)
	}
	draws := strings.Count(stderr, "\r")
	if draws < 4 {
		t.Errorf("%d draws in 1.5 s at 0.25 s:\n%q", draws, stderr)
	}
	for _, want := range []string{eraseLine, "warm-up, ", "ETA", " ops/s now, ", "p99 READ ", "[====================] 100% "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in:\n%q", want, stderr)
		}
	}
	// The progress line's last draw is ended (the client's note may follow).
	if i := strings.LastIndex(stderr, eraseLine); i < 0 || !strings.HasPrefix(stderr[i+len(eraseLine):], "\n") {
		t.Errorf("the last line is not ended:\n%q", stderr)
	}
}

// TestProgressNotOnPipes: without a terminal the output stays clean.
func TestProgressNotOnPipes(t *testing.T) {
	_, stderr, err := runBasic(t, context.Background(), map[string]string{"operationcount": "200", "report.interval": "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("control characters on a non-terminal:\n%q", stderr)
	}
}

// TestStatusSubSecond: status.interval takes fractions of a second.
func TestStatusSubSecond(t *testing.T) {
	_, stderr, err := runBasic(t, context.Background(), map[string]string{
		"operationcount": "1000", "target": "1000", "status": "true", "status.interval": "0.2",
	})
	if err != nil {
		t.Fatal(err)
	}
	n := len(regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: \d+ operations; `).FindAllString(stderr, -1))
	// One at the start, one every 0.2 s for about a second, one at the end.
	if n < 5 || n > 9 {
		t.Errorf("%d status lines, want about 7:\n%s", n, stderr)
	}
}

// TestPrometheusDuringRun scrapes /metrics with a real HTTP client while
// a run goes, and checks the counters grow.
func TestPrometheusDuringRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, name, _ := db.Lookup("basic")
	p := props.FromMap(map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "1000", "operationcount": "0",
		"readproportion": "0.5", "updateproportion": "0.5", "target": "2000",
		"prometheus.addr": "127.0.0.1:0", "report.interval": "0.1",
	})
	var stdout, stderr syncBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, Options{Props: p, Driver: d, Binding: name, Stdout: &stdout, Stderr: &stderr})
	}()
	addrRe := regexp.MustCompile(`Prometheus metrics at http://(\S+)/metrics`)
	var addr string
	for i := 0; i < 100 && addr == ""; i++ {
		time.Sleep(20 * time.Millisecond)
		if m := addrRe.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("no address in:\n%s", stderr.String())
	}
	readOK := regexp.MustCompile(`(?m)^ycsb_operations_total\{operation="read",status="OK"\} (\d+)$`)
	scrape := func() (string, int64) {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m := readOK.FindSubmatch(b)
		if m == nil {
			return string(b), 0
		}
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		return string(b), n
	}
	time.Sleep(500 * time.Millisecond)
	_, first := scrape()
	time.Sleep(500 * time.Millisecond)
	body, second := scrape()
	if first <= 0 || second <= first {
		t.Errorf("read counter %d then %d:\n%s", first, second, body)
	}
	for _, want := range []string{
		`ycsb_run_info{binding="basic",phase="run"} 1`,
		`ycsb_operation_latency_seconds_bucket{operation="read",result="ok",le="+Inf"} `,
		"# TYPE ycsb_operation_latency_seconds histogram",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in:\n%s", want, body)
		}
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + addr + "/metrics"); err == nil {
		t.Error("still serving after the run")
	}
}

// TestPrometheusLinger: with prometheus.linger, /metrics stays up after
// the report with the objectives' verdicts, until Ctrl-C ends the wait.
func TestPrometheusLinger(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, name, _ := db.Lookup("basic")
	p := props.FromMap(map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "100", "operationcount": "2000",
		"readproportion": "1", "slo": "READ.p99<=10s, throughput>=1e12",
		"prometheus.addr": "127.0.0.1:0", "prometheus.linger": "60",
	})
	var stdout, stderr syncBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, Options{Props: p, Driver: d, Binding: name, Stdout: &stdout, Stderr: &stderr})
	}()
	addrRe := regexp.MustCompile(`Prometheus metrics stay at http://(\S+)/metrics for 1m0s`)
	var addr string
	for i := 0; i < 500 && addr == ""; i++ {
		time.Sleep(20 * time.Millisecond)
		if m := addrRe.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("no linger line in:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "[SLO], Verdict, FAIL") {
		t.Errorf("lingering before the report:\n%s", stdout.String())
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`ycsb_slo_passed{objective="READ.p99<=10s",operation="read",statistic="p99",comparison="<=",unit="seconds"} 1`,
		`ycsb_slo_passed{objective="throughput>=1e12",statistic="throughput",comparison=">=",unit="ops_per_second"} 0`, "ycsb_slo_run_passed 0"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	start := time.Now()
	cancel()
	err = <-errc
	if !slo.IsUnmet(err) {
		t.Errorf("err %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Ctrl-C ended the wait in %v", d)
	}
}
