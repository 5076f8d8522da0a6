package measurement

import (
	"sync"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Collector merges the workers' Recorders. Tick is called by one goroutine
// at a time (the status ticker, then the run after the workers joined).
type Collector struct {
	cfg *Config
	ops *Ops

	mu   sync.Mutex // guards recs while workers are being created
	recs []*Recorder

	firsts   firsts
	interval *set // the last tick's harvest
	total    *set // everything harvested so far
	// OnInterval, if set, sees every tick's harvest (HDR interval logs).
	OnInterval func(startNs, endNs int64, iv *Snapshot)
	lastTick   int64
	end        atomic.Int64 // EndAt's, Now's clock; 0 while the run goes on
}

// NewCollector returns a Collector for cfg that measures the operations
// of ops.
func NewCollector(cfg *Config, ops *Ops) *Collector {
	return &Collector{cfg: cfg, ops: ops, firsts: make(firsts, ops.Len()),
		interval: newSet(ops.Len()), total: newSet(ops.Len()), lastTick: Now()}
}

// Config returns the measurement configuration.
func (c *Collector) Config() *Config { return c.cfg }

// NewRecorder returns a Recorder for one worker.
func (c *Collector) NewRecorder() *Recorder {
	r := newRecorder(c.cfg, c.ops, c.firsts)
	c.mu.Lock()
	c.recs = append(c.recs, r)
	c.mu.Unlock()
	return r
}

func (c *Collector) newHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, c.cfg.HighestLatencyUs, sigFigs)
}

func (c *Collector) newSeries() *series { return newSeries(c.cfg) }

// EndAt tells the collector the run ended at endNs (Now's clock), when its
// last operation ended: a harvest made later (the outputs' last tick, the
// run's final one, seconds late on a loaded machine) ends its interval
// there, so that the report's intervals stay within its run time.
func (c *Collector) EndAt(endNs int64) { c.end.Store(endNs) }

// Tick harvests every Recorder and returns what was recorded since the last
// Tick. The snapshot is valid until the next Tick.
func (c *Collector) Tick() *Snapshot {
	now := Now()
	if end := c.end.Load(); end != 0 && now > end {
		now = max(end, c.lastTick)
	}
	c.interval.reset()
	c.mu.Lock()
	recs := c.recs
	c.mu.Unlock()
	for _, r := range recs {
		old := r.swap()
		old.ops, old.failed = r.takeOperations()
		old.mergeInto(c.interval, c.newSeries, c.newHist)
		r.giveBack(old)
	}
	c.interval.mergeInto(c.total, c.newSeries, c.newHist)
	snap := newSnapshot(c.cfg, c.ops, c.interval)
	if c.OnInterval != nil {
		c.OnInterval(c.lastTick, now, snap)
	}
	c.lastTick = now
	return snap
}

// Total returns everything harvested so far. Call Tick first to include the
// latest samples.
func (c *Collector) Total() *Snapshot { return newSnapshot(c.cfg, c.ops, c.total) }
