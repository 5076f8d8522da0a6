package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	_ "github.com/goycsb/ycsb/db/basic"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/jsonreport"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// loadReport runs a small load with the basic binding and writes its JSON
// report to path.
func loadReport(t *testing.T, path string, extra ...string) {
	t.Helper()
	args := append([]string{"load", "basic", "-P", "../workloads/workloada", "-p", "recordcount=200",
		"-p", "exporter=jsonreport", "-p", "exportfile=" + path}, extra...)
	if code, _, stderr := runCLI(args...); code != 0 {
		t.Fatalf("load: exit %d: %s", code, stderr)
	}
}

// TestResultsBadInput: every unusable input is one line on stderr, exit
// code 2, and no output file.
func TestResultsBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	loadReport(t, good)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	truncated := write("truncated.json", data[:len(data)/2])
	corrupt := write("corrupt.json", bytes.Replace(data, []byte(`"histogram": "HIST`), []byte(`"histogram": "XXXX`), 1))
	foreign := write("foreign.json", []byte(`{"metric" : "OVERALL", "measurement" : "RunTime(ms)", "value" : 12} {"metric" : "OVERALL", "measurement" : "Throughput(ops/sec)", "value" : 1.0}`))
	text := write("text.json", []byte("[OVERALL], RunTime(ms), 12\n"))
	other := filepath.Join(dir, "other.json")
	loadReport(t, other, "-p", "fieldcount=3")
	run := filepath.Join(dir, "run.json")
	if code, _, stderr := runCLI("run", "basic", "-P", "../workloads/workloada", "-p", "recordcount=200", "-p", "operationcount=100",
		"-p", "exporter=jsonreport", "-p", "exportfile="+run); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	negative := write("negative.json", regexp.MustCompile(`"operations": [0-9]+`).ReplaceAll(data, []byte(`"operations": -5`)))
	negInterval := write("neginterval.json", regexp.MustCompile(`"ops": [0-9]+`).ReplaceAll(data, []byte(`"ops": -3`)))
	badHdr := write("bad.hdr", []byte("#[Histogram log format version 1.3]\n0.0,1.0,0.1,HISTFAAAAnotbase64!!\n"))
	out := filepath.Join(dir, "merged.json")

	tests := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"truncated", []string{"merge", "-o", out, good, truncated}, "truncated or corrupt"},
		{"corrupt histogram", []string{"merge", "-o", out, good, corrupt}, "corrupt histogram"},
		{"reference json exporter", []string{"merge", "-o", out, good, foreign}, "not a ycsb-go JSON report"},
		{"text report", []string{"merge", "-o", out, text}, "not a ycsb-go JSON report"},
		{"missing file", []string{"merge", "-o", out, filepath.Join(dir, "nope.json")}, "no such file"},
		{"different workload", []string{"merge", "-o", out, good, other}, "fieldcount"},
		{"different phase", []string{"merge", "-o", out, good, run}, "phase"},
		{"same report twice", []string{"merge", "-o", out, good, good}, "the same report as"},
		{"json and hdr", []string{"merge", "-o", out, good, badHdr}, "not both"},
		{"corrupt hdr", []string{"merge", "-o", out, badHdr}, "corrupt HdrHistogram log"},
		{"output in missing dir", []string{"merge", "-o", filepath.Join(dir, "no", "m.json"), good}, "does not exist"},
		{"nothing", []string{"merge"}, "nothing to merge"},
		{"negative operations", []string{"merge", "-o", out, negative}, negative + ": operations: -5 is negative"},
		{"negative interval", []string{"merge", "-o", out, good, negInterval}, negInterval + ": intervals[0].ops: -3 is negative"},
		{"compare negative", []string{"compare", good, negInterval}, negInterval + ": intervals[0].ops: -3 is negative"},
		{"report negative", []string{"report", "--html", "-o", filepath.Join(dir, "r.html"), negative}, negative + ": operations: -5 is negative"},
		{"-html in missing dir", []string{"merge", "-html", "/nonexistent/x.html", good}, "ycsb: -html /nonexistent/x.html: directory /nonexistent does not exist"},
		{"--html in missing dir", []string{"merge", "--html", "/nonexistent/x.html", good}, "ycsb: --html /nonexistent/x.html: directory /nonexistent does not exist"},
		{"-o under a file", []string{"merge", "-o", filepath.Join(good, "m.json"), good}, "ycsb: -o " + filepath.Join(good, "m.json") + ": " + good + " is not a directory"},
		{"-o a directory", []string{"merge", "-o", dir, good}, "ycsb: -o " + dir + ": " + dir + " is a directory, want a file name"},
		{"-o where no file can be created", []string{"merge", "-o", "/sys/m.json", good}, "ycsb: -o /sys/m.json: cannot create a file in /sys: "},
		{"report -o where no file can be created", []string{"report", "--html", "-o", "/sys/r.html", good}, "ycsb: -o /sys/r.html: cannot create a file in /sys: "},
		{"outputs before inputs", []string{"merge", "-o", "/nonexistent/m.json", "/dev/zero"}, "ycsb: -o /nonexistent/m.json: directory /nonexistent does not exist"},
		{"report -o in missing dir", []string{"report", "--html", "-o", "/nonexistent/r.html", "/dev/zero"}, "ycsb: -o /nonexistent/r.html: directory /nonexistent does not exist"},
		{"compare one", []string{"compare", good}, "two JSON reports"},
		{"compare corrupt", []string{"compare", good, truncated}, "truncated"},
		{"compare hdr", []string{"compare", good, badHdr}, "not a ycsb-go JSON report"},
		{"exportfile dir", []string{"load", "basic", "-P", "../workloads/workloada", "-p", "exportfile=" + filepath.Join(dir, "no", "r.txt")}, "exportfile"},
		{"report.json dir", []string{"load", "basic", "-P", "../workloads/workloada", "-p", "report.json=" + filepath.Join(dir, "no", "r.json")}, "report.json"},
		{"hdr path dir", []string{"load", "basic", "-P", "../workloads/workloada", "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + filepath.Join(dir, "no") + "/"}, "hdrhistogram.output.path"},
		{"exporter", []string{"load", "basic", "-P", "../workloads/workloada", "-p", "exporter=xml"}, "exporter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(tt.args...)
			if code != ExitBadInput {
				t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "ycsb: ") || !strings.Contains(last, tt.want) {
				t.Errorf("error line %q, want one mentioning %q", last, tt.want)
			}
			if strings.HasPrefix(tt.args[0], "merge") || tt.args[0] == "compare" {
				if len(lines) != 1 {
					t.Errorf("%d lines on stderr, want 1:\n%s", len(lines), stderr)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was written", out)
			}
		})
	}
}

