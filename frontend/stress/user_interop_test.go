package stress

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// realTool is the original cassandra-stress built by the shared
// cassandra-stress.sh (scylladb/cassandra-stress 9f184f2a15), or CSTRESS.
func realTool(t *testing.T) string {
	t.Helper()
	tool := os.Getenv("CSTRESS")
	if tool == "" {
		home, _ := os.UserHomeDir()
		tool = filepath.Join(home, ".cache/ycsb-reference/cassandra-stress/bin/cassandra-stress")
	}
	if _, err := os.Stat(tool); err != nil {
		t.Skip("the real cassandra-stress is not built (see scripts/compare-stress.sh); set CSTRESS")
	}
	return tool
}

func runReal(t *testing.T, tool string, args ...string) string {
	t.Helper()
	out, err := realRun(t, tool, args...)
	if err != nil || !strings.Contains(out, "\nEND") {
		t.Fatalf("cassandra-stress %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// realJVMOptions make the real tool's JVM cheaper for the tests' short
// runs: its client compiler only and the serial collector take about half
// the CPU of the default JIT tiers and G1 for a run of a few hundred
// operations (the runs are all short; what they print does not change).
const realJVMOptions = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

// realMetadataRace is how the real tool fails when its driver has not yet
// seen the table it just created: it sleeps a second "for propagation" and
// then reads the driver's schema metadata, which lags when other tests
// change the node's schema at the same time (StressProfile.java's
// maybeLoadSchemaInfo). Nothing has run then: the run is started again.
const realMetadataRace = `because the return value of "com.datastax.driver.core.Metadata.getKeyspace(String)" is null`

// realRun runs the real tool, stdout and stderr together, under
// realJVMOptions; the JVM's line naming them is left out of the output. A
// run that hit realMetadataRace is run again, up to twice, and t logs it.
func realRun(t testing.TB, tool string, args ...string) (string, error) {
	for try := 0; ; try++ {
		if try > 0 {
			t.Logf("cassandra-stress %s: run again after its schema-metadata race (try %d)", strings.Join(args, " "), try+1)
		}
		var out bytes.Buffer
		c := exec.Command(tool, args...)
		c.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS="+realJVMOptions)
		c.Stdout, c.Stderr = &out, &out
		err := c.Run()
		o := strings.ReplaceAll(out.String(), "Picked up JAVA_TOOL_OPTIONS: "+realJVMOptions+"\n", "")
		if err == nil || try == 2 || !strings.Contains(o, realMetadataRace) {
			return o, err
		}
	}
}

// interopProfiles: the profiles both tools write and read, the insert
// overrides that make a write deterministic (every row of each partition,
// one partition per insert, so -pop seq=1..parts writes the same rows
// whichever tool runs it), and the queries read back.
var interopProfiles = []struct {
	name, file, table string
	parts             int
	queries           []string
	visits            int // -insert visits=fixed(N) revisit=fixed(1): each partition over N inserts in turn
	pop               string
}{
	{"blog", "blogpost.yaml", "blogposts", 3, []string{"singlepost", "timeline"}, 0, ""},
	{"types", "types.yaml", "alltypes", 20, []string{"bykey", "byrow", "multi"}, 0, ""},
	{"clustered", "clustered.yaml", "clustered", 10, []string{"first", "from"}, 0, ""},
	{"visits", "blogpost.yaml", "blogposts", 2, []string{"singlepost", "timeline"}, 7, ""},
	// sorted levels with a visit limit: which rows each insert writes
	// depends on the order
	{"sorted", "sorted.yaml", "sorted", 12, []string{"first"}, 3, "contents=sorted"},
}

func interopWrite(parts int, f string) []string { return interopWriteVisits(parts, f, 0, "") }

func interopWriteVisits(parts int, f string, visits int, pop string) []string {
	seq := []string{"seq=1.." + strconv.Itoa(parts)}
	if pop != "" {
		seq = append(seq, pop)
	}
	in := []string{"partitions=fixed(1)", "select-ratio=fixed(1)/1"}
	n := parts
	if visits > 0 {
		in = append(in, "visits=fixed("+strconv.Itoa(visits)+")", "revisit=fixed(1)")
		n = parts * visits
	}
	return append(append([]string{"user", "profile=" + f, "ops(insert=1)", "n=" + strconv.Itoa(n), "no-warmup", "cl=ONE",
		"-pop"}, append(append(seq, "-insert"), in...)...),
		"-rate", "threads=1", "-node", testNode, "-log", "no-settings")
}

func interopRead(parts int, f string, queries []string) []string {
	var ops []string
	for _, q := range queries {
		ops = append(ops, q+"=1")
	}
	// clustering=fixed(1): each draw of an op runs it once, so that in 60
	// operations every query is drawn (the default gaussian(1..10) runs
	// each draw up to 10 times, and a query may go undrawn).
	return []string{"user", "profile=" + f, "ops(" + strings.Join(ops, ",") + ")", "n=60", "clustering=fixed(1)", "no-warmup", "cl=ONE",
		"-pop", "dist=uniform(1.." + strconv.Itoa(parts) + ")", "-rate", "threads=2", "-node", testNode, "-log", "no-settings"}
}

// checkReads: every query read rows, and nothing failed.
func checkReads(t *testing.T, who, out string, queries []string) {
	t.Helper()
	rows := breakdown(t, out, "Total partitions")
	for _, q := range queries {
		if rows[q] == 0 {
			t.Errorf("%s: %s read nothing:\n%s", who, q, out)
		}
	}
	for op, n := range breakdown(t, out, "Total errors") {
		if n != 0 {
			t.Errorf("%s: %s: %d errors\n%s", who, op, n, out)
		}
	}
}

func dropKeyspace(t *testing.T, s *gocql.Session, ks string) {
	if err := s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
		t.Fatal(err)
	}
}

// TestUserInterop: the real cassandra-stress and ours write the same
// profile with the same population, each into its own keyspace; the two
// tables hold the same rows, value for value, and each tool's queries read
// what the other wrote.
func TestUserInterop(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	tool := realTool(t)
	for _, p := range interopProfiles {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel() // keyspaces of its own
			theirs, ours := "ks_userprof_theirs_"+p.name, "ks_userprof_ours_"+p.name
			for _, ks := range []string{theirs, ours} {
				dropKeyspace(t, s, ks)
				t.Cleanup(func() { dropKeyspace(t, s, ks) })
			}
			ft, fo := profileIn(t, p.file, theirs), profileIn(t, p.file, ours)
			runReal(t, tool, interopWriteVisits(p.parts, ft, p.visits, p.pop)...)
			runLine(t, interopWriteVisits(p.parts, fo, p.visits, p.pop)...)
			a, b := dumpTable(t, s, theirs, p.table), dumpTable(t, s, ours, p.table)
			if len(a) == 0 {
				t.Fatal("the real tool wrote nothing")
			}
			t.Logf("%d rows theirs, %d ours", len(a), len(b))
			if d := ycsbtest.DiffLines(a, b); d != "" {
				t.Errorf("%d rows theirs, %d ours; first differences (- theirs, + ours):\n%s", len(a), len(b), d)
			}
			checkReads(t, "ours on theirs", runLine(t, interopRead(p.parts, ft, p.queries)...), p.queries)
			checkReads(t, "theirs on ours", runReal(t, tool, interopRead(p.parts, fo, p.queries)...), p.queries)
		})
	}
}

