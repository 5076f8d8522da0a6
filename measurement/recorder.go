package measurement

import (
	"sync"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db/status"
	"github.com/goycsb/ycsb/measurement/lazyhdr"
)

// sigFigs matches the reference's HdrHistogram precision (3 significant digits).
const sigFigs = 3

// series is one measurement's samples within one generation. The HDR
// histogram is always kept (the JSON report, the HDR logs and ycsb merge read
// it); the other parts exist only for the measurement types that print them.
type series struct {
	// A worker's series records into rec, whose counts are allocated as
	// values arrive: thousands of workers each hold one per operation and
	// set. The Collector's few series merge them into dense histograms,
	// which the snapshots hand out.
	rec  *lazyhdr.Histogram
	hist *hdrhistogram.Histogram

	// Exact figures (histogram, timeseries, raw): latencies in whole µs.
	count, sum int64
	sumSq      float64
	min, max   int64 // -1 when count is 0

	buckets []int64     // histogram: 1-ms buckets, the last one counts overflow
	units   []unitSum   // timeseries: per granularity unit since the first sample
	raw     []RawSample // raw: every sample in the order taken
}

type unitSum struct{ sum, count int64 }

// RawSample is one data point of the raw measurement type.
type RawSample struct {
	EpochMs int64 // wall-clock time the operation ended
	Us      int64 // latency
}

func (s *series) reset() {
	if s.rec != nil {
		s.rec.Reset()
	}
	if s.hist != nil {
		s.hist.Reset()
	}
	s.count, s.sum, s.sumSq, s.min, s.max = 0, 0, 0, -1, -1
	clear(s.buckets)
	s.units = s.units[:0]
	s.raw = s.raw[:0]
}

func (s *series) empty() bool {
	return (s.rec == nil || s.rec.TotalCount() == 0) && (s.hist == nil || s.hist.TotalCount() == 0) && s.count == 0
}

// mergeInto adds s into d, which has the same shape.
func (s *series) mergeInto(d *series, newHist func() *hdrhistogram.Histogram) {
	if s.rec != nil && s.rec.TotalCount() > 0 {
		if d.hist == nil {
			d.hist = newHist()
		}
		if dropped := s.rec.MergeInto(d.hist); dropped != 0 {
			// Same geometry on both sides: a drop is a bug, not a condition.
			panic("measurement: histogram merge dropped values")
		}
	}
	if s.hist != nil && s.hist.TotalCount() > 0 {
		if d.hist == nil {
			d.hist = newHist()
		}
		if dropped := d.hist.Merge(s.hist); dropped != 0 {
			panic("measurement: histogram merge dropped values")
		}
	}
	if s.count == 0 {
		return
	}
	if d.count == 0 || s.min < d.min {
		d.min = s.min
	}
	if s.max > d.max {
		d.max = s.max
	}
	d.count += s.count
	d.sum += s.sum
	d.sumSq += s.sumSq
	if s.buckets != nil {
		if d.buckets == nil {
			d.buckets = make([]int64, len(s.buckets))
		}
		for i, n := range s.buckets {
			d.buckets[i] += n
		}
	}
	for i, u := range s.units {
		for len(d.units) <= i {
			d.units = append(d.units, unitSum{})
		}
		d.units[i].sum += u.sum
		d.units[i].count += u.count
	}
	d.raw = append(d.raw, s.raw...)
}

// set is one generation of a worker's measurements, one opSet per
// operation of the run's table. Series are allocated on first use, so a
// workload pays only for the operations it runs.
type set struct {
	byOp   []opSet
	ops    int64 // operations of the worker loop (see Recorder.Operation)
	failed int64 // those of them that failed (see Recorder.FailedOperation)
	// The paced operations' starts (Recorder.Woke, Recorder.StartedBehind):
	// only their histograms are kept.
	wake, behind *series
}

// opSet is one operation's series, by kind, and its status counts.
type opSet struct {
	op, intended [NumKinds]*series
	returns      [status.NumStatuses]int64
	retries      int64 // times the binding ran the operation again (db.RetryCounter)
}

func newSet(nOps int) *set { return &set{byOp: make([]opSet, nOps)} }

func (s *set) reset() {
	for o := range s.byOp {
		so := &s.byOp[o]
		for k := range so.op {
			if x := so.op[k]; x != nil {
				x.reset()
			}
			if x := so.intended[k]; x != nil {
				x.reset()
			}
		}
		so.returns = [status.NumStatuses]int64{}
		so.retries = 0
	}
	s.ops, s.failed = 0, 0
	for _, x := range [...]*series{s.wake, s.behind} {
		if x != nil {
			x.reset()
		}
	}
}

