package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportHTML draws two real runs of the basic binding into one page.
func TestReportHTML(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, p := range []string{a, b} {
		code, _, stderr := runCLI("run", "basic", "-P", "../workloads/workloada", "-p", "recordcount=100",
			"-p", "operationcount=3000", "-target", "10000", "-p", "report.interval=0.05", "-p", "warmup=0.05", "-p", "report.json="+p)
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	out := filepath.Join(dir, "r.html")
	code, _, stderr := runCLI("report", "--html", "-o", out, "-title", "two runs", "first="+a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>two runs</title>", `"name":"first"`, `"name":"basic run"`, `"READ":{"max":[[`, `"READ":[[0,`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("no %s in the page", want)
		}
	}
	// -groups: "<series> <group>" names split into groups and series.
	code, _, stderr = runCLI("report", "--html", "-groups", "-o", out, "basic workloada="+a, "other workloada="+b)
	if code != 0 {
		t.Fatalf("-groups: exit %d: %s", code, stderr)
	}
	page, _ = os.ReadFile(out)
	for _, want := range []string{`"groups":["workloada"]`, `"series":["basic","other"]`, `"group":"workloada","series":"other"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("-groups: no %s in the page", want)
		}
	}
}

// TestReportBadInput: one line, exit code 2, no page.
func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	notReport := filepath.Join(dir, "x.json")
	os.WriteFile(notReport, []byte(`{"a":1}`), 0o644)
	out := filepath.Join(dir, "r.html")
	for _, args := range [][]string{
		{"report", notReport},
		{"report", "--html"},
		{"report", "--html", "-o", out, filepath.Join(dir, "missing.json")},
		{"report", "--html", "-o", out, notReport},
		{"report", "--html", "-o", filepath.Join(dir, "no", "r.html"), notReport},
		{"report", "--html", "-bogus", notReport},
		{"report", "--html", "-o"},
		{"report", "--html", "-groups", "-o", out, "pebble workloada=" + notReport, notReport},
		{"report", "--html", "-groups", "-o", out, "pebble=" + notReport},
	} {
		code, _, stderr := runCLI(args...)
		if code != ExitBadInput || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: a page was written", args)
		}
	}
}

// TestReportCapacity draws a real capacity search, and refuses it with a
// run on one page: one line naming both files, exit code 2, no page.
func TestReportCapacity(t *testing.T) {
	dir := t.TempDir()
	capacity := "../report/htmlreport/testdata/capacity.json"
	out := filepath.Join(dir, "c.html")
	code, _, stderr := runCLI("report", "--html", "-o", out, capacity)
	if code != 0 || !strings.HasPrefix(stderr, "wrote "+out+" (1 run(s), ") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"capacity":[{"objective":"READ.p99\u003c=50ms"`, `"headline":"max 1914 ops/s achieved (1915 asked), first failing 2000 ops/s"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("no %s in the page", want)
		}
	}
	run := filepath.Join(dir, "run.json")
	code, _, stderr = runCLI("run", "basic", "-P", "../workloads/workloada", "-p", "recordcount=100",
		"-p", "operationcount=100", "-p", "report.json="+run)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	mixed := filepath.Join(dir, "mixed.html")
	code, _, stderr = runCLI("report", "--html", "-o", mixed, run, capacity)
	want := "ycsb: " + capacity + " is a capacity search and " + run + " is not: draw them on separate pages\n"
	if code != ExitBadInput || stderr != want {
		t.Errorf("mixed: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if _, err := os.Stat(mixed); err == nil {
		t.Error("mixed: a page was written")
	}
}