// TestMultiProcessMerge runs a load on three client processes with
// disjoint insertstart/insertcount ranges at the same time, merges their
// reports, and checks the result against one process doing the same work:
// counts are exact, percentiles equal those of the merged HDR logs, and
// throughput (all clients, over their common window) is that of the single
// process at the same total target rate.
func TestMultiProcessMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the ycsb binary")
	}
	dir := t.TempDir()
	bin := ycsbtest.Binary(t)
	workload, _ := filepath.Abs("../workloads/workloada")
	const clients, per, rate = 3, 1500, 1000 // each client 1.5 s at 1000 ops/s
	load := func(name string, start, count, target int) *exec.Cmd {
		return exec.Command(bin, "load", "basic", "-P", workload, "-threads", "2",
			"-p", "recordcount="+strconv.Itoa(clients*per),
			"-p", "insertstart="+strconv.Itoa(start), "-p", "insertcount="+strconv.Itoa(count),
			"-target", strconv.Itoa(target),
			"-p", "exporter=jsonreport", "-p", "exportfile="+filepath.Join(dir, name+".json"),
			"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+filepath.Join(dir, name+"-"))
	}
	var wg sync.WaitGroup
	errs := make([]error, clients)
	outs := make([][]byte, clients)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = load("c"+strconv.Itoa(i), i*per, per, rate).CombinedOutput()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v\n%s", i, err, outs[i])
		}
	}
	if out, err := load("single", 0, clients*per, clients*rate).CombinedOutput(); err != nil {
		t.Fatalf("single: %v\n%s", err, out)
	}
	merged := filepath.Join(dir, "merged.json")
	args := []string{"merge", "-o", merged}
	for i := 0; i < clients; i++ {
		args = append(args, filepath.Join(dir, "c"+strconv.Itoa(i)+".json"))
	}
	text, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	if !bytes.Contains(text, []byte("[INSERT], Return=OK, "+strconv.Itoa(clients*per)+"\n")) {
		t.Errorf("merged text report:\n%s", text)
	}
	hdrArgs := []string{"merge"}
	for i := 0; i < clients; i++ {
		hdrArgs = append(hdrArgs, filepath.Join(dir, "c"+strconv.Itoa(i)+"-INSERT.hdr"))
	}
	fromLogs, err := exec.Command(bin, hdrArgs...).Output()
	if err != nil {
		t.Fatalf("merge of the HDR logs: %v", err)
	}
	read := func(p string) *jsonreport.Report {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := jsonreport.Read(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return r
	}
	m, single := read(merged), read(filepath.Join(dir, "single.json"))
	if m.Clients != clients || m.Operations != single.Operations || m.Operations != clients*per {
		t.Errorf("merged: %d clients, %d operations; single: %d operations; want %d", m.Clients, m.Operations, single.Operations, clients*per)
	}
	mi, si := m.Find("INSERT"), single.Find("INSERT")
	if mi == nil || si == nil || mi.Count != si.Count || len(mi.Returns) != 1 || mi.Returns[0] != si.Returns[0] {
		t.Fatalf("INSERT merged %+v, single %+v", mi, si)
	}
	// The merged percentiles are those of the union of the clients' HDR
	// logs (a second, independent path to the same histogram).
	for _, p := range []string{"95th", "99th"} {
		line := "[INSERT], " + p + "PercentileLatency(us), "
		want := lineValue(t, fromLogs, line)
		got := lineValue(t, text, line)
		if math.Abs(got-want) > want/1000+1 {
			t.Errorf("%s: merged report %v, merged HDR logs %v", p, got, want)
		}
	}
	if ratio := m.Throughput / single.Throughput; ratio < 0.7 || ratio > 1.3 {
		t.Errorf("merged throughput %.0f ops/s, single process %.0f ops/s", m.Throughput, single.Throughput)
	}
	t.Logf("merged: %d ops, %.0f ops/s over the common window; single: %.0f ops/s", m.Operations, m.Throughput, single.Throughput)
	var js map[string]any
	if err := json.Unmarshal(mustRead(t, merged), &js); err != nil {
		t.Errorf("merged report is not valid JSON: %v", err)
	}
}

