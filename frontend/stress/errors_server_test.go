package stress

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/props"
)

// runFails runs a command line that must end with FAILURE and returns
// stdout, stderr and the error.
func runFails(t *testing.T, line ...string) (string, string, error) {
	t.Helper()
	return runFailsOnStart(t, nil, line...)
}

// runFailsOnStart is runFails calling onStart as each measured run starts.
func runFailsOnStart(t *testing.T, onStart func(), line ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Main(context.Background(), line, Env{Stdout: &out, Stderr: &errOut, Version: "test", onStart: onStart})
	if err == nil || !errors.Is(err, ErrFailure) || props.IsBadInput(err) {
		t.Fatalf("%s: err %v, want the run's failure (exit 1)\nstdout:\n%s\nstderr:\n%s", strings.Join(line, " "), err, out.String(), errOut.String())
	}
	if !strings.HasSuffix(out.String(), "\nFAILURE\n") {
		t.Fatalf("%s: no FAILURE at the end:\n%s", strings.Join(line, " "), out.String())
	}
	return out.String(), errOut.String(), err
}

// TestErrorsStopTheRun: without -errors ignore the first operation that
// still fails after its tries ends the run with FAILURE and no Results, as
// in the original; with ignore the run goes on and counts the errors.
func TestErrorsStopTheRun(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "errors")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"-rate", "threads=1", "-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"}
	runLine(t, append([]string{"write", "n=10", "no-warmup", "-pop", "seq=1..10"}, common...)...)

	// Rows 11.. are missing: the read of 11 does not validate (not retried).
	key := string(dataKey(11))
	// The real cassandra-stress (scylladb fork) prints this same line.
	want := "Operation x0 on key(s) [" + key + " (hex: " + keyHex(11) + ")]: Data returned was not validated: row empty/missing " +
		"(expected 1 row(s) with 5 column(s) [C0..C4], 170 bytes total (5x34); got 0 rows)"
	out, _, err := runFails(t, append([]string{"read", "n=40", "no-warmup", "-pop", "seq=1..40"}, common...)...)
	if failureLine(t, out) != want || strings.Contains(out, "Results:") {
		t.Errorf("read of missing rows: want the failure\n%s\ngot\n%s", want, out)
	}
	if !strings.Contains(err.Error(), "Operation x0 on key(s) ["+key) {
		t.Errorf("error: %v", err)
	}

	out = runLine(t, append([]string{"read", "n=40", "no-warmup", "-pop", "seq=1..40", "-errors", "ignore"}, common...)...)
	if pk, errs, _ := results(t, out); pk != 10 || errs != 30 {
		t.Errorf("read -errors ignore: %d partitions, %d errors, want 10 and 30\n%s", pk, errs, out)
	}

	// skip-read-validation: a missing row is an operation of no row, as the
	// original counts it (40 ops, 10 partitions, 0 errors there too).
	out = runLine(t, append([]string{"read", "n=40", "no-warmup", "-pop", "seq=1..40", "-errors", "skip-read-validation"}, common...)...)
	if pk, errs, _ := results(t, out); pk != 10 || errs != 0 || !strings.Contains(out, "\ntotal,            40,") {
		t.Errorf("read -errors skip-read-validation: %d partitions, %d errors, want 10 and 0 of 40 ops\n%s", pk, errs, out)
	}

	// fail-fast changes nothing here (see docs/stress.md): the duration
	// run stops at the first failed operation.
	out, _, _ = runFails(t, append([]string{"read", "duration=1m", "no-warmup", "-pop", "seq=1..40", "-errors", "fail-fast"}, common...)...)
	if failureLine(t, out) != want {
		t.Errorf("read duration=1m -errors fail-fast: want the failure\n%s\ngot\n%s", want, out)
	}

	// counter1 was never created: every try fails, retries=2 makes 3.
	out, _, _ = runFails(t, append([]string{"counter_read", "n=5", "no-warmup", "-pop", "seq=1..5", "-errors", "retries=2"}, common...)...)
	wantPrefix := "Operation x3 on key(s) [" + string(dataKey(1))
	if !strings.Contains(out, wantPrefix) || !strings.Contains(out, "Error executing: ") || !strings.Contains(out, "counter1") {
		t.Errorf("counter_read of a missing table: want %q ... counter1\n%s", wantPrefix, out)
	}
}

