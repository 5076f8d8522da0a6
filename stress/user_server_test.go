package stress

import (
	"os"
	"path/filepath"
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

// userRun inserts partitions 1..50, then runs ops over them, and checks
// every query found rows and nothing failed.
func userRun(t *testing.T, file, ks string, ops string, queries ...string) {
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
	userRun(t, "blogpost.yaml", "stress_it_user_blogpost", "ops(insert=1,singlepost=2,timeline=1)", "singlepost", "timeline")
}

func TestUserAllTypes(t *testing.T) {
	userRun(t, "types.yaml", "stress_it_user_types", "ops(insert=1,bykey=1,byrow=1,multi=1)", "bykey", "byrow", "multi")
}
