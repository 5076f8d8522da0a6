package runner

import (
	"time"

	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// Workload is what the workers run (engine.Workload).
type Workload = engine.Workload

// Transactor is one worker's operations (engine.Transactor).
type Transactor = engine.Transactor

// IntervalOutput is an interval output of the caller's (Options.Outputs),
// fed as the runner's own (engine.Output).
type IntervalOutput = engine.Output

// coreWorkload is the CoreWorkload as an engine.Workload.
type coreWorkload struct{ *workload.CoreWorkload }

func (c coreWorkload) NewWorker(s *measurement.Session, seed uint64) engine.Transactor {
	return c.CoreWorkload.NewWorker(s, seed)
}

// Summary is what a run measured, for Options.Summary.
type Summary struct {
	Start, End time.Time // the measured window
	Ops        int64     // operations done in it
	Succeeded  int64
	Total      *measurement.Snapshot
	Stopped    bool // by Ctrl-C or the time limit, not by the end of the work
}
