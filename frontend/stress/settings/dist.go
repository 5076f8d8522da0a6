package settings

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// DistKind names a distribution family.
type DistKind int

// The families of OptionDistribution.java.
const (
	DistFixed DistKind = iota
	DistUniform
	DistGaussian
	DistExp
	DistExtreme
	DistQExtreme
	DistSeq
)

var distNames = [...]string{"FIXED", "UNIFORM", "GAUSSIAN", "EXP", "EXTREME", "QEXTREME", "SEQ"}

func (k DistKind) String() string {
	if int(k) < len(distNames) {
		return distNames[k]
	}
	return fmt.Sprintf("DistKind(%d)", int(k))
}

// distAliases maps the lower-case names the original accepts to a family.
// The original also lists "weibull" in its help, but registers it as
// lookup.get("weibull"), which is null, so it never worked; it is not
// accepted here either.
var distAliases = map[string]DistKind{
	"fixed":    DistFixed,
	"uniform":  DistUniform,
	"gaussian": DistGaussian,
	"gauss":    DistGaussian,
	"normal":   DistGaussian,
	"norm":     DistGaussian,
	"exp":      DistExp,
	"extreme":  DistExtreme,
	"extr":     DistExtreme,
	"qextreme": DistQExtreme,
	"qextr":    DistQExtreme,
	"seq":      DistSeq,
}

// Dist is a parsed distribution specification such as GAUSSIAN(1..100,3).
// It says what to sample, not how (workload/cassandrastress/data's FromSpec makes its
// sampler, and data.ParseDist parses with ParseDist here); Min and Max bound every family (for
// FIXED both are the value).
type Dist struct {
	Kind     DistKind
	Inverted bool // leading ~: the most likely values become the least likely
	Min, Max int64

	// GAUSSIAN: the mean and standard deviation used for sampling. When the
	// spec gave (min..max[,stdvrng]) StdvRange is that range (default 3) and
	// Mean/Stdev are derived from it; when it gave (min..max,mean,stdev)
	// StdvRange is 0.
	Mean, Stdev float64
	StdvRange   float64

	Shape   float64 // EXTREME, QEXTREME: the Weibull shape
	Quantas int     // QEXTREME: the number of quanta
}

// Fixed returns FIXED(v).
func Fixed(v int64) Dist { return Dist{Kind: DistFixed, Min: v, Max: v} }

// Uniform returns UNIFORM(min..max).
func Uniform(min, max int64) Dist { return Dist{Kind: DistUniform, Min: min, Max: max} }

// Gaussian returns GAUSSIAN(min..max,stdvrng).
func Gaussian(min, max int64, stdvrng float64) Dist {
	mean := float64(min+max) / 2
	return Dist{Kind: DistGaussian, Min: min, Max: max, Mean: mean,
		Stdev: (float64(max-min) / 2) / stdvrng, StdvRange: stdvrng}
}

