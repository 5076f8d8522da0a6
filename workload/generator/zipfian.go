package generator

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// Zipfian draws from [min, max] with rank 0 (min) the most popular, using
// Gray et al.'s algorithm as YCSB's ZipfianGenerator does. It is not
// shareable: NextN updates zeta when the item count grows. Give each worker
// its own, e.g. via Clone.
type Zipfian struct {
	base         int64
	items        int64 // item count at construction; kept for the eta quirk
	countForZeta int64 // item count zetan currently covers
	theta        float64
	alpha        float64
	zeta2theta   float64
	zetan        float64
	eta          float64
	rank1Bound   float64 // 1 + 0.5^theta: u*zetan below this gives rank <= 1
	intAlpha     uint    // alpha as a whole number when it is one (theta 0.99 gives 100), else 0
}

// NewZipfian returns a Zipfian over [min, max] (max-min+1 items) with the
// given theta, computing zeta for the item count. It panics unless theta is
// positive, finite and not 1.
// An empty range (max < min) is allowed, as YCSB allows it for "latest" over
// an empty table: Next then returns min.
func NewZipfian(min, max int64, theta float64) *Zipfian {
	checkTheta("NewZipfian", theta)
	return NewZipfianWithZeta(min, max, theta, Zeta(max-min+1, theta))
}

// NewZipfianWithZeta is NewZipfian with a precomputed zeta(max-min+1, theta).
func NewZipfianWithZeta(min, max int64, theta, zetan float64) *Zipfian {
	checkTheta("NewZipfianWithZeta", theta)
	items := max - min + 1
	count := items
	if count < 0 {
		count = 0 // extending from a negative count would add 1/0^theta
	}
	z := &Zipfian{
		base:         min,
		items:        items,
		countForZeta: count,
		theta:        theta,
		alpha:        1 / (1 - theta),
		intAlpha:     wholeExponent(1 / (1 - theta)),
		zeta2theta:   zetaStatic(0, 2, theta, 0),
		zetan:        zetan,
		rank1Bound:   1 + math.Pow(0.5, theta),
	}
	z.eta = z.computeEta()
	return z
}

func checkTheta(fn string, theta float64) {
	// Gray's method holds on both sides of 1 (alpha < 0 above it), but theta
	// 1 makes alpha infinite and theta 0 returns max+1.
	if !(theta > 0) || theta == 1 || math.IsInf(theta, 1) {
		panic(fmt.Sprintf("generator: %s: theta %v must be positive, finite and not 1", fn, theta))
	}
}

// computeEta keeps the construction-time items in the (2/items) term after
// zeta has grown, as YCSB does. This quirk shifts the low ranks of a grown
// generator: ranks 2 up to 2*n/items-1 are never returned. For items <= 2
// that eta is degenerate (YCSB then returns constant or out-of-range ranks),
// so there the current count is used instead.
func (z *Zipfian) computeEta() float64 {
	n := z.items
	if n <= 2 {
		n = z.countForZeta
	}
	return (1 - math.Pow(2/float64(n), 1-z.theta)) / (1 - z.zeta2theta/z.zetan)
}

// Clone returns an independent copy, cheaper than recomputing zeta.
func (z *Zipfian) Clone() *Zipfian {
	c := *z
	return &c
}

// Next is NextN over the construction-time item count.
func (z *Zipfian) Next(r *rand.Rand) int64 { return z.NextN(r, z.items) }

// NextN is YCSB's nextLong(itemcount): a draw from [min, min+itemCount-1].
// When itemCount exceeds the count zeta covers, zeta is extended by the new
// terms; a smaller itemCount keeps the larger zeta, as in YCSB.
func (z *Zipfian) NextN(r *rand.Rand, itemCount int64) int64 {
	if itemCount > z.countForZeta {
		z.zetan = zetaStatic(z.countForZeta, itemCount, z.theta, z.zetan)
		z.countForZeta = itemCount
		z.eta = z.computeEta()
	}
	return z.draw(r, itemCount)
}

// draw never writes to z, so read-only users (ScrambledZipfian) may share z.
func (z *Zipfian) draw(r *rand.Rand, n int64) int64 {
	u := r.Float64()
	uz := u * z.zetan
	if uz < 1 {
		return z.base
	}
	if uz < z.rank1Bound {
		return z.base + 1
	}
	x := z.eta*u - z.eta + 1
	var f float64
	if z.intAlpha != 0 && x >= 0 {
		f = float64(n) * powUint(x, z.intAlpha)
	} else {
		f = float64(n) * math.Pow(x, z.alpha)
	}
	if !(f >= 0) {
		f = 0 // NaN (eta 0/0 at two items): Java's (long) cast gives 0
	}
	v := int64(f)
	if v >= n && n > 0 {
		v = n - 1 // u close to 1 can round up to n
	}
	return z.base + v
}

