package jsonreport

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement"
)

// The phases a report names: a load, a run, a capacity search (ycsb
// capacity). A report merged from HdrHistogram logs has none: the logs
// do not say.
const (
	PhaseLoad     = "load"
	PhaseRun      = "run"
	PhaseCapacity = "capacity"
)

// ClientVerdicts are the client verdict's names (ClientVerdict.Verdicts):
// KeptUp alone, or one or more of the others.
var ClientVerdicts = []string{KeptUp, "THREAD-BOUND", "CPU-BOUND", "STEAL", "GC-PAUSES", "CPU-WAIT", "LATE-WAKEUPS"}

// KeptUp is the verdict of a client that kept up with its work.
const KeptUp = "KEPT UP"

// The operations whose measurements follow rules of their own (see
// Recorder in package measurement): VERIFY keeps a value per verified
// read and its status, but no value when latencies are measured from the
// intended start; CLEANUP is a latency per session closed, and a status
// only for a close that failed; INSERT may hold writes acknowledged as
// buffered whose batch was lost later, moved to a failed status without
// a latency of their own.
const (
	verifyName = "VERIFY"
	insertName = "INSERT"
)

// meanSlack is how far (relative, and in µs) a mean may lie from its
// histogram's: a histogram keeps values to 3 significant digits (0.1%),
// and a mean of the exact values lies within that of the buckets' mean.
const (
	meanSlackRel = 0.002
	meanSlackUs  = 1
)

// consistent checks the figures against one another, once each is known
// to be a valid figure on its own: what no run, merge or search writes is
// refused, naming the field and what it should agree with. Rules that
// hold only in reports written since a version say so.
func (c *checker) consistent(r *Report) {
	if c.err != nil {
		return
	}
	merged := len(r.Sources) > 0 || r.Clients > 1
	switch r.Phase {
	case PhaseLoad, PhaseRun, PhaseCapacity:
	case "":
		if r.Operations != 0 || len(r.Intervals) != 0 {
			c.fail("phase", "missing (load, run or capacity), in a report of %d operations", r.Operations)
		}
	default:
		c.fail("phase", "%s is not load, run or capacity", shown.Quote(r.Phase))
	}
	switch {
	case r.Capacity != nil && r.Phase != PhaseCapacity:
		c.fail("capacity", "a capacity search in a %s phase (expected phase capacity)", shown.Quote(r.Phase))
	case r.Capacity == nil && r.Phase == PhaseCapacity:
		c.fail("capacity", "missing in a capacity phase")
	}
	if r.Failed != nil {
		c.count("failed_operations", *r.Failed)
		if *r.Failed > r.Operations {
			c.fail("failed_operations", "%d is above operations %d", *r.Failed, r.Operations)
		}
	}
	if !merged && r.Capacity == nil {
		c.throughput(r)
	}
	c.intervalSums(r)
	for i, iv := range r.Intervals {
		for _, name := range sortedKeys(iv.Latency) {
			l := iv.Latency[name]
			c.summary(fmt.Sprintf("intervals[%d].latency.%s.", i, name), l.Count, l.MeanUs, nil, l.MaxUs, l.Percentiles, l.Histogram)
		}
	}
	c.figures("", r.Measurements, r.Capacity == nil && r.Phase != "", r.Operations)
	if r.Capacity == nil && r.Version >= 2 {
		c.byOp(r)
		if !merged {
			c.intervalLatencies(r)
		}
	}
	if s := r.Schedule; s != nil {
		if s.TargetOpsSec == 0 {
			c.fail("schedule.target_ops_sec", "0, but a schedule is kept only for a run with a target")
		}
		c.startsAgree("schedule.wake.", s.Wake)
		c.startsAgree("schedule.behind.", s.Behind)
	}
	if v := r.ClientVerdict; v != nil {
		c.clientVerdict("client_verdict.", v)
	}
	if cp := r.Capacity; cp != nil {
		c.capacityAgrees(r, cp)
	}
}

