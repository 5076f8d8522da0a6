package runner

import (
	"time"

	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/export"
	"github.com/goycsb/ycsb/measurement/jsonreport"
)

// pacer holds one worker to its share of -target: operation n is due at
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

// schedule makes coordinated omission visible: how far behind the -target
// schedule the measured operations started. Intended latency includes this
// lag.
type schedule struct {
	target     int64 // ops/sec
	meanLagUs  float64
	maxLagUs   int64
	finalLagUs int64
}

// newSchedule sums the workers' lags over ops measured operations.
func newSchedule(target, ops int64, workers []*worker) *schedule {
	var sum, maxLag, final int64
	for _, w := range workers {
		sum += w.pace.lag.sum
		maxLag = max(maxLag, w.pace.lag.max)
		final = max(final, w.pace.lag.last)
	}
	s := &schedule{target: target, maxLagUs: maxLag / 1000, finalLagUs: final / 1000}
	if ops > 0 {
		s.meanLagUs = float64(sum) / float64(ops) / 1000
	}
	return s
}

// rows are the text report's SCHEDULE section.
func (s *schedule) rows() []export.Row {
	return []export.Row{
		{Metric: "SCHEDULE", Name: "Target(ops/sec)", Value: export.Int(s.target)},
		{Metric: "SCHEDULE", Name: "MeanLag(us)", Value: export.Float(s.meanLagUs)},
		{Metric: "SCHEDULE", Name: "MaxLag(us)", Value: export.Int(s.maxLagUs)},
		{Metric: "SCHEDULE", Name: "FinalLag(us)", Value: export.Int(s.finalLagUs)},
	}
}

// report is the JSON report's schedule; nil without a target.
func (s *schedule) report() *jsonreport.Schedule {
	if s == nil {
		return nil
	}
	return &jsonreport.Schedule{TargetOpsSec: s.target, MeanLagUs: s.meanLagUs, MaxLagUs: s.maxLagUs, FinalLagUs: s.finalLagUs}
}
