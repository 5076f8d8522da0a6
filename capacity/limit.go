package capacity

import (
	"fmt"

	"github.com/goycsb/ycsb/slo"
)

// Names are how a front end names its search's options in the sentences
// of its answer.
type Names struct {
	Resolution string // "capacity.resolution", "resolution=5%"
	Steps      string // "capacity.steps", "30 steps" (the count follows in parentheses)
	Max        string // "capacity.max"
	Unit       string // "ops/s", "op/s"
}

// LimitInterrupted is the Limit of a search that ctx or an error ended
// early; a fleet client's interrupted ladder starts its sentence with it.
const LimitInterrupted = "interrupted"

// Limit says what ended the search a: a word for the JSON report
// ("interrupted", "client", "steps", "none", "max", "system") and a
// sentence for the reader.
func (a *Answer) Limit(c Config, n Names) (word, why string) {
	switch {
	case a.Interrupted:
		return LimitInterrupted, a.interrupted(n.Unit)
	case a.Limited:
		return "client", "the client: " + a.limitingWhy() + "; the system's capacity is at least this"
	case a.Exhausted:
		return "steps", fmt.Sprintf("%s (%d) ran out before the resolution", n.Steps, c.MaxSteps)
	case a.Rate == 0:
		return "none", "no rate passed"
	case a.Above == 0:
		return "max", fmt.Sprintf("%s (%g %s) passed", n.Max, c.Max, n.Unit)
	}
	return "system", "the system: the bracket is within " + n.Resolution
}

// interrupted says how far an interrupted search got: its steps, and the
// highest rate that passed, in unit.
func (a *Answer) interrupted(unit string) string {
	steps := "steps"
	if len(a.Steps) == 1 {
		steps = "step"
	}
	s := fmt.Sprintf("%s after %d %s; ", LimitInterrupted, len(a.Steps), steps)
	if a.Rate == 0 {
		return s + "no rate passed"
	}
	return s + fmt.Sprintf("the system served at least %g %s", a.Rate, unit)
}

// limitingWhy is why the client limited the step at a.Above.
func (a *Answer) limitingWhy() string {
	for _, s := range a.Steps {
		if s.Asked == a.Above && s.Verdict == ClientLimited {
			return s.Why
		}
	}
	return "it could not offer the rate"
}

// OfferNote says what threads offer at a mean latency of meanUs
// (Offered), in unit.
func OfferNote(threads int, meanUs float64, unit string) string {
	return fmt.Sprintf("%d threads at %s offer at most %.0f %s", threads, slo.FormatLatency(meanUs), Offered(threads, meanUs), unit)
}