// TestUserInteropExamples: the same for the original's own example
// profiles (examples/*.yaml of scylladb/cassandra-stress), when
// CSTRESS_EXAMPLES names a folder holding them (scripts/compare-stress.sh
// profile extracts them from the fetched repository).
func TestUserInteropExamples(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("CSTRESS_EXAMPLES")
	if dir == "" {
		t.Skip("CSTRESS_EXAMPLES not set")
	}
	s := cluster(t)
	tool := realTool(t)
	for _, p := range []struct {
		name, file, table string
		parts             int
		queries           []string
	}{
		{"example", "cqlstress-example.yaml", "typestest", 4, []string{"simple1", "range1"}},
		{"insanity", "cqlstress-insanity-example.yaml", "insanitytest", 10, []string{"simple1"}},
		{"counter", "cqlstress-counter-example.yaml", "counttest", 10, []string{"simple1"}},
	} {
		t.Run(p.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, p.file))
			if err != nil {
				t.Fatal(err)
			}
			theirs, ours := "ks_userprof_theirs_ex_"+p.name, "ks_userprof_ours_ex_"+p.name
			var files []string
			for _, ks := range []string{theirs, ours} {
				dropKeyspace(t, s, ks)
				t.Cleanup(func() { dropKeyspace(t, s, ks) })
				f := filepath.Join(t.TempDir(), p.file)
				if err := os.WriteFile(f, []byte(strings.ReplaceAll(string(src), "stresscql", ks)), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			runReal(t, tool, interopWrite(p.parts, files[0])...)
			runLine(t, interopWrite(p.parts, files[1])...)
			a, b := dumpTable(t, s, theirs, p.table), dumpTable(t, s, ours, p.table)
			if len(a) == 0 {
				t.Fatal("the real tool wrote nothing")
			}
			t.Logf("%d rows theirs, %d ours", len(a), len(b))
			if d := ycsbtest.DiffLines(a, b); d != "" {
				t.Errorf("%d rows theirs, %d ours; first differences (- theirs, + ours):\n%s", len(a), len(b), d)
			}
			checkReads(t, "ours on theirs", runLine(t, interopRead(p.parts, files[0], p.queries)...), p.queries)
			checkReads(t, "theirs on ours", runReal(t, tool, interopRead(p.parts, files[1], p.queries)...), p.queries)
		})
	}
}

