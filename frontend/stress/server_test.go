package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

const testNode = "127.0.0.1"

// cluster connects to the shared node, or skips (fails in CI).
func cluster(t *testing.T) *gocql.Session {
	t.Helper()
	ycsbtest.SkipServerTests(t)
	cc := gocql.NewCluster(testNode)
	cc.Events.DisableSchemaEvents = true // as cqlcluster's: gocql's race at a session's start
	cc.ConnectTimeout = 5 * time.Second
	cc.Timeout = 30 * time.Second
	s, err := cc.CreateSession()
	ycsbtest.NeedServer(t, "Cassandra on "+testNode+":9042 (scripts/cassandra.sh start)", err)
	t.Cleanup(s.Close)
	return s
}

// keyspace is a keyspace of the test's own, dropped at the start.
func keyspace(t *testing.T, s *gocql.Session, name string) string {
	ks := "stress_it_" + name
	if err := s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
		t.Fatal(err)
	}
	return ks
}

// runLine runs a command line and returns stdout.
func runLine(t *testing.T, line ...string) string {
	t.Helper()
	return runLineOnStart(t, nil, line...)
}

// runLineOnStart is runLine calling onStart as each measured run starts.
func runLineOnStart(t *testing.T, onStart func(), line ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Main(context.Background(), line, Env{Stdout: &out, Stderr: &errOut, Version: "test", onStart: onStart})
	if err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(line, " "), err, out.String(), errOut.String())
	}
	if !strings.HasSuffix(out.String(), "\nEND\n") {
		t.Fatalf("%s: no END:\n%s", strings.Join(line, " "), out.String())
	}
	return out.String()
}

var resultsLine = regexp.MustCompile(`(?m)^Total (partitions|errors) +: +([0-9,]+) \[(.*)\]$`)

