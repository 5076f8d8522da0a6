package run

import (
	"time"

	"github.com/goycsb/ycsb/measurement"
)

// An Output takes every interval the collector harvests while the run goes:
// the HDR interval logs, the Prometheus endpoint, the JSON report's
// intervals, the progress line, the stress mode's interval lines. Intervals
// come from one goroutine at a time (see measurement.Collector.Tick) and
// cover the warm-up too, when nothing is recorded.
type Output interface {
	AddInterval(startNs, endNs int64, iv *measurement.Snapshot)
}

// What an output may also do, each asked for only by the outputs that
// need it (after the optional interfaces of grafana/k6's output package).
type (
	// ProgressWatcher is handed the run's progress before it starts.
	ProgressWatcher interface{ WatchProgress(p *Progress) }
	// RunStarter learns when the run starts (a time.Now value and the
	// same instant as a measurement.Now value), before the first interval.
	RunStarter interface {
		StartRun(start time.Time, startNs int64)
	}
	// RunEnder is told when the workers have joined, before the last
	// interval is harvested.
	RunEnder interface{ EndRun(end time.Time) }
	// Halter may end the run early (slo.abort): before the run starts it
	// is handed halt, which stops the workers as the time limit does and
	// keeps the first reason given for the report (Result.Halted).
	Halter interface {
		SetHalt(halt func(reason string))
	}
)

// A Ticker ticks the collector on a schedule of its own from Start to Stop.
type Ticker interface {
	Start(p *Progress)
	Stop()
}

// Progress is a running plan as the live outputs see it.
type Progress struct {
	Start     time.Time // the run's start, warm-up included
	Collector *measurement.Collector
	workers   []*worker
}

// Done is the operations the workers have done so far, and of those they
// are to do, the ones left (0 when they run until stopped).
func (p *Progress) Done() (done, left int64) {
	for _, w := range p.workers {
		d := w.done.Load()
		done += d
		if w.opCount > 0 && w.opCount > d {
			left += w.opCount - d
		}
	}
	return done, left
}

// outputs are the plan's outputs and the ticker that feeds them when
// nothing else ticks the collector.
type outputs struct {
	list  []Output
	every time.Duration
	halt  func(reason string) // stops the run, for Halters

	quit, done chan struct{}
}

func (o *outputs) addInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	for _, out := range o.list {
		out.AddInterval(startNs, endNs, iv)
	}
}

// start hooks the outputs to c's harvests and tells them the run has
// started. Unless another ticker ticks c (ticked), it ticks c every
// interval; with a warm-up, one extra tick at its end makes the first
// measured interval begin there.
func (o *outputs) start(c *measurement.Collector, wu warmup, p *Progress, ticked bool) {
	if len(o.list) == 0 {
		return
	}
	c.OnInterval = o.addInterval
	for _, out := range o.list {
		if h, ok := out.(Halter); ok {
			h.SetHalt(o.halt)
		}
	}
	for _, out := range o.list {
		if w, ok := out.(ProgressWatcher); ok {
			w.WatchProgress(p)
		}
	}
	for _, out := range o.list {
		if s, ok := out.(RunStarter); ok {
			s.StartRun(wu.start, wu.startNs)
		}
	}
	if ticked || o.every <= 0 {
		return // without an interval, only the last harvest
	}
	o.quit, o.done = make(chan struct{}), make(chan struct{})
	go o.tick(c, wu)
}

func (o *outputs) tick(c *measurement.Collector, wu warmup) {
	defer close(o.done)
	t := time.NewTicker(o.every)
	defer t.Stop()
	// The warm-up tick comes just before the workers start recording, so
	// that it harvests nothing and the first measured interval starts with
	// the measurement; a regular tick close to it is dropped, so no sliver
	// of an interval is reported.
	var warm <-chan time.Time
	if wu.on() {
		early := min(5*time.Millisecond, wu.length/2)
		wt := time.NewTimer(wu.length - early)
		defer wt.Stop()
		warm = wt.C
	}
	for {
		select {
		case <-t.C:
			if warm != nil && time.Until(wu.end()) < o.every/4 {
				continue
			}
			c.Tick()
		case <-warm:
			warm = nil
			c.Tick()
			t.Reset(o.every)
		case <-o.quit:
			return
		}
	}
}

// stopTicking ends the ticks.
func (o *outputs) stopTicking() {
	if o.quit != nil {
		close(o.quit)
		<-o.done
		o.quit = nil
	}
}

// endRun tells the outputs the run has ended; the engine's last Tick
// follows.
func (o *outputs) endRun(end time.Time) {
	for _, out := range o.list {
		if e, ok := out.(RunEnder); ok {
			e.EndRun(end)
		}
	}
}