// throughput checks a single run's throughput: its operations over its
// run time, which runtime_ms holds rounded down to the millisecond.
func (c *checker) throughput(r *Report) {
	if c.err != nil || r.RunTimeMs == 0 {
		return
	}
	ops := float64(r.Operations)
	hi := ops / (float64(r.RunTimeMs) / 1000)
	lo := ops / (float64(r.RunTimeMs+1) / 1000)
	if r.Throughput > hi*(1+1e-9) || r.Throughput < lo*(1-1e-9) {
		c.fail("throughput_ops_sec", "%v is not operations %d over runtime_ms %d (%.6g)", r.Throughput, r.Operations, r.RunTimeMs, hi)
	}
}

// intervalSums checks that the intervals' operations add up to the
// report's: each operation is counted in the interval it ended in, and a
// merge spreads the clients' intervals over its own exactly. A version 1
// report counted database calls (Read rescales them); a report without
// intervals has none to add up.
func (c *checker) intervalSums(r *Report) {
	if c.err != nil || r.Version < 2 || len(r.Intervals) == 0 {
		return
	}
	var sum int64
	for _, iv := range r.Intervals {
		sum = addUp(sum, iv.Ops)
	}
	if sum != r.Operations {
		c.fail("intervals", "their ops add up to %s, but operations is %d", total(sum), r.Operations)
	}
}

// byOp checks the intervals' operations by name against the
// measurements' returns: an interval's by_op is the returns counted
// within it. A lost buffered insert moves a return to a failed status in
// a later interval, which counts it again, so INSERT's may exceed its
// returns by its failed ones.
func (c *checker) byOp(r *Report) {
	if c.err != nil {
		return
	}
	sums := map[string]int64{}
	for _, iv := range r.Intervals {
		for op, n := range iv.ByOp {
			sums[op] = addUp(sums[op], n)
		}
	}
	if len(sums) == 0 {
		return // older reports have none
	}
	returns := map[string]int64{}
	failed := map[string]int64{}
	for _, m := range r.Measurements {
		if m.Intended {
			continue
		}
		for _, rc := range m.Returns {
			returns[m.Name] = addUp(returns[m.Name], rc.Count)
			if !okStatus(rc.Status) {
				failed[m.Name] = addUp(failed[m.Name], rc.Count)
			}
		}
	}
	for _, op := range sortedKeys(sums) {
		n, want := sums[op], returns[op]
		if n == want || op == insertName && n > want && n-want <= failed[op] {
			continue
		}
		c.fail("intervals[].by_op."+op, "they add up to %s, but %s's returns add up to %d", total(n), op, want)
		return
	}
	for _, op := range sortedKeys(returns) {
		if _, ok := sums[op]; !ok && returns[op] > 0 {
			c.fail("intervals[].by_op."+op, "missing, but %s's returns add up to %d", op, returns[op])
			return
		}
	}
}

// intervalLatencies checks one run's intervals' latencies against its
// measurements: every latency was recorded in one interval.
func (c *checker) intervalLatencies(r *Report) {
	if c.err != nil {
		return
	}
	counts := map[string]int64{}
	for _, iv := range r.Intervals {
		for name, l := range iv.Latency {
			counts[name] = addUp(counts[name], l.Count)
		}
	}
	if len(counts) == 0 {
		return // older reports have none
	}
	for _, name := range sortedKeys(counts) {
		m := r.Find(name)
		if m == nil {
			c.fail("intervals[].latency."+name, "no measurement %s", name)
			return
		}
		if counts[name] != m.Count {
			c.fail("intervals[].latency."+name+".count", "they add up to %s, but measurement %s counts %d", total(counts[name]), name, m.Count)
			return
		}
	}
	for _, m := range r.Measurements {
		if m.Count > 0 && counts[m.Name] == 0 {
			c.fail("intervals[].latency."+m.Name, "missing, but measurement %s counts %d", m.Name, m.Count)
			return
		}
	}
}

