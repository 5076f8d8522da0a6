package report

import (
	"time"

	"github.com/goycsb/ycsb/report/jsonreport"
	"github.com/goycsb/ycsb/run"
)

// Interruption is the mark of a run that the end of its context (Ctrl-C,
// SIGTERM) stopped before its work was done, by is the signal ("" when
// not known), plannedOps and planned the run's operations and time limit
// (0: none); nil for a complete run, one that ended at its time limit
// included.
func Interruption(res *run.Result, by string, plannedOps int64, planned time.Duration) *jsonreport.Interrupted {
	if !res.Interrupted {
		return nil
	}
	return &jsonreport.Interrupted{By: by, PlannedOperations: plannedOps, PlannedMs: planned.Milliseconds(), DoneOperations: res.Done}
}
