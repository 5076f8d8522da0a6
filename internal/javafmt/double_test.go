package javafmt

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestDouble(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		// Specials.
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		// Plain notation keeps one fractional digit at least.
		{1, "1.0"},
		{2, "2.0"},
		{-2, "-2.0"},
		{500.5, "500.5"},
		{1672, "1672.0"},
		{40.46944556859571, "40.46944556859571"},
		{7038.453417169134, "7038.453417169134"},
		{1867.9526114135915, "1867.9526114135915"},
		{83333.25, "83333.25"},
		{2.0 / 3, "0.6666666666666666"},
		{0.1, "0.1"},
		{0.5, "0.5"},
		{100, "100.0"},
		{123456.0, "123456.0"},
		// The upper switch point, 10^7.
		{9999999, "9999999.0"},
		{9999999.5, "9999999.5"},
		{math.Nextafter(1e7, 0), "9999999.999999998"},
		{1e7, "1.0E7"},
		{-1e7, "-1.0E7"},
		{math.Nextafter(1e7, 2e7), "1.0000000000000002E7"},
		{12345678.9, "1.23456789E7"},
		{123456789.0, "1.23456789E8"},
		{1e21, "1.0E21"},
		{1e100, "1.0E100"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{-math.MaxFloat64, "-1.7976931348623157E308"},
		{math.MaxInt64, "9.223372036854776E18"},
		// The lower switch point, 10^-3.
		{0.001, "0.001"},
		{-0.001, "-0.001"},
		{0.0012345, "0.0012345"},
		{math.Nextafter(0.001, 0), "9.999999999999998E-4"},
		{0.0009, "9.0E-4"},
		{0.0001, "1.0E-4"},
		{-2.5e-5, "-2.5E-5"},
		{0.009, "0.009"},
		{0.01, "0.01"},
		{1e-300, "1.0E-300"},
		{math.SmallestNonzeroFloat64 * (1 << 52), "2.2250738585072014E-308"},
		// JDK 19+ no longer adds the spurious digit of JDK-4511638.
		{2e23, "2.0E23"},
		{1e23, "1.0E23"},
		{8.41e21, "8.41E21"},
		{5e-324, "4.9E-324"}, // Double.MIN_VALUE: two digits, closest to the value
	}
	for _, tt := range tests {
		if got := Double(tt.in); got != tt.want {
			t.Errorf("Double(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(AppendDouble([]byte("x="), tt.in)); got != "x="+tt.want {
			t.Errorf("AppendDouble(%v) = %q, want %q", tt.in, got, "x="+tt.want)
		}
	}
}

// TestDoubleSubnormalTwoDigits scans the smallest subnormals, the only
// doubles where Java's two-digit rule departs from the plain shortest digits.
// The eight exceptions are those JDK 19+ prints (2·MIN_VALUE as 9.9E-324 is
// the example of the JDK 19 release note on Double.toString).
func TestDoubleSubnormalTwoDigits(t *testing.T) {
	want := map[uint64]string{
		1:  "4.9E-324",
		2:  "9.9E-324",
		10: "4.9E-323",
		12: "5.9E-323",
		14: "6.9E-323",
		16: "7.9E-323",
		18: "8.9E-323",
		20: "9.9E-323",
	}
	for bits := uint64(1); bits <= 200000; bits++ {
		x := math.Float64frombits(bits)
		got := Double(x)
		if w, ok := want[bits]; ok {
			if got != w {
				t.Errorf("Double(bits %d) = %q, want %q", bits, got, w)
			}
			continue
		}
		if plain := goShortest(x); got != plain {
			t.Errorf("Double(bits %d) = %q, want the shortest form %q", bits, got, plain)
		}
	}
}

// goShortest renders x with strconv's shortest digits in Java's scientific
// layout, for comparison with values below 10^-3.
func goShortest(x float64) string {
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

func BenchmarkAppendDouble(b *testing.B) {
	buf := make([]byte, 0, 32)
	for i := 0; b.Loop(); i++ {
		buf = AppendDouble(buf[:0], 7038.453417169134+float64(i))
	}
}
