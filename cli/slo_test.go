package cli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// basicPaced is a run of the basic binding whose every operation takes
// 1 ms: 4 threads can do at most 4,000 operations a second.
func basicPaced(extra ...string) []string {
	return append([]string{"run", "basic", "-P", "../workloads/workloada", "-threads", "4",
		"-p", "basicdb.simulatedelay=1", "-p", "basicdb.randomizedelay=false"}, extra...)
}

func sloRows(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "[SLO]") {
			out = append(out, l)
		}
	}
	return out
}

// TestSLORun: the [SLO] rows come after every reference row, a met
// objective exits 0 and a missed one 3 with the report still printed.
func TestSLORun(t *testing.T) {
	// Operations that take no time, at a target they keep up with on any
	// machine.
	code, stdout, stderr := runCLI("run", "basic", "-P", "../workloads/workloada", "-threads", "4",
		"-p", "operationcount=2500", "-target", "2500",
		"-p", "slo=READ.p99<=500ms, ALL.max<=1s, errors<=0.1%, throughput>=1000")
	if code != ExitOK {
		t.Fatalf("met: exit %d: %s", code, stderr)
	}
	rows := sloRows(stdout)
	want := []string{"[SLO], Latency, intended", "[SLO], READ.p99<=500ms, PASS (", "[SLO], ALL.max<=1s, PASS (",
		"[SLO], errors<=0.1%, PASS (0%)", "[SLO], throughput>=1000, PASS (", "[SLO], Verdict, PASS"}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i, w := range want {
		if !strings.HasPrefix(rows[i], w) {
			t.Errorf("row %d: %q, want %q...", i, rows[i], w)
		}
	}
	if i := strings.Index(stdout, "[SLO]"); strings.Contains(stdout[i:], "[SCHEDULE]") || strings.Contains(stdout[i:], "[READ]") {
		t.Error("a reference row after the [SLO] rows")
	}
	if !strings.Contains(stdout, "[Intended-READ]") {
		t.Error("no intended latency recorded under a target")
	}

	// Unpaced: service time; the throughput objective cannot be met.
	code, stdout, stderr = runCLI(basicPaced("-p", "operationcount=400",
		"-p", "slo=read.p90<=3600s, throughput>=1000000")...)
	if code != ExitUnmet || !strings.Contains(stderr, "ycsb: SLO not met: throughput>=1000000 (") {
		t.Fatalf("missed: exit %d: %s", code, stderr)
	}
	rows = sloRows(stdout)
	if rows[0] != "[SLO], Latency, service" || !strings.HasPrefix(rows[1], "[SLO], read.p90<=3600s, PASS") ||
		rows[len(rows)-1] != "[SLO], Verdict, FAIL (1 of 2 objectives)" {
		t.Errorf("rows %q", rows)
	}
	// An operation the run did not do has no data, which fails.
	code, stdout, _ = runCLI(basicPaced("-p", "operationcount=100", "-p", "slo=SCAN.p99<=1s")...)
	if code != ExitUnmet || !strings.Contains(stdout, "[SLO], SCAN.p99<=1s, NO DATA (no SCAN operations measured)") {
		t.Errorf("no data: exit %d\n%q", code, sloRows(stdout))
	}
}

