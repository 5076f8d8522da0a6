// Package stressreport is the stress mode's output (ycsb stress, after
// cassandra-stress): its interval lines and Results block, the -log
// hdrfile= log, the -log json= report and the -graph page, and the lines
// of its capacity search, -slo verdict and client verdict.
package stressreport

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
)

// timing is the original's TimingInterval (report/TimingInterval.java in
// scylladb/cassandra-stress): one op type's (or all ops') figures over a
// span of time. Latencies are in µs, as the run records them.
type timing struct {
	fixed      bool // -rate fixed=: show response time, not service time
	service    *hdrhistogram.Histogram
	response   *hdrhistogram.Histogram // from the intended start: only under a rate
	wait       *hdrhistogram.Histogram // intended start to start: only under a rate
	startNs    int64                   // math.MaxInt64 when empty
	endNs      int64                   // math.MinInt64 when empty
	partitions int64
	rows       int64
	errors     int64
	retries    int64 // tries after the first, of operations done or failed
}

// HistMaxUs is the histograms' highest value: one hour in µs, the
// recorders' default bound.
const HistMaxUs = 3_600_000_000

func newTiming(fixed bool) *timing {
	return &timing{fixed: fixed, service: hdrhistogram.New(1, HistMaxUs, 3), response: hdrhistogram.New(1, HistMaxUs, 3),
		wait: hdrhistogram.New(1, HistMaxUs, 3), startNs: math.MaxInt64, endNs: math.MinInt64}
}

// latency is the histogram shown: response time with fixed=, else service time.
func (t *timing) latency() *hdrhistogram.Histogram {
	if !t.fixed || t.response.TotalCount() == 0 {
		return t.service
	}
	return t.response
}

func (t *timing) ops() int64 { return t.latency().TotalCount() }

// reported says whether an interval line shows t: it has operations or
// errors (the original's operationCount counts both).
func (t *timing) reported() bool { return t.ops() != 0 || t.errors != 0 }

func (t *timing) secs() float64 { return float64(t.endNs-t.startNs) * 1e-9 }

func (t *timing) opRate() float64  { return float64(t.ops()) / t.secs() }
func (t *timing) pkRate() float64  { return float64(t.partitions) / t.secs() }
func (t *timing) rowRate() float64 { return float64(t.rows) / t.secs() }

// adjustedRowRate leaves out the slowest operation's latency from the
// span, as the original's Uncertainty is fed.
func (t *timing) adjustedRowRate() float64 {
	return float64(t.rows) / (float64(t.endNs-(t.startNs+t.latency().Max()*1000)) * 1e-9)
}

func (t *timing) meanMs() float64 { return t.latency().Mean() / 1000 }
func (t *timing) pctMs(p float64) float64 {
	return float64(t.latency().ValueAtQuantile(p)) / 1000
}
func (t *timing) maxMs() float64 { return float64(t.latency().Max()) / 1000 }

func (t *timing) runTime() time.Duration { return time.Duration(t.endNs - t.startNs) }

// file adds an op's measurement of an interval and reports whether it is
// of operations that succeeded. A failed operation (after its tries, with
// -errors ignore) is an error only: not in the op, partition and row
// counts, nor in the latencies, where the original counts it too
// (StressMetrics.record); see docs/stress.md.
func (t *timing) file(ms *measurement.Measurement) bool {
	t.retries += ms.Retries
	switch {
	case ms.Kind != measurement.KindOK && ms.Kind != KindNoRow:
		if !ms.Intended {
			t.errors += ms.Hist.TotalCount()
		}
		return false
	case ms.Intended:
		t.response.Merge(ms.Hist)
		return false
	}
	t.service.Merge(ms.Hist)
	return true
}

func (t *timing) reset() {
	t.service.Reset()
	t.response.Reset()
	t.wait.Reset()
	t.startNs, t.endNs = math.MaxInt64, math.MinInt64
	t.partitions, t.rows, t.errors, t.retries = 0, 0, 0, 0
}

func (t *timing) add(o *timing) {
	t.startNs = min(t.startNs, o.startNs)
	t.endNs = max(t.endNs, o.endNs)
	t.partitions += o.partitions
	t.rows += o.rows
	t.errors += o.errors
	t.retries += o.retries
	t.service.Merge(o.service)
	t.response.Merge(o.response)
	t.wait.Merge(o.wait)
}

// uncertainty is the original's Uncertainty (util/Uncertainty.java): the
// relative standard error of the mean of the per-interval rates.
type uncertainty struct {
	n               int
	sum, sumSq, unc float64
}

