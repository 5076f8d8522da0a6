package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
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

var (
	distFull = regexp.MustCompile(`(?i)^(~?)([A-Z]+)\((.+)\)$`)
	distArgs = regexp.MustCompile(`[^,]+`)
	rangeSep = regexp.MustCompile(`\.\.+`)
)

// ParseLong reads a count as the original does: an optional k, m or b
// suffix (any case) multiplies by 10^3, 10^6 or 10^9.
func ParseLong(s string) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'b':
			mult = 1e9
		case 'm':
			mult = 1e6
		case 'k':
			mult = 1e3
		}
		if mult != 1 {
			s = s[:len(s)-1]
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	return v * mult, nil
}

func parseRange(s string) (lo, hi int64, err error) {
	b := rangeSep.Split(s, -1)
	if len(b) < 2 {
		return 0, 0, fmt.Errorf("no range in %q", s)
	}
	if lo, err = ParseLong(b[0]); err != nil {
		return 0, 0, err
	}
	hi, err = ParseLong(b[1])
	return lo, hi, err
}

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(strings.TrimSpace(s), 64) }

// ParseDist parses a distribution as the original's OptionDistribution.get
// does, with the same names, aliases and degenerate cases: a range with
// min == max is FIXED(min) (except for SEQ, where it is an error), and
// "weibull", though listed in the original's help, is not a known name
// there either. Errors keep the original's wording, lowercased.
func ParseDist(spec string) (*Dist, error) {
	m := distFull.FindStringSubmatch(spec)
	if m == nil {
		return nil, fmt.Errorf("illegal distribution specification: %s", spec)
	}
	params := distArgs.FindAllString(m[3], -1)
	var d *Dist
	var err error
	switch name := strings.ToLower(m[2]); name {
	case "fixed":
		d, err = parseFixed(params)
	case "uniform":
		d, err = parseUniform(params)
	case "gaussian", "gauss", "normal", "norm":
		d, err = parseGaussian(params)
	case "exp":
		d, err = parseExp(params)
	case "extreme", "extr":
		d, err = parseExtreme(params, false)
	case "qextreme", "qextr":
		d, err = parseExtreme(params, true)
	case "seq":
		d, err = parseSeq(params)
	default:
		return nil, fmt.Errorf("illegal distribution type: %s", m[2])
	}
	if err != nil {
		return nil, err
	}
	d.spec = spec
	d.wmin, d.wmax = d.inverseCumProb(0), d.inverseCumProb(1)
	d.inverted = m[1] == "~"
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

func fixedDist(v int64) *Dist { return &Dist{kind: Fixed, min: v, max: v} }

func parseFixed(p []string) (*Dist, error) {
	if len(p) != 1 {
		return nil, fmt.Errorf("invalid parameter list for fixed distribution: %v", p)
	}
	v, err := ParseLong(p[0])
	if err != nil {
		return nil, fmt.Errorf("invalid parameter list for fixed distribution: %v", p)
	}
	return fixedDist(v), nil
}

func parseUniform(p []string) (*Dist, error) {
	bad := fmt.Errorf("invalid parameter list for uniform distribution: %v", p)
	if len(p) != 1 {
		return nil, bad
	}
	lo, hi, err := parseRange(p[0])
	if err != nil {
		return nil, bad
	}
	if lo == hi {
		return fixedDist(lo), nil
	}
	if lo > hi { // commons-math refuses lower >= upper
		return nil, bad
	}
	return &Dist{kind: Uniform, min: lo, max: hi}, nil
}

func parseGaussian(p []string) (*Dist, error) {
	if len(p) < 1 || len(p) > 3 {
		return nil, fmt.Errorf("invalid parameter list for gaussian distribution: %v", p)
	}
	// The original reports every later failure with this (uniform) text.
	bad := fmt.Errorf("invalid parameter list for uniform distribution: %v", p)
	lo, hi, err := parseRange(p[0])
	if err != nil {
		return nil, bad
	}
	var mean, stdev float64
	if len(p) == 3 {
		if mean, err = parseFloat(p[1]); err != nil {
			return nil, bad
		}
		if stdev, err = parseFloat(p[2]); err != nil {
			return nil, bad
		}
	} else {
		edge := 3.0
		if len(p) == 2 {
			if edge, err = parseFloat(p[1]); err != nil {
				return nil, bad
			}
		}
		mean = float64(lo+hi) / 2
		stdev = (float64(hi-lo) / 2) / edge
	}
	if lo == hi {
		return fixedDist(lo), nil
	}
	if !(stdev > 0) {
		return nil, bad
	}
	return &Dist{kind: Gaussian, min: lo, max: hi, mean: mean, stdev: stdev}, nil
}

// edgeQuantile is where the original puts max-min: the quantile
// 1 - sqrt(1/(max-min)) of the unit distribution ("so all values are
// visitable", per its comment), computed the same way.
func edgeQuantile(delta int64) float64 { return 1 - math.Sqrt(1/float64(delta)) }

func parseExp(p []string) (*Dist, error) {
	if len(p) != 1 {
		return nil, fmt.Errorf("invalid parameter list for gaussian distribution: %v", p)
	}
	lo, hi, err := parseRange(p[0])
	if err != nil {
		return nil, fmt.Errorf("invalid parameter list for uniform distribution: %v", p)
	}
	if lo == hi {
		return fixedDist(lo), nil
	}
	q := edgeQuantile(hi - lo)
	mean := float64(hi-lo) / -math.Log(1-q)
	if !(mean > 0) {
		return nil, fmt.Errorf("invalid parameter list for uniform distribution: %v", p)
	}
	return &Dist{kind: Exp, min: lo, max: hi, mean: mean}, nil
}

func parseExtreme(p []string, quantized bool) (*Dist, error) {
	what := "extreme (Weibull)"
	want := 2
	if quantized {
		what, want = "quantized extreme (Weibull)", 3
	}
	bad := fmt.Errorf("invalid parameter list for %s distribution: %v", what, p)
	if len(p) != want {
		return nil, bad
	}
	lo, hi, err := parseRange(p[0])
	if err != nil {
		return nil, bad
	}
	shape, err := parseFloat(p[1])
	if err != nil || !(shape > 0) {
		return nil, bad
	}
	quantas := 0
	if quantized {
		if quantas, err = strconv.Atoi(strings.TrimSpace(p[2])); err != nil || quantas < 1 {
			return nil, bad
		}
	}
	if lo == hi {
		return fixedDist(lo), nil
	}
	scale := float64(hi-lo) / math.Pow(-math.Log(1-edgeQuantile(hi-lo)), 1/shape)
	d := &Dist{kind: Extreme, min: lo, max: hi, shape: shape, scale: scale}
	if quantized {
		// DistributionQuantized: quantas+1 bounds at the delegate's
		// quantiles, the last one past the maximum.
		b := make([]int64, quantas+1)
		b[0] = d.inverseCumProb(0)
		b[quantas] = d.inverseCumProb(1) + 1
		for i := 1; i < quantas; i++ {
			b[i] = d.inverseCumProb(float64(i) / float64(quantas))
		}
		d.kind, d.bounds = QExtreme, b
	}
	return d, nil
}

func parseSeq(p []string) (*Dist, error) {
	if len(p) != 1 {
		return nil, fmt.Errorf("invalid parameter list for sequence distribution: %v", p)
	}
	lo, hi, err := parseRange(p[0])
	if err != nil {
		return nil, fmt.Errorf("invalid parameter list for sequence distribution: %v", p)
	}
	if lo == hi {
		return nil, fmt.Errorf("invalid parameter list for sequence distribution (min==max): %v", p)
	}
	if lo > hi {
		return nil, fmt.Errorf("invalid parameter list for sequence distribution (min>max): %v", p)
	}
	return &Dist{kind: Seq, min: lo, max: hi, seq: new(atomic.Int64)}, nil
}

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

var ratioFull = regexp.MustCompile(`(?i)^(.*)/([0-9]+[KMB]?)$`)

// ParseRatio parses "DIST/divisor", e.g. the default "fixed(1)/1".
func ParseRatio(spec string) (Ratio, error) {
	m := ratioFull.FindStringSubmatch(spec)
	if m == nil {
		return Ratio{}, fmt.Errorf("invalid ratio definition: %s", spec)
	}
	d, err := ParseDist(m[1])
	if err != nil {
		return Ratio{}, err
	}
	div, err := ParseLong(m[2])
	if err != nil {
		return Ratio{}, fmt.Errorf("invalid ratio definition: %s", spec)
	}
	return Ratio{Dist: d, Divisor: float64(div)}, nil
}

// Next draws a ratio in [0, 1].
func (q Ratio) Next(r *rand.Rand) float64 {
	return max(0, min(1, q.Dist.NextFloat(r)/q.Divisor))
}

// Min and Max are the original's bounds of the ratio (capped at 1 only).
func (q Ratio) Min() float64 { return min(1, float64(q.Dist.MinValue())/q.Divisor) }
func (q Ratio) Max() float64 { return min(1, float64(q.Dist.MaxValue())/q.Divisor) }
