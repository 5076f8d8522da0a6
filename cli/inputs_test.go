package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editReport writes to dir/name the JSON report at good with edit applied
// to its decoded form.
func editReport(t *testing.T, good, dir, name string, edit func(r map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	edit(r)
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImpossibleReportsRefused: a report no run writes is refused by
// merge and by compare alike, in one line naming the file and the field,
// exit code 2, and merge writes no -o file.
func TestImpossibleReportsRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	loadReport(t, good, "-target", "2000") // 100 ms: an interval of some length
	interval0 := func(r map[string]any) map[string]any { return r["intervals"].([]any)[0].(map[string]any) }
	for _, tt := range []struct {
		name  string
		edit  func(r map[string]any)
		field string
	}{
		{"overlapping intervals", func(r map[string]any) {
			iv := interval0(r)
			dup := map[string]any{"start_ms": 0, "end_ms": iv["end_ms"], "ops": 0}
			r["intervals"] = append(r["intervals"].([]any), dup)
		}, "intervals[1].start_ms: 0 is before the end of intervals[0]"},
		{"start_unix_ms", func(r map[string]any) {
			iv := interval0(r)
			iv["start_unix_ms"] = iv["start_unix_ms"].(float64) - 60000
		}, "intervals[0].start_unix_ms: "},
		{"clients", func(r map[string]any) { r["clients"] = 1e12 }, "clients: 1000000000000 is more than 1000000"},
		{"intervals null", func(r map[string]any) { r["intervals"] = nil }, "intervals: missing, but operations is 200"},
		{"intervals missing", func(r map[string]any) { delete(r, "intervals") }, "intervals: missing, but operations is 200"},
		{"start == end", func(r map[string]any) { r["end"] = r["start"]; r["runtime_ms"] = 4000 }, "runtime_ms: 4000, but end is start "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bad := editReport(t, good, dir, "bad.json", tt.edit)
			out := filepath.Join(dir, "merged.json")
			for _, args := range [][]string{{"merge", "-o", out, bad}, {"compare", good, bad}} {
				code, stdout, stderr := runCLI(args...)
				if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ycsb: "+bad+": "+tt.field) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and one line %q", args[0], code, stdout, stderr, bad+": "+tt.field)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("merge wrote %s", out)
			}
		})
	}
}

// TestHugeValuesCut: a report whose binding is 50 MiB is refused by merge
// in a line of readable length; a sparse file of 2 GiB by its size; 20 MiB
// of zeros on stdin in one line naming stdin.
func TestHugeValuesCut(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	loadReport(t, good)
	other := filepath.Join(dir, "other.json")
	loadReport(t, other)
	huge := editReport(t, other, dir, "huge.json", func(r map[string]any) { r["binding"] = strings.Repeat("\x1b[31m", 10<<20) })
	code, _, stderr := runCLI("merge", good, huge)
	if code != ExitBadInput || strings.Count(stderr, "\n") != 1 || len(stderr) > 1000 || strings.Contains(stderr, "\x1b") ||
		!strings.Contains(stderr, "... (52428800 bytes)") {
		t.Errorf("merge with a binding of 50 MiB: exit %d, %d bytes on stderr: %.300q", code, len(stderr), stderr)
	}

	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(2 << 30)
	f.Close()
	for _, args := range [][]string{{"merge", sparse}, {"compare", good, sparse}, {"report", "--html", "-o", filepath.Join(dir, "r.html"), sparse}} {
		code, _, stderr := runCLI(args...)
		if code != ExitBadInput || stderr != "ycsb: "+sparse+": too large: more than 1 GiB, the cap for this input\n" {
			t.Errorf("%s of a 2 GiB file: exit %d, %q", args[0], code, stderr)
		}
	}

	var out, errb bytes.Buffer
	code = Run(context.Background(), []string{"merge", "-"}, &Env{Stdin: bytes.NewReader(make([]byte, 20<<20)), Stdout: &out, Stderr: &errb})
	if code != ExitBadInput || errb.String() != "ycsb: stdin: no ycsb report in it: give JSON reports, or logs of clients run with -p report.json=-\n" {
		t.Errorf("merge - of 20 MiB of zeros: exit %d, %q", code, errb.String())
	}
}

// TestOutputsOneWriter: two outputs of one command naming one file, by
// the same name, through a link, or as one of the HDR logs, are refused
// before anything runs: one line naming both, exit code 2, no file.
func TestOutputsOneWriter(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	link := filepath.Join(dir, "link")
	os.Symlink(x, link)
	good := filepath.Join(t.TempDir(), "good.json")
	loadReport(t, good)
	load := []string{"load", "basic", "-P", "../workloads/workloada", "-p", "recordcount=10"}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"exportfile and report.json", append(load, "-p", "exportfile="+x, "-p", "report.json="+dir+"/sub/../x", "-p", "cpuprofile="+x),
			"report.json=" + dir + "/sub/../x: the same file as exportfile=" + x},
		{"cpuprofile", append(load, "-p", "exportfile="+x, "-p", "cpuprofile="+x), "cpuprofile=" + x + ": the same file as exportfile=" + x},
		{"through a link", append(load, "-p", "exportfile="+link, "-p", "report.json="+x), "report.json=" + x + ": the same file as exportfile=" + link},
		{"raw samples and report.json", append(load, "-p", "measurementtype=raw", "-p", "measurement.raw.output_file="+x, "-p", "report.json="+x),
			"measurement.raw.output_file=" + x + ": the same file as report.json=" + x},
		{"an HDR log", append(load, "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+dir+"/h-", "-p", "exportfile="+dir+"/h-INSERT.hdr"),
			"exportfile=" + dir + "/h-INSERT.hdr: may be one of the files of hdrhistogram.output.path=" + dir + "/h- (" + dir + "/h-<NAME>.hdr)"},
		{"run", []string{"run", "basic", "-P", "../workloads/workloada", "-p", "operationcount=10", "-p", "exportfile=" + x, "-p", "report.json=" + link},
			"report.json=" + link + ": the same file as exportfile=" + x},
		{"capacity", []string{"capacity", "basic", "-P", "../workloads/workloada", "-p", "slo=READ.p99<=5ms", "-p", "exportfile=" + x, "-p", "report.json=" + x},
			"report.json=" + x + ": the same file as exportfile=" + x},
		{"merge -o and -html", []string{"merge", "-o", x, "-html", link, good}, "-o " + x + ": the same file as -html " + link},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tt.args...)
			if code != ExitBadInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ycsb: "+tt.want+"; give each output a file of its own") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tt.want)
			}
			if _, err := os.Stat(x); err == nil {
				t.Errorf("%s was written", x)
				os.Remove(x)
			}
		})
	}
}