// String renders the canonical spec: upper-case name, plain numbers,
// optional arguments left out when they have their default value.
func (d Dist) String() string {
	var b strings.Builder
	if d.Inverted {
		b.WriteByte('~')
	}
	b.WriteString(d.Kind.String())
	b.WriteByte('(')
	switch d.Kind {
	case DistFixed:
		b.WriteString(strconv.FormatInt(d.Min, 10))
	default:
		fmt.Fprintf(&b, "%d..%d", d.Min, d.Max)
	}
	switch d.Kind {
	case DistGaussian:
		if d.StdvRange == 0 {
			fmt.Fprintf(&b, ",%s,%s", fmtFloat(d.Mean), fmtFloat(d.Stdev))
		} else if d.StdvRange != 3 {
			fmt.Fprintf(&b, ",%s", fmtFloat(d.StdvRange))
		}
	case DistExtreme:
		fmt.Fprintf(&b, ",%s", fmtFloat(d.Shape))
	case DistQExtreme:
		fmt.Fprintf(&b, ",%s,%d", fmtFloat(d.Shape), d.Quantas)
	}
	b.WriteByte(')')
	return b.String()
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ExpMean is the mean of the exponential distribution that EXP(min..max)
// offsets by min: the original (OptionDistribution.ExponentialImpl) picks it
// so that the 1-sqrt(1/(max-min)) quantile lands on max.
func (d Dist) ExpMean() float64 {
	r := float64(d.Max - d.Min)
	return r / (-math.Log(math.Sqrt(1 / r)))
}

// WeibullScale is the scale of the Weibull distribution behind EXTREME and
// QEXTREME, chosen the same way as ExpMean (OptionDistribution.ExtremeImpl).
func (d Dist) WeibullScale() float64 {
	r := float64(d.Max - d.Min)
	return r / math.Pow(-math.Log(math.Sqrt(1/r)), 1/d.Shape)
}

// describe renders the original's getConfigAsString(), used in the settings
// dump.
func (d Dist) describe() string {
	var s string
	switch d.Kind {
	case DistFixed:
		s = fmt.Sprintf("Fixed:  key=%d", d.Min)
	case DistUniform:
		s = fmt.Sprintf("Uniform:  min=%d,max=%d", d.Min, d.Max)
	case DistGaussian:
		s = fmt.Sprintf("Gaussian:  min=%d,max=%d,mean=%f,stdev=%f", d.Min, d.Max, d.Mean, d.Stdev)
	case DistExp:
		s = fmt.Sprintf("Exponential:  min=%d,max=%d,mean=%f", d.Min, d.Max, d.ExpMean())
	case DistExtreme, DistQExtreme:
		s = fmt.Sprintf("Extreme:  min=%d,max=%d,shape=%f, scale=%f", d.Min, d.Max, d.Shape, d.WeibullScale())
	case DistSeq:
		s = fmt.Sprintf("Sequence:  start=%d,end=%d", d.Min, d.Max)
	}
	if d.Inverted {
		s = "Inverse: " + s
	}
	return s
}

var distFull = regexp.MustCompile(`^(~?)([A-Za-z]+)\((.+)\)$`)

// DistError is returned for a malformed distribution.
type DistError struct {
	Spec   string
	Reason string
}

func (e *DistError) Error() string {
	return fmt.Sprintf("invalid distribution %s: %s", show(e.Spec), e.Reason)
}

var distForms = map[DistKind]string{
	DistFixed:    "FIXED(val)",
	DistUniform:  "UNIFORM(min..max)",
	DistGaussian: "GAUSSIAN(min..max), GAUSSIAN(min..max,stdvrng) or GAUSSIAN(min..max,mean,stdev)",
	DistExp:      "EXP(min..max)",
	DistExtreme:  "EXTREME(min..max,shape)",
	DistQExtreme: "QEXTREME(min..max,shape,quantas)",
	DistSeq:      "SEQ(min..max)",
}

// ParseDist parses a distribution such as "gaussian(1..1M,5)" or
// "~exp(1..10)". Names are case-insensitive; integers take the suffixes k, m
// and b (thousand, million, billion). As in the original, a range whose
// bounds are equal gives FIXED (except SEQ, which rejects it).
func ParseDist(spec string) (Dist, error) {
	m := distFull.FindStringSubmatch(spec)
	if m == nil {
		return Dist{}, &DistError{spec, "expected NAME(args), e.g. FIXED(34), UNIFORM(1..1000) or GAUSSIAN(1..1M)"}
	}
	kind, ok := distAliases[strings.ToLower(m[2])]
	if !ok {
		return Dist{}, &DistError{spec, fmt.Sprintf("unknown distribution %s; expected one of EXP, EXTREME, QEXTREME, GAUSSIAN, UNIFORM, FIXED, SEQ (aliases extr, qextr, gauss, normal, norm)", m[2])}
	}
	// Empty arguments are skipped, as the original's [^,]+ matcher does.
	var args []string
	for _, a := range strings.Split(m[3], ",") {
		if a != "" {
			args = append(args, a)
		}
	}
	bad := func(why string) (Dist, error) {
		return Dist{}, &DistError{spec, why + "; expected " + distForms[kind]}
	}
	wantArgs := map[DistKind][2]int{DistFixed: {1, 1}, DistUniform: {1, 1}, DistGaussian: {1, 3},
		DistExp: {1, 1}, DistExtreme: {2, 2}, DistQExtreme: {3, 3}, DistSeq: {1, 1}}[kind]
	if len(args) < wantArgs[0] || len(args) > wantArgs[1] {
		return bad(fmt.Sprintf("%d argument(s) given", len(args)))
	}
	d := Dist{Kind: kind, Inverted: m[1] == "~"}
	if kind == DistFixed {
		v, err := ParseLong(args[0])
		if err != nil {
			return bad(err.Error())
		}
		if err := checkDistValue(v); err != nil {
			return bad(err.Error())
		}
		d.Min, d.Max = v, v
		return d, nil
	}
	lo, hi, err := ParseRange(args[0])
	if err != nil {
		return bad(err.Error())
	}
	for _, v := range []int64{lo, hi} {
		if err := checkDistValue(v); err != nil {
			return bad(err.Error())
		}
	}
	if lo > hi {
		return bad(fmt.Sprintf("min %d is above max %d", lo, hi))
	}
	d.Min, d.Max = lo, hi
	if lo == hi {
		if kind == DistSeq {
			return bad("min equals max")
		}
		return Dist{Kind: DistFixed, Inverted: d.Inverted, Min: lo, Max: lo}, nil
	}
	switch kind {
	case DistGaussian:
		switch len(args) {
		case 3:
			if d.Mean, err = parsePositiveFloat(args[1], false); err != nil {
				return bad("mean: " + err.Error())
			}
			if d.Stdev, err = parsePositiveFloat(args[2], true); err != nil {
				return bad("stdev: " + err.Error())
			}
		default:
			r := 3.0
			if len(args) == 2 {
				if r, err = parsePositiveFloat(args[1], true); err != nil {
					return bad("stdvrng: " + err.Error())
				}
			}
			g := Gaussian(lo, hi, r)
			g.Inverted = d.Inverted
			d = g
		}
	case DistExtreme, DistQExtreme:
		if d.Shape, err = parsePositiveFloat(args[1], true); err != nil {
			return bad("shape: " + err.Error())
		}
		if kind == DistQExtreme {
			q, err := strconv.Atoi(strings.TrimSpace(args[2]))
			if err != nil || q <= 0 {
				return bad(fmt.Sprintf("quantas %s is not a positive whole number", show(args[2])))
			}
			if q > MaxQuantas {
				return bad(fmt.Sprintf("quantas %d is above %d (its bounds are kept in memory)", q, MaxQuantas))
			}
			d.Quantas = q
		}
	}
	return d, nil
}

// checkDistValue refuses a bound beyond MaxDistValue.
func checkDistValue(v int64) error {
	if v > MaxDistValue || v < -MaxDistValue {
		return fmt.Errorf("%d is beyond ±10^18 (1000000000b), the bound of every distribution", v)
	}
	return nil
}

// ParseRange parses "min..max" (the original splits on two or more dots),
// the bounds as ParseLong reads them.
func ParseRange(s string) (int64, int64, error) {
	i := strings.Index(s, "..")
	if i < 0 {
		return 0, 0, fmt.Errorf("%s is not a range min..max", show(s))
	}
	j := i
	for j < len(s) && s[j] == '.' {
		j++
	}
	lo, err := ParseLong(s[:i])
	if err != nil {
		return 0, 0, err
	}
	hi, err := ParseLong(s[j:])
	if err != nil {
		return 0, 0, err
	}
	return lo, hi, nil
}

// ParseLong parses an integer with an optional k, m or b suffix (powers of
// 1000, case-insensitive), as OptionDistribution.parseLong does.
func ParseLong(s string) (int64, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	if v != "" {
		switch v[len(v)-1] {
		case 'k':
			mult = 1e3
		case 'm':
			mult = 1e6
		case 'b':
			mult = 1e9
		}
		if mult != 1 {
			v = v[:len(v)-1]
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if s == "" {
			return 0, fmt.Errorf("a number is missing")
		}
		return 0, fmt.Errorf("%s is not a whole number (suffixes k, m, b allowed)", show(s))
	}
	if n > math.MaxInt64/mult || n < math.MinInt64/mult {
		return 0, fmt.Errorf("%s is too large", show(s))
	}
	return n * mult, nil
}

func parsePositiveFloat(s string, strict bool) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s is not a number", show(s))
	}
	if strict && f <= 0 {
		return 0, fmt.Errorf("%s is not above zero", show(s))
	}
	return f, nil
}

