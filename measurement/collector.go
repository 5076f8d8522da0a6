package measurement

import (
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Collector merges the workers' Recorders. Tick is called by one goroutine
// at a time (the status ticker, then the runner after the workers joined).
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

// Tick harvests every Recorder and returns what was recorded since the last
// Tick. The snapshot is valid until the next Tick.
func (c *Collector) Tick() *Snapshot { return c.tick(Now()) }

// TickUntil is Tick for a run's last harvest: its interval ends at endNs
// (Now's clock), when the run's last operation ended, not when the harvest
// is made, which on a loaded machine can be seconds later (the workers'
// sessions closed, the outputs stopped): the report's intervals then
// stay within its run time. An interval already harvested past endNs
// leaves the last one empty and of no length.
func (c *Collector) TickUntil(endNs int64) *Snapshot {
	return c.tick(max(min(Now(), endNs), c.lastTick))
}

func (c *Collector) tick(now int64) *Snapshot {
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
