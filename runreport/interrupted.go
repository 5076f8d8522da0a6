package runreport

import (
	"slices"
	"strings"
	"time"

	"github.com/goycsb/ycsb/engine"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
)

// InterruptedRow is the text report's row of an interrupted run, after the
// reference's OVERALL rows.
const InterruptedRow = "Interrupted"

// Interruption is the mark of a run that the end of its context (Ctrl-C,
// SIGTERM) stopped before its work was done, by is the signal ("" when
// not known), plannedOps and planned the run's operations and time limit
// (0: none); nil for a complete run, one that ended at its time limit
// included.
func Interruption(res *engine.Result, by string, plannedOps int64, planned time.Duration) *jsonreport.Interrupted {
	if !res.Interrupted {
		return nil
	}
	return &jsonreport.Interrupted{By: by, PlannedOperations: plannedOps, PlannedMs: planned.Milliseconds(), DoneOperations: res.Done}
}

// MarkInterrupted adds the row of an interrupted run to rows, after the
// OVERALL rows so that parsers keyed on the reference's rows keep
// working; rows as they are for a complete run (nil in).
func MarkInterrupted(rows []export.Row, in *jsonreport.Interrupted) []export.Row {
	if in == nil {
		return rows
	}
	// "by SIGTERM after 5299 of 100000 operations": the row's name says
	// the rest.
	v := strings.TrimPrefix(in.String(), "interrupted ")
	return slices.Insert(rows, overallEnd(rows), export.Row{Metric: "OVERALL", Name: InterruptedRow, Value: export.Str(v)})
}
