package compat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// tools builds our binary and makes sure the reference can run; outside CI
// a missing JDK or Maven skips the tests, in CI it fails them.
func tools(t *testing.T) (ours, reference string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the reference Java YCSB; -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	reference = filepath.Join(root, "scripts", "reference-ycsb.sh")
	if out, err := exec.Command(reference, "fetch").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI: cannot fetch the reference YCSB (JDK 17 and Maven are needed): %v\n%s", err, out)
		}
		t.Skipf("skipping: cannot fetch the reference YCSB (JDK 17 and Maven are needed): %v", err)
	}
	return ycsbtest.Binary(t), reference
}

func workload(name string) string { return filepath.Join("..", "..", "workloads", name) }

// run returns a command's standard output; it fails the test on an error.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

var insertLine = regexp.MustCompile(`^INSERT (\S+) (\S+) \[ (.*)\]$`)

// inserts parses BasicDB's verbose INSERT lines into key → field → value,
// keeping the order of the keys.
func inserts(t *testing.T, out string) (keys []string, records map[string]map[string]string) {
	t.Helper()
	records = map[string]map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		m := insertLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		rec := map[string]string{}
		// Deterministic values hold no spaces or '=' past the first.
		for _, kv := range strings.Fields(m[3]) {
			k, v, _ := strings.Cut(kv, "=")
			rec[k] = v
		}
		keys = append(keys, m[2])
		records[m[2]] = rec
	}
	return keys, records
}

// TestSameKeysAndValues loads with the reference's BasicDB printing every
// insert, then with ours, under the same properties: the keys, their order
// (one thread) and the data-integrity values must be identical.
func TestSameKeysAndValues(t *testing.T) {
	ours, reference := tools(t)
	cases := []struct {
		name  string
		props []string
	}{
		{"hashed", []string{"recordcount=300"}},
		{"ordered padded", []string{"recordcount=300", "insertorder=ordered", "zeropadding=12"}},
		{"hashed padded", []string{"recordcount=50", "zeropadding=25"}},
		{"insertstart", []string{"recordcount=1000", "insertstart=700", "insertcount=300"}},
		{"fields", []string{"recordcount=100", "fieldcount=3", "fieldlength=250", "fieldnameprefix=col"}},
		{"short values", []string{"recordcount=100", "fieldlength=7"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // two processes of their own, their stdout compared
			common := []string{"-P", workload("workloada"), "-p", "dataintegrity=true", "-p", "basicdb.verbose=true"}
			for _, p := range c.props {
				common = append(common, "-p", p)
			}
			refOut := run(t, reference, append([]string{"client", "-db", "site.ycsb.BasicDB", "-load"}, common...)...)
			ourOut := run(t, ours, append([]string{"load", "basic"}, common...)...)
			refKeys, refRecs := inserts(t, refOut)
			ourKeys, ourRecs := inserts(t, ourOut)
			if len(refKeys) == 0 {
				t.Fatalf("no INSERT lines from the reference:\n%.2000s", refOut)
			}
			if strings.Join(refKeys, " ") != strings.Join(ourKeys, " ") {
				t.Fatalf("keys differ:\nreference %v\nours      %v", head(refKeys), head(ourKeys))
			}
			for _, k := range refKeys {
				if fmt.Sprint(refRecs[k]) != fmt.Sprint(ourRecs[k]) {
					t.Fatalf("record %s differs:\nreference %v\nours      %v", k, refRecs[k], ourRecs[k])
				}
			}
		})
	}
}

func head(s []string) []string {
	if len(s) > 5 {
		return s[:5]
	}
	return s
}

var reportLine = regexp.MustCompile(`^\[([^\]]+)\], ([^,]+), (.+)$`)

// reportShape returns the report's lines as "[METRIC], Name, kind" with the
// kind of the value (integer or Java double) in place of the number, leaving
// out the garbage-collector lines, which name the JVM's collectors in the
// reference.
func reportShape(out string) []string {
	var shape []string
	for _, l := range strings.Split(out, "\n") {
		m := reportLine.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[1], "TOTAL_GC") {
			continue
		}
		kind := "int"
		if strings.ContainsAny(m[3], ".EN") {
			kind = "double"
		}
		shape = append(shape, fmt.Sprintf("[%s], %s, %s", m[1], m[2], kind))
	}
	return shape
}