// TestUserErrorsStopTheRun: a profile's insert that fails (its table
// dropped as the run starts) ends the run; with -errors ignore it is
// counted.
func TestUserErrorsStopTheRun(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "user_errors")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	f := profileIn(t, "blogpost.yaml", ks)
	dropTable := func() {
		if err := s.Query("DROP TABLE IF EXISTS " + ks + ".blogposts").Exec(); err != nil {
			t.Error(err)
		}
	}
	line := []string{"user", "profile=" + f, "ops(insert=1)", "n=20", "-pop", "seq=1..20", "-rate", "threads=1", "-node", testNode,
		"-log", "no-settings", "-errors", "retries=1"}
	out, _, err := runFailsOnStart(t, dropTable, line...)
	want := regexp.MustCompile(`^insert: Operation x2 on key\(s\) \[[^\]]+\]: Error executing: .*blogposts.*$`)
	if !want.MatchString(failureLine(t, out)) || strings.Contains(out, "Results:") || !strings.Contains(err.Error(), "insert: Operation x2 on key(s) [") {
		t.Errorf("user insert into a dropped table: want %s\n%s\nerr %v", want, out, err)
	}
	out = runLineOnStart(t, dropTable, append(line, "ignore")...)
	if errs := breakdown(t, out, "Total errors"); errs["insert"] != 20 {
		t.Errorf("-errors ignore: %v errors, want insert: 20\n%s", errs, out)
	}
}

// TestReadLookback: mixed over seq= with read-lookback= reads only seeds
// already written (one thread: each write is acknowledged before the next
// operation), so every read validates; without it the reads take seeds
// from the same sequence and find rows not written.
func TestReadLookback(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "lookback")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"mixed", "ratio(write=1,read=1)", "n=1000", "no-warmup", "-rate", "threads=1", "-schema", "replication(factor=1)",
		"keyspace=" + ks, "-node", testNode}
	// While nothing is written the reads take the first seed, as in the
	// original: write it first.
	runLine(t, "write", "n=1", "no-warmup", "-schema", "replication(factor=1)", "keyspace="+ks, "-node", testNode)
	out := runLine(t, append(common, "-pop", "seq=1..1000", "read-lookback=uniform(1..20)")...)
	if !strings.Contains(out, "Read Look Back: ") {
		t.Errorf("the settings do not show it:\n%s", out)
	}
	pk, errs, br := results(t, out)
	if errs != 0 || !strings.Contains(br, "READ: ") || breakdown(t, out, "Total partitions")["READ"] < 300 {
		t.Errorf("read-lookback: %d partitions [%s], %d errors\n%s", pk, br, errs, out)
	}
	w := breakdown(t, out, "Total partitions")["WRITE"]
	if n := count(t, s, ks+".standard1"); n != w {
		t.Errorf("%d rows written, want the %d writes' seeds 1..%d", n, w, w)
	}
	if err := s.Query("TRUNCATE " + ks + ".standard1").Exec(); err != nil {
		t.Fatal(err)
	}
	out = runLine(t, append(common, "-pop", "seq=1..1000", "-errors", "ignore")...)
	if _, errs, _ := results(t, out); errs < 100 {
		t.Errorf("without read-lookback: %d errors, want the reads of rows not written\n%s", errs, out)
	}
}

// TestColSlice: -col slice reads with SELECT *, whose row (the key, then
// the columns) fails validation as in the original (the real
// cassandra-stress prints this line); with skip-read-validation it reads.
func TestColSlice(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "slice")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"n=5", "no-warmup", "-pop", "seq=1..5", "-rate", "threads=1", "-schema", "replication(factor=1)", "keyspace=" + ks,
		"-node", testNode, "-log", "no-settings"}
	runLine(t, append([]string{"write"}, common...)...)
	out, _, _ := runFails(t, append(append([]string{"read"}, common...), "-col", "slice")...)
	want := "Operation x0 on key(s) [0P37709P21 (hex: 30503337373039503231)]: Data returned was not validated: row 0 column count mismatch " +
		"(expected 5 column(s) [C0..C4] / 170 bytes; got 6 column(s) / 180 bytes)"
	if failureLine(t, out) != want {
		t.Errorf("read -col slice: want the end\n%s\ngot\n%s", want, out)
	}
	out = runLine(t, append(append([]string{"read"}, common...), "-col", "slice", "-errors", "skip-read-validation")...)
	if pk, errs, _ := results(t, out); pk != 5 || errs != 0 {
		t.Errorf("read -col slice -errors skip-read-validation: %d partitions, %d errors\n%s", pk, errs, out)
	}
}

