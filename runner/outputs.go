package runner

import (
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/prom"
)

// An intervalOutput takes every interval the collector harvests while the
// run goes: the HDR interval logs, the Prometheus endpoint, the JSON
// report's intervals, the progress line. Adding one is a new type added to
// the run's intervalOutputs. Intervals come from one goroutine at a time
// (see measurement.Collector.Tick) and cover the warm-up too, when nothing
// is recorded.
type intervalOutput interface {
	addInterval(startNs, endNs int64, iv *measurement.Snapshot)
}

// What an output may also do, each asked for only by the outputs that
// need it (after the optional interfaces of grafana/k6's output package).
type (
	// runStarter learns the run's start and warm-up before the first
	// interval.
	runStarter interface{ startRun(wu warmup) }
	// runEnder is told when the workers have joined, before the last
	// interval is harvested for the report.
	runEnder interface{ endRun(end time.Time) }
	// reportCloser is closed when the report is written; its error fails
	// the run.
	reportCloser interface{ closeReport() error }
	// releaser gives back what it holds when the run returns, whatever
	// happened.
	releaser interface{ release() }
)

// intervalOutputs is the run's list of interval outputs and the ticker that
// feeds them when nothing else ticks the collector.
type intervalOutputs struct {
	list  []intervalOutput
	every time.Duration // report.interval

	quit, done chan struct{}
}

func (o *intervalOutputs) add(out intervalOutput) { o.list = append(o.list, out) }

func (o *intervalOutputs) addInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	for _, out := range o.list {
		out.addInterval(startNs, endNs, iv)
	}
}

// start hooks the outputs to c's harvests and tells them the run has
// started. Unless the status ticker ticks c (ticked), it ticks c every
// report.interval; with a warm-up, one extra tick at its end makes the
// first measured interval begin there.
func (o *intervalOutputs) start(c *measurement.Collector, wu warmup, ticked bool) {
	if len(o.list) == 0 {
		return
	}
	c.OnInterval = o.addInterval
	for _, out := range o.list {
		if s, ok := out.(runStarter); ok {
			s.startRun(wu)
		}
	}
	if ticked {
		return
	}
	o.quit, o.done = make(chan struct{}), make(chan struct{})
	go o.tick(c, wu)
}

func (o *intervalOutputs) tick(c *measurement.Collector, wu warmup) {
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
func (o *intervalOutputs) stopTicking() {
	if o.quit != nil {
		close(o.quit)
		<-o.done
		o.quit = nil
	}
}

// endRun tells the outputs the run has ended; the runner's last Tick
// follows.
func (o *intervalOutputs) endRun(end time.Time) {
	for _, out := range o.list {
		if e, ok := out.(runEnder); ok {
			e.endRun(end)
		}
	}
}

// closeReport closes the outputs that end with the report and returns the
// first error.
func (o *intervalOutputs) closeReport() error {
	var first error
	for _, out := range o.list {
		if c, ok := out.(reportCloser); ok {
			if err := c.closeReport(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// release gives back what the outputs hold.
func (o *intervalOutputs) release() {
	for _, out := range o.list {
		if r, ok := out.(releaser); ok {
			r.release()
		}
	}
}

// hdrOutput writes the HdrHistogram interval logs (hdrhistogram.fileoutput).
type hdrOutput struct{ logs *measurement.HdrLogs }

func (h hdrOutput) addInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	h.logs.Write(startNs, endNs, iv)
}

func (h hdrOutput) closeReport() error { return h.logs.Close() }

// promOutput serves the intervals' figures at /metrics (prometheus.addr).
type promOutput struct{ e *prom.Exporter }

func (p promOutput) addInterval(_, _ int64, iv *measurement.Snapshot) { p.e.Observe(iv) }

func (p promOutput) startRun(wu warmup) {
	if wu.on() {
		p.e.SetWarmupEnd(wu.end())
	}
}

func (p promOutput) release() { p.e.Close() }
