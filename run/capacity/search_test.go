package capacity

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// limit is a system that serves up to cap ops/s, and a client that can
// offer up to client ops/s (0: any).
type limit struct{ cap, client float64 }

func (l limit) Step(_ context.Context, ask Ask) (Step, error) {
	rate := ask.Rate
	s := Step{Asked: rate, Achieved: math.Min(rate, l.cap), Verdict: Pass}
	switch {
	case l.client > 0 && rate > l.client:
		s.Verdict, s.Achieved = ClientLimited, l.client
	case rate > l.cap:
		s.Verdict = Fail
	}
	return s, nil
}

func TestSearch(t *testing.T) {
	base := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	for _, c := range []struct {
		name        string
		cfg         Config
		sys         limit
		rate, above float64
		limited     bool
		steps       int
	}{
		// 500..4000 pass, 8000 fails, then the bracket halves
		// geometrically, in whole ops/s: 5657, 4757, 4362, 4177 fail; 4177 is within 5% of
		// 4000. Each failure is confirmed: 4 passes and 5 failures
		// twice.
		{"known answer", base, limit{cap: 4000}, 4000, 4177, false, 14},
		// 4000 fails (twice); bisection up from 2000: 2828, 3364, 3668, 3830 pass.
		{"just under", base, limit{cap: 3999}, 3830, 4000, false, 9},
		// 10000 and 5000 fail, 2500 passes; then 3536 fails, 2973
		// passes, 3242 and 3105 fail: 2 passes, 5 failures twice.
		{"first step fails", Config{Start: 10000, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}, limit{cap: 3000}, 2973, 3105, false, 12},
		{"max passes", Config{Start: 500, Max: 3000, Growth: 2, Resolution: 0.05, MaxSteps: 50}, limit{cap: 1e9}, 3000, 0, false, 4},
		// The client cannot offer above 3000: 4000 is client-limited, and
		// the bisection lands just under 3000, limited by the client.
		{"client limited", base, limit{cap: 1e9, client: 3000}, 2953, 3084, true, 11},
		{"nothing passes", Config{Start: 8, Max: 100, Growth: 2, Resolution: 0.05, MaxSteps: 50}, limit{cap: 0.5}, 0, 1, false, 8},
		// Shrinking stops MaxShrink (64) times below the start: 6400 down
		// to 100, each twice.
		{"shrink floor", Config{Start: 6400, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}, limit{cap: 10}, 0, 100, false, 14},
	} {
		a, err := Search(context.Background(), c.cfg, c.sys)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if a.Rate != c.rate || a.Above != c.above || a.Limited != c.limited || len(a.Steps) != c.steps {
			t.Errorf("%s: rate %v above %v limited %v after %d steps, want %v %v %v %d", c.name, a.Rate, a.Above, a.Limited, len(a.Steps), c.rate, c.above, c.limited, c.steps)
			for _, s := range a.Steps {
				t.Logf("  %.1f %s", s.Asked, s.Verdict)
			}
		}
		if a.Above > 0 && a.Rate > 0 && (a.Above-a.Rate)/a.Rate > c.cfg.Resolution {
			t.Errorf("%s: bracket wider than the resolution", c.name)
		}
	}
}

