package profile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// FuzzParse: any input gives a profile or a one-line error, never a panic;
// an accepted profile's sizes, cluster counts and partitions are within
// the bounds of settings/limits.go, and the partitions of its table (from
// table_definition, or one made of its columnspec) generate in bounded
// time, each row within the footprint the run's checks go by.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(profiles, "*.yaml"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("keyspace: k\ntable: t\nqueries: {q: {cql: x, fields: samerow}}\ninsert: {select: uniform(1..10)/10}\n"))
	f.Add([]byte("keyspace: k\ntable: t\nqueries: {}\ncolumnspec: [{name: a, size: 'gaussian(1..10,2)', cluster: fixed(3)}]\n"))
	f.Add([]byte("keyspace: k\ntable: t\nqueries: {}\ncolumnspec: [{name: a, cluster: fixed(0)}, {name: b, size: fixed(-1)}]\n"))
	f.Add([]byte("keyspace: k\ntable: t\ntable_definition: CREATE TABLE t (k int, c int, l set<text>, PRIMARY KEY (k, c))\nqueries: {}\ncolumnspec: [{name: c, cluster: uniform(1..50)}, {name: l, size: uniform(1..40)}]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse("f.yaml", b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		if p.Keyspace == "" || p.Table == "" || p.SpecName == "" {
			t.Fatalf("accepted without names: %+v", p)
		}
		for _, c := range p.Columns {
			if c.Size != nil && (c.Size.Least() < 0 || c.Size.Most() > settings.MaxFrameBytes) {
				t.Fatalf("column %s: size %s accepted", c.Name, c.Size)
			}
			if c.Cluster != nil && (c.Cluster.Least() < 1 || c.Cluster.Most() > settings.MaxClusterValues) {
				t.Fatalf("column %s: cluster %s accepted", c.Name, c.Cluster)
			}
			if c.Population != nil && (c.Population.Least() < -settings.MaxDistValue || c.Population.Most() > settings.MaxDistValue) {
				t.Fatalf("column %s: population %s accepted", c.Name, c.Population)
			}
		}
		if d := p.Insert.Partitions; d != nil && d.Most() > settings.MaxBatchStatements {
			t.Fatalf("insert partitions %s accepted", d)
		}
		for _, q := range p.TokenRangeQueries {
			if q.PageSize < 1 || q.PageSize > settings.MaxInt {
				t.Fatalf("page_size %d accepted", q.PageSize)
			}
		}
		partitions(t, p)
	})
}

// partitions generates a few partitions of p's table, when their
// footprint is within the bounds and small enough for a fuzz run, and
// checks each row against it.
func partitions(t *testing.T, p *Profile) {
	pk, ck, vals := fuzzTable(p)
	g := data.NewPartitionGen(pk, ck, vals)
	fp := g.Footprint()
	if fp.Rows > settings.MaxPartitionRows || fp.LevelBytes > settings.MaxPartitionLevelBytes || fp.RowBytes > settings.MaxFrameBytes {
		return // the run refuses it (stress.userLimits)
	}
	if fp.Rows*float64(fp.RowBytes) > 4<<20 || fp.LevelBytes > 4<<20 {
		return // within the bounds, but slow for a fuzz run
	}
	part := data.NewPartition(g)
	r := rand.New(rand.NewPCG(1, 2))
	for seed := int64(1); seed <= 3; seed++ {
		part.Reset(seed)
		var s data.Seed
		s.Visits = 1
		part.Write(r, &s, 1, 1)
		checkRows(t, part, fp)
		part.Read(r, 0, 10, 1, 10)
		checkRows(t, part, fp)
	}
}

func checkRows(t *testing.T, part *data.Partition, fp data.Footprint) {
	t.Helper()
	if float64(len(part.Rows)) > fp.Rows {
		t.Fatalf("%d rows, footprint %v", len(part.Rows), fp.Rows)
	}
	var key int64
	for _, k := range part.Key {
		key += int64(len(k))
	}
	for _, row := range part.Rows {
		n := key
		for _, v := range append(append([][]byte{}, row.CK...), row.Vals...) {
			n += int64(len(v))
		}
		if n > fp.RowBytes {
			t.Fatalf("a row of %d bytes, footprint %d", n, fp.RowBytes)
		}
	}
}

// fuzzTable is p's table: table_definition's, or else a text key, an int
// clustering column for each column with a cluster, a text column for
// each other.
func fuzzTable(p *Profile) (pk, ck, vals []*data.Generator) {
	mk := func(name, typ string) *data.Generator {
		t, err := data.ParseCQLType(typ)
		if err != nil {
			return nil
		}
		var size, pop, cl *data.Dist
		if c := p.Column(name); c != nil {
			size, pop, cl = c.Size, c.Population, c.Cluster
		}
		g, err := data.NewGenerator(name, t, size, pop, cl)
		if err != nil {
			return nil
		}
		return g
	}
	if cols, ok := p.DefinedColumns(); ok {
		pk, ck, vals = make([]*data.Generator, 0), make([]*data.Generator, 0), make([]*data.Generator, 0)
		all := true
		for _, kind := range []string{"partition_key", "clustering"} {
			for pos := 0; ; pos++ {
				found := false
				for _, c := range cols {
					if c.Kind == kind && c.Position == pos {
						g := mk(c.Name, c.Type)
						all = all && g != nil
						if kind == "partition_key" {
							pk = append(pk, g)
						} else {
							ck = append(ck, g)
						}
						found = true
					}
				}
				if !found {
					break
				}
			}
		}
		for _, c := range cols {
			if c.Position < 0 {
				g := mk(c.Name, c.Type)
				all = all && g != nil
				vals = append(vals, g)
			}
		}
		if all {
			return pk, ck, vals
		}
	}
	pk, ck, vals = []*data.Generator{mk("key", "text")}, nil, nil
	for _, c := range p.Columns {
		if c.Cluster != nil {
			ck = append(ck, mk(c.Name, "int"))
		} else {
			vals = append(vals, mk(c.Name, "text"))
		}
	}
	return pk, ck, vals
}
