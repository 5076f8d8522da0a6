package gate

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/report/merge"
)

// How latency gates are tested.
//
// A latency percentile of a run is not the mean of its intervals'
// percentiles, so a t-test on per-interval p99s would test the wrong
// figure, and an interval's p99.9 rests on a handful of samples or none.
// Latency gates therefore use a circular block bootstrap over intervals
// (Politis and Romano's circular blocks): each replicate draws blocks of
// consecutive intervals with replacement until it has as many intervals as
// the run, merges their histograms and takes the percentile (or mean) of
// the merge, exactly as the run's own figure is taken. Sparse intervals
// weigh what their samples weigh; blocks keep the dependence between
// neighbouring intervals (a compaction slows several in a row), and what
// short blocks miss of it, and the few effective samples of a short run,
// widen the replicates' spread (series.blockLength). A and B are
// resampled independently and each replicate gives a ratio B/A; the gate
// fails when fewer than Alpha of the ratios lie at or below the
// tolerance, 1+tol: a one-sided bootstrap test at Alpha of "B's figure is
// at most A's·(1+tol)", the same as the lower end of the one-sided 95%
// percentile interval of the ratio lying beyond the tolerance.
//
// Throughput gates use Welch's test on per-interval throughput (the
// samples and the lag-1 autocorrelation correction of ycsb compare),
// one-sided, of the null hypothesis mean(B) ≥ (1−tol)·mean(A).
//
// The maximum is refused: it is one sample of each run, and no test can
// say whether B's is significantly larger.
const (
	// GateReplicates is the bootstrap's replicate count per run.
	GateReplicates = 1000
	// minGateIntervals is the fewest intervals (of full length,
	// fullLength) a bootstrap resamples: fewer have too few distinct
	// resamples to say anything.
	minGateIntervals = 20
	// fewGateIntervals: below it, the test is known to fail too often at
	// the tolerance's edge (docs/results.md, the test of the test).
	fewGateIntervals = 60
	// maxGateUnits bounds the resampled units: a longer run's adjacent
	// intervals are merged into units (bounded time, same figure).
	maxGateUnits = 256
)

// Verdict is a gate's outcome, in the objectives' terms (PASS, FAIL,
// NO DATA). A gate NO DATA could not be judged: it is no failure, nor a
// pass (WriteGates returns Unjudged).
type Verdict = slo.Verdict

const (
	Pass   = slo.Pass
	Fail   = slo.Fail
	NoData = slo.NoData
)

// GateResult is one gate judged.
type GateResult struct {
	Gate    Gate
	Verdict Verdict
	A, B    float64 // the figures compared: µs, or mean ops/sec per interval
	// P is the one-sided p-value of "B is within the tolerance"; Lo and Hi
	// bound the 90% interval of B/A (bootstrap only, else NaN).
	P, Lo, Hi float64
	Why       string
}

// GateDescription names the tests in the output.
var GateDescription = "latency: circular block bootstrap of the intervals' merged histograms, " +
	strconv.Itoa(GateReplicates) + " replicates per run, one-sided; throughput: Welch's t-test on per-interval throughput against the tolerance, one-sided"

// CheckGates refuses a gate naming an operation neither report measured.
func CheckGates(gates []Gate, nameA, nameB string, a, b *jsonreport.Report) error {
	for _, g := range gates {
		if g.Op == "" || g.Op == slo.All {
			continue
		}
		if knowsOp(a, g.Op) || knowsOp(b, g.Op) {
			continue
		}
		return fmt.Errorf("%s: no operation %s in %s or %s (%s)", g.Text, g.Op, nameA, nameB, strings.Join(opNames(a, b), ", "))
	}
	return nil
}

func knowsOp(r *jsonreport.Report, op string) bool {
	for _, m := range r.Measurements {
		if strings.EqualFold(m.Name, op) || strings.EqualFold(m.Operation, op) {
			return true
		}
	}
	for _, iv := range r.Intervals {
		for k := range iv.ByOp {
			if strings.EqualFold(k, op) {
				return true
			}
		}
	}
	return false
}

