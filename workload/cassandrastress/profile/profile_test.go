package profile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBlogpost(t *testing.T) {
	p, err := Load(context.Background(), filepath.Join(profiles, "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.SpecName != "stresscql.blogposts" || p.Keyspace != "stresscql" || p.Table != "blogposts" {
		t.Fatalf("names: %+v", p)
	}
	if len(p.Columns) != 6 || p.Column("domain").Population.String() != "uniform(1..10M)" || p.Column("published_date").Cluster.String() != "fixed(1000)" {
		t.Fatalf("columnspec: %+v", p.Columns)
	}
	if p.Insert.BatchType != "UNLOGGED" || p.Insert.Select.Divisor != 1000 || p.Insert.Partitions.String() != "fixed(1)" {
		t.Fatalf("insert: %+v", p.Insert)
	}
	if len(p.Queries) != 2 || p.Queries[0].Name != "singlepost" || p.Queries[0].Fields != SameRow || p.Query("timeline") == nil {
		t.Fatalf("queries: %+v", p.Queries)
	}
}

// TestExamples parses the original's example profiles when its repository
// has been fetched: CSTRESS_EXAMPLES names a folder holding its
// examples/*.yaml.
func TestExamples(t *testing.T) {
	dir := os.Getenv("CSTRESS_EXAMPLES")
	if dir == "" {
		t.Skip("CSTRESS_EXAMPLES not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		if _, err := Load(context.Background(), f); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"", "p.yaml: the file is empty"},
		{"keyspace: [", "p.yaml: not YAML"},
		{"- a", "p.yaml:1: expected a mapping"},
		{"table: t\nqueries: {}", "keyspace: required"},
		{"keyspace: k\nqueries: {}", "table: required"},
		{"keyspace: k\ntable: t", "queries: required"},
		{"keyspace: k\ntable: t\nqueries: {}\nfoo: 1", "p.yaml:4: foo: unknown key"},
		{"keyspace: k\ntable: t\nqueries: {}\ncolumnspec:\n  - name: a\n    size: uniform(1..)", "p.yaml:6: columnspec[0].size: \"uniform(1..)\""},
		{"keyspace: k\ntable: t\nqueries: {}\ncolumnspec:\n  - size: fixed(1)", "columnspec[0].name: required"},
		{"keyspace: k\ntable: t\nqueries: {}\ncolumnspec:\n  - {name: a, colour: red}", "columnspec[0].colour: unknown option"},
		{"keyspace: k\ntable: t\nqueries: {}\ninsert: {batchtype: BIG}", "insert.batchtype: \"BIG\": expected LOGGED, UNLOGGED or COUNTER"},
		{"keyspace: k\ntable: t\nqueries: {}\ninsert: {select: fixed(1)}", "insert.select: \"fixed(1)\""},
		{"keyspace: k\ntable: t\nqueries: {insert: {cql: x}}", "queries.insert: the name insert is reserved"},
		{"keyspace: k\ntable: t\nqueries: {q: {fields: samerow}}", "queries.q.cql: required"},
		{"keyspace: k\ntable: t\nqueries: {q: {cql: x, fields: some}}", "queries.q.fields: \"some\": expected samerow or multirow"},
		{"keyspace: k\ntable: t\nqueries: {q: {cql: x, consistencyLevel: MOST}}", "queries.q.consistencyLevel: \"MOST\""},
		{"keyspace: k\ntable: t\nqueries: {}\ntable_definition: CREATE TABLE u (a int primary key)", "table_definition: creates table \"u\", but table: is \"t\""},
		{"keyspace: k\ntable: t\nqueries: {}\nkeyspace_definition: DROP KEYSPACE k", "keyspace_definition: expected a CREATE KEYSPACE statement"},
		{"keyspace: k\ntable: t\nqueries: {q: {cql: x}}\ntoken_range_queries: {q: {columns: '*'}}", "also in token_range_queries"},
	} {
		_, err := Parse("p.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %q on one line", c.yaml, err, c.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	p, err := Parse("p.yaml", []byte("keyspace: k\ntable: t\nqueries:\n  Q1: {cql: 'select * from t where a = ?'}\ntoken_range_queries:\n  all: {columns: '*'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.SpecName != "k.t" || p.Queries[0].Name != "q1" || p.Queries[0].Fields != MultiRow || p.TokenRangeQueries[0].PageSize != DefaultPageSize {
		t.Fatalf("%+v", p)
	}
}

// profiles are the example profiles the stress mode's tests run too
// (frontend/stress/testdata).
var profiles = filepath.Join("..", "..", "..", "frontend", "stress", "testdata")
