package cassandrastress

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// TestUserGolden: the blog-post profile's statements and its first
// partitions' generated rows, with the table's columns as system_schema
// lists them and a fixed seed for the select chance.
func TestUserGolden(t *testing.T) {
	p, err := profile.Load(context.Background(), filepath.Join(stressTestdata, "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	typ := func(s string) data.CQLType { c, _ := data.ParseCQLType(s); return c }
	sp := &userSpec{p: p,
		pk: []column{{name: "domain", typ: typ("text"), spec: p.Column("domain")}},
		ck: []column{{name: "published_date", typ: typ("timeuuid"), spec: p.Column("published_date")}},
		vs: []column{{name: "author", typ: typ("text"), spec: p.Column("author")}, {name: "body", typ: typ("text"), spec: p.Column("body")},
			{name: "title", typ: typ("text"), spec: p.Column("title")}, {name: "url", typ: typ("text"), spec: p.Column("url")}}}
	r := &UserSetup{s: commandLine(t, "user", "profile=x.yaml", "ops(insert=1)")}
	// both queries bind domain, as the node names their variables
	// (TestUserPrepared asks it)
	domain := func(string) ([]string, error) { return []string{"domain"}, nil }
	if err := r.userStatements(sp, domain); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "insert: %s\nbatch: %s\n", sp.insertCQL, sp.batchName)
	for _, q := range p.Queries {
		fmt.Fprintf(&b, "%s: %s binds %v\n", q.Name, q.CQL, sp.queries[q.Name].binds)
	}
	g, err := sp.newGen()
	if err != nil {
		t.Fatal(err)
	}
	part := data.NewPartition(g)
	rng := rand.New(rand.NewPCG(1, 2))
	for seed := int64(1); seed <= 3; seed++ {
		part.Reset(seed)
		part.Select(rng, 0.002, 1, 0)
		fmt.Fprintf(&b, "seed %d: key %q, %d clustering values, %d rows selected\n", seed, part.Key[0], part.ExpectedRows(), len(part.Rows))
		for _, row := range part.Rows {
			fmt.Fprintf(&b, "  published_date %s\n", hex.EncodeToString(row.CK[0]))
			for i, v := range row.Vals {
				s := string(v)
				if len(s) > 40 {
					s = s[:40] + "..."
				}
				fmt.Fprintf(&b, "    %s (%d) %q\n", sp.vs[i].name, len(v), s)
			}
		}
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "blogpost.golden"), []byte(b.String()))
}

// BenchmarkUserInsertRows is the per-operation generation of a blog-post
// insert: one partition's key, clustering levels and selected rows.
func BenchmarkUserInsertRows(b *testing.B) {
	p, err := profile.Load(context.Background(), filepath.Join(stressTestdata, "blogpost.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	typ := func(s string) data.CQLType { c, _ := data.ParseCQLType(s); return c }
	sp := &userSpec{p: p,
		pk: []column{{name: "domain", typ: typ("text"), spec: p.Column("domain")}},
		ck: []column{{name: "published_date", typ: typ("timeuuid"), spec: p.Column("published_date")}},
		vs: []column{{name: "author", typ: typ("text")}, {name: "body", typ: typ("text"), spec: p.Column("body")}}}
	g, err := sp.newGen()
	if err != nil {
		b.Fatal(err)
	}
	part := data.NewPartition(g)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		part.Reset(int64(i))
		part.Select(rng, 0.001, 1, 0)
	}
}

// TestUserSerialConsistency: a query's and the insert's
// serialConsistencyLevel, else serial-cl=, as StressProfile sets them.
func TestUserSerialConsistency(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(stressTestdata, "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(b), "    fields: samerow\n", "    fields: samerow\n    serialConsistencyLevel: LOCAL_SERIAL\n", 1)
	y = strings.Replace(y, "  batchtype: UNLOGGED\n", "  batchtype: UNLOGGED\n  serialConsistencyLevel: LOCAL_SERIAL\n", 1)
	f := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	sp := &userSpec{p: p}
	r := &UserSetup{s: commandLine(t, "user", "profile=x.yaml", "ops(insert=1)")}
	if err := r.userStatements(sp, func(string) ([]string, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if sp.insertSCL != gocql.LocalSerial || sp.queries["singlepost"].serial != gocql.LocalSerial || sp.queries["timeline"].serial != gocql.Serial {
		t.Errorf("insert %v, singlepost %v, timeline %v", sp.insertSCL, sp.queries["singlepost"].serial, sp.queries["timeline"].serial)
	}
}

// commandLine is the settings of a command line the test gives right.
func commandLine(t *testing.T, args ...string) *settings.Settings {
	s, _, err := settings.Parse(args)
	noError(t, err)
	return s
}

func noError(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// stressTestdata are the stress mode's test files, the example profiles
// and the original's rows among them (frontend/stress/testdata).
var stressTestdata = filepath.Join("..", "..", "frontend", "stress", "testdata")
