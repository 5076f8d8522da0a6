package measurement

import (
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db"
)

// sigFigs matches the reference's HdrHistogram precision (3 significant digits).
const sigFigs = 3

// set is one generation of a worker's measurements. Histograms are allocated
// on first use, so a workload pays only for the operations it runs.
type set struct {
	op       [NumOps][NumKinds]*hdrhistogram.Histogram
	intended [NumOps][NumKinds]*hdrhistogram.Histogram
	returns  [NumOps][db.NumStatuses]int64
}

func (s *set) reset() {
	for o := range s.op {
		for k := range s.op[o] {
			if h := s.op[o][k]; h != nil {
				h.Reset()
			}
			if h := s.intended[o][k]; h != nil {
				h.Reset()
			}
		}
		s.returns[o] = [db.NumStatuses]int64{}
	}
}

// mergeInto adds s into dst, allocating dst's histograms as needed.
func (s *set) mergeInto(dst *set, newHist func() *hdrhistogram.Histogram) {
	for o := range s.op {
		for k := range s.op[o] {
			mergeHist(&dst.op[o][k], s.op[o][k], newHist)
			mergeHist(&dst.intended[o][k], s.intended[o][k], newHist)
		}
		for st, n := range s.returns[o] {
			dst.returns[o][st] += n
		}
	}
}

func mergeHist(dst **hdrhistogram.Histogram, src *hdrhistogram.Histogram, newHist func() *hdrhistogram.Histogram) {
	if src == nil || src.TotalCount() == 0 {
		return
	}
	if *dst == nil {
		*dst = newHist()
	}
	if dropped := (*dst).Merge(src); dropped != 0 {
		// Same geometry on both sides: a drop is a bug, not a condition.
		panic("measurement: histogram merge dropped values")
	}
}

// Recorder holds one worker's measurements. Its methods are called by the
// owning worker only; the Collector harvests it concurrently, which is why
// every method takes the Recorder's own mutex. That mutex is shared with
// nobody but the status ticker, once per interval.
type Recorder struct {
	cfg     *Config
	highest int64

	mu    sync.Mutex
	cur   *set // guarded by mu
	spare *set // owned by the Collector between harvests
}

func newRecorder(cfg *Config) *Recorder {
	return &Recorder{cfg: cfg, highest: cfg.HighestLatencyUs, cur: &set{}, spare: &set{}}
}

func (r *Recorder) newHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, r.highest, sigFigs)
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

func (r *Recorder) record(slot **hdrhistogram.Histogram, us int64) {
	h := *slot
	if h == nil {
		h = r.newHist()
		*slot = h
	}
	if err := h.RecordValue(r.clamp(us)); err != nil {
		panic("measurement: clamped value rejected: " + err.Error())
	}
}

// Done records one finished database operation: its latency under the name
// its status maps to and its status under the plain name. Times are Now()
// values; intendedNs is the schedule's start time, or 0 when there is none.
func (r *Recorder) Done(op Op, st db.Status, startNs, endNs, intendedNs int64) {
	k := r.cfg.KindOf(st)
	r.mu.Lock()
	r.measureLocked(op, k, startNs, endNs, intendedNs)
	r.cur.returns[op][st]++
	r.mu.Unlock()
}

// Measure records a latency with no status (READ-MODIFY-WRITE, CLEANUP).
func (r *Recorder) Measure(op Op, startNs, endNs, intendedNs int64) {
	r.mu.Lock()
	r.measureLocked(op, KindOK, startNs, endNs, intendedNs)
	r.mu.Unlock()
}

// MeasureValue records a value in µs that is not a time span (VERIFY keeps
// its status under its own name; SCAN-LATENCY-PER-RECORD is a quotient).
func (r *Recorder) MeasureValue(op Op, us int64) {
	if r.cfg.Interval == IntervalIntended {
		return // the reference drops plain measurements in this mode
	}
	r.mu.Lock()
	r.record(&r.cur.op[op][KindOK], us)
	r.mu.Unlock()
}

// Return counts a status under op without a latency (VERIFY).
func (r *Recorder) Return(op Op, st db.Status) {
	r.mu.Lock()
	r.cur.returns[op][st]++
	r.mu.Unlock()
}

func (r *Recorder) measureLocked(op Op, k Kind, startNs, endNs, intendedNs int64) {
	if intendedNs == 0 {
		intendedNs = startNs
	}
	switch r.cfg.Interval {
	case IntervalOp:
		r.record(&r.cur.op[op][k], (endNs-startNs)/1000)
	case IntervalIntended:
		r.record(&r.cur.op[op][k], (endNs-intendedNs)/1000)
	case IntervalBoth:
		r.record(&r.cur.op[op][k], (endNs-startNs)/1000)
		r.record(&r.cur.intended[op][k], (endNs-intendedNs)/1000)
	}
}

// swap takes the current generation and starts a fresh one.
func (r *Recorder) swap() *set {
	next := r.spare
	if next == nil {
		next = &set{}
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
