package capacity

import (
	"fmt"
	"math"
)

// Ladder is the fixed steps of a fleet's search, which cannot take
// feedback from one process: Start·Growth^k for k = 0, 1, … while the
// rate is at most Max and k < MaxSteps, each rounded to whole ops/s as a
// target is. Every client computes the same ladder from the same Config.
func Ladder(c Config) []float64 {
	var out []float64
	for k := 0; k < c.MaxSteps; k++ {
		r := math.Round(c.Start * math.Pow(c.Growth, float64(k)))
		if r > c.Max {
			break
		}
		out = append(out, r)
	}
	return out
}

// LadderAnswer is the answer of a ladder's judged steps, in the order run
// (rising rates): the highest step that passed below the first that did
// not, bracketed by that one. Steps above the first failure are run (the
// schedule is fixed) but do not move the answer: a pass above a failure
// is noise, not capacity. A ladder whose every step passed has Above 0.
func LadderAnswer(steps []Step) *Answer {
	a := &Answer{Steps: steps}
	for i, s := range steps {
		if s.Verdict != Pass {
			a.Above, a.atAbove = s.Asked, i+1
			a.Limited = s.Verdict == ClientLimited
			break
		}
		a.Rate, a.atRate = s.Asked, i+1
	}
	return a
}

// LadderLimit says what bounds a ladder's answer a (first, that its
// clients were interrupted), in the words of a search's Limit: a word for the JSON report and a sentence; growth is
// capacity.growth as the clients gave it.
func (a *Answer) LadderLimit(growth string) (word, why string) {
	switch {
	case a.Interrupted:
		return LimitInterrupted, a.interrupted("ops/s")
	case a.Limited:
		return "client", "the clients: " + a.limitingWhy() + "; the system's capacity is at least this"
	case a.Rate == 0:
		return "none", "no rate passed"
	case a.Above == 0:
		return "max", "the ladder's highest step passed"
	case a.aboveUntrusted():
		return LimitUntrusted, a.untrustedWhy("ops/s")
	}
	return "system", fmt.Sprintf("the system: the bracket is a step of the ladder (capacity.growth=%s)", growth)
}
