package run

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/internal/clock"
	"github.com/goycsb/ycsb/measurement"
)

// pacer holds one worker to its share of the target: operation n is due at
// start + n*tick. A worker that is behind runs back to back until it has
// caught up, as in the reference; how far behind it started each operation
// is its schedule lag.
//
// Each paced start is recorded in the worker's Recorder as one of two
// things: how late the worker woke when it had time to wait (the client's
// own timing error), or how far behind its due time it started when it
// had none (the lag a slow database causes).
type pacer struct {
	tick  int64        // ns between the worker's operations; 0 is unthrottled
	timer *clock.Timer // sleeps; an Interrupt is the run's stop
	spin  bool         // spin.sleep: busy-wait instead of sleeping
	start int64        // Now value the schedule starts from
	lag   scheduleLag
	rec   *measurement.Recorder
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

// wait waits until operation n is due, records how late the worker woke
// or how far behind it started, and returns its due time: the operation's
// intended start. ok is false when the run was stopped during the wait.
func (p *pacer) wait(n int64) (due int64, ok bool) {
	due = p.start + n*p.tick
	now := measurement.Now()
	if due <= now {
		p.lag.add(now - due)
		p.rec.StartedBehind(now - due)
		return due, true
	}
	if !p.sleepUntil(due) {
		return due, false
	}
	p.lag.last = 0
	p.rec.Woke(measurement.Now() - due)
	return due, true
}

// sleepUntil sleeps until the Now value due; false when the run was
// stopped first.
func (p *pacer) sleepUntil(due int64) bool {
	if !p.spin {
		return p.timer.SleepUntil(due)
	}
	for measurement.Now() < due {
		if p.timer.Interrupted() {
			return false
		}
	}
	return true
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
//
// Wake and Behind split the paced starts in two (µs; nil when none): Wake
// is how late the workers woke for the operations they had time to wait
// for, the client's own timing error, which intended latency holds but no
// database caused; Behind is how far behind its due time each operation
// started that the worker had no time to wait for.
type Schedule struct {
	Target       int64 // ops/sec
	MeanLagUs    float64
	MaxLagUs     int64
	FinalLagUs   int64
	Wake, Behind *hdrhistogram.Histogram
}

// newSchedule sums the workers' lags over ops measured operations; total
// holds the paced starts' histograms.
func newSchedule(target, ops int64, workers []*worker, total *measurement.Snapshot) *Schedule {
	var sum, maxLag, final int64
	for _, w := range workers {
		sum += w.pace.lag.sum
		maxLag = max(maxLag, w.pace.lag.max)
		final = max(final, w.pace.lag.last)
	}
	s := &Schedule{Target: target, MaxLagUs: maxLag / 1000, FinalLagUs: final / 1000, Wake: total.Wake, Behind: total.Behind}
	if ops > 0 {
		s.MeanLagUs = float64(sum) / float64(ops) / 1000
	}
	return s
}