// mergeInto adds s into dst, allocating dst's series as needed.
func (s *set) mergeInto(dst *set, newSeries func() *series, newHist func() *hdrhistogram.Histogram) {
	for o := range s.byOp {
		so, do := &s.byOp[o], &dst.byOp[o]
		for k := range so.op {
			mergeSeries(&do.op[k], so.op[k], newSeries, newHist)
			mergeSeries(&do.intended[k], so.intended[k], newSeries, newHist)
		}
		for st, n := range so.returns {
			do.returns[st] += n
		}
		do.retries += so.retries
	}
	dst.ops += s.ops
	dst.failed += s.failed
	mergeSeries(&dst.wake, s.wake, newSeries, newHist)
	mergeSeries(&dst.behind, s.behind, newSeries, newHist)
}

func mergeSeries(dst **series, src *series, newSeries func() *series, newHist func() *hdrhistogram.Histogram) {
	if src == nil || src.empty() {
		return
	}
	if *dst == nil {
		*dst = newSeries()
	}
	src.mergeInto(*dst, newHist)
}

// firsts holds, per measurement, the Now() of its first sample: the origin
// of the timeseries type's units, shared by all workers as in the
// reference's single OneMeasurementTimeSeries. Written once per measurement;
// every Recorder holds the Collector's, by operation.
type firsts []opFirsts

type opFirsts struct {
	op, intended [NumKinds]atomic.Int64
}

// Recorder holds one worker's measurements. Its methods are called by the
// owning worker only; the Collector harvests it concurrently, which is why
// every method takes the Recorder's own mutex. That mutex is shared with
// nobody but the status ticker, once per interval.
type Recorder struct {
	cfg     *Config
	table   *Ops // the run's operations
	highest int64
	exact   bool // keep count/sum/min/max (every type but hdrhistogram)
	firsts  firsts

	// warm is set by the owning worker while it runs warm-up operations:
	// they are not recorded. Only the owner reads or writes it.
	warm bool

	// ops counts the worker loop's operations, as [OVERALL] does (a
	// read-modify-write is one, not a read and an update), and failed
	// those of them that failed (FailedOperation, FailedEarlier);
	// harvested and harvestedFailed are the parts the Collector has
	// taken, and are the Collector's.
	ops, failed                atomic.Int64
	harvested, harvestedFailed int64

	mu    sync.Mutex
	cur   *set // guarded by mu
	spare *set // owned by the Collector between harvests
}

func newRecorder(cfg *Config, ops *Ops, f firsts) *Recorder {
	return &Recorder{cfg: cfg, table: ops, highest: cfg.HighestLatencyUs, exact: cfg.Type != HdrHistogram,
		firsts: f, cur: newSet(ops.Len()), spare: newSet(ops.Len())}
}

func newSeries(cfg *Config) *series {
	s := &series{min: -1, max: -1}
	if cfg.hasBuckets() {
		s.buckets = make([]int64, cfg.Buckets+1)
	}
	return s
}

func (r *Recorder) newHist() *lazyhdr.Histogram {
	return lazyhdr.New(1, r.highest, sigFigs)
}

func (r *Recorder) clamp(us int64) int64 {
	if us < 0 {
		return 0
	}
	if us > r.highest {
		return r.highest
	}
	return us
}

// record files one sample of us µs that ended at endNs (a Now value).
func (r *Recorder) record(slot **series, first *atomic.Int64, us, endNs int64) {
	s := *slot
	if s == nil {
		s = newSeries(r.cfg)
		*slot = s
	}
	if s.rec == nil {
		s.rec = r.newHist()
	}
	us = r.clamp(us)
	if err := s.rec.RecordValue(us); err != nil {
		panic("measurement: clamped value rejected: " + err.Error())
	}
	if !r.exact {
		return
	}
	if s.count == 0 || us < s.min {
		s.min = us
	}
	if us > s.max {
		s.max = us
	}
	s.count++
	s.sum += us
	s.sumSq += float64(us) * float64(us)
	switch r.cfg.Type {
	case Histogram, HdrHistogramHistogram:
		b := us / 1000
		if b >= int64(r.cfg.Buckets) {
			b = int64(r.cfg.Buckets)
		}
		s.buckets[b]++
	case TimeSeries:
		f := first.Load()
		if f == 0 {
			if !first.CompareAndSwap(0, endNs) {
				f = first.Load()
			} else {
				f = endNs
			}
		}
		u := 0
		if d := endNs - f; d > 0 {
			u = int(d / (r.cfg.GranularityMs * 1e6))
		}
		for len(s.units) <= u {
			s.units = append(s.units, unitSum{})
		}
		s.units[u].sum += us
		s.units[u].count++
	case Raw, HdrHistogramRaw:
		s.raw = append(s.raw, RawSample{EpochMs: WallTime(endNs).UnixMilli(), Us: us})
	}
}

// Done records one finished database operation: its latency under the name
// its status maps to and its status under the plain name. Times are Now()
// values; intendedNs is the schedule's start time, or 0 when there is none.
func (r *Recorder) Done(op Op, st status.Status, startNs, endNs, intendedNs int64) {
	if r.warm {
		return
	}
	k := r.cfg.KindOf(st)
	r.mu.Lock()
	so := &r.cur.byOp[op]
	r.measureLocked(so, &r.firsts[op], k, startNs, endNs, intendedNs)
	so.returns[st]++
	r.mu.Unlock()
}

