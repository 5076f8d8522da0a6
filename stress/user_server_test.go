package stress

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
	run(t, "user", "profile="+f, "ops(insert=1)", "n=200", "-pop", "seq=1..50", "-rate", "threads=4", "-node", testNode, "-log", "no-settings")
	out := run(t, "user", "profile="+f, ops, "n=300", "-pop", "dist=uniform(1..50)", "-rate", "threads=4", "-node", testNode, "-log", "no-settings")
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
	userProfileRun(t, "blogpost.yaml", "stress_it_user_blogpost", "ops(insert=1,singlepost=2,timeline=1)", "singlepost", "timeline")
}

func TestUserAllTypes(t *testing.T) {
	userProfileRun(t, "types.yaml", "stress_it_user_types", "ops(insert=1,bykey=1,byrow=1,multi=1)", "bykey", "byrow", "multi")
}

// TestUserWarmupAndRamp: the warm-up runs each op of ops(...) alone on a
// quarter of n, and a thread ramp runs the mix at each count, then the
// summary table, as the original's StressAction does for user.
func TestUserWarmupAndRamp(t *testing.T) {
	s := cluster(t)
	ks := "ks_userprof_ramp"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	rampPause = 0
	f := profileIn(t, "types.yaml", ks)
	out := run(t, "user", "profile="+f, "ops(insert=1,bykey=1)", "n=200", "-pop", "seq=1..50",
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
	s := cluster(t)
	ks := "ks_userprof_permits"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "types.yaml", ks)
	out := run(t, "user", "profile="+f, "ops(insert=1)", "n=300", "no-warmup", "-insert", "partitions=fixed(3)",
		"-pop", "seq=1..1000", "-rate", "threads=3", "-node", testNode, "-log", "no-settings")
	if got := breakdown(t, out, "Total partitions")["insert"]; got != 300 {
		t.Errorf("insert wrote %d partitions, want 300:\n%s", got, out)
	}
	if !regexp.MustCompile(`\ninsert, +100,`).MatchString(out) {
		t.Errorf("want 100 inserts of 3 partitions:\n%s", out)
	}
}

// TestUserPrepared: the markers' columns come from preparing the query;
// one bound to something else than a column is refused before any run.
func TestUserPrepared(t *testing.T) {
	s := cluster(t)
	ks := "ks_userprof_prepared"
	dropKeyspace(t, s, ks)
	t.Cleanup(func() { dropKeyspace(t, s, ks) })
	f := profileIn(t, "blogpost.yaml", ks)
	r := &stressRun{s: parseOrFatal(t, "user", "profile="+f, "ops(insert=1)", "-node", testNode), env: Env{Stdout: io.Discard, Stderr: io.Discard}}
	if err := execDDL(s, "CREATE KEYSPACE "+ks+" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"); err != nil {
		t.Fatal(err)
	}
	ksess, err := r.cluster(ks).CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer ksess.Close()
	if err := execDDL(ksess, "CREATE TABLE t (k text, c int, v text, PRIMARY KEY (k, c))"); err != nil {
		t.Fatal(err)
	}
	for cql, want := range map[string]string{
		"select * from t where k = ? and c >= ? LIMIT 1":      "k c",
		"SELECT v FROM t WHERE \"k\"=? AND c IN ?":            "k in(c)",
		"select * from t where k = ? limit ?":                 "k [limit]",
		"select * from t where token(k) > ? and token(k) < ?": "partition key token partition key token",
	} {
		got, err := preparedArgs(ksess, cql)
		if err != nil {
			t.Fatalf("%s: %v", cql, err)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %q, want %q", cql, got, want)
		}
	}
	if _, err := preparedArgs(ksess, "select * from nosuch where k = ?"); err == nil {
		t.Error("a query of no table prepared")
	}
	// through the command: the error names the profile and the query
	b, _ := os.ReadFile(f)
	bad := strings.Replace(string(b), "where domain = ? LIMIT 1", "where domain = ? LIMIT ?", 1)
	if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	pause = 0
	var out, errOut strings.Builder
	err = Main(context.Background(), []string{"user", "profile=" + f, "ops(singlepost=1)", "n=10", "-node", testNode}, Env{Stdout: &out, Stderr: &errOut})
	var bi *BadInput
	if !errors.As(err, &bi) || !strings.Contains(err.Error(), "queries.singlepost: a ? is bound to [limit]") {
		t.Errorf("got %v", err)
	}
}
