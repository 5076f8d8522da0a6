package cassandrastress

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
)

// The dump format of a profile's table rows, as
// frontend/cassandrastress's user_dump_test.go writes it for the rows the
// real cassandra-stress wrote (the interop test): one line per row,
// "name=value" per column in name order. A value is its CQL serialization
// in hex, or for values over 48 bytes "len:" and the first 8 bytes of its
// SHA-256. A set is compared with its elements sorted bytewise; an unset
// column is "-".

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