// figures checks a report's or a capacity step's measurements against
// one another (prefix names the step): their summaries agree with their
// histograms, each operation's returns with its latencies; and in a run's
// or a capacity step's (ofRun, not a merge of HdrHistogram logs, which
// holds whatever logs it was given), each intended latency with its
// service latency and the returns with the operations.
func (c *checker) figures(prefix string, ms []Measurement, ofRun bool, ops int64) {
	if c.err != nil {
		return
	}
	for i, m := range ms {
		f := fmt.Sprintf("%smeasurements[%d] (%s).", prefix, i, m.Name)
		c.summary(f, m.Count, m.MeanUs, &m.MinUs, m.MaxUs, m.Percentiles, m.Histogram)
	}
	// Each operation's plain measurement holds its returns; its latencies
	// are in it and in its -FAILED and -<STATUS> measurements.
	latencies := map[string]int64{}
	for _, m := range ms {
		if !m.Intended {
			latencies[m.Operation] = addUp(latencies[m.Operation], m.Count)
		}
	}
	var returned int64
	for i, m := range ms {
		f := fmt.Sprintf("%smeasurements[%d] (%s).", prefix, i, m.Name)
		if m.Intended && !ofRun {
			continue
		}
		if m.Intended {
			if !strings.HasPrefix(m.Name, "Intended-") {
				c.fail(f+"intended", "true, but the name does not start with Intended-")
				return
			}
			// Intended latency is measured beside service latency, one
			// for one.
			plain := strings.TrimPrefix(m.Name, "Intended-")
			j := slices.IndexFunc(ms, func(p Measurement) bool { return p.Name == plain && !p.Intended })
			if j < 0 {
				c.fail(f+"count", "%d intended latencies, but there is no measurement %s", m.Count, plain)
				return
			}
			if ms[j].Count != m.Count {
				c.fail(f+"count", "%d, but %s counts %d (intended latency is measured beside each service latency)", m.Count, plain, ms[j].Count)
				return
			}
			continue
		}
		if len(m.Returns) == 0 {
			continue // a latency without statuses (READ-MODIFY-WRITE, SCAN-LATENCY-PER-RECORD)
		}
		if m.Name != m.Operation {
			c.fail(f+"returns", "on %s, but statuses are counted on the operation's own measurement %s", m.Name, m.Operation)
			return
		}
		var rets, failedRets int64
		for _, rc := range m.Returns {
			rets = addUp(rets, rc.Count)
			if !okStatus(rc.Status) {
				failedRets = addUp(failedRets, rc.Count)
			}
		}
		lat := latencies[m.Operation]
		switch m.Name {
		case measurement.CleanupName:
			// A status for each close that failed, a latency for each.
			if rets > m.Count {
				c.fail(f+"returns", "they add up to %s, more than the %d closes counted", total(rets), m.Count)
			}
			continue
		case verifyName:
			// A value and a status for each verified read, or only the
			// status when latency is measured from the intended start; a
			// verification is no operation of its own.
			if m.Count == 0 || m.Count == rets {
				continue
			}
		case insertName:
			if lat <= rets && rets-lat <= failedRets {
				returned = addUp(returned, rets)
				continue
			}
		}
		if lat != rets {
			c.fail(f+"returns", "they add up to %s, but %s's measurements hold %d latencies (one for each return)", total(rets), m.Operation, lat)
			return
		}
		returned = addUp(returned, rets)
	}
	// Every operation of the worker loops returned at least one status
	// (a read-modify-write two, a verified read one more), counted or
	// not; VERIFY and CLEANUP are none of them.
	if ofRun && returned < ops {
		c.fail(prefix+"measurements", "their returns add up to %s, fewer than operations %d (each operation returns a status)", total(returned), ops)
	}
}