func (u *uncertainty) update(v float64) {
	u.n++
	u.sum += v
	u.sumSq += v * v
	mean := u.sum / float64(u.n)
	stdev := math.Sqrt(u.sumSq/float64(u.n) - mean*mean)
	u.unc = stdev / math.Sqrt(float64(u.n)) / mean
}

// GCStats are the gc columns. The original reads the cluster's collectors
// over JMX; here they are this process's own, from runtime.MemStats.
type GCStats struct {
	count, maxMs, sumMs, sumSqMs, bytes float64
}

func (g GCStats) sdvMs() float64 {
	if g.count == 0 {
		return 0
	}
	mean := g.sumMs / g.count
	return math.Sqrt(math.Max(0, g.sumSqMs/g.count-mean*mean))
}

func (g *GCStats) add(o GCStats) {
	g.count += o.count
	g.maxMs = math.Max(g.maxMs, o.maxMs)
	g.sumMs += o.sumMs
	g.sumSqMs += o.sumSqMs
	g.bytes += o.bytes
}

// gcSampler turns successive MemStats into per-interval GCStats.
type gcSampler struct {
	numGC uint32
	freed uint64
}

func newGCSampler() *gcSampler {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &gcSampler{numGC: ms.NumGC, freed: ms.TotalAlloc - ms.HeapAlloc}
}

func (g *gcSampler) sample() GCStats {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var st GCStats
	n := ms.NumGC - g.numGC
	st.count = float64(n)
	for i := uint32(0); i < n && i < uint32(len(ms.PauseNs)); i++ {
		p := float64(ms.PauseNs[(ms.NumGC-i+255)%256]) / 1e6
		st.maxMs = math.Max(st.maxMs, p)
		st.sumMs += p
		st.sumSqMs += p * p
	}
	if freed := ms.TotalAlloc - ms.HeapAlloc; freed > g.freed {
		st.bytes = float64(freed - g.freed)
		g.freed = freed
	}
	g.numGC = ms.NumGC
	return st
}

// The original's StressMetrics formats.
const (
	headFormat = "%-10s%10s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%7s,%9s,%7s,%7s,%8s,%8s,%8s,%8s"
)

// KindNoRow files a read that found no row under -errors
// skip-read-validation: an operation, not an error, and no partition.
var KindNoRow = measurement.StatusKind(db.NotFound)

var headMetrics = []any{"type", "total ops", "op/s", "pk/s", "row/s", "mean", "med", ".95", ".99", ".999", "max", "time", "stderr", "errors", "gc: #", "max ms", "sum ms", "sdv ms", "mb"}

// Header is the interval lines' header.
func Header(prefix string) string { return prefix + fmt.Sprintf(headFormat, headMetrics...) }

// row is one interval line: ROWFORMAT of the original's StressMetrics.
func row(prefix, typ string, iv, total *timing, gc GCStats, unc float64) string {
	var b strings.Builder
	b.WriteString(prefix)
	fmt.Fprintf(&b, "%-10s%10d,", typ+",", total.ops())
	for _, v := range []float64{iv.opRate(), iv.pkRate(), iv.rowRate()} {
		b.WriteString(pad(jf(v, 0, false), 8) + ",")
	}
	for _, v := range []float64{iv.meanMs(), iv.pctMs(50), iv.pctMs(95), iv.pctMs(99), iv.pctMs(99.9), iv.maxMs()} {
		b.WriteString(pad(jf(v, 1, false), 8) + ",")
	}
	// runTimeMs()/1000f: whole milliseconds, then a float.
	b.WriteString(pad(jf(float64(float32(float64(total.runTime().Milliseconds())/1000)), 1, false), 7) + ",")
	b.WriteString(pad(jf(unc, 5, false), 9) + ",")
	fmt.Fprintf(&b, "%7d,", iv.errors)
	b.WriteString(pad(jf(gc.count, 0, false), 7) + ",")
	for i, v := range []float64{gc.maxMs, gc.sumMs, gc.sdvMs(), math.Floor(gc.bytes / (1 << 20))} {
		b.WriteString(pad(jf(v, 0, false), 8))
		if i < 3 {
			b.WriteByte(',')
		}
	}
	return b.String()
}

