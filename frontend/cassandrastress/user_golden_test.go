package stress

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/frontend/cassandrastress/settings"
	"github.com/goycsb/ycsb/internal/ycsbtest"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
	"github.com/goycsb/ycsb/workload/cassandrastress/profile"
)

// TestUserGolden: the blog-post profile's statements and its first
// partitions' generated rows, with the table's columns as system_schema
// lists them and a fixed seed for the select chance.
func TestUserGolden(t *testing.T) {
	p, err := profile.Load(context.Background(), filepath.Join("testdata", "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	typ := func(s string) data.CQLType { c, _ := data.ParseCQLType(s); return c }
	sp := &userSpec{p: p,
		pk: []column{{name: "domain", typ: typ("text"), spec: p.Column("domain")}},
		ck: []column{{name: "published_date", typ: typ("timeuuid"), spec: p.Column("published_date")}},
		vs: []column{{name: "author", typ: typ("text"), spec: p.Column("author")}, {name: "body", typ: typ("text"), spec: p.Column("body")},
			{name: "title", typ: typ("text"), spec: p.Column("title")}, {name: "url", typ: typ("text"), spec: p.Column("url")}}}
	r := &stressRun{s: parseOrFatal(t, "user", "profile=x.yaml", "ops(insert=1)")}
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
	p, err := profile.Load(context.Background(), filepath.Join("testdata", "blogpost.yaml"))
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

func parseOrFatal(t *testing.T, args ...string) *settings.Settings {
	t.Helper()
	s, _, err := settings.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUserSerialConsistency: a query's and the insert's
// serialConsistencyLevel, else serial-cl=, as StressProfile sets them.
func TestUserSerialConsistency(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "blogpost.yaml"))
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
	r := &stressRun{s: parseOrFatal(t, "user", "profile=x.yaml", "ops(insert=1)")}
	if err := r.userStatements(sp, func(string) ([]string, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if sp.insertSCL != gocql.LocalSerial || sp.queries["singlepost"].serial != gocql.LocalSerial || sp.queries["timeline"].serial != gocql.Serial {
		t.Errorf("insert %v, singlepost %v, timeline %v", sp.insertSCL, sp.queries["singlepost"].serial, sp.queries["timeline"].serial)
	}
}

// TestUserRefused: what user does not support yet is one line, exit 2,
// before anything is opened.
func TestUserRefused(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "blogpost.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "p.yaml")
	y := string(b) + "token_range_queries:\n  all: {columns: '*', page_size: 100}\n"
	if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	files := t.TempDir() // what the refused runs would have written
	for _, c := range []struct {
		args []string
		want string
	}{
		// as for the predefined commands: one report per run
		{[]string{"ops(insert=1)", "-log", "json=" + filepath.Join(files, "r.json")}, "-log json=" + filepath.Join(files, "r.json") + ": not offered with a thread ramp yet (one report per run); give -rate threads=N"},
	} {
		args := append([]string{"user", "profile=" + f}, c.args...)
		// a node nobody listens on: nothing may be opened
		args = append(args, "-node", "127.0.0.1", "-port", "native=1")
		var out, errOut strings.Builder
		err := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errOut})
		var bi *BadInput
		if !errors.As(err, &bi) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
	if left, _ := os.ReadDir(files); len(left) != 0 {
		t.Errorf("refused runs wrote %v", left)
	}
}
