package data

import "math"

// jrand is java.util.Random: the 48-bit LCG that commons-math3's
// JDKRandomGenerator (and so every distribution the original builds in
// settings/OptionDistribution.java) draws from. Reproduced bit for bit
// because the original seeds it from the population index to choose key
// bytes and column sizes.
type jrand struct {
	seed         int64
	nextGaussian float64
	haveGaussian bool
}

const (
	jrandMult = 0x5DEECE66D
	jrandMask = 1<<48 - 1
)

func (r *jrand) setSeed(seed int64) {
	r.seed = (seed ^ jrandMult) & jrandMask
	r.haveGaussian = false
}

func (r *jrand) next(bits uint) int32 {
	r.seed = (r.seed*jrandMult + 0xB) & jrandMask
	return int32(uint64(r.seed) >> (48 - bits))
}

// nextLong adds the low word as a signed int, as Java does.
func (r *jrand) nextLong() int64 {
	hi := int64(r.next(32)) << 32
	return hi + int64(r.next(32))
}

// Float64 is Random.nextDouble.
func (r *jrand) Float64() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / (1 << 53))
}

// NormFloat64 is Random.nextGaussian: Marsaglia's polar method with
// StrictMath (fdlibm) log, keeping the second value for the next call.
func (r *jrand) NormFloat64() float64 {
	if r.haveGaussian {
		r.haveGaussian = false
		return r.nextGaussian
	}
	var v1, v2, s float64
	for {
		v1 = float64(2*r.Float64()) - 1
		v2 = float64(2*r.Float64()) - 1
		s = float64(v1*v1) + float64(v2*v2)
		if s < 1 && s != 0 {
			break
		}
	}
	m := math.Sqrt(float64(-2*fdlibmLog(s)) / s)
	r.nextGaussian = float64(v2 * m)
	r.haveGaussian = true
	return float64(v1 * m)
}

// ExpFloat64 is the unit-mean part of commons-math3 3.2's
// ExponentialDistribution.sample (Ahrens and Dieter's algorithm SA, 1972):
// the original returns mean times this value.
func (r *jrand) ExpFloat64() float64 {
	q := &expSAQi
	a := 0.0
	u := r.Float64()
	for u < 0.5 {
		a += q[0]
		u *= 2
	}
	u += u - 1
	if u <= q[0] {
		return a + u
	}
	i := 0
	umin := r.Float64()
	for {
		i++
		if u2 := r.Float64(); u2 < umin {
			umin = u2
		}
		if u <= q[i] {
			break
		}
	}
	return a + float64(umin*q[0])
}

// expSAQi is commons-math3's EXPONENTIAL_SA_QI table (the partial sums of
// ln2^i/i!), as the library computes it, dumped from the class as bit
// patterns so that the sums round exactly as they do in Java.
var expSAQi = func() [16]float64 {
	bits := [16]uint64{
		4604418534313441775, 4606582302327892818, 4607082238894093662, 4607168871299423896,
		4607180881100923852, 4607182268527598648, 4607182405912011201, 4607182417815463478,
		4607182418732223965, 4607182418795768960, 4607182418799773145, 4607182418800004436,
		4607182418800016768, 4607182418800017379, 4607182418800017407, 4607182418800017408,
	}
	var q [16]float64
	for i, b := range bits {
		q[i] = math.Float64frombits(b)
	}
	return q
}()

// fdlibmLog is fdlibm's __ieee754_log, which Java's StrictMath.log is
// defined to return. Go's math.Log uses a shorter reduction (and assembly on
// amd64) that can differ in the last bit; explicit float64 conversions stop
// the compiler from fusing multiply-adds.
func fdlibmLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		two54 = 1.80143985094819840000e+16
		lg1   = 6.666666666666735130e-01
		lg2   = 3.999999999940941908e-01
		lg3   = 2.857142874366239149e-01
		lg4   = 2.222219843214978396e-01
		lg5   = 1.818357216161805012e-01
		lg6   = 1.531383769920937332e-01
		lg7   = 1.479819860511658591e-01
	)
	b := math.Float64bits(x)
	hx := int32(b >> 32)
	lx := uint32(b)
	k := int32(0)
	if hx < 0x00100000 {
		if hx&0x7fffffff == 0 && lx == 0 {
			return math.Inf(-1)
		}
		if hx < 0 {
			return math.NaN()
		}
		k -= 54
		x *= two54
		b = math.Float64bits(x)
		hx = int32(b >> 32)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	b = math.Float64bits(x)
	x = math.Float64frombits(uint64(uint32(hx|(i^0x3ff00000)))<<32 | b&0xffffffff)
	k += i >> 20
	f := x - 1.0
	if 0x000fffff&(2+hx) < 3 {
		if f == 0 {
			if k == 0 {
				return 0
			}
			dk := float64(k)
			return float64(dk*ln2Hi) + float64(dk*ln2Lo)
		}
		R := float64(float64(f*f) * float64(0.5-float64(0.33333333333333333*f)))
		if k == 0 {
			return f - R
		}
		dk := float64(k)
		return float64(dk*ln2Hi) - ((R - float64(dk*ln2Lo)) - f)
	}
	s := f / (2.0 + f)
	dk := float64(k)
	z := float64(s * s)
	i = hx - 0x6147a
	w := float64(z * z)
	j := 0x6b851 - hx
	t1 := float64(w * float64(lg2+float64(w*float64(lg4+float64(w*lg6)))))
	t2 := float64(z * float64(lg1+float64(w*float64(lg3+float64(w*float64(lg5+float64(w*lg7)))))))
	i |= j
	R := t2 + t1
	if i > 0 {
		hfsq := float64(float64(0.5*f) * f)
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+R)))
		}
		return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(dk*ln2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-R))
	}
	return float64(dk*ln2Hi) - ((float64(s*(f-R)) - float64(dk*ln2Lo)) - f)
}

// fasterRandom is the original's generate/FasterRandom.java, which fills
// blob column values: an xorshift whose state is re-derived through
// java.util.Random every 32 draws. The shifts right are arithmetic, as
// Java's >> on long.
type fasterRandom struct {
	r      jrand
	seed   int64
	reseed int
}

func (f *fasterRandom) setSeed(seed int64) {
	f.seed = seed
	f.rollover()
}

func (f *fasterRandom) rollover() {
	f.reseed = 0
	f.r.setSeed(f.seed)
	f.seed = f.r.nextLong()
}

func (f *fasterRandom) nextLong() int64 {
	f.reseed++
	if f.reseed == 32 {
		f.rollover()
	}
	s := f.seed
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	f.seed = s
	return s * 2685821657736338717
}

// javaLong is Java's (long) cast of a double: toward zero, NaN to 0,
// saturating at the int64 limits (Go leaves those cases undefined).
func javaLong(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= 9223372036854775807:
		return math.MaxInt64
	case v <= -9223372036854775808:
		return math.MinInt64
	}
	return int64(v)
}
