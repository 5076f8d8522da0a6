package jsonreport

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/shown"
	"github.com/goycsb/ycsb/measurement/export"
)

// InterruptedRow is the text report's row of an interrupted run, after the
// reference's OVERALL rows.
const InterruptedRow = "Interrupted"

// Interrupted is how far a run stopped by a signal (Ctrl-C, SIGTERM) got
// with its planned work.
type Interrupted struct {
	// By is the signal, SIGINT or SIGTERM; absent when not known (and in
	// a merge of clients stopped by different ones).
	By string `json:"by,omitempty"`
	// PlannedOperations is the operations the run was to do
	// (operationcount; insertcount or recordcount for a load); absent
	// when unbounded. PlannedMs is its maxexecutiontime; absent without.
	PlannedOperations int64 `json:"planned_operations,omitempty"`
	PlannedMs         int64 `json:"planned_ms,omitempty"`
	// DoneOperations is the operations done, the warm-up's included (as
	// PlannedOperations counts them).
	DoneOperations int64 `json:"done_operations"`
	// Clients is, in a merged report, how many of its clients were
	// interrupted; the counts above are theirs. Absent in a client's.
	Clients int `json:"clients,omitempty"`
}

// Signals are the signals Interrupted.By may name.
var Signals = []string{"SIGINT", "SIGTERM"}

// String says how far the run got: "interrupted by SIGTERM after 5299 of
// 100000 operations".
func (in *Interrupted) String() string {
	s := "interrupted"
	if in.Clients > 0 {
		s = fmt.Sprintf("%d client", in.Clients)
		if in.Clients > 1 {
			s += "s"
		}
		s += " interrupted"
	}
	if in.By != "" {
		s += " by " + in.By
	}
	s += fmt.Sprintf(" after %d", in.DoneOperations)
	if in.PlannedOperations > 0 {
		s += fmt.Sprintf(" of %d", in.PlannedOperations)
	}
	s += " operations"
	if in.PlannedMs > 0 {
		s += fmt.Sprintf(", maxexecutiontime %s", time.Duration(in.PlannedMs)*time.Millisecond)
	}
	return s
}

// interrupted checks the mark of an interrupted run against the report:
// a known signal, no more done than planned, and, in a client's report,
// at least the operations it measured.
func (c *checker) interrupted(r *Report, in *Interrupted) {
	if in.By != "" && !slices.Contains(Signals, in.By) {
		c.fail("interrupted.by", "%s is not SIGINT or SIGTERM", shown.Quote(in.By))
	}
	c.count("interrupted.planned_operations", in.PlannedOperations)
	c.duration("interrupted.planned_ms", in.PlannedMs)
	c.count("interrupted.done_operations", in.DoneOperations)
	c.count("interrupted.clients", int64(in.Clients))
	if c.err != nil {
		return
	}
	switch {
	case in.PlannedOperations > 0 && in.DoneOperations > in.PlannedOperations:
		c.fail("interrupted.done_operations", "%d is above planned_operations %d", in.DoneOperations, in.PlannedOperations)
	case in.Clients > max(r.Clients, 1):
		c.fail("interrupted.clients", "%d is more than the report's clients %d", in.Clients, r.Clients)
	case in.Clients == 0 && in.DoneOperations < r.Operations:
		c.fail("interrupted.done_operations", "%d is below the report's operations %d", in.DoneOperations, r.Operations)
	}
}

// MarkInterrupted adds the row of an interrupted run (or merge) to rows,
// after the OVERALL rows, so that parsers keyed on the reference's rows
// keep working; rows as they are for a complete run (nil in).
func MarkInterrupted(rows []export.Row, in *Interrupted) []export.Row {
	if in == nil {
		return rows
	}
	end := 0
	for end < len(rows) && rows[end].Metric == export.Overall {
		end++
	}
	// "by SIGTERM after 5299 of 100000 operations": the row's name says
	// the rest.
	v := strings.TrimPrefix(in.String(), "interrupted ")
	return slices.Insert(rows, end, export.Row{Metric: export.Overall, Name: InterruptedRow, Value: export.Str(v)})
}
