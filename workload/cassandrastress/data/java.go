package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/javafmt"
)

// The Java objects behind serialized values, as the original's validate op
// (ValidatingSchemaQuery) compares and prints them: the generator's object
// for the expected value, the column type's compose of the bytes read for
// the actual one.

// JavaEqual is expected.equals(actual) of the original's validate op for
// values of type t. Sets compare as sets (the node returns them sorted);
// a date never equals: the original's generator gives an Integer of days,
// which its insert binds as the driver's LocalDate (days + 2^31), and
// SimpleDateType composes the bytes read back into that other Integer.
func JavaEqual(t CQLType, expected, actual []byte) bool {
	if expected == nil || actual == nil {
		return expected == nil && actual == nil
	}
	k := genKinds[t.Name]
	switch k {
	case gLocalDates:
		return false
	case gSets, gLists:
		a, b := collectionElems(expected), collectionElems(actual)
		if a == nil || b == nil || len(a) != len(b) {
			return bytes.Equal(expected, actual)
		}
		if k == gLists {
			for i := range a {
				if !JavaEqual(*t.Elem, a[i], b[i]) {
					return false
				}
			}
			return true
		}
		for _, x := range a {
			found := false
			for _, y := range b {
				found = found || JavaEqual(*t.Elem, x, y)
			}
			if !found {
				return false
			}
		}
		return true
	}
	return bytes.Equal(expected, actual)
}

// collectionElems splits a list or set (an int32 count, then each element
// as an int32 length and its bytes); nil if it does not parse.
func collectionElems(b []byte) [][]byte {
	if len(b) < 4 {
		return nil
	}
	n := int(int32(binary.BigEndian.Uint32(b)))
	b = b[4:]
	out := make([][]byte, 0, max(0, min(n, 1024)))
	for range n {
		if len(b) < 4 {
			return nil
		}
		l := int(int32(binary.BigEndian.Uint32(b)))
		b = b[4:]
		if l < 0 {
			out = append(out, nil)
			continue
		}
		if l > len(b) {
			return nil
		}
		out = append(out, b[:l])
		b = b[l:]
	}
	return out
}

// JavaValue is the class (getSimpleName) and String.valueOf of the Java
// object of a value of type t: the generator's (actual false) or the one
// the column type composes from the bytes read (actual true). A
// ByteBuffer's text is its toString; callers print its bytes instead, as
// the original's describeValue does. Two approximations: a set prints its
// elements in the order given (Java's HashSet iterates by hash), and a
// timestamp in this process's time zone (Java's default one).
func JavaValue(t CQLType, b []byte, actual bool) (class, text string) {
	if b == nil {
		return "null", "null"
	}
	k := genKinds[t.Name]
	switch k {
	case gStrings:
		return "String", string(b)
	case gBytes:
		return "HeapByteBuffer", fmt.Sprintf("java.nio.HeapByteBuffer[pos=0 lim=%d cap=%d]", len(b), len(b))
	case gLongs, gTimes:
		if len(b) == 8 {
			return "Long", strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10)
		}
	case gDates:
		if len(b) == 8 {
			return "Date", time.UnixMilli(int64(binary.BigEndian.Uint64(b))).In(time.Local).Format("Mon Jan 02 15:04:05 MST 2006")
		}
	case gBooleans:
		if len(b) == 1 {
			return "Boolean", strconv.FormatBool(b[0] != 0)
		}
	case gDecimals:
		if len(b) >= 4 {
			return "BigDecimal", javaBigDecimal(int32(binary.BigEndian.Uint32(b)), varint(b[4:]))
		}
	case gVarints:
		return "BigInteger", varint(b).String()
	case gDoubles:
		if len(b) == 8 {
			return "Double", javafmt.Double(math.Float64frombits(binary.BigEndian.Uint64(b)))
		}
	case gFloats:
		if len(b) == 4 {
			return "Float", javafmt.Float(math.Float32frombits(binary.BigEndian.Uint32(b)))
		}
	case gInets:
		switch len(b) {
		case 4:
			return "Inet4Address", "/" + net.IP(b).String()
		case 16:
			var parts []string
			for i := 0; i < 16; i += 2 {
				parts = append(parts, strconv.FormatUint(uint64(binary.BigEndian.Uint16(b[i:])), 16))
			}
			return "Inet6Address", "/" + strings.Join(parts, ":")
		}
	case gIntegers:
		if len(b) == 4 {
			return "Integer", strconv.Itoa(int(int32(binary.BigEndian.Uint32(b))))
		}
	case gLocalDates:
		if len(b) == 4 {
			v := binary.BigEndian.Uint32(b)
			if !actual {
				v -= 1 << 31 // the generator's days, before LocalDate's offset
			}
			return "Integer", strconv.Itoa(int(int32(v)))
		}
	case gUUIDs, gTimeUUIDs:
		if len(b) == 16 {
			h := fmt.Sprintf("%x", b)
			return "UUID", h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
	case gTinyInts:
		if len(b) == 1 {
			return "Byte", strconv.Itoa(int(int8(b[0])))
		}
	case gSmallInts:
		if len(b) == 2 {
			return "Short", strconv.Itoa(int(int16(binary.BigEndian.Uint16(b))))
		}
	case gLists, gSets:
		if elems := collectionElems(b); elems != nil {
			var parts []string
			for _, e := range elems {
				_, s := JavaValue(*t.Elem, e, actual)
				parts = append(parts, s)
			}
			class = "ArrayList"
			if k == gSets {
				// the generator's HashSet, SetSerializer's LinkedHashSet
				class = "HashSet"
				if actual {
					class = "LinkedHashSet"
				}
			}
			return class, "[" + strings.Join(parts, ", ") + "]"
		}
	}
	return "HeapByteBuffer", fmt.Sprintf("java.nio.HeapByteBuffer[pos=0 lim=%d cap=%d]", len(b), len(b))
}

// javaBigDecimal is BigDecimal.toString: plain for a scale of at least 0
// and an adjusted exponent of at least -6, else scientific.
func javaBigDecimal(scale int32, unscaled *big.Int) string {
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	sign := ""
	if neg {
		sign = "-"
	}
	if scale == 0 {
		return sign + digits
	}
	adjusted := -int64(scale) + int64(len(digits)-1)
	if scale > 0 && adjusted >= -6 {
		if n := len(digits) - int(scale); n > 0 {
			return sign + digits[:n] + "." + digits[n:]
		}
		return sign + "0." + strings.Repeat("0", int(scale)-len(digits)) + digits
	}
	s := digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	if adjusted != 0 {
		s += "E"
		if adjusted > 0 {
			s += "+"
		}
		s += strconv.FormatInt(adjusted, 10)
	}
	return sign + s
}
