package merge

import (
	"fmt"

	"github.com/goycsb/ycsb/report/jsonreport"
)

// MixedInterrupted refuses a merge of interrupted and complete reports:
// a client stopped part way adds less than its share to the fleet's sums,
// which then pass for the whole fleet's work. A fleet whose clients were
// all interrupted (one Ctrl-C of the coordinator) is merged, and marked.
// ycsb merge -allow-interrupted merges a mixed fleet all the same, marked.
func MixedInterrupted(paths []string, reps []*jsonreport.Report) error {
	first := -1
	n := 0
	for i, r := range reps {
		if r.Interrupted != nil {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if n == 0 || n == len(reps) {
		return nil
	}
	return inputErr(paths[first], "%s, while %d of the %d reports are complete: its figures would pass for its share of the fleet's; merge it with -allow-interrupted to have the merged report marked interrupted, or run it again",
		reps[first].Interrupted, len(reps)-n, len(reps))
}

// mergeInterrupted is the mark of a merge of reports some of which were
// interrupted: how many, by which signal (when they agree), and their
// planned and done operations; nil when none was.
func mergeInterrupted(reps []*jsonreport.Report) *jsonreport.Interrupted {
	var out *jsonreport.Interrupted
	bounded := true
	for _, r := range reps {
		in := r.Interrupted
		if in == nil {
			continue
		}
		if out == nil {
			out = &jsonreport.Interrupted{By: in.By, PlannedMs: in.PlannedMs}
		}
		out.Clients += max(in.Clients, 1)
		if in.By != out.By {
			out.By = "" // SIGINT here, SIGTERM there
		}
		if in.PlannedMs != out.PlannedMs {
			out.PlannedMs = 0
		}
		bounded = bounded && in.PlannedOperations > 0
		out.PlannedOperations += in.PlannedOperations
		out.DoneOperations += in.DoneOperations
	}
	if out != nil && !bounded {
		out.PlannedOperations = 0
	}
	return out
}

// interruptedNote is what compare says of an interrupted report, on the
// line that names it.
func interruptedNote(r *jsonreport.Report) string {
	if r.Interrupted == nil {
		return ""
	}
	return fmt.Sprintf(" -- warning: %s: its figures are not the planned run's", r.Interrupted)
}
