package cassandrastress

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/internal/backoff"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/measurement/lazyhdr"
)

// RunState is what a run's workload, the predefined commands' or user's,
// shares with the engine and the metrics: the stop flag the engine polls,
// the first operation that failed after its tries, and the contexts of
// the run's requests and waits.
type RunState struct {
	stop atomic.Bool
	// abort is the context of the run's requests: Ctrl-C ends it, and the
	// requests in flight are abandoned, neither done nor failed (the
	// engine would give them StopGrace, and a hung node the request
	// timeout)
	abort context.Context
	// stopped ends with the run (Stop or Ctrl-C): it cuts a worker's
	// backoff short
	stopped    context.Context
	endStopped context.CancelFunc
	// failure is the first operation that failed after its tries without
	// -errors ignore: as in the original, it ends the run with FAILURE.
	failure atomic.Pointer[string]
	// OnFail, if set, prints the failure as it happens, as the original's
	// Consumer prints its exception
	OnFail func(string)
	// OnRetry, if set, prints the error of each failed try, as the
	// original's Operation.timeWithRetry prints each exception it catches
	// at -log level=NORMAL (System.err.println)
	OnRetry func(error)
	// waits are the wait times for -log hdrfile= under a rate
	Waits WaitTimes
	// SpecSent and SpecWon are the second requests -mode
	// speculativeDelay= sent and the operations they answered
	SpecSent, SpecWon atomic.Int64
}

// cqlOf is the CQL capability of the binding's session s runs on: the
// stress workloads' plans run on db/cassandra's Conn sessions
// (stressRun.plan), and one on any other is a programming error.
func cqlOf(s *measured.Session) cassandra.CQL {
	c, ok := s.Unwrap().(cassandra.CQL)
	if !ok {
		panic(fmt.Sprintf("stress: the worker's session (%T) has no CQL (db/cassandra.CQL)", s.Unwrap()))
	}
	return c
}

// specCounts adds an operation's second requests sent and won.
func (st *RunState) specCounts(sent, won int64) {
	if sent > 0 {
		st.SpecSent.Add(sent)
		st.SpecWon.Add(won)
	}
}

func (st *RunState) StopFlag() *atomic.Bool { return &st.stop }

// Resume clears Stop, for another run of the same workload.
func (st *RunState) Resume() { st.stop.Store(false) }

func (st *RunState) Stop() {
	st.stop.Store(true)
	if st.endStopped != nil {
		st.endStopped()
	}
}

// Begin sets the run's contexts from ctx, which Ctrl-C ends, before the
// workers start; End releases them.
func (st *RunState) Begin(ctx context.Context) {
	st.abort = ctx
	st.stopped, st.endStopped = context.WithCancel(ctx)
}

func (st *RunState) End() { st.endStopped() }

// interrupted reports whether the operation that ended with err was
// abandoned on Ctrl-C: the worker then ends, the operation not counted.
func (st *RunState) interrupted(err error) bool { return err != nil && st.abort.Err() != nil }

// retryWait waits before the next try of an operation that failed with
// err: the original's delay-policy= for an overloaded coordinator (as its
// Operation.timeWithRetry sleeps), else the backoff while no node can
// take it. False: the run stopped meanwhile, and the operation is
// abandoned, as on Ctrl-C (a stop must not turn it into the run's
// failure).
func (st *RunState) retryWait(b *backoff.Backoff, errs *settings.ErrorSettings, try int, r *rand.Rand, err error) bool {
	switch {
	case isOverloaded(err):
		within.Sleep(st.stopped, errs.NextDelay(try, r.Float64()))
	case backoff.NoCQLNode(err):
		b.Wait(st.stopped)
	}
	return st.stopped.Err() == nil
}

// settle ends an operation that ended with err: an answer from a node
// resets the worker's backoff; a failure for want of one waits it out,
// so that against a dead node each thread fails a few operations a
// second instead of spinning (-errors ignore goes on after them).
func (st *RunState) settle(b *backoff.Backoff, err error) {
	if err != nil && backoff.NoCQLNode(err) {
		b.Wait(st.stopped)
		return
	}
	b.Reset()
}

// tried is what the tries of one operation came to.
type tried struct {
	err        error
	tries      int   // as the failure line counts them
	retries    int64 // the tries after the first
	start, end int64 // from the first try to the end of the last
}

