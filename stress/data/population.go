package data

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"

	"github.com/goycsb/ycsb/stress/settings"
)

// Population is -pop: where the population indexes (the original's seeds)
// of operations come from (settings/SettingsPopulation.java and
// generate/SeedManager.java). Either a sequence seq=lo..hi, handed out in
// order across all workers and wrapping unless no-wrap, or a distribution
// dist=DIST sampled per operation. Safe for concurrent use.
type Population struct {
	lo, hi int64
	wrap   bool
	next   *atomic.Int64
	dist   *Dist
}

// DefaultPopulationLimit is N of the defaults when the run has no n=
// (duration= or err< runs).
const DefaultPopulationLimit = 1000000

// DefaultPopulation is the population of a predefined command without -pop:
// seq=1..N for write and counter_write, dist=gaussian(1..N) for everything
// else (read, counter_read, mixed), where N is n= or, without it, 1M.
func DefaultPopulation(write bool, n int64) *Population {
	if n <= 0 {
		n = DefaultPopulationLimit
	}
	if write {
		return SeqPopulation(1, n, true)
	}
	return DistPopulation(MustParseDist("gaussian(1.." + strconv.FormatInt(n, 10) + ")"))
}

// SeqPopulation is -pop seq=lo..hi, with no-wrap as !wrap.
func SeqPopulation(lo, hi int64, wrap bool) *Population {
	return &Population{lo: lo, hi: hi, wrap: wrap, next: new(atomic.Int64)}
}

// ParseSeqPopulation parses the lo..hi of -pop seq= as the original does
// (counts with k, m, b suffixes).
func ParseSeqPopulation(spec string, wrap bool) (*Population, error) {
	lo, hi, err := settings.ParseRange(spec)
	if err != nil {
		return nil, fmt.Errorf("invalid -pop seq=%s: %v", spec, err)
	}
	if lo > hi {
		return nil, fmt.Errorf("invalid -pop seq=%s: start after end", spec)
	}
	return SeqPopulation(lo, hi, wrap), nil
}

// DistPopulation is -pop dist=d.
func DistPopulation(d *Dist) *Population { return &Population{dist: d} }

// Dist is the distribution of a dist= population, nil for a sequence.
func (p *Population) Dist() *Dist { return p.dist }

// Range is the sequence of a seq= population; ok is false for dist=.
func (p *Population) Range() (lo, hi int64, wrap, ok bool) {
	return p.lo, p.hi, p.wrap, p.dist == nil
}

// Next returns the population index of the next operation; ok is false once
// a no-wrap sequence is used up, which ends the original's run. Reads and
// writes draw from the same sequence, as in the original.
func (p *Population) Next(r *rand.Rand) (idx int64, ok bool) {
	if p.dist != nil {
		return p.dist.Next(r), true
	}
	n := p.next.Add(1) - 1
	total := p.hi - p.lo + 1
	if !p.wrap && n >= total {
		return 0, false
	}
	return p.lo + n%total, true
}

// CounterDeltas appends one increment per counter column, each a fresh draw
// of add= (default fixed(1)), as the original binds them.
func CounterDeltas(dst []int64, columns int, add *Dist, r *rand.Rand) []int64 {
	for range columns {
		dst = append(dst, add.Next(r))
	}
	return dst
}
