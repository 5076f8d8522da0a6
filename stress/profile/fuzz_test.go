package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any input gives a profile or a one-line error, never a panic.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "blogpost.yaml")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("keyspace: k\ntable: t\nqueries: {q: {cql: x, fields: samerow}}\ninsert: {select: uniform(1..10)/10}\n"))
	f.Add([]byte("keyspace: k\ntable: t\nqueries: {}\ncolumnspec: [{name: a, size: 'gaussian(1..10,2)', cluster: fixed(3)}]\n"))
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
	})
}
