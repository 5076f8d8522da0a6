package generator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// Counter hands out consecutive numbers: YCSB's CounterGenerator.
// Shareable (atomic).
type Counter struct {
	next atomic.Int64
}

// NewCounter returns a counter whose first Next is start.
func NewCounter(start int64) *Counter {
	c := &Counter{}
	c.next.Store(start)
	return c
}

// Next returns the current value and increments it.
func (c *Counter) Next() int64 { return c.next.Add(1) - 1 }

// Last returns the value most recently handed out (start-1 before any).
func (c *Counter) Last() int64 { return c.next.Load() - 1 }

// ErrTooManyUnacknowledged is returned by Acknowledge when a key falls
// outside the acknowledgement window, or is acknowledged twice.
var ErrTooManyUnacknowledged = errors.New("too many unacknowledged insertion keys")

const (
	ackWindow = 1 << 20 // YCSB's WINDOW_SIZE
	ackMask   = ackWindow - 1
)

// AcknowledgedCounter is YCSB's AcknowledgedCounterGenerator: Next hands out
// insert keys, Acknowledge marks them done, and Last is the highest key up to
// which every key has been acknowledged. Shareable: atomics only.
type AcknowledgedCounter struct {
	Counter
	limit     atomic.Int64
	advancing atomic.Bool
	window    [ackWindow / 64]atomic.Uint64 // one bit per key slot
}

// NewAcknowledgedCounter returns a counter whose first key is start; Last is
// start-1 until start is acknowledged.
func NewAcknowledgedCounter(start int64) *AcknowledgedCounter {
	c := &AcknowledgedCounter{}
	c.next.Store(start)
	c.limit.Store(start - 1)
	return c
}

// Last returns the highest v such that every key from start to v has been
// acknowledged.
func (c *AcknowledgedCounter) Last() int64 { return c.limit.Load() }

func (c *AcknowledgedCounter) slot(v int64) (*atomic.Uint64, uint64) {
	i := v & ackMask
	return &c.window[i>>6], 1 << (i & 63)
}

func (c *AcknowledgedCounter) isSet(v int64) bool {
	w, bit := c.slot(v)
	return w.Load()&bit != 0
}

// Acknowledge marks key v as done. Each key handed out by Next must be
// acknowledged exactly once. It fails with ErrTooManyUnacknowledged when v is
// 2^20 or more keys past Last, or when v's slot is already marked.
func (c *AcknowledgedCounter) Acknowledge(v int64) error {
	last := c.limit.Load()
	if v <= last {
		return fmt.Errorf("generator: key %d acknowledged twice or below the start (last contiguous %d)", v, last)
	}
	// Unlike YCSB, check the distance too: a key a full window ahead would
	// otherwise land on the slot of the next expected key.
	if v-last > ackWindow {
		return fmt.Errorf("generator: key %d, last contiguous %d: %w", v, last, ErrTooManyUnacknowledged)
	}
	w, bit := c.slot(v)
	if w.Or(bit)&bit != 0 {
		return fmt.Errorf("generator: key %d: %w", v, ErrTooManyUnacknowledged)
	}
	// One goroutine advances at a time; the others leave their bit for it.
	// The advancer rechecks after releasing, so a bit set while it was
	// finishing is never stranded (YCSB's tryLock can strand it).
	for c.advancing.CompareAndSwap(false, true) {
		next := c.limit.Load() + 1
		for c.isSet(next) {
			w, bit := c.slot(next)
			w.And(^bit)
			// Publish after clearing, so a reader of limit may reuse the slot.
			c.limit.Store(next)
			next++
		}
		c.advancing.Store(false)
		if !c.isSet(c.limit.Load() + 1) {
			break
		}
	}
	return nil
}

// Sequential cycles through start..end: YCSB's SequentialGenerator.
// Shareable (atomic).
type Sequential struct {
	start    int64
	interval uint64
	counter  atomic.Uint64
}

// NewSequential returns a generator cycling start, start+1, ..., end, start,
// ... It panics if start > end.
func NewSequential(start, end int64) *Sequential {
	if start > end {
		panic(fmt.Sprintf("generator: NewSequential(%d, %d): start > end", start, end))
	}
	return &Sequential{start: start, interval: uint64(end-start) + 1}
}

// Next returns the next value of the cycle; r is unused.
func (s *Sequential) Next(*rand.Rand) int64 {
	n := s.counter.Add(1) - 1
	if s.interval == 0 { // the whole int64 range
		return s.start + int64(n)
	}
	return s.start + int64(n%s.interval)
}
