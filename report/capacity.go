package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/slo"
	"github.com/goycsb/ycsb/report/json"
	"github.com/goycsb/ycsb/run/capacity"
)

// CapacitySection is the name of the report's rows.
const CapacitySection = "CAPACITY"

// CapacityRows are the [CAPACITY] rows of a search, of one client's share of a
// fleet's ladder, or of the fleet's merged ladder: a row per step, the
// objectives, then the answer (none in a client's share) and whether the
// steps that decided it could trust their figures.
func CapacityRows(c *jsonreport.Capacity, objectives []string) []export.Row {
	var rows []export.Row
	for i := range c.Steps {
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "Step " + strconv.Itoa(i+1), Value: export.Str(CapacityStepLine(&c.Steps[i]))})
	}
	rows = append(rows, export.Row{Metric: CapacitySection, Name: "SLO", Value: export.Str(strings.Join(objectives, ", "))})
	if c.Limit != capacity.LimitFleet {
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "MaxThroughput(ops/sec)", Value: export.Float(c.MaxOpsSec)})
		if c.MaxOpsSec > 0 {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "AchievedThroughput(ops/sec)", Value: export.Float(c.AchievedOpsSec)})
		}
		if c.FirstFailingOpsSec > 0 {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "FirstFailing(ops/sec)", Value: export.Float(c.FirstFailingOpsSec)})
		}
	}
	rows = append(rows, export.Row{Metric: CapacitySection, Name: "Limit", Value: export.Str(c.LimitWhy)})
	if c.Limit != capacity.LimitFleet {
		// Whether the steps that decided the answer could trust their
		// figures, and why not.
		rows = append(rows, export.Row{Metric: CapacitySection, Name: "Trusted", Value: export.Str(strconv.FormatBool(c.Untrusted == ""))})
		if c.Untrusted != "" {
			rows = append(rows, export.Row{Metric: CapacitySection, Name: "Untrusted", Value: export.Str(c.Untrusted)})
		}
	}
	return rows
}

// CapacityStepLine is a step as one line: rates, threads, each objective's
// figure (and verdict, when judged), the step's verdict and why.
func CapacityStepLine(s *jsonreport.CapacityStep) string {
	var b strings.Builder
	if s.ShareOpsSec > 0 {
		fmt.Fprintf(&b, "%.0f ops/s asked of the fleet, %.0f of this client, %.1f achieved, %d threads", s.AskedOpsSec, s.ShareOpsSec, s.AchievedOpsSec, s.Threads)
	} else {
		fmt.Fprintf(&b, "%.0f ops/s asked, %.1f achieved, %d threads", s.AskedOpsSec, s.AchievedOpsSec, s.Threads)
	}
	if s.SLO != nil {
		for _, o := range s.SLO.Objectives {
			b.WriteString(", " + o.Objective)
			if o.Verdict != "" {
				b.WriteString(" " + o.Verdict)
			}
			switch {
			case o.Measured == nil && o.Verdict == "":
				b.WriteString(" no data")
				if o.Why != "" {
					b.WriteString(": " + o.Why)
				}
			case o.Measured == nil:
				if o.Why != "" {
					b.WriteString(" (" + o.Why + ")")
				}
			case o.Verdict == "":
				b.WriteString(" " + measuredText(o))
			default:
				b.WriteString(" (" + measuredText(o) + ")")
			}
		}
	}
	if !s.Trusted {
		b.WriteString(", too few operations to trust the percentiles (capacity.maxsteptime)")
	}
	if s.Confirms > 0 {
		fmt.Fprintf(&b, ", confirming step %d", s.Confirms)
	}
	fmt.Fprintf(&b, ": %s", s.Verdict)
	if s.Why != "" {
		b.WriteString(" — " + s.Why)
	}
	return b.String()
}

func measuredText(o slo.SLOObjective) string {
	if o.Unit == "fraction" {
		return strconv.FormatFloat(*o.Measured*100, 'g', 3, 64) + "%"
	}
	return slo.FormatLatency(*o.Measured)
}
