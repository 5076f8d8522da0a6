package javafmt

import (
	"math"
	"testing"
)

func TestOrdinal(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0th"},
		{math.Copysign(0, -1), "0th"},
		{1, "1st"},
		{2, "2nd"},
		{3, "3rd"},
		{4, "4th"},
		{11, "11th"},
		{12, "12th"},
		{13, "13th"},
		{21, "21st"},
		{22, "22nd"},
		{23, "23rd"},
		{50, "50th"},
		{90, "90th"},
		{95, "95th"},
		{99, "99th"},
		{100, "100th"},
		{101, "101st"},
		{111, "111th"},
		{112, "112th"},
		{99.9, "99.9"},
		{99.99, "99.99"},
		{99.999, "99.999"},
		{0.5, "0.5"},
		{1e10, "2147483647th"}, // (int) saturates, as in Java
		{-1, "-1st"},           // Java throws here
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
	}
	for _, tt := range tests {
		if got := Ordinal(tt.in); got != tt.want {
			t.Errorf("Ordinal(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
