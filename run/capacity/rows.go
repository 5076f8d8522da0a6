package capacity

import (
	"strings"

	"github.com/goycsb/ycsb/measurement/slo"
)

// LimitFleet is the Limit of one client's report of a fleet's ladder: it
// has no answer, ycsb merge finds it from the clients' merged steps.
const LimitFleet = "fleet"

// FailedObjectives says which of j's objectives a step failed, and which
// it could not judge (slo.NoData, which fails a step as it fails a run).
func FailedObjectives(j *slo.Judgement) string {
	var f, none []string
	for _, r := range j.Results {
		switch r.Verdict {
		case slo.Fail:
			f = append(f, r.Text)
		case slo.NoData:
			none = append(none, r.Text+" ("+r.Why+")")
		}
	}
	var parts []string
	if len(f) > 0 {
		parts = append(parts, strings.Join(f, ", ")+" failed")
	}
	if len(none) > 0 {
		parts = append(parts, "no data for "+strings.Join(none, ", "))
	}
	s := strings.Join(parts, "; ")
	if j.Aborted != "" {
		s += " (stopped early: " + j.Aborted + ")"
	}
	return s
}
