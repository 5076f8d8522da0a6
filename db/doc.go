// Package db is the contract between the benchmark and a database binding.
//
// A binding registers a Driver under its names (Register, from an init
// function). For a run the Driver opens one DB, shared by every worker and
// safe for concurrent use (a connection pool, an engine handle). Each worker
// then takes its own Session, the equivalent of the reference's per-thread DB
// instance: it may hold prepared statements, scratch buffers and a batch being
// filled, and it is not safe for concurrent use.
//
// Operations return an error, not a status. nil means OK; StatusOf maps any
// other error to the reference's statuses, and the sentinels (ErrNotFound,
// ErrBatched, ...) are allocation-free. An operation error never stops a run:
// the run counts it and goes on.
//
// Ownership, as in pebble: arguments (key, fields, values) belong to the
// caller and may be reused as soon as the call returns, so a binding that
// keeps them (a batch) must copy. Results are appended into the caller's
// Record or Rows and stay valid until the next call on the same Session.
// fields == nil means all fields.
//
// # Writing a binding
//
// A binding is one folder under db/ that imports this package (and, of
// the contract's internals, only db/internal/...), registers its Driver in
// init and is imported by db/all. Example (Example_binding) shows a whole
// one; its test runs the conformance suite, db/dbtest, which every binding
// runs against its real backend.
//
// # Optional capabilities
//
// Beyond Driver, DB and Session, a binding implements what its database
// can do, as database/sql/driver's drivers do; the program finds each by a
// type assertion and does without it when it is absent. dbtest checks each
// one a binding declares against its contract.
//
// Of the Driver:
//   - Checker: validates the properties without connecting; ycsb kube
//     checks a run's configuration with it before any pod starts
//     (frontend/ycsb's Check, through Check).
//   - TxnDriver: says before the run whether the sessions will be
//     Transactional; the closed economy is refused with its reason
//     (workload's transactions check).
//
// Of the DB:
//   - Remote: a mark that the operations wait on a server; the run sizes
//     the client's processors to its load (run.Plan.AdaptProcs).
//   - StatsReporter: extra report sections after each phase (engine
//     statistics), printed by the front end's report.
//   - Settler: brings the store to a steady state after the measured phase
//     (engine.settle), outside the phase's figures.
//   - Summer: one-statement sum of a field over a table, with which the
//     closed economy validates its total (workload's economy).
//
// Of the Session:
//   - Transactional: several statements in one transaction, retried as the
//     database asks; the closed economy's transfers run through it.
//   - ReadModifyWriter: a read-modify-write as one transaction
//     (jdbc.rmwintxn); the session measures it as one READ-MODIFY-WRITE.
//   - RetryCounter: the retries the session made; the measurements count
//     each operation's growth as its retries.
//
// Conventions rather than interfaces: a session that buffers writes
// answers ErrBatched (BATCHED_OK) and sends the batch by its Close, never
// dropping it; writes lost with a batch are a LostBatchError (LostWrites
// counts them), and a write that may have been applied is marked with
// OutcomeUnknown. The session (package measured) reads all three.
package db
