package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareGateBadInput: a gate the parser refuses, or one naming an
// operation neither report measured, is one line naming the gate as
// written, exit code 2, and nothing on stdout.
func TestCompareGateBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	loadReport(t, good)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"wrong direction", []string{"-gate", "READ.p99:-10%", good, good}, `ycsb: -gate: READ.p99:-10%: tolerance "-10%": a latency tolerance is +N% (B may be up to N% slower)`},
		{"throughput up", []string{"--gate", "throughput:+5%", good, good}, `ycsb: --gate: throughput:+5%: tolerance "+5%": a throughput tolerance is -N% (B may be up to N% lower)`},
		{"max", []string{"-gate", "INSERT.max:+10%", good, good}, "ycsb: -gate: INSERT.max:+10%: the maximum is one sample of each run"},
		{"bad number", []string{"-gate", "INSERT.p99:+1e9%", good, good}, `ycsb: -gate: INSERT.p99:+1e9%: tolerance "+1e9%": want from +0% to +1000%`},
		{"unknown operation", []string{"-gate", "INSERT.p99:+10%, READS.p99:+10%", good, good}, "ycsb: -gate: READS.p99:+10%: no operation READS in " + good + " or " + good + " (CLEANUP, INSERT)"},
		{"empty", []string{"-gate", " ", good, good}, "ycsb: -gate: no gate"},
		{"twice", []string{"-gate", "INSERT.p99:+1%", "-gate", "throughput:-1%", good, good}, "ycsb: option -gate given twice"},
		{"no value", []string{good, good, "-gate"}, "option -gate needs a value"},
		{"unknown option", []string{"-gates", "x", good, good}, "unknown option -gates"},
		{"one report", []string{"-gate", "INSERT.p99:+1%", good}, "two JSON reports"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"compare"}, tt.args...)...)
			if code != ExitBadInput || stdout != "" {
				t.Errorf("exit %d, want 2; stdout %q", code, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q, want one line with %q", stderr, tt.want)
			}
		})
	}
}

// TestCompareGateVerdicts: two real runs of the basic binding, one with
// every read taking 1 ms and one 3 ms: the slower as B fails READ.p50
// (exit code 3, the failed gate on stderr), a run against itself passes,
// and a report whose few intervals cannot be resampled says NO DATA,
// which is no pass: exit code 4 and one line naming the gate and why,
// unless another gate failed (3).
//
// Each run has about 120 intervals of 10 ms, six times the 20 the
// resampling needs: on a loaded machine the interval ticks come late and
// some intervals last longer (1,200 operations at 1 ms made 14 to 19 in
// CI-like runs beside the suite's servers, where 60 were due).
func TestCompareGateVerdicts(t *testing.T) {
	dir := t.TempDir()
	run := func(name, delay string) string {
		path := filepath.Join(dir, name)
		if code, _, stderr := runCLI("run", "basic", "-P", "../workloads/workloadc", "-threads", "2", "-p", "recordcount=100",
			"-p", "operationcount=2400", "-p", "basicdb.simulatedelay="+delay, "-p", "basicdb.randomizedelay=false",
			"-p", "report.interval=0.01", "-p", "report.json="+path); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		return path
	}
	fast, slow := run("fast.json", "1"), run("slow.json", "3")
	gates := "READ.p50:+10%, throughput:-90%"

	code, stdout, stderr := runCLI("compare", "-gate", gates, fast, slow)
	if code != ExitUnmet || !strings.HasPrefix(stderr, "ycsb: regression gate failed: READ.p50:+10% (+") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("slower B: exit %d, stderr %q; want 3 and the failed gate", code, stderr)
	}
	if !strings.Contains(stdout, "[READ] p50(us)") || !strings.Contains(stdout, "Regression gates:") || !strings.Contains(stdout, "FAIL") {
		t.Errorf("slower B: the comparison then the gates, with a FAIL:\n%s", stdout)
	}

	if code, stdout, stderr := runCLI("compare", "-gate", gates, slow, slow); code != 0 || stderr != "" || strings.Contains(stdout, "FAIL") {
		t.Errorf("a run against itself: exit %d, stderr %q:\n%s", code, stderr, stdout)
	}

	few := filepath.Join(dir, "few.json")
	loadReport(t, few)
	code, stdout, stderr = runCLI("compare", "-gate", "INSERT.p99:+10%", few, few)
	if code != ExitNotJudged || !strings.Contains(stdout, "NO DATA") || !strings.Contains(stdout, "too few intervals to resample") ||
		!strings.HasPrefix(stderr, "ycsb: regression gate not judged: INSERT.p99:+10% (") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("few intervals: exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
	code, _, stderr = runCLI("compare", "-gate", gates+", READ.p99.99:+10%", fast, slow)
	if code != ExitUnmet || !strings.HasPrefix(stderr, "ycsb: regression gate failed: READ.p50:+10% (+") ||
		!strings.Contains(stderr, "; regression gate not judged: READ.p99.99:+10% (A has 2400 operations; a p99.99 needs at least 100000 operations") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a failure and a gate not judged: exit %d, stderr %q; want 3", code, stderr)
	}
}
