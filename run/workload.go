package run

import (
	"context"
	"sync/atomic"

	"github.com/goycsb/ycsb/session"
)

// Workload is what the workers run: the YCSB CoreWorkload, a
// cassandra-stress command, over the same workers, pacing and measurement.
type Workload interface {
	// NewWorker returns one worker's operations; s records them.
	NewWorker(s *session.Session, seed uint64) Transactor
	// Stop asks every worker to finish its current operation and return.
	Stop()
	// StopFlag is the flag Stop sets. The workers poll it before each
	// operation, directly rather than through a method of the interface:
	// on the no-op binding an indirect call per operation is 1% of the
	// client's instructions.
	StopFlag() *atomic.Bool
}

// Transactor is one worker's operations: a transaction of the run phase, or
// an insert of the load phase. Each returns false when the worker is done.
type Transactor interface {
	DoTransaction(ctx context.Context) bool
	DoInsert(ctx context.Context) bool
}
