package settings

import (
	"math"
	"strings"
	"testing"
)

func TestParseDist(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want Dist
		str  string
	}{
		{"FIXED(34)", Fixed(34), "FIXED(34)"},
		{"fixed(1k)", Fixed(1000), "FIXED(1000)"},
		{"Fixed(2M)", Fixed(2000000), "FIXED(2000000)"},
		{"fixed(1b)", Fixed(1000000000), "FIXED(1000000000)"},
		{"uniform(1..1M)", Uniform(1, 1000000), "UNIFORM(1..1000000)"},
		{"UNIFORM(1...10)", Uniform(1, 10), "UNIFORM(1..10)"},
		{"uniform(5..5)", Fixed(5), "FIXED(5)"},
		{"uniform(-5..5)", Uniform(-5, 5), "UNIFORM(-5..5)"},
		{"gaussian(1..100)", Dist{Kind: DistGaussian, Min: 1, Max: 100, Mean: 50.5, Stdev: 16.5, StdvRange: 3}, "GAUSSIAN(1..100)"},
		{"gauss(1..101,5)", Dist{Kind: DistGaussian, Min: 1, Max: 101, Mean: 51, Stdev: 10, StdvRange: 5}, "GAUSSIAN(1..101,5)"},
		{"normal(1..100,40,2.5)", Dist{Kind: DistGaussian, Min: 1, Max: 100, Mean: 40, Stdev: 2.5}, "GAUSSIAN(1..100,40,2.5)"},
		{"NORM(1..10)", Gaussian(1, 10, 3), "GAUSSIAN(1..10)"},
		{"exp(1..10)", Dist{Kind: DistExp, Min: 1, Max: 10}, "EXP(1..10)"},
		{"~exp(1..10)", Dist{Kind: DistExp, Min: 1, Max: 10, Inverted: true}, "~EXP(1..10)"},
		{"extreme(1..1000,1.5)", Dist{Kind: DistExtreme, Min: 1, Max: 1000, Shape: 1.5}, "EXTREME(1..1000,1.5)"},
		{"extr(1..1000,2)", Dist{Kind: DistExtreme, Min: 1, Max: 1000, Shape: 2}, "EXTREME(1..1000,2)"},
		{"qextreme(1..1000,1.5,8)", Dist{Kind: DistQExtreme, Min: 1, Max: 1000, Shape: 1.5, Quantas: 8}, "QEXTREME(1..1000,1.5,8)"},
		{"QEXTR(1..1000,1.5,8)", Dist{Kind: DistQExtreme, Min: 1, Max: 1000, Shape: 1.5, Quantas: 8}, "QEXTREME(1..1000,1.5,8)"},
		{"seq(1..100)", Dist{Kind: DistSeq, Min: 1, Max: 100}, "SEQ(1..100)"},
		{"~seq(1..100)", Dist{Kind: DistSeq, Min: 1, Max: 100, Inverted: true}, "~SEQ(1..100)"},
		{"fixed(1,)", Fixed(1), "FIXED(1)"}, // empty arguments are skipped, as by the original
	} {
		got, err := ParseDist(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.spec, got, tc.want)
		}
		if got.String() != tc.str {
			t.Errorf("%s: String() = %s, want %s", tc.spec, got.String(), tc.str)
		}
		back, err := ParseDist(got.String())
		if err != nil || back != got {
			t.Errorf("%s: String() does not parse back: %+v, %v", tc.spec, back, err)
		}
	}
}

func TestParseDistErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"UNIFORM(1..)", "a number is missing"},
		{"uniform(..5)", "a number is missing"},
		{"uniform(5)", "is not a range"},
		{"uniform(10..1)", "min 10 is above max 1"},
		{"uniform()", "expected NAME(args)"},
		{"uniform", "expected NAME(args)"},
		{"uniform(1..10", "expected NAME(args)"},
		{"weibull(1..10,2)", "unknown distribution weibull"},
		{"zipf(1..10)", "unknown distribution zipf"},
		{"fixed(x)", `x is not a whole number`},
		{"fixed(1,2)", "2 argument(s) given"},
		{"gaussian(1..10,1,2,3)", "4 argument(s) given"},
		{"gaussian(1..10,0)", "stdvrng: 0 is not above zero"},
		{"gaussian(1..10,5,-1)", "stdev: -1 is not above zero"},
		{"gaussian(1..10,NaN)", "is not a number"},
		{"extreme(1..10)", "1 argument(s) given"},
		{"extreme(1..10,0)", "shape: 0 is not above zero"},
		{"qextreme(1..10,1.5,0)", "quantas 0 is not a positive whole number"},
		{"seq(3..3)", "min equals max"},
		{"fixed(99999999999b)", "too large"},
		{"~~fixed(1)", "expected NAME(args)"},
	} {
		_, err := ParseDist(tc.spec)
		if err == nil {
			t.Errorf("%s: accepted", tc.spec)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %q", tc.spec, err, tc.want)
		}
	}
}

func TestParseRatioDist(t *testing.T) {
	for _, tc := range []struct{ spec, str string }{
		{"fixed(1)/1", "FIXED(1)/1"},
		{"FIXED(1)/1000", "FIXED(1)/1000"},
		{"uniform(1..10)/10", "UNIFORM(1..10)/10"},
		{"fixed(1)/1k", "FIXED(1)/1000"},
		{"~exp(1..10)/10", "~EXP(1..10)/10"},
	} {
		r, err := ParseRatioDist(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if r.String() != tc.str {
			t.Errorf("%s: %s, want %s", tc.spec, r, tc.str)
		}
	}
	for _, spec := range []string{"fixed(1)", "fixed(1)/0", "fixed(1)/-2", "fixed(1)/x", "nope/10"} {
		if _, err := ParseRatioDist(spec); err == nil {
			t.Errorf("%s: accepted", spec)
		}
	}
}

// The derived parameters match the original's formulas
// (OptionDistribution.ExponentialImpl and ExtremeImpl).
func TestDerived(t *testing.T) {
	d, _ := ParseDist("exp(1..101)")
	if want := 100 / (0.5 * math.Log(100)); math.Abs(d.ExpMean()-want) > 1e-9 {
		t.Errorf("ExpMean = %v, want %v", d.ExpMean(), want)
	}
	e, _ := ParseDist("extreme(1..101,2)")
	if want := 100 / math.Sqrt(0.5*math.Log(100)); math.Abs(e.WeibullScale()-want) > 1e-9 {
		t.Errorf("WeibullScale = %v, want %v", e.WeibullScale(), want)
	}
}

func TestParseLong(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "7": 7, "1k": 1000, "1K": 1000, "3m": 3000000, "2B": 2000000000, " 5 ": 5, "-4": -4} {
		got, err := ParseLong(in)
		if err != nil || got != want {
			t.Errorf("ParseLong(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "1.5k", "1x", "9999999999999b", "1kk"} {
		if _, err := ParseLong(in); err == nil {
			t.Errorf("ParseLong(%q) accepted", in)
		}
	}
}
