package measurement

import (
	"cmp"
	"math"
	"slices"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/internal/javahash"
)

// StatusCount is one Return=<STATUS> line.
type StatusCount struct {
	Status status.Status
	Count  int64
}

// Measurement is one report section: a histogram and its return codes.
type Measurement struct {
	Name      string // READ, READ-FAILED, Intended-READ, ...
	Operation string // the name of Op in the run's table: READ for all three
	Op        Op
	Kind      Kind
	Intended  bool
	Hist      *hdrhistogram.Histogram // nil when only statuses were counted
	Returns   []StatusCount           // in the reference's order
	// Retries is how many times the binding ran the operation again
	// (serialization failures), on the plain-named section only.
	Retries int64

	// Exact figures, kept by every type but hdrhistogram (µs; Min and Max
	// are -1 without samples).
	Count, Sum int64
	SumSq      float64
	Min, Max   int64
	Buckets    []int64     // histogram: 1-ms buckets, then the overflow count
	Units      []UnitAvg   // timeseries: units that have samples, in time order
	Raw        []RawSample // raw: every sample, in time order
}

// UnitAvg is one timeseries line: the unit's start in ms since the
// measurement's first sample, and the mean latency within it.
type UnitAvg struct {
	Ms  int64
	Avg float64
}

func (m *Measurement) fill(cfg *Config, s *series) {
	m.Min, m.Max = -1, -1
	if s == nil {
		return
	}
	m.Hist = s.hist
	m.Count, m.Sum, m.SumSq = s.count, s.sum, s.sumSq
	if s.count > 0 {
		m.Min, m.Max = s.min, s.max
	}
	m.Buckets = s.buckets
	for i, u := range s.units {
		if u.count > 0 {
			m.Units = append(m.Units, UnitAvg{Ms: int64(i) * cfg.GranularityMs, Avg: float64(u.sum) / float64(u.count)})
		}
	}
	if len(s.raw) > 0 {
		m.Raw = slices.Clone(s.raw)
		slices.SortStableFunc(m.Raw, func(a, b RawSample) int { return cmp.Compare(a.EpochMs, b.EpochMs) })
	}
}

// Snapshot is an ordered list of measurements: the operation map first, then
// the intended map, each in the reference's hash order.
type Snapshot struct {
	Measurements []Measurement
	// Operations are the worker loops' operations: one per transaction or
	// load insert, as [OVERALL] counts them, whatever number of database
	// calls (and VERIFY) each made.
	Operations int64
	// Failed are those of the Operations that failed, as the engine
	// counts them (Recorder.FailedOperation): a transaction with a failed
	// database call, NOT_FOUND being an answer, is one, whatever number
	// of calls failed. Buffered writes found lost count in the interval
	// they were found in, so an interval may hold more Failed than
	// Operations.
	Failed int64
	// Wake and Behind are the paced operations' starts in µs (nil without
	// a target, or when none was recorded): Wake how late the workers
	// woke for those they waited for, Behind how far behind their due
	// time those started that they had no time to wait for.
	Wake, Behind *hdrhistogram.Histogram
}

// returnOrder is the order the reference prints Return= lines in (the
// ConcurrentHashMap order of its Status objects).
var returnOrder = []status.Status{status.OK, status.NotImplemented, status.BadRequest, status.Forbidden,
	status.UnexpectedState, status.ServiceUnavailable, status.BatchedOK, status.NotFound, status.Error}

// SortReturns puts rs in returnOrder, keeping the order of equal statuses
// and putting any status returnOrder lacks last.
func SortReturns(rs []StatusCount) {
	rank := func(s status.Status) int {
		if i := slices.Index(returnOrder, s); i >= 0 {
			return i
		}
		return len(returnOrder)
	}
	slices.SortStableFunc(rs, func(a, b StatusCount) int { return cmp.Compare(rank(a.Status), rank(b.Status)) })
}

