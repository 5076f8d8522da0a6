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
	last  int64        // Now value the last operation started at; 0: none yet
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
		var since int64
		if p.last > 0 {
			since = now - p.last
		}
		p.lag.add(now-due, since, p.tick)
		p.rec.StartedBehind(now - due)
		p.last = now
		return due, true
	}
	if !p.sleepUntil(due) {
		return due, false
	}
	p.lag.onTime()
	p.last = measurement.Now()
	p.rec.Woke(p.last - due)
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

// scheduleLag is one worker's lag behind its schedule (ns), and the part
// of it the client caused.
//
// A worker falls behind its schedule for two reasons: its operations took
// longer than its tick (the database's latency), or it started late for
// reasons of its own (it woke late, or waited for a CPU between
// operations), and then ran back to back to catch up. Only the first is
// the database's: db is the part of the current lag its operations caused,
// which grows by what an operation took beyond the tick and never exceeds
// the lag; the rest of each late start (client) is the client's, so that a
// worker that woke 100 ms late and then ran a hundred fast operations back
// to back is 100 ms of the client's lag, not the database's.
type scheduleLag struct {
	sum, max, last int64
	client         int64 // of sum, the client's part
	db             int64 // of the current lag, the database's part
}

// add records a start lag ns behind its due time, since ns after the
// worker's previous start (0: it had none), at tick ns per operation.
func (l *scheduleLag) add(lag, since, tick int64) {
	l.sum += lag
	l.last = lag
	if lag > l.max {
		l.max = lag
	}
	var db int64
	if since > 0 {
		db = min(max(l.db+since-tick, 0), lag)
	}
	l.db = db
	l.client += lag - db
}

// onTime records a start the worker waited for: it is no longer behind.
func (l *scheduleLag) onTime() { l.last, l.db = 0, 0 }

// resetWindow starts the measured window's sums (after a warm-up); the
// current lag and its parts go on.
func (l *scheduleLag) resetWindow() { l.sum, l.max, l.client = 0, 0, 0 }

// Schedule makes coordinated omission visible: how far behind the target
// schedule the measured operations started. Intended latency includes this
// lag.
//
// Wake and Behind split the paced starts in two (µs; nil when none): Wake
// is how late the workers woke for the operations they had time to wait
// for, the client's own timing error, which intended latency holds but no
// database caused; Behind is how far behind its due time each operation
// started that the worker had no time to wait for.
//
// ClientLagUs is the part of MeanLagUs the client caused (scheduleLag): a
// worker that woke late, or waited for a CPU between operations, and ran
// back to back to catch up. FinalLagUs is how far behind its schedule the
// furthest worker was when the run stopped: from its first operation not
// done, so that a worker held up in one operation for the whole window,
// which records nothing, shows.
type Schedule struct {
	Target       int64 // ops/sec
	MeanLagUs    float64
	ClientLagUs  float64
	MaxLagUs     int64
	FinalLagUs   int64
	Wake, Behind *hdrhistogram.Histogram
}

// newSchedule sums the workers' lags over ops measured operations; total
// holds the paced starts' histograms; stopNs is the Now value the run
// stopped at (or ended, when nothing stopped it).
func newSchedule(target, ops int64, workers []*worker, total *measurement.Snapshot, stopNs int64) *Schedule {
	var sum, client, maxLag, final int64
	for _, w := range workers {
		sum += w.pace.lag.sum
		client += w.pace.lag.client
		maxLag = max(maxLag, w.pace.lag.max)
		final = max(final, w.pace.lag.last, w.behindAt(stopNs))
	}
	s := &Schedule{Target: target, MaxLagUs: maxLag / 1000, FinalLagUs: final / 1000, Wake: total.Wake, Behind: total.Behind}
	if ops > 0 {
		s.MeanLagUs = float64(sum) / float64(ops) / 1000
		s.ClientLagUs = float64(client) / float64(ops) / 1000
	}
	return s
}

// behindAt is how far behind its schedule the paced worker w was at the
// Now value at: since its first operation not done was due. 0 when it did
// all its work, never started, or was not behind: an operation in flight
// since its due time counts, so a worker held up in one (a binding's wait
// for a pooled connection) is as far behind as it is.
func (w *worker) behindAt(at int64) int64 {
	if w.pace.tick <= 0 || w.pace.start == 0 || w.opCount > 0 && w.finished >= w.opCount {
		return 0
	}
	return max(at-(w.pace.start+w.finished*w.pace.tick), 0)
}
