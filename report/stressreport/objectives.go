package stressreport

import (
	"fmt"
	"io"

	"github.com/goycsb/ycsb/measurement/slo"
)

// WriteObjectives writes the -slo verdict after the Results block, in its
// style: one line per objective, then the run's.
func WriteObjectives(w io.Writer, j *slo.Judgement) {
	fmt.Fprintf(w, "Objectives (%s latency):\n", j.Latency)
	for _, row := range j.Rows()[1:] {
		fmt.Fprintf(w, "%-26s: %s\n", row.Name, row.Value)
	}
	fmt.Fprintln(w)
}
