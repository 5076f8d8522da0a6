package engine

import (
	"time"

	"github.com/goycsb/ycsb/measurement"
)

// pacer holds one worker to its share of the target: operation n is due at
// start + n*tick. A worker that is behind runs back to back until it has
// caught up, as in the reference; how far behind it started each operation
// is its schedule lag.
type pacer struct {
	tick  int64 // ns between the worker's operations; 0 is unthrottled
	spin  bool  // spin.sleep: busy-wait instead of sleeping
	start int64 // Now value the schedule starts from
	lag   scheduleLag
}

// tickFor is the time between one worker's operations for a target rate
// over all threads; 0 without a target. Per worker, from the requested
// thread count, as the reference does.
func tickFor(target int64, threads int) int64 {
	if target <= 0 {
		return 0
	}
	return int64(float64(time.Second) * float64(threads) / float64(target))
}

// wait waits until operation n is due, notes the lag when it is late, and
// returns its due time: the operation's intended start.
func (p *pacer) wait(n int64) int64 {
	due := p.start + n*p.tick
	if now := measurement.Now(); due > now {
		sleepUntil(due, p.spin)
		p.lag.last = 0
	} else {
		p.lag.add(now - due)
	}
	return due
}

func sleepUntil(due int64, spin bool) {
	for {
		d := due - measurement.Now()
		if d <= 0 {
			return
		}
		if spin {
			continue
		}
		time.Sleep(time.Duration(d))
	}
}

// scheduleLag is one worker's lag behind its schedule (ns).
type scheduleLag struct {
	sum, max, last int64
}

func (l *scheduleLag) add(lag int64) {
	l.sum += lag
	l.last = lag
	if lag > l.max {
		l.max = lag
	}
}

// Schedule makes coordinated omission visible: how far behind the target
// schedule the measured operations started. Intended latency includes this
// lag.
type Schedule struct {
	Target     int64 // ops/sec
	MeanLagUs  float64
	MaxLagUs   int64
	FinalLagUs int64
}

// newSchedule sums the workers' lags over ops measured operations.
func newSchedule(target, ops int64, workers []*worker) *Schedule {
	var sum, maxLag, final int64
	for _, w := range workers {
		sum += w.pace.lag.sum
		maxLag = max(maxLag, w.pace.lag.max)
		final = max(final, w.pace.lag.last)
	}
	s := &Schedule{Target: target, MaxLagUs: maxLag / 1000, FinalLagUs: final / 1000}
	if ops > 0 {
		s.MeanLagUs = float64(sum) / float64(ops) / 1000
	}
	return s
}
