package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goycsb/ycsb/report/reportblock"
)

// TestMergeFromLogs runs two clients that print their reports as blocks
// (report.json=-), feeds their concatenated stdout to ycsb merge - as
// kubectl logs would, and checks the merged text, the per-client rows, the
// warnings and the HTML page.
func TestMergeFromLogs(t *testing.T) {
	dir := t.TempDir()
	// Two clients at the same time, each on its half of the keys, one
	// starting a little later so that the overlap warning shows.
	var logs bytes.Buffer
	var wg sync.WaitGroup
	res := make([]struct {
		code           int
		stdout, stderr string
	}, 2)
	for i, rng := range [][3]string{{"0", "300", "600"}, {"300", "300", "400"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				time.Sleep(300 * time.Millisecond)
			}
			r := &res[i]
			r.code, r.stdout, r.stderr = runCLI("load", "basic", "-P", "../workloads/workloada", "-p", "recordcount=600",
				"-p", "insertstart="+rng[0], "-p", "insertcount="+rng[1], "-target", rng[2], "-p", "report.json=-")
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("client %d: exit %d: %s", i, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "[OVERALL], RunTime(ms), ") || !strings.Contains(r.stdout, "\n"+reportblock.Begin+"\n{") {
			t.Fatalf("client %d stdout has no text report and block:\n%s", i, r.stdout)
		}
		logs.WriteString(r.stdout)
	}
	html := filepath.Join(dir, "merged.html")
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"merge", "-html", html, "-"}, &Env{Stdin: &logs, Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"[OVERALL], Clients, 2\n", "[INSERT], Return=OK, 600\n", "[CLIENT-0], Operations, 300\n", "[CLIENT-1], FailedOperations, 0\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("merged report lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.HasPrefix(errb.String(), "ycsb merge: warning: the clients ran together for") {
		t.Errorf("stderr: %s", errb.String())
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"total (2 clients)", "client 0 (stdin:", "client 1 (stdin:"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the HTML page has no %q", want)
		}
	}
}

func TestMergeBadInputFromLogs(t *testing.T) {
	for _, tt := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"no block", "[OVERALL], RunTime(ms), 3\n", []string{"merge", "-"}, "ycsb: stdin: not a ycsb-go JSON report"},
		{"truncated", "x\n" + reportblock.Begin + "\n{\"format\":", []string{"merge", "-"}, "ycsb: stdin: line 2: the report block is truncated"},
		{"stdin twice", "", []string{"merge", "-", "-"}, "ycsb: - (stdin) given twice"},
		{"html of hdr logs", "", []string{"merge", "-html", "x.html", "a.hdr"}, "ycsb: -html needs JSON reports"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), tt.args, &Env{Stdin: strings.NewReader(tt.stdin), Stdout: &out, Stderr: &errb})
			if code != ExitBadInput || strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line starting %q", code, errb.String(), tt.want)
			}
		})
	}
}

// TestToolOptionTwice: a value option of merge, report or compare given
// twice is one line naming it as typed, exit code 2, and no file written,
// never one of the two values silently dropped.
func TestToolOptionTwice(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	loadReport(t, good)
	outs := filepath.Join(dir, "out")
	if err := os.Mkdir(outs, 0o755); err != nil {
		t.Fatal(err)
	}
	x, y := filepath.Join(outs, "x"), filepath.Join(outs, "y")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "-o", x, "-o", y, good}, "ycsb: option -o given twice"},
		{[]string{"merge", "-o", x, "--o", y, good}, "ycsb: option --o given twice"},
		{[]string{"merge", "-html", x, "-html", y, good}, "ycsb: option -html given twice"},
		{[]string{"merge", "-o", x, "-slo", "INSERT.p99<=1s", "--slo", "INSERT.p99<=2s", good}, "ycsb: option --slo given twice"},
		{[]string{"merge", "-o", x, "-exporter", "json", "-exporter", "text", good}, "ycsb: option -exporter given twice"},
		{[]string{"report", "--html", "-o", x, "-o", y, good}, "ycsb: option -o given twice"},
		{[]string{"report", "--html", "-o", x, "-title", "a", "-title", "b", good}, "ycsb: option -title given twice"},
		{[]string{"compare", "-gate", "INSERT.p99:+1%", "--gate", "throughput:-1%", good, good}, "ycsb: option --gate given twice"},
	} {
		code, stdout, stderr := runCLI(tt.args...)
		if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, one line starting %q", tt.args, code, stdout, stderr, tt.want)
		}
		if m, _ := filepath.Glob(filepath.Join(outs, "*")); len(m) != 0 {
			t.Fatalf("%q: wrote %v", tt.args, m)
		}
	}
}

// TestMergeSLOOfHdrLogs: HdrHistogram logs carry latencies but no
// operation, failure or time counts, nor the latency (service or intended)
// the run was judged on, so -slo refuses them up front like -html: one
// line naming it as typed, exit code 2, nothing written.
func TestMergeSLOOfHdrLogs(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI("load", "basic", "-P", "../workloads/workloada", "-p", "recordcount=200",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+filepath.Join(dir, "c0-")); code != 0 {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
	log := filepath.Join(dir, "c0-INSERT.hdr")
	if _, err := os.Stat(log); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "-slo", "INSERT.p99<=5s", log}, "ycsb: -slo needs JSON reports: "},
		{[]string{"merge", "-o", out, "--slo", "INSERT.p99<=5s", log}, "ycsb: --slo needs JSON reports: "},
	} {
		code, stdout, stderr := runCLI(tt.args...)
		if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, one line starting %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	// Without -slo the same log merges.
	if code, stdout, stderr := runCLI("merge", log); code != 0 || !strings.Contains(stdout, "[INSERT], 99thPercentileLatency(us), ") {
		t.Errorf("merge of the log: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}
