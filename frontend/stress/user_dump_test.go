package stress

import (
	"sort"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

// A profile's table read back from the node in the dump format of
// ycsbtest.DumpRow.

type rawCell struct{ b []byte }

func (c *rawCell) UnmarshalCQL(_ gocql.TypeInfo, b []byte) error {
	c.b = append(c.b[:0], b...)
	if b == nil {
		c.b = nil
	}
	return nil
}

// dumpTable reads every row of ks.table from the node.
func dumpTable(t *testing.T, s *gocql.Session, ks, table string) []string {
	t.Helper()
	it := s.Query("SELECT * FROM " + ks + "." + table).PageSize(500).Iter()
	var cols []string
	sets := map[string]bool{}
	for _, c := range it.Columns() {
		cols = append(cols, c.Name)
		sets[c.Name] = c.TypeInfo.Type() == gocql.TypeSet
	}
	cells := make([]rawCell, len(cols))
	dst := make([]any, len(cols))
	for i := range cells {
		dst[i] = &cells[i]
	}
	var lines []string
	for it.Scan(dst...) {
		vals := make([][]byte, len(cols))
		for i := range cells {
			vals[i] = cells[i].b
		}
		lines = append(lines, ycsbtest.DumpRow(cols, vals, sets))
	}
	if err := it.Close(); err != nil {
		t.Fatalf("dump %s.%s: %v", ks, table, err)
	}
	sort.Strings(lines)
	return lines
}