// RatioDist is a distribution divided by a constant, written DIST/divisor,
// e.g. FIXED(1)/1000: each sample is a fraction (OptionRatioDistribution.java).
type RatioDist struct {
	Dist    Dist
	Divisor int64
}

func (r RatioDist) String() string { return fmt.Sprintf("%s/%d", r.Dist, r.Divisor) }

func (r RatioDist) describe() string {
	return fmt.Sprintf("Ratio: divisor=%f;delegate=%s", float64(r.Divisor), r.Dist.describe())
}

// ParseRatioDist parses DIST/divisor; the divisor takes k, m and b.
func ParseRatioDist(spec string) (RatioDist, error) {
	i := strings.LastIndexByte(spec, '/')
	if i < 0 {
		return RatioDist{}, &DistError{spec, "expected a ratio DIST/divisor, e.g. FIXED(1)/1"}
	}
	div, err := ParseLong(spec[i+1:])
	if err != nil || div <= 0 || strings.HasPrefix(strings.TrimSpace(spec[i+1:]), "-") {
		return RatioDist{}, &DistError{spec, "the divisor after / must be a positive whole number (suffixes k, m, b allowed)"}
	}
	d, err := ParseDist(spec[:i])
	if err != nil {
		return RatioDist{}, err
	}
	return RatioDist{Dist: d, Divisor: div}, nil
}

// show renders a user's word inside a message: as is when it is plain
// printable text, quoted otherwise, so that a message stays on one line.
func show(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == ' ' || r == '"' || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