// try runs the tries of one operation, as the original's
// Operation.timeWithRetry: attempt, under the run's abort context, up to
// n times, timed from the first to the end of the last, waiting between
// tries as retryWait does; final says whether an error ends the tries at
// once. False: the run stopped before the next try, or Ctrl-C abandoned
// the operation, which is then not counted, and the worker ends.
func (st *RunState) try(b *backoff.Backoff, errs *settings.ErrorSettings, n int, r *rand.Rand, attempt func(context.Context) error, final func(error) bool) (tried, bool) {
	ctx := st.abort
	t := tried{start: measurement.Now()}
	for ; t.tries < n; t.tries++ {
		t.err = attempt(ctx)
		if t.err == nil || ctx.Err() != nil || final(t.err) {
			break
		}
		if st.OnRetry != nil {
			st.OnRetry(t.err)
		}
		if t.tries+1 < n {
			if !st.retryWait(b, errs, t.tries, r, t.err) {
				return t, false
			}
			t.retries++
		}
	}
	t.end = measurement.Now()
	return t, !st.interrupted(t.err)
}

// finish records in s the operation op that t came to, with status
// unless it failed: a success with its wait time, a failure with its
// cause. A failure without -errors ignore then ends the run with the
// line failLine gives. False: the worker ends.
func (st *RunState) finish(s *measured.Session, waits *workerWaits, b *backoff.Backoff, errs *settings.ErrorSettings, op measurement.Op, status db.Status, t tried, cause error, failLine func() string) bool {
	if t.err == nil {
		waits.record(s, int(op), t.start)
		cause = nil
	}
	s.Finish(op, status, t.start, t.end, t.retries, cause)
	if t.err != nil && !errs.Ignore {
		st.fail(failLine())
		return false
	}
	st.settle(b, t.err)
	return true
}

// fail records the run's first failed operation and stops the run, as the
// original's Consumer does with the IOException of Operation.error: it
// stops the work of every thread and cancels the metrics.
func (st *RunState) fail(msg string) {
	if st.failure.CompareAndSwap(nil, &msg) {
		if st.OnFail != nil {
			st.OnFail(msg)
		}
		st.Stop()
	}
}

// Failed is the first failed operation's message, or "".
func (st *RunState) Failed() string {
	if p := st.failure.Load(); p != nil {
		return *p
	}
	return ""
}

// waitMaxUs is the wait times' highest value: one hour in µs, as the
// metrics' histograms' (report/stressreport's HistMaxUs).
const waitMaxUs = 3_600_000_000

// WaitTimes are a run's wait times (intended start to start), for -log
// hdrfile= under a rate: the engine records service and response times
// only. Each worker keeps its own histograms, by operation (the metrics'
// rows); the metrics harvest them each interval.
type WaitTimes struct {
	n       int // histograms per worker; 0: not tracked
	mu      sync.Mutex
	workers []*workerWaits
}

// workerWaits are one worker's wait times; its mutex is shared with the
// harvest only, once per interval.
type workerWaits struct {
	mu    sync.Mutex
	hists []*lazyhdr.Histogram
}

// Track has the workers made from here on record the wait times of n
// indexes.
func (u *WaitTimes) Track(n int) { u.n = n }

// newWorker is a new worker's histograms for the indexes it records, nil
// when wait times are not tracked.
func (u *WaitTimes) newWorker(indexes []int) *workerWaits {
	if u.n == 0 {
		return nil
	}
	ww := &workerWaits{hists: make([]*lazyhdr.Histogram, u.n)}
	for _, i := range indexes {
		ww.hists[i] = lazyhdr.New(1, waitMaxUs, 3)
	}
	u.mu.Lock()
	u.workers = append(u.workers, ww)
	u.mu.Unlock()
	return ww
}

// record files the wait of the operation of index i that started at start
// (a Now value), when the engine gave it an intended start.
func (ww *workerWaits) record(s *measured.Session, i int, start int64) {
	if ww == nil || ww.hists[i] == nil {
		return
	}
	in := s.Intended()
	if in == 0 {
		return
	}
	ww.mu.Lock()
	ww.hists[i].RecordValue(max(0, start-in) / 1000)
	ww.mu.Unlock()
}

// Harvest adds every worker's wait times since the last call to into, by
// index (nil: not wanted), and clears them.
func (u *WaitTimes) Harvest(into []*hdrhistogram.Histogram) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, ww := range u.workers {
		ww.mu.Lock()
		for i, h := range ww.hists {
			if h != nil && into[i] != nil && h.TotalCount() > 0 {
				h.MergeInto(into[i])
				h.Reset()
			}
		}
		ww.mu.Unlock()
	}
}
