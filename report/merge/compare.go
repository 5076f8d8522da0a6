package merge

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/report/jsonreport"
)

// Alpha is the significance level of ycsb compare.
const Alpha = 0.05

// TestName names the significance test in the output.
const TestName = "Welch's t-test on per-interval throughput, sample sizes corrected for lag-1 autocorrelation"

// Test is the result of comparing two throughput series.
type Test struct {
	NA, NB       int     // intervals used
	EffA, EffB   float64 // effective sample sizes
	MeanA, MeanB float64 // mean ops/sec per interval
	T, DF, P     float64
	OK           bool // enough samples to test
	// Resolution is the smallest difference of the means that counts
	// (ops/sec); 0 for any. See resolution.
	Resolution float64
}

// Significant reports whether the difference is significant at Alpha: a
// difference of the means below the resolution, 0 among them, never is,
// however steady the runs (with no variance the t statistic is infinite).
func (t Test) Significant() bool { return t.OK && t.P < Alpha && !t.BelowResolution() }

// BelowResolution reports whether the means differ by less than the
// resolution (or not at all).
func (t Test) BelowResolution() bool {
	d := math.Abs(t.MeanB - t.MeanA)
	return d == 0 || d < t.Resolution
}

// throughputTest is Welch's test of the per-interval throughput of op (""
// for all operations) in a and b, with the resolution of their intervals.
func throughputTest(a, b *jsonreport.Report, op string) Test {
	t := Welch(Rates(a, op), Rates(b, op))
	t.Resolution = Resolution(a, b, t.MeanA, t.MeanB)
	return t
}

// resolution is the smallest throughput difference compare calls a
// difference: the larger of one operation per (median) interval, which is
// what an interval can count, and 0.05% of the larger mean, the smallest
// change the change column shows (+0.1%).
func Resolution(a, b *jsonreport.Report, meanA, meanB float64) float64 {
	res := 0.0
	for _, r := range []*jsonreport.Report{a, b} {
		if ms := medianIntervalMs(r); ms > 0 {
			res = max(res, 1000/float64(ms))
		}
	}
	return max(res, 0.0005*max(math.Abs(meanA), math.Abs(meanB)))
}

// medianIntervalMs is the median length of r's intervals, 0 without any.
func medianIntervalMs(r *jsonreport.Report) int64 {
	var lens []int64
	for _, iv := range r.Intervals {
		lens = append(lens, iv.EndMs-iv.StartMs)
	}
	if len(lens) == 0 {
		return 0
	}
	slices.Sort(lens)
	return lens[len(lens)/2]
}

// fullLength says which of r's intervals count as intervals of their
// own: those at least half the median length. A shorter one (the final
// partial interval) is not one: the throughput test leaves it out, as its
// rate would only add noise, and the latency gates add its operations to
// the interval before it. Every message that counts intervals counts
// these.
func FullLength(r *jsonreport.Report) []bool {
	median := medianIntervalMs(r)
	full := make([]bool, len(r.Intervals))
	for i, iv := range r.Intervals {
		length := iv.EndMs - iv.StartMs
		full[i] = length > 0 && 2*length >= median
	}
	return full
}

// rates returns ops/sec per interval for op ("" is all operations), of
// the intervals of full length (fullLength).
func Rates(r *jsonreport.Report, op string) []float64 {
	full := FullLength(r)
	var out []float64
	for i, iv := range r.Intervals {
		if !full[i] {
			continue
		}
		length := iv.EndMs - iv.StartMs
		n := iv.Ops
		if op != "" {
			n = iv.ByOp[op]
		}
		out = append(out, float64(n)*1000/float64(length))
	}
	return out
}

// meanVar returns the mean, the sample variance and the lag-1
// autocorrelation of x.
func MeanVar(x []float64) (mean, variance, r1 float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	var ss, cross float64
	for i, v := range x {
		d := v - mean
		ss += d * d
		if i > 0 {
			cross += d * (x[i-1] - mean)
		}
	}
	if n > 1 {
		variance = ss / (n - 1)
	}
	if ss > 0 {
		r1 = cross / ss
	}
	return mean, variance, r1
}