// Metrics is one run's StressMetrics over its operations, as named rows:
// a predefined command's kinds, or user's ops(...) as typed. It takes the
// run's intervals, prints the interval lines (a row per operation, in
// the original's TreeMap order of the names, and total), keeps the
// per-op and total summaries and the uncertainty, and stops the run when
// err< is met. The front end sets its exported fields before the run.
type Metrics struct {
	out io.Writer
	// table is what the run measures: the rows, then CLEANUP (the
	// run's own, not a row). Row i is operation i.
	table *measurement.Ops
	names []string // the rows' names
	order []int    // the rows, sorted by name
	// Tally, when set, gives a row's partitions and rows so far, as its
	// operations reported them (user's inserts and queries). Without it,
	// each operation that succeeded is one partition and one row, and a
	// read of no row none (the predefined commands).
	Tally func(row int) (parts, rows int64)
	// EveryRow prints a row per operation even when the run has only one
	// (user does; the predefined commands print total alone).
	EveryRow bool
	StopAt   func(n int, unc float64) bool // nil: no uncertainty stop rule
	Stop     func()
	// HDR is -log hdrfile=, or nil: each row's intervals tagged with its
	// name, <name>-st, -rt and -wt. Waits, when set, adds each row's wait
	// times since the last call to into (the run does not record them).
	HDR   *measurement.TaggedHdrLog
	Waits func(into []*hdrhistogram.Histogram)
	// WallMs turns a Now value into ms since the epoch; tests fix it.
	WallMs func(ns int64) int64
	// Spec, when set (-mode speculativeDelay=), gives the second requests
	// sent and the operations they answered, for the Results block
	Spec func() (sent, won int64)
	// GCSample is this process's GC since the last call, for the gc
	// columns (nil: runtime.MemStats's; tests fix it).
	GCSample func() GCStats

	mu                  sync.Mutex
	startNs             int64
	seen                []bool
	nSeen               int
	cur, sum            []*timing
	lastParts, lastRows []int64 // tally at the last interval
	curTotal, sumTotal  *timing
	totalGC             GCStats
	unc                 uncertainty
}

// NewMetrics returns the metrics, written to out, of a run whose
// operations are table's rows: its names but the last, CLEANUP (the
// run's own). fixed (-rate fixed=) shows response times, not service
// times.
func NewMetrics(out io.Writer, fixed bool, table *measurement.Ops) *Metrics {
	n := table.Len() - 1
	m := &Metrics{out: out, table: table, names: make([]string, n), curTotal: newTiming(fixed), sumTotal: newTiming(fixed),
		seen: make([]bool, n), lastParts: make([]int64, n), lastRows: make([]int64, n),
		WallMs: func(ns int64) int64 { return measurement.WallTime(ns).UnixMilli() }}
	for i := range n {
		m.names[i] = table.Name(measurement.Op(i))
		m.cur = append(m.cur, newTiming(fixed))
		m.sum = append(m.sum, newTiming(fixed))
		m.order = append(m.order, i)
	}
	sort.SliceStable(m.order, func(a, b int) bool { return m.names[m.order[a]] < m.names[m.order[b]] })
	return m
}

// Ops is the table the run measures the run's operations with.
func (m *Metrics) Ops() *measurement.Ops { return m.table }

// Rows is how many rows (operations) the run has.
func (m *Metrics) Rows() int { return len(m.names) }

// StartRun prints the header, as the original does when its StressMetrics
// is made, and starts the clocks.
func (m *Metrics) StartRun(_ time.Time, startNs int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.startNs = startNs
	if m.GCSample == nil {
		m.GCSample = newGCSampler().sample
	}
	fmt.Fprintln(m.out, Header(""))
}

// PrintLine prints a line among the interval lines (not inside one).
func (m *Metrics) PrintLine(s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(m.out, s)
}

// AddInterval files one harvest of the run's collector.
func (m *Metrics) AddInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	m.mu.Lock()
	defer m.mu.Unlock()
	startNs = max(startNs, m.startNs)
	for i := range iv.Measurements {
		ms := &iv.Measurements[i]
		k := int(ms.Op)
		if k >= len(m.names) || ms.Hist == nil {
			continue // CLEANUP
		}
		if !m.seen[k] {
			m.seen[k] = true
			m.nSeen++
		}
		if m.cur[k].file(ms) && m.Tally == nil && ms.Kind == measurement.KindOK {
			n := ms.Hist.TotalCount()
			m.cur[k].partitions += n
			m.cur[k].rows += n
		}
	}
	if m.Waits != nil {
		into := make([]*hdrhistogram.Histogram, len(m.cur))
		for k, c := range m.cur {
			into[k] = c.wait
		}
		m.Waits(into)
	}
	m.addTally()
	m.recordInterval(startNs, endNs)
}

// addTally adds what each row's operations reported since the last
// interval, when they report it.
func (m *Metrics) addTally() {
	if m.Tally == nil {
		return
	}
	for k, c := range m.cur {
		p, r := m.Tally(k)
		c.partitions += p - m.lastParts[k]
		c.rows += r - m.lastRows[k]
		m.lastParts[k], m.lastRows[k] = p, r
	}
}

