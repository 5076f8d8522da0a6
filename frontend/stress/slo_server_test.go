package stress

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// TestSLO: -slo judges the measured run: its lines after the Results
// block, the JSON report's slo and [SLO] rows, and the Unmet error (exit
// code 3) when an objective fails; abort stops a run that cannot meet it.
func TestSLO(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "slo")
	report := filepath.Join(t.TempDir(), "r.json")
	common := []string{"-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode}
	out := runLine(t, append([]string{"write", "n=2000", "no-warmup", "-rate", "threads=4",
		"-log", "no-settings", "json=" + report, "-slo", "WRITE.p99<=60s, errors<=1%"}, common...)...)
	for _, w := range []string{"Objectives (service latency):\nWRITE.p99<=60s            : PASS (", "errors<=1%                : PASS (0%)\nVerdict                   : PASS\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	data, err := infile.Read(context.Background(), report, infile.MaxReport)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := jsonreport.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep.SLO == nil || !rep.SLO.Passed || rep.Settings["slo"] != "WRITE.p99<=60s,errors<=1%" || rep.Failed == nil || *rep.Failed != 0 {
		t.Errorf("report: slo %+v, settings %q", rep.SLO, rep.Settings["slo"])
	}

	// Missed: the report is printed, the run ends with END, the error is
	// Unmet.
	var stdout, stderr bytes.Buffer
	err = Main(context.Background(), append([]string{"read", "n=1000", "no-warmup", "-rate", "threads=2",
		"-pop", "dist=uniform(1..2000)", "-slo", "read.max<=1us", "throughput>=1e9"}, common...), Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
	if !slo.IsUnmet(err) || !strings.Contains(err.Error(), "read.max<=1us (") || !strings.HasSuffix(stdout.String(), "\nEND\n") ||
		!strings.Contains(stdout.String(), "Verdict                   : FAIL (2 of 2 objectives)") {
		t.Fatalf("missed: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "Objectives (ours):\n  Objectives: read.max<=1us,throughput>=1e9\n  Abort: false") {
		t.Errorf("settings block lacks the objectives:\n%s", stdout.String())
	}

	// abort: one read over 1 µs fails read.max beyond doubt; the run of
	// 10 minutes stops at the first interval.
	stdout.Reset()
	start := time.Now()
	err = Main(context.Background(), append([]string{"read", "duration=10m", "no-warmup", "-rate", "threads=2",
		"-log", "no-settings", "interval=200ms", "-pop", "dist=uniform(1..2000)", "-slo", "read.max<=1us", "abort"}, common...), Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
	if !slo.IsUnmet(err) || !strings.Contains(err.Error(), "stopped early: read.max<=1us failed beyond doubt") {
		t.Fatalf("abort: %v\n%s", err, stdout.String())
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("abort took %v", d)
	}

	// A ramp has no one run to judge.
	err = Main(context.Background(), append([]string{"read", "n=10", "-slo", "read.p99<=5ms"}, common...), Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
	var bi *BadInput
	if err == nil || !strings.Contains(err.Error(), "-slo: a thread ramp has no one run to judge") || !asBadInput(err, &bi) {
		t.Errorf("ramp: %v", err)
	}
}

func asBadInput(err error, bi **BadInput) bool {
	b, ok := err.(*BadInput)
	*bi = b
	return ok
}
