package capacity

import (
	"fmt"
	"strings"

	"github.com/goycsb/ycsb/measurement/slo"
)

// Names are how a front end names its search's options in the sentences
// of its answer.
type Names struct {
	Resolution string // "capacity.resolution", "resolution=5%"
	Steps      string // "capacity.steps", "30 steps" (the count follows in parentheses)
	Max        string // "capacity.max"
	Unit       string // "ops/s", "op/s"
	StepTime   string // "capacity.maxsteptime": what makes steps longer
}

// LimitInterrupted is the Limit of a search that ctx or an error ended
// early; a fleet client's interrupted ladder starts its sentence with it.
const LimitInterrupted = "interrupted"

// LimitUntrusted is the Limit of a search whose failing step that bounds
// it ran too few operations to trust: neither the system nor the client
// is shown to be the limit.
const LimitUntrusted = "untrusted"

// LimitUnjudged is the Limit of a search that ended at a step whose
// objectives could not be judged on the operations it ran (Step.Unjudged).
const LimitUnjudged = "unjudged"

// Limit says what ended the search a: a word for the JSON report
// ("interrupted", "client", "steps", "none", "max", "system") and a
// sentence for the reader. The system is named only on a failure its
// step could trust, confirmed (Search) and not the client's.
func (a *Answer) Limit(c Config, n Names) (word, why string) {
	switch {
	case a.Interrupted:
		return LimitInterrupted, a.interrupted(n.Unit)
	case a.Hopeless != "":
		st := a.Steps[a.atAbove-1]
		return "client", fmt.Sprintf("the client cannot hold the objectives on this machine: %s; step %d at %g %s measured %.1f %s: %s; no rate was judged",
			a.Hopeless, a.atAbove, st.Asked, n.Unit, st.Achieved, n.Unit, st.Why)
	case a.Limited:
		return "client", "the client: " + a.limitingWhy() + "; the system's capacity is at least this"
	case a.Unjudged:
		st := a.Steps[len(a.Steps)-1]
		return LimitUnjudged, fmt.Sprintf("step %d at %g %s could not be judged (%s): a lower rate runs fewer operations in a step; longer steps (%s) would judge it",
			len(a.Steps), st.Asked, n.Unit, st.Why, n.StepTime)
	case a.Exhausted:
		return "steps", fmt.Sprintf("%s (%d) ran out before the resolution", n.Steps, c.MaxSteps)
	case a.Rate == 0:
		return "none", "no rate passed"
	case a.Above == 0:
		return "max", fmt.Sprintf("%s (%g %s) passed", n.Max, c.Max, n.Unit)
	case a.aboveUntrusted():
		return LimitUntrusted, a.untrustedWhy(n.Unit)
	}
	return "system", "the system: the bracket is within " + n.Resolution
}

// aboveUntrusted says the step that set Above could not trust its figures.
func (a *Answer) aboveUntrusted() bool {
	return a.atAbove > 0 && a.Steps[a.atAbove-1].Untrusted != ""
}

// untrustedWhy is the sentence of LimitUntrusted.
func (a *Answer) untrustedWhy(unit string) string {
	s := a.Steps[a.atAbove-1]
	return fmt.Sprintf("%s: the failing step that bounds it, step %d at %g %s, is not to be trusted (%s); neither the system nor the client is shown to be the limit",
		LimitUntrusted, a.atAbove, s.Asked, unit, s.Untrusted)
}

// Untrusted says why the answer is not to be trusted: the steps that
// decided it (the last run at Rate, and at Above) could not trust their
// figures; "" when both could (or there are none).
func (a *Answer) Untrusted(unit string) string {
	var why []string
	for _, i := range []int{a.atRate, a.atAbove} {
		if i > 0 && a.Steps[i-1].Untrusted != "" {
			s := a.Steps[i-1]
			why = append(why, fmt.Sprintf("step %d (%g %s, %s): %s", i, s.Asked, unit, s.Verdict, s.Untrusted))
		}
	}
	return strings.Join(why, "; ")
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
	served, _ := a.Max()
	return s + fmt.Sprintf("the system served at least %.1f %s", served, unit)
}

// limitingWhy is why the client limited the step that set a.Above.
func (a *Answer) limitingWhy() string {
	if i := a.atAbove; i > 0 && a.Steps[i-1].Verdict == ClientLimited && a.Steps[i-1].Why != "" {
		return a.Steps[i-1].Why
	}
	return "it could not offer the rate"
}

// OfferNote says what threads offer at a mean latency of meanUs
// (Offered), in unit.
func OfferNote(threads int, meanUs float64, unit string) string {
	return fmt.Sprintf("%d threads at %s offer at most %.0f %s", threads, slo.FormatLatency(meanUs), Offered(threads, meanUs), unit)
}
