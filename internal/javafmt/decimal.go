package javafmt

import (
	"math"
	"math/big"
)

// Decimal2 returns f as new java.text.DecimalFormat("#.##").format(f) prints
// it in an English locale: at most two fractional digits, rounded HALF_EVEN,
// trailing zeros dropped, no grouping, '.' as separator, and no decimal point
// for whole numbers ("5061.3", "12.35", "0.5", "0"). Java turns the "#."
// prefix into one minimum integer digit, hence "0.5" rather than ".5". The
// quirks of the pattern are kept on purpose:
//
//   - The sign is that of f, so -0.0 and small negatives that round to zero
//     print "-0".
//   - Infinities print as "∞" and "-∞" (DecimalFormatSymbols.getInfinity).
//   - NaN prints as "NaN". Java prints DecimalFormatSymbols.getNaN(), which is
//     "NaN" with the CLDR locale data of JDK 9 and later but U+FFFD with the
//     JRE data of JDK 8; we pick the readable one.
//
// Like Java's DigitList, the rounding starts from the shortest decimal that
// reads back as f and only looks at the exact binary value to break a tie on
// its last digit. For |f| < 2^46 that is the same as rounding the exact
// binary value (2.675 prints "2.67"); above, a value that the shortest digits
// already show with at most two decimals is printed as those digits.
// DecimalFormat takes its digits from FloatingDecimal's older algorithm
// (checked on JDK 17), which now and then gives a 17th digit where the
// shortest form has 16, so the two can differ above 10^15 (2e23 prints
// "199999999999999980000000" there, "200000000000000000000000" here).
func Decimal2(f float64) string {
	const maxFrac = 2 // the "##" after the point
	if s, ok := nonFinite(f, "∞"); ok {
		return s
	}
	var out [48]byte
	b := out[:0]
	if math.Signbit(f) {
		b = append(b, '-')
		f = -f
	}
	var buf [32]byte
	var digits []byte
	point := 0
	if f != 0 {
		digits, point = shortest(buf[:0], f, 64)
		digits, point = roundHalfEven(digits, point, point+maxFrac, f)
	}
	if point <= 0 {
		b = append(b, '0')
	}
	for i := 0; i < point; i++ { // integer part, zero-padded
		if i < len(digits) {
			b = append(b, digits[i])
		} else {
			b = append(b, '0')
		}
	}
	if frac := max(point, 0); len(digits) > frac {
		b = append(b, '.')
		b = appendZeros(b, -point)
		b = append(b, digits[frac:]...)
	}
	return string(b)
}

// roundHalfEven keeps the first keep digits of 0.DIGITS × 10^point, as
// DigitList.set(…, fixedPoint=true) followed by round() does, and drops
// trailing zeros. abs is the exact value the digits stand for.
func roundHalfEven(digits []byte, point, keep int, abs float64) ([]byte, int) {
	switch {
	case keep < 0: // e.g. 0.0009 to two decimals: underflow to zero
		return nil, point
	case keep >= len(digits):
		return digits, point
	case !roundUp(digits, point, keep, abs):
		digits = digits[:keep]
	default:
		i := keep - 1
		for ; i >= 0 && digits[i] == '9'; i-- {
		}
		if i < 0 { // 0.999 → 1, 0.006 → 0.01 (keep == 0)
			digits = append(digits[:0], '1')
			point++
		} else {
			digits[i]++
			digits = digits[:i+1]
		}
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits, point
}

// roundUp is DigitList.shouldRoundUp for HALF_EVEN: the decision is taken on
// the digits, and a trailing '5' is a tie only if the digits are the exact
// binary value; if they were rounded up from it Java rounds down, and if they
// fall short of it, up.
func roundUp(digits []byte, point, keep int, abs float64) bool {
	switch d := digits[keep]; {
	case d > '5':
		return true
	case d < '5':
		return false
	case keep < len(digits)-1: // a non-zero digit follows the 5
		return true
	}
	switch cmpExact(digits, point, abs) {
	case 1:
		return false
	case -1:
		return true
	}
	return keep > 0 && (digits[keep-1]-'0')%2 == 1
}

// cmpExact compares the decimal 0.DIGITS × 10^point with abs exactly. It is
// only reached for a tie on the last shortest digit, so its cost is rare.
func cmpExact(digits []byte, point int, abs float64) int {
	var n big.Int
	n.SetString(string(digits), 10)
	dec := new(big.Rat).SetInt(&n)
	if e := point - len(digits); e != 0 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs64(e))), nil)
		if e > 0 {
			dec.Mul(dec, new(big.Rat).SetInt(p))
		} else {
			dec.Quo(dec, new(big.Rat).SetInt(p))
		}
	}
	return dec.Cmp(new(big.Rat).SetFloat64(abs))
}

func abs64(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