func lineValue(t *testing.T, text []byte, prefix string) float64 {
	t.Helper()
	for _, l := range strings.Split(string(text), "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no line %q in:\n%s", prefix, text)
	return 0
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzToolArgs: whatever the arguments, toolArgs returns files that are no
// options, or one line of usage error; an option refused as given twice
// is one of the arguments, as typed.
func FuzzToolArgs(f *testing.F) {
	for _, s := range []string{"-o a -o b r.json", "-o a --o b -", "--html -slo x -html", "-slo", "a -o - -o -o"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		var out, slo string
		var html bool
		files, opts, err := toolArgs(args, "usage", map[string]*string{"o": &out, "slo": &slo}, map[string]*bool{"html": &html})
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error %T %q, want one line of usage error", line, err, err)
			}
			if opt, twice := strings.CutPrefix(err.Error(), "option "); twice && strings.Contains(opt, " given twice") {
				if name, _, _ := strings.Cut(opt, " "); !slices.Contains(args, name) {
					t.Fatalf("%q: %q names no argument", line, err)
				}
			}
			return
		}
		for _, f := range files {
			if strings.HasPrefix(f, "-") && f != "-" {
				t.Fatalf("%q: option %q taken for a file", line, f)
			}
		}
		if opts.given("html") != html {
			t.Fatalf("%q: html given %v, set %v", line, opts.given("html"), html)
		}
	})
}
