package capacity

import (
	"slices"
	"testing"
)

func TestLadder(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want []float64
	}{
		{"to max", Config{Start: 3000, Growth: 1.5, Max: 16000, MaxSteps: 30}, []float64{3000, 4500, 6750, 10125, 15188}},
		{"max included", Config{Start: 1000, Growth: 2, Max: 4000, MaxSteps: 30}, []float64{1000, 2000, 4000}},
		{"steps", Config{Start: 1000, Growth: 2, Max: 1e9, MaxSteps: 2}, []float64{1000, 2000}},
		{"start only", Config{Start: 5, Growth: 10, Max: 5, MaxSteps: 30}, []float64{5}},
	} {
		if got := Ladder(c.cfg); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// step is a ladder's step at rate with verdict v.
func step(rate float64, v Verdict) Step { return Step{Asked: rate, Verdict: v} }

func TestLadderAnswer(t *testing.T) {
	for _, c := range []struct {
		name        string
		steps       []Step
		rate, above float64
		limited     bool
	}{
		{"system", []Step{step(1, Pass), step(2, Pass), step(4, Fail), step(8, Fail)}, 2, 4, false},
		{"client", []Step{step(1, Pass), step(2, ClientLimited), step(4, Fail)}, 1, 2, true},
		// The pass above the first failure is noise.
		{"pass above a failure", []Step{step(1, Pass), step(2, Fail), step(4, Pass)}, 1, 2, false},
		{"none", []Step{step(1, Fail), step(2, Fail)}, 0, 1, false},
		{"all", []Step{step(1, Pass), step(2, Pass)}, 2, 0, false},
	} {
		a := LadderAnswer(c.steps)
		if a.Rate != c.rate || a.Above != c.above || a.Limited != c.limited || len(a.Steps) != len(c.steps) {
			t.Errorf("%s: %+v, want rate %v above %v limited %v", c.name, a, c.rate, c.above, c.limited)
		}
	}
}

func TestParseVerdict(t *testing.T) {
	for v := Pass; v <= NotJudged; v++ {
		if got, ok := ParseVerdict(v.String()); !ok || got != v {
			t.Errorf("%v: %v %v", v, got, ok)
		}
	}
	if _, ok := ParseVerdict("pass"); ok {
		t.Error("pass parsed")
	}
}

// TestLadderLimit: what bounds a fleet's ladder, in the words of a
// search's Limit.
func TestLadderLimit(t *testing.T) {
	limited := step(2, ClientLimited)
	limited.Why = "2 of 3 clients could not offer their share"
	short := step(2, Fail)
	short.Untrusted = "too few operations"
	for _, c := range []struct {
		steps     []Step
		word, why string
	}{
		{[]Step{step(1, Pass), step(2, Fail)}, "system", "the system: the bracket is a step of the ladder (capacity.growth=2)"},
		{[]Step{step(1, Pass), limited}, "client", "the clients: 2 of 3 clients could not offer their share; the system's capacity is at least this"},
		{[]Step{step(1, Fail)}, "none", "no rate passed"},
		{[]Step{step(1, Pass), step(2, Pass)}, "max", "the ladder's highest step passed"},
		// A failure too short to trust is not the system's.
		{[]Step{step(1, Pass), short, step(4, Fail)}, "untrusted", "untrusted: the failing step that bounds it, step 2 at 2 ops/s, is not to be trusted (too few operations); neither the system nor the client is shown to be the limit"},
	} {
		if w, why := LadderAnswer(c.steps).LadderLimit("2"); w != c.word || why != c.why {
			t.Errorf("%+v: %q %q, want %q %q", c.steps, w, why, c.word, c.why)
		}
	}
}
