package capacity

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// flukes is limit whose first run at each rate of first has that verdict
// (and why), whatever the limit says; every later run follows the limit.
type flukes struct {
	limit
	first     map[float64]Verdict
	untrusted map[float64]string // every run at the rate
	runs      map[float64]int
	asks      []Ask
}

func (f *flukes) Step(ctx context.Context, ask Ask) (Step, error) {
	if f.runs == nil {
		f.runs = map[float64]int{}
	}
	f.asks = append(f.asks, ask)
	f.runs[ask.Rate]++
	s, _ := f.limit.Step(ctx, ask)
	if v, ok := f.first[ask.Rate]; ok && f.runs[ask.Rate] == 1 {
		s.Verdict, s.Why = v, "fluke"
	}
	s.Untrusted = f.untrusted[ask.Rate]
	return s, nil
}

// TestSearchConfirms: a step that did not pass is run again at once, and
// the confirmation's verdict is the rate's; both runs are kept.
func TestSearchConfirms(t *testing.T) {
	base := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	n := Names{Resolution: "capacity.resolution", Steps: "capacity.steps", Max: "capacity.max", Unit: "ops/s"}
	for _, c := range []struct {
		name        string
		cfg         Config
		sys         *flukes
		rate, above float64
		limit       string
		exhausted   bool
		steps       int
	}{
		// Without confirmation the fluke at 2000 would have answered
		// 1000-ish: its confirmation passes, and the search goes on to
		// the answer of TestSearch's "known answer", one run longer.
		{"a passing confirmation counts as a pass", base, &flukes{limit: limit{cap: 4000}, first: map[float64]Verdict{2000: Fail}}, 4000, 4177, "system", false, 15},
		// A client-limited run confirmed by a pass: the search goes on.
		{"a client's fluke", base, &flukes{limit: limit{cap: 4000}, first: map[float64]Verdict{1000: ClientLimited}}, 4000, 4177, "system", false, 15},
		// The failure at 8000 is confirmed as the client's: the client,
		// not the system, bounds the search from there.
		{"the confirmation is the client's", base, &flukes{limit: limit{cap: 4000, client: 7000}, first: map[float64]Verdict{8000: Fail}}, 4000, 4177, "system", false, 14},
		// 4000 fails twice, the first as the system's, the confirmation
		// as the client's: the client limited the search.
		{"fail then client", base, &flukes{limit: limit{cap: 1e9, client: 3999}, first: map[float64]Verdict{4000: Fail}}, 3830, 4000, "client", false, 9},
		// The fifth run fails and no run is left to confirm it: the
		// unconfirmed failure brackets nothing.
		{"no run left to confirm", Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 5}, &flukes{limit: limit{cap: 4000}}, 4000, 0, "steps", true, 5},
	} {
		a, err := Search(context.Background(), c.cfg, c.sys)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w, _ := a.Limit(c.cfg, n)
		if a.Rate != c.rate || a.Above != c.above || w != c.limit || a.Exhausted != c.exhausted || len(a.Steps) != c.steps {
			t.Errorf("%s: rate %v above %v limit %s exhausted %v after %d steps, want %v %v %s %v %d", c.name, a.Rate, a.Above, w, a.Exhausted, len(a.Steps), c.rate, c.above, c.limit, c.exhausted, c.steps)
		}
		// Every run that did not pass but the last is followed by its
		// confirmation, at its rate, naming it.
		for i, s := range a.Steps {
			if s.Confirms != c.sys.asks[i].Confirms {
				t.Errorf("%s: step %d confirms %d, asked %d", c.name, i+1, s.Confirms, c.sys.asks[i].Confirms)
			}
			if s.Verdict == Pass || s.Confirms > 0 || i == len(a.Steps)-1 {
				continue
			}
			if next := a.Steps[i+1]; next.Confirms != i+1 || next.Asked != s.Asked {
				t.Errorf("%s: step %d (%v %s) is not confirmed: step %d is %+v", c.name, i+1, s.Asked, s.Verdict, i+2, next)
			}
		}
	}
}

