package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefinedColumns(t *testing.T) {
	for _, c := range []struct{ def, want string }{
		{"CREATE TABLE t (k int PRIMARY KEY, v text)", "k int partition_key 0; v text regular -1"},
		{"create table if not exists ks.t (k int, c1 int, c2 text, v list<text>, s int static, primary key ((k), c1, c2)) with clustering order by (c1 desc)",
			"k int partition_key 0; c1 int clustering 0; c2 text clustering 1; v list<text> regular -1; s int static -1"},
		{`CREATE TABLE "T" ("Key" int, "a""b" frozen< set < text > >, m map<text, int>, PRIMARY KEY (("Key", "a""b")))`,
			`Key int partition_key 0; a"b frozen<set<text>> partition_key 1; m map<text,int> regular -1`},
		{"CREATE TABLE t (k int, v text)", ""},
		{"CREATE TABLE t (k int PRIMARY KEY, v text, PRIMARY KEY (v))", ""},
		{"CREATE TABLE t (k int, PRIMARY KEY (k, x))", ""},
		{"CREATE TABLE t k int", ""},
		{"CREATE TABLE t (k int primary key", ""},
	} {
		p := &Profile{TableDefinition: c.def}
		cols, ok := p.DefinedColumns()
		var got []string
		for _, col := range cols {
			got = append(got, fmt.Sprintf("%s %s %s %d", col.Name, col.Type, col.Kind, col.Position))
		}
		if !ok {
			got = nil
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.def, g, c.want)
		}
	}
	// the profiles of the tests are understood
	files, _ := filepath.Glob(filepath.Join(profiles, "*.yaml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(f, b)
		if err != nil {
			t.Fatal(err)
		}
		if cols, ok := p.DefinedColumns(); !ok || len(cols) < 2 {
			t.Errorf("%s: table_definition not understood: %v", f, cols)
		}
	}
}