func newSnapshot(cfg *Config, t *Ops, s *set) *Snapshot {
	var ops, intended []Measurement
	for o := range s.byOp {
		so := &s.byOp[o]
		op := Op(o)
		for k := 0; k < NumKinds; k++ {
			sr := so.op[k]
			var rets []StatusCount
			var retries int64
			if k == int(KindOK) {
				for _, st := range returnOrder {
					if n := so.returns[st]; n > 0 {
						rets = append(rets, StatusCount{st, n})
					}
				}
				retries = so.retries
			}
			name := t.MeasurementName(op, Kind(k))
			if (sr != nil && !sr.empty()) || len(rets) > 0 || retries > 0 {
				m := Measurement{Name: name, Operation: t.Name(op), Op: op, Kind: Kind(k), Returns: rets, Retries: retries}
				m.fill(cfg, sr)
				ops = append(ops, m)
			}
			if is := so.intended[k]; is != nil && !is.empty() {
				m := Measurement{Name: "Intended-" + name, Operation: t.Name(op), Op: op, Kind: Kind(k), Intended: true}
				m.fill(cfg, is)
				intended = append(intended, m)
			}
		}
	}
	sortJavaOrder(ops, func(m Measurement) string { return m.Name })
	// The reference keys its intended map by the plain name.
	sortJavaOrder(intended, func(m Measurement) string { return m.Operation + m.Kind.Suffix() })
	snap := &Snapshot{Measurements: append(ops, intended...), Operations: s.ops, Failed: s.failed}
	if s.wake != nil && !s.wake.empty() {
		snap.Wake = s.wake.hist
	}
	if s.behind != nil && !s.behind.empty() {
		snap.Behind = s.behind.hist
	}
	return snap
}

// sortJavaOrder orders ms as a Java ConcurrentHashMap with default capacity
// iterates its keys: by bin of the spread String.hashCode. Entries in the
// same bin keep the input order (our fixed operation order), where the
// reference would use the order in which they were first measured.
func sortJavaOrder(ms []Measurement, key func(Measurement) string) {
	n := 16
	for len(ms) >= n-n/4 {
		n *= 2
	}
	sort.SliceStable(ms, func(i, j int) bool {
		return javaBin(key(ms[i]), n) < javaBin(key(ms[j]), n)
	})
}

func javaBin(s string, tableSize int) int {
	h := javahash.String(s)
	spread := (h ^ int32(uint32(h)>>16)) & 0x7fffffff
	return int(spread) & (tableSize - 1)
}

// Stats are a histogram's figures computed the way Java's HdrHistogram
// computes them, so the numbers match the reference's byte for byte.
type Stats struct {
	Count int64
	Min   int64 // lowest equivalent value of the smallest sample
	Max   int64 // highest equivalent value of the largest sample
	Mean  float64
	bars  []hdrhistogram.Bar
}

// StatsOf computes Stats for h (nil is empty).
func StatsOf(h *hdrhistogram.Histogram) Stats {
	var st Stats
	if h == nil || h.TotalCount() == 0 {
		return st
	}
	st.Count = h.TotalCount()
	var total float64
	first := true
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		st.bars = append(st.bars, b)
		if first {
			st.Min = b.From
			first = false
		}
		st.Max = b.To
		median := b.From + (b.To-b.From+1)>>1
		total += float64(median) * float64(b.Count)
	}
	st.Mean = total / float64(st.Count)
	return st
}

// Percentile returns the value at percentile p (0..100) as Java's
// getValueAtPercentile does.
func (st *Stats) Percentile(p float64) int64 {
	if st.Count == 0 {
		return 0
	}
	q := math.Nextafter(p, math.Inf(-1))
	q = math.Min(math.Max(q, 0), 100)
	target := int64(math.Ceil(q * float64(st.Count) / 100))
	if target < 1 {
		target = 1
	}
	var cum int64
	for _, b := range st.bars {
		cum += b.Count
		if cum >= target {
			if p == 0 {
				return b.From
			}
			return b.To
		}
	}
	return st.bars[len(st.bars)-1].To
}

// Buckets returns the recorded buckets as (highest equivalent value, count),
// for measurement.histogram.verbose.
func (st *Stats) Buckets() []hdrhistogram.Bar { return st.bars }

func slicesSortInt64(s []int64) { slices.Sort(s) }

// OwnRMW says whether the snapshot's read-modify-writes are operations of
// their own, each one transaction with a status (jdbc.rmwintxn, the closed
// economy's transfers), rather than the reference's read and update, which
// are measured as READ and UPDATE too and leave READ-MODIFY-WRITE a
// latency without statuses.
func (s *Snapshot) OwnRMW() bool {
	for i := range s.Measurements {
		if m := &s.Measurements[i]; m.Operation == ReadModifyWriteName && !m.Intended && len(m.Returns) > 0 {
			return true
		}
	}
	return false
}