// noisy is a system that serves up to cap ops/s, whose steps below it
// still fail with probability p (a busy neighbour, a compaction), drawn
// from a fixed seed.
type noisy struct {
	cap, p float64
	rng    *rand.Rand
}

func (s *noisy) Step(_ context.Context, ask Ask) (Step, error) {
	st := Step{Asked: ask.Rate, Verdict: Pass}
	if ask.Rate > s.cap || s.rng.Float64() < s.p {
		st.Verdict = Fail
	}
	return st, nil
}

// TestSearchConfirmsNoise: against a system whose steps fail at random
// one time in five below its capacity, confirmation keeps the answer
// near the capacity: a failure decides only when its confirmation fails
// too (1 in 25). Known answers of seeds 1 to 200.
func TestSearchConfirmsNoise(t *testing.T) {
	cfg := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	const searches = 200
	near := 0
	for seed := uint64(1); seed <= searches; seed++ {
		a, err := Search(context.Background(), cfg, &noisy{cap: 4000, p: 0.2, rng: rand.New(rand.NewPCG(seed, 0))})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.Rate-4000)/4000 <= 0.15 {
			near++
		}
	}
	// A search runs 4 rates at or below the capacity (500 to 4000), the
	// bisection's above it; each ends it low with probability 0.2² =
	// 0.04, so about 0.96⁴ ≈ 85% end near it (with a single run, 0.8⁴ ≈
	// 41% would).
	if near != 175 {
		t.Errorf("%d of %d searches within 15%% of the capacity, want 175", near, searches)
	}
}

