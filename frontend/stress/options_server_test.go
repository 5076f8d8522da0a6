package stress

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// runBad runs a command line that must be refused as bad input (exit 2)
// and print nothing on stdout; it returns stderr and the error.
func runBad(t *testing.T, line ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Main(context.Background(), line, Env{Stdout: &out, Stderr: &errOut, Version: "test"})
	var bi *BadInput
	if !errors.As(err, &bi) || out.Len() != 0 {
		t.Fatalf("%s: err %v, want bad input and no output\nstdout:\n%s", strings.Join(line, " "), err, out.String())
	}
	return errOut.String(), err
}

// TestInsertVisitsPredefined: -insert visits= with an average above 1
// makes the original's SeedManager keep every partition a write begins in
// its revisit pool (a predefined partition is one row, written at once,
// and never leaves it), and each write draws the inverted revisit=
// distribution for an index into the pool: with revisit=uniform(1..10)
// the pool holds the first 10 seeds, and once it is full every write goes
// back to one of them, so write n=1000 leaves 10 rows, in the original and
// here. visits=fixed(1) changes nothing.
func TestInsertVisitsPredefined(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_visits")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"n=1000", "no-warmup", "-pop", "seq=1..1000", "-rate", "threads=4", "-schema", "replication(factor=1)",
		"keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
	for _, c := range []struct {
		cmd, visits string
		rows        int64
	}{
		{"write", "visits=fixed(2)", 10},
		{"write", "visits=uniform(1..5)", 10},
		{"write", "visits=fixed(1)", 1000},
		{"counter_write", "visits=fixed(3)", 10},
	} {
		table := ks + ".standard1"
		if c.cmd == "counter_write" {
			table = ks + ".counter1"
		}
		s.Query("TRUNCATE " + table).Exec()
		out := runLine(t, append([]string{c.cmd}, append(common, "-insert", c.visits, "revisit=uniform(1..10)")...)...)
		if pk, errs, _ := results(t, out); pk != 1000 || errs != 0 {
			t.Errorf("%s %s: %d partitions, %d errors, want 1000 and 0\n%s", c.cmd, c.visits, pk, errs, out)
		}
		if n := count(t, s, table); n != c.rows {
			t.Errorf("%s %s revisit=uniform(1..10): %d rows, want %d", c.cmd, c.visits, n, c.rows)
		}
	}
	// the reads of a mixed run are drawn as before: the sequence's seeds
	// the writes did not take
	s.Query("TRUNCATE " + ks + ".standard1").Exec()
	out := runLine(t, append([]string{"mixed", "ratio(write=1,read=1)"}, append(common, "-insert", "visits=fixed(2)", "revisit=uniform(1..10)",
		"-errors", "ignore")...)...)
	if n := count(t, s, ks+".standard1"); n != 10 {
		t.Errorf("mixed visits=fixed(2) revisit=uniform(1..10): %d rows, want 10\n%s", n, out)
	}
}

// TestInsertVisitsPredefinedRefused: a revisit= range the original's
// SeedManager refuses is one line, whatever the command.
func TestInsertVisitsPredefinedRefused(t *testing.T) {
	_, err := runBad(t, "write", "n=10", "-insert", "visits=fixed(2)", "revisit=uniform(0..3000000000)", "-node", "127.0.0.1", "-port", "native=1")
	if err == nil || !strings.HasPrefix(err.Error(), "-insert revisit=uniform(0..3000000000): expected a range of at least 0 and at most 2147483647 values") {
		t.Errorf("got %v", err)
	}
}

// lookbackProfile is a table of one-row partitions and a query by key.
const lookbackProfile = `keyspace: KS
keyspace_definition: |
  CREATE KEYSPACE KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
table: kv
table_definition: |
  CREATE TABLE kv (k text PRIMARY KEY, v text)
columnspec:
  - {name: k, size: fixed(12)}
queries:
  get:
    cql: select * from kv where k = ?
    fields: samerow
`