// TestInsertPredefined: -insert row-population-ratio= leaves the columns
// past the ratio null, and reads with it validate the others; the options
// that change nothing for the predefined commands say so (visits= of an
// average of 1 and revisit= with it among them; TestInsertVisitsPredefined
// has visits= above 1).
func TestInsertPredefined(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "insert")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	common := []string{"n=20", "no-warmup", "-pop", "seq=1..20", "-rate", "threads=2", "-schema", "replication(factor=1)", "keyspace=" + ks,
		"-node", testNode, "-log", "no-settings"}
	half := []string{"-insert", "row-population-ratio=fixed(1)/2"}
	runLine(t, append(append([]string{"write"}, common...), half...)...)
	iter := s.Query(`SELECT "C0", "C1", "C2", "C3", "C4" FROM ` + ks + ".standard1").Iter()
	var c [5][]byte
	rows := 0
	for iter.Scan(&c[0], &c[1], &c[2], &c[3], &c[4]) {
		rows++
		// 5 columns at 1/2: (i+1)/5 <= 0.5 for C0 and C1 only.
		if c[0] == nil || c[1] == nil || c[2] != nil || c[3] != nil || c[4] != nil {
			t.Errorf("row-population-ratio=fixed(1)/2: a row with %d, %d, %d, %d, %d bytes", len(c[0]), len(c[1]), len(c[2]), len(c[3]), len(c[4]))
			break
		}
	}
	if err := iter.Close(); err != nil || rows != 20 {
		t.Fatalf("%d rows, %v", rows, err)
	}
	out := runLine(t, append(append([]string{"read"}, common...), half...)...)
	if pk, errs, _ := results(t, out); pk != 20 || errs != 0 {
		t.Errorf("read with the same ratio: %d partitions, %d errors", pk, errs)
	}
	out, _, _ = runFails(t, append([]string{"read"}, common...)...)
	if !strings.HasSuffix(failureLine(t, out), "]: Data returned was not validated: row 0, column 2 (C2): got null (expected 34 bytes)") {
		t.Errorf("read of the half-written rows with every column:\n%s", out)
	}

	var o, e bytes.Buffer
	err := Main(context.Background(), append(append([]string{"write"}, common...), "-insert", "partitions=fixed(2)", "batchtype=unlogged"),
		Env{Stdout: &o, Stderr: &e})
	if err != nil || !strings.Contains(e.String(), "-insert partitions=: no effect on the predefined commands, as in the original: each operation writes one partition of one row\n") ||
		!strings.Contains(e.String(), "-insert batchtype=: no effect") {
		t.Errorf("partitions= batchtype=: %v\n%s", err, e.String())
	}
	e.Reset()
	err = Main(context.Background(), []string{"write", "n=5", "no-warmup", "-pop", "seq=1..5", "contents=sorted", "-col", "super=2", "comparator=UTF8Type",
		"-schema", "replication(factor=1)", "keyspace=" + ks, "-node", testNode, "-log", "no-settings"},
		Env{Stdout: &o, Stderr: &e})
	for _, n := range []string{"-pop contents=: no effect", "-col super=: no effect", "-col comparator=: no effect"} {
		if err != nil || !strings.Contains(e.String(), n) {
			t.Errorf("no note %q: %v\n%s", n, err, e.String())
		}
	}
	e.Reset()
	err = Main(context.Background(), append(append([]string{"write"}, common...), "-insert", "visits=fixed(1)", "revisit=uniform(1..5)"), Env{Stdout: &o, Stderr: &e})
	if err != nil || !strings.Contains(e.String(), "-insert visits=: no effect on the predefined commands unless it averages above 1") ||
		!strings.Contains(e.String(), "-insert revisit=: no effect on the predefined commands without visits= averaging above 1") {
		t.Errorf("visits=fixed(1) revisit=: %v\n%s", err, e.String())
	}
}

// TestWarmupPopulation: the warm-up's writes and the run's each start the
// sequence from its first seed, as in the original (whose write n=100 -pop
// seq=1..1000 leaves 100 rows).
func TestWarmupPopulation(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "warmup_pop")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	out := runLine(t, "write", "n=100", "-pop", "seq=1..1000", "-rate", "threads=1", "-schema", "replication(factor=1)", "keyspace="+ks,
		"-node", testNode, "-log", "no-settings")
	if !strings.Contains(out, "Warming up WRITE with 25 iterations...") {
		t.Fatalf("no warm-up:\n%s", out)
	}
	if n := count(t, s, ks+".standard1"); n != 100 {
		t.Errorf("write n=100 after a warm-up of 25: %d rows, want 100", n)
	}
}
