package stress

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// The dump format of a profile's table, shared by the interop test (rows
// the real cassandra-stress wrote, read back from the node) and the golden
// test (rows this package generates): one line per row, "name=value" per
// column in name order, the lines sorted. A value is its CQL serialization
// in hex, or for values over 48 bytes "len:" and the first 8 bytes of its
// SHA-256. A set is compared with its elements sorted bytewise, as the node
// returns a set<text> (the generator binds them in generation order); an
// unset column is "-".

type rawCell struct{ b []byte }

func (c *rawCell) UnmarshalCQL(_ gocql.TypeInfo, b []byte) error {
	c.b = append(c.b[:0], b...)
	if b == nil {
		c.b = nil
	}
	return nil
}

func dumpValue(b []byte, set bool) string {
	if b == nil {
		return "-"
	}
	if set {
		b = sortedSet(b)
	}
	if len(b) > 48 {
		h := sha256.Sum256(b)
		return strconv.Itoa(len(b)) + ":" + hex.EncodeToString(h[:8])
	}
	return hex.EncodeToString(b)
}

// sortedSet reorders a serialized collection's elements bytewise (protocol
// v3+: int32 count, then int32 length and bytes per element).
func sortedSet(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	n := int(int32(binary.BigEndian.Uint32(b)))
	var elems [][]byte
	p := 4
	for i := 0; i < n; i++ {
		if p+4 > len(b) {
			return b
		}
		l := int(int32(binary.BigEndian.Uint32(b[p:])))
		if l < 0 || p+4+l > len(b) {
			return b
		}
		elems = append(elems, b[p:p+4+l])
		p += 4 + l
	}
	sort.Slice(elems, func(i, j int) bool { return string(elems[i][4:]) < string(elems[j][4:]) })
	out := append([]byte(nil), b[:4]...)
	for _, e := range elems {
		out = append(out, e...)
	}
	return out
}

// dumpRow formats one row; cols and vals are parallel, sets marks set columns.
func dumpRow(cols []string, vals [][]byte, sets map[string]bool) string {
	idx := make([]int, len(cols))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return cols[idx[a]] < cols[idx[b]] })
	var b strings.Builder
	for k, i := range idx {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(cols[i] + "=" + dumpValue(vals[i], sets[cols[i]]))
	}
	return b.String()
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
		lines = append(lines, dumpRow(cols, vals, sets))
	}
	if err := it.Close(); err != nil {
		t.Fatalf("dump %s.%s: %v", ks, table, err)
	}
	sort.Strings(lines)
	return lines
}
