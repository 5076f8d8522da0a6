package stress

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// TestRefusedBeforeAnything: sizes, counts and outputs a run cannot carry
// are one line naming the option or profile key as typed, exit 2, with
// nothing connected (the node is a port nobody listens on: connecting
// would be another message), printed or written.
func TestRefusedBeforeAnything(t *testing.T) {
	dir := t.TempDir()
	files := filepath.Join(dir, "out") // what the refused runs would have written
	if err := os.Mkdir(files, 0o755); err != nil {
		t.Fatal(err)
	}
	notPage := filepath.Join(dir, "page.html")
	if err := os.WriteFile(notPage, []byte("<html>mine</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := func(name, columnspec, insert, queries string) string {
		if queries == "" {
			queries = "{}"
		}
		y := `keyspace: lim
keyspace_definition: |
  CREATE KEYSPACE lim WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
table: t
table_definition: |
  CREATE TABLE t (k int, c1 int, c2 text, v text, l list<text>, PRIMARY KEY (k, c1, c2));
columnspec:
` + columnspec + "\ninsert: {" + insert + "}\nqueries: " + queries + "\n"
		f := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	out := func(name string) string { return filepath.Join(files, name) }
	// 257 queries, and ops(...) naming them all: one more than a run measures
	var queries, ops []string
	for i := range 257 {
		queries = append(queries, fmt.Sprintf("q%d: {cql: select * from t}", i))
		ops = append(ops, fmt.Sprintf("q%d=1", i))
	}
	manyQueries, manyOps := "{"+strings.Join(queries, ", ")+"}", "ops("+strings.Join(ops, ",")+")"
	for _, c := range []struct {
		line []string
		want string
	}{
		// sizes of the predefined commands
		{[]string{"write", "n=10", "-col", "size=fixed(99999999999)"}, "-col size=fixed(99999999999): cells of up to 99999999999 bytes; at most 268435456 "},
		{[]string{"write", "n=10", "keysize=99999999999"}, "write keysize=99999999999: expected at most 65535 "},
		{[]string{"write", "n=10", "-col", "n=fixed(4)", "size=fixed(100M)"}, "-col size=fixed(100M): rows of up to 400000010 bytes "},
		{[]string{"write", "n=10", "-rate", "threads=100001"}, "-rate threads=100001: expected at most 100000 "},
		{[]string{"write", "n=10", "-col", "size=fixed(200M)", "n=fixed(1)", "-rate", "threads=100000"},
			"rows of up to 190.7 MiB (-col n=fixed(1), -col size=fixed(200M), keysize=10): 100000 workers (-rate threads=100000) of up to 381.5 MiB each"},
		{[]string{"write", "n=10", "-insert", "visits=fixed(0)"}, "-insert visits=fixed(0): expected 1 to 2147483647 inserts per partition"},
		// outputs
		{[]string{"write", "n=10", "-log", "hdrfile=/proc/ycsb-hdr.log"}, "-log hdrfile=/proc/ycsb-hdr.log: cannot create a file in /proc: "},
		{[]string{"write", "n=10", "-log", "hdrfile=" + files}, "-log hdrfile=" + files + ": " + files + " is a directory, want a file name"},
		{[]string{"write", "n=10", "-log", "json=" + out("nodir/r.json"), "-rate", "threads=1"}, "-log json=" + out("nodir/r.json") + ": directory " + out("nodir") + " does not exist"},
		{[]string{"write", "n=10", "-graph", "file=" + notPage}, "-graph file=" + notPage + ": exists and is not a page of -graph (it is not overwritten): "},
		{[]string{"write", "n=10", "-graph", "file=/proc/ycsb.html"}, "-graph file=/proc/ycsb.html: cannot create a file in /proc: "},
		{[]string{"write", "n=10", "-log", "file=" + out("x"), "hdrfile=" + out("x")}, "-log hdrfile=" + out("x") + ": the same file as -log file=" + out("x")},
		// profiles: what the file alone says
		{[]string{"user", "profile=" + profile("size", "  - {name: v, size: fixed(99999999999)}", "", ""), "ops(insert=1)"}, "user: profile " + filepath.Join(dir, "size.yaml") + ":8: columnspec[0].size: \"fixed(99999999999)\": values of up to 99999999999 bytes; at most 268435456 "},
		{[]string{"user", "profile=" + profile("neg", "  - {name: v, size: fixed(-1)}", "", ""), "ops(insert=1)"}, "columnspec[0].size: \"fixed(-1)\": a size cannot be negative"},
		{[]string{"user", "profile=" + profile("cl0", "  - {name: c1, cluster: fixed(0)}", "", ""), "ops(insert=1)"}, "columnspec[0].cluster: \"fixed(0)\": can draw 0; a clustering column has at least 1 value per partition"},
		{[]string{"user", "profile=" + profile("clbig", "  - {name: c1, cluster: fixed(99999999999)}", "", ""), "ops(insert=1)"}, "columnspec[0].cluster: \"fixed(99999999999)\": up to 99999999999 values of one clustering column per partition; at most 4194304 "},
		{[]string{"user", "profile=" + profile("parts", "  - {name: v}", "partitions: fixed(70000)", ""), "ops(insert=1)"}, "insert.partitions: \"fixed(70000)\": at most 65535 partitions per insert"},
		{[]string{"user", "profile=" + profile("many", "  - {name: v}", "", manyQueries), manyOps}, "ops(...): 257 operations, at most 255"},
		{[]string{"user", "profile=" + profile("cleanup", "  - {name: v}", "", "{cleanup: {cql: select * from t}}"), "ops(insert=1,CLEANUP=1)"}, "ops(...): CLEANUP names the closing of the runner's sessions; give the operation another name"},
		{[]string{"user", "profile=" + profile("fields", "  - {name: v}", "", "{q: {cql: select * from t, fields: weird}}"), "ops(insert=1)"}, "queries.q.fields: \"weird\": expected samerow or multirow"},
		{[]string{"user", "profile=" + profile("cmdparts", "  - {name: v}", "", ""), "ops(insert=1)", "-insert", "partitions=fixed(65536)"}, "-insert partitions=fixed(65536): expected at most 65535 partitions per batch"},
		// profiles: what needs the table's columns (from table_definition)
		{[]string{"user", "profile=" + profile("rows", "  - {name: c1, cluster: fixed(100000)}\n  - {name: c2, cluster: fixed(100000)}", "batchtype: UNLOGGED, select: fixed(1)/1000000", ""), "ops(insert=1)", "-insert", "visits=fixed(100000)"},
			"profile " + filepath.Join(dir, "rows.yaml") + ": columnspec: partitions of up to 10000000000 rows (c1 cluster: fixed(100000) (100000 values of up to 4 bytes) × c2 cluster: fixed(100000) (100000 values of up to 8 bytes)); at most 2147483646 "},
		{[]string{"user", "profile=" + profile("logged", "  - {name: c1, cluster: fixed(100000)}", "", ""), "ops(insert=1)"}, "ERROR: You have defined a workload that generates batches with more than 65k rows (100000), but have required the use of LOGGED batches."},
		{[]string{"user", "profile=" + profile("bytes", "  - {name: c1, cluster: fixed(1000)}\n  - {name: v, size: fixed(1M)}", "batchtype: UNLOGGED", ""), "ops(insert=1)"}, "insert: batches of up to 1000116000 bytes (partitions fixed(1) × select fixed(1)/1 × 1000 rows per partition, of up to 1000116 bytes each, at most 65535 rows a batch); at most 268435456 "},
		{[]string{"user", "profile=" + profile("visits", "  - {name: c1, cluster: fixed(1000)}\n  - {name: v, size: fixed(1M)}", "batchtype: UNLOGGED", ""), "ops(insert=1)", "-insert", "visits=fixed(2)"},
			"insert: batches of up to 500058000 bytes (partitions fixed(1) × select fixed(1)/1 × 500 rows per partition over -insert visits=fixed(2)"},
		{[]string{"user", "profile=" + profile("list", "  - {name: l, size: fixed(30000)}", "", ""), "ops(insert=1)"}, "columnspec: rows of up to 900"},
		{[]string{"user", "profile=" + profile("validate", "  - {name: c1, cluster: fixed(1000)}\n  - {name: c2, cluster: fixed(1000)}\n  - {name: v, size: fixed(1000)}", "batchtype: UNLOGGED, select: fixed(1)/1000000", ""), "ops(insert=1,validate=1)"},
			"columnspec: the validate op of ops(...) generates and compares whole partitions, here of up to 1000000 rows"},
		{[]string{"user", "profile=" + profile("mem", "  - {name: c1, cluster: fixed(3000000)}", "batchtype: UNLOGGED, select: fixed(1)/1000000000, partitions: fixed(65535)", ""), "ops(insert=1)", "-rate", "threads=100000"},
			"profile " + filepath.Join(dir, "mem.yaml") + ": 100000 workers (-rate threads=100000) of up to"},
	} {
		var stdout, stderr strings.Builder
		line := append(c.line, "-node", "127.0.0.1", "-port", "native=1")
		err := Main(context.Background(), line, Env{Stdout: &stdout, Stderr: &stderr, Version: "test"})
		var bi *BadInput
		if !errors.As(err, &bi) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant …%s…", strings.Join(c.line, " "), err, c.want)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") {
			t.Errorf("%s: several lines: %q", strings.Join(c.line, " "), msg)
		}
		if stdout.Len() != 0 {
			t.Errorf("%s: printed %q", strings.Join(c.line, " "), stdout.String())
		}
	}
	if left, _ := os.ReadDir(files); len(left) != 0 {
		t.Errorf("refused runs wrote %v", left)
	}
	if b, _ := os.ReadFile(notPage); string(b) != "<html>mine</html>" {
		t.Errorf("the page that is not -graph's was changed: %q", b)
	}
}

// TestMaxPartitionRows: the bound on a partition's rows is the original's
// int, with 1 + the rows of an insert of a whole partition in it.
func TestMaxPartitionRows(t *testing.T) {
	if settings.MaxPartitionRows+1 > 1<<31-1 {
		t.Fatal(fmt.Sprint(settings.MaxPartitionRows))
	}
}
