package stressreport

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/goycsb/ycsb/run/capacity"
)

// WriteCapacity writes the summary of a -rate capacity search, cfg's,
// through writeLine: a line per step, then the answer; objs are the
// objectives as typed (-slo), maxStep the longest a step runs.
func WriteCapacity(writeLine func(string), a *capacity.Answer, cfg capacity.Config, objs []string, maxStep time.Duration) {
	writeLine("")
	writeLine("Capacity (ours), against " + strings.Join(objs, ", ") + " on intended latency:")
	writeLine(fmt.Sprintf("%5s %12s %14s %8s  %s", "step", "asked op/s", "achieved op/s", "threads", "verdict"))
	for i, s := range a.Steps {
		line := fmt.Sprintf("%5d %12s %14s %8d  %s", i+1, jf(s.Asked, 0, true), jf(s.Achieved, 0, true), s.Threads, s.Verdict)
		if s.Confirms > 0 {
			line += fmt.Sprintf(" (confirms step %d)", s.Confirms)
		}
		if s.Why != "" {
			line += ": " + s.Why
		}
		writeLine(line)
	}
	// What the best passing step served: its achieved rate, at most its
	// asked one (Answer.Max).
	answer := "none: no rate met the objectives"
	if max, best := a.Max(); max > 0 {
		answer = jf(math.Floor(max), 0, true) + " op/s" // never shown above what the step achieved
		if asked := a.Steps[best-1].Asked; asked > max {
			answer += fmt.Sprintf(" achieved by step %d (%s asked)", best, jf(asked, 0, true))
		}
	}
	writeLine(fmt.Sprintf("%-26s: %s", "Max op rate meeting -slo", answer))
	if a.Above > 0 {
		writeLine(fmt.Sprintf("%-26s: %s op/s", "First failing op rate", jf(a.Above, 0, true)))
	}
	_, limit := a.Limit(cfg, capacity.Names{Resolution: fmt.Sprintf("resolution=%g%%", cfg.Resolution*100),
		Steps: "the steps", Max: "the highest rate", Unit: "op/s", StepTime: fmt.Sprintf("a step runs at most %s", maxStep)})
	writeLine(fmt.Sprintf("%-26s: %s", "Limit", limit))
	if why := a.Untrusted("op/s"); why != "" {
		writeLine(fmt.Sprintf("%-26s: no: %s", "Trusted", why))
	}
}
