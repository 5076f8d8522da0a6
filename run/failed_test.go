package run

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// patternSession answers its calls in turn from a fixed cycle of results.
type patternSession struct {
	results []error
	n       int
}

func (p *patternSession) next() error {
	err := p.results[p.n%len(p.results)]
	p.n++
	return err
}

func (p *patternSession) Read(context.Context, string, string, []string, *db.Record) error {
	return p.next()
}
func (p *patternSession) Scan(context.Context, string, string, int, []string, *db.Rows) error {
	return p.next()
}
func (p *patternSession) Update(context.Context, string, string, []db.Field) error { return p.next() }
func (p *patternSession) Insert(context.Context, string, string, []db.Field) error { return p.next() }
func (p *patternSession) Delete(context.Context, string, string) error             { return p.next() }
func (p *patternSession) Close(context.Context) error                              { return nil }

// rmwWorkload's transactions are the reference's read-modify-write: a
// read, then an update; its inserts one insert.
type rmwWorkload struct{ stop atomic.Bool }

func (w *rmwWorkload) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &rmwWorker{s: s}
}
func (w *rmwWorkload) Stop()                  { w.stop.Store(true) }
func (w *rmwWorkload) StopFlag() *atomic.Bool { return &w.stop }
func (w *rmwWorkload) Resume()                { w.stop.Store(false) }

type rmwWorker struct{ s *measured.Session }

func (w *rmwWorker) DoTransaction(ctx context.Context) bool {
	start := measurement.Now()
	var rec db.Record
	_ = w.s.Read(ctx, "t", "k", nil, &rec)
	_ = w.s.Update(ctx, "t", "k", nil)
	w.s.MeasureTransaction(measurement.ReadModifyWrite, start, measurement.Now())
	return true
}

func (w *rmwWorker) DoInsert(ctx context.Context) bool {
	_ = w.s.Insert(ctx, "t", "k", nil)
	return true
}

// failedSum adds up the intervals' operations and failed operations.
type failedSum struct{ ops, failed int64 }

func (f *failedSum) AddInterval(_, _ int64, iv *measurement.Snapshot) {
	f.ops += iv.Operations
	f.failed += iv.Failed
}

// TestRunIntervalsFailed: the intervals' failed operations are the
// result's (Ops - Succeeded): a NOT_FOUND is no failure, a transaction
// with two failed calls is one failure, an insert that did not go in is
// one.
func TestRunIntervalsFailed(t *testing.T) {
	fail := errors.New("boom") // db.StatusOf: ERROR
	for _, tc := range []struct {
		name    string
		load    bool
		results []error // per session, in call order
		failed  int64   // of the 12 operations
	}{
		// Per transaction, a read then an update: not found and OK; both
		// failed; OK and OK; OK and failed.
		{"transactions", false, []error{db.ErrNotFound, nil, fail, fail, nil, nil, nil, fail}, 6},
		{"inserts", true, []error{nil, fail, db.ErrBatched, db.ErrNotFound}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const threads, ops = 2, 12
			sessions := make([]db.Session, threads)
			for i := range sessions {
				sessions[i] = &patternSession{results: tc.results}
			}
			sum := &failedSum{}
			res := Run(context.Background(), &Plan{Threads: threads, OpCount: ops, Load: tc.load, Workload: &rmwWorkload{}, Sessions: sessions,
				Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, Outputs: []Output{sum}})
			if res.Ops != ops || res.Ops-res.Succeeded != tc.failed {
				t.Errorf("result: %d operations, %d succeeded, want %d and %d", res.Ops, res.Succeeded, ops, ops-tc.failed)
			}
			if sum.ops != res.Ops || sum.failed != res.Ops-res.Succeeded {
				t.Errorf("intervals: %d operations, %d failed; the result's %d and %d", sum.ops, sum.failed, res.Ops, res.Ops-res.Succeeded)
			}
			if res.Total.Operations != res.Ops || res.Total.Failed != res.Ops-res.Succeeded {
				t.Errorf("total: %d operations, %d failed; the result's %d and %d", res.Total.Operations, res.Total.Failed, res.Ops, res.Ops-res.Succeeded)
			}
		})
	}
}

// stopOnFailure's inserts stop the worker when they fail, as the
// CoreWorkload's do without core_workload_insertion_keep_going_on_error.
type stopOnFailure struct{ rmwWorkload }

func (w *stopOnFailure) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &stopOnFailureWorker{rmwWorker{s: s}}
}

type stopOnFailureWorker struct{ rmwWorker }

func (w *stopOnFailureWorker) DoInsert(ctx context.Context) bool {
	return w.s.Insert(ctx, "t", "k", nil) == nil
}

// TestRunLoadStopsOnFailure: an insert that fails and stops its worker is
// an operation, and a failed one, like any other: the result, the
// intervals and the total count it, so that the reference's throughput
// includes it and the error rate sees it.
func TestRunLoadStopsOnFailure(t *testing.T) {
	fail := errors.New("boom")
	for _, tc := range []struct {
		name           string
		results        []error // per session, in call order
		ops, succeeded int64
	}{
		// Two workers of 6 inserts each: the third fails and stops each.
		{"third fails", []error{nil, nil, fail}, 6, 4},
		{"all fail", []error{fail}, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const threads, ops = 2, 12
			sessions := make([]db.Session, threads)
			for i := range sessions {
				sessions[i] = &patternSession{results: tc.results}
			}
			sum := &failedSum{}
			res := Run(context.Background(), &Plan{Threads: threads, OpCount: ops, Load: true, Workload: &stopOnFailure{}, Sessions: sessions,
				Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}, Outputs: []Output{sum}})
			if res.Ops != tc.ops || res.Succeeded != tc.succeeded {
				t.Errorf("result: %d operations, %d succeeded, want %d and %d", res.Ops, res.Succeeded, tc.ops, tc.succeeded)
			}
			if sum.ops != res.Ops || sum.failed != res.Ops-res.Succeeded {
				t.Errorf("intervals: %d operations, %d failed; the result's %d and %d", sum.ops, sum.failed, res.Ops, res.Ops-res.Succeeded)
			}
			if res.Total.Operations != res.Ops || res.Total.Failed != res.Ops-res.Succeeded {
				t.Errorf("total: %d operations, %d failed; the result's %d and %d", res.Total.Operations, res.Total.Failed, res.Ops, res.Ops-res.Succeeded)
			}
		})
	}
}