func TestConfigCheck(t *testing.T) {
	for _, c := range []Config{
		{Start: 0, Max: 10, Growth: 2, Resolution: 0.05, MaxSteps: 5},
		{Start: 10, Max: 5, Growth: 2, Resolution: 0.05, MaxSteps: 5},
		{Start: 10, Max: 50, Growth: 1, Resolution: 0.05, MaxSteps: 5},
		{Start: 10, Max: 50, Growth: 2, Resolution: 0, MaxSteps: 5},
		{Start: 10, Max: 50, Growth: 2, Resolution: 0.05, MaxSteps: 0},
		{Start: math.NaN(), Max: 50, Growth: 2, Resolution: 0.05, MaxSteps: 5},
		// 0.4 rounds to a target of 0, unthrottled.
		{Start: 0.4, Max: 50, Growth: 2, Resolution: 0.05, MaxSteps: 5},
		// 1500.5 rounds to 1501, above max: no whole rate to ask.
		{Start: 1500.5, Max: 1500.5, Growth: 2, Resolution: 0.05, MaxSteps: 5},
	} {
		if c.Check() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	for _, c := range []Config{
		{Start: 1, Max: 1, Growth: 2, Resolution: 0.05, MaxSteps: 5},
		{Start: 1500.4, Max: 1500.4, Growth: 2, Resolution: 0.05, MaxSteps: 5},
	} {
		if err := c.Check(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestThreadsFor(t *testing.T) {
	for _, c := range []struct {
		rate, meanUs   float64
		cur, max, want int
	}{
		{16000, 250, 4, 128, 9}, // 16000 × 0.25 ms × 2 = 8, +1
		{1000, 250, 4, 128, 4},  // never fewer than now
		{1e6, 1000, 4, 128, 128},
		{1000, 0, 4, 2, 2},
	} {
		if got := ThreadsFor(c.rate, c.meanUs, c.cur, c.max); got != c.want {
			t.Errorf("%+v: %d", c, got)
		}
	}
	if o := Offered(4, 1120); math.Abs(o-3571.4) > 0.1 {
		t.Errorf("Offered %v", o)
	}
}

// TestAnswerLimit: what ended a search, in the front end's names.
func TestAnswerLimit(t *testing.T) {
	c := Config{Start: 500, Max: 4000, Growth: 2, Resolution: 0.05, MaxSteps: 9}
	n := Names{Resolution: "capacity.resolution", Steps: "capacity.steps", Max: "capacity.max", Unit: "ops/s"}
	client := &Answer{Rate: 2000, Above: 4000, Limited: true, atAbove: 1, Steps: []Step{{Asked: 4000, Verdict: ClientLimited, Why: "4 threads"}}}
	for _, x := range []struct {
		a          *Answer
		word, want string
	}{
		{&Answer{Rate: 3900, Above: 4000}, "system", "the system: the bracket is within capacity.resolution"},
		{client, "client", "the client: 4 threads; the system's capacity is at least this"},
		{&Answer{Rate: 1000, Above: 4000, Exhausted: true}, "steps", "capacity.steps (9) ran out before the resolution"},
		{&Answer{Above: 500}, "none", "no rate passed"},
		{&Answer{Rate: 4000}, "max", "capacity.max (4000 ops/s) passed"},
	} {
		if w, why := x.a.Limit(c, n); w != x.word || why != x.want {
			t.Errorf("%+v: %q %q, want %q %q", x.a, w, why, x.word, x.want)
		}
	}
	if got := OfferNote(4, 1120, "op/s"); got != "4 threads at 1.12 ms offer at most 3571 op/s" {
		t.Errorf("OfferNote %q", got)
	}
}

// stopAt is limit whose step n (1-based) ends the search: by cancelling
// ctx during the step, or by failing with err.
type stopAt struct {
	limit
	n      int
	err    error
	cancel context.CancelFunc
	pass   bool // the step during which ctx ends passes
	run    int
}

func (s *stopAt) Step(ctx context.Context, ask Ask) (Step, error) {
	rate := ask.Rate
	s.run++
	if s.run == s.n {
		if s.err != nil {
			return Step{}, s.err
		}
		s.cancel()
		if s.pass {
			return Step{Asked: rate, Verdict: Pass}, nil
		}
		return Step{Asked: rate, Verdict: Fail, Why: "interrupted"}, nil
	}
	return s.limit.Step(ctx, ask)
}

// TestSearchInterrupted: a search that ctx or a step's error ends says so,
// and its Limit says how far it got, not that max passed or the bracket
// closed.
func TestSearchInterrupted(t *testing.T) {
	c := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	n := Names{Resolution: "capacity.resolution", Steps: "capacity.steps", Max: "capacity.max", Unit: "ops/s"}
	boom := errors.New("boom")
	for _, x := range []struct {
		name  string
		n     int
		err   error
		pass  bool
		steps int
		why   string
	}{
		{"ctx", 3, nil, false, 3, "interrupted after 3 steps; the system served at least 1000.0 ops/s"},
		// A step that passed before ctx ended counts.
		{"ctx after a pass", 3, nil, true, 3, "interrupted after 3 steps; the system served at least 2000.0 ops/s"},
		{"ctx first", 1, nil, false, 1, "interrupted after 1 step; no rate passed"},
		{"step error", 4, boom, false, 3, "interrupted after 3 steps; the system served at least 2000.0 ops/s"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		st := &stopAt{limit: limit{cap: 4000}, n: x.n, err: x.err, pass: x.pass, cancel: cancel}
		a, err := Search(ctx, c, st)
		cancel()
		if err == nil || a == nil || !a.Interrupted || len(a.Steps) != x.steps || a.Exhausted {
			t.Fatalf("%s: %v, %+v", x.name, err, a)
		}
		if w, why := a.Limit(c, n); w != "interrupted" || why != x.why {
			t.Errorf("%s: %q %q, want interrupted %q", x.name, w, why, x.why)
		}
	}
}

// rounding is limit asking whole ops/s, as the YCSB front end's and the stress
// mode's Steppers do.
type rounding struct{ limit }

func (r rounding) Step(ctx context.Context, ask Ask) (Step, error) {
	ask.Rate = math.Round(ask.Rate)
	return r.limit.Step(ctx, ask)
}

// TestSearchWholeRates: a search asks whole ops/s and never the same rate
// twice but to confirm a step: the bisection ends when the next whole rate is one of the
// bracket's ends, and growth too small to reach the next whole rate still
// moves up.
func TestSearchWholeRates(t *testing.T) {
	for _, c := range []struct {
		name        string
		cfg         Config
		sys         Stepper
		rate, above float64
	}{
		// 1000 … 32 fail, 16 passes; 23 and 19 fail, 17 passes, 18 fails:
		// 18 is 5.9% above 17, but no whole rate lies between.
		{"cap 17", Config{Start: 1000, Max: 1e7, Growth: 2, Resolution: 0.05, MaxSteps: 30}, rounding{limit{cap: 17}}, 17, 18},
		{"cap 17, exact stepper", Config{Start: 1000, Max: 1e7, Growth: 2, Resolution: 0.05, MaxSteps: 30}, limit{cap: 17}, 17, 18},
		// 100, 200, 300 pass, then max: the review's 19 steps at 300.
		{"max 300", Config{Start: 100, Max: 300, Growth: 2, Resolution: 0.001, MaxSteps: 30}, rounding{limit{cap: 1e9}}, 300, 0},
		// 300 fails, 299 passes: no whole rate between.
		{"cap 299", Config{Start: 100, Max: 1000, Growth: 2, Resolution: 0.001, MaxSteps: 30}, rounding{limit{cap: 299}}, 299, 300},
		// Start·(Growth−1) = 0.2: 1, 2, 3, 4, 5, each one more.
		{"slow growth", Config{Start: 1, Max: 5, Growth: 1.2, Resolution: 0.05, MaxSteps: 30}, rounding{limit{cap: 1e9}}, 5, 0},
		// A fractional max: the highest whole rate below it.
		{"fractional max", Config{Start: 1000, Max: 1500.5, Growth: 2, Resolution: 0.05, MaxSteps: 30}, rounding{limit{cap: 1e9}}, 1500, 0},
	} {
		a, err := Search(context.Background(), c.cfg, c.sys)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		seen := map[float64]bool{}
		for i, s := range a.Steps {
			again := s.Confirms > 0 && a.Steps[s.Confirms-1].Asked == s.Asked && s.Confirms == i
			if seen[s.Asked] != again || s.Asked != math.Round(s.Asked) {
				t.Errorf("%s: %v asked again or not whole", c.name, s.Asked)
			}
			seen[s.Asked] = true
		}
		if a.Exhausted || a.Rate != c.rate || a.Above != c.above {
			t.Errorf("%s: rate %v above %v exhausted %v after %d steps, want %v %v", c.name, a.Rate, a.Above, a.Exhausted, len(a.Steps), c.rate, c.above)
			for _, s := range a.Steps {
				t.Logf("  %v %s", s.Asked, s.Verdict)
			}
		}
	}
}

// scheduleLoser passes every step, but above keeps only a third of its
// rate (issue 48: steps whose sessions waited for a pooled connection).
type scheduleLoser struct{ above float64 }

func (l scheduleLoser) Step(_ context.Context, ask Ask) (Step, error) {
	s := Step{Asked: ask.Rate, Achieved: ask.Rate, Verdict: Pass}
	if ask.Rate > l.above {
		s.Achieved = ask.Rate / 3
	}
	return s, nil
}

// hopeless fails every step with the client's own timing above the
// objective.
type hopeless struct{ n *int }

func (h hopeless) Step(_ context.Context, ask Ask) (Step, error) {
	*h.n++
	return Step{Asked: ask.Rate, Achieved: ask.Rate, Verdict: Fail, Why: "READ.p99<=5ms failed", Hopeless: "wake-up lateness p99 7.6 ms"}, nil
}

// TestSearchKeepsSchedule: a step that achieved less than its rate by
// more than the shortfall passes nothing, and the answer is never above
// the highest rate a passing step achieved (beyond the shortfall).
func TestSearchKeepsSchedule(t *testing.T) {
	cfg := Config{Start: 1000, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	a, err := Search(context.Background(), cfg, scheduleLoser{above: 5000})
	if err != nil {
		t.Fatal(err)
	}
	best := 0.0
	for _, s := range a.Steps {
		if s.Verdict == Pass {
			best = math.Max(best, s.Achieved)
		}
		if s.Verdict == Pass && Short(s.Asked, s.Achieved, cfg.Shortfall()) {
			t.Errorf("step at %v achieved %v and passed", s.Asked, s.Achieved)
		}
	}
	if a.Rate > 5000 || a.Rate*(1-cfg.Shortfall()) > best || !a.Limited {
		t.Errorf("answer %v (limited %v), the passing steps achieved at most %v", a.Rate, a.Limited, best)
	}
	if cfg.Shortfall() != 0.05 || (&Config{Resolution: 0.5}).Shortfall() != MaxShortfall {
		t.Errorf("shortfall %v: want the resolution, at most %v", cfg.Shortfall(), MaxShortfall)
	}
}

// TestSearchHopeless: a first step that fails, confirmed, with the
// client's own timing above the objective, ends the search: no lower rate
// would judge the system.
func TestSearchHopeless(t *testing.T) {
	n := 0
	a, err := Search(context.Background(), Config{Start: 1000, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 30}, hopeless{&n})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || a.Rate != 0 || a.Hopeless == "" {
		t.Fatalf("%d steps, rate %v, hopeless %q: want the step and its confirmation only", n, a.Rate, a.Hopeless)
	}
	word, why := a.Limit(Config{}, Names{Unit: "ops/s"})
	if word != "client" || !strings.Contains(why, "the client cannot hold the objectives on this machine: wake-up lateness p99 7.6 ms; step 2 at 1000 ops/s measured 1000.0 ops/s") {
		t.Errorf("limit %q: %q", word, why)
	}
}

// TestAnswerMax: the answer is the highest rate a passing step served, at
// most what it achieved and what it was asked; never a failing step's, nor
// a ladder's pass above its first failure.
func TestAnswerMax(t *testing.T) {
	st := func(asked, achieved float64, v Verdict) Step {
		return Step{Asked: asked, Achieved: achieved, Verdict: v}
	}
	for _, c := range []struct {
		name   string
		a      *Answer
		max    float64
		step   int
		served string // Limit's sentence of an interrupted search
	}{
		{"achieved below asked", &Answer{Steps: []Step{st(1000, 999, Pass), st(2000, 1850, Pass), st(4000, 2100, Fail)}, Rate: 2000, atRate: 2, Above: 4000, atAbove: 3},
			1850, 2, ""},
		{"achieved above asked", &Answer{Steps: []Step{st(1000, 1003, Pass), st(2000, 2004.5, Pass)}, Rate: 2000, atRate: 2}, 2000, 2, ""},
		// A lower passing step that achieved more than the highest one's.
		{"a lower step served more", &Answer{Steps: []Step{st(1000, 1000, Pass), st(2000, 1990, Fail), st(2000, 1995, Fail), st(1414, 1414, Pass), st(1682, 1300, Pass)},
			Rate: 1682, atRate: 5, Above: 2000, atAbove: 3}, 1414, 4, ""},
		{"a step not measured serves its rate", &Answer{Steps: []Step{st(1000, 0, Pass)}, Rate: 1000, atRate: 1}, 1000, 1, ""},
		{"none passed", &Answer{Steps: []Step{st(1000, 400, Fail), st(1000, 380, Fail)}, Above: 1000, atAbove: 2}, 0, 0, ""},
		{"interrupted", &Answer{Steps: []Step{st(1000, 990, Pass), st(2000, 1900, Pass)}, Rate: 2000, atRate: 2, Interrupted: true}, 1900, 2,
			"interrupted after 2 steps; the system served at least 1900.0 ops/s"},
		{"a ladder's pass above its failure", LadderAnswer([]Step{st(1000, 980, Pass), st(2000, 1500, Fail), st(4000, 3990, Pass)}), 980, 1, ""},
	} {
		max, n := c.a.Max()
		if max != c.max || n != c.step {
			t.Errorf("%s: max %v at step %d, want %v at %d", c.name, max, n, c.max, c.step)
		}
		if c.served != "" {
			if _, why := c.a.Limit(Config{}, Names{Unit: "ops/s"}); why != c.served {
				t.Errorf("%s: %q, want %q", c.name, why, c.served)
			}
		}
	}
}