// TestSameReportLines runs the same workloads with BasicDB on both tools: the
// report has the same sections, in the same order, with the same lines and
// value kinds (numbers differ, of course).
func TestSameReportLines(t *testing.T) {
	ours, reference := tools(t)
	cases := []struct {
		name  string
		props []string
	}{
		{"load", []string{"-load"}},
		{"workloada", []string{"-t", "-p", "operationcount=3000"}},
		{"workloadb", []string{"-t", "-P", workload("workloadb"), "-p", "operationcount=3000"}},
		{"workloadf", []string{"-t", "-P", workload("workloadf"), "-p", "operationcount=3000"}},
		{"percentiles", []string{"-t", "-p", "operationcount=1000", "-p", "hdrhistogram.percentiles=1,50,99.9,100"}},
		{"intended", []string{"-t", "-p", "operationcount=1000", "-target", "2000", "-p", "measurement.interval=both"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // two processes of their own, their stdout compared
			// Both at their defaults: 0.17.0's hdrhistogram.percentiles=95,99.
			args := []string{"-P", workload("workloada"), "-p", "basicdb.verbose=false"}
			args = append(args, c.props...)
			phase := "run"
			var ourArgs []string
			for _, a := range args {
				switch a {
				case "-load":
					phase = "load"
				case "-t":
				default:
					ourArgs = append(ourArgs, a)
				}
			}
			ref := reportShape(run(t, reference, append([]string{"client", "-db", "site.ycsb.BasicDB"}, args...)...))
			our := reportShape(run(t, ours, append([]string{phase, "basic"}, ourArgs...)...))
			// Our own rows: [SCHEDULE] (with -target) and [CLIENT] after the
			// reference's lines, and the successful-operations throughput
			// after its [OVERALL] rows.
			our = without(our, "[SCHEDULE]")
			our = without(our, "[CLIENT]")
			our = without(our, "[OVERALL], SuccessfulThroughput(ops/sec)")
			if len(ref) < 8 {
				t.Fatalf("reference report too short: %v", ref)
			}
			if strings.Join(ref, "\n") != strings.Join(our, "\n") {
				t.Fatalf("report lines differ:\nreference:\n%s\n\nours:\n%s", strings.Join(ref, "\n"), strings.Join(our, "\n"))
			}
		})
	}
}

func without(lines []string, prefix string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

var opLine = regexp.MustCompile(`^(READ|UPDATE|INSERT|SCAN|DELETE) (\S+) (\S+)`)

// ops lists "OP key" for each verbose operation line.
func ops(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if m := opLine.FindStringSubmatch(l); m != nil {
			lines = append(lines, m[1]+" "+m[3])
		}
	}
	return lines
}

// TestSameRunPhaseKeys checks the run phase's key choice where it is
// deterministic: the sequential distribution and run-phase inserts, which
// start at recordcount.
func TestSameRunPhaseKeys(t *testing.T) {
	ours, reference := tools(t)
	cases := []struct {
		name  string
		props []string
	}{
		{"sequential reads", []string{"requestdistribution=sequential", "readproportion=1", "updateproportion=0", "recordcount=200", "operationcount=500"}},
		{"sequential scans", []string{"requestdistribution=sequential", "readproportion=0", "updateproportion=0", "scanproportion=1", "recordcount=50", "operationcount=100", "insertorder=ordered"}},
		{"run-phase inserts", []string{"readproportion=0", "updateproportion=0", "insertproportion=1", "recordcount=100", "operationcount=300", "dataintegrity=true"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // two processes of their own, their stdout compared
			common := []string{"-P", workload("workloada"), "-p", "basicdb.verbose=true"}
			for _, p := range c.props {
				common = append(common, "-p", p)
			}
			refOut := run(t, reference, append([]string{"client", "-db", "site.ycsb.BasicDB", "-t"}, common...)...)
			ourOut := run(t, ours, append([]string{"run", "basic"}, common...)...)
			ref, our := ops(refOut), ops(ourOut)
			if len(ref) < 100 {
				t.Fatalf("reference printed %d operations", len(ref))
			}
			if strings.Join(ref, "\n") != strings.Join(our, "\n") {
				t.Fatalf("operations differ:\nreference %v\nours      %v", head(ref), head(our))
			}
			_, refRecs := inserts(t, refOut)
			_, ourRecs := inserts(t, ourOut)
			if fmt.Sprint(refRecs) != fmt.Sprint(ourRecs) {
				t.Fatalf("inserted values differ")
			}
		})
	}
}
