package data

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
)

// Population is -pop: where the population indexes (the original's seeds)
// of operations come from (settings/SettingsPopulation.java and
// generate/SeedManager.java). Either a sequence seq=lo..hi, handed out in
// order across all workers and wrapping unless no-wrap, or a distribution
// dist=DIST sampled per operation. Safe for concurrent use.
type Population struct {
	lo, hi int64
	wrap   bool
	next   *atomic.Int64
	dist   *Dist
	// lookback is -pop read-lookback=: reads then come from the seeds
	// written so far (the original's LookbackableWriteGenerator).
	lookback *Dist
	written  *writtenSeeds
}

// writtenSeeds is the original's writeCount: the seeds 1..count have all
// been written (their values generated), and after holds those written
// above count+1 until the gap closes. Like the original, it counts seed
// values from 1: with seq= from above 1 count never moves.
type writtenSeeds struct {
	mu    sync.Mutex
	count atomic.Int64
	after []int64 // a min-heap
}

// SeqPopulationLookback is -pop seq=lo..hi read-lookback=d. As the
// original, it refuses a lookback whose maximum is beyond lo+hi-lo+1.
func SeqPopulationLookback(lo, hi int64, wrap bool, d *Dist) (*Population, error) {
	p := SeqPopulation(lo, hi, wrap)
	if mx := d.MaxValue(); mx > lo+(hi-lo+1) {
		return nil, fmt.Errorf("-pop read-lookback=%s: its largest value %d is beyond the sequence, which ends at %d", d, mx, lo+(hi-lo+1))
	}
	p.lookback, p.written = d, &writtenSeeds{after: make([]int64, 0, 64)}
	return p, nil
}

// Lookback reports whether reads come from read-lookback=.
func (p *Population) Lookback() bool { return p.lookback != nil }

// NextRead is the seed of a read: with read-lookback=, count-lookback of
// the written seeds (the original's LookbackReadGenerator: where that is
// below the first, lookback%count, or the first seed while none is
// written); ok is false when a no-wrap sequence is wholly written and the
// lookback reaches before it. Without read-lookback= it is Next.
func (p *Population) NextRead(r *rand.Rand) (idx int64, ok bool) {
	if p.lookback == nil {
		return p.Next(r)
	}
	lb := p.lookback.Next(r)
	count := p.written.count.Load()
	off := count - lb
	if off < 0 {
		if count == p.hi-p.lo+1 && !p.wrap {
			return 0, false
		}
		off = 0
		if count != 0 {
			off = lb % count
		}
	}
	return p.lo + off, true
}

// Wrote marks a write's seed as written (the original's finishWrite, on
// the first write of the seed's row). Only with read-lookback=.
func (p *Population) Wrote(seed int64) {
	w := p.written
	if w == nil || seed <= w.count.Load() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	heapPush(&w.after, seed)
	for len(w.after) > 0 {
		head, count := w.after[0], w.count.Load()
		switch {
		case head <= count:
			heapPop(&w.after) // a seed written again after a wrap
		case head == count+1:
			heapPop(&w.after)
			w.count.Store(count + 1)
		default:
			return
		}
	}
}

func heapPush(h *[]int64, v int64) {
	a := append(*h, v)
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if a[parent] <= a[i] {
			break
		}
		a[parent], a[i] = a[i], a[parent]
		i = parent
	}
	*h = a
}

func heapPop(h *[]int64) {
	a := *h
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && a[l] < a[m] {
			m = l
		}
		if l+1 < n && a[l+1] < a[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
}

// DefaultPopulationLimit is N of the defaults when the run has no n=
// (duration= or err< runs).
const DefaultPopulationLimit = 1000000

// DefaultPopulation is the population of a predefined command without -pop:
// seq=1..N for write and counter_write, dist=gaussian(1..N) for everything
// else (read, counter_read, mixed), where N is n= or, without it, 1M.
func DefaultPopulation(write bool, n int64) *Population {
	if n <= 0 {
		n = DefaultPopulationLimit
	}
	if write {
		return SeqPopulation(1, n, true)
	}
	return DistPopulation(MustParseDist("gaussian(1.." + strconv.FormatInt(n, 10) + ")"))
}

// SeqPopulation is -pop seq=lo..hi, with no-wrap as !wrap.
func SeqPopulation(lo, hi int64, wrap bool) *Population {
	return &Population{lo: lo, hi: hi, wrap: wrap, next: new(atomic.Int64)}
}

// DistPopulation is -pop dist=d.
func DistPopulation(d *Dist) *Population { return &Population{dist: d} }

// Dist is the distribution of a dist= population, nil for a sequence.
func (p *Population) Dist() *Dist { return p.dist }

// Range is the sequence of a seq= population; ok is false for dist=.
func (p *Population) Range() (lo, hi int64, wrap, ok bool) {
	return p.lo, p.hi, p.wrap, p.dist == nil
}

// Next returns the population index of the next operation; ok is false once
// a no-wrap sequence is used up, which ends the original's run. Reads and
// writes draw from the same sequence, as in the original.
func (p *Population) Next(r *rand.Rand) (idx int64, ok bool) {
	if p.dist != nil {
		return p.dist.Next(r), true
	}
	n := p.next.Add(1) - 1
	total := p.hi - p.lo + 1
	if !p.wrap && n >= total {
		return 0, false
	}
	return p.lo + n%total, true
}

// CounterDeltas appends one increment per counter column, each a fresh draw
// of add= (default fixed(1)), as the original binds them.
func CounterDeltas(dst []int64, columns int, add *Dist, r *rand.Rand) []int64 {
	for range columns {
		dst = append(dst, add.Next(r))
	}
	return dst
}
