package generator

import (
	"math"
	"testing"
)

// Every chooser satisfies Int.
var (
	_ Int = Constant{}
	_ Int = (*Uniform)(nil)
	_ Int = (*Zipfian)(nil)
	_ Int = (*ScrambledZipfian)(nil)
	_ Int = (*SkewedLatest)(nil)
	_ Int = (*Hotspot)(nil)
	_ Int = (*Sequential)(nil)
	_ Int = (*Exponential)(nil)
	_ Int = (*Histogram)(nil)
)

func TestFNVHash64(t *testing.T) {
	// The reference's Utils.fnvhash64 at 0.17.0, verified against Java.
	for _, c := range []struct{ in, want int64 }{
		{0, 6284781860667377211},
		{1, 8517097267634966620},
		{2, 1820151046732198393},
		{3, 4052466453699787802},
		{5, 1000385178204227360},
		{42, 55488592825689361},
		{999, 2071219101098386137},
		{1000, 5952875239596136740},
		{123456789, 2350796791908741607},
		{-1, 8289690350564177859},
	} {
		if got := FNVHash64(c.in); got != c.want {
			t.Errorf("FNVHash64(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

// fnvHash64Bytewise is the reference's loop as written, for checking the
// shortcut FNVHash64 takes for values below 2^32.
func fnvHash64Bytewise(v int64) int64 {
	h := uint64(0xCBF29CE484222325)
	for range 8 {
		h ^= uint64(v & 0xff)
		h *= 1099511628211
		v >>= 8
	}
	s := int64(h)
	if s < 0 {
		s = -s
	}
	return s
}

func TestFNVHash64Shortcut(t *testing.T) {
	vals := []int64{0, 1, 255, 256, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<40 - 1, 1e10,
		math.MaxInt64, math.MinInt64, -1, -(1 << 32), 1<<31 - 1, 1 << 31}
	r := newRand(3)
	for range 100000 {
		vals = append(vals, int64(r.Uint64()), int64(r.Uint64()>>32), int64(r.Uint64()>>(r.Uint64()%64)))
	}
	for _, v := range vals {
		if got, want := FNVHash64(v), fnvHash64Bytewise(v); got != want {
			t.Fatalf("FNVHash64(%d) = %d, want %d", v, got, want)
		}
	}
}

func TestConstant(t *testing.T) {
	r := newRand(1)
	if got := (Constant{V: -7}).Next(r); got != -7 {
		t.Errorf("Constant{-7}.Next = %d", got)
	}
}

func TestUniform(t *testing.T) {
	r := newRand(2)
	const lo, hi, n = 10, 109, 1_000_000
	u := NewUniform(lo, hi)
	obs := make([]int64, hi-lo+1)
	for range n {
		v := u.Next(r)
		if v < lo || v > hi {
			t.Fatalf("Next = %d, outside [%d, %d]", v, lo, hi)
		}
		obs[v-lo]++
	}
	if !chiSquareOK(t, "uniform[10,109]", obs, uniformP(len(obs))) {
		t.Error("uniform draws do not fit the uniform distribution")
	}
	// The same sample must be told apart from a linear ramp of +-10%.
	ramp := make([]float64, len(obs))
	for i := range ramp {
		ramp[i] = (0.9 + 0.2*float64(i)/float64(len(ramp)-1)) / float64(len(ramp))
	}
	if chiSquareOK(t, "uniform vs ramp", obs, ramp) {
		t.Error("chi-square cannot tell uniform from a 10% ramp")
	}
}

func TestUniformEdges(t *testing.T) {
	r := newRand(3)
	if v := NewUniform(5, 5).Next(r); v != 5 {
		t.Errorf("NewUniform(5,5).Next = %d", v)
	}
	// Whole int64 range: the top 4 bits must be uniform over 16 values.
	u := NewUniform(math.MinInt64, math.MaxInt64)
	obs := make([]int64, 16)
	for range 160_000 {
		obs[uint64(u.Next(r))>>60]++
	}
	if !chiSquareOK(t, "full range top bits", obs, uniformP(16)) {
		t.Error("full-range uniform is not uniform")
	}
	// A range wider than MaxInt64 still stays inside its bounds.
	w := NewUniform(-10, math.MaxInt64)
	for range 10_000 {
		if v := w.Next(r); v < -10 {
			t.Fatalf("NewUniform(-10, MaxInt64).Next = %d", v)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewUniform(2, 1) did not panic")
		}
	}()
	NewUniform(2, 1)
}
