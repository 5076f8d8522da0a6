package stress

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/report/htmlreport"
	"github.com/goycsb/ycsb/report/jsonreport"
	yresults "github.com/goycsb/ycsb/report/merge"
)

// profileIn writes the testdata profile name with its keyspace renamed to ks.
func profileIn(t *testing.T, name, ks string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(strings.ReplaceAll(string(b), "stresscql", ks)), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// breakdown is the per-op bracket of a Results line, as numbers.
func breakdown(t *testing.T, out, label string) map[string]int64 {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, label) {
			continue
		}
		i := strings.IndexByte(l, '[')
		m := map[string]int64{}
		for _, kv := range strings.Split(strings.Trim(l[i:], "[]"), ", ") {
			k, v, _ := strings.Cut(kv, ": ")
			n, err := strconv.ParseInt(strings.ReplaceAll(strings.Fields(v)[0], ",", ""), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			m[k] = n
		}
		return m
	}
	t.Fatalf("no %q line in\n%s", label, out)
	return nil
}

// userProfileRun inserts partitions 1..50, then runs ops over them, and checks
// every query found rows and nothing failed.
func userProfileRun(t *testing.T, file, ks string, ops string, queries ...string) {
	s := cluster(t)
	keyspace(t, s, strings.TrimPrefix(ks, "stress_it_"))
	f := profileIn(t, file, ks)
	runLine(t, "user", "profile="+f, "ops(insert=1)", "n=200", "-pop", "seq=1..50", "-rate", "threads=4", "-node", testNode, "-log", "no-settings")
	out := runLine(t, "user", "profile="+f, ops, "n=300", "-pop", "dist=uniform(1..50)", "-rate", "threads=4", "-node", testNode, "-log", "no-settings")
	parts := breakdown(t, out, "Total partitions")
	errs := breakdown(t, out, "Total errors")
	for _, q := range queries {
		if parts[q] == 0 {
			t.Errorf("%s read no rows:\n%s", q, out)
		}
	}
	for op, n := range errs {
		if n != 0 {
			t.Errorf("%s: %d errors", op, n)
		}
	}
}

func TestUserBlogpost(t *testing.T) {
	t.Parallel()
	userProfileRun(t, "blogpost.yaml", "stress_it_user_blogpost", "ops(insert=1,singlepost=2,timeline=1)", "singlepost", "timeline")
}

func TestUserAllTypes(t *testing.T) {
	t.Parallel()
	userProfileRun(t, "types.yaml", "stress_it_user_types", "ops(insert=1,bykey=1,byrow=1,multi=1)", "bykey", "byrow", "multi")
}

// TestUserWarmupAndRamp: the warm-up runs each op of ops(...) alone on a
// quarter of n, and a thread ramp runs the mix at each count, then the
// summary table, as the original's StressAction does for user.
func TestUserWarmupAndRamp(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := "ks_userprof_ramp"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "types.yaml", ks)
	out := runLine(t, "user", "profile="+f, "ops(insert=1,bykey=1)", "n=200", "-pop", "seq=1..50",
		"-rate", "threads>=1", "threads<=2", "-node", testNode, "-log", "no-settings")
	for _, want := range []string{
		"Warming up insert with 50 iterations...\nWarming up bykey with 50 iterations...\n",
		"Thread count was not specified\n",
		"\nRunning with 1 threadCount\nRunning [insert, bykey] with 1 threads for 200 iteration\n",
		"\nRunning with 2 threadCount\nRunning [insert, bykey] with 2 threads for 200 iteration\n",
		"\n2 threadCount, bykey,",
		"\n2 threadCount, total,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Count(out, "\nResults:\n") != 2 {
		t.Errorf("want a Results block per thread count:\n%s", out)
	}
}

// TestUserPermits: n= counts partitions, as the original's work manager
// does: an insert of several partitions takes as many.
func TestUserPermits(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := "ks_userprof_permits"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "types.yaml", ks)
	out := runLine(t, "user", "profile="+f, "ops(insert=1)", "n=300", "no-warmup", "-insert", "partitions=fixed(3)",
		"-pop", "seq=1..1000", "-rate", "threads=3", "-node", testNode, "-log", "no-settings")
	if got := breakdown(t, out, "Total partitions")["insert"]; got != 300 {
		t.Errorf("insert wrote %d partitions, want 300:\n%s", got, out)
	}
	if !regexp.MustCompile(`\ninsert, +100,`).MatchString(out) {
		t.Errorf("want 100 inserts of 3 partitions:\n%s", out)
	}
}

