package javafmt

import (
	"math"
	"strconv"
)

// Double returns f as Java's Double.toString prints it in JDK 19 and later:
// the shortest digits that read back as f (see shortest for the one
// exception), in plain notation with at least one fractional digit when
// 10^-3 <= |f| < 10^7 ("500.5", "2.0", "0.001"), otherwise in Java's
// "computerized scientific notation" ("1.0E7", "1.23456789E8", "9.0E-4").
// Special values print as "NaN", "Infinity", "-Infinity", "0.0" and "-0.0".
//
// JDK 18 and older sometimes printed a longer, non-shortest digit string
// (JDK-4511638, e.g. 2.0E23 as 1.9999999999999998E23); we follow the fixed
// algorithm, which is also what a round trip through strconv preserves.
func Double(f float64) string {
	var buf [32]byte
	return string(AppendDouble(buf[:0], f))
}

// AppendDouble appends Double(f) to dst and returns the extended buffer.
func AppendDouble(dst []byte, f float64) []byte { return appendJava(dst, f, 64) }

// Float returns f as Java's Float.toString prints it in JDK 19 and later:
// Double's rules over the shortest digits that read back as a float32
// ("0.1", "1.0E10", "1.4E-45").
func Float(f float32) string {
	var buf [32]byte
	return string(appendJava(buf[:0], float64(f), 32))
}

// appendJava appends f as Double.toString (bits 64) or Float.toString (32)
// prints it.
func appendJava(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	digits, point := shortest(buf[:0], f, bits)
	switch {
	case 0 < point && point <= 7: // 1 <= f < 10^7: "ddd.ddd"
		if len(digits) <= point {
			dst = append(dst, digits...)
			dst = appendZeros(dst, point-len(digits))
			return append(dst, ".0"...)
		}
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		return append(dst, digits[point:]...)
	case -3 < point && point <= 0: // 10^-3 <= f < 1: "0.00ddd"
		dst = append(dst, "0."...)
		dst = appendZeros(dst, -point)
		return append(dst, digits...)
	default: // "d.dddE±n", exponent without '+' or leading zeros
		dst = append(dst, digits[0], '.')
		if len(digits) == 1 {
			dst = append(dst, '0')
		} else {
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'E')
		return strconv.AppendInt(dst, int64(point-1), 10)
	}
}

func appendZeros(dst []byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, '0')
	}
	return dst
}
