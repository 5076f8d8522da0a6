package generator

import (
	"fmt"
	"math/rand/v2"
)

// Int is a source of int64 values. Implementations document whether one
// value may be shared by workers.
type Int interface {
	Next(r *rand.Rand) int64
}

// FNVHash64 is YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of v, least
// significant first, returned as Java's Math.abs of the signed result.
// Like Java, the one hash equal to math.MinInt64 stays negative.
func FNVHash64(v int64) int64 {
	const (
		offset = 0xCBF29CE484222325
		prime  = 1099511628211
		prime4 = 0x9ffaac085635bc91 // prime^4 mod 2^64
	)
	h := uint64(offset)
	if uint64(v) < 1<<32 {
		// Every key number below 2^32 and most zipfian ranks: a zero byte
		// only multiplies by the prime, so the four high bytes are one
		// multiply by prime^4, a shorter chain of dependent multiplies.
		for range 4 {
			h ^= uint64(v & 0xff)
			h *= prime
			v >>= 8
		}
		h *= prime4
	} else {
		for range 8 {
			h ^= uint64(v & 0xff)
			h *= prime
			v >>= 8
		}
	}
	s := int64(h)
	if s < 0 {
		s = -s // wraps for MinInt64, as Java's abs does
	}
	return s
}

// Constant always returns V. Shareable.
type Constant struct{ V int64 }

// Next returns c.V.
func (c Constant) Next(*rand.Rand) int64 { return c.V }

// Uniform draws uniformly from [lo, hi]. Shareable (stateless).
type Uniform struct {
	lo int64
	n  uint64 // hi-lo+1; 0 means the whole int64 range
}

// NewUniform returns a generator over the inclusive range [lo, hi]. It
// panics if lo > hi.
func NewUniform(lo, hi int64) *Uniform {
	if lo > hi {
		panic(fmt.Sprintf("generator: NewUniform(%d, %d): lo > hi", lo, hi))
	}
	return &Uniform{lo: lo, n: uint64(hi-lo) + 1}
}

// Next returns a value in [lo, hi]. YCSB uses abs(nextLong()) % interval,
// which has a modulo bias and a MinInt64 escape; an unbiased draw is the
// intended distribution.
func (u *Uniform) Next(r *rand.Rand) int64 {
	if u.n == 0 {
		return int64(r.Uint64())
	}
	return u.lo + int64(r.Uint64N(u.n))
}
