// Package capacity searches for the highest rate a system serves within
// its service level objectives: open-loop steps at rising target rates,
// geometric growth until a step fails, then bisection between the best
// step that passed and the lowest that failed, to a resolution. A step
// that does not pass is run again, after the same idle cool-down as every
// step, before it decides anything. It knows no database and no engine: a
// Stepper runs each step.
package capacity

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measurement"
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
	// MaxSteps bounds the number of steps, confirmations included.
	MaxSteps int
	// Cooldown is the idle time before every step but the first: what the
	// last step left queued (requests, flushes, compactions, the client's
	// garbage) drains before the next step's warm-up, so that no step
	// measures its predecessor's backlog. 0 runs the steps back to back.
	Cooldown time.Duration
}

// MaxCooldown bounds Config.Cooldown.
const MaxCooldown = time.Hour

// MaxShortfall bounds Config.Shortfall.
const MaxShortfall = 0.10

// Shortfall is how far below its asked rate, as a share of it, a step's
// achieved rate may fall and the step still pass: the search's resolution,
// at most MaxShortfall. A step that falls further did not keep its
// schedule: what it measured is not the rate asked.
func (c *Config) Shortfall() float64 { return math.Min(c.Resolution, MaxShortfall) }

// Served is the rate the step shows the system serves, when it passed
// (measurement.Served).
func (s *Step) Served() float64 { return measurement.Served(s.Asked, s.Achieved) }

// Short says a step that achieved achieved ops/s of asked fell short of
// it by more than the share tol.
func Short(asked, achieved, tol float64) bool { return achieved < asked*(1-tol) }

// ShortNote says a step fell short of its rate: achieved of asked, in
// unit.
func ShortNote(asked, achieved float64, unit string) string {
	return fmt.Sprintf("%.1f of the %.0f %s asked achieved: the step did not keep its schedule", achieved, asked, unit)
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
	case c.Cooldown < 0 || c.Cooldown > MaxCooldown:
		return fmt.Errorf("cool-down %v: want 0 to %v", c.Cooldown, MaxCooldown)
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
	// Untrusted says why the step's figures cannot be trusted (its
	// objectives' percentiles needed more operations than it could run);
	// "" when they can.
	Untrusted string
	// Unjudged says that an objective could not be judged at all on the
	// step's operations (slo's NO DATA): a lower rate runs fewer in the
	// same time, so the search cannot go on below it.
	Unjudged bool
	// Confirms is, for a step run again to confirm a step that did not
	// pass, that step's number (1-based, in Answer.Steps); 0 otherwise.
	Confirms int
	// Hopeless, on a step that did not pass, says why no lower rate can
	// pass either on this machine: the client's own timing alone reaches
	// an objective's limit. "" otherwise.
	Hopeless string
	// Detail is the Stepper's own record of the step (its objectives'
	// results, the client's figures), for the report.
	Detail any
}

// Ask is what a Stepper is asked to run: a rate, and for a confirmation
// the number of the step it confirms (Step.Confirms).
type Ask struct {
	Rate     float64
	Confirms int
	// N is the step's number, 1-based, as the answer's steps number it:
	// a Stepper's lines name it so.
	N int
	// Shortfall is the share of the rate the step may fall short of and
	// pass (Config.Shortfall).
	Shortfall float64
}

// Stepper runs one step at the rate asked with the threads it decides.
type Stepper interface {
	Step(ctx context.Context, ask Ask) (Step, error)
}

// Answer is a search's outcome.
type Answer struct {
	Steps []Step
	// Rate is the highest rate asked that passed (0: none did); Above the
	// lowest that failed above it (0: none failed, the search reached
	// Max or was limited). They bracket the search; the answer is Max.
	Rate, Above float64
	// Limited says the step at Above was limited by the client, not the
	// system: the answer is the client's limit, a lower bound of the
	// system's.
	Limited bool
	// decided are the steps whose verdicts set Rate and Above: the last
	// run at each (a confirmation, when there was one).
	atRate, atAbove int // 1-based in Steps; 0 none
	// Exhausted says MaxSteps ended it before the resolution.
	Exhausted bool
	// Unjudged says it ended at a step whose objectives could not be
	// judged on the operations it ran (Step.Unjudged): Above is that
	// step's rate, and what lies below it is unknown.
	Unjudged bool
	// Interrupted says ctx or a step's error ended it early, after
	// len(Steps) steps: the answer is the steps', not the search's.
	Interrupted bool
	// Hopeless says it ended, with nothing passed, at a confirmed step
	// whose objectives the client's own timing alone could not meet
	// (Step.Hopeless): a lower rate would not judge the system either.
	Hopeless string
}

