package ycsb

import (
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/prom"
	"github.com/goycsb/ycsb/run"
)

// intervalOutputs are the run's engine outputs (the HDR interval logs, the
// Prometheus endpoint, the JSON report's intervals, the caller's) and how
// often they see an interval. Besides what the engine asks of them, an
// output may end with the report or hold what the run must give back.
type intervalOutputs struct {
	list  []run.Output
	every time.Duration // report.interval
}

type (
	// reportCloser is closed when the report is written; its error fails
	// the run.
	reportCloser interface{ closeReport() error }
	// releaser gives back what it holds when the run returns, whatever
	// happened.
	releaser interface{ release() }
)

func (o *intervalOutputs) add(out run.Output) { o.list = append(o.list, out) }

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

func (h hdrOutput) AddInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	h.logs.Write(startNs, endNs, iv)
}

func (h hdrOutput) closeReport() error { return h.logs.Close() }

// promOutput serves the intervals' figures at /metrics (prometheus.addr).
type promOutput struct {
	e      *prom.Exporter
	warmup time.Duration
}

func (p promOutput) AddInterval(_, _ int64, iv *measurement.Snapshot) { p.e.Observe(iv) }

func (p promOutput) StartRun(start time.Time, _ int64) {
	if p.warmup > 0 {
		p.e.SetWarmupEnd(start.Add(p.warmup))
	}
}

func (p promOutput) release() { p.e.Close() }
