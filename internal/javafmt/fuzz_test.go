package javafmt

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// javaShape is Double.toString's grammar: plain with at least one
// fractional digit, or one digit, a fraction and an exponent without '+'.
var (
	plainShape = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,6})\.[0-9]+$`)
	sciShape   = regexp.MustCompile(`^-?[1-9]\.[0-9]+E-?[1-9][0-9]*$`)
)

// FuzzDouble checks, for any bit pattern, that Double reads back as the same
// float64, has Java's shape for its magnitude, and is never longer than the
// shortest digits (one more only where Java's two-digit rule applies).
func FuzzDouble(f *testing.F) {
	for _, x := range []float64{0, 1, 500.5, 1e7, 9999999.999999998, 0.001, 9.999999999999998e-4,
		5e-324, 1e-323, math.MaxFloat64, 2e23, 2.0 / 3, -2.5e-5, math.NaN(), math.Inf(-1)} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		s := Double(x)
		switch {
		case math.IsNaN(x):
			if s != "NaN" {
				t.Fatalf("Double(NaN) = %q", s)
			}
			return
		case math.IsInf(x, 0) || x == 0:
			return // covered by TestDouble
		}
		back, err := strconv.ParseFloat(strings.Replace(s, "E", "e", 1), 64)
		if err != nil || back != x {
			t.Fatalf("Double(%b) = %q reads back as %v (%v)", x, s, back, err)
		}
		abs := math.Abs(x)
		if plain := abs >= 1e-3 && abs < 1e7; plain && !plainShape.MatchString(s) || !plain && !sciShape.MatchString(s) {
			t.Fatalf("Double(%v) = %q has not Java's shape", x, s)
		}
		got := sigDigits(s)
		want := sigDigits(strconv.FormatFloat(x, 'e', -1, 64))
		if got != want && !(want == 1 && got == 2 && abs < 0x1p-1022) {
			t.Fatalf("Double(%v) = %q has %d significant digits, shortest has %d", x, s, got, want)
		}
	})
}

// sigDigits counts the significant digits of a decimal string, ignoring
// sign, exponent, leading zeros and trailing zeros.
func sigDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	return len(strings.TrimRight(s, "0"))
}
