package run

import (
	"runtime"
	"sync"
	"time"

	"github.com/goycsb/ycsb/internal/hostcpu"
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

// gcWindow reads the runtime's GC figures, and the client's CPU
// (hostcpu), when measurement starts and when the run ends, so that the GC
// and CLIENT rows, like the others, leave the warm-up out: with a warm-up,
// the figures at its end replace those at the start.
type gcWindow struct {
	mu    sync.Mutex // the warm-up's timer writes start and cpu
	start runtime.MemStats
	cpu   hostcpu.Sample
	timer *time.Timer
}

// startGCWindow reads the figures at the start; call it just before
// startWarmup, as the run starts.
func startGCWindow() *gcWindow {
	g := &gcWindow{}
	runtime.ReadMemStats(&g.start)
	g.cpu = hostcpu.System.Sample()
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
		cpu := hostcpu.System.Sample()
		g.mu.Lock()
		g.start, g.cpu = ms, cpu
		g.mu.Unlock()
	})
}

// GCWindow is the runtime's GC figures at both ends of the measured
// window.
type GCWindow struct{ Start, End runtime.MemStats }

// windowEnds are the figures at both ends of the measured window.
type windowEnds struct {
	gc       GCWindow
	cpuStart hostcpu.Sample
	cpuEnd   hostcpu.Sample
}

// end reads the figures at the end and returns both ends of the window.
func (g *gcWindow) end() windowEnds {
	var w windowEnds
	runtime.ReadMemStats(&w.gc.End)
	w.cpuEnd = hostcpu.System.Sample()
	if g.timer != nil {
		g.timer.Stop()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	w.gc.Start, w.cpuStart = g.start, g.cpu
	return w
}