func opNames(a, b *jsonreport.Report) []string {
	var names []string
	for _, r := range []*jsonreport.Report{a, b} {
		for _, m := range r.Measurements {
			op := m.Operation
			if op == "" {
				op = m.Name
			}
			if !slices.Contains(names, op) {
				names = append(names, op)
			}
		}
	}
	return names
}

// JudgeGates judges every gate, B against A; none over an interrupted
// report (unjudgedInterrupted).
func JudgeGates(gates []Gate, a, b *jsonreport.Report) []GateResult {
	out := make([]GateResult, len(gates))
	cache := seriesCache{}
	for i, g := range gates {
		if g.Stat == GateThroughput {
			out[i] = judgeThroughput(g, a, b)
		} else {
			out[i] = judgeLatency(g, a, b, cache)
		}
	}
	unjudgedInterrupted(out, a, b)
	return out
}

// seriesCache keeps each report's series by operation and whether it
// holds histograms, so that many gates on one operation decode its
// intervals once.
type seriesCache map[seriesKey]cachedSeries

type seriesKey struct {
	r         *jsonreport.Report
	op        string // upper case
	histogram bool
}

type cachedSeries struct {
	s   *series
	why string
}

func (c seriesCache) get(r *jsonreport.Report, g Gate) (*series, string) {
	k := seriesKey{r, strings.ToUpper(g.Op), g.Stat == GatePercentile}
	if v, ok := c[k]; ok {
		return v.s, v.why
	}
	s, why := latencySeries(r, g)
	c[k] = cachedSeries{s, why}
	return s, why
}

// Unjudged is the error of ycsb compare -gate when a gate could not be
// judged (NO DATA) and none failed: a CI job must not read a gate that
// judged nothing as a pass. A failure wins over it (slo.Unmet).
type Unjudged struct{ Msg string }

func (e *Unjudged) Error() string { return e.Msg }

// IsUnjudged says whether err is (or wraps) an Unjudged.
func IsUnjudged(err error) bool {
	var u *Unjudged
	return errors.As(err, &u)
}

// WriteGates writes the gates' table and returns slo.Unmet when any
// failed (naming, after the failures, the gates not judged), else
// Unjudged when any could not be judged, naming each with why.
func WriteGates(w io.Writer, judged []GateResult) error {
	var out strings.Builder
	fmt.Fprintf(&out, "\nRegression gates: B against A; a gate fails only when B is worse than A beyond its tolerance, significantly at %s.\n", strconv.FormatFloat(merge.Alpha, 'f', -1, 64))
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "gate\tA\tB\tchange\t90% interval\tp\tverdict\twhy\t")
	var failed, unjudged []string
	for _, r := range judged {
		unit := " us"
		if r.Gate.Stat == GateThroughput {
			unit = " ops/s"
		}
		fig := func(v float64) string {
			if math.IsNaN(v) {
				return "-"
			}
			return merge.Num(v) + unit
		}
		interval, p := "-", "-"
		if !math.IsNaN(r.Lo) {
			interval = fmt.Sprintf("[%+.1f%%, %+.1f%%]", (r.Lo-1)*100, (r.Hi-1)*100)
		}
		if !math.IsNaN(r.P) {
			p = merge.Pval(r.P)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Gate.Text, fig(r.A), fig(r.B), merge.Change(r.A, r.B), interval, p, r.Verdict, r.Why)
		switch r.Verdict {
		case Fail:
			failed = append(failed, fmt.Sprintf("%s (%s, p=%s)", r.Gate.Text, merge.Change(r.A, r.B), p))
		case NoData:
			unjudged = append(unjudged, fmt.Sprintf("%s (%s)", r.Gate.Text, r.Why))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&out, "Tests: %s.\n", GateDescription)
	if err := merge.WriteTrimmed(w, out.String()); err != nil {
		return err
	}
	notJudged := "regression gate not judged: " + strings.Join(unjudged, ", ")
	switch {
	case len(failed) > 0 && len(unjudged) > 0:
		return &slo.Unmet{Msg: "regression gate failed: " + strings.Join(failed, ", ") + "; " + notJudged}
	case len(failed) > 0:
		return &slo.Unmet{Msg: "regression gate failed: " + strings.Join(failed, ", ")}
	case len(unjudged) > 0:
		return &Unjudged{Msg: notJudged}
	}
	return nil
}

