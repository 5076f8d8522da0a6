package capacity

import "math"

// Offered is the most threads can offer at a mean latency of meanUs, each
// waiting for its answer before the next operation (Little's law); +Inf
// without a latency.
func Offered(threads int, meanUs float64) float64 {
	if meanUs <= 0 {
		return math.Inf(1)
	}
	return float64(threads) / (meanUs / 1e6)
}

// Headroom is how many times over the threads Little's law asks for a
// step are given, so that a moment's slowness does not leave the schedule
// behind.
const Headroom = 2

// ThreadsFor is the threads a step at rate needs at a mean latency of
// meanUs, Headroom times over, never fewer than cur nor more than maxThreads.
func ThreadsFor(rate, meanUs float64, cur, maxThreads int) int {
	if meanUs <= 0 {
		return min(cur, maxThreads)
	}
	need := int(math.Ceil(rate*meanUs/1e6*Headroom)) + 1
	return min(maxThreads, max(cur, need))
}