// summary checks one histogram's summary figures against one another
// and, when the histogram is there, against it: the mean and every
// percentile between the least and the greatest value. minUs is nil for a
// summary without one (an interval's).
func (c *checker) summary(f string, count int64, mean float64, minUs *int64, maxUs int64, pcts map[string]int64, enc string) {
	if c.err != nil {
		return
	}
	if count == 0 {
		if mean != 0 || maxUs != 0 || len(pcts) != 0 {
			c.fail(f+"count", "0, but the mean, the maximum or the percentiles are not")
		}
		return
	}
	lo, hi := int64(0), maxUs
	if minUs != nil {
		lo = *minUs
	}
	if enc != "" {
		h, err := DecodeHistogram(enc) // Read has decoded it once already
		if err != nil {
			return
		}
		st := measurement.StatsOf(h)
		if minUs != nil && !sameValue(h, *minUs, st.Min) {
			c.fail(f+"min_us", "%d, but the histogram's least value is %d", *minUs, st.Min)
			return
		}
		if !sameValue(h, maxUs, st.Max) {
			c.fail(f+"max_us", "%d, but the histogram's greatest value is %d", maxUs, st.Max)
			return
		}
		if math.Abs(mean-st.Mean) > st.Mean*meanSlackRel+meanSlackUs {
			c.fail(f+"mean_us", "%v, but the histogram's mean is %.6g", mean, st.Mean)
			return
		}
		lo, hi = min(lo, st.Min), max(hi, st.Max) // the buckets' bounds
	}
	if mean < float64(lo)-meanSlackUs || mean > float64(hi)+meanSlackUs {
		c.fail(f+"mean_us", "%v is not between the least value %d and the greatest %d", mean, lo, hi)
		return
	}
	type pct struct {
		p   float64
		key string
		v   int64
	}
	var ps []pct
	for k, v := range pcts {
		p, err := strconv.ParseFloat(strings.TrimPrefix(k, "p"), 64)
		if err != nil || !strings.HasPrefix(k, "p") || math.IsNaN(p) || p < 0 || p > 100 {
			c.fail(f+"percentiles_us."+k, "not a percentile (p50, p99.9)")
			return
		}
		ps = append(ps, pct{p, k, v})
	}
	slices.SortFunc(ps, func(a, b pct) int {
		if a.p != b.p {
			if a.p < b.p {
				return -1
			}
			return 1
		}
		return strings.Compare(a.key, b.key)
	})
	for i, p := range ps {
		if p.v < lo || p.v > hi {
			c.fail(f+"percentiles_us."+p.key, "%d is not between the least value %d and the greatest %d", p.v, lo, hi)
			return
		}
		if i > 0 && p.v < ps[i-1].v {
			c.fail(f+"percentiles_us."+p.key, "%d is below %s %d", p.v, ps[i-1].key, ps[i-1].v)
			return
		}
	}
}

// sameValue says whether v and w fall in one bucket of h: a figure read
// from the histogram, or the exact value it holds to h's precision.
func sameValue(h *hdrhistogram.Histogram, v, w int64) bool {
	return h.ValuesAreEquivalent(v, w)
}

// startsAgree checks a Schedule's Starts against its histogram.
func (c *checker) startsAgree(prefix string, s *Starts) {
	if s == nil || c.err != nil {
		return
	}
	if s.Count == 0 {
		c.fail(prefix+"count", "0, but a distribution of no starts is left out")
		return
	}
	c.summary(prefix, s.Count, s.MeanUs, nil, s.MaxUs, map[string]int64{"p50": s.P50Us, "p99": s.P99Us}, s.Histogram)
}

