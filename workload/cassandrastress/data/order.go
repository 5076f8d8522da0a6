package data

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"math/big"
	"sort"
)

// Sorting a clustering level for -pop contents=sorted, as the original's
// PartitionIterator.fill does: by the generated Java object's compareTo,
// for the generators whose class is Comparable (not inet, list or set,
// which stay in generation order). Values are compared in their CQL
// serialization.

// sortable says whether the original sorts values of kind k.
func sortable(k genKind) bool {
	switch k {
	case gInets, gLists, gSets:
		return false
	}
	return true
}

// javaCompare is compareTo of the Java objects behind two serialized
// values of kind k.
func javaCompare(k genKind, a, b []byte) int {
	switch k {
	case gStrings:
		// String.compareTo: UTF-16 code units; the generated text is
		// ASCII, where that is the byte order
		return bytes.Compare(a, b)
	case gBytes:
		// ByteBuffer.compareTo: bytes as signed, then length
		for i := 0; i < len(a) && i < len(b); i++ {
			if x, y := int8(a[i]), int8(b[i]); x != y {
				return cmp.Compare(int64(x), int64(y))
			}
		}
		return cmp.Compare(int64(len(a)), int64(len(b)))
	case gLongs, gDates, gTimes:
		return cmp.Compare(int64(binary.BigEndian.Uint64(a)), int64(binary.BigEndian.Uint64(b)))
	case gIntegers:
		return cmp.Compare(int64(int32(binary.BigEndian.Uint32(a))), int64(int32(binary.BigEndian.Uint32(b))))
	case gLocalDates:
		// the Integer drawn, which the serialization offsets by 2^31
		return cmp.Compare(int64(binary.BigEndian.Uint32(a)), int64(binary.BigEndian.Uint32(b)))
	case gSmallInts:
		return cmp.Compare(int64(int16(binary.BigEndian.Uint16(a))), int64(int16(binary.BigEndian.Uint16(b))))
	case gTinyInts:
		return cmp.Compare(int64(int8(a[0])), int64(int8(b[0])))
	case gBooleans:
		return cmp.Compare(int64(a[0]), int64(b[0]))
	case gVarints:
		return varint(a).Cmp(varint(b))
	case gDecimals:
		return decimal(a).Cmp(decimal(b))
	case gFloats:
		return javaFloatCompare(float64(math.Float32frombits(binary.BigEndian.Uint32(a))), float64(math.Float32frombits(binary.BigEndian.Uint32(b))))
	case gDoubles:
		return javaFloatCompare(math.Float64frombits(binary.BigEndian.Uint64(a)), math.Float64frombits(binary.BigEndian.Uint64(b)))
	case gUUIDs, gTimeUUIDs:
		// UUID.compareTo: the halves as signed longs
		if c := cmp.Compare(int64(binary.BigEndian.Uint64(a)), int64(binary.BigEndian.Uint64(b))); c != 0 {
			return c
		}
		return cmp.Compare(int64(binary.BigEndian.Uint64(a[8:])), int64(binary.BigEndian.Uint64(b[8:])))
	}
	return 0
}

// javaFloatCompare is Double.compare: -0.0 below 0.0, NaN above all.
func javaFloatCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(int64(math.Float64bits(a)), int64(math.Float64bits(b)))
}

// varint is a CQL varint: big-endian two's complement.
func varint(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}

// decimal is a CQL decimal: int32 scale, then the unscaled varint.
func decimal(b []byte) *big.Rat {
	scale := int32(binary.BigEndian.Uint32(b))
	r := new(big.Rat).SetInt(varint(b[4:]))
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(scale, -scale))), nil)
	if scale > 0 {
		return r.Quo(r, new(big.Rat).SetInt(p))
	}
	return r.Mul(r, new(big.Rat).SetInt(p))
}

// sortLevel orders a level's distinct values by g's kind.
func sortLevel(g *Generator, vals [][]byte) {
	sort.Slice(vals, func(i, j int) bool { return javaCompare(g.kind, vals[i], vals[j]) < 0 })
}
