package stress

import (
	"errors"
	"io"

	"github.com/goycsb/ycsb/report/stressreport"
	"github.com/goycsb/ycsb/workload/cassandrastress"
)

// newUserMetrics is the metrics of user's ops: a row per op, named as
// typed in ops(...) (the original's Timer is made with it), whose
// partitions and rows are what the op reported (SchemaInsert's rows
// written, SchemaQuery's rows read), so that pk/s and row/s differ for
// multi-row operations.
func newUserMetrics(out io.Writer, fixed bool, names []string, tally func(k int) (parts, rows int64)) (*stressreport.Metrics, error) {
	m, err := newMetrics(out, fixed, names)
	if err != nil {
		return nil, bad("ops(...): %v", err)
	}
	m.EveryRow = true
	m.Tally = tally
	return m, nil
}

// metrics is a run's interval lines and Results block.
type metrics = stressreport.Metrics

// newMetrics returns the metrics of a run whose operations are named
// rows (cassandrastress.RowOps checks them).
func newMetrics(out io.Writer, fixed bool, rows []string) (*metrics, error) {
	table, err := cassandrastress.RowOps(rows)
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
