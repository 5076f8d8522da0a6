package javafmt

import "strconv"

// shortest returns the shortest decimal digits that read back as abs, a
// float64 or (bits 32) a float32, and point, the position of the decimal
// point: abs = 0.DIGITS × 10^point. This is java.text.DigitList's (digits,
// decimalAt) form. abs must be finite and greater than zero. The digits
// are built in buf and have no trailing zeros.
func shortest(buf []byte, abs float64, bits int) (digits []byte, point int) {
	digits, point = scientific(strconv.AppendFloat(buf[:0], abs, 'e', -1, bits))
	minNormal := 0x1p-1022
	if bits == 32 {
		minNormal = 0x1p-126
	}
	if len(digits) == 1 && abs < minNormal {
		// Java (JDK 19+) differs from plain "shortest" in one case: when a
		// single digit suffices it picks, among the decimals of one or two
		// digits that read back as abs, the one closest to abs. So
		// Double.MIN_VALUE prints 4.9E-324, not 5.0E-324. Only subnormals
		// can be affected: a normal double lies within 2^-53 (relative) of
		// its one-digit decimal, far closer than any other two-digit one.
		// Float.toString follows the same rule (1.4E-45).
		var tmp [24]byte
		two := strconv.AppendFloat(tmp[:0], abs, 'e', 1, bits)
		if f, err := strconv.ParseFloat(string(two), bits); err == nil && f == abs {
			d2, p2 := scientific(two)
			if d2[1] != '0' {
				digits = append(digits[:0], d2...)
				point = p2
			}
		}
		// Otherwise the nearest two-digit decimal does not read back, and
		// the one-digit decimal is the closest that does.
	}
	return digits, point
}

// scientific splits strconv's 'e' output "d[.ddd]e±xx" in place into its
// digits and the DigitList point (exponent + 1).
func scientific(b []byte) (digits []byte, point int) {
	e := len(b) - 1
	for b[e] != 'e' {
		e--
	}
	exp, neg := 0, false
	for _, c := range b[e+1:] {
		switch c {
		case '-':
			neg = true
		case '+':
		default:
			exp = exp*10 + int(c-'0')
		}
	}
	if neg {
		exp = -exp
	}
	digits = b[:e]
	if len(digits) > 1 { // drop the '.' after the first digit
		copy(digits[1:], digits[2:])
		digits = digits[:len(digits)-1]
	}
	return digits, exp + 1
}