// TestUserInteropTokenRange: a token range query read page by page reads
// every row and partition once, as the original's does, in as many
// operations (pages).
func TestUserInteropTokenRange(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	tool := realTool(t)
	ks := "ks_userprof_trq"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "types.yaml", ks)
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	y := string(b) + "token_range_queries:\n  all:\n    columns: '*'\n    page_size: 7\n  vals: {columns: 'v_int, v_text', page_size: 1000}\n"
	y = strings.Replace(y, "v_frozen frozen<list<bigint>>,", "v_frozen frozen<list<bigint>>, v_text text,", 1)
	if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	runLine(t, interopWrite(40, f)...)
	var rows, parts int64
	if err := s.Query("SELECT count(*) FROM " + ks + ".alltypes").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	it := s.Query("SELECT DISTINCT k, k2 FROM " + ks + ".alltypes").Iter()
	parts = int64(it.NumRows())
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	read := []string{"user", "profile=" + f, "ops(all=1)", "n=1000", "no-warmup", "cl=ONE", "-rate", "threads=1", "-node", testNode, "-log", "no-settings"}
	total := regexp.MustCompile(`(?m)^total, +([0-9]+),`)
	for who, out := range map[string]string{"ours": runLine(t, read...), "theirs": runReal(t, tool, read...)} {
		if got := breakdown(t, out, "Total partitions")["all"]; got != parts {
			t.Errorf("%s: %d partitions, the table has %d\n%s", who, got, parts, out)
		}
		m := total.FindAllStringSubmatch(out, -1)
		if len(m) == 0 {
			t.Fatalf("%s: no total line\n%s", who, out)
		}
		if ops, _ := strconv.ParseInt(m[len(m)-1][1], 10, 64); ops != (rows+6)/7 {
			t.Errorf("%s: %d operations, want a page of 7 of %d rows each", who, ops, rows)
		}
	}
}

// Golden rows of the original: testdata/original_<name>.txt holds what the
// real cassandra-stress (scylladb/cassandra-stress 9f184f2a15, built by the
// shared cassandra-stress.sh, against Cassandra 5.0.8) wrote for the
// profile with
//
//	user profile=F ops(insert=1) n=P no-warmup cl=ONE -pop seq=1..P
//	  -insert partitions=fixed(1) select-ratio=fixed(1)/1 -rate threads=1
//
// that is every row of partitions 1..P (population indexes), read back
// from the node: a "columns" line (name:kind:position:type as
// system_schema.columns lists them), then the rows in the dump format of
// user_dump_test.go. USERPROF_CAPTURE=1 go test -run TestUserCaptureOriginal
// rewrites them (needs the node and the real tool).
var originalProfiles = []struct {
	name, file, table string
	parts             int
	pop               string // more -pop options
}{
	{"blogpost", "blogpost.yaml", "blogposts", 1, ""},
	{"types", "types.yaml", "alltypes", 8, ""},
	{"clustered", "clustered.yaml", "clustered", 6, ""},
	{"sorted", "sorted.yaml", "sorted", 3, "contents=sorted"},
}

func TestUserCaptureOriginal(t *testing.T) {
	t.Parallel()
	if os.Getenv("USERPROF_CAPTURE") == "" {
		t.Skip("set USERPROF_CAPTURE=1 to capture the original's rows")
	}
	s := cluster(t)
	tool := realTool(t)
	for _, p := range originalProfiles {
		ks := "ks_userprof_capture_" + p.name
		dropKeyspace(t, s, ks)
		t.Cleanup(func() { dropKeyspace(t, s, ks) })
		runReal(t, tool, interopWriteVisits(p.parts, profileIn(t, p.file, ks), 0, p.pop)...)
		var cols []string
		it := s.Query(`SELECT column_name, kind, position, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?`, ks, p.table).Iter()
		var name, kind, typ string
		var pos int
		for it.Scan(&name, &kind, &pos, &typ) {
			cols = append(cols, name+":"+kind+":"+strconv.Itoa(pos)+":"+strings.ReplaceAll(typ, " ", ""))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(cols)
		var b strings.Builder
		fmt.Fprintf(&b, "# rows the original cassandra-stress (scylladb/cassandra-stress 9f184f2a15) wrote for\n# %s, partitions 1..%d%s; see user_original_test.go\n", p.file, p.parts, strings.TrimRight(" "+p.pop, " "))
		b.WriteString("columns " + strings.Join(cols, " ") + "\n")
		for _, l := range dumpTable(t, s, ks, p.table) {
			b.WriteString(l + "\n")
		}
		if err := os.WriteFile(filepath.Join("testdata", "original_"+p.name+".txt"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
