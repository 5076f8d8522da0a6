package generator

import (
	"fmt"
	"math/rand/v2"
)

// Hotspot sends a fraction of draws to a hot subset at the low end of
// [lb, ub]: YCSB's HotspotIntegerGenerator. Shareable (read-only).
type Hotspot struct {
	lb        int64
	hot, cold int64 // sizes of the hot and cold sets
	hotOpn    float64
}

// NewHotspot returns a generator over [lb, ub] whose first
// int(interval*hotsetFraction) values receive hotOpnFraction of the draws.
// Where YCSB resets bad fractions or swaps bounds with a message, this
// returns an error; it also rejects an empty set that would be drawn from,
// which YCSB turns into a division by zero.
func NewHotspot(lb, ub int64, hotsetFraction, hotOpnFraction float64) (*Hotspot, error) {
	if !(hotsetFraction >= 0 && hotsetFraction <= 1) {
		return nil, fmt.Errorf("generator: hotspot data fraction %v not in [0, 1]", hotsetFraction)
	}
	if !(hotOpnFraction >= 0 && hotOpnFraction <= 1) {
		return nil, fmt.Errorf("generator: hotspot operation fraction %v not in [0, 1]", hotOpnFraction)
	}
	if lb > ub {
		return nil, fmt.Errorf("generator: hotspot lower bound %d above upper bound %d", lb, ub)
	}
	interval := ub - lb + 1
	if interval <= 0 {
		return nil, fmt.Errorf("generator: hotspot range [%d, %d] too large", lb, ub)
	}
	// YCSB truncates through a Java int; int64 avoids its 2^31 cap.
	hot := int64(float64(interval) * hotsetFraction)
	h := &Hotspot{lb: lb, hot: hot, cold: interval - hot, hotOpn: hotOpnFraction}
	if h.hot == 0 && hotOpnFraction > 0 {
		return nil, fmt.Errorf("generator: hotspot set is empty (%d items * fraction %v) but receives %v of operations", interval, hotsetFraction, hotOpnFraction)
	}
	if h.cold == 0 && hotOpnFraction < 1 {
		return nil, fmt.Errorf("generator: hotspot cold set is empty (fraction %v) but receives %v of operations", hotsetFraction, 1-hotOpnFraction)
	}
	return h, nil
}

// Next returns a hot value with probability hotOpnFraction, else a cold
// one, uniform within each set (unbiased, unlike YCSB's abs(nextLong())%n).
func (h *Hotspot) Next(r *rand.Rand) int64 {
	if r.Float64() < h.hotOpn {
		return h.lb + r.Int64N(h.hot)
	}
	return h.lb + h.hot + r.Int64N(h.cold)
}
