package run

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// closeTimeout bounds a session's close, which sends its buffered writes.
const closeTimeout = 5 * time.Second

// worker is one client thread.
type worker struct {
	id       int
	closeErr error // the session's Close, for the Result
	opCount  int64 // 0: until stopped
	session  *measured.Session
	wl       workload.Transactor
	done     atomic.Int64 // operations done, published as each ends
	_        [56]byte     // keep neighbours' counters off this cache line
	finished int64
	warmEnd  int64 // Now value the warm-up ends at; 0 without one (read-only)
	warmOps  int64 // operations done during the warm-up
	// Transactions that succeeded (see successful), in all and during the
	// warm-up.
	succeeded, warmSucceeded int64
	warming                  bool // still in the warm-up
	pace                     pacer

	// warmUnknown is the session's Unknown at the warm-up's end.
	warmUnknown int64
}

// run is one worker's loop; closing is the parent of its session's close
// (see stopper). With a target rate, operation k is due at
// start + k*tick (see pacer), and each operation's intended start time is
// its due time.
func (w *worker) run(ctx, closing context.Context, p *Plan) {
	defer func() {
		w.done.Store(w.finished)
		// Reported by Run after the join: workers must not share a writer.
		// The close sends what the session buffered, so it gets a context
		// of its own: a stop (Ctrl-C, the time limit) cancels ctx, and the
		// buffered writes, already counted as BATCHED_OK, must still go out
		// or be counted as lost. After a signal, only within StopGrace.
		cctx, cancel := context.WithTimeout(closing, closeTimeout)
		defer cancel()
		w.closeErr = w.close(cctx)
	}()
	if w.pace.tick >= int64(time.Millisecond) {
		// Spread workers over the first tick so they do not fire together.
		if !w.pace.sleepUntil(measurement.Now() + rand.Int64N(w.pace.tick)) {
			return
		}
	}
	w.pace.start = measurement.Now()
	// During the warm-up the worker reads the clock before each operation
	// and compares it with its read-only warmEnd; after it, nothing.
	w.warming = w.warmEnd > 0
	w.session.Recorder().SetWarmup(w.warming)
	loop := func() { w.loop(ctx, p) }
	for !w.session.Guard(ctx, loop) {
		// The binding panicked: that operation was counted as an ERROR and
		// the rest of its transaction abandoned. The transaction is done.
		if ctx.Err() != nil {
			break
		}
		w.finished++
		w.session.EndTransaction(true)
		w.session.Recorder().FailedOperation()
		w.done.Store(w.finished)
	}
	if w.warming {
		w.warmOps = w.finished
		w.warmSucceeded = w.succeeded
		w.warmUnknown = w.session.Unknown
		w.pace.lag = scheduleLag{}
	}
	w.session.SetIntended(0)
}

// loop runs transactions until the worker is done. It may be cut short by a
// binding's panic (see measured.Session.Guard) and called again: all it
// needs to go on is in w.
func (w *worker) loop(ctx context.Context, p *Plan) {
	trackIntended := p.Measurement.Interval != measurement.IntervalOp
	transactions := !p.Load
	tick, n, warming := w.pace.tick, w.finished, w.warming
	stop := p.Workload.StopFlag()
	for (w.opCount == 0 || n < w.opCount) && !stop.Load() {
		if warming && measurement.Now() >= w.warmEnd {
			warming = false
			w.warming = false
			w.session.Recorder().SetWarmup(false)
			w.warmOps = n
			w.warmSucceeded = w.succeeded
			w.warmUnknown = w.session.Unknown
			w.pace.lag.resetWindow()
		}
		if tick > 0 {
			due, ok := w.pace.wait(n)
			if !ok {
				return // stopped while it waited: nothing started
			}
			if trackIntended {
				w.session.SetIntended(due)
			}
		}
		// A transaction succeeded when none of its operations failed
		// (OK, BATCHED_OK or NOT_FOUND); a load's insert when the record
		// went in, after retries if need be.
		var ok bool
		failed, inserted := w.session.Failed, w.session.Inserted
		if transactions {
			ok = w.wl.DoTransaction(ctx)
		} else {
			ok = w.wl.DoInsert(ctx)
		}
		if ctx.Err() != nil && (transactions || w.session.Inserted == inserted) {
			// The last operation was interrupted and is not counted,
			// unless it wrote what the server may have applied (see
			// measured.Session): then it is a failed transaction of
			// unknown outcome.
			if w.session.EndTransaction(true) {
				w.finished = n + 1
				w.session.Recorder().FailedOperation()
			}
			return
		}
		// A load's insert that went in, or into its session's batch
		// (BATCHED_OK, whose fate Close decides), before the stop cut its
		// flush short is done: counted below, as the session counted it.
		if !ok {
			// A load's insert that failed for good stops its worker (the
			// reference's doInsert returning false). It was attempted and
			// failed: an operation like any other, so that Throughput,
			// the failed operations and the error rate count it as the
			// [INSERT] Return= rows do. A worker that stops without a
			// failure (the end of the work) did nothing to count.
			if !transactions && w.session.Failed > failed {
				w.finished = n + 1
				w.session.EndTransaction(true)
				w.session.Recorder().FailedOperation()
			}
			return
		}
		n++
		w.finished = n
		// Counted as the Result counts them, so that an interval's
		// failures (slo.abort's error rate) are the verdict's.
		if transactions && w.session.Failed == failed || !transactions && w.session.Inserted > inserted {
			w.succeeded++
			w.session.EndTransaction(false)
			w.session.Recorder().Operation()
		} else {
			w.session.EndTransaction(true)
			w.session.Recorder().FailedOperation()
		}
		// Published at each operation: a live output reads it, and at
		// many threads and a low rate a worker does few a second.
		w.done.Store(n)
	}
}

// close closes the worker's session.
func (w *worker) close(ctx context.Context) error { return w.session.Close(ctx) }