// recordInterval is the original's StressMetrics.recordInterval. An
// interval line shows an op's operations with their partitions and wait
// times; those, read a moment after the run's harvest (addTally,
// waits) and filed by the workers before they record the operation, can
// come an interval ahead of it: an op's figures wait, neither filed nor
// reset, until an interval that shows the op, so that they are filed once
// and with their operations.
func (m *Metrics) recordInterval(startNs, endNs int64) {
	shown := m.shownRows()
	for _, k := range shown {
		c := m.cur[k]
		c.startNs, c.endNs = startNs, endNs
		m.sum[k].add(c)
		m.curTotal.add(c)
	}
	if len(shown) == 0 {
		// An interval of no operation still extends the ops' spans, as
		// the original's adds its empty intervals.
		for _, k := range m.seenRows() {
			m.sum[k].startNs, m.sum[k].endNs = min(m.sum[k].startNs, startNs), max(m.sum[k].endNs, endNs)
		}
	}
	m.curTotal.startNs, m.curTotal.endNs = startNs, endNs
	m.sumTotal.add(m.curTotal)
	gc := m.GCSample()
	m.totalGC.add(gc)
	m.unc.update(m.curTotal.adjustedRowRate())
	if len(shown) != 0 {
		perOp := m.EveryRow || m.nSeen > 1
		for _, k := range m.seenRows() {
			if perOp {
				fmt.Fprintln(m.out, row("", m.names[k], m.cur[k], m.sum[k], gc, m.unc.unc))
			}
			m.logHistograms(m.names[k], m.cur[k])
		}
		for _, k := range shown {
			m.cur[k].reset()
		}
		fmt.Fprintln(m.out, row("", "total", m.curTotal, m.sumTotal, gc, m.unc.unc))
	}
	m.curTotal.reset()
	if m.StopAt != nil && m.StopAt(m.unc.n, m.unc.unc) {
		m.Stop()
	}
}

// shownRows are the rows an interval line shows, when one does: every
// row seen so far, when any has operations or errors in the interval
// (the original's totalCurrentInterval.operationCount() != 0); else none.
func (m *Metrics) shownRows() []int {
	for _, k := range m.order {
		if m.seen[k] && m.cur[k].reported() {
			return m.seenRows()
		}
	}
	return nil
}

// seenRows are the rows seen so far, in the original's TreeMap order of
// their names.
func (m *Metrics) seenRows() []int {
	var ks []int
	for _, k := range m.order {
		if m.seen[k] {
			ks = append(ks, k)
		}
	}
	return ks
}

// OpRate is the run's total op rate, for the thread ramp.
func (m *Metrics) OpRate() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sumTotal.opRate()
}

// SummaryRows are the run's rows of a ramp's summary table: one per
// operation and total.
func (m *Metrics) SummaryRows(prefix string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, k := range m.seenRows() {
		out = append(out, row(prefix, m.names[k], m.sum[k], m.sum[k], m.totalGC, m.unc.unc))
	}
	return append(out, row(prefix, "total", m.sumTotal, m.sumTotal, m.totalGC, m.unc.unc))
}