// Max is the answer: the highest rate a passing step served (Served: what
// it achieved, at most its rate), never above what a passing step
// achieved; and that step's number (1-based in Steps). 0, 0 when none
// passed. A ladder's passes above its first failure (above Rate) count
// for nothing.
func (a *Answer) Max() (rate float64, step int) {
	if a.Rate == 0 {
		return 0, 0
	}
	for i := range a.Steps {
		s := &a.Steps[i]
		if s.Verdict == Pass && s.Asked <= a.Rate && s.Served() >= rate {
			rate, step = s.Served(), i+1
		}
	}
	return rate, step
}

// Search runs steps at whole rates (ops/s, as targets are) until the
// bracket [Rate, Above] is within the resolution or holds no whole rate,
// Max passes, or MaxSteps are run. Every step but the first waits
// Cooldown first. A step that does not pass is confirmed: run again at
// the same rate, and the confirmation's verdict is the rate's (a failure
// or a client's limit then brackets the search; a pass counts as a pass
// and the search goes on). A failure with no step left to confirm it
// brackets nothing: the search ends Exhausted.
// ctx ending or a step's error stops it with the steps so far, marked
// Interrupted, and the error.
func Search(ctx context.Context, c Config, st Stepper) (*Answer, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	a := &Answer{}
	rate := math.Round(c.Start)
	for len(a.Steps) < c.MaxSteps {
		s, err := a.run(ctx, c, st, Ask{Rate: rate})
		if err != nil {
			return a, err
		}
		if s.Asked > 0 {
			rate = s.Asked // as the Stepper could ask it (whole ops/s)
		}
		if s.Verdict != Pass && !s.Unjudged {
			// An unjudged step is not run again: the same rate runs as
			// few operations.
			if len(a.Steps) == c.MaxSteps {
				break
			}
			if s, err = a.run(ctx, c, st, Ask{Rate: rate, Confirms: len(a.Steps)}); err != nil {
				return a, err
			}
		}
		switch s.Verdict {
		case Pass:
			if rate >= a.Rate {
				a.Rate, a.atRate = rate, len(a.Steps)
			}
		case Fail, ClientLimited:
			// A rate the client could not offer brackets the search as a
			// failure does; the answer then says the client was the limit.
			if a.Above == 0 || rate < a.Above {
				a.Above, a.atAbove = rate, len(a.Steps)
				a.Limited = s.Verdict == ClientLimited
			}
			if s.Unjudged {
				a.Unjudged = true
				return a, nil
			}
			if s.Hopeless != "" && a.Rate == 0 {
				a.Hopeless = s.Hopeless
				return a, nil
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

// run idles the cool-down (but before the first step), runs the step
// asked and keeps it. An error, or ctx ending, marks a Interrupted; a
// step that passed before ctx ended was measured in full and counts, one
// that did not may have been cut short and brackets nothing.
func (a *Answer) run(ctx context.Context, c Config, st Stepper, ask Ask) (Step, error) {
	if len(a.Steps) > 0 && !idle(ctx, c.Cooldown) {
		a.Interrupted = true
		return Step{}, ctx.Err()
	}
	ask.N, ask.Shortfall = len(a.Steps)+1, c.Shortfall()
	s, err := st.Step(ctx, ask)
	if err != nil {
		a.Interrupted = true
		return Step{}, err
	}
	if s.Verdict == Pass && s.Achieved > 0 && Short(s.Asked, s.Achieved, ask.Shortfall) {
		// A Stepper's own judgement says this already (report's); no
		// step that missed its rate passes, whatever ran it.
		s.Verdict, s.Why = ClientLimited, ShortNote(s.Asked, s.Achieved, "ops/s")
	}
	s.Confirms = ask.Confirms
	a.Steps = append(a.Steps, s)
	if ctx.Err() != nil {
		if s.Verdict == Pass {
			rate := ask.Rate
			if s.Asked > 0 {
				rate = s.Asked
			}
			if rate >= a.Rate {
				a.Rate, a.atRate = rate, len(a.Steps)
			}
		}
		a.Interrupted = true
		return s, ctx.Err()
	}
	return s, nil
}

// idle is the cool-down's wait; false when ctx ended during it. A
// variable for the tests, which count the waits instead.
var idle = within.Sleep

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
