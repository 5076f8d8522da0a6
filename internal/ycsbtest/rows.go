package ycsbtest

import (
	"crypto/sha256"
	binaryenc "encoding/binary"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
)

// The dump format of a table's rows, shared by the stress mode's tests
// (rows the real cassandra-stress wrote, read back from the node) and its
// workload's (rows generated): one line per row, "name=value" per column
// in name order, the lines sorted. A value is its CQL serialization in
// hex, or for values over 48 bytes "len:" and the first 8 bytes of its
// SHA-256. A set is compared with its elements sorted bytewise, as the
// node returns a set<text> (the generator binds them in generation
// order); an unset column is "-".

// DumpValue is one value of a row, set if it is a set.
func DumpValue(b []byte, set bool) string {
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
	n := int(int32(binaryenc.BigEndian.Uint32(b)))
	var elems [][]byte
	p := 4
	for i := 0; i < n; i++ {
		if p+4 > len(b) {
			return b
		}
		l := int(int32(binaryenc.BigEndian.Uint32(b[p:])))
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

// DumpRow formats one row; cols and vals are parallel, sets marks set columns.
func DumpRow(cols []string, vals [][]byte, sets map[string]bool) string {
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
		b.WriteString(cols[i] + "=" + DumpValue(vals[i], sets[cols[i]]))
	}
	return b.String()
}

// DiffLines lists up to 10 lines only in a (-) or only in b (+), both sorted.
func DiffLines(a, b []string) string {
	var out []string
	i, j := 0, 0
	for (i < len(a) || j < len(b)) && len(out) < 10 {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, "- "+a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			out = append(out, "+ "+b[j])
			j++
		default:
			i++
			j++
		}
	}
	return strings.Join(out, "\n")
}