// breakdown is TimingIntervals.str: "[READ: 3,514 op/s, WRITE: 1,165 op/s]".
func (m *Metrics) breakdown(f func(t *timing) string, unit string) string {
	var parts []string
	for _, k := range m.seenRows() {
		s := m.names[k] + ": " + f(m.sum[k])
		if unit != "" {
			s += " " + unit
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Summarise writes the Results block (StressMetrics.summarise).
func (m *Metrics) Summarise(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	writeResults(w, m.sumTotal, m.totalGC, m.breakdown, m.Spec)
}

// writeResults writes the Results block of a run's totals h and GC figures
// g; breakdown renders a figure per operation ("[READ: …, WRITE: …]").
//
// spec, when set (-mode speculativeDelay=), gives the second requests sent
// and the operations they answered.
func writeResults(w io.Writer, h *timing, g GCStats, breakdown func(f func(t *timing) string, unit string) string, spec func() (sent, won int64)) {
	rate := func(f func(t *timing) float64) func(t *timing) string {
		return func(t *timing) string { return jf(f(t), 0, true) }
	}
	lat := func(f func(t *timing) float64) func(t *timing) string {
		return func(t *timing) string { return jf(f(t), 1, true) }
	}
	p := func(q float64) func(t *timing) float64 { return func(t *timing) float64 { return t.pctMs(q) } }
	fmt.Fprint(w, "\n\n")
	fmt.Fprintln(w, "Results:")
	fmt.Fprintf(w, "Op rate                   : %8s op/s  %s\n", jf(h.opRate(), 0, true), breakdown(rate((*timing).opRate), "op/s"))
	fmt.Fprintf(w, "Partition rate            : %8s pk/s  %s\n", jf(h.pkRate(), 0, true), breakdown(rate((*timing).pkRate), "pk/s"))
	fmt.Fprintf(w, "Row rate                  : %8s row/s %s\n", jf(h.rowRate(), 0, true), breakdown(rate((*timing).rowRate), "row/s"))
	fmt.Fprintf(w, "Latency mean              : %6s ms %s\n", jf(h.meanMs(), 1, false), breakdown(lat((*timing).meanMs), "ms"))
	fmt.Fprintf(w, "Latency median            : %6s ms %s\n", jf(h.pctMs(50), 1, false), breakdown(lat(p(50)), "ms"))
	fmt.Fprintf(w, "Latency 95th percentile   : %6s ms %s\n", jf(h.pctMs(95), 1, false), breakdown(lat(p(95)), "ms"))
	fmt.Fprintf(w, "Latency 99th percentile   : %6s ms %s\n", jf(h.pctMs(99), 1, false), breakdown(lat(p(99)), "ms"))
	fmt.Fprintf(w, "Latency 99.9th percentile : %6s ms %s\n", jf(h.pctMs(99.9), 1, false), breakdown(lat(p(99.9)), "ms"))
	fmt.Fprintf(w, "Latency max               : %6s ms %s\n", jf(h.maxMs(), 1, false), breakdown(lat((*timing).maxMs), "ms"))
	fmt.Fprintf(w, "Total partitions          : %10s %s\n", jd(h.partitions, true), breakdown(func(t *timing) string { return jd(t.partitions, true) }, ""))
	fmt.Fprintf(w, "Total errors              : %10s %s\n", jd(h.errors, true), breakdown(func(t *timing) string { return jd(t.errors, true) }, ""))
	if h.retries > 0 {
		// Ours, only when there were any: the tries after the first.
		fmt.Fprintf(w, "Total retries             : %10s %s\n", jd(h.retries, true), breakdown(func(t *timing) string { return jd(t.retries, true) }, ""))
	}
	if spec != nil {
		// Ours, only with speculation, as the JSON's [CASSANDRA] rows.
		sent, won := spec()
		fmt.Fprintf(w, "Speculative requests      : %10s\n", jd(sent, true))
		fmt.Fprintf(w, "Speculative wins          : %10s\n", jd(won, true))
	}
	fmt.Fprintf(w, "Total GC count            : %s\n", jf(g.count, 0, true))
	fmt.Fprintf(w, "Total GC memory           : %s\n", prettyMemory(int64(g.bytes)))
	fmt.Fprintf(w, "Total GC time             : %6s seconds\n", jf(g.sumMs/1000, 1, true))
	fmt.Fprintf(w, "Avg GC time               : %6s ms\n", jf(g.sumMs/g.count, 1, true))
	fmt.Fprintf(w, "StdDev GC time            : %6s ms\n", jf(g.sdvMs(), 1, true))
	fmt.Fprintf(w, "Total operation time      : %s\n", hhmmss(h.runTime()))
	fmt.Fprintln(w)
}

// logHistograms is the original's StressMetrics.logHistograms: an op's
// service, response and wait times of the interval, tagged <OP>-st, -rt
// and -wt, each only when it has samples (rt and wt have some only under
// a rate), to -log hdrfile= (m.HDR, nil for none). The original records
// nanoseconds; the run records µs, which are written as ns so that the
// log reads as the original's.
func (m *Metrics) logHistograms(op string, t *timing) {
	if m.HDR == nil {
		return
	}
	startMs, endMs := m.WallMs(t.startNs), m.WallMs(t.endNs)
	for _, s := range []struct {
		suffix string
		h      *hdrhistogram.Histogram
	}{{"-st", t.service}, {"-rt", t.response}, {"-wt", t.wait}} {
		if s.h.TotalCount() != 0 {
			m.HDR.Write(op+s.suffix, startMs, endMs, usToNs(s.h))
		}
	}
}

// usToNs is h (µs) as a histogram of ns, each µs bucket counted at its
// middle.
func usToNs(h *hdrhistogram.Histogram) *hdrhistogram.Histogram {
	ns := hdrhistogram.New(1, HistMaxUs*1000, 3)
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			ns.RecordValues((b.From*1000+b.To*1000+999)/2, b.Count)
		}
	}
	return ns
}