// writeProfile writes y, its keyspace named ks, into a file of the test's.
func writeProfile(t *testing.T, y, ks string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(f, []byte(strings.ReplaceAll(y, "KS", ks)), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestUserReadLookback: with -pop seq= read-lookback= the inserts go on in
// sequence and the queries take the seed DIST back from the count written
// so far, as the original's SeedManager does for user too: on one thread
// every query finds its row (a partition each), and n= of 400 is the
// inserts' partitions and the queries' together. Without it the queries
// take seeds of the same sequence, which no insert writes: none finds one.
func TestUserReadLookback(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_lookback")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	f := writeProfile(t, lookbackProfile, ks)
	user := func(args ...string) []string {
		return append(append([]string{"user", "profile=" + f, "no-warmup"}, args...), "-rate", "threads=1", "-node", testNode, "-log", "no-settings")
	}
	// while nothing is written the queries take the first seed
	runLine(t, user("ops(insert=1)", "n=1", "-pop", "seq=1..1")...)
	out := runLine(t, user("ops(insert=1,get=1)", "n=400", "-pop", "seq=1..1000", "read-lookback=uniform(1..20)")...)
	parts := breakdown(t, out, "Total partitions")
	if parts["get"] < 100 || parts["insert"]+parts["get"] != 400 {
		t.Errorf("read-lookback: partitions %v, want every get to find its row (400 in all)\n%s", parts, out)
	}
	if n := count(t, s, ks+".kv"); n != parts["insert"] {
		t.Errorf("%d rows, want the %d inserts' seeds 1..%d", n, parts["insert"], parts["insert"])
	}
	out = runLine(t, user("ops(insert=1,get=1)", "n=400", "-pop", "seq=1001..2000")...)
	if parts := breakdown(t, out, "Total partitions"); parts["get"] != 0 || parts["insert"] < 100 {
		t.Errorf("without read-lookback: partitions %v, want no get to find a row\n%s", parts, out)
	}
	// a DIST beyond the sequence is refused, as for the predefined commands
	if _, err := runBad(t, user("ops(insert=1,get=1)", "n=10", "-pop", "seq=1..10", "read-lookback=uniform(1..100)")...); err == nil ||
		!strings.Contains(err.Error(), "-pop read-lookback=UNIFORM(1..100): its largest value 100 is beyond the sequence") {
		t.Errorf("lookback beyond the sequence: %v", err)
	}
}

// realToolIfBuilt is the real cassandra-stress, or "" if it is not built.
func realToolIfBuilt() string {
	tool := os.Getenv("CSTRESS")
	if tool == "" {
		home, _ := os.UserHomeDir()
		tool = filepath.Join(home, ".cache/ycsb-reference/cassandra-stress/bin/cassandra-stress")
	}
	if _, err := os.Stat(tool); err != nil {
		return ""
	}
	return tool
}

// lastTotal is the total ops of the last interval line of out.
func lastTotal(t *testing.T, out string) int64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^total, +([0-9]+),`).FindAllStringSubmatch(out, -1)
	if len(m) == 0 {
		t.Fatalf("no total line\n%s", out)
	}
	n, _ := strconv.ParseInt(m[len(m)-1][1], 10, 64)
	return n
}

// TestUserTokenRangeSplit: -tokenrange split-factor=4 reads the one-token
// ring of the shared node as its four quarters (the Java driver's split),
// each page by page: every partition is read once (a partition counts once
// per range), in as many pages as the quarters' rows make, which is what
// the real cassandra-stress does with the same table.
func TestUserTokenRangeSplit(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := "stressrest_trsplit"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "types.yaml", ks)
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(b, "token_range_queries:\n  all: {columns: '*', page_size: 7}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	runLine(t, interopWrite(40, f)...)
	var parts int64
	it := s.Query("SELECT DISTINCT k, k2 FROM " + ks + ".alltypes").Iter()
	parts = int64(it.NumRows())
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	// The shared node's ring, one range (MIN, MIN], split in four as
	// -tokenrange split-factor=4 splits it (workload/cassandrastress's
	// splitRanges; its TestSplitRanges).
	var tokens int
	if err := s.Query("SELECT count(*) FROM system.peers").Scan(&tokens); err != nil || tokens != 0 {
		t.Fatalf("the shared node has %d peers (%v): want one node, one range", tokens, err)
	}
	quarters := []struct{ start, end int64 }{
		{math.MinInt64, -1 << 62}, {-1 << 62, 0}, {0, 1 << 62}, {1 << 62, math.MinInt64},
	}
	// the pages: a range of r rows is max(1, ceil(r/7)) of them
	var pages, rows int64
	for _, q := range quarters {
		var n int64
		if err := s.Query("SELECT count(*) FROM "+ks+".alltypes WHERE token(k, k2) > ? AND token(k, k2) <= ?", q.start, q.end).Scan(&n); err != nil {
			t.Fatal(err)
		}
		rows += n
		pages += max(1, (n+6)/7)
	}
	var all int64
	if err := s.Query("SELECT count(*) FROM " + ks + ".alltypes").Scan(&all); err != nil {
		t.Fatal(err)
	}
	if rows != all {
		t.Fatalf("the quarters hold %d rows, the table %d", rows, all)
	}
	read := []string{"user", "profile=" + f, "ops(all=1)", "n=1000", "no-warmup", "cl=ONE", "-rate", "threads=2", "-node", testNode,
		"-tokenrange", "split-factor=4", "-log", "no-settings"}
	outs := map[string]string{"ours": runLine(t, read...)}
	if tool := realToolIfBuilt(); tool != "" {
		outs["theirs"] = runReal(t, tool, read...)
	} else {
		t.Log("the real cassandra-stress is not built: ours only")
	}
	for who, out := range outs {
		if got := breakdown(t, out, "Total partitions")["all"]; got != parts {
			t.Errorf("%s: %d partitions, the table has %d\n%s", who, got, parts, out)
		}
		if ops := lastTotal(t, out); ops != pages {
			t.Errorf("%s: %d operations, want the %d pages of the quarters' rows\n%s", who, ops, pages, out)
		}
	}
}

// clusteredProfile has partitions of 3 x 2 rows over two clustering
// columns, in their natural order, and two value columns.
const clusteredProfile = `keyspace: KS
keyspace_definition: |
  CREATE KEYSPACE KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
table: kcv
table_definition: |
  CREATE TABLE kcv (k text, c1 int, c2 bigint, v text, w blob, PRIMARY KEY (k, c1, c2))
columnspec:
  - {name: k, size: fixed(10)}
  - {name: c1, cluster: fixed(3)}
  - {name: c2, cluster: fixed(2)}
insert: {partitions: fixed(1), select: fixed(1)/1, batchtype: UNLOGGED}
queries: {}
`

// keysProfile is clusteredProfile's table without value columns.
var keysProfile = strings.NewReplacer("kcv", "kc", ", v text, w blob", "").Replace(clusteredProfile)

// validateNull is the original's failure of a validate operation of depth
// 1 or more that compares a value column (see data.Partition.Bounds).
var validateNull = regexp.MustCompile(`(?s)^validate: Operation x1 on key\(s\) \[.+\]: Error executing: \(NullPointerException\): Cannot invoke "Object\.equals\(Object\)" because "expectedValue" is null$`)

// validateMismatch is a failure of rows that do not validate.
var validateMismatch = regexp.MustCompile(`(?s)^validate: Operation x0 on key\(s\) \[.+\]: Data returned was not validated: (row [0-9]+, column [0-9] \([a-z0-9]+\): value mismatch \(expected \[[A-Za-z]+\] .*, got \[[A-Za-z]+\] .*\)|expected row [0-9]+ but result set exhausted \(row empty/missing\)|result set not exhausted after consuming [0-9]+ expected row\(s\) \(got more rows than expected\))$`)

// TestUserValidate: the validate op reads back what the inserts wrote and
// checks every row and value, as the original's ValidatingSchemaQuery: a
// table of one-row partitions, and one of clustered partitions of keys
// only written sorted (-pop contents=sorted: the validate op reads in
// sorted order), validate at every depth; the clustered one written in
// generation order does not. With value columns, the operations of depth 1
// and more fail as the original's do (a NullPointerException there), those
// of depth 0 validate. A changed value and a missing row end the run with
// the original's lines.
func TestUserValidate(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_validate")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	kv := writeProfile(t, lookbackProfile, ks)
	kc := writeProfile(t, keysProfile, ks)
	kcv := writeProfile(t, clusteredProfile, ks)
	common := []string{"-rate", "threads=2", "-node", testNode, "-log", "no-settings"}
	user := func(f string, args ...string) []string {
		return append(append([]string{"user", "profile=" + f, "no-warmup"}, args...), common...)
	}
	runLine(t, user(kv, "ops(insert=1)", "n=50", "-pop", "seq=1..50")...)
	for _, f := range []string{kc, kcv} {
		runLine(t, user(f, "ops(insert=1)", "n=50", "-pop", "seq=1..50", "contents=sorted")...)
	}
	for _, f := range []string{kv, kc} {
		out := runLine(t, user(f, "ops(validate=1)", "n=300", "-pop", "dist=uniform(1..50)")...)
		parts, errs := breakdown(t, out, "Total partitions"), breakdown(t, out, "Total errors")
		if errs["validate"] != 0 || parts["validate"] < 100 || !strings.Contains(out, "\nvalidate, ") {
			t.Errorf("%s: validate: partitions %v, errors %v\n%s", f, parts, errs, out)
		}
	}
	// a mix: the op's share is validate's
	out := runLine(t, user(kc, "ops(insert=1,validate=3)", "n=400", "-pop", "dist=uniform(1..50)", "contents=sorted")...)
	if errs := breakdown(t, out, "Total errors"); errs["validate"] != 0 || errs["insert"] != 0 {
		t.Errorf("insert and validate: errors %v\n%s", errs, out)
	}
	// with value columns
	out, _, _ = runFails(t, user(kcv, "ops(validate=1)", "n=300", "-pop", "dist=uniform(1..50)")...)
	if l := failureLine(t, out); !validateNull.MatchString(l) {
		t.Errorf("validate with value columns: want %s\ngot %s\n%s", validateNull, l, out)
	}
	out = runLine(t, user(kcv, "ops(validate=1)", "n=300", "-pop", "dist=uniform(1..50)", "-errors", "ignore")...)
	if parts, errs := breakdown(t, out, "Total partitions"), breakdown(t, out, "Total errors"); errs["validate"] < 50 || parts["validate"] < 30 {
		t.Errorf("validate with value columns, -errors ignore: partitions %v, errors %v: want depth 0 validated, the others failed\n%s", parts, errs, out)
	}

	// the keys written unsorted: other rows
	if err := s.Query("TRUNCATE " + ks + ".kc").Exec(); err != nil {
		t.Fatal(err)
	}
	runLine(t, user(kc, "ops(insert=1)", "n=50", "-pop", "seq=1..50")...)
	out, _, _ = runFails(t, user(kc, "ops(validate=1)", "n=300", "-pop", "dist=uniform(1..50)")...)
	if l := failureLine(t, out); !validateMismatch.MatchString(l) {
		t.Errorf("validate of unsorted rows: want %s\ngot %s\n%s", validateMismatch, l, out)
	}

	// seed 1 alone in a table of its own, changed, then gone
	ks1 := keyspace(t, s, "stressrest_validate1")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks1).Exec() })
	kv1 := writeProfile(t, lookbackProfile, ks1)
	runLine(t, user(kv1, "ops(insert=1)", "n=1", "-pop", "seq=1..1")...)
	var k, v string
	if err := s.Query("SELECT k, v FROM "+ks1+".kv").Scan(&k, &v); err != nil {
		t.Fatal(err)
	}
	if err := s.Query("UPDATE "+ks1+".kv SET v = 'changed' WHERE k = ?", k).Exec(); err != nil {
		t.Fatal(err)
	}
	one := user(kv1, "ops(validate=1)", "n=1", "-pop", "seq=1..1")
	out, _, _ = runFails(t, one...)
	key := k
	if strings.IndexFunc(k, func(c rune) bool { return c < 0x20 || c > 0x7e }) >= 0 || k == "" {
		key = hex.EncodeToString([]byte(k))
	}
	want := "validate: Operation x0 on key(s) [" + key + "]: Data returned was not validated: row 1, column 1 (v): value mismatch (expected [String] " + v + ", got [String] changed)"
	if l := failureLine(t, out); l != want {
		t.Errorf("a changed value: want the line\n%s\ngot\n%s", want, out)
	}
	if err := s.Query("DELETE FROM "+ks1+".kv WHERE k = ?", k).Exec(); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runFails(t, one...)
	want = "validate: Operation x0 on key(s) [" + key + "]: Data returned was not validated: expected row 1 but result set exhausted (row empty/missing)"
	if l := failureLine(t, out); l != want {
		t.Errorf("a missing row: want the line\n%s\ngot\n%s", want, out)
	}
}

// TestUserShuffled: -pop contents=shuffled writes each partition's levels
// in a shuffled order: every row (select fixed(1)/1), and rows the sorted
// order's validate op does not find, as the original's would not either.
func TestUserShuffled(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_shuffled")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	f := writeProfile(t, clusteredProfile, ks)
	out := runLine(t, "user", "profile="+f, "ops(insert=1)", "n=20", "no-warmup", "-pop", "seq=1..20", "contents=shuffled", "-rate", "threads=2",
		"-node", testNode)
	if !strings.Contains(out, "  Order: SHUFFLED\n") {
		t.Errorf("the settings do not show it:\n%s", out)
	}
	if n := count(t, s, ks+".kcv"); n != 20*6 {
		t.Errorf("%d rows, want 20 partitions of 6", n)
	}
	runFails(t, "user", "profile="+f, "ops(validate=1)", "n=200", "no-warmup", "-pop", "dist=uniform(1..20)", "-rate", "threads=1",
		"-node", testNode, "-log", "no-settings")
}

// TestUserValidateInterop: the real cassandra-stress's validate op passes
// on a clustered table of keys ours wrote sorted, and fails on it written
// in generation order, as ours does; with value columns both fail with the
// NullPointerException's line, and on a changed value both print the same
// mismatch.
func TestUserValidateInterop(t *testing.T) {
	t.Parallel() // keyspaces, files and processes of its own on the shared node
	s := cluster(t)
	tool := realTool(t)
	ks := keyspace(t, s, "stressrest_validate_interop")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	kc := writeProfile(t, keysProfile, ks)
	kcv := writeProfile(t, clusteredProfile, ks)
	kv := writeProfile(t, lookbackProfile, ks)
	common := []string{"-rate", "threads=1", "-node", testNode, "-log", "no-settings"}
	user := func(f string, args ...string) []string {
		return append(append([]string{"user", "profile=" + f, "no-warmup", "cl=ONE"}, args...), common...)
	}
	theirsFail := func(args []string) string {
		out, err := realRun(t, tool, args...)
		if err == nil || !strings.Contains(out, "\nFAILURE\n") {
			t.Fatalf("theirs %v: %v, want FAILURE\n%s", args, err, out)
		}
		// the message, up to the stack trace (a key may hold a newline)
		m := regexp.MustCompile(`(?s)\njava\.io\.IOException: (Operation x.*?)\n\n\tat `).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("theirs %v: no failure line\n%s", args, out)
		}
		return "validate: " + m[1]
	}
	for _, f := range []string{kc, kcv} {
		runLine(t, user(f, "ops(insert=1)", "n=20", "-pop", "seq=1..20", "contents=sorted")...)
	}
	validate := func(f string) []string { return user(f, "ops(validate=1)", "n=200", "-pop", "dist=uniform(1..20)") }
	out := runReal(t, tool, validate(kc)...)
	if errs := breakdown(t, out, "Total errors"); errs["validate"] != 0 {
		t.Errorf("theirs: validate of what ours wrote sorted: errors %v\n%s", errs, out)
	}
	runLine(t, validate(kc)...)
	if l := theirsFail(validate(kcv)); !validateNull.MatchString(l) {
		t.Errorf("theirs with value columns: %s, want %s", l, validateNull)
	}
	ours, _, _ := runFails(t, validate(kcv)...)
	if l := failureLine(t, ours); !validateNull.MatchString(l) {
		t.Errorf("ours with value columns: %s, want %s", l, validateNull)
	}

	if err := s.Query("TRUNCATE " + ks + ".kc").Exec(); err != nil {
		t.Fatal(err)
	}
	runLine(t, user(kc, "ops(insert=1)", "n=20", "-pop", "seq=1..20")...)
	if l := theirsFail(validate(kc)); !validateMismatch.MatchString(l) {
		t.Errorf("theirs, unsorted: %s, want %s", l, validateMismatch)
	}
	ours, _, _ = runFails(t, validate(kc)...)
	if l := failureLine(t, ours); !validateMismatch.MatchString(l) {
		t.Errorf("ours, unsorted: %s, want %s", l, validateMismatch)
	}

	// one partition, a value changed: the same line
	runLine(t, user(kv, "ops(insert=1)", "n=1", "-pop", "seq=1..1")...)
	var k string
	if err := s.Query("SELECT k FROM " + ks + ".kv").Scan(&k); err != nil {
		t.Fatal(err)
	}
	if err := s.Query("UPDATE "+ks+".kv SET v = 'changed' WHERE k = ?", k).Exec(); err != nil {
		t.Fatal(err)
	}
	one := user(kv, "ops(validate=1)", "n=1", "-pop", "seq=1..1")
	ours, _, _ = runFails(t, one...)
	// the key aside (ours prints a key of control characters in hex)
	detail := func(l string) string {
		if i, j := strings.Index(l, " on key(s) ["), strings.Index(l, "]: Data returned"); i >= 0 && j > i {
			return l[:i] + l[j:]
		}
		return l
	}
	if l, want := detail(failureLine(t, ours)), detail(theirsFail(one)); l != want {
		t.Errorf("a changed value: ours\n%s\ntheirs\n%s", l, want)
	}
}

// failureLine is the failed operation's line of a failed run's output,
// which may be followed only by interval rows (the run's last, printed
// after it, as the original prints it) and FAILURE.
func failureLine(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[len(lines)-1] != "FAILURE" {
		t.Fatalf("no FAILURE at the end:\n%s", out)
	}
	row := regexp.MustCompile(`^[^ ,]+, +[0-9]+,`)
	for i := len(lines) - 2; i >= 0; i-- {
		if !row.MatchString(lines[i]) {
			return lines[i]
		}
	}
	t.Fatalf("no failure line:\n%s", out)
	return ""
}

// outline is the shape of a run's output: its header, interval rows,
// failure line and END or FAILURE, in order (the real tool's log and
// stack trace lines left out).
func outline(out string) []string {
	var o []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "type ") && strings.Contains(l, "total ops,"):
			o = append(o, "header")
		case regexp.MustCompile(`^[^ ,]+, +[0-9]+,`).MatchString(l):
			o = append(o, "row")
		case strings.Contains(l, "Operation x"):
			o = append(o, "failure")
		case l == "FAILURE" || l == "END":
			o = append(o, l)
		}
	}
	return o
}

// TestFailureLineOrder: the failed operation's line comes as it happens,
// before the row of the run's last (partial) interval, which holds that
// operation, as the original prints it (its Consumer prints the exception,
// then StressMetrics records the last interval).
func TestFailureLineOrder(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_order")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"n=5", "no-warmup", "-pop", "seq=1..5", "-rate", "threads=1", "-schema", "replication(factor=1)", "keyspace=" + ks,
		"-node", testNode, "-log", "no-settings"}
	runLine(t, append([]string{"write"}, common...)...)
	read := append(append([]string{"read"}, common...), "-col", "slice")
	ours, _, _ := runFails(t, read...)
	want := []string{"header", "failure", "row", "FAILURE"}
	if got := outline(ours); !slices.Equal(got, want) {
		t.Errorf("ours: %v, want %v\n%s", got, want, ours)
	}
	if tool := realToolIfBuilt(); tool != "" {
		theirs, _ := realRun(t, tool, read...)
		if got := outline(theirs); !slices.Equal(got, want) {
			t.Errorf("theirs: %v, want %v\n%s", got, want, theirs)
		}
	}
}

// TestModeUnprepared: -mode unprepared sends the predefined commands'
// statements as QUERYs, which the node parses each time and never
// prepares: the node's table of prepared statements gets none of the
// operations' for the keyspace (the schema's are the driver's), and the
// rows are written and read back; the same run prepared (the control)
// adds them there.
func TestModeUnprepared(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "unprepared")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	prepared := func() int {
		t.Helper()
		var n int
		it := s.Query("SELECT logged_keyspace, query_string FROM system.prepared_statements").Iter()
		for k, q := "", ""; it.Scan(&k, &q); {
			if k == ks && !strings.HasPrefix(q, "CREATE ") {
				n++
			}
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	common := []string{"n=200", "no-warmup", "-pop", "seq=1..200", "-rate", "threads=4", "-schema", "replication(factor=1)",
		"keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
	for _, cmd := range []string{"write", "read", "counter_write", "counter_read"} {
		out := runLine(t, append([]string{cmd}, append(common, "-mode", "native", "cql3", "unprepared")...)...)
		if pk, errs, _ := results(t, out); pk != 200 || errs != 0 {
			t.Errorf("%s unprepared: %d partitions, %d errors, want 200 and 0\n%s", cmd, pk, errs, out)
		}
	}
	if n := count(t, s, ks+".standard1"); n != 200 {
		t.Errorf("write unprepared: %d rows, want 200", n)
	}
	if n := prepared(); n != 0 {
		t.Errorf("%d statements prepared on the node for %s by unprepared runs, want none", n, ks)
	}
	runLine(t, append([]string{"read"}, common...)...)
	if n := prepared(); n == 0 {
		t.Errorf("a prepared read prepared nothing for %s: the check cannot fail", ks)
	}
}

// A table with a map column (a type the generator has not, as the
// original's): refused with one line naming the column and the option;
// with -errors skip-unsupported-columns the rows are written without it.
func TestUserSkipUnsupportedColumns(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "stressrest_skipcols")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	const y = `keyspace: KS
keyspace_definition: |
  CREATE KEYSPACE KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
table: kv
table_definition: |
  CREATE TABLE kv (k text PRIMARY KEY, v text, m map<text, int>)
columnspec:
  - {name: k, size: fixed(12)}
queries: {}
`
	f := writeProfile(t, y, ks)
	user := func(args ...string) []string {
		return append(append([]string{"user", "profile=" + f, "ops(insert=1)", "n=50", "no-warmup", "-pop", "seq=1..50"}, args...),
			"-rate", "threads=1", "-node", testNode, "-log", "no-settings")
	}
	if _, err := runBad(t, user()...); err == nil || !strings.Contains(err.Error(), "column m: type map<text, int> is not supported") ||
		!strings.Contains(err.Error(), "-errors skip-unsupported-columns") {
		t.Errorf("map column without the option: %v", err)
	}
	var out, errOut bytes.Buffer
	if err := Main(context.Background(), user("-errors", "skip-unsupported-columns"), Env{Stdout: &out, Stderr: &errOut, Version: "test"}); err != nil {
		t.Fatalf("with skip-unsupported-columns: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "skipping columns of types not generated (-errors skip-unsupported-columns): m map<text, int>") {
		t.Errorf("no line names the skipped column\n%s", errOut.String())
	}
	if n := count(t, s, ks+".kv"); n != 50 {
		t.Errorf("%d rows, want 50", n)
	}
	var v string
	var m map[string]int
	if err := s.Query("SELECT v, m FROM "+ks+".kv LIMIT 1").Scan(&v, &m); err != nil || v == "" || len(m) != 0 {
		t.Errorf("a row: v %q, m %v, %v: want v generated and m unset", v, m, err)
	}
}
