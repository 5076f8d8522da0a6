// Package workload is what a run drives: the contract every workload
// meets (Workload, its Transactor per worker and the optional Validator),
// the registry the workload property names a workload from (Kind,
// Register), and the registered workloads. Package run drives any
// Workload; the YCSB front end builds one from the registry.
//
// The CoreWorkload is the reference's: which operation to run, on which
// key, with which fields and values; the closed economy (YCSB+T) is a
// CoreWorkload whose transactions move money between accounts and whose
// Validator checks that none was made or lost.
//
// A CoreWorkload is built once from the properties and shared by all
// workers; its shared state is atomic counters only (the load key sequence,
// the acknowledged run-phase insert counter, the sequential chooser). Each
// worker gets a Worker with its own random source, generators that keep
// state (zipfian zeta caches), and reusable buffers for keys, values and
// results, so a transaction allocates nothing once warmed up.
package workload

import (
	"context"
	"sync/atomic"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measured"
)

// Workload is a built workload as a run drives it (package run's
// workers, pacing and measurement): one Transactor per worker, and the
// stop the workers poll. The CoreWorkload is one; a workload that checks
// the database after its run is also a Validator.
type Workload interface {
	// NewTransactor returns one worker's operations, recorded through s,
	// drawing from a random source seeded with seed.
	NewTransactor(s *measured.Session, seed uint64) Transactor
	// Stop asks every worker to finish its current operation and return.
	Stop()
	// Resume clears Stop for another run of the same workload.
	Resume()
	// StopFlag is the flag Stop sets. The workers poll it before each
	// operation, directly rather than through a method of the interface:
	// on the no-op binding an indirect call per operation is 1% of the
	// client's instructions.
	StopFlag() *atomic.Bool
}

// Transactor is one worker's operations: a transaction of the run phase,
// or an insert of the load phase. Each returns false when the worker is
// done.
type Transactor interface {
	DoTransaction(ctx context.Context) bool
	DoInsert(ctx context.Context) bool
}

// Validator is an optional Workload capability: an invariant over the
// database, counted before the run and checked after it (the closed
// economy's balances).
type Validator interface {
	// Count takes the tally the invariant is about, now.
	Count(ctx context.Context, database db.DB) (Tally, error)
	// Validate checks the invariant once the workers have returned,
	// against start (from Count; nil when it was not counted).
	Validate(ctx context.Context, database db.DB, start *Start) *Validation
	// ValidationMethod is how Count and Validate will read database.
	ValidationMethod(database db.DB) string
}
