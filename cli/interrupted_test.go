package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goycsb/ycsb/internal/stopsignal"
)

// runToReport runs the basic binding with its JSON report at path, at
// 2000 ops/s: 1000 operations, or, interrupted, 40000 that SIGTERM stops
// after 300 ms. It returns the exit code.
func runToReport(t *testing.T, path string, interrupted bool) int {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	count := "1000"
	if interrupted {
		count = "40000"
		time.AfterFunc(300*time.Millisecond, func() { cancel(&stopsignal.Cause{Signal: stopsignal.SIGTERM}) })
	}
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"run", "basic", "-P", "../workloads/workloada", "-p", "recordcount=200", "-p", "operationcount=" + count,
		"-target", "2000", "-p", "report.json=" + path}, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	if interrupted && (!strings.Contains(out.String(), "[OVERALL], Interrupted, by SIGTERM after ") ||
		!strings.Contains(errb.String(), "Run interrupted by SIGTERM after ")) {
		t.Errorf("an interrupted run does not say so:\n%s\n%s", out.String(), errb.String())
	}
	return code
}

// TestInterruptedReports: an interrupted run exits 130 with its report
// marked; merge refuses it among complete reports unless
// -allow-interrupted, and marks a merge of interrupted reports; compare
// warns on its line and -gate judges nothing (exit 4).
func TestInterruptedReports(t *testing.T) {
	dir := t.TempDir()
	full, stopped, stopped2 := filepath.Join(dir, "full.json"), filepath.Join(dir, "stopped.json"), filepath.Join(dir, "stopped2.json")
	// At the same time, as a fleet's clients: merge sums a common window.
	var wg sync.WaitGroup
	codes := make([]int, 3)
	for i, p := range []string{full, stopped, stopped2} {
		wg.Go(func() { codes[i] = runToReport(t, p, i > 0) })
	}
	wg.Wait()
	if codes[0] != ExitOK || codes[1] != ExitInterrupted || codes[2] != ExitInterrupted {
		t.Fatalf("exit codes %v, want 0 for the complete run and %d for the interrupted ones", codes, ExitInterrupted)
	}
	data, err := os.ReadFile(stopped)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"interrupted": {`)) || !bytes.Contains(data, []byte(`"by": "SIGTERM"`)) || !bytes.Contains(data, []byte(`"planned_operations": 40000`)) {
		t.Fatalf("report.json is not marked:\n%s", data)
	}

	// merge: mixed refused, naming the file and the flag.
	code, out, stderr := runCLI("merge", "-o", filepath.Join(dir, "m.json"), full, stopped)
	if code != ExitBadInput || !strings.Contains(stderr, "ycsb: "+stopped+": interrupted by SIGTERM after ") || !strings.Contains(stderr, "-allow-interrupted") || out != "" {
		t.Errorf("merge of a complete and an interrupted report: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("the refused merge wrote its -o file")
	}
	// ... merged and marked when allowed, and when every client was stopped.
	for _, args := range [][]string{{"merge", "-allow-interrupted", full, stopped}, {"merge", stopped, stopped2}} {
		code, out, stderr = runCLI(args...)
		if code != ExitOK || !strings.Contains(out, "[OVERALL], Interrupted, ") ||
			!strings.Contains(stderr, "ycsb merge: warning: ") || !strings.Contains(stderr, "the merged report is marked interrupted") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, stderr)
		}
	}

	// compare: the warning on B's line; the gate is not judged.
	code, out, stderr = runCLI("compare", "-gate", "throughput:-5%", full, stopped)
	lines := strings.Split(out, "\n")
	if code != ExitNotJudged || len(lines) < 2 || strings.Contains(lines[0], "interrupted") ||
		!strings.HasPrefix(lines[1], "B: "+stopped+" (") || !strings.Contains(lines[1], "warning: interrupted by SIGTERM after ") ||
		!strings.Contains(out, "NO DATA") {
		t.Errorf("compare -gate against an interrupted report: exit %d, want %d\n%s\n%s", code, ExitNotJudged, out, stderr)
	}
}

// TestSignalWhileReportWaitsForFIFO: a run that ended complete at its
// maxexecutiontime, whose exportfile is a FIFO with no reader yet when
// Ctrl-C comes, writes its whole report once a reader comes and exits 0:
// its report, unmarked, is the truth, and the exit code says the same.
func TestSignalWhileReportWaitsForFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "export")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	read := make(chan string, 1)
	go func() {
		time.Sleep(2500 * time.Millisecond) // the run has ended; the report waits for a reader
		cancel(&stopsignal.Cause{Signal: stopsignal.SIGINT})
		b, _ := os.ReadFile(fifo)
		read <- string(b)
	}()
	code, _, stderr := run(t, ctx, "run", "basic", "-P", "../workloads/workloadc", "-p", "recordcount=100", "-p", "operationcount=0",
		"-p", "maxexecutiontime=1", "-target", "100", "-p", "exportfile="+fifo)
	report := <-read
	if !strings.Contains(report, "[OVERALL], RunTime(ms), ") || strings.Contains(report, "Interrupted") {
		t.Fatalf("the report through the FIFO:\n%s", report)
	}
	if code != ExitOK {
		t.Errorf("exit %d, want 0 for a complete run and its complete report; stderr:\n%s", code, stderr)
	}
}

// TestSignalWhileCapacityReportWaitsForFIFO: as a run's, a capacity search
// that ended complete exits as its answer says (0 here), not 130, when the
// signal comes while its report waits for a FIFO's reader.
func TestSignalWhileCapacityReportWaitsForFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "export")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	read := make(chan string, 1)
	go func() {
		// The one step ends after about a second; a loaded machine under
		// the race detector has taken five.
		time.Sleep(12 * time.Second)
		cancel(&stopsignal.Cause{Signal: stopsignal.SIGINT})
		b, _ := os.ReadFile(fifo)
		read <- string(b)
	}()
	code, _, stderr := run(t, ctx, "capacity", "basic", "-P", "../workloads/workloadc", "-p", "recordcount=100",
		"-p", "slo=READ.p99<=1s", "-p", "capacity.start=2000", "-p", "capacity.max=2000", "-p", "capacity.steptime=1",
		"-p", "capacity.warmup=0", "-p", "capacity.cooldown=0", "-p", "exportfile="+fifo)
	report := <-read
	if !strings.Contains(report, "MaxThroughput") || strings.Contains(report, "interrupted") {
		t.Fatalf("the report through the FIFO:\n%s", report)
	}
	if code != ExitOK {
		t.Errorf("exit %d, want 0 for a complete search and its complete report; stderr:\n%s", code, stderr)
	}
}
