package ycsb

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// TestEmbeddedCPUBound: unpaced workers on an embedded engine, on one
// processor, keep it busy with the engine's work as much as the client's.
// The verdict says that the engine runs in the process and never advises
// more client machines; the JSON verdict says "embedded".
func TestEmbeddedCPUBound(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dir := filepath.Join(t.TempDir(), "store")
	if _, stderr, err := runPebble(t, context.Background(), dir, map[string]string{"recordcount": "100"}); err != nil {
		t.Fatalf("load: %v\n%s", err, stderr)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	out, stderr, err := runPebble(t, context.Background(), dir, map[string]string{"recordcount": "100", "dotransactions": "true",
		"operationcount": "0", "readproportion": "0.5", "updateproportion": "0.5", "threadcount": "4", "maxexecutiontime": "1",
		"report.json": report})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	if got := row(t, out, "CLIENT", "Database"); got != "embedded in this process (its work is in the CPU figures)" {
		t.Errorf("[CLIENT], Database, %s", got)
	}
	if vs := verdicts(out); !slices.Contains(vs, "CPU-BOUND") {
		t.Fatalf("verdicts %v, want CPU-BOUND\n%s", vs, out)
	}
	var note string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "note: the client and its embedded engine did not keep up") {
			note = l
		}
	}
	if !strings.Contains(note, "the engine runs in the client's process") || strings.Contains(note, "use more client machines") {
		t.Errorf("note %q, want one saying the engine runs in the process, and not to add client machines\n%s", note, stderr)
	}
	cv := readReport(t, report).ClientVerdict
	if cv == nil || !cv.Embedded || !slices.Contains(cv.Verdicts, "CPU-BOUND") {
		t.Fatalf("client_verdict %+v, want embedded and CPU-BOUND", cv)
	}
	for _, a := range cv.Advice {
		if strings.Contains(a, "client machines (") {
			t.Errorf("JSON advice %q names more client machines", a)
		}
	}
}

// TestEmbeddedFleetRefused: client.count with an embedded engine would
// have each client benchmark a store of its own: load, run and capacity
// refuse it in one line naming the property and the binding, before the
// engine's directory is created, and so does the check ycsb kube runs.
func TestEmbeddedFleetRefused(t *testing.T) {
	d, name, err := db.Lookup("pebble")
	if err != nil {
		t.Fatal(err)
	}
	const want = "client.count: pebble is an embedded engine, in each client's own process: every client would benchmark a store of its own (and processes cannot share engine.dir: the engine locks it); run one process, with -threads for more work"
	for _, count := range []string{"1", "2"} {
		for _, tc := range []struct {
			name     string
			capacity bool
			extra    map[string]string
		}{
			{"load", false, map[string]string{"dotransactions": "false"}},
			{"run", false, map[string]string{"dotransactions": "true", "operationcount": "10"}},
			{"capacity", true, map[string]string{"dotransactions": "true", "slo": "READ.p99<=10ms"}},
		} {
			dir := filepath.Join(t.TempDir(), "store")
			m := map[string]string{"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "20", "engine.dir": dir,
				"client.count": count, "client.index": "0"}
			for k, v := range tc.extra {
				m[k] = v
			}
			var stdout, stderr syncBuffer
			o := Options{Props: props.FromMap(m), Driver: d, Binding: name, Stdout: &stdout, Stderr: &stderr}
			run := Run
			if tc.capacity {
				run = Capacity
			}
			err := run(context.Background(), o)
			if err == nil || err.Error() != want {
				t.Errorf("%s, client.count=%s: %v, want %q", tc.name, count, err, want)
			}
			if stdout.String() != "" || stderr.String() != "" {
				t.Errorf("%s: output before the refusal: %q %q", tc.name, stdout.String(), stderr.String())
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s: engine.dir was created: %v", tc.name, err)
			}
			if err := Check(props.FromMap(m), d, name, time.Unix(0, 0)); err == nil || err.Error() != want {
				t.Errorf("Check, %s, client.count=%s: %v, want %q", tc.name, count, err, want)
			}
		}
	}
}

// TestEmbeddedSettle: with engine.settle=true the phase ends settled: the
// report says how long settling took, that it reached no debt, and the
// debt after it, in the text report and in the JSON report's sections; the
// phase's own rows (the debt it ended with) stay.
func TestEmbeddedSettle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	report := filepath.Join(t.TempDir(), "report.json")
	out, stderr, err := runPebble(t, context.Background(), dir, map[string]string{"recordcount": "2000",
		"engine.settle": "true", "report.json": report})
	if err != nil {
		t.Fatalf("load: %v\n%s", err, stderr)
	}
	for name, want := range map[string]string{"Settled": "1", "L0FilesAfterSettle": "0", "PendingCompactionBytesAfterSettle": "0",
		"L0FilesAtStart": "0"} {
		if got := row(t, out, "ENGINE", name); got != want {
			t.Errorf("[ENGINE], %s, %s; want %s", name, got, want)
		}
	}
	row(t, out, "ENGINE", "SettleTime(ms)")
	row(t, out, "ENGINE", "L0FilesAtEnd")
	found := map[string]bool{}
	for _, r := range readReport(t, report).Sections {
		if r.Metric == "ENGINE" {
			found[r.Name] = true
		}
	}
	for _, n := range []string{"SettleTime(ms)", "Settled", "L0SublevelsAtEnd", "RunningCompactionsAtStart"} {
		if !found[n] {
			t.Errorf("JSON sections lack ENGINE %s", n)
		}
	}
}
