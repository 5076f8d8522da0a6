// Package capacity searches for the highest rate a system serves within
// its service level objectives: open-loop steps at rising target rates,
// geometric growth until a step fails, then bisection between the best
// step that passed and the lowest that failed, to a resolution. It knows
// no database and no engine: a Stepper runs each step.
package capacity

import (
	"context"
	"fmt"
	"math"
)

// Config is a search's bounds.
type Config struct {
	// Start is the first step's rate (ops/s); Max the highest the search
	// asks for.
	Start, Max float64
	// Growth multiplies the rate after each passing step until one fails
	// (> 1).
	Growth float64
	// Resolution ends the bisection once the bracket's width is at most
	// this share of its lower end (e.g. 0.05).
	Resolution float64
	// MaxSteps bounds the number of steps.
	MaxSteps int
}

// Check says what is wrong with c, naming the field's property.
func (c *Config) Check() error {
	switch {
	case !(c.Start >= minRate) || c.Start > 1e9:
		return fmt.Errorf("start rate %g: want at least %g and at most 1e9 ops/s", c.Start, minRate)
	case !(c.Max >= math.Round(c.Start)) || c.Max > 1e9:
		// Rates are whole ops/s: the start's must not exceed the max.
		return fmt.Errorf("maximum rate %g: want at least the start rate rounded to whole ops/s (%g) and at most 1e9 ops/s", c.Max, math.Round(c.Start))
	case !(c.Growth > 1) || c.Growth > 100:
		return fmt.Errorf("growth %g: want above 1 and at most 100", c.Growth)
	case !(c.Resolution > 0) || c.Resolution > 1:
		return fmt.Errorf("resolution %g: want above 0 and at most 1 (a share of the rate)", c.Resolution)
	case c.MaxSteps < 1 || c.MaxSteps > 1000:
		return fmt.Errorf("steps %d: want 1 to 1000", c.MaxSteps)
	}
	return nil
}

// Verdict is a step's outcome.
type Verdict uint8

const (
	// Pass: every objective met at the rate asked.
	Pass Verdict = iota
	// Fail: an objective missed: the system did not serve the rate.
	Fail
	// ClientLimited: the client could not offer the rate (too few
	// threads within the cap, or its CPU): nothing is known of the
	// system at that rate.
	ClientLimited
	// NotJudged: one client's share of a fleet's step (a ladder), which
	// ycsb merge judges on the merged histograms.
	NotJudged
)

func (v Verdict) String() string {
	return [...]string{"PASS", "FAIL", "CLIENT-LIMITED", "NOT JUDGED"}[v]
}

// ParseVerdict is the Verdict named s (as String writes it).
func ParseVerdict(s string) (Verdict, bool) {
	for v := Pass; v <= NotJudged; v++ {
		if v.String() == s {
			return v, true
		}
	}
	return 0, false
}

// Step is one step's outcome, as a Stepper measured it.
type Step struct {
	Asked    float64 // the target rate, ops/s
	Achieved float64 // the measured rate, ops/s
	Threads  int
	Verdict  Verdict
	// Why says what failed or what limited the client.
	Why string
	// Detail is the Stepper's own record of the step (its objectives'
	// results, the client's figures), for the report.
	Detail any
}

// Stepper runs one step at rate with the threads it decides.
type Stepper interface {
	Step(ctx context.Context, rate float64) (Step, error)
}

// Answer is a search's outcome.
type Answer struct {
	Steps []Step
	// Rate is the highest rate that passed (0: none did); Above the
	// lowest that failed above it (0: none failed, the search reached
	// Max or was limited).
	Rate, Above float64
	// Limited says the step at Above was limited by the client, not the
	// system: the answer is the client's limit, a lower bound of the
	// system's.
	Limited bool
	// Exhausted says MaxSteps ended it before the resolution.
	Exhausted bool
	// Interrupted says ctx or a step's error ended it early, after
	// len(Steps) steps: the answer is the steps', not the search's.
	Interrupted bool
}

// Search runs steps at whole rates (ops/s, as targets are) until the
// bracket [Rate, Above] is within the resolution or holds no whole rate,
// Max passes, or MaxSteps are run.
// ctx ending or a step's error stops it with the steps so far, marked
// Interrupted, and the error.
func Search(ctx context.Context, c Config, st Stepper) (*Answer, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	a := &Answer{}
	rate := math.Round(c.Start)
	for len(a.Steps) < c.MaxSteps {
		s, err := st.Step(ctx, rate)
		if err != nil {
			a.Interrupted = true
			return a, err
		}
		a.Steps = append(a.Steps, s)
		if s.Asked > 0 {
			rate = s.Asked // as the Stepper could ask it (whole ops/s)
		}
		if ctx.Err() != nil {
			// A step that passed was measured in full; one that did not
			// may have been cut short, and brackets nothing.
			if s.Verdict == Pass {
				a.Rate = math.Max(a.Rate, rate)
			}
			a.Interrupted = true
			return a, ctx.Err()
		}
		switch s.Verdict {
		case Pass:
			a.Rate = math.Max(a.Rate, rate)
		case Fail, ClientLimited:
			// A rate the client could not offer brackets the search as a
			// failure does; the answer then says the client was the limit.
			if a.Above == 0 || rate < a.Above {
				a.Above = rate
				a.Limited = s.Verdict == ClientLimited
			}
		}
		next, done := nextRate(c, a)
		if done {
			return a, nil
		}
		rate = next
	}
	a.Exhausted = true
	return a, nil
}

// nextRate is the next step's rate, in whole ops/s (as a target is):
// growth until a step fails (or, when the first fails, shrinking until
// one passes), then bisection; done when the bracket is within the
// resolution, no whole rate is left inside it, or Max passed. Growth and
// shrinking move at least 1 ops/s, so that no rate is asked twice.
func nextRate(c Config, a *Answer) (float64, bool) {
	top := math.Floor(c.Max)
	switch {
	case a.Above == 0: // nothing failed yet
		if a.Rate >= top {
			return 0, true
		}
		return math.Min(math.Max(math.Round(a.Rate*c.Growth), a.Rate+1), top), false
	case a.Rate == 0: // nothing passed yet
		next := math.Min(math.Round(a.Above/c.Growth), a.Above-1)
		if next < math.Max(minRate, c.Start/MaxShrink) {
			return 0, true
		}
		return next, false
	}
	if (a.Above-a.Rate)/a.Rate <= c.Resolution {
		return 0, true
	}
	// The geometric mean: rates span orders of magnitude.
	next := math.Round(math.Sqrt(a.Rate * a.Above))
	if next <= a.Rate || next >= a.Above {
		return 0, true
	}
	return next, false
}

// minRate ends a search whose steps fail down to it; so does a rate
// MaxShrink times below the start: a system that cannot meet the
// objectives at a small share of the rate it was thought to serve has
// another problem than its rate, and the long steps of low rates would
// take hours to say so.
const (
	minRate   = 1.0
	MaxShrink = 64
)
