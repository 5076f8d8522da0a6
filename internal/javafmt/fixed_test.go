package javafmt

import (
	"math"
	"testing"
)

func TestFixed(t *testing.T) {
	tests := []struct {
		v       float64
		prec    int
		grouped bool
		want    string
	}{
		{0.15, 1, false, "0.2"}, // HALF_UP on the shortest digits, not the binary value
		{2.5, 0, false, "3"},
		{0.0045, 3, false, "0.005"}, // the binary value is below the half
		{4961.4, 0, true, "4,961"},
		{1234567.891, 1, true, "1,234,567.9"},
		{999.96, 1, true, "1,000.0"}, // a carry out of the top digit
		{0, 5, false, "0.00000"},
		{0, 0, false, "0"},
		{0.000004, 5, false, "0.00000"},
		{0.000005, 5, false, "0.00001"},
		{9.96, 1, false, "10.0"},
		{-2.96095, 5, false, "-2.96095"},
		{-0.0004, 2, false, "0.00"},
		{math.Copysign(0, -1), 2, false, "0.00"},
		{math.NaN(), 2, false, "NaN"},
		{math.Inf(1), 2, true, "Infinity"},
		{math.Inf(-1), 2, false, "-Infinity"},
	}
	for _, tt := range tests {
		f := Fixed
		if tt.grouped {
			f = FixedGrouped
		}
		if got := f(tt.v, tt.prec); got != tt.want {
			t.Errorf("Fixed(%v, %d) grouped %t = %q, want %q", tt.v, tt.prec, tt.grouped, got, tt.want)
		}
	}
}

func TestGrouped(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {-1000, "-1,000"}, {-1234567, "-1,234,567"}, {123456, "123,456"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	}
	for _, tt := range tests {
		if got := Grouped(tt.n); got != tt.want {
			t.Errorf("Grouped(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestFloat(t *testing.T) {
	tests := []struct {
		f    float32
		want string
	}{
		{0.1, "0.1"}, {1, "1.0"}, {-2.5, "-2.5"}, {1e7, "1.0E7"}, {1e-4, "1.0E-4"}, {3.4028235e38, "3.4028235E38"},
		{math.SmallestNonzeroFloat32, "1.4E-45"}, // Java's two-digit subnormal rule, as for Double
		{float32(math.Inf(1)), "Infinity"}, {float32(math.NaN()), "NaN"},
	}
	for _, tt := range tests {
		if got := Float(tt.f); got != tt.want {
			t.Errorf("Float(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
