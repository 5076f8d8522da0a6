package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync/atomic"

	"github.com/goycsb/ycsb/frontend/stress/settings"
)

// Kind is a distribution family of the original's -pop dist=, -col size=,
// n=, add= and the like (settings/OptionDistribution.java).
type Kind uint8

// The families, with the names (and aliases) the original accepts.
const (
	Fixed    Kind = iota // FIXED(v)
	Uniform              // UNIFORM(min..max)
	Gaussian             // GAUSSIAN(min..max[,stdvrng]) or GAUSSIAN(min..max,mean,stdev); gauss, normal, norm
	Exp                  // EXP(min..max)
	Extreme              // EXTREME(min..max,shape), Weibull; extr
	QExtreme             // QEXTREME(min..max,shape,quantas); qextr
	Seq                  // SEQ(min..max)
)

var kindNames = [...]string{"FIXED", "UNIFORM", "GAUSSIAN", "EXP", "EXTREME", "QEXTREME", "SEQ"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Sampler draws one value per call. Its state, if any, lives in the
// caller's *rand.Rand: give each worker its own generator and share the
// Sampler.
type Sampler interface {
	Next(r *rand.Rand) int64
}

// Dist is a parsed distribution. It is immutable and safe to share between
// workers (it is a Sampler); only SEQ keeps state, one atomic counter for
// every worker, as the original's DistributionSequence does with its
// AtomicLong.
type Dist struct {
	kind     Kind
	inverted bool
	min, max int64 // the range as written; for FIXED both are the value

	mean, stdev  float64 // GAUSSIAN; EXP uses mean
	shape, scale float64 // EXTREME, QEXTREME
	bounds       []int64 // QEXTREME quanta boundaries

	wmin, wmax int64 // the un-inverted distribution's min and max values

	seq  *atomic.Int64
	spec string
}

// Kind reports the family; Inverted whether the spec began with ~.
func (d *Dist) Kind() Kind      { return d.kind }
func (d *Dist) Inverted() bool  { return d.inverted }
func (d *Dist) String() string  { return d.spec }
func (d *Dist) Min() int64      { return d.min }
func (d *Dist) Max() int64      { return d.max }
func (d *Dist) Mean() float64   { return d.mean }
func (d *Dist) Stdev() float64  { return d.stdev }
func (d *Dist) Shape() float64  { return d.shape }
func (d *Dist) Scale() float64  { return d.scale }
func (d *Dist) Quantas() int    { return max(len(d.bounds)-1, 0) }
func (d *Dist) MinValue() int64 { return d.InverseCumProb(0) }
func (d *Dist) MaxValue() int64 { return d.InverseCumProb(1) }

// Most and Least are the largest and the smallest value d draws: MaxValue
// and MinValue, the other way round for an inverted distribution (whose
// MaxValue, as the original's maxValue, is its smallest).
func (d *Dist) Most() int64  { return max(d.MinValue(), d.MaxValue()) }
func (d *Dist) Least() int64 { return min(d.MinValue(), d.MaxValue()) }

// ParseDist parses a distribution with frontend/stress/settings' grammar (the
// original's OptionDistribution: its names, aliases and degenerate cases,
// such as a range with min == max being FIXED(min)) and returns its
// sampler. String returns spec as given.
func ParseDist(spec string) (*Dist, error) {
	sp, err := settings.ParseDist(spec)
	if err != nil {
		return nil, err
	}
	d := FromSpec(sp)
	d.spec = spec
	return d, nil
}

// MustParseDist is ParseDist for specs known to be valid, such as defaults.
func MustParseDist(spec string) *Dist {
	d, err := ParseDist(spec)
	if err != nil {
		panic(err)
	}
	return d
}

// FromSpec is the sampler of a parsed distribution; String returns the
// spec's canonical form.
func FromSpec(sp settings.Dist) *Dist {
	lo, hi := sp.Min, sp.Max
	var d *Dist
	switch sp.Kind {
	case settings.DistFixed:
		d = fixedDist(lo)
	case settings.DistUniform:
		d = &Dist{kind: Uniform, min: lo, max: hi}
	case settings.DistGaussian:
		d = &Dist{kind: Gaussian, min: lo, max: hi, mean: sp.Mean, stdev: sp.Stdev}
	case settings.DistExp:
		q := edgeQuantile(hi - lo)
		d = &Dist{kind: Exp, min: lo, max: hi, mean: float64(hi-lo) / -math.Log(1-q)}
	case settings.DistExtreme, settings.DistQExtreme:
		scale := float64(hi-lo) / math.Pow(-math.Log(1-edgeQuantile(hi-lo)), 1/sp.Shape)
		d = &Dist{kind: Extreme, min: lo, max: hi, shape: sp.Shape, scale: scale}
		if sp.Kind == settings.DistQExtreme {
			// DistributionQuantized: quantas+1 bounds at the delegate's
			// quantiles, the last one past the maximum.
			quantas := sp.Quantas
			b := make([]int64, quantas+1)
			b[0] = d.inverseCumProb(0)
			b[quantas] = d.inverseCumProb(1) + 1
			for i := 1; i < quantas; i++ {
				b[i] = d.inverseCumProb(float64(i) / float64(quantas))
			}
			d.kind, d.bounds = QExtreme, b
		}
	case settings.DistSeq:
		d = &Dist{kind: Seq, min: lo, max: hi, seq: new(atomic.Int64)}
	default:
		panic(fmt.Sprintf("data: distribution kind %v", sp.Kind))
	}
	d.spec = sp.String()
	d.wmin, d.wmax = d.inverseCumProb(0), d.inverseCumProb(1)
	d.inverted = sp.Inverted
	return d
}

func fixedDist(v int64) *Dist { return &Dist{kind: Fixed, min: v, max: v} }

// edgeQuantile is where the original puts max-min: the quantile
// 1 - sqrt(1/(max-min)) of the unit distribution ("so all values are
// visitable", per its comment), computed the same way.
func edgeQuantile(delta int64) float64 { return 1 - math.Sqrt(1/float64(delta)) }

// source is the random stream a draw uses: the caller's *rand.Rand for
// population sampling, or a jrand, bit for bit Java's Random (with
// commons-math3's exponential algorithm), for seeded values. A struct rather
// than an interface so that a jrand on the caller's stack stays there.
type source struct {
	j *jrand
	g *rand.Rand
}

func (s source) Float64() float64 {
	if s.j != nil {
		return s.j.Float64()
	}
	return s.g.Float64()
}

func (s source) NormFloat64() float64 {
	if s.j != nil {
		return s.j.NormFloat64()
	}
	return s.g.NormFloat64()
}

func (s source) ExpFloat64() float64 {
	if s.j != nil {
		return s.j.ExpFloat64()
	}
	return s.g.ExpFloat64()
}

// bound is DistributionBoundApache: truncate, then clamp.
func (d *Dist) bound(v float64) int64 {
	return min(max(javaLong(v), d.min), d.max)
}

// offset is DistributionOffsetApache: truncate, clamp to [0, max-min], add min.
func (d *Dist) offset(v float64) int64 {
	r := min(max(javaLong(v), 0), d.max-d.min)
	return d.min + r
}

func (d *Dist) boundFloat(v float64) float64 {
	return min(max(v, float64(d.min)), float64(d.max))
}

func (d *Dist) offsetFloat(v float64) float64 {
	return float64(d.min) + min(max(v, 0), float64(d.max-d.min))
}

// raw is the commons-math3 delegate's sample() for the families that have one.
func (d *Dist) raw(src source) float64 {
	switch d.kind {
	case Uniform: // UniformRealDistribution(min, max+1).sample
		u := src.Float64()
		return float64(u*float64(d.max+1)) + float64((1-u)*float64(d.min))
	case Gaussian: // NormalDistribution.sample
		return float64(d.stdev*src.NormFloat64()) + d.mean
	case Exp:
		return float64(d.mean * src.ExpFloat64())
	case Extreme, QExtreme: // AbstractRealDistribution.sample: inversion
		return d.weibullInv(src.Float64())
	}
	return 0
}

func (d *Dist) weibullInv(p float64) float64 {
	switch p {
	case 0:
		return 0
	case 1:
		return math.Inf(1)
	}
	return float64(d.scale * math.Pow(-math.Log(1-p), 1/d.shape))
}

// sample is Distribution.next of the un-inverted distribution; seq is the
// counter SEQ advances.
func (d *Dist) sample(src source, seq *atomic.Int64, seqLocal *int64) int64 {
	switch d.kind {
	case Fixed:
		return d.min
	case Uniform, Gaussian:
		return d.bound(d.raw(src))
	case Exp, Extreme:
		return d.offset(d.raw(src))
	case QExtreme:
		// The original indexes bounds[-1] (and throws) when the draw is
		// exactly min; that draw belongs to the first bucket here.
		q := max(d.quanta(d.offset(d.raw(src))), 0)
		return d.bounds[q] + javaLong(src.Float64()*float64(d.bounds[q+1]-d.bounds[q]))
	case Seq:
		var n int64
		if seq != nil {
			n = seq.Add(1) - 1
		} else {
			n = *seqLocal
			*seqLocal++
		}
		return d.min + n%(d.max-d.min+1)
	}
	return 0
}

func (d *Dist) sampleFloat(src source, seq *atomic.Int64, seqLocal *int64) float64 {
	switch d.kind {
	case Uniform, Gaussian:
		return d.boundFloat(d.raw(src))
	case Exp, Extreme:
		return d.offsetFloat(d.raw(src))
	}
	// FIXED and SEQ have no fraction; the original refuses QEXTREME here.
	return float64(d.sample(src, seq, seqLocal))
}

func (d *Dist) invert(v int64) int64 {
	if d.inverted {
		return d.wmax - (v - d.wmin)
	}
	return v
}

// Next draws one value using r; it never blocks.
func (d *Dist) Next(r *rand.Rand) int64 {
	return d.invert(d.sample(source{g: r}, d.seq, nil))
}

// NextFloat is the original's nextDouble, which ratio distributions use:
// the delegate's sample clamped but not truncated.
func (d *Dist) NextFloat(r *rand.Rand) float64 {
	v := d.sampleFloat(source{g: r}, d.seq, nil)
	if d.inverted {
		return float64(d.wmax) - (v - float64(d.wmin))
	}
	return v
}

// InverseCumProb is the value at cumulative probability p; MinValue and
// MaxValue are its ends, as in the original (where, for QEXTREME, MaxValue
// is one past the largest value Next returns).
func (d *Dist) InverseCumProb(p float64) int64 {
	if d.inverted {
		return d.wmax - (d.inverseCumProb(p) - d.wmin)
	}
	return d.inverseCumProb(p)
}

func (d *Dist) inverseCumProb(p float64) int64 {
	switch d.kind {
	case Fixed:
		return d.min
	case Uniform:
		lo, hi := float64(d.min), float64(d.max+1)
		return d.bound(p*(hi-lo) + lo)
	case Gaussian:
		switch p {
		case 0:
			return d.min
		case 1:
			return d.max
		}
		return d.bound(d.mean + d.stdev*math.Sqrt2*math.Erfinv(2*p-1))
	case Exp:
		if p == 1 {
			return d.max
		}
		return d.offset(-d.mean * math.Log(1-p))
	case Extreme:
		return d.offset(d.weibullInv(p))
	case QExtreme:
		v := d.offset(d.weibullInv(p))
		q := d.quanta(v)
		last := len(d.bounds) - 1
		if q < 0 {
			return d.bounds[0]
		}
		if q >= last {
			return d.bounds[last] - 1
		}
		p = (p - float64(q)/float64(last)) * float64(last)
		return d.bounds[q] + javaLong(p*float64(d.bounds[q+1]-d.bounds[q]))
	case Seq:
		return javaLong(float64(d.min) + float64(d.max-d.min)*p)
	}
	return 0
}

// quanta is DistributionQuantized.quanta: the index of the bucket holding v
// (a binary search where an exact hit on a bound belongs to the bucket below).
func (d *Dist) quanta(v int64) int {
	return sort.Search(len(d.bounds), func(i int) bool { return d.bounds[i] >= v }) - 1
}

// Seeded reproduces one of the original's Distribution objects as its value
// generators use it: reseeded with SetSeed, then drawn from, on Java's
// Random. Values are bit-exact with the original for FIXED, UNIFORM,
// GAUSSIAN, EXP and SEQ (and their inversions); EXTREME goes through
// commons-math's FastMath pow and log, so a value may differ in rare
// last-bit cases; QEXTREME draws its in-bucket offset from an unseeded
// Random in the original, so nothing reproduces it, not even the original.
// Seeded is small and lives on the stack; it is not safe for concurrent use.
type Seeded struct {
	d   *Dist
	r   jrand
	seq int64
}

// Seeded returns a generator for d; call SetSeed before drawing.
func (d *Dist) Seeded() Seeded { return Seeded{d: d} }

// SetSeed is Distribution.setSeed: commons-math's reseedRandomGenerator,
// or for SEQ the position of the next value.
func (s *Seeded) SetSeed(seed int64) {
	s.r.setSeed(seed)
	s.seq = seed
}

// Next is Distribution.next.
func (s *Seeded) Next() int64 {
	return s.d.invert(s.d.sample(source{j: &s.r}, nil, &s.seq))
}

// Ratio is a ratio distribution, DIST/divisor (generate/RatioDistribution.java):
// a draw divided by the divisor, clamped to [0, 1].
type Ratio struct {
	Dist    *Dist
	Divisor float64
}

// ParseRatio parses "DIST/divisor", e.g. the default "fixed(1)/1", with
// frontend/stress/settings' grammar.
func ParseRatio(spec string) (Ratio, error) {
	r, err := settings.ParseRatioDist(spec)
	if err != nil {
		return Ratio{}, err
	}
	return Ratio{Dist: FromSpec(r.Dist), Divisor: float64(r.Divisor)}, nil
}

// Next draws a ratio in [0, 1].
func (q Ratio) Next(r *rand.Rand) float64 {
	return max(0, min(1, q.Dist.NextFloat(r)/q.Divisor))
}

// Min and Max are the original's bounds of the ratio (capped at 1 only).
func (q Ratio) Min() float64 { return min(1, float64(q.Dist.MinValue())/q.Divisor) }
func (q Ratio) Max() float64 { return min(1, float64(q.Dist.MaxValue())/q.Divisor) }
