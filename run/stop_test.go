package run

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measured"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/workload"
)

// frozenBatcher buffers its inserts (BATCHED_OK); its fourth starts a flush
// to a server that never answers, which the stop cuts short with the rows
// still buffered, and so does the flush of Close.
type frozenBatcher struct {
	patternSession
	buffered, calls int
	frozen          chan struct{} // closed when the flush hangs
}

func (b *frozenBatcher) Insert(ctx context.Context, _, _ string, _ []db.Field) error {
	b.calls++
	b.buffered++
	if b.calls == 4 {
		close(b.frozen)
		<-ctx.Done()
	}
	return db.ErrBatched
}

func (b *frozenBatcher) Close(ctx context.Context) error {
	<-ctx.Done()
	return &db.LostBatchError{Acked: b.buffered, Err: db.WithStatus(db.ServiceUnavailable, ctx.Err())}
}

type okInserts struct{ rmwWorkload }

func (w *okInserts) NewTransactor(s *measured.Session, seed uint64) workload.Transactor {
	return &okInsertsWorker{rmwWorker{s: s}}
}

type okInsertsWorker struct{ rmwWorker }

func (w *okInsertsWorker) DoInsert(ctx context.Context) bool {
	return db.StatusOf(w.s.Insert(ctx, "t", "k", nil)).IsOK()
}

// TestInterruptedFlush: Ctrl-C while a batch's flush hangs ends the load
// within StopGrace, Close's flush included, and the insert whose flush it
// cut short is counted as the session counted it: buffered, then lost with
// the batch Close could not send.
func TestInterruptedFlush(t *testing.T) {
	b := &frozenBatcher{frozen: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	var stopped time.Time
	go func() {
		<-b.frozen
		stopped = time.Now()
		cancel()
	}()
	res := Run(ctx, &Plan{Threads: 1, OpCount: 100, Load: true, Workload: &okInserts{}, Sessions: []db.Session{b},
		Measurement: &measurement.Config{Type: measurement.HdrHistogram, HighestLatencyUs: 1e6}})
	if took := time.Since(stopped); took > StopGrace+500*time.Millisecond {
		t.Errorf("the load ended %v after the interrupt, want within %v", took, StopGrace)
	}
	if !res.Interrupted || len(res.CloseErrs) != 1 {
		t.Fatalf("interrupted %v, close errors %v", res.Interrupted, res.CloseErrs)
	}
	if res.Done != 4 || res.Inserted != 0 || res.Succeeded != 0 {
		t.Errorf("done %d, inserted %d, succeeded %d; want 4, 0, 0", res.Done, res.Inserted, res.Succeeded)
	}
	if res.Total.Operations != 4 || res.Total.Failed != 4 {
		t.Errorf("total: %d operations, %d failed; want 4 and 4", res.Total.Operations, res.Total.Failed)
	}
	if !errors.Is(res.CloseErrs[0].Err, context.Canceled) {
		t.Errorf("close error %v, want the stop's", res.CloseErrs[0].Err)
	}
}