// TestSearchCooldown: every step but the first idles the cool-down
// first, confirmations included; ctx ending during it interrupts the
// search.
func TestSearchCooldown(t *testing.T) {
	var waits []time.Duration
	stop := 0 // the wait (1-based) during which ctx ends; 0 never
	cancel := func() {}
	idle = func(ctx context.Context, d time.Duration) bool {
		waits = append(waits, d)
		if len(waits) == stop {
			cancel()
			return false
		}
		return true
	}
	defer func() { idle = realIdle }()
	cfg := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50, Cooldown: 3 * time.Second}
	a, err := Search(context.Background(), cfg, limit{cap: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if len(waits) != len(a.Steps)-1 {
		t.Errorf("%d waits for %d steps", len(waits), len(a.Steps))
	}
	for _, d := range waits {
		if d != 3*time.Second {
			t.Errorf("waited %v", d)
		}
	}
	waits, stop = nil, 3
	ctx, cancelCtx := context.WithCancel(context.Background())
	defer cancelCtx()
	cancel = cancelCtx
	a, err = Search(ctx, cfg, limit{cap: 4000})
	if err == nil || !a.Interrupted || len(a.Steps) != 3 || a.Rate != 2000 {
		t.Errorf("ended during the cool-down: %v, %+v", err, a)
	}
}

var realIdle = idle

func TestConfigCheckCooldown(t *testing.T) {
	for d, ok := range map[time.Duration]bool{0: true, time.Second: true, time.Hour: true, -1: false, time.Hour + 1: false} {
		c := Config{Start: 10, Max: 50, Growth: 2, Resolution: 0.05, MaxSteps: 5, Cooldown: d}
		if err := c.Check(); (err == nil) != ok {
			t.Errorf("cool-down %v: %v", d, err)
		}
	}
}

// TestAnswerUntrusted: an answer whose deciding steps could not trust
// their figures says so, and a failure that could not is never the
// system's.
func TestAnswerUntrusted(t *testing.T) {
	cfg := Config{Start: 500, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	n := Names{Resolution: "capacity.resolution", Steps: "capacity.steps", Max: "capacity.max", Unit: "ops/s"}
	const few = "too few operations"
	for _, c := range []struct {
		name       string
		untrusted  map[float64]string
		word, why  string
		untrustedW string
	}{
		{"trusted", nil, "system", "the system: the bracket is within capacity.resolution", ""},
		// Only the decided steps count: 500 is not one of them.
		{"an early step", map[float64]string{500: few}, "system", "the system: the bracket is within capacity.resolution", ""},
		{"the pass", map[float64]string{4000: few}, "system", "the system: the bracket is within capacity.resolution",
			"step 4 (4000 ops/s, PASS): too few operations"},
		{"the failure", map[float64]string{4177: few}, "untrusted",
			"untrusted: the failing step that bounds it, step 14 at 4177 ops/s, is not to be trusted (too few operations); neither the system nor the client is shown to be the limit",
			"step 14 (4177 ops/s, FAIL): too few operations"},
	} {
		a, err := Search(context.Background(), cfg, &flukes{limit: limit{cap: 4000}, untrusted: c.untrusted})
		if err != nil {
			t.Fatal(err)
		}
		w, why := a.Limit(cfg, n)
		if w != c.word || why != c.why || a.Untrusted("ops/s") != c.untrustedW {
			t.Errorf("%s: %q %q %q, want %q %q %q", c.name, w, why, a.Untrusted("ops/s"), c.word, c.why, c.untrustedW)
		}
		if strings.HasPrefix(why, "the system") && a.Untrusted("ops/s") != "" && strings.Contains(a.Untrusted("ops/s"), "FAIL") {
			t.Errorf("%s: the system blamed on an untrusted failure", c.name)
		}
	}
}

// unjudgedAt fails the steps at its rates as unjudged (too few
// operations to judge an objective), and follows limit elsewhere.
type unjudgedAt struct {
	limit
	rates map[float64]bool
	asks  []Ask
}

func (u *unjudgedAt) Step(ctx context.Context, ask Ask) (Step, error) {
	u.asks = append(u.asks, ask)
	s, _ := u.limit.Step(ctx, ask)
	if u.rates[ask.Rate] {
		s.Verdict, s.Why, s.Unjudged = Fail, "no data for READ.p99", true
	}
	return s, nil
}

// TestSearchUnjudged: a step that could not be judged ends the search at
// once, unconfirmed, bracketing it; the answer's limit says why.
func TestSearchUnjudged(t *testing.T) {
	cfg := Config{Start: 1000, Max: 1e6, Growth: 2, Resolution: 0.05, MaxSteps: 50}
	for _, tc := range []struct {
		name        string
		sys         unjudgedAt
		asks        []float64
		rate, above float64
	}{
		// The first step is unjudged: nothing below it is tried.
		{"first step", unjudgedAt{limit: limit{cap: 1e5}, rates: map[float64]bool{1000: true}}, []float64{1000}, 0, 1000},
		// 1000 and 2000 pass, 4000 fails and is confirmed; the
		// bisection's 2828 (the geometric mean) cannot be judged.
		{"in the bisection", unjudgedAt{limit: limit{cap: 2200}, rates: map[float64]bool{2828: true}}, []float64{1000, 2000, 4000, 4000, 2828}, 2000, 2828},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := tc.sys
			a, err := Search(context.Background(), cfg, &sys)
			if err != nil {
				t.Fatal(err)
			}
			var asked []float64
			for _, ask := range sys.asks {
				asked = append(asked, ask.Rate)
			}
			if !slices.Equal(asked, tc.asks) || a.Rate != tc.rate || a.Above != tc.above || !a.Unjudged {
				t.Fatalf("asked %v, answer %g below %g (unjudged %v); want %v, %g below %g, unjudged", asked, a.Rate, a.Above, a.Unjudged, tc.asks, tc.rate, tc.above)
			}
			word, why := a.Limit(cfg, Names{Unit: "ops/s", StepTime: "capacity.maxsteptime"})
			if word != LimitUnjudged || !strings.Contains(why, "could not be judged (no data for READ.p99)") || !strings.Contains(why, "capacity.maxsteptime") {
				t.Errorf("limit %q, %q", word, why)
			}
		})
	}
}
