package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCompareGateNotJudged: the binary's exit code for a gate that cannot
// be judged. A run of a few hundred operations of 1 ms in intervals of
// 1 s has one interval (three on a loaded machine), too few to resample
// (20 would take a run 60 times as slow): ycsb compare -gate prints the gate
// NO DATA and exits 4, not 0 (a pass) nor 3 (a failure), with one line on
// stderr naming the gate and why; the gate's message and the comparison's
// count the same intervals.
func TestCompareGateNotJudged(t *testing.T) {
	t.Parallel() // its own temporary files and processes
	bin, _ := binaryAndWorkload(t)
	workloadc, err := filepath.Abs("../../workloads/workloadc")
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "few.json")
	if o := runBinary(t, bin, 0, "run", "basic", "-P", workloadc, "-p", "recordcount=100", "-p", "operationcount=300",
		"-p", "basicdb.simulatedelay=1", "-p", "basicdb.randomizedelay=false", "-p", "report.interval=1",
		"-p", "report.json="+report); o.code != 0 {
		t.Fatalf("run: exit %d\n%s", o.code, o.stderr)
	}
	o := runBinary(t, bin, 0, "compare", "-gate", "READ.p50:+10%", report, report)
	if o.code != 4 {
		t.Fatalf("exit code %d, want 4\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	gate := regexp.MustCompile(`^ycsb: regression gate not judged: READ\.p50:\+10% \(too few intervals to resample \((\d+), (\d+); need 20 each\)\)\n$`).FindStringSubmatch(o.stderr)
	if gate == nil || gate[1] != gate[2] {
		t.Fatalf("stderr %q, want one line naming the gate and why", o.stderr)
	}
	if !strings.Contains(o.stdout, "NO DATA") {
		t.Errorf("no NO DATA in the gates' table:\n%s", o.stdout)
	}
	// The comparison's test counts the same intervals: "over N
	// intervals", or with fewer than 3 "too few intervals to test (N, N".
	overall := regexp.MustCompile(`over (\d+) intervals|too few intervals to test \((\d+), `).FindStringSubmatch(o.stdout)
	if overall == nil || overall[1]+overall[2] != gate[1] {
		t.Errorf("the gate counts %s intervals, the comparison %q:\n%s", gate[1], overall, o.stdout)
	}
}
