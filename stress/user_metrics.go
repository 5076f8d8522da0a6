package stress

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/measurement"
)

// userMetrics is StressMetrics for the user command: one row per op name
// of ops(...) (in the original's TreeMap order of the names) and total.
// Partitions and rows are what the operations reported (SchemaInsert's
// rows written, SchemaQuery's rows read), so pk/s and row/s differ for
// multi-row operations.
type userMetrics struct {
	out    io.Writer
	fixed  bool
	ops    []*userOp
	order  []int // ops indexes sorted by name
	stopAt func(n int, unc float64) bool
	stop   func()
	// hdr is -log hdrfile=, or nil: each op's intervals tagged with its
	// name as typed in ops(...) (the original's Timer is made with it),
	// <name>-st, -rt and -wt. waits, when set, adds each op's wait times
	// since the last call to into, by slot.
	hdr    *measurement.TaggedHdrLog
	waits  func(into []*hdrhistogram.Histogram)
	wallMs func(ns int64) int64

	mu                 sync.Mutex
	startNs            int64
	gcSample           func() gcStats
	seen               []bool
	cur, sum           []*timing
	lastParts, lastRow []int64
	curTotal, sumTotal *timing
	totalGC            gcStats
	unc                uncertainty
}

func newUserMetrics(out io.Writer, fixed bool, ops []*userOp) *userMetrics {
	m := &userMetrics{out: out, fixed: fixed, ops: ops, curTotal: newTiming(fixed), sumTotal: newTiming(fixed),
		seen: make([]bool, len(ops)), lastParts: make([]int64, len(ops)), lastRow: make([]int64, len(ops)),
		wallMs: func(ns int64) int64 { return measurement.WallTime(ns).UnixMilli() }}
	for i := range ops {
		m.cur = append(m.cur, newTiming(fixed))
		m.sum = append(m.sum, newTiming(fixed))
		m.order = append(m.order, i)
	}
	sort.SliceStable(m.order, func(a, b int) bool { return ops[m.order[a]].name < ops[m.order[b]].name })
	return m
}

func (m *userMetrics) StartRun(_ time.Time, startNs int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.startNs = startNs
	if m.gcSample == nil {
		m.gcSample = newGCSampler().sample
	}
	fmt.Fprintln(m.out, header(""))
}

// printLine prints a line among the interval lines (not inside one).
func (m *userMetrics) printLine(s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(m.out, s)
}

func (m *userMetrics) AddInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	m.mu.Lock()
	defer m.mu.Unlock()
	startNs = max(startNs, m.startNs)
	for i := range iv.Measurements {
		ms := &iv.Measurements[i]
		k := int(ms.Op)
		if k >= len(m.ops) || ms.Hist == nil {
			continue
		}
		m.seen[k] = true
		m.cur[k].file(ms)
	}
	if m.waits != nil {
		var into [measurement.NumOps]*hdrhistogram.Histogram
		for k, o := range m.ops {
			into[o.slot] = m.cur[k].wait
		}
		m.waits(into[:])
	}
	for k, o := range m.ops {
		p, r := o.parts.Load(), o.rows.Load()
		m.cur[k].partitions += p - m.lastParts[k]
		m.cur[k].rows += r - m.lastRow[k]
		m.lastParts[k], m.lastRow[k] = p, r
	}
	for k := range m.ops {
		if !m.seen[k] {
			continue
		}
		c := m.cur[k]
		c.startNs, c.endNs = startNs, endNs
		m.sum[k].add(c)
		m.curTotal.add(c)
	}
	m.curTotal.startNs, m.curTotal.endNs = startNs, endNs
	m.sumTotal.add(m.curTotal)
	gc := m.gcSample()
	m.totalGC.add(gc)
	m.unc.update(m.curTotal.adjustedRowRate())
	if m.curTotal.reported() {
		for _, k := range m.order {
			if m.seen[k] {
				fmt.Fprintln(m.out, row("", m.ops[k].name, m.cur[k], m.sum[k], gc, m.unc.unc))
				logHistograms(m.hdr, m.wallMs, m.ops[k].name, m.cur[k])
			}
			m.cur[k].reset()
		}
		fmt.Fprintln(m.out, row("", "total", m.curTotal, m.sumTotal, gc, m.unc.unc))
		m.curTotal.reset()
	}
	if m.stopAt != nil && m.stopAt(m.unc.n, m.unc.unc) {
		m.stop()
	}
}

func (m *userMetrics) breakdown(f func(t *timing) string, unit string) string {
	var parts []string
	for _, k := range m.order {
		if !m.seen[k] {
			continue
		}
		s := m.ops[k].name + ": " + f(m.sum[k])
		if unit != "" {
			s += " " + unit
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// summarise writes the Results block, as metrics.summarise.
func (m *userMetrics) summarise(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	writeResults(w, m.sumTotal, m.totalGC, m.breakdown)
}

func (m *userMetrics) opRate() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sumTotal.opRate()
}

// summaryRows are the run's rows of a ramp's summary table: one per op
// name and total.
func (m *userMetrics) summaryRows(prefix string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, k := range m.order {
		if m.seen[k] {
			out = append(out, row(prefix, m.ops[k].name, m.sum[k], m.sum[k], m.totalGC, m.unc.unc))
		}
	}
	return append(out, row(prefix, "total", m.sumTotal, m.sumTotal, m.totalGC, m.unc.unc))
}