// Measure records a latency with no status (READ-MODIFY-WRITE, CLEANUP).
func (r *Recorder) Measure(op Op, startNs, endNs, intendedNs int64) {
	if r.warm {
		return
	}
	r.mu.Lock()
	r.measureLocked(&r.cur.byOp[op], &r.firsts[op], KindOK, startNs, endNs, intendedNs)
	r.mu.Unlock()
}

// MeasureValue records a value in µs that is not a time span (VERIFY keeps
// its status under its own name; SCAN-LATENCY-PER-RECORD is a quotient).
func (r *Recorder) MeasureValue(op Op, us int64) {
	if r.warm || r.cfg.Interval == IntervalIntended {
		return // the reference drops plain measurements in this mode
	}
	now := Now()
	r.mu.Lock()
	r.record(&r.cur.byOp[op].op[KindOK], &r.firsts[op].op[KindOK], us, now)
	r.mu.Unlock()
}

// Woke records how late (ns) the worker woke for a paced operation it had
// waited for: its start minus its due time, the client's own timing error.
func (r *Recorder) Woke(lateNs int64) { r.pacing(false, lateNs) }

// StartedBehind records how far behind its due time (ns) a paced
// operation started that the worker had no time to wait for: the schedule
// lag that a slow database (or a starved client) causes.
func (r *Recorder) StartedBehind(lagNs int64) { r.pacing(true, lagNs) }

func (r *Recorder) pacing(behind bool, ns int64) {
	if r.warm {
		return
	}
	us := r.clamp(ns / 1000)
	r.mu.Lock() // before r.cur, which the Collector swaps
	slot := &r.cur.wake
	if behind {
		slot = &r.cur.behind
	}
	s := *slot
	if s == nil {
		s = &series{min: -1, max: -1, rec: r.newHist()}
		*slot = s
	}
	if err := s.rec.RecordValue(us); err != nil {
		r.mu.Unlock()
		panic("measurement: clamped value rejected: " + err.Error())
	}
	r.mu.Unlock()
}

// Return counts a status under op without a latency (VERIFY).
func (r *Recorder) Return(op Op, st status.Status) {
	if r.warm {
		return
	}
	r.mu.Lock()
	r.cur.byOp[op].returns[st]++
	r.mu.Unlock()
}

// Retried counts n retries the binding made for one op (db.RetryCounter).
func (r *Recorder) Retried(op Op, n int64) {
	if r.warm {
		return
	}
	r.mu.Lock()
	r.cur.byOp[op].retries += n
	r.mu.Unlock()
}

// Reclassify moves n results of op from status from to status to: writes
// acknowledged as buffered whose batch was then lost.
func (r *Recorder) Reclassify(op Op, from, to status.Status, n int64) {
	if r.warm {
		return
	}
	r.mu.Lock()
	rs := &r.cur.byOp[op].returns
	rs[from] -= n
	rs[to] += n
	r.mu.Unlock()
}

// measureLocked records a latency of the operation whose current series
// are so and first samples f.
func (r *Recorder) measureLocked(so *opSet, f *opFirsts, k Kind, startNs, endNs, intendedNs int64) {
	if intendedNs == 0 {
		intendedNs = startNs
	}
	switch r.cfg.Interval {
	case IntervalOp:
		r.record(&so.op[k], &f.op[k], (endNs-startNs)/1000, endNs)
	case IntervalIntended:
		r.record(&so.op[k], &f.op[k], (endNs-intendedNs)/1000, endNs)
	case IntervalBoth:
		r.record(&so.op[k], &f.op[k], (endNs-startNs)/1000, endNs)
		r.record(&so.intended[k], &f.intended[k], (endNs-intendedNs)/1000, endNs)
	}
}

// SetWarmup says whether the owning worker's next operations are warm-up:
// while on, nothing is recorded. Call it from the owning worker only.
func (r *Recorder) SetWarmup(on bool) { r.warm = on }

// Warmup reports whether the Recorder is discarding warm-up operations.
func (r *Recorder) Warmup() bool { return r.warm }

// swap takes the current generation and starts a fresh one.
func (r *Recorder) swap() *set {
	next := r.spare
	if next == nil {
		next = newSet(r.table.Len())
	}
	r.mu.Lock()
	old := r.cur
	r.cur = next
	r.mu.Unlock()
	r.spare = nil
	return old
}

// giveBack returns a harvested generation, reset, for the next swap.
func (r *Recorder) giveBack(s *set) {
	s.reset()
	r.spare = s
}

// MeasureCleanup records a session's close, from start to end, as the
// run's CLEANUP; false when the run's table has none, and nothing is
// recorded.
func (r *Recorder) MeasureCleanup(start, end int64) bool {
	if !r.table.hasCleanup {
		return false
	}
	r.Measure(r.table.cleanup, start, end, 0)
	return true
}

// CleanupOp is the run's CLEANUP operation, under which MeasureCleanup
// records (meaningful when that returns true).
func (r *Recorder) CleanupOp() Op { return r.table.cleanup }