// TestUserPrepared: a query whose marker is bound to something else than
// a column is refused before any run, the error naming the profile and
// the query (workload/cassandrastress's TestUserPrepared: the markers'
// columns).
func TestUserPrepared(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := "ks_userprof_prepared"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "blogpost.yaml", ks)
	var err error
	// through the command: the error names the profile and the query
	b, _ := os.ReadFile(f)
	bad := strings.Replace(string(b), "where domain = ? LIMIT 1", "where domain = ? LIMIT ?", 1)
	if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	err = Main(context.Background(), []string{"user", "profile=" + f, "ops(singlepost=1)", "n=10", "-node", testNode}, Env{Stdout: &out, Stderr: &errOut})
	var bi *BadInput
	if !errors.As(err, &bi) || !strings.Contains(err.Error(), "queries.singlepost: a ? is bound to [limit]") {
		t.Errorf("got %v", err)
	}
}

// TestUserOutputs: -log hdrfile=, -log json= and -graph of blog-post runs
// under a fixed rate. The log tags each op's intervals <op>-st, -rt and
// -wt with as many values as the op's operations and partitions in the
// output; the report names the ops so that ycsb merge and compare read it;
// the page draws every op and adds the second run's revision to the first.
func TestUserOutputs(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "userout")
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "blogpost.yaml", ks)
	runLine(t, "user", "profile="+f, "ops(insert=1)", "n=200", "no-warmup", "-pop", "seq=1..50", "-rate", "threads=4", "-node", testNode, "-log", "no-settings")
	dir := t.TempDir()
	page := filepath.Join(dir, "blog.html")
	ops := []string{"insert", "singlepost", "timeline"}
	var reps []*jsonreport.Report
	for _, rev := range []string{"rev-a", "rev-b"} {
		hdr, js := filepath.Join(dir, rev+".hdr"), filepath.Join(dir, rev+".json")
		if rev == "rev-b" {
			js = "-" // the report on stdout, as a block
		}
		out := runLine(t, "user", "profile="+f, "ops(insert=1,singlepost=2,timeline=1)", "n=300", "no-warmup", "-pop", "dist=uniform(1..50)",
			"-rate", "threads=4", "fixed=600/s", "-node", testNode, "-log", "no-settings", "interval=1s", "hdrfile="+hdr, "json="+js,
			"-graph", "file="+page, "revision="+rev, "title=blog")
		parts := breakdown(t, out, "Total partitions")
		if _, err := yresults.ReadHdrLog(context.Background(), hdr); err != nil {
			t.Fatalf("%s: ReadHdrLog: %v", rev, err)
		}
		counts := hdrCounts(t, hdr)
		var rep *jsonreport.Report
		var err error
		if js == "-" {
			named, err := yresults.ReadReports(rev+".log", []byte(out))
			if err != nil || len(named) != 1 {
				t.Fatalf("%s: %d reports in stdout: %v\n%s", rev, len(named), err, out)
			}
			rep = named[0].Report
		} else if rep, err = yresults.ReadReport(js); err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, op := range ops {
			// the op's last interval line: its operations so far
			m := regexp.MustCompile(`(?m)^`+op+`, +(\d+),`).FindAllStringSubmatch(out, -1)
			if m == nil {
				t.Fatalf("%s: no %s line:\n%s", rev, op, out)
			}
			n, _ := strconv.ParseInt(m[len(m)-1][1], 10, 64)
			sum += n
			if n == 0 || parts[op] != n {
				// The whole output, so that a mismatch seen only under load
				// (two operations counted without their partitions and
				// waits, twice in CI-like runs) can be read.
				t.Errorf("%s: %s: %d operations, %d partitions (want as many, not 0):\n%s", rev, op, n, parts[op], out)
			}
			for _, tag := range []string{op + "-st", op + "-rt", op + "-wt"} {
				if counts[tag] != n {
					t.Errorf("%s: %s: %d values, want %d (all: %v)", rev, tag, counts[tag], n, counts)
				}
			}
			for _, name := range []string{op, "Intended-" + op} {
				if jm := rep.Find(name); jm == nil || jm.Count != n {
					t.Errorf("%s: report measurement %s: %+v, want %d values", rev, name, jm, n)
				}
			}
		}
		if sum != 300 || len(counts) != 3*len(ops) {
			t.Errorf("%s: %d operations, want 300; tags %v", rev, sum, counts)
		}
		for _, m := range rep.Measurements {
			if op := strings.TrimPrefix(m.Name, "Intended-"); !slices.Contains(ops, op) && op != "CLEANUP" {
				t.Errorf("%s: report measurement %s", rev, m.Name)
			}
		}
		reps = append(reps, rep)
	}
	// ycsb merge: two clients at the same time
	var clients []string
	var creps []*jsonreport.Report
	errs := make([]error, 2)
	var wg sync.WaitGroup
	// Each client's run waits at its start for the other's, up to a
	// bound, so that the two runs overlap however long a loaded machine
	// takes to connect one of them (half a second of work each).
	var starting sync.WaitGroup
	starting.Add(len(errs))
	bothStarted := make(chan struct{})
	go func() { starting.Wait(); close(bothStarted) }()
	onStart := func() {
		starting.Done()
		select {
		case <-bothStarted:
		case <-time.After(time.Minute):
		}
	}
	for i := range errs {
		path := filepath.Join(dir, "client"+strconv.Itoa(i)+".json")
		clients = append(clients, path)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errOut strings.Builder
			errs[i] = Main(context.Background(), []string{"user", "profile=" + f, "ops(insert=1,singlepost=2,timeline=1)", "n=150", "no-warmup",
				"-pop", "dist=uniform(1..50)", "-rate", "threads=2", "fixed=300/s", "-node", testNode, "-log", "no-settings", "json=" + path},
				Env{Stdout: &out, Stderr: &errOut, Version: "test", onStart: onStart})
		}()
	}
	wg.Wait()
	for i, path := range clients {
		if errs[i] != nil {
			t.Fatalf("client %d: %v", i, errs[i])
		}
		r, err := yresults.ReadReport(path)
		if err != nil {
			t.Fatal(err)
		}
		creps = append(creps, r)
	}
	if err := yresults.Distinct(clients, creps); err != nil {
		t.Fatal(err)
	}
	merged, err := yresults.Merge(clients, creps)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, op := range ops {
		m := merged.Find(op)
		if m == nil || m.Count == 0 || m.Count != creps[0].Find(op).Count+creps[1].Find(op).Count {
			t.Errorf("merged %s: %+v", op, m)
			continue
		}
		total += m.Count
	}
	if total != 300 || merged.Operations != 300 {
		t.Errorf("merged: %d operations, %d by op; want 300", merged.Operations, total)
	}
	// ycsb compare
	var cmp strings.Builder
	if err := yresults.Compare(&cmp, "a", "b", reps[0], reps[1]); err != nil || !strings.Contains(cmp.String(), "[timeline] Operations") {
		t.Errorf("compare: %v\n%s", err, cmp.String())
	}
	// -graph: both revisions, every op drawn
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	title, in, err := htmlreport.ReadInputs(b)
	if err != nil {
		t.Fatal(err)
	}
	if title != "blog" || len(in) != 2 || in[0].Name != "rev-a" || in[1].Name != "rev-b" {
		t.Fatalf("page %q with runs %v", title, in)
	}
	for _, r := range in {
		if r.Report.Operations != 300 || r.Report.Phase != "USER" {
			t.Errorf("%s: %d operations, phase %q; want 300, USER", r.Name, r.Report.Operations, r.Report.Phase)
		}
	}
	d, err := htmlreport.Build(title, in, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if !slices.Contains(d.Operations, op) {
			t.Errorf("the page draws %v, not %s", d.Operations, op)
		}
	}
	if !strings.Contains(string(b), `"name":"rev-b"`) {
		t.Error("the drawn data lack the second revision")
	}
}

