package javafmt

import (
	"math"
	"strconv"
	"strings"
)

// Fixed returns v as Java's String.format("%.<prec>f", v) prints it in an
// English locale. Java rounds HALF_UP from the shortest decimal that reads
// back as v (FormattedFloatingDecimal), so 0.15 prints "0.2" where Go's
// exact-value rounding prints "0.1". NaN and the infinities print as
// "NaN", "Infinity" and "-Infinity". A negative that rounds to zero, and
// -0, print without a sign, where Java keeps it.
func Fixed(v float64, prec int) string { return fixed(v, prec, false) }

// FixedGrouped is Fixed with the integer part grouped by thousands, as
// "%,.<prec>f" prints it ("1,234.5").
func FixedGrouped(v float64, prec int) string { return fixed(v, prec, true) }

// Grouped returns n as Java's String.format("%,d", n) prints it in an
// English locale: "1,234,567", "-1,000".
func Grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + group(s[1:])
	}
	return group(s)
}

func fixed(v float64, prec int, grouped bool) string {
	if s, ok := nonFinite(v, "Infinity"); ok {
		return s
	}
	neg := math.Signbit(v) && v != 0
	if neg {
		v = -v
	}
	ip, fp := roundHalfUp(v, prec)
	if grouped {
		ip = group(ip)
	}
	out := ip
	if prec > 0 {
		out += "." + fp
	}
	if neg && strings.Trim(out, "0.,") != "" {
		out = "-" + out
	}
	return out
}

// roundHalfUp returns the integer and fractional digits of abs rounded
// HALF_UP to prec fractional digits, from its shortest decimal digits.
func roundHalfUp(abs float64, prec int) (ip, fp string) {
	var d []byte
	if abs != 0 {
		var buf [32]byte
		digits, point := shortest(buf[:0], abs, 64)
		d = halfUp(digits, point+prec)
	}
	// d now holds the digits of round(abs × 10^prec), the integer part
	// first.
	intLen := len(d) - prec
	if intLen <= 0 {
		ip = "0"
		fp = strings.Repeat("0", -intLen) + string(d)
	} else {
		ip, fp = string(d[:intLen]), string(d[intLen:])
	}
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	return ip, fp
}

// halfUp keeps the first keep digits, padded with zeros or rounded half up
// on the next one; a carry out of the top digit adds one.
func halfUp(digits []byte, keep int) []byte {
	switch {
	case keep < 0:
		return nil
	case keep >= len(digits):
		return append([]byte(string(digits)), strings.Repeat("0", keep-len(digits))...)
	}
	d := []byte(string(digits[:keep]))
	if digits[keep] < '5' {
		return d
	}
	i := len(d) - 1
	for ; i >= 0; i-- {
		if d[i] == '9' {
			d[i] = '0'
			continue
		}
		d[i]++
		break
	}
	if i < 0 {
		d = append([]byte{'1'}, d...)
	}
	return d
}

// group puts a ',' between each group of three digits of s, from the right.
func group(s string) string {
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	b.WriteString(s[:pre])
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// nonFinite is how Java prints NaN and the infinities, with infinity
// spelled inf; ok is false for a finite f.
func nonFinite(f float64, inf string) (s string, ok bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return inf, true
	case math.IsInf(f, -1):
		return "-" + inf, true
	}
	return "", false
}
