package stress

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/goycsb/ycsb/measurement"

	"github.com/goycsb/ycsb/report/stressreport"
)

// newUserMetrics is the metrics of user's ops: a row per op, named as
// typed in ops(...) (the original's Timer is made with it), whose
// partitions and rows are what the op reported (SchemaInsert's rows
// written, SchemaQuery's rows read), so that pk/s and row/s differ for
// multi-row operations.
func newUserMetrics(out io.Writer, fixed bool, ops []*userOp) (*stressreport.Metrics, error) {
	m, err := newMetrics(out, fixed, userOpNames(ops))
	if err != nil {
		return nil, bad("ops(...): %v", err)
	}
	m.EveryRow = true
	m.Tally = func(k int) (int64, int64) { return ops[k].parts.Load(), ops[k].rows.Load() }
	return m, nil
}

// userOpNames are the names of ops as typed in ops(...).
func userOpNames(ops []*userOp) []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return names
}

// metrics is a run's interval lines and Results block.
type metrics = stressreport.Metrics

// histMaxUs is the histograms' highest value, the metrics' own.
const histMaxUs = stressreport.HistMaxUs

// rowOps is the table the runner measures rows with: the rows, then
// CLEANUP. Its error says why the runner cannot take them (a row named
// twice or CLEANUP, too many).
func rowOps(rows []string) (*measurement.Ops, error) {
	switch {
	case slices.Contains(rows, measurement.CleanupName):
		return nil, fmt.Errorf("%s names the closing of the runner's sessions; give the operation another name", measurement.CleanupName)
	case len(rows) >= measurement.MaxOps:
		return nil, fmt.Errorf("%d operations, at most %d", len(rows), measurement.MaxOps-1)
	}
	return measurement.NewOps(append(slices.Clip(rows), measurement.CleanupName)...)
}

// newMetrics returns the metrics of a run whose operations are named
// rows (rowOps checks them).
func newMetrics(out io.Writer, fixed bool, rows []string) (*metrics, error) {
	table, err := rowOps(rows)
	if err != nil {
		return nil, err
	}
	return stressreport.NewMetrics(out, fixed, table), nil
}

// files are the run's output files, as -log and -graph name them.
func (r *stressRun) files() *stressreport.Files {
	s := r.s
	return &stressreport.Files{Log: s.Log.File, HDR: s.Log.HDRFile, JSON: s.Log.JSONFile,
		Graph:  stressreport.Graph{File: s.Graph.File, Revision: s.Graph.Revision, Title: s.Graph.Title, Op: s.Graph.Op},
		Option: s.Option}
}

// reportErr is err, the outputs' bad input as the mode's own.
func reportErr(err error) error {
	var bi *stressreport.BadInput
	if errors.As(err, &bi) {
		return &BadInput{Err: bi.Err}
	}
	return err
}
