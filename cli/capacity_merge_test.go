package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// writeLadder writes three clients' reports of a ladder of two steps,
// 1000 and 2000 ops/s, every operation taking 1 ms, 400 of them in each
// step of each client (1,200 of the fleet: enough for a p99), and returns their
// paths.
func writeLadder(t *testing.T, dir string) []string {
	t.Helper()
	start := time.Now().UTC().Truncate(time.Second)
	var paths []string
	for i := range 3 {
		r := &jsonreport.Report{Format: jsonreport.Format, Version: jsonreport.Version, Tool: "ycsb-go", Binding: "basic", Phase: "capacity",
			MeasurementType: "hdrhistogram", Clients: 1, Client: &jsonreport.Client{Index: i, Count: 3}, Seed: uint64(i + 1),
			Start: start, End: start.Add(6*time.Second + time.Duration(i)*time.Millisecond), RunTimeMs: 6000 + int64(i), Intervals: []jsonreport.Interval{},
			Settings: map[string]string{"slo": "READ.p99<=5ms", "capacity.start": "1000", "client.count": "3", "client.index": strconv.Itoa(i)},
			Capacity: &jsonreport.Capacity{Limit: "fleet", Resolution: 1}}
		for k, rate := range []float64{1000, 2000} {
			h := hdrhistogram.New(1, 3_600_000_000, 3)
			if err := h.RecordValues(1000, 400); err != nil {
				t.Fatal(err)
			}
			enc, err := jsonreport.EncodeHistogram(h)
			if err != nil {
				t.Fatal(err)
			}
			r.Capacity.Steps = append(r.Capacity.Steps, jsonreport.CapacityStep{AskedOpsSec: rate, ShareOpsSec: rate / 3, AchievedOpsSec: rate / 3,
				Threads: 4, StartMs: int64(k) * 3000, MeasuredMs: 1200, Operations: 400, Verdict: "NOT JUDGED", Trusted: true,
				Measurements: []jsonreport.Measurement{
					{Name: "READ", Operation: "READ", Count: 400, MeanUs: 1000, MinUs: 1000, MaxUs: 1000, Histogram: enc,
						Returns: []jsonreport.Return{{Status: "OK", Count: 400}}},
					{Name: "Intended-READ", Operation: "READ", Intended: true, Count: 400, MeanUs: 1000, MinUs: 1000, MaxUs: 1000, Histogram: enc}}})
			r.Operations += 400
		}
		var b bytes.Buffer
		if err := jsonreport.Write(&b, r); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "c"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestMergeCapacityCLI: the fleet's answer in the [CAPACITY] rows and the
// merged report; exit 3 when no step met the objectives; a run report
// among a ladder's is refused in one line.
func TestMergeCapacityCLI(t *testing.T) {
	dir := t.TempDir()
	paths := writeLadder(t, dir)
	out := filepath.Join(dir, "merged.json")
	code, stdout, stderr := runCLI(append([]string{"merge", "-o", out}, paths...)...)
	if code != ExitOK || !strings.Contains(stdout, "[CAPACITY], Step 2, 2000 ops/s asked, 2000.0 achieved, 12 threads, READ.p99<=5ms PASS (1 ms): PASS\n") ||
		!strings.Contains(stdout, "[CAPACITY], MaxThroughput(ops/sec), 2000.0\n") ||
		!strings.Contains(stdout, "[CAPACITY], Limit, the ladder's highest step passed\n") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := jsonreport.Read(data)
	if err != nil || m.Phase != "capacity" || m.Capacity == nil || m.Capacity.MaxOpsSec != 2000 || m.Capacity.Limit != "max" || m.Clients != 3 {
		t.Fatalf("merged report: %v %+v", err, m)
	}

	code, stdout, _ = runCLI(append([]string{"merge", "-slo", "READ.p99<=500us"}, paths...)...)
	if code != ExitUnmet || !strings.Contains(stdout, "[CAPACITY], MaxThroughput(ops/sec), 0.0\n") || !strings.Contains(stdout, "[CAPACITY], Limit, no rate passed\n") {
		t.Errorf("nothing passed: exit %d\n%s", code, stdout)
	}
	// A p99.9 of a step's 1,200 operations is NO DATA: no step passes.
	code, stdout, _ = runCLI(append([]string{"merge", "-slo", "READ.p99.9<=5ms"}, paths...)...)
	why := "1200 READ operations; a p99.9 needs at least 10000 operations, 10 beyond it"
	if code != ExitUnmet || !strings.Contains(stdout, "[CAPACITY], Step 2, 2000 ops/s asked, 2000.0 achieved, 12 threads, READ.p99.9<=5ms NO DATA ("+why+"): FAIL — no data for READ.p99.9<=5ms ("+why+")\n") ||
		!strings.Contains(stdout, "[CAPACITY], Limit, no rate passed\n") {
		t.Errorf("too few operations: exit %d\n%s", code, stdout)
	}

	run := strings.Replace(string(data), `"phase": "capacity"`, `"phase": "run"`, 1)
	if run == string(data) {
		t.Fatal("no phase in the merged report")
	}
	runPath := filepath.Join(dir, "run.json")
	if err := os.WriteFile(runPath, []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI("merge", paths[0], runPath, paths[2])
	if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "run.json") {
		t.Errorf("a run among a ladder: exit %d, %q, %q", code, stdout, stderr)
	}
}
