package all

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/db"
)

// TestEveryBindingIsLinked fails when a binding folder under db/ is missing
// from the import list above.
func TestEveryBindingIsLinked(t *testing.T) {
	src, err := os.ReadFile("all.go")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{"all": true, "dbtest": true, "status": true} // status: the statuses, no binding
	found := 0
	for _, e := range entries {
		if !e.IsDir() || skip[e.Name()] {
			continue
		}
		if gos, _ := filepath.Glob(filepath.Join("..", e.Name(), "*.go")); len(gos) == 0 {
			continue
		}
		found++
		if !strings.Contains(string(src), `"github.com/goycsb/ycsb/db/`+e.Name()+`"`) {
			t.Errorf("binding db/%s is not imported by db/all", e.Name())
		}
	}
	if found == 0 {
		t.Fatal("no binding folders found")
	}
}

// TestRetiredBindingNames: the reference's Thrift-era Cassandra bindings are
// not "unknown": the error says which binding replaces them.
func TestRetiredBindingNames(t *testing.T) {
	for _, name := range []string{"cassandra-7", "cassandra-8", "cassandra-10"} {
		_, _, err := db.Lookup(name)
		if err == nil || !strings.Contains(err.Error(), "use cassandra-cql") || strings.Contains(err.Error(), "unknown") {
			t.Errorf("Lookup(%q) = %v, want an error pointing at cassandra-cql", name, err)
		}
	}
}

// TestBindingKinds: the embedded engines are registered as such, under
// every name, and the bindings with a server (or, for basic, none) are not.
func TestBindingKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		want db.Kind
	}{
		{"pebble", db.Embedded},
		{"rocksdb", db.Embedded},
		{"site.ycsb.db.rocksdb.RocksDBClient", db.Embedded},
		{"basic", db.Server},
		{"site.ycsb.BasicDB", db.Server},
		{"cassandra-cql", db.Server},
		{"jdbc", db.Server},
		{"postgresql", db.Server},
		{"cockroach", db.Server},
	} {
		if got := db.KindOf(tc.name); got != tc.want {
			t.Errorf("KindOf(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := db.KindOf("no-such-binding"); got != db.Server {
		t.Errorf("KindOf of an unknown name = %v, want %v", got, db.Server)
	}
}