// TestSLOTooFew: a percentile of too few operations (slo.OpsForPercentile)
// is NO DATA with the count, which fails the run (exit 3, on stderr);
// ycsb merge -slo judges the run's report the same, row for row, and
// writes the same into its JSON report.
func TestSLOTooFew(t *testing.T) {
	dir := t.TempDir()
	runJSON, mergedJSON := filepath.Join(dir, "run.json"), filepath.Join(dir, "merged.json")
	objectives := "READ.p99<=1s, ALL.p90<=1s, ALL.max<=1s"
	code, stdout, stderr := runCLI("run", "basic", "-P", "../workloads/workloadc", "-p", "operationcount=200",
		"-p", "report.json="+runJSON, "-p", "slo="+objectives)
	rows := sloRows(stdout)
	want := []string{"[SLO], Latency, service", "[SLO], READ.p99<=1s, NO DATA (200 READ operations; a p99 needs at least 1000 operations, 10 beyond it)",
		"[SLO], ALL.p90<=1s, PASS (", "[SLO], ALL.max<=1s, PASS (", "[SLO], Verdict, FAIL (1 of 3 objectives)"}
	if code != ExitUnmet || len(rows) != len(want) || !strings.Contains(stderr, "ycsb: SLO not met: READ.p99<=1s (no data: 200 READ operations; a p99 needs at least 1000 operations, 10 beyond it)") {
		t.Fatalf("exit %d, rows %q, stderr %q", code, rows, stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(rows[i], w) {
			t.Errorf("row %d: %q, want %q...", i, rows[i], w)
		}
	}
	code, merged, _ := runCLI("merge", "-slo", objectives, "-o", mergedJSON, runJSON)
	if code != ExitUnmet || strings.Join(sloRows(merged), "\n") != strings.Join(rows, "\n") {
		t.Errorf("merge -slo: exit %d, rows\n%s\nwant the run's\n%s", code, strings.Join(sloRows(merged), "\n"), strings.Join(rows, "\n"))
	}
	for _, path := range []string{runJSON, mergedJSON} {
		r, err := merge.ReadReport(path)
		if err != nil {
			t.Fatal(err)
		}
		o := r.SLO.Objectives[0]
		if r.SLO.Passed || o.Verdict != "NO DATA" || o.Measured != nil || !strings.HasPrefix(o.Why, "200 READ operations; a p99 needs") {
			t.Errorf("%s: slo %+v", path, r.SLO)
		}
	}
}

// TestSLOAbort: a target four threads cannot reach makes the intended
// p99 grow without bound; slo.abort ends the run, with its report, long
// before its 30 s limit (the run's own time in the report, however slow
// the machine).
func TestSLOAbort(t *testing.T) {
	code, stdout, stderr := runCLI(basicPaced("-p", "operationcount=0", "-p", "maxexecutiontime=30", "-target", "8000",
		"-p", "slo=READ.p99<=5ms", "-p", "slo.abort=true")...)
	if code != ExitUnmet || !strings.Contains(stderr, "stopped early: READ.p99<=5ms failed beyond doubt") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if ms := runTimeMs(t, stdout); ms >= 30000 {
		t.Errorf("ran %d ms: not aborted before the 30 s limit", ms)
	}
	if !strings.Contains(stdout, "[SLO], Aborted, READ.p99<=5ms failed beyond doubt") || !strings.Contains(stdout, "[OVERALL], Throughput") {
		t.Errorf("report:\n%s", stdout)
	}
	// A run that meets its objective is not stopped: operations that
	// take no time, at a target they keep up with on any machine.
	code, _, stderr = runCLI("run", "basic", "-P", "../workloads/workloada", "-threads", "4",
		"-p", "operationcount=2500", "-target", "2500", "-p", "slo=READ.p99<=5s", "-p", "slo.abort=true")
	if code != ExitOK {
		t.Errorf("met: exit %d: %s", code, stderr)
	}
}

// runTimeMs is the report's [OVERALL], RunTime(ms).
func runTimeMs(t *testing.T, stdout string) int64 {
	t.Helper()
	for _, l := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(l, "[OVERALL], RunTime(ms), "); ok {
			ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			return int64(ms)
		}
	}
	t.Fatalf("no [OVERALL], RunTime(ms) in the report:\n%s", stdout)
	return 0
}

// TestSLOFleet: two clients that each fail a throughput objective the
// fleet meets are not judged on their own; ycsb merge judges the fleet
// from its merged figures, with the objectives the clients carried or
// those given with -slo.
func TestSLOFleet(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	codes := make([]int, 2)
	outs := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], outs[i], _ = runCLI(basicPaced("-p", "operationcount=3000", "-target", "2000",
				"-p", "client.count=2", "-p", "client.index="+string(rune('0'+i)),
				"-p", "report.json="+filepath.Join(dir, string(rune('a'+i))+".json"),
				"-p", "slo=throughput>=1500")...)
		}()
	}
	wg.Wait()
	for i := range 2 {
		rows := sloRows(outs[i])
		if codes[i] != ExitOK || len(rows) != 3 || !strings.HasSuffix(rows[2], "NOT JUDGED (client "+string(rune('0'+i))+" of 2: ycsb merge judges the fleet)") {
			t.Fatalf("client %d: exit %d, rows %q", i, codes[i], rows)
		}
	}
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	var each []float64
	for _, path := range []string{a, b} {
		rep, err := merge.ReadReport(path)
		if err != nil {
			t.Fatal(err)
		}
		each = append(each, rep.Throughput)
	}
	merged := filepath.Join(dir, "m.json")
	code, stdout, stderr := runCLI("merge", "-o", merged, a, b)
	rep, err := merge.ReadReport(merged)
	if err != nil {
		t.Fatalf("merge: exit %d: %s: %v", code, stderr, err)
	}
	// The clients' objective, judged on the fleet: 8 threads of 1 ms
	// paced at 2,000 op/s meet it on a machine that keeps the pace; a
	// loaded one may not, and the verdict must say what the fleet did.
	met := rep.Throughput >= 1500
	verdict, wantCode := "FAIL", ExitUnmet
	if met {
		verdict, wantCode = "PASS", ExitOK
	}
	if code != wantCode || !strings.Contains(stdout, "[SLO], throughput>=1500, "+verdict+" (") {
		t.Fatalf("merge: exit %d, want %d (the fleet did %.1f ops/s): %s\n%q", code, wantCode, rep.Throughput, stderr, sloRows(stdout))
	}
	if rep.SLO == nil || !rep.SLO.Judged || rep.SLO.Passed != met || rep.Settings["slo"] != "throughput>=1500" {
		t.Errorf("merged report's slo: %+v, setting %q", rep.SLO, rep.Settings["slo"])
	}
	// The fleet's throughput is the clients' sum: an objective above
	// either client's rate, below their sum, is met by the fleet (and
	// would not be by their mean); one above the pace of 2,000 is not.
	above := int(max(each[0], each[1]) + 0.2*min(each[0], each[1]))
	code, stdout, _ = runCLI("merge", "-slo", fmt.Sprintf("throughput>=%d", above), a, b)
	if code != ExitOK || !strings.Contains(stdout, fmt.Sprintf("[SLO], throughput>=%d, PASS (", above)) {
		t.Errorf("merge -slo throughput>=%d (clients at %.1f and %.1f ops/s): exit %d\n%q", above, each[0], each[1], code, sloRows(stdout))
	}
	code, stdout, _ = runCLI("merge", "-slo", "throughput>=2500", a, b)
	if code != ExitUnmet || !strings.Contains(stdout, "[SLO], throughput>=2500, FAIL (") {
		t.Errorf("merge -slo: exit %d\n%q", code, sloRows(stdout))
	}
}