const (
	scrambledItemCount = 10_000_000_000
	// scrambledZetan is YCSB's ZETAN: zeta over 10^10 items at theta 0.99,
	// although the inner generator has 10^10+1 items. Kept for compatibility.
	scrambledZetan = 26.46902820178302
	scrambledTheta = 0.99
)

// ScrambledZipfian spreads a Zipfian over 10^10+1 ranks across [min, max]
// by hashing, so popular keys are scattered. Shareable: read-only after
// construction.
type ScrambledZipfian struct {
	min, n int64
	m      uint64 // floor((2^64-1)/n), for mod without a division
	z      *Zipfian
}

// NewScrambledZipfian returns YCSB's ScrambledZipfianGenerator over
// [min, max]. theta 0.99 uses YCSB's precomputed zeta; any other theta
// computes zeta over 10^10+1 items (fast, see Zeta). It panics if max < min.
func NewScrambledZipfian(min, max int64, theta float64) *ScrambledZipfian {
	n := max - min + 1
	if n <= 0 {
		panic(fmt.Sprintf("generator: NewScrambledZipfian(%d, %d): empty or overflowing range", min, max))
	}
	var z *Zipfian
	if theta == scrambledTheta {
		z = NewZipfianWithZeta(0, scrambledItemCount, theta, scrambledZetan)
	} else {
		z = NewZipfian(0, scrambledItemCount, theta)
	}
	return &ScrambledZipfian{min: min, n: n, m: ^uint64(0) / uint64(n), z: z}
}

// Next returns min + fnvhash64(rank) % itemcount.
func (s *ScrambledZipfian) Next(r *rand.Rand) int64 {
	h := FNVHash64(s.z.draw(r, s.z.items))
	if h < 0 { // MinInt64, fnvhash64's one negative value: Java's % keeps the sign
		return s.min + h%s.n
	}
	return s.min + int64(mod(uint64(h), uint64(s.n), s.m))
}

// mod is x % n with m = floor((2^64-1)/n): the estimated quotient is at most
// one short, so one correction gives the exact remainder, without the
// 64-bit division that is a good part of a draw.
func mod(x, n, m uint64) uint64 {
	q, _ := bits.Mul64(x, m)
	r := x - q*n
	if r >= n {
		r -= n
	}
	return r
}

// SkewedLatest favours the most recently acknowledged keys: YCSB's
// SkewedLatestGenerator. Per worker (it owns a growing Zipfian); Clone it
// rather than rebuilding zeta for every worker.
type SkewedLatest struct {
	basis *AcknowledgedCounter
	z     *Zipfian
}

// NewSkewedLatest builds the generator over basis with basis.Last() items.
func NewSkewedLatest(basis *AcknowledgedCounter, theta float64) *SkewedLatest {
	return &SkewedLatest{basis: basis, z: NewZipfian(0, basis.Last()-1, theta)}
}

// Clone returns a copy sharing basis but owning its own Zipfian state.
func (s *SkewedLatest) Clone() *SkewedLatest {
	return &SkewedLatest{basis: s.basis, z: s.z.Clone()}
}

// Next returns max - zipfian.NextN(max) with max = basis.Last(), a value in
// [1, max] (YCSB never returns key 0 here).
func (s *SkewedLatest) Next(r *rand.Rand) int64 {
	max := s.basis.Last()
	return max - s.z.NextN(r, max)
}

// wholeExponent returns alpha rounded when it is within 1e-9 of a whole
// number in [1, 1024], else 0. YCSB's theta 0.99 gives alpha =
// 99.99999999999991; x^100 differs from that power by a factor below 1e-10,
// far under the rounding of the rank to an integer.
func wholeExponent(alpha float64) uint {
	r := math.Round(alpha)
	if r >= 1 && r <= 1024 && math.Abs(alpha-r) < 1e-9 {
		return uint(r)
	}
	return 0
}

// powUint is x^n by repeated squaring: a handful of multiplications instead
// of math.Pow's exp/log, on the hottest path of a zipfian benchmark.
func powUint(x float64, n uint) float64 {
	r := 1.0
	for n > 0 {
		if n&1 != 0 {
			r *= x
		}
		x *= x
		n >>= 1
	}
	return r
}