// hdrCounts are the values of an HDR log by tag.
func hdrCounts(t *testing.T, path string) map[string]int64 {
	t.Helper()
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
			return counts
		}
		counts[h.Tag()] += h.TotalCount()
	}
}

// TestUserInteropHdrTags: the real cassandra-stress and this one, given the
// same user command line with -log hdrfile= under a fixed rate, tag the
// log's intervals alike: <op>-st, -rt and -wt by the op's name, in the
// names' order.
func TestUserInteropHdrTags(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	tool := realTool(t)
	s := cluster(t)
	ks := keyspace(t, s, "userout_real")
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "blogpost.yaml", ks)
	dir := t.TempDir()
	args := func(hdr string) []string {
		return []string{"user", "profile=" + f, "ops(insert=1,singlepost=2,timeline=1)", "n=200", "no-warmup", "-pop", "seq=1..50",
			"-rate", "threads=2", "fixed=200/s", "-node", testNode, "-log", "no-settings", "interval=1s", "hdrfile=" + hdr}
	}
	theirs, ours := filepath.Join(dir, "real.hdr"), filepath.Join(dir, "ours.hdr")
	runReal(t, tool, args(theirs)...)
	runLine(t, args(ours)...)
	// Each interval's tags, in order: an operation with no sample in an
	// interval may be left out of it (the real tool's first interval on a
	// busy machine has had no insert), so each interval's order must be
	// the names' order with some left out, and all of them must appear.
	want := []string{"insert-st", "insert-rt", "insert-wt", "singlepost-st", "singlepost-rt", "singlepost-wt", "timeline-st", "timeline-rt", "timeline-wt"}
	check := func(who, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var interval, order []string
		flush := func() {
			if !inOrder(order, want) {
				t.Errorf("%s: interval %s has its tags in the order %v, want the order of %v", who, interval, order, want)
			}
			order = nil
		}
		for _, m := range regexp.MustCompile(`(?m)^Tag=([^,]+),([^,]+),`).FindAllStringSubmatch(string(b), -1) {
			if len(interval) == 0 || interval[0] != m[2] {
				flush()
				interval = []string{m[2]}
			}
			order = append(order, m[1])
			seen[m[1]] = true
		}
		flush()
		for _, w := range want {
			if !seen[w] {
				t.Errorf("%s: no tag %s", who, w)
			}
		}
		if len(seen) != len(want) {
			t.Errorf("%s: tags %v, want %v", who, seen, want)
		}
	}
	check("the real tool", theirs)
	check("ours", ours)
}