// TestSLOMergedPercentile: a fleet's p99 is read from the merged
// histogram. Client a's operations all take 1 ms; client b's p99 is
// 100 ms (15 of its 1,000 took that long). Together 15 of 2,000 (0.75%)
// are slow, so the fleet's p99 is 1 ms: it meets READ.p99<=2ms, which
// client b, and the mean of the two p99s (50.5 ms), do not.
func TestSLOMergedPercentile(t *testing.T) {
	rep := func(slow int) *jsonreport.Report {
		h := newHist()
		for i := 0; i < 1000; i++ {
			v := int64(1000)
			if i < slow {
				v = 100_000
			}
			h.RecordValue(v)
		}
		enc, err := jsonreport.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		failed := int64(0)
		return &jsonreport.Report{Operations: 1000, Failed: &failed, Settings: map[string]string{},
			Measurements: []jsonreport.Measurement{{Name: "READ", Operation: "READ", Count: 1000, Histogram: enc}}}
	}
	a, b := rep(0), rep(15)
	objs, err := merge.FleetObjectives("READ.p99<=2ms", nil)
	if err != nil {
		t.Fatal(err)
	}
	merged := &jsonreport.Report{Operations: 2000, Throughput: 1000}
	h := newHist()
	for _, r := range []*jsonreport.Report{a, b} {
		x, _ := jsonreport.DecodeHistogram(r.Measurements[0].Histogram)
		h.Merge(x)
	}
	enc, _ := jsonreport.EncodeHistogram(h)
	merged.Measurements = []jsonreport.Measurement{{Name: "READ", Operation: "READ", Histogram: enc}}
	j, err := merge.JudgeMerged(objs, merged, []*jsonreport.Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if r := j.Results[0]; r.Verdict.String() != "PASS" || r.Measured != 1000 {
		t.Errorf("fleet: %+v", r)
	}
	jb, _ := merge.JudgeMerged(objs, b, []*jsonreport.Report{b})
	if r := jb.Results[0]; r.Verdict.String() != "FAIL" || r.Measured < 99_000 {
		t.Errorf("client b: %+v", r)
	}
}

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(1, 3_600_000_000, 3) }

// TestSLOBadInput: one line naming the property or option, exit 2,
// nothing written.
func TestSLOBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{basicPaced("-p", "slo=READ.p99<=5", "-p", "report.json="+out), "ycsb: slo: READ.p99<=5: latency \"5\": give its unit (us, ms or s)\n"},
		{basicPaced("-p", "slo=READ.p99>=5ms"), "ycsb: slo: READ.p99>=5ms: a latency is bounded from above (READ.p99<=5ms)\n"},
		{basicPaced("-p", "slo.abort=true"), "ycsb: slo.abort: needs objectives to judge (slo, e.g. -p slo=READ.p99<=5ms)\n"},
		{basicPaced("-p", "slo=READ.p99<=5ms", "-p", "slo.abort=maybe"), "slo.abort"},
		{[]string{"merge", "-slo", "errors<=200%", "x.json"}, "ycsb: -slo: errors<=200%: error rate \"200%\": want a percentage (0.1%) or a fraction (0.001) from 0 to 1\n"},
		{[]string{"merge", "-slo", "", "x.json"}, "ycsb: -slo: no objective"},
	} {
		code, stdout, stderr := runCLI(c.args...)
		if code != ExitBadInput || !strings.HasPrefix(stderr, c.want) && !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", c.args, code, stderr, stdout)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 0 {
		t.Errorf("created %v", m)
	}
}