// results reads "Total partitions" and "Total errors" of the Results block.
func results(t *testing.T, out string) (partitions, errors int64, breakdown string) {
	t.Helper()
	ms := resultsLine.FindAllStringSubmatch(out, -1)
	if len(ms) != 2 {
		t.Fatalf("no Results block:\n%s", out)
	}
	n := func(s string) int64 {
		v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	return n(ms[0][2]), n(ms[1][2]), ms[0][3]
}

func count(t *testing.T, s *gocql.Session, table string) int64 {
	t.Helper()
	var n int64
	if err := s.Query("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPredefinedCommands runs the command lines, scaled down,
// and checks the Results against the table.
func TestPredefinedCommands(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "commands")
	common := []string{"-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
	line := func(args ...string) []string { return append(args, common...) }

	out := runLine(t, line("write", "n=2000", "cl=ONE", "-rate", "threads=8", "-col", "size=fixed(64)", "n=fixed(4)")...)
	pk, errs, _ := results(t, out)
	if pk != 2000 || errs != 0 {
		t.Fatalf("write: %d partitions, %d errors\n%s", pk, errs, out)
	}
	if n := count(t, s, ks+".standard1"); n != 2000 {
		t.Errorf("write n=2000: %d rows in the table", n)
	}

	out = runLine(t, line("read", "n=2000", "no-warmup", "cl=ONE", "-rate", "threads=8", "-col", "size=fixed(64)", "n=fixed(4)")...)
	if pk, errs, _ = results(t, out); pk != 2000 || errs != 0 {
		t.Fatalf("read of what write wrote: %d partitions, %d errors\n%s", pk, errs, out)
	}

	out = runLine(t, line("mixed", "ratio(write=1,read=3)", "n=2000", "cl=ONE", "-pop", "dist=UNIFORM(1..2000)", "-rate", "threads=4", "-col", "size=fixed(64)", "n=fixed(4)")...)
	pk, errs, br := results(t, out)
	if pk != 2000 || errs != 0 || !strings.Contains(br, "READ: ") || !strings.Contains(br, "WRITE: ") {
		t.Fatalf("mixed: %d partitions, %d errors [%s]\n%s", pk, errs, br, out)
	}
	if !strings.Contains(out, "\nREAD,") || !strings.Contains(out, "\nWRITE,") {
		t.Errorf("mixed: no per-op interval rows\n%s", out)
	}
	if n := count(t, s, ks+".standard1"); n != 2000 {
		t.Errorf("after mixed: %d rows in the table, want 2000", n)
	}

	out = runLine(t, line("counter_write", "n=500", "-rate", "threads=8")...)
	if pk, errs, _ = results(t, out); pk != 500 || errs != 0 {
		t.Fatalf("counter_write: %d partitions, %d errors\n%s", pk, errs, out)
	}
	if n := count(t, s, ks+".counter1"); n != 500 {
		t.Errorf("counter_write n=500: %d rows in counter1", n)
	}
	out = runLine(t, line("counter_read", "n=500", "-rate", "threads=8")...)
	if pk, errs, _ = results(t, out); pk != 500 || errs != 0 {
		t.Fatalf("counter_read: %d partitions, %d errors\n%s", pk, errs, out)
	}
}

// TestReadValidates: a read of data that are not the original's is an
// error (counted with -errors ignore; TestErrorsStopTheRun has the default).
func TestReadValidates(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "validate")
	common := []string{"-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
	runLine(t, append([]string{"write", "n=50", "no-warmup"}, common...)...)
	if err := s.Query(`UPDATE ` + ks + `.standard1 SET "C0" = 0x00 WHERE key = 0x` + keyHex(1)).Exec(); err != nil {
		t.Fatal(err)
	}
	out := runLine(t, append([]string{"read", "n=50", "no-warmup", "-pop", "seq=1..50", "-errors", "ignore"}, common...)...)
	if _, errs, _ := results(t, out); errs != 1 {
		t.Errorf("read after changing one value: %d errors, want 1\n%s", errs, out)
	}
	out, _, _ = runFails(t, append([]string{"read", "n=50", "no-warmup", "-pop", "seq=1..50"}, common...)...)
	want := "]: Data returned was not validated: row 0, column 0 (C0): expected 34 bytes, got 1 bytes"
	if !strings.HasSuffix(failureLine(t, out), want) {
		t.Errorf("read after changing one value: want the end %q\n%s", want, out)
	}
}

func keyHex(idx int64) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	for _, c := range dataKey(idx) {
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// TestInterop: our read validates what the real cassandra-stress wrote,
// and its read validates ours.
func TestInterop(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	home, _ := os.UserHomeDir()
	tool := filepath.Join(home, ".cache/ycsb-reference/cassandra-stress/bin/cassandra-stress")
	if _, err := os.Stat(tool); err != nil {
		t.Skip("the real cassandra-stress (scylladb/cassandra-stress) is not built in ~/.cache/ycsb-reference/cassandra-stress")
	}
	for _, dir := range []string{"theirs-to-ours", "ours-to-theirs"} {
		ks := keyspace(t, s, strings.ReplaceAll(dir, "-", "_"))
		args := func(cmd string) []string {
			return []string{cmd, "n=1000", "no-warmup", "cl=ONE", "-rate", "threads=4", "-col", "size=fixed(48)", "n=fixed(3)",
				"-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
		}
		real := func(cmd string) string {
			out, err := realRun(t, tool, args(cmd)...)
			if err != nil {
				t.Fatalf("cassandra-stress %s: %v\n%s", cmd, err, out)
			}
			return out
		}
		if dir == "theirs-to-ours" {
			real("write")
			if _, errs, _ := results(t, runLine(t, args("read")...)); errs != 0 {
				t.Errorf("our read of the real tool's write: %d errors", errs)
			}
		} else {
			runLine(t, args("write")...)
			out := real("read")
			if _, errs, _ := results(t, out); errs != 0 || !strings.Contains(out, "\nEND") {
				t.Errorf("the real tool's read of our write: %d errors\n%s", errs, out)
			}
		}
	}
}

func dataKey(idx int64) []byte { return data.AppendKey(nil, idx, data.DefaultKeySize) }

// TestHdrFileRun: -log hdrfile= under a fixed rate logs WRITE-st, -rt
// and -wt intervals that add up to the run's operations.
func TestHdrFileRun(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "hdrfile")
	path := filepath.Join(t.TempDir(), "w.hdr")
	runLine(t, "write", "n=600", "no-warmup", "-rate", "threads=4", "fixed=400/s", "-schema", "replication(factor=1)", "keyspace="+ks,
		"-node", testNode, "-log", "no-settings", "hdrfile="+path, "interval=1s")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := hdrhistogram.NewHistogramLogReader(f)
	counts := map[string]int64{}
	for {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		counts[h.Tag()] += h.TotalCount()
	}
	for _, tag := range []string{"WRITE-st", "WRITE-rt", "WRITE-wt"} {
		if counts[tag] != 600 {
			t.Errorf("%s: %d values, want 600 (all: %v)", tag, counts[tag], counts)
		}
	}
}

// TestJSONNames: the -log json= report names the operations as the
// original does (WRITE, COUNTER_WRITE, COUNTER_READ), not by YCSB's slots.
func TestJSONNames(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "jsonnames")
	dir := t.TempDir()
	for _, c := range []struct {
		cmd, want string
	}{{"write", "WRITE"}, {"counter_write", "COUNTER_WRITE"}, {"counter_read", "COUNTER_READ"}} {
		path := filepath.Join(dir, c.cmd+".json")
		runLine(t, c.cmd, "n=100", "no-warmup", "-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace="+ks,
			"-node", testNode, "-log", "no-settings", "json="+path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep jsonreport.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range rep.Measurements {
			if m.Name != "CLEANUP" { // the run's session close
				names = append(names, m.Name)
			}
		}
		if len(names) != 1 || names[0] != c.want {
			t.Errorf("%s: measurements %v, want [%s]", c.cmd, names, c.want)
		}
	}
}

// TestGraph: two runs into one -graph file give a page with both
// revisions, the second added to the first.
func TestGraph(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "graph")
	page := filepath.Join(t.TempDir(), "g.html")
	for _, rev := range []string{"rev-a", "rev-b"} {
		runLine(t, "write", "n=300", "no-warmup", "-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace="+ks,
			"-node", testNode, "-log", "no-settings", "-graph", "file="+page, "revision="+rev, "title=two-writes")
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	title, in, err := htmlreport.ReadInputs(b)
	if err != nil {
		t.Fatal(err)
	}
	if title != "two-writes" || len(in) != 2 || in[0].Name != "rev-a" || in[1].Name != "rev-b" {
		t.Fatalf("page %q with runs %v", title, in)
	}
	for _, r := range in {
		if r.Report.Operations != 300 || r.Report.Phase != "WRITE" {
			t.Errorf("%s: %d operations, phase %q; want 300, WRITE", r.Name, r.Report.Operations, r.Report.Phase)
		}
	}
	if !strings.Contains(string(b), `"name":"rev-b"`) {
		t.Error("the drawn data lack the second revision")
	}
}

// TestGraphWithRamp: under a thread ramp each thread count is a revision of
// the page, named as the original's StressGraph names it ("REV - N
// threads").
func TestGraphWithRamp(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "graphramp")
	page := filepath.Join(t.TempDir(), "g.html")
	runLine(t, "write", "n=300", "no-warmup", "-rate", "threads>=1", "threads<=2", "-schema", "replication(factor=1)", "keyspace="+ks,
		"-node", testNode, "-log", "no-settings", "-graph", "file="+page, "revision=ramp", "title=ramped")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	title, in, err := htmlreport.ReadInputs(b)
	if err != nil {
		t.Fatal(err)
	}
	if title != "ramped" || len(in) != 2 || in[0].Name != "ramp - 1 threads" || in[1].Name != "ramp - 2 threads" {
		names := []string{}
		for _, r := range in {
			names = append(names, r.Name)
		}
		t.Fatalf("page %q with runs %q; want ramp - 1 threads, ramp - 2 threads", title, names)
	}
	for _, r := range in {
		if r.Report.Operations != 300 || r.Report.Phase != "WRITE" {
			t.Errorf("%s: %d operations, phase %q; want 300, WRITE", r.Name, r.Report.Operations, r.Report.Phase)
		}
	}
}