// clientVerdict checks the client's verdict: known names, KEPT UP alone,
// shares and percentages in range.
func (c *checker) clientVerdict(f string, v *ClientVerdict) {
	if len(v.Verdicts) == 0 {
		c.fail(f+"verdicts", "none (expected %s or the limits the client ran into)", KeptUp)
	}
	for i, name := range v.Verdicts {
		switch {
		case !slices.Contains(ClientVerdicts, name):
			c.fail(fmt.Sprintf("%sverdicts[%d]", f, i), "%s is not one of %s", shown.Quote(name), strings.Join(ClientVerdicts, ", "))
		case name == KeptUp && len(v.Verdicts) > 1:
			c.fail(fmt.Sprintf("%sverdicts[%d]", f, i), "%s beside the limits the client ran into", KeptUp)
		case slices.Index(v.Verdicts, name) != i:
			c.fail(fmt.Sprintf("%sverdicts[%d]", f, i), "%s given twice", name)
		}
	}
	c.count(f+"threads", int64(v.Threads))
	c.count(f+"target_ops_sec", v.TargetOpsSec)
	for _, fig := range []struct {
		name string
		v    *float64
		pct  bool
	}{
		{"cores", v.Cores, false}, {"cpu_cores", v.CPUCores, false}, {"cpu_wait_cores", v.CPUWaitCores, false},
		{"steal_pct", v.StealPct, true}, {"gc_pause_pct", &v.GCPausePct, true}, {"mean_latency_us", v.MeanLatencyUs, false},
		{"max_offered_ops_sec", v.MaxOfferedOpsSec, false}, {"cpu_wait_share", v.CPUWaitShare, false}, {"wake_late_share", v.WakeLateShare, false},
	} {
		if fig.v == nil {
			continue
		}
		c.real(f+fig.name, *fig.v)
		if fig.pct && *fig.v > 100 {
			c.fail(f+fig.name, "%v is above 100%%", *fig.v)
		}
	}
	if v.FinalLagUs != nil {
		c.count(f+"final_lag_us", *v.FinalLagUs)
	}
}

// capacityAgrees checks a capacity search: its steps' operations add up
// to the report's, each step's figures agree as a run's do, and the
// answer is what a passing step served (measurement.Served: its achieved
// rate, at most its asked one) below the rate of a step that did not pass.
func (c *checker) capacityAgrees(r *Report, cp *Capacity) {
	var ops int64
	asked, served := map[float64]bool{}, map[float64]bool{}
	for i, st := range cp.Steps {
		f := fmt.Sprintf("capacity.steps[%d].", i)
		ops = addUp(ops, st.Operations)
		asked[st.AskedOpsSec] = true
		if st.Verdict == StepPassed {
			served[measurement.Served(st.AskedOpsSec, st.AchievedOpsSec)] = true
			if r.Version < 3 {
				served[st.AskedOpsSec] = true // version 2's answer
			}
		}
		c.figures(f, st.Measurements, true, st.Operations)
		if st.Client != nil {
			c.clientVerdict(f+"client.", st.Client)
		}
	}
	if c.err != nil {
		return
	}
	// Reports written before the search counted them have no operations.
	if ops != r.Operations && r.Operations != 0 {
		c.fail("capacity.steps", "their operations add up to %s, but operations is %d", total(ops), r.Operations)
	}
	if cp.MaxOpsSec != 0 && !served[cp.MaxOpsSec] {
		c.fail("capacity.max_ops_sec", "%v is what no passing step served (its achieved rate, at most its asked one)", cp.MaxOpsSec)
	}
	if cp.FirstFailingOpsSec != 0 && !asked[cp.FirstFailingOpsSec] {
		c.fail("capacity.first_failing_ops_sec", "%v is the rate of no step", cp.FirstFailingOpsSec)
	}
	if cp.MaxOpsSec != 0 && cp.FirstFailingOpsSec != 0 && cp.FirstFailingOpsSec <= cp.MaxOpsSec {
		c.fail("capacity.first_failing_ops_sec", "%v is not above max_ops_sec %v", cp.FirstFailingOpsSec, cp.MaxOpsSec)
	}
}

// okStatus says whether a Return's status is a success (OK, BATCHED_OK):
// its latency is in the operation's plain measurement. The statuses are
// known (checker.measurements).
func okStatus(s string) bool {
	st, _ := status.ParseStatus(s)
	return st.IsOK()
}

// addUp adds counts already checked not negative; a sum beyond an int64
// stays at math.MaxInt64, which no count reaches.
func addUp(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// total prints a sum of addUp.
func total(n int64) string {
	if n == math.MaxInt64 {
		return "more than an int64 holds"
	}
	return strconv.FormatInt(n, 10)
}