// inOrder says whether got is want with some names left out.
func inOrder(got, want []string) bool {
	j := 0
	for _, g := range got {
		for j < len(want) && want[j] != g {
			j++
		}
		if j == len(want) {
			return false
		}
		j++
	}
	return true
}

// TestUserInsertOver65535Rows: an insert of more rows than a batch holds
// is sent as several batches of at most 65535 statements, as the
// original's SchemaInsert does, not refused: every row is written.
func TestUserInsertOver65535Rows(t *testing.T) {
	// Not parallel: the package's other tests wait while the node applies
	// 70,000 rows (a loaded CI machine took more than the node's write
	// timeout, and each retry added a batch).
	s := cluster(t)
	ks := keyspace(t, s, "bigins")
	f := filepath.Join(t.TempDir(), "big.yaml")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	profile := "keyspace: " + ks + "\nkeyspace_definition: |\n  CREATE KEYSPACE " + ks +
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\ntable: big\ntable_definition: |\n  CREATE TABLE big (k bigint, c int, PRIMARY KEY (k, c))\n" +
		"columnspec:\n  - {name: c, cluster: fixed(70000)}\ninsert:\n  partitions: fixed(1)\n  select: fixed(1)/1\n  batchtype: UNLOGGED\nqueries: {}\n"
	if err := os.WriteFile(f, []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runLine(t, "user", "profile="+f, "ops(insert=1)", "n=1", "no-warmup", "-pop", "seq=1..1", "-rate", "threads=1", "-node", testNode, "-log", "no-settings")
	if rows := breakdown(t, out, "Total errors"); rows["insert"] != 0 {
		t.Fatalf("insert failed:\n%s", out)
	}
	var n int
	if err := s.Query("SELECT count(*) FROM " + ks + ".big").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 70000 {
		t.Errorf("%d rows written, want 70000", n)
	}
}