// effective is the sample size of n autocorrelated samples: n(1-r)/(1+r)
// for positive lag-1 autocorrelation r (negative r is not credited).
func effective(n int, r1 float64) float64 {
	ne := float64(n)
	if r1 > 0 {
		ne *= (1 - r1) / (1 + r1)
	}
	return math.Max(2, math.Min(ne, float64(n)))
}

// Welch tests whether a and b have the same mean.
func Welch(a, b []float64) Test {
	t, se := WelchScaledT(a, b, 1)
	if !t.OK || se > 0 {
		if t.OK {
			t.P = StudentTwoSided(t.T, t.DF)
		}
		return t
	}
	if t.MeanA == t.MeanB {
		t.P = 1
	} else {
		t.T, t.P = math.Copysign(math.Inf(1), t.MeanB-t.MeanA), 0
	}
	return t
}

// welchScaledT is Welch's statistic of mean(b) − c·mean(a), with the
// sample sizes corrected for lag-1 autocorrelation: t.T and t.DF, and the
// squared standard error se (0: no variance, T and DF unset but for the
// DF of the sizes). P is left to the caller's hypothesis.
func WelchScaledT(a, b []float64, c float64) (t Test, se float64) {
	t = Test{NA: len(a), NB: len(b)}
	if len(a) < 3 || len(b) < 3 {
		return t, 0
	}
	t.OK = true
	var va, vb, ra, rb float64
	t.MeanA, va, ra = MeanVar(a)
	t.MeanB, vb, rb = MeanVar(b)
	t.EffA, t.EffB = effective(len(a), ra), effective(len(b), rb)
	sa, sb := c*c*va/t.EffA, vb/t.EffB
	se = sa + sb
	if se == 0 {
		t.DF = t.EffA + t.EffB - 2
		return t, 0
	}
	t.T = (t.MeanB - c*t.MeanA) / math.Sqrt(se)
	t.DF = se * se / (sa*sa/(t.EffA-1) + sb*sb/(t.EffB-1))
	return t, se
}

// studentTwoSided is P(|T| ≥ |t|) for Student's t with df degrees of freedom.
func StudentTwoSided(t, df float64) float64 {
	return regIncBeta(df/2, 0.5, df/(df+t*t))
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (betacf) with Lentz's method.
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF is the continued fraction regIncBeta evaluates, by the modified
// Lentz method.
func betaCF(a, b, x float64) float64 {
	const tiny = 1e-300
	nonzero := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c, d := 1.0, 1/nonzero(1-(a+b)*x/(a+1))
	h := d
	// step applies one term with numerator num and returns its factor.
	step := func(num float64) float64 {
		d = 1 / nonzero(1+num*d)
		c = nonzero(1 + num/c)
		return d * c
	}
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		h *= step(fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)))
		del := step(-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)))
		h *= del
		if math.Abs(del-1) < 1e-14 {
			break
		}
	}
	return h
}