func noData(g Gate, why string, args ...any) GateResult {
	return GateResult{Gate: g, Verdict: NoData, A: math.NaN(), B: math.NaN(), P: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Why: fmt.Sprintf(why, args...)}
}

// judgeThroughput is Welch's test of mean(B) ≥ (1−tol)·mean(A).
func judgeThroughput(g Gate, a, b *jsonreport.Report) GateResult {
	key := func(r *jsonreport.Report) string { return byOpKey(r, g.Op) }
	if g.Op != "" {
		for _, r := range []struct {
			name string
			r    *jsonreport.Report
		}{{"A", a}, {"B", b}} {
			if key(r.r) == "" {
				return noData(g, "%s's intervals count no %s operations (by_op)", r.name, g.Op)
			}
		}
	}
	ra, rb := merge.Rates(a, key(a)), merge.Rates(b, key(b))
	c := 1 - g.Tolerance
	t := welchScaled(ra, rb, c)
	res := GateResult{Gate: g, A: t.MeanA, B: t.MeanB, P: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	if !t.OK {
		return noData(g, "too few intervals to test (%d, %d; need 3 each)", t.NA, t.NB)
	}
	res.P = t.P
	bound := c * t.MeanA
	resol := merge.Resolution(a, b, t.MeanA, t.MeanB)
	lim := strconv.FormatFloat(g.Tolerance*100, 'f', -1, 64)
	stat := fmt.Sprintf("Welch t=%.2f, df=%.1f", t.T, t.DF)
	switch {
	case t.MeanB >= bound:
		res.Why = fmt.Sprintf("B is within %s%% of A (%s)", lim, stat)
	case bound-t.MeanB < resol:
		res.Why = fmt.Sprintf("B is more than %s%% below A by less than the resolution (%s ops/s)", lim, strconv.FormatFloat(resol, 'g', 3, 64))
	case t.P < merge.Alpha:
		res.Verdict = Fail
		res.Why = fmt.Sprintf("B is significantly more than %s%% below A (%s)", lim, stat)
	default:
		res.Why = fmt.Sprintf("B is more than %s%% below A, but not significantly (%s)", lim, stat)
	}
	return res
}

// byOpKey is the by_op name of op in r's intervals (case ignored), "" if
// none counts it; "" for op "" too (the overall count).
func byOpKey(r *jsonreport.Report, op string) string {
	if op == "" {
		return ""
	}
	for _, iv := range r.Intervals {
		for k := range iv.ByOp {
			if strings.EqualFold(k, op) {
				return k
			}
		}
	}
	return ""
}

// welchScaled is Welch's one-sided test of mean(b) ≥ c·mean(a) against
// mean(b) < c·mean(a): t = (mean(b) − c·mean(a)) / √(c²·va/na + vb/nb),
// na and nb the effective sample sizes, df by Welch–Satterthwaite. P is
// P(T ≤ t).
func welchScaled(a, b []float64, c float64) merge.Test {
	t, se := merge.WelchScaledT(a, b, c)
	switch {
	case !t.OK:
	case se == 0:
		t.P = 1
		if t.MeanB-c*t.MeanA < 0 {
			t.T, t.P = math.Inf(-1), 0
		}
	default:
		half := merge.StudentTwoSided(t.T, t.DF) / 2
		if t.T < 0 {
			t.P = half
		} else {
			t.P = 1 - half
		}
	}
	return t
}

// series is one run's latency as the bootstrap resamples it: units (an
// interval each, or adjacent intervals merged), their counts and sums
// for the mean, and for percentiles each unit's cumulative count at
// every value any unit holds (grid), so that a replicate's percentile is
// a bisection over the grid.
type series struct {
	// intervals is how many intervals of full length (fullLength) the
	// run has, per how many of them a unit merges.
	intervals, per int
	count          []int64   // samples per unit
	sum            []float64 // µs per unit
	grid           []int64   // distinct values (highest equivalent of an HdrHistogram bucket), ascending
	// cum[j*len(count)+i]: samples of unit i at or below grid[j]; a grid
	// value's counts side by side, as a bisection step reads them.
	cum []int64
}

// point is one non-empty histogram bucket.
type point struct{ v, n int64 }

func pointsOf(h *hdrhistogram.Histogram) []point {
	var pts []point
	for _, bar := range h.Distribution() {
		if bar.Count > 0 {
			pts = append(pts, point{bar.To, bar.Count})
		}
	}
	return pts
}

// newSeries builds a series from per-interval points, counts and sums,
// merging adjacent intervals into at most maxGateUnits units.
func newSeries(pts [][]point, counts []int64, sums []float64) *series {
	per := max((len(pts)+maxGateUnits-1)/maxGateUnits, 1)
	s := &series{intervals: len(pts), per: per}
	var merged [][]point
	for start := 0; start < len(pts); start += per {
		end := min(start+per, len(pts))
		var u []point
		var n int64
		var sum float64
		for i := start; i < end; i++ {
			u = append(u, pts[i]...)
			n += counts[i]
			sum += sums[i]
		}
		merged = append(merged, u)
		s.count = append(s.count, n)
		s.sum = append(s.sum, sum)
	}
	for _, u := range merged {
		for _, p := range u {
			s.grid = append(s.grid, p.v)
		}
	}
	slices.Sort(s.grid)
	s.grid = slices.Compact(s.grid)
	units := len(merged)
	s.cum = make([]int64, len(s.grid)*units)
	for i, u := range merged {
		for _, p := range u {
			j, _ := slices.BinarySearch(s.grid, p.v)
			s.cum[j*units+i] += p.n
		}
		for j := 1; j < len(s.grid); j++ {
			s.cum[j*units+i] += s.cum[(j-1)*units+i]
		}
	}
	return s
}

// latencySeries returns r's intervals as a series of op's latency (its
// measurements other than intended ones; slo.All for every operation);
// why is set when there is none. An interval not of full length
// (fullLength) adds its operations to the interval before it (one before
// the first, to the first): the figure is the run's, every operation in
// it, and the intervals are those the throughput test counts.
func latencySeries(r *jsonreport.Report, g Gate) (s *series, why string) {
	var pts [][]point
	var counts []int64
	var sums []float64
	seen := false
	full := merge.FullLength(r)
	// A short interval before the first of full length waits for it.
	var early []point
	var earlyN int64
	var earlySum float64
	for i, iv := range r.Intervals {
		var u []point
		var n int64
		var sum float64
		for _, name := range slices.Sorted(maps.Keys(iv.Latency)) {
			if !matchesOp(r, name, g.Op) {
				continue
			}
			l := iv.Latency[name]
			seen = true
			n += l.Count
			sum += l.MeanUs * float64(l.Count)
			if g.Stat != GatePercentile || l.Count == 0 {
				continue
			}
			if l.Histogram == "" {
				return nil, "intervals without latency histograms (a report from before they were kept, or a merge of clients whose intervals did not line up)"
			}
			h, err := jsonreport.DecodeHistogram(l.Histogram)
			if err != nil {
				return nil, fmt.Sprintf("an interval's histogram does not decode: %v", err)
			}
			u = append(u, pointsOf(h)...)
		}
		switch k := len(pts) - 1; {
		case full[i]:
			pts = append(pts, append(early, u...))
			counts = append(counts, earlyN+n)
			sums = append(sums, earlySum+sum)
			early, earlyN, earlySum = nil, 0, 0
		case k >= 0:
			pts[k] = append(pts[k], u...)
			counts[k] += n
			sums[k] += sum
		default:
			early, earlyN, earlySum = append(early, u...), earlyN+n, earlySum+sum
		}
	}
	if !seen {
		return nil, fmt.Sprintf("no per-interval latency of %s (a report from before it was kept, or no such operation)", g.Op)
	}
	if len(pts) == 0 {
		// No interval of full length (each of 0 ms): the operations make
		// the figure, and the test counts no interval.
		s := newSeries([][]point{early}, []int64{earlyN}, []float64{earlySum})
		s.intervals = 0
		return s, ""
	}
	return newSeries(pts, counts, sums), ""
}

// matchesOp says whether r's measurement name is one of op's latencies:
// op's own measurements (READ, READ-FAILED, ...), not intended ones
// unless named (Intended-READ); slo.All is every operation but those
// slo.LeftOut leaves out.
func matchesOp(r *jsonreport.Report, name, op string) bool {
	operation, intended := name, strings.HasPrefix(name, "Intended-")
	if m := r.Find(name); m != nil {
		if m.Operation != "" {
			operation = m.Operation
		}
		intended = m.Intended
	}
	if op == slo.All {
		return !intended && !slo.LeftOut(operation, r.OwnRMW())
	}
	return strings.EqualFold(name, op) || (!intended && strings.EqualFold(operation, op))
}

// figure is the gate's statistic over the units drawn w[i] times each
// (nil: each once); ok is false without samples.
func (s *series) figure(g Gate, w []int64) (v float64, ok bool) {
	if w == nil {
		w = make([]int64, len(s.count))
		for i := range w {
			w[i] = 1
		}
	}
	var total int64
	var sum float64
	for i, n := range s.count {
		total += w[i] * n
		sum += float64(w[i]) * s.sum[i]
	}
	if total == 0 {
		return 0, false
	}
	if g.Stat == GateMean {
		return sum / float64(total), true
	}
	return float64(s.percentile(w, total, g.Percentile)), true
}

// percentile is HdrHistogram's ValueAtPercentile of the merge of the
// units, unit i taken w[i] times: the first grid value at which the
// merged count reaches the rank p/100·total (rounded, at least 1).
func (s *series) percentile(w []int64, total int64, p float64) int64 {
	rank := min(max(int64(p/100*float64(total)+0.5), 1), total)
	units := len(s.count)
	j := sort.Search(len(s.grid), func(j int) bool {
		var n int64
		for i, c := range s.cum[j*units : (j+1)*units] {
			n += w[i] * c
		}
		return n >= rank
	})
	return s.grid[min(j, len(s.grid)-1)]
}

// samples is the series' sample count.
func (s *series) samples() int64 {
	var n int64
	for _, c := range s.count {
		n += c
	}
	return n
}

// blockLength is the circular bootstrap's block for the series, and
// widen, the factor by which a replicate's log deviation from the run's
// figure is widened, so that the replicates spread as the figure would
// from run to run. Both come from the autocorrelations ρ_k of the units'
// mean latency, summed within Sokal's window (the smallest M with
// M ≥ 5·τ(M)) into τ = 1+2Σρ_k, the number of neighbouring units that
// count as one:
//   - the block is max(n^(1/3), τ) units, at most n/3;
//   - blocks of l see the autocovariance at lag k weighted by 1−k/l
//     (Bartlett's weights), 1+2Σ(1−k/l)ρ_k of τ: the spread is widened
//     by the square root of what they miss;
//   - a percentile bootstrap spreads as a normal would, where an estimate
//     from n/τ effective samples spreads as Student's t with n/τ−1
//     degrees of freedom: the spread is widened by √(m/(m−1))·t/z
//     (Hesterberg's expanded percentile interval, with m = n/τ).
func (s *series) blockLength() (l int, widen float64) {
	n := len(s.count)
	var means []float64
	for i, c := range s.count {
		if c > 0 {
			means = append(means, s.sum[i]/float64(c))
		}
	}
	rho := autocorrelations(means)
	tau := integratedTime(rho)
	l = int(max(1, min(max(math.Ceil(math.Cbrt(float64(n))), math.Ceil(tau)), float64(n/3))))
	seen := 1.0
	for k := 1; k < l && k < len(rho); k++ {
		seen += 2 * (1 - float64(k)/float64(l)) * rho[k]
	}
	widen = 1.0
	if seen > 0 {
		widen = math.Sqrt(max(tau/seen, 1))
	}
	m := max(float64(n)/tau, 2)
	widen *= math.Sqrt(m/(m-1)) * studentQuantile(1-merge.Alpha, m-1) / studentQuantile(1-merge.Alpha, math.Inf(1))
	return l, widen
}

// widened is a replicate's figure x moved f times as far from the run's
// figure, in logarithms.
func widened(x, figure, f float64) float64 {
	if x <= 0 || figure <= 0 {
		return x
	}
	return figure * math.Pow(x/figure, f)
}

// integratedTime is τ = 1+2Σρ_k of a series' autocorrelations rho,
// summed within Sokal's window (the smallest M with M ≥ 5·τ(M)), at least
// 1: how many neighbouring samples count as one.
func integratedTime(rho []float64) float64 {
	tau := 1.0
	for k := 1; k < len(rho); k++ {
		tau += 2 * rho[k]
		if float64(k) >= 5*tau {
			break
		}
	}
	return max(tau, 1)
}

// autocorrelations of x at lags 0..len(x)/2 (ρ_0 = 1).
func autocorrelations(x []float64) []float64 {
	n := len(x)
	if n < 3 {
		return []float64{1}
	}
	mean, _, _ := merge.MeanVar(x)
	var c0 float64
	for _, v := range x {
		c0 += (v - mean) * (v - mean)
	}
	out := []float64{1}
	if c0 == 0 {
		return out
	}
	for k := 1; k <= n/2; k++ {
		var c float64
		for i := k; i < n; i++ {
			c += (x[i] - mean) * (x[i-k] - mean)
		}
		out = append(out, c/c0)
	}
	return out
}

// studentQuantile is the q-quantile (q > 0.5) of Student's t with df
// degrees of freedom (df +Inf: the normal's), by bisection of
// studentTwoSided.
func studentQuantile(q, df float64) float64 {
	if math.IsInf(df, 1) {
		return math.Sqrt2 * math.Erfinv(2*q-1)
	}
	lo, hi := 0.0, 1e3
	for range 100 {
		mid := (lo + hi) / 2
		if merge.StudentTwoSided(mid, df)/2 > 1-q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// resample draws a circular block bootstrap replicate, blocks of l, into
// w: how often each unit was drawn.
func resample(rng *rand.Rand, w []int64, l int) {
	clear(w)
	n := len(w)
	for drawn := 0; drawn < n; {
		s := rng.IntN(n)
		for k := 0; k < l && drawn < n; k++ {
			w[(s+k)%n]++
			drawn++
		}
	}
}

// gateSeed derives the bootstrap's seed from the gate and both runs, so
// that the same two files always give the same verdict.
func gateSeed(g Gate, runs ...*series) uint64 {
	h := fnv.New64a()
	io.WriteString(h, g.Text)
	var b [8]byte
	put := func(v uint64) {
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, s := range runs {
		put(uint64(len(s.count)))
		for i, n := range s.count {
			put(uint64(n))
			put(math.Float64bits(s.sum[i]))
		}
		for _, v := range s.grid {
			put(uint64(v))
		}
	}
	return h.Sum64()
}

func judgeLatency(g Gate, a, b *jsonreport.Report, cache seriesCache) GateResult {
	sa, why := cache.get(a, g)
	if why != "" {
		return noData(g, "A: %s", why)
	}
	sb, why := cache.get(b, g)
	if why != "" {
		return noData(g, "B: %s", why)
	}
	return judgeSeries(g, sa, sb)
}

// judgeSeries is the bootstrap test of a latency gate (see the top of
// this file).
func judgeSeries(g Gate, sa, sb *series) GateResult {
	va, okA := sa.figure(g, nil)
	vb, okB := sb.figure(g, nil)
	if !okA || !okB {
		which := "A"
		if okA {
			which = "B"
		}
		return noData(g, "%s measured no %s operations", which, g.Op)
	}
	figures := func(r GateResult) GateResult {
		r.A, r.B = va, vb
		return r
	}
	if na, nb := sa.intervals, sb.intervals; na < minGateIntervals || nb < minGateIntervals {
		return figures(noData(g, "too few intervals to resample (%d, %d; need %d each)", na, nb, minGateIntervals))
	}
	if va == 0 {
		return figures(noData(g, "A's figure is 0 us: no ratio"))
	}
	if g.Stat == GatePercentile {
		// Each run needs slo.MinTailOps operations beyond the gated
		// percentile, as an objective does: a p99.9 of 5000 operations
		// rests on 5.
		for _, run := range []struct {
			name string
			s    *series
		}{{"A", sa}, {"B", sb}} {
			n := run.s.samples()
			if why := slo.TooFewOps(n, g.Percentile); why != "" {
				return figures(noData(g, "%s has %d operations; %s", run.name, n, why))
			}
		}
	}
	res := GateResult{Gate: g, A: va, B: vb}
	rng := rand.New(rand.NewPCG(gateSeed(g, sa, sb), 0x9e3779b97f4a7c15))
	la, fa := sa.blockLength()
	lb, fb := sb.blockLength()
	wa, wb := make([]int64, len(sa.count)), make([]int64, len(sb.count))
	limit := 1 + g.Tolerance
	ratios := make([]float64, 0, GateReplicates)
	within := 0
	for range GateReplicates {
		resample(rng, wa, la)
		resample(rng, wb, lb)
		xa, okA := sa.figure(g, wa)
		xb, okB := sb.figure(g, wb)
		var ratio float64
		switch {
		case !okA || !okB || (xa == 0 && xb == 0): // no evidence either way
			ratio = 1
		case xa == 0:
			ratio = math.Inf(1)
		default:
			ratio = widened(xb, vb, fb) / widened(xa, va, fa)
		}
		ratios = append(ratios, ratio)
		if ratio <= limit {
			within++
		}
	}
	slices.Sort(ratios)
	res.Lo, res.Hi = quantile(ratios, 0.05), quantile(ratios, 0.95)
	res.P = float64(within+1) / float64(GateReplicates+1)
	lim := strconv.FormatFloat(g.Tolerance*100, 'f', -1, 64)
	// Blocks of units, in intervals: a unit of a long run merges per
	// intervals.
	blocks := fmt.Sprintf("%d/%d intervals in blocks of %d/%d", sa.intervals, sb.intervals, la*sa.per, lb*sb.per)
	if min(sa.intervals, sb.intervals) < fewGateIntervals {
		blocks += fmt.Sprintf("; with fewer than %d the test fails too readily", fewGateIntervals)
	}
	switch {
	case res.P < merge.Alpha:
		res.Verdict = Fail
		res.Why = fmt.Sprintf("B is significantly more than %s%% above A (%s)", lim, blocks)
	case vb > va*limit:
		res.Why = fmt.Sprintf("B is more than %s%% above A, but not significantly (%s)", lim, blocks)
	default:
		res.Why = fmt.Sprintf("B is within %s%% of A (%s)", lim, blocks)
	}
	return res
}

// quantile is the q-quantile of sorted x, by the nearest rank.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// unjudgedInterrupted makes the gates over an interrupted report NO DATA,
// their figures kept for the reader: a run stopped part way is not the run
// the gate was written for, and neither a pass nor a failure of it says
// whether the change regressed (its last interval is cut short, a run
// stopped during a slow phase looks slow). A CI job reads exit 4.
func unjudgedInterrupted(judged []GateResult, a, b *jsonreport.Report) {
	var why string
	switch {
	case a.Interrupted != nil && b.Interrupted != nil:
		why = fmt.Sprintf("A and B interrupted (A %s; B %s)", a.Interrupted, b.Interrupted)
	case a.Interrupted != nil:
		why = "A " + a.Interrupted.String()
	case b.Interrupted != nil:
		why = "B " + b.Interrupted.String()
	default:
		return
	}
	for i := range judged {
		judged[i].Verdict, judged[i].Why = NoData, why
	}
}
