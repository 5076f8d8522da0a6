package data

import (
	"encoding/hex"
	"testing"
)

// TestJavaCompare: the orders of Java's compareTo that differ from the
// bytes' (signed bytes and longs, -0.0, NaN, two's complement varints).
func TestJavaCompare(t *testing.T) {
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		k    genKind
		a, b string
		want int
	}{
		{gBytes, "80", "7f", -1},     // -128 < 127
		{gBytes, "01", "0100", -1},   // shorter first
		{gStrings, "41", "4142", -1}, // "A" < "AB"
		{gIntegers, "ffffffff", "00000000", -1},
		{gLongs, "8000000000000000", "7fffffffffffffff", -1},
		{gSmallInts, "8000", "0001", -1},
		{gTinyInts, "ff", "01", -1},
		{gVarints, "ff", "00", -1},                             // -1 < 0
		{gVarints, "0100", "7f", 1},                            // 256 > 127
		{gDecimals, "00000001" + "0f", "00000000" + "02", -1},  // 1.5 < 2
		{gDoubles, "8000000000000000", "0000000000000000", -1}, // -0.0 < 0.0
		{gDoubles, "7ff8000000000000", "7ff0000000000000", 1},  // NaN > +Inf
		{gFloats, "bf800000", "3f800000", -1},
		{gUUIDs, "80000000000000000000000000000000", "00000000000000000000000000000000", -1},
		{gTimeUUIDs, "0000000000000001" + "8000000000000000", "0000000000000001" + "0000000000000000", -1},
		{gBooleans, "00", "01", -1},
		{gLocalDates, "7fffffff", "80000000", -1},
	} {
		if got := javaCompare(c.k, h(c.a), h(c.b)); got != c.want {
			t.Errorf("kind %d: compare(%s, %s) = %d, want %d", c.k, c.a, c.b, got, c.want)
		}
		if got := javaCompare(c.k, h(c.b), h(c.a)); got != -c.want {
			t.Errorf("kind %d: compare(%s, %s) = %d, want %d", c.k, c.b, c.a, got, -c.want)
		}
	}
}