// Compare writes the side-by-side comparison of a and b.
func Compare(w io.Writer, nameA, nameB string, a, b *jsonreport.Report) error {
	var out strings.Builder
	fmt.Fprintf(&out, "A: %s (%s)%s\n", nameA, describe(a), interruptedNote(a))
	fmt.Fprintf(&out, "B: %s (%s)%s\n", nameB, describe(b), interruptedNote(b))
	if a.Phase != b.Phase {
		fmt.Fprintf(&out, "note: A is a %s phase and B a %s phase\n", a.Phase, b.Phase)
	}
	out.WriteString("\n")
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tA\tB\tchange\tthroughput difference\t")
	secA, secB := seconds(a), seconds(b)
	test := throughputTest(a, b, "")
	fmt.Fprintf(tw, "[%s] %s\t%s\t%s\t%s\t%s\t\n", export.Overall, export.Throughput, Num(a.Throughput), Num(b.Throughput), Change(a.Throughput, b.Throughput), verdict(test))
	fmt.Fprintf(tw, "[%s] %s\t%d\t%d\t%s\t\t\n", export.Overall, export.Operations, a.Operations, b.Operations, Change(float64(a.Operations), float64(b.Operations)))
	names := measurementNames(a, b)
	for _, name := range names {
		ma, mb := a.Find(name), b.Find(name)
		fmt.Fprintln(tw, "\t\t\t\t\t")
		if ma == nil || mb == nil {
			which := "A"
			if ma == nil {
				which = "B"
			}
			fmt.Fprintf(tw, "[%s]\tonly in %s\t\t\t\t\n", name, which)
			continue
		}
		row := func(label string, va, vb float64, extra string) {
			fmt.Fprintf(tw, "[%s] %s\t%s\t%s\t%s\t%s\t\n", name, label, Num(va), Num(vb), Change(va, vb), extra)
		}
		if len(ma.Returns) > 0 && len(mb.Returns) > 0 {
			t := throughputTest(a, b, name)
			row(export.Throughput, float64(ma.Count)/secA, float64(mb.Count)/secB, verdict(t))
		}
		row(export.Operations, float64(ma.Count), float64(mb.Count), "")
		row(export.AverageLatency, ma.MeanUs, mb.MeanUs, "")
		for _, p := range []float64{50, 95, 99, 99.9} {
			k := jsonreport.PercentileKey(p)
			row(k+"(us)", float64(ma.Percentiles[k]), float64(mb.Percentiles[k]), "")
		}
		row(export.MaxLatency, float64(ma.MaxUs), float64(mb.MaxUs), "")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&out, "\nSignificance: %s, two-sided, at %s.\n", TestName, strconv.FormatFloat(Alpha, 'f', -1, 64))
	if test.OK {
		fmt.Fprintf(&out, "Overall: A mean %.2f ops/sec over %d intervals (effective %.1f), B mean %.2f over %d (effective %.1f); t=%.3f, df=%.1f.\n",
			test.MeanA, test.NA, test.EffA, test.MeanB, test.NB, test.EffB, test.T, test.DF)
	}
	fmt.Fprintln(&out, "Latency percentiles come from each run's full HdrHistogram; their changes are not tested.")
	return WriteTrimmed(w, out.String())
}

// writeTrimmed writes s without the spaces a tabwriter leaves at the ends
// of its lines.
func WriteTrimmed(w io.Writer, s string) error {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

func describe(r *jsonreport.Report) string {
	s := fmt.Sprintf("%s, %s phase, %d client", r.Binding, r.Phase, r.Clients)
	if r.Clients != 1 {
		s += "s"
	}
	if !r.Start.IsZero() {
		s += ", " + r.Start.UTC().Format("2006-01-02 15:04:05Z")
	}
	return s
}

func seconds(r *jsonreport.Report) float64 {
	if r.RunTimeMs <= 0 {
		return math.NaN()
	}
	return float64(r.RunTimeMs) / 1000
}

func measurementNames(a, b *jsonreport.Report) []string {
	var names []string
	for _, r := range []*jsonreport.Report{a, b} {
		for _, m := range r.Measurements {
			if !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
	}
	return names
}

func Num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func Change(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return "-"
	}
	if a == 0 {
		if b == 0 {
			return "0.0%"
		}
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", (b-a)/math.Abs(a)*100)
}

func verdict(t Test) string {
	if !t.OK {
		return fmt.Sprintf("too few intervals to test (%d, %d; need 3 each)", t.NA, t.NB)
	}
	if t.BelowResolution() {
		return fmt.Sprintf("not significant (a difference below the resolution, %s ops/sec)", strconv.FormatFloat(t.Resolution, 'g', 3, 64))
	}
	if t.Significant() {
		return fmt.Sprintf("significant (p=%s)", Pval(t.P))
	}
	return fmt.Sprintf("not significant (p=%s)", Pval(t.P))
}

func Pval(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}
