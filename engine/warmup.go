package engine

import (
	"runtime"
	"sync"
	"time"

	"github.com/goycsb/ycsb/measurement"
)

// warmup is the run's start and the warm-up that follows it, in the two
// clocks the run reads: wall time for people, files and timers, and
// measurement.Now values for the workers and the collector's intervals. It
// is taken once, as the run starts, and handed to everything that leaves
// the warm-up out. Without a warm-up its length is 0 and measurement starts
// with the run.
type warmup struct {
	length  time.Duration
	start   time.Time
	startNs int64 // start as a measurement.Now value
}

// startWarmup starts the run's clocks now.
func startWarmup(length time.Duration) warmup {
	return warmup{length: length, start: time.Now(), startNs: measurement.Now()}
}

// on reports whether the run has a warm-up.
func (w warmup) on() bool { return w.length > 0 }

// end is when measurement starts.
func (w warmup) end() time.Time { return w.start.Add(w.length) }

// endNs is end as a measurement.Now value.
func (w warmup) endNs() int64 { return w.startNs + int64(w.length) }

// measuredFrom is the start of the measured window of a run that ended at
// end: the end of the warm-up, or end itself when the run ended first.
func (w warmup) measuredFrom(end time.Time) time.Time {
	if m := w.end(); !m.After(end) {
		return m
	}
	return end
}

// gcWindow reads the runtime's GC figures when measurement starts and when
// the run ends, so that the GC rows, like the others, leave the warm-up
// out: with a warm-up, the figures at its end replace those at the start.
type gcWindow struct {
	mu    sync.Mutex // the warm-up's timer writes start
	start runtime.MemStats
	timer *time.Timer
}

// startGCWindow reads the figures at the start; call it just before
// startWarmup, as the run starts.
func startGCWindow() *gcWindow {
	g := &gcWindow{}
	runtime.ReadMemStats(&g.start)
	return g
}

// skip reads the figures again at the end of wu's warm-up.
func (g *gcWindow) skip(wu warmup) {
	if !wu.on() {
		return
	}
	g.timer = time.AfterFunc(wu.length, func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		g.mu.Lock()
		g.start = ms
		g.mu.Unlock()
	})
}

// GCWindow is the runtime's GC figures at both ends of the measured
// window.
type GCWindow struct{ Start, End runtime.MemStats }

// end reads the figures at the end and returns both ends of the window.
func (g *gcWindow) end() (start, end runtime.MemStats) {
	runtime.ReadMemStats(&end)
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.start, end
}
