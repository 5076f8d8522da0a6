package runner

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// Workload is what the workers run. The CoreWorkload of the properties is
// one; Options.Workload puts another in its place (the cassandra-stress
// mode's predefined commands), over the same workers, pacing and
// measurement.
type Workload interface {
	// NewWorker returns one worker's operations; s records them.
	NewWorker(s *measurement.Session, seed uint64) Transactor
	// Stop asks every worker to finish its current operation and return.
	Stop()
	// StopFlag is the flag Stop sets. The workers poll it before each
	// operation, directly rather than through a method of the interface:
	// on the no-op binding an indirect call per operation is 1% of the
	// client's instructions.
	StopFlag() *atomic.Bool
}

// Transactor is one worker's operations: a transaction of the run phase, or
// an insert of the load phase. Each returns false when the worker is done.
type Transactor interface {
	DoTransaction(ctx context.Context) bool
	DoInsert(ctx context.Context) bool
}

// coreWorkload is the CoreWorkload as a Workload.
type coreWorkload struct{ *workload.CoreWorkload }

func (c coreWorkload) NewWorker(s *measurement.Session, seed uint64) Transactor {
	return c.CoreWorkload.NewWorker(s, seed)
}

// IntervalOutput is an interval output of the caller's (Options.Outputs):
// it sees every interval the runner's own outputs see, warm-up included
// (when nothing is recorded), and the last, partial one after the workers
// have joined.
type IntervalOutput interface {
	AddInterval(startNs, endNs int64, iv *measurement.Snapshot)
}

// RunStarter is an IntervalOutput that learns when the run starts (a
// time.Now value and the same instant as a measurement.Now value), before
// the first interval.
type RunStarter interface {
	StartRun(start time.Time, startNs int64)
}

// callerOutput adapts an IntervalOutput to the runner's outputs.
type callerOutput struct{ out IntervalOutput }

func (c callerOutput) addInterval(startNs, endNs int64, iv *measurement.Snapshot) {
	c.out.AddInterval(startNs, endNs, iv)
}

func (c callerOutput) startRun(wu warmup) {
	if s, ok := c.out.(RunStarter); ok {
		s.StartRun(wu.start, wu.startNs)
	}
}

// Summary is what a run measured, for Options.Summary.
type Summary struct {
	Start, End time.Time // the measured window
	Ops        int64     // operations done in it
	Succeeded  int64
	Total      *measurement.Snapshot
	Stopped    bool // by Ctrl-C or the time limit, not by the end of the work
}
