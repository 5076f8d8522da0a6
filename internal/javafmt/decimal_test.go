package javafmt

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestDecimal2(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{5061.3, "5061.3"}, // a status line of the reference
		{165.44, "165.44"},
		{0, "0"},
		{1, "1"},
		{10000000, "10000000"}, // no grouping, no exponent
		{1234567.891, "1234567.89"},
		{12.345, "12.35"}, // the binary value is above the tie
		{12.355, "12.36"},
		{2.675, "2.67"}, // the binary value is below the tie
		{1.005, "1"},
		{0.125, "0.12"}, // exact ties go to the even digit
		{0.375, "0.38"},
		{2.5, "2.5"},
		{0.5, "0.5"}, // "#." still prints one integer digit
		{0.05, "0.05"},
		{0.995, "0.99"},
		{0.9951, "1"},
		{999.995, "1000"},
		{99.995, "100"},
		{9.995, "9.99"},
		{0.005, "0.01"},
		{0.0049, "0"},
		{0.006, "0.01"},
		{0.001, "0"},
		{2.0 / 3, "0.67"},
		{-1.5, "-1.5"},
		{-0.006, "-0.01"},
		// Java keeps the sign of values that print as zero.
		{math.Copysign(0, -1), "-0"},
		{-0.001, "-0"},
		{-1e-300, "-0"},
		{math.SmallestNonzeroFloat64, "0"},
		// Large values print the shortest digits, zero-padded.
		{1e15, "1000000000000000"},
		{1125899906842624.25, "1125899906842624.2"},
		{4503599627370496.5, "4503599627370496"},
		{1e23, "100000000000000000000000"},
		{math.Inf(1), "∞"},
		{math.Inf(-1), "-∞"},
		{math.NaN(), "NaN"}, // our choice, see the doc comment
	}
	for _, tt := range tests {
		if got := Decimal2(tt.in); got != tt.want {
			t.Errorf("Decimal2(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDecimal2JDK checks the vectors printed by a real JDK's DecimalFormat.
func TestDecimal2JDK(t *testing.T) {
	f, err := os.Open("testdata/decimal2_jdk17.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		hex, want, ok := strings.Cut(line, "\t")
		bits, err := strconv.ParseUint(hex, 16, 64)
		if !ok || err != nil {
			t.Fatalf("bad line %q", line)
		}
		x := math.Float64frombits(bits)
		if got := Decimal2(x); got != want {
			t.Errorf("Decimal2(%v) = %q, JDK prints %q", x, got, want)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 3000 {
		t.Fatalf("only %d vectors read", n)
	}
}
